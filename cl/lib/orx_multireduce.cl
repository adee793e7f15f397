/* =================================================================================================
 * orx_multireduce.cl: Parker & MacKinnon's multireduction for the library's kernels. ORX_MR_Q
 * independent reductions (a power of two), one value of each in every lane, reduced across groups
 * of ORX_MR_LANES consecutive lanes (a power of two, at least ORX_MR_Q; by default ORX_MR_Q):
 * afterwards lane l holds reduction (l mod ORX_MR_Q), combined over its group. The algorithm is
 * the collectives' (orx_multireduce_at, ocl_reduce_collectives.inc); this file fixes its shape
 * for the kernel.
 *
 * Reduction r takes operator slot r (ORX_SLOTS == 1: every reduction the kernel's operator; the
 * loops over slots are unrolled where the host sets ORX_UNROLL_SLOTS, GPUs, so that v[] stays in
 * registers; see src/planner/planner.c for why not everywhere). Merges go through subgroup shuffles
 * when the subgroup holds whole groups of lanes (`shuffle`), else through local memory, where
 * every work-item of the work-group must take part (`scratch`: 2 * ORX_WG_SIZE).
 * ============================================================================================== */
#ifndef ORX_MULTIREDUCE_CL
#define ORX_MULTIREDUCE_CL

#include "lib/orx_workgroup.cl"

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
 * ORX_MR_LANES. Returns reduction (lane mod ORX_MR_Q). */
ORX_INLINE A orx_mr_reduce(A *v, uint lane, int shuffle, ORX_LOCAL_PTR A *scratch) {
  return orx_multireduce_at(v, ORX_MR_Q, ORX_MR_LANES, lane, shuffle ? ORX_MR_LANES : 0u, scratch);
}

#endif /* ORX_MULTIREDUCE_CL */
