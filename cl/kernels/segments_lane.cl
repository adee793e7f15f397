/* =================================================================================================
 * segments_lane.cl: segmented reductions (lib/orx_segments.cl), one work-item per segment. For
 * short segments on CPUs: each work-item takes a contiguous run of segments (ORX_STREAM_CHUNK),
 * with no barrier anywhere; on GPUs, where this strategy is only forced, a grid-stride loop over
 * segments. A work-item combines its segment in a fixed order (orx_span_share), so results are
 * deterministic, and in index order for ORX_ORDERED (one element per load, one chain).
 *
 * ORX_SEG_VECTOR_RUNS (the planner's choice: equal lengths of whole vectors from a vector boundary,
 * back to back (pitch == length), contiguous runs, a scalar unordered operator, OpenCL C
 * vectors): a work-item reduces ORX_VEC segments at a time, one vector accumulator each, and
 * folds the ORX_VEC accumulators into one vector of ORX_VEC results together (orx_fold_halves),
 * with one store. Folding each segment's vector alone took a chain of ORX_VEC - 1 dependent
 * combines and a trip through memory per segment: 32-element f32 segments ran at 0.6x of an
 * OpenMP loop on PoCL (see plan_segments.c).
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups.
 * ============================================================================================== */
#include "lib/orx_segments.cl"
#include "lib/orx_stream.cl"

#if ORX_STREAM == ORX_STREAM_TRANSPOSED
#error "segments_lane.cl: a work-item streams its segments alone, without the group's stage"
#endif

#if ORX_SEG_VECTOR_RUNS
#if ORX_STATE || ORX_ORDERED || ORX_SEG_OFFSETS || ORX_VEC == 1 || !ORX_NATIVE_VECTORS ||          \
    ORX_STREAM != ORX_STREAM_CHUNK
#error "ORX_SEG_VECTOR_RUNS: equal lengths, a scalar unordered operator, OpenCL C vectors, runs"
#endif
/* Two vectors of partials, x of segments a and y of segments b, halve: component j of the result
 * combines components 2j and 2j + 1 of x (j < ORX_VEC / 2) or of y. log2(ORX_VEC) rounds fold
 * ORX_VEC vectors, one per segment, into the segments' results in order, each a pairwise tree. */
ORX_INLINE TV orx_fold_halves(TV x, TV y) {
  return orx_combine_v((TV)(x.even, y.even), (TV)(x.odd, y.odd));
}

/* The ORX_VEC segments from segment s, of nvec vectors each, into out[s...]. */
ORX_INLINE void orx_vector_run(const orx_segments *g, ulong s, ulong nvec,
                               ORX_GLOBAL_PTR ORX_RESULT_T *out) {
  ORX_IN_V v = ORX_IN_AS_V(ORX_IN_AT(g->base, s * g->length));
  /* ORX_VEC independent chains, one per segment; unrolled, so that they stay in registers (on
   * PoCL 5 the rolled loops kept them on the stack: 20 % slower). */
  TV part[ORX_VEC];
#pragma unroll
  for (int j = 0; j < ORX_VEC; j++)
    part[j] = ORX_READ_V(v, j * nvec);
  for (ulong k = 1; k < nvec; k++)
#pragma unroll
    for (int j = 0; j < ORX_VEC; j++)
      part[j] = orx_combine_v(part[j], ORX_READ_V(v, j * nvec + k));
#pragma unroll
  for (int pairs = ORX_VEC / 2; pairs >= 1; pairs /= 2)
#pragma unroll
    for (int j = 0; j < pairs; j++)
      part[j] = orx_fold_halves(part[2 * j], part[2 * j + 1]);
#if ORX_NARROW_RESULT
  T r[ORX_VEC];
  ORX_STORE_V(part[0], r);
  for (uint j = 0; j < ORX_VEC; j++)
    ORX_WRITE_RESULT(out, s + j, r[j]);
#else
  ORX_CAT(vstore, ORX_VEC)(part[0], 0, out + s);
#endif
}
#endif

__kernel ORX_KERNEL_ATTR void orx_segments_lane(ORX_SEGMENTS_ARGS) {
  const orx_segments g = orx_segments_of(ORX_IN_OPEN(in, in_offset), misalign, count, length,
                                         pitch, offsets, offsets_index, bias, 0);
  (void)per_round;
  ORX_STREAM_STAGE(stage); /* unused: each work-item streams alone */
  const ulong item = get_global_id(0), items = get_global_size(0);
#if ORX_SEG_VECTOR_RUNS
  /* Runs of ORX_VEC segments split among the work-items, then the few segments left over. */
  const ulong runs = count / ORX_VEC;
  ulong first, end;
  orx_chunk_of(runs, item, items, &first, &end);
  for (ulong r = first; r < end; r++)
    orx_vector_run(&g, r * ORX_VEC, length / ORX_VEC, out + out_index);
  orx_chunk_of(count - runs * ORX_VEC, item, items, &first, &end);
  first += runs * ORX_VEC;
  end += runs * ORX_VEC;
  const ulong step = 1;
#elif ORX_STREAM == ORX_STREAM_CHUNK
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
    orx_span_share(ORX_IN_AT(g.base, begin), n, orx_span_head(misalign + begin, n), 0, 1, 0,
                   stage, &a, &b);
    ORX_WRITE_RESULT(out, out_index + s, orx_combine(a, b));
  }
}
