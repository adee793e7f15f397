/* =================================================================================================
 * segments_mr.cl: segmented reductions (lib/orx_segments.cl) by Parker & MacKinnon's
 * multireduction (lib/orx_multireduce.cl), for short and middling segments on GPUs. Groups of
 * ORX_MR_LANES lanes take ORX_MR_Q <= ORX_MR_LANES segments at a time (ORX_SEG_BATCH sets of them
 * when the lane groups are narrow). Lane j of a group reads loads j, j + W, j + 2W, ... (W lanes)
 * of each of its group's segments, so one load instruction reads W consecutive vectors or
 * elements (with W = 8 vectors of 4 f32 and 32-element segments, lane l reads vector l of each of
 * 8 segments: every load is one coalesced 128-byte line), into v[r], one accumulator per segment.
 * The Q reductions then merge while they exchange: Q - 1 merges and 2(Q - 1) shuffles instead of
 * Q log2(Q), and, where W > Q, log2(W / Q) plain butterfly levels. Lane r then holds segment r and
 * the Q results are stored side by side (coalesced). Q < W spreads a long segment over more lanes
 * without more registers per lane (each slot holds a load and an accumulator).
 *
 * What one load takes (ORX_SEG_LOAD, ids in orx_contract.h): one element; a whole vector of
 * ORX_VEC elements, where the host found every segment aligned to vectors and a whole number of
 * them long (four times the bytes in flight per load for f32); or a vector of the aligned grid
 * of which the elements outside the segment are left out (any lengths, any start: a segment of n
 * elements takes up to (n + 2 ORX_VEC - 2) / ORX_VEC of them; a vector that reaches outside the
 * input is loaded element by element). Vectors are folded in index order; steps and positions
 * in the loops count loads.
 *
 * Merges put the lower lane's value first and each lane's accumulators combine in a fixed order,
 * so results are deterministic; a segment that takes no more than W loads is combined in index
 * order, and so is every segment with ORX_ORDERED: there each pass's W loads merge before they
 * are folded in where shuffles serve a lane group, else each lane takes a contiguous run of loads
 * (orx_seg_lane_loads).
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, a multiple of ORX_MR_LANES; any number of groups.
 * ============================================================================================== */
#include "lib/orx_multireduce.cl"
#include "lib/orx_segments.cl"
#include "lib/orx_split.cl"
#include "lib/orx_stream.cl" /* orx_fold_op */

#define ORX_SEG_W ORX_MR_LANES
/* Slot q of lane group `group` in the block starting at segment `block`: a set spans the
 * work-group's lane groups, Q consecutive segments each. */
#define ORX_SEG_SLOTS (ORX_SEG_BATCH * ORX_MR_Q)
#define ORX_SEG_SET ((ORX_WG_SIZE / ORX_SEG_W) * ORX_MR_Q)
ORX_INLINE ulong orx_mr_slot(ulong block, uint group, uint q) {
  return block + (ulong)(q / ORX_MR_Q) * ORX_SEG_SET + group * ORX_MR_Q + q % ORX_MR_Q;
}

#if ORX_SEG_LOAD == ORX_SEG_ELEMENTS
#define orx_seg_load_t T
#else
#define orx_seg_load_t TV
#endif

/* Loads a segment of n elements at `begin` takes. */
ORX_INLINE ulong orx_seg_steps(const orx_segments *g, ulong begin, ulong n) {
#if ORX_SEG_LOAD != ORX_SEG_MASKED
  (void)g;
  (void)begin;
  return ORX_SEG_LOAD == ORX_SEG_VECTORS ? n / ORX_VEC : n;
#else
  const ulong first = g->misalign + begin;
  return n ? (first + n + ORX_VEC - 1) / ORX_VEC - first / ORX_VEC : 0;
#endif
}

/* Load j of the segment at `begin`. */
ORX_INLINE orx_seg_load_t orx_seg_load(const orx_segments *g, ulong begin, ulong j) {
#if ORX_SEG_LOAD == ORX_SEG_ELEMENTS
  return ORX_READ(g->base, begin + j);
#elif ORX_SEG_LOAD == ORX_SEG_VECTORS
  return ORX_READ_V(ORX_IN_AS_V(ORX_IN_AT(g->base, begin)), j);
#else
  return orx_seg_grid_load(g, (g->misalign + begin) / ORX_VEC + j);
#endif
}

/* Load j (x) of the segment of n elements at `begin`, folded to one accumulator value (state
 * operators map each element with its index in the segment). */
