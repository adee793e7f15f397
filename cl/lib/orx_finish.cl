/* =================================================================================================
 * orx_finish.cl: the last work-group finishes. A launch of several work-groups ends with one of
 * them combining the partial results that every group wrote: each group publishes its partials
 * and counts itself on a counter in global memory with an atomic, and the group that brings the
 * count to the number of groups knows that every partial is written. It sets the counter back to
 * zero for the next launch, so that no launch needs a memset (CUDA's threadFenceReduction
 * sample does the same).
 *
 * "Knows" needs the memory model's word for it: the count must release the group's partials,
 * and the last group acquire every earlier group's, at the scope of the whole device (ORX_SYNC,
 * a device fact the host passes):
 *   CL_ATOMICS  OpenCL C 2.0/3.0: the count a release read-modify-write at memory_scope_device,
 *               the last group's acquire a fence;
 *   PTX         NVIDIA's OpenCL, whose OpenCL C has no device scope: fences before the atomic and
 *               after it, in inline PTX (membar.gl, a sequentially consistent fence at GPU
 *               scope: the release and acquire patterns of the PTX memory model);
 *   CUDA        the same fences as __threadfence (CUDA's documented pattern);
 *   NONE        OpenCL 1.x orders nothing between work-groups: the host does not use the last
 *               group there, but finishes by a second launch (ORX_FINISH_LAUNCH, launch.c).
 * Within the group a barrier orders the writers' partials before work-item 0 counts, and work-item
 * 0's acquire before the other work-items read.
 * ============================================================================================== */
#ifndef ORX_FINISH_CL
#define ORX_FINISH_CL

#include "lib/orx_dialect.cl"

#if !ORX_FINISH_LAUNCH

/* orx_count_in: one count on *counter that releases what the work-group wrote; the count before.
 * orx_acquire: after the count that made the group the last, acquires what the groups that
 * counted before it released. orx_count_reset: the counter back to zero, once all have counted. */
#if ORX_SYNC == ORX_SYNC_CL_ATOMICS
/* C11's rules: release read-modify-writes form one release sequence, which an acquire fence after
 * reading from it synchronizes with. */
ORX_INLINE uint orx_count_in(ORX_GLOBAL_PTR uint *counter) {
  return atomic_fetch_add_explicit((volatile __global atomic_uint *)counter, 1u,
                                   memory_order_release, memory_scope_device);
}
#define orx_acquire()                                                                              \
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device)
ORX_INLINE void orx_count_reset(ORX_GLOBAL_PTR uint *counter) {
  atomic_store_explicit((volatile __global atomic_uint *)counter, 0u, memory_order_relaxed,
                        memory_scope_device);
}
#elif ORX_SYNC == ORX_SYNC_PTX || ORX_SYNC == ORX_SYNC_CUDA
/* The PTX memory model's patterns: a fence then a strong write releases, a strong read then a
 * fence acquires (atom is strong, at GPU scope). */
#if ORX_SYNC == ORX_SYNC_PTX
#define orx_device_fence() __asm__ volatile("membar.gl;" ::: "memory")
#else
#define orx_device_fence() __threadfence()
#endif
#define orx_acquire() orx_device_fence()
ORX_INLINE uint orx_count_in(ORX_GLOBAL_PTR uint *counter) {
  orx_device_fence(); /* release */
  return atomic_inc(counter);
}
ORX_INLINE void orx_count_reset(ORX_GLOBAL_PTR uint *counter) {
  (void)atomic_xchg(counter, 0u);
}
#elif ORX_SYNC == ORX_SYNC_HOST
/* src/host/host_prelude.h defines them with C11's atomics. */
#else
#error "a last-group finish needs ordering between work-groups (ORX_SYNC); finish by launch"
#endif

/* Called by every work-item of the group once work-items [0, writers) have written the group's
 * partials; `arrivals` groups count on *counter (the launch's, or those of one block of
 * columns: kernels/axes_columns.cl). Returns 1 in every work-item of the last group to arrive,
 * which may then read the other groups' partials through a volatile pointer; 0 in the other
 * groups, which are done. Only the last group pays for the acquire and its second barrier: at
 * 2^16 to 2^22 elements a fence after every group's count cost the H200 5-16 % of the f32 sum. */
ORX_INLINE int orx_last_group(ORX_GLOBAL_PTR uint *counter, uint writers, uint arrivals,
                              ORX_LOCAL_PTR uint *is_last) {
  const uint lid = (uint)get_local_id(0);
  if (writers > 1)
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* the writers' partials first */
  if (lid == 0) {
    *is_last = orx_count_in(counter) == arrivals - 1 ? 1u : 0u;
    if (*is_last) {
      orx_acquire();
      orx_count_reset(counter); /* every group has counted itself: ready for the next launch */
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!*is_last)
    return 0;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* work-item 0's acquire, for all */
  return 1;
}

#endif /* !ORX_FINISH_LAUNCH */

#endif /* ORX_FINISH_CL */
