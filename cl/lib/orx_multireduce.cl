/* =================================================================================================
 * orx_multireduce.cl: Parker & MacKinnon's multireduction. ORX_MR_Q independent reductions (a power
 * of two), one value of each in every lane, reduced across groups of ORX_MR_LANES consecutive
 * lanes (a power of two, at least ORX_MR_Q; by default ORX_MR_Q): afterwards lane l holds
 * reduction (l mod ORX_MR_Q), combined over its group.
 *
 * Level by level, pairs of reductions merge while they exchange: at the level of `mask`, lanes
 * with `mask` clear keep the first of each pair and the others the second, so the pair shares one
 * exchange (§2). q reductions cost q - 1 merges, and 2(q - 1) shuffles (or, through local memory,
 * 2(q - 1) writes and q - 1 reads, §6), instead of q log2(q) exchanges. With more lanes than
 * reductions, the levels above q are plain butterflies: every lane of a pair keeps the same one.
 *
 * Reduction r takes operator slot r (ORX_SLOTS == 1: every reduction the kernel's operator; the
 * loops over slots are unrolled where the host sets ORX_UNROLL_SLOTS, GPUs, so that v[] stays in
 * registers; see src/core/planner.c for why not everywhere). Merges go through
 * subgroup shuffles when the subgroup holds whole groups of lanes (`shuffle`), else through local
 * memory, where every work-item of the work-group must take part (`scratch`: 2 * ORX_WG_SIZE).
 * ============================================================================================== */
#ifndef ORX_MULTIREDUCE_CL
#define ORX_MULTIREDUCE_CL

#include "lib/orx_workgroup.cl"

/* Reduction r takes operator slot r (orx_ops.cl): one operator for segmented reductions, a
 * per-reduction choice for several operators at once. */
#define ORX_MR_OP(r) orx_slot_op(r)

/* The reduction v[i] holds at the level of `mask`: lanes that differ below `mask` have already
 * taken different reductions of each pair. */
#define ORX_MR_INDEX(i, mask, lane) ((i) * (mask) + ((lane) & ((mask)-1u)))

ORX_INLINE A orx_mr_merge(A a, A b, uint mask, int op_a, int op_b, int shuffle,
                          ORX_LOCAL_PTR A *scratch) {
#if ORX_SG_HAS_SHUFFLE
  if (shuffle)
    return orx_sg_merge_ops(a, b, mask, op_a, op_b);
#else
  (void)shuffle;
#endif
  return orx_lm_merge_ops(a, b, mask, op_a, op_b, scratch);
}

/* Whether the merges can use shuffles: the subgroup must hold whole groups of ORX_MR_LANES lanes.
 * The answer is the same for the whole work-group. */
ORX_INLINE int orx_mr_can_shuffle(void) {
#if ORX_SG_HAS_SHUFFLE
  return orx_sg_size() % ORX_MR_LANES == 0;
#else
  return 0;
#endif
}

/* v[0 .. ORX_MR_Q): this lane's value of each reduction; lane: its index in its group of
 * ORX_MR_LANES. Returns reduction (lane mod ORX_MR_Q). The loops have bounds known at compile
 * time, so unrolled they keep v in registers. */
ORX_INLINE A orx_multireduce(A *v, uint lane, int shuffle, ORX_LOCAL_PTR A *scratch) {
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
  for (uint mask = 1; mask < ORX_MR_Q; mask <<= 1) {
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint j = 0; j < ORX_MR_Q / (2 * mask); j++)
      v[j] = orx_mr_merge(v[2 * j], v[2 * j + 1], mask, ORX_MR_OP(ORX_MR_INDEX(2 * j, mask, lane)),
                          ORX_MR_OP(ORX_MR_INDEX(2 * j + 1, mask, lane)), shuffle, scratch);
  }
  A x = v[0];
  const int op = ORX_MR_OP(lane % ORX_MR_Q);
  for (uint mask = ORX_MR_Q; mask < ORX_MR_LANES; mask <<= 1)
    x = orx_mr_merge(x, x, mask, op, op, shuffle, scratch);
  return x;
}

#endif /* ORX_MULTIREDUCE_CL */