ORX_INLINE A orx_seg_fold(const orx_segments *g, orx_seg_load_t x, ulong begin, ulong n, ulong j) {
#if ORX_SEG_LOAD != ORX_SEG_MASKED
  (void)g;
  (void)begin;
  (void)n;
#if ORX_SEG_LOAD == ORX_SEG_ELEMENTS
  return ORX_MAP(x, j);
#else
  return orx_fold_mapped(x, j * ORX_VEC);
#endif
#else
  const ulong skip = (g->misalign + begin) % ORX_VEC; /* components before the segment */
  T c[ORX_VEC];
  ORX_STORE_V(x, c);
  A r = ORX_IDENTITY;
  for (uint k = 0; k < ORX_VEC; k++) {
    /* Component k's position in the segment; before its start, it wraps past any length. */
    const ulong at = j * ORX_VEC + k - skip;
    if (at < n)
      r = orx_absorb(r, c[k], at);
  }
  return r;
#endif
}

/* The loads [*begin, *end) with step *step of `steps` that lane `lane` of its group takes: every
 * W-th, so that one load instruction of the group reads W consecutive loads. With ORX_ORDERED,
 * either a contiguous run, so that the lanes' accumulators follow index order (lib/orx_split.cl),
 * or, where each pass's W loads merge in lane order before they are folded (`merged`), every
 * W-th, every lane as many passes (those past `steps` take nothing). */
ORX_INLINE void orx_seg_lane_loads(ulong steps, uint lane, int merged, ulong *begin, ulong *end,
                                   ulong *step) {
#if ORX_ORDERED
  if (!merged) {
    orx_chunk_of(steps, lane, ORX_SEG_W, begin, end);
    *step = 1;
    return;
  }
  *end = (steps + ORX_SEG_W - 1) / ORX_SEG_W * ORX_SEG_W;
#else
  (void)merged;
  *end = steps;
#endif
  *begin = lane;
  *step = ORX_SEG_W;
}

/* A merged pass (ORX_ORDERED): the W loads of each slot, folded into f[] (the identity past the
 * slot's end), reduce across the lane group in lane order, which is index order, and lane r folds
 * slot r's (r mod Q) into its batch's accumulator v[b * Q] after the passes before. Contiguous
 * runs per lane read W lines per load instruction where merged passes read one: H200, CUDA, an
 * ordered 8-byte state over 2^26 f32 in runs of 1000 (mean), 1.67 ms and 3.95 GB read from
 * memory for 0.27 of values, merged 370 us and 0.54 GB (docs/perf/h200-by-key.txt). */
ORX_INLINE void orx_seg_merge_pass(A *v, A *f, uint lane, ORX_LOCAL_PTR A *scratch) {
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
  for (uint b = 0; b < ORX_SEG_BATCH; b++)
    v[b * ORX_MR_Q] =
        orx_combine(v[b * ORX_MR_Q], orx_mr_reduce(f + b * ORX_MR_Q, lane, 1, scratch));
}

