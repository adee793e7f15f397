/* =================================================================================================
 * plan_staging.c: how host memory crosses the bus (planner.h, orx_plan_copy).
 *
 * Measured on an H100 machine (PCIe 5 x16, 16 host cores), 1 GiB: the driver's copy from pageable
 * memory runs at 7.9 GB/s to the device and 11.8 back; from page-locked memory at 55 both ways.
 * Copying pageable into page-locked memory ran at 10 GB/s on one thread, 35 on four, 36 on eight
 * and 44-54 on sixteen. So pageable memory goes through pinned pieces that several threads fill
 * while the copy engine drains the previous one; the caller's own page-locked memory is copied
 * directly (registering the caller's memory instead cost 113 ms per GiB: slower than copying it).
 * ============================================================================================== */
#include "planner/plan_staging.h"

/* Below this, the driver's own bounce is as fast. On the H200 machine, in 16 MiB pieces: 4 MiB
 * took 649 us staged against 265 through the driver (which stages so little itself); 64 MiB
 * 2359 against 3839 us, 256 MiB 5905 against 24949 (bench_bus). */
#define ORX_BOUNCE_MIN_BYTES ((size_t)16 << 20)
/* Pieces of 16 MiB: 4 MiB ones left the threads idle between pieces (11-12 GB/s against 26-30
 * with eight threads, probe of copy and bus alone). A copy moves through them in at least four
 * chunks, so that the threads and the copy engine overlap on smaller copies too, and chunks of at
 * least 2 MiB, so that each wake of the threads has work worth it. */
#define ORX_BOUNCE_PIECE_BYTES ((size_t)16 << 20)
#define ORX_BOUNCE_MIN_CHUNK ((size_t)2 << 20)
/* Eight copy threads at most: sixteen gained over eight on an idle host, and the library shares
 * the host with its application. */
#define ORX_BOUNCE_MAX_THREADS 8u

orx_copy_plan orx_plan_copy(const orx_target *target, size_t bytes, int pinned,
                            unsigned host_cores) {
  const orx_policy_override *o = &target->forced;
  orx_copy_plan plan = {ORX_COPY_BLOCKING, 0, 0, 1};
  if (o->staging == 0)
    return plan;
  /* A CPU device's memory is host memory: there is no bus to cross, and a bounce only adds a
   * copy. Forced staging still runs there, so that the suites test it on every implementation. */
  const int forced = o->staging == 1;
  if (!forced && (target->caps->type == OCL_REDUCE_DEVICE_CPU || bytes < ORX_BOUNCE_MIN_BYTES))
    return plan;
  if (pinned) {
    plan.mode = ORX_COPY_DIRECT;
    return plan;
  }
  plan.mode = ORX_COPY_BOUNCE;
  plan.piece = o->stage_kib ? (size_t)o->stage_kib << 10 : ORX_BOUNCE_PIECE_BYTES;
  plan.chunk = bytes / 4 > ORX_BOUNCE_MIN_CHUNK ? bytes / 4 : ORX_BOUNCE_MIN_CHUNK;
  plan.chunk = (plan.chunk + 63) / 64 * 64;
  if (plan.chunk > plan.piece)
    plan.chunk = plan.piece;
  unsigned threads = host_cores < ORX_BOUNCE_MAX_THREADS ? host_cores : ORX_BOUNCE_MAX_THREADS;
  plan.threads = o->copy_threads ? o->copy_threads : threads ? threads : 1;
  return plan;
}

int orx_plan_views_host(const orx_target *target) {
  /* Wherever the device can: a CPU device reading the caller's memory where it lies saves the
   * copies into its own and back, which cost more than the kernel. 2^24 i32/f32 pairs reduced
   * by key, all in host memory, this project's 2-core machine, against an OpenMP loop in the same
   * run: PoCL 3.1 1.07-1.32x viewed, 0.29-0.42x copied; Intel's runtime 1.10-1.46x against
   * 0.37-0.55x (docs/perf/cpu-by-key-host-views.txt). */
  return target->forced.host_views != 0;
}
