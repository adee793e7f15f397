/* =================================================================================================
 * segments_lane.cl: segmented reductions (lib/orx_segments.cl), one work-item per segment. For
 * short segments on CPUs: each work-item takes a contiguous run of segments (ORX_STREAM_CHUNK),
 * with no barrier anywhere; on GPUs, where this strategy is only forced, a grid-stride loop over
 * segments. A work-item combines its segment in a fixed order (orx_span_share), so results are
 * deterministic, and in index order for ORX_ORDERED (one element per load, one chain).
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups.
 * ============================================================================================== */
#include "lib/orx_segments.cl"
#include "lib/orx_stream.cl"

#if ORX_STREAM == ORX_STREAM_TRANSPOSED
#error "segments_lane.cl: a work-item streams its segments alone, without the group's stage"
#endif

__kernel ORX_KERNEL_ATTR void orx_segments_lane(ORX_SEGMENTS_ARGS) {
  const orx_segments g = orx_segments_of(in, in_offset, misalign, count, length, offsets,
                                         offsets_index, bias, 0);
  (void)per_round;
  ORX_STREAM_STAGE(stage); /* unused: each work-item streams alone */
  const ulong item = get_global_id(0), items = get_global_size(0);
#if ORX_STREAM == ORX_STREAM_CHUNK
  ulong first, end;
  orx_chunk_of(count, item, items, &first, &end);
  const ulong step = 1;
#else
  const ulong first = item, end = count, step = items;
#endif
  for (ulong s = first; s < end; s += step) {
    ulong begin, n;
    orx_segment(&g, s, &begin, &n);
    A a, b;
    orx_span_share(g.base + begin, n, orx_span_head(misalign + begin, n), 0, 1, 0, stage, &a,
                   &b);
    out[out_index + s] = orx_result(orx_combine(a, b));
  }
}