__kernel ORX_KERNEL_ATTR void orx_segments_mr(ORX_SEGMENTS_ARGS) {
  const orx_segments g = orx_segments_of(ORX_IN_OPEN(in, in_offset), misalign, count, length,
                                         pitch, offsets, offsets_index, bias,
                                         ORX_SEG_LOAD == ORX_SEG_MASKED);
  (void)per_round;
  __local A scratch[2 * ORX_WG_SIZE];
  const uint lid = (uint)get_local_id(0);
  const uint lane = lid % ORX_SEG_W, group = lid / ORX_SEG_W;
  const int shuffle = orx_mr_can_shuffle();
  /* Ordered operators merge every pass where shuffles serve each lane group alone: every pass of
   * one the same for its subgroup (equal lengths: the work-group's). */
  const int merged = ORX_ORDERED && shuffle && (!ORX_SEG_OFFSETS || orx_sg_size() == ORX_SEG_W);
  /* Each round, a work-group takes ORX_SEG_BATCH sets of segments. The loop is the same for
   * every work-item of the group (local-memory merges have barriers). */
  const ulong round = (ulong)ORX_SEG_BATCH * ORX_SEG_SET;
  for (ulong block = get_group_id(0) * round; block < count; block += get_num_groups(0) * round) {
    A v[ORX_SEG_SLOTS]; /* v[q]: this lane's share of slot q's segment */
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint q = 0; q < ORX_SEG_SLOTS; q++)
      v[q] = ORX_IDENTITY;
#if !ORX_SEG_OFFSETS
    /* Equal lengths: slot q's segment starts at s * pitch; a slot past the last segment reads
     * segment 0 (block < count, so it exists) and is ignored. No per-slot positions or lengths
     * live across the loop: on the H200, 56 registers instead of 80 for 8 vector slots, and
     * 32-element segments at 3.4-3.7 TB/s instead of 2.7-2.9. */
    /* The most loads a segment takes: one whose first element is the last of a vector. */
    const ulong steps = orx_seg_steps(&g, ORX_VEC - 1 - misalign, g.length);
    ulong j_begin, j_end, j_step;
    orx_seg_lane_loads(steps, lane, merged, &j_begin, &j_end, &j_step);
    for (ulong j = j_begin; j < j_end; j += j_step) {
      const int past = merged && j >= steps; /* a merged pass's lane past the end: load 0, unused */
      const ulong at = past ? 0 : j;
      orx_seg_load_t x[ORX_SEG_SLOTS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const ulong s = orx_mr_slot(block, group, q);
        x[q] = orx_seg_load(&g, (s < count ? s : 0) * ORX_SEG_PITCH_OF(&g), at);
      }
      /* Each slot's load folded (merged passes: kept apart), the combine and the select kept so:
       * the same combine under a condition cost CUDA's f32 sums in 33-element segments 23 %. */
      A folded[ORX_SEG_SLOTS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const ulong s = orx_mr_slot(block, group, q);
        const ulong begin = (s < count ? s : 0) * ORX_SEG_PITCH_OF(&g);
        const A f = orx_seg_fold(&g, x[q], begin, g.length, at);
        const A y = orx_combine(v[q], f);
        v[q] = s < count && !merged ? y : v[q];
        folded[q] = s < count && !past ? f : ORX_IDENTITY;
      }
      if (merged)
        orx_seg_merge_pass(v, folded, lane, scratch);
    }
#else
    /* Offsets: the lane group's longest segment sets the steps; a slot past its segment's end
     * loads the anchor (longest) segment's data, which another lane loads anyway, and ignores
     * it. */
    ulong longest = 0, anchor = 0;
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
      const ulong s = orx_mr_slot(block, group, q);
      ulong begin = 0, n = 0;
      if (s < count)
        orx_segment(&g, s, &begin, &n);
      const ulong steps = orx_seg_steps(&g, begin, n);
      anchor = steps > longest ? begin : anchor;
      longest = steps > longest ? steps : longest;
    }
    /* Column by column: each pass issues one load per slot before it combines any, so every load
     * is in flight at once. */
    ulong j_begin, j_end, j_step;
    orx_seg_lane_loads(longest, lane, merged, &j_begin, &j_end, &j_step);
    for (ulong j = j_begin; j < j_end; j += j_step) {
      const ulong at = merged && j >= longest ? 0 : j; /* a merged pass's lane past the end */
      orx_seg_load_t x[ORX_SEG_SLOTS];
      ulong begins[ORX_SEG_SLOTS], lengths[ORX_SEG_SLOTS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const ulong s = orx_mr_slot(block, group, q);
        ulong begin = anchor, n = 0;
        if (s < count)
          orx_segment(&g, s, &begin, &n);
        lengths[q] = j < orx_seg_steps(&g, begin, n) ? n : 0; /* 0: nothing of it here */
        begins[q] = lengths[q] ? begin : anchor;
        x[q] = orx_seg_load(&g, begins[q], at);
      }
      A folded[ORX_SEG_SLOTS]; /* as above */
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const A f = orx_seg_fold(&g, x[q], begins[q], lengths[q], at);
        const A y = orx_combine(v[q], f);
        v[q] = lengths[q] && !merged ? y : v[q];
        folded[q] = lengths[q] ? f : ORX_IDENTITY;
      }
      if (merged)
        orx_seg_merge_pass(v, folded, lane, scratch);
    }
#endif
    /* Lane r of each lane group (r < Q) ends with slot b * Q + r, stored side by side. */
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint b = 0; b < ORX_SEG_BATCH; b++) {
      const A x =
          merged ? v[b * ORX_MR_Q] : orx_mr_reduce(v + b * ORX_MR_Q, lane, shuffle, scratch);
      const ulong s = orx_mr_slot(block, group, b * ORX_MR_Q + lane % ORX_MR_Q);
      if (lane < ORX_MR_Q && s < count)
        ORX_WRITE_RESULT(out, out_index + s, x);
    }
  }
}
