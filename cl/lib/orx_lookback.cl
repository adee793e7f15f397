/* =================================================================================================
 * orx_lookback.cl: what a single-pass scan's tiles need from each other (kernels/by_key.cl):
 *
 *   orx_ticket(c)               the tile a starting work-group takes, counted on *c: tiles are
 *                               taken in the order groups start, so a tile waits only on tiles
 *                               whose groups have started (running or done), whatever order the
 *                               device starts them in. The last tile's group sets *c back to 0.
 *   orx_tagged_store(p, t, x)   *p = a word of 8 bytes: tag t in its high half, the 32 bits x in
 *                               its low half, stored at once;
 *   orx_tagged_load(p)          *p, loaded at once.
 *
 * A tile publishes each 32 bits of its summary in a word of its own, tagged with the launch and
 * what the summary is: a reader that finds the tag it wants in every word has the summary, with
 * no fence between a flag and the data it guards (a fence per read, and a second round trip for
 * the data behind a flag, made the look-back the slowest part of the kernel on the H200). This
 * needs each word's store and load to be single-copy atomic: OpenCL C 2.0's relaxed atomics on
 * 64-bit words where the device has them, else volatile accesses of aligned 8-byte words (PTX:
 * strong relaxed accesses; what every GPU and 64-bit CPU does with them).
 * ============================================================================================== */
#ifndef ORX_LOOKBACK_CL
#define ORX_LOOKBACK_CL

#include "lib/orx_dialect.cl"

#if ORX_SYNC == ORX_SYNC_CL_ATOMICS
ORX_INLINE uint orx_ticket(ORX_GLOBAL_PTR uint *c) {
  return atomic_fetch_add_explicit((volatile __global atomic_uint *)c, 1u, memory_order_relaxed,
                                   memory_scope_device);
}
ORX_INLINE void orx_ticket_reset(ORX_GLOBAL_PTR uint *c) {
  atomic_store_explicit((volatile __global atomic_uint *)c, 0u, memory_order_relaxed,
                        memory_scope_device);
}
#else
/* PTX and CUDA; and OpenCL 1.x (ORX_SYNC_NONE), where the file still compiles alone with the
 * contract's defaults (tests/test_kernel_files.c) but the planner never runs it: OpenCL 1.x
 * promises neither progress nor visibility between the work-groups of a launch. */
ORX_INLINE uint orx_ticket(ORX_GLOBAL_PTR uint *c) { return atomic_inc(c); }
ORX_INLINE void orx_ticket_reset(ORX_GLOBAL_PTR uint *c) { (void)atomic_xchg(c, 0u); }
#endif

#if ORX_SYNC == ORX_SYNC_CL_ATOMICS && defined(cl_khr_int64_base_atomics) &&                       \
    defined(cl_khr_int64_extended_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
ORX_INLINE void orx_tagged_store(ORX_GLOBAL_PTR ulong *p, uint tag, uint x) {
  atomic_store_explicit((volatile __global atomic_ulong *)p, (ulong)tag << 32 | x,
                        memory_order_relaxed, memory_scope_device);
}
ORX_INLINE ulong orx_tagged_load(ORX_GLOBAL_PTR ulong *p) {
  return atomic_load_explicit((volatile __global atomic_ulong *)p, memory_order_relaxed,
                              memory_scope_device);
}
#else
ORX_INLINE void orx_tagged_store(ORX_GLOBAL_PTR ulong *p, uint tag, uint x) {
  *(volatile ORX_GLOBAL_PTR ulong *)p = (ulong)tag << 32 | x;
}
ORX_INLINE ulong orx_tagged_load(ORX_GLOBAL_PTR ulong *p) {
  return *(volatile ORX_GLOBAL_PTR ulong *)p;
}
#endif

#endif /* ORX_LOOKBACK_CL */
