/* =================================================================================================
 * segments_staged.cl: segmented reductions (lib/orx_segments.cl) of equal lengths that the
 * multireduction cannot spread evenly over its lanes (33 elements span 9 vectors: a lane group of
 * 16 leaves 7 idle). A work-group loads a tile of `per_round` whole segments (at most
 * ORX_SEG_STAGE elements, one segment per work-item) into local memory with every lane reading
 * consecutive vectors, then each work-item combines one segment from local memory in index order,
 * and the results are stored side by side. Results are deterministic. State operators keep their
 * state in registers: the stage holds elements of a scalar type only. An operator may reduce a
 * whole result in two passes over it (ORX_STATE_TWO_PASS_T: _BEGIN(), _SCAN(&t, x) per element,
 * then where _READY(&t, count), _ABSORB(&t, x) per element and _RESULT(t)), as the f32
 * reproducible sum does; the segments it does not take go the operator's usual way.
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups; equal lengths back to back
 * (pitch == length: a tile is one contiguous run) only, with
 * 1 <= per_round <= ORX_WG_SIZE and per_round * length <= ORX_SEG_STAGE (the planner's tile).
 * ============================================================================================== */
#include "lib/orx_segments.cl"

/* Position of tile element i in the stage: one element of padding after every 32, so that work-
 * items reading their own segments at a stride of `length` elements hit different local-memory
 * banks (32-element segments would all hit one bank unpadded). A vector (ORX_VEC divides 32)
 * never straddles the padding. */
#define ORX_STAGE_AT(i) ((i) + (i) / 32)
/* Vector loads each work-item has in flight before it stores any. */
#define ORX_STAGE_LOADS 8
#if ORX_STATE && !ORX_INPUT_STATES && defined(ORX_STATE_CHAIN_T) && defined(ORX_STATE_CHAIN_NEUTRAL)
#define ORX_STAGED_CHAIN 1
#else
#define ORX_STAGED_CHAIN 0
#endif

__kernel ORX_KERNEL_ATTR void orx_segments_staged(ORX_SEGMENTS_ARGS) {
  const orx_segments g = orx_segments_of(ORX_IN_OPEN(in, in_offset), misalign, count, length,
                                         pitch, offsets, offsets_index, bias, 1);
  __local T stage[ORX_STAGE_AT(ORX_SEG_STAGE + 2 * ORX_VEC)];
  const uint lid = (uint)get_local_id(0);
  for (ulong first = get_group_id(0) * per_round; first < count;
       first += get_num_groups(0) * per_round) {
    const ulong n_seg = count - first < per_round ? count - first : per_round;
    const ulong from = misalign + first * length; /* the tile's first element on the grid */
    const ulong v0 = from / ORX_VEC;
    const uint n_vec = (uint)((from + n_seg * length + ORX_VEC - 1) / ORX_VEC - v0);
    /* Every load of the group reads consecutive vectors; ORX_STAGE_LOADS of them in flight per
     * work-item before any is stored. Vector i of the tile goes to stage position i * ORX_VEC
     * (one segment's elements stay in order). */
    for (uint i = lid; i < n_vec; i += ORX_WG_SIZE * ORX_STAGE_LOADS) {
      TV x[ORX_STAGE_LOADS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint k = 0; k < ORX_STAGE_LOADS; k++) {
        const uint at = i + k * ORX_WG_SIZE;
        x[k] = orx_seg_grid_load(&g, v0 + (at < n_vec ? at : 0));
      }
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint k = 0; k < ORX_STAGE_LOADS; k++) {
        const uint at = i + k * ORX_WG_SIZE;
        if (at < n_vec)
          ORX_STORE_V(x[k], stage + ORX_STAGE_AT(at * ORX_VEC));
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < n_seg) {
      const uint head = (uint)(from % ORX_VEC) + lid * (uint)length;
#if defined(ORX_STATE_TWO_PASS_T)
      /* Two passes (the f32 reproducible sum: one integer per element once the first pass has
       * found the largest magnitude, lib/orx_repro.cl); segments they do not take go on below. */
      ORX_STATE_TWO_PASS_T whole = ORX_STATE_TWO_PASS_BEGIN();
      for (uint j = 0; j < (uint)length; j++)
        ORX_STATE_TWO_PASS_SCAN(&whole, stage[ORX_STAGE_AT(head + j)]);
      const int two_pass = ORX_STATE_TWO_PASS_READY(&whole, length);
      if (two_pass) {
        for (uint j = 0; j < (uint)length; j++)
          ORX_STATE_TWO_PASS_ABSORB(&whole, stage[ORX_STAGE_AT(head + j)]);
        out[out_index + first + lid] = ORX_STATE_TWO_PASS_RESULT(whole);
      }
#else
      const int two_pass = 0;
#endif
      if (!two_pass) {
#if ORX_STAGED_CHAIN
        /* An operator with a chain of its own and an element it absorbs as nothing (the
         * reproducible sum) takes the segment as vectors, the last one filled with that element:
         * the chain's vector step, not a whole state's per element (H200, 32-element segments,
         * see docs/PERFORMANCE.md). */
        ORX_STATE_CHAIN_T chain = ORX_STATE_CHAIN_IDENTITY();
        for (uint j = 0; j < (uint)length; j += ORX_VEC) {
          T e[ORX_VEC];
          for (uint k = 0; k < ORX_VEC; k++)
            e[k] = j + k < (uint)length ? stage[ORX_STAGE_AT(head + j + k)]
                                        : ORX_STATE_CHAIN_NEUTRAL;
          ORX_STATE_CHAIN_ABSORB(&chain, ORX_LOAD_V(e), j);
        }
        ORX_WRITE_RESULT(out, out_index + first + lid, ORX_STATE_CHAIN_STATE(chain));
#else
        A r = ORX_IDENTITY;
        for (uint j = 0; j < (uint)length; j++)
          r = orx_absorb(r, stage[ORX_STAGE_AT(head + j)], j);
        ORX_WRITE_RESULT(out, out_index + first + lid, r);
#endif
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tile overwrites the stage */
  }
}
