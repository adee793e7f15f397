/* =================================================================================================
 * thread_pools.h: sets of threads (threads.h) shared by the process's contexts, one per size and
 * spin (thread_pools.c). The CPU host plan's grid takes its threads here.
 * ============================================================================================== */
#ifndef ORX_THREAD_POOLS_H
#define ORX_THREAD_POOLS_H

#include "base/threads.h"

/* The process's set of `count` indices spinning spin_ns after a call, started on its first
 * acquire and counted; NULL when out of host memory. Only orx_threads_share may be called on
 * it (from any thread: calls that meet share it as that function says). */
orx_threads *orx_thread_pool_acquire(size_t count, uint64_t spin_ns);
/* Gives up one acquire; the last one stops the threads. NULL is ignored. */
void orx_thread_pool_release(orx_threads *threads);

#endif /* ORX_THREAD_POOLS_H */
