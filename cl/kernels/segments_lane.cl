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
/* A segment's vector accumulator, orx_run_v: float MIN and MAX streamed as whole vectors of keys
 * (ORX_FLOAT_KEYS 2, CPU devices; lib/orx_keys.cl) keep keys, folded as keys too and made values
 * once per run, so that an element costs one integer min or max and its key's three operations
 * rather than IEEE 754's two NaN tests, two compares and a tie's select. PoCL 5 on 16 cores, f32
 * max of 2^24 in segments of 32: 342-355 us as floats, 253-273 as keys, i32 max's time
 * (docs/perf/pocl5-segments-lane-keys.txt). Every other operator accumulates its values. */
#if ORX_KEY_CHAINS && ORX_FLOAT_KEYS == 2
typedef orx_keys orx_run_v;
ORX_INLINE orx_run_v orx_run_first(TV x) {
  orx_keys c = orx_keys_identity(ORX_OP_ID);
  orx_keys_absorb(ORX_OP_ID, &c, x);
  return c;
}
#define orx_run_absorb(c, x) orx_keys_absorb(ORX_OP_ID, &(c), (x))
#define orx_run_pick(a, b) orx_keys_merge(ORX_OP_ID, (a), (b))
#define orx_run_value(c) orx_keys_value(ORX_OP_ID, (c))
#else
typedef TV orx_run_v;
#define orx_run_first(x) (x)
#define orx_run_absorb(c, x) ((c) = orx_combine_v((c), (x)))
#define orx_run_pick(a, b) orx_combine_v((a), (b))
#define orx_run_value(c) (c)
#endif

/* Two vectors of partials, x of segments a and y of segments b, halve: component j of the result
 * combines components 2j and 2j + 1 of x (j < ORX_VEC / 2) or of y. log2(ORX_VEC) rounds fold
 * ORX_VEC vectors, one per segment, into the segments' results in order, each a pairwise tree. */
ORX_INLINE orx_run_v orx_fold_halves(orx_run_v x, orx_run_v y) {
  return orx_run_pick((orx_run_v)(x.even, y.even), (orx_run_v)(x.odd, y.odd));
}

/* Vector k of the run from element p: from any element boundary where the kernel reads its
 * elements as they are (vloadN; the planner takes vector runs from any start there, so that a
 * view of host memory where it lies runs its staged copy's plan: plan_segments.c), else from a
 * vector boundary. */
#if ORX_ELEM_TYPE_ID == ORX_NO_TYPE && ORX_PAIR_OP == ORX_PAIR_NONE
#define ORX_RUN_READ(p, k) ORX_CAT(vload, ORX_VEC)((k), (p))
#else
#define ORX_RUN_READ(p, k) ORX_READ_V(ORX_IN_AS_V(p), (k))
#endif

/* The `present` (<= ORX_VEC) segments from segment s, of nvec vectors each, into out[s...]. A
 * run of fewer (the call's last) takes the same steps for each of its segments, so a segment's
 * bits depend on its elements alone, not on where it lies nor on which batch it falls in. */
ORX_INLINE void orx_vector_run(const orx_segments *g, ulong s, ulong nvec, uint present,
                               ORX_GLOBAL_PTR ORX_RESULT_T *out) {
  ORX_IN p = ORX_IN_AT(g->base, s * g->length);
  /* ORX_VEC independent chains, one per segment; unrolled, so that they stay in registers (on
   * PoCL 5 the rolled loops kept them on the stack: 20 % slower). A missing segment's chain
   * keeps the first one's start: folded apart from the others, and never stored. */
  orx_run_v part[ORX_VEC];
  part[0] = orx_run_first(ORX_RUN_READ(p, 0));
#pragma unroll
  for (uint j = 1; j < ORX_VEC; j++)
    part[j] = j < present ? orx_run_first(ORX_RUN_READ(p, j * nvec)) : part[0];
  for (ulong k = 1; k < nvec; k++)
#pragma unroll
    for (uint j = 0; j < ORX_VEC; j++)
      if (j < present)
        orx_run_absorb(part[j], ORX_RUN_READ(p, j * nvec + k));
#pragma unroll
  for (int pairs = ORX_VEC / 2; pairs >= 1; pairs /= 2)
#pragma unroll
    for (int j = 0; j < pairs; j++)
      part[j] = orx_fold_halves(part[2 * j], part[2 * j + 1]);
  const TV results = orx_run_value(part[0]);
#if !ORX_NARROW_RESULT
  if (present == ORX_VEC) {
    ORX_CAT(vstore, ORX_VEC)(results, 0, out + s);
    return;
  }
#endif
  T r[ORX_VEC];
  ORX_STORE_V(results, r);
  for (uint j = 0; j < present; j++)
    ORX_WRITE_RESULT(out, s + j, r[j]);
}
#endif

__kernel ORX_KERNEL_ATTR void orx_segments_lane(ORX_SEGMENTS_ARGS) {
  const orx_segments g = orx_segments_of(ORX_IN_OPEN(in, in_offset), misalign, count, length,
                                         pitch, offsets, offsets_index, bias, 0);
  (void)per_round;
  ORX_STREAM_STAGE(stage); /* unused: each work-item streams alone */
  const ulong item = get_global_id(0), items = get_global_size(0);
#if ORX_SEG_VECTOR_RUNS
  /* Runs of ORX_VEC segments split among the work-items; the last work-item takes the few
   * segments left over as one shorter run. */
  const ulong runs = count / ORX_VEC;
  ulong first, end;
  orx_chunk_of(runs, item, items, &first, &end);
  for (ulong r = first; r < end; r++)
    orx_vector_run(&g, r * ORX_VEC, length / ORX_VEC, ORX_VEC, out + out_index);
  const uint left = (uint)(count - runs * ORX_VEC);
  if (left && item == items - 1)
    orx_vector_run(&g, runs * ORX_VEC, length / ORX_VEC, left, out + out_index);
#else
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
    orx_span_share(ORX_IN_AT(g.base, begin), n, orx_span_head(misalign + begin, n), 0, 1, 0,
                   stage, &a, &b);
    ORX_WRITE_RESULT(out, out_index + s, orx_combine(a, b));
  }
#endif
}
