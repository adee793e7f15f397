/* =================================================================================================
 * segments_group.cl: segmented reductions (lib/orx_segments.cl), one work-group per segment, for
 * long segments: the whole-array code path (orx_span_share and orx_wg_reduce2) on each segment
 * in turn. Merges and trees put the lower lane's value first, so results are deterministic.
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups.
 * ============================================================================================== */
#include "lib/orx_segments.cl"
#include "lib/orx_stream.cl"
#include "lib/orx_workgroup.cl"

__kernel ORX_KERNEL_ATTR void orx_segments_group(ORX_SEGMENTS_ARGS) {
  const orx_segments g = orx_segments_of(ORX_IN_OPEN(in, in_offset), misalign, count, length,
                                         pitch, offsets, offsets_index, bias, 0);
  (void)per_round;
  __local A scratch[2 * ORX_WG_SIZE];
  ORX_STREAM_STAGE(stage);
  const ulong lid = get_local_id(0);
  for (ulong s = get_group_id(0); s < count; s += get_num_groups(0)) {
    ulong begin, n;
    orx_segment(&g, s, &begin, &n);
    A a, b;
    orx_span_share(ORX_IN_AT(g.base, begin), n, orx_span_head(misalign + begin, n), lid,
                   ORX_WG_SIZE, 0, stage, &a, &b);
    const A r = orx_wg_reduce2(a, b, scratch);
    if (lid == 0)
      ORX_WRITE_RESULT(out, out_index + s, r);
  }
}
