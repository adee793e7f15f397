/* =================================================================================================
 * orx_finish.cl: the last work-group finishes. A launch of several work-groups ends with one of
 * them combining the partial results that every group wrote: each group publishes its partials
 * and counts itself on a counter in global memory with an atomic, and the group that brings the
 * count to the number of groups knows that every partial is written. It sets the counter back to
 * zero for the next launch, so that no launch needs a memset (CUDA's threadFenceReduction
 * sample does the same).
 * ============================================================================================== */
#ifndef ORX_FINISH_CL
#define ORX_FINISH_CL

#include "lib/orx_dialect.cl"

/* Called by every work-item of the group once work-items [0, writers) have written the group's
 * partials (writers is a constant: with one writer, work-item 0, the count needs no barrier
 * before it). Returns 1 in every work-item of the last group to arrive, which may then read the
 * other groups' partials through a volatile pointer; 0 in the other groups, which are done. */
ORX_INLINE int orx_last_group(ORX_GLOBAL_PTR uint *counter, uint writers,
                              ORX_LOCAL_PTR uint *is_last) {
  const uint lid = (uint)get_local_id(0);
  if (lid < writers)
    mem_fence(CLK_GLOBAL_MEM_FENCE); /* this work-item's partials before the count */
  if (writers > 1)
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) {
    *is_last = (atomic_inc(counter) == (uint)get_num_groups(0) - 1) ? 1u : 0u;
    if (*is_last)
      *counter = 0; /* every group has counted itself: ready for the next launch */
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!*is_last)
    return 0;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  return 1;
}

#endif /* ORX_FINISH_CL */
