/* =================================================================================================
 * host_run.c: the host path (run.h): a request planned with the host plan (plan_host.c) runs on
 * the calling thread, through the host kernel compiled from the same reduce_all.cl with the same
 * defines (host/host_kernels.h); a grid of several groups on the context's few threads, the
 * calling thread among them, each claiming groups as it comes. It runs only when the planner's
 * block is the host kernel's define for define; otherwise the device runs the plan, which gives the
 * same bits, only later.
 * ============================================================================================== */
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "base/claims.h"
#include "base/clock.h"
#include "exec/context.h"
#include "host/host_kernels.h"
#include "planner/host_plan.h"
#include "exec/memory.h"
#include "exec/run.h"
#include "base/sources.h"
#include "base/thread_pools.h"

/* Whether the host kernel was compiled with the plan's block, but for how the groups meet (the
 * host's threads order their partials with C11's atomics, the device with its own; the fixed
 * combine order keeps the bits the same). */
static int same_defines(const orx_host_kernel *k, const orx_plan *plan) {
  int64_t expected[ORX_DEFINE_COUNT], planned[ORX_DEFINE_COUNT];
  memcpy(planned, plan->defines, sizeof planned);
  for (int d = 0; d < ORX_DEFINE_COUNT; d++)
    expected[d] = ORX_DEFINE_UNSET;
  for (unsigned i = 0; i < k->define_count; i++)
    expected[k->defines[i].define] = k->defines[i].value;
  planned[ORX_DEFINE_SYNC] = planned[ORX_DEFINE_FINISH_LAUNCH] = ORX_DEFINE_UNSET;
  return memcmp(expected, planned, sizeof expected) == 0;
}

/* The plan's host kernel, if it has one and the device would run the same text: not while the
 * kernels are read from OCL_REDUCE_KERNEL_DIR. */
static const orx_host_kernel *kernel_for(const orx_plan *plan) {
  if (!plan->host || plan->kernel != ORX_KERNEL_REDUCE_ALL || !orx_sources_embedded())
    return NULL;
  /* Pair operators: theirs by pair operator and input type. 16-bit elements: their own kernels
   * (f32 kernels that read them narrow). */
  const int64_t pair = plan->defines[ORX_DEFINE_PAIR_OP];
  const int64_t narrow = plan->defines[ORX_DEFINE_ELEM_TYPE_ID];
  const ocl_reduce_type type = narrow != ORX_DEFINE_UNSET ? (ocl_reduce_type)narrow : plan->type;
  const orx_host_kernel *k =
      pair != ORX_DEFINE_UNSET
          ? orx_host_pair_kernel_of((int)pair,
                                    (ocl_reduce_type)plan->defines[ORX_DEFINE_PAIR_TYPE_ID],
                                    plan->op.id)
          : orx_host_kernel_of(plan->op.id, type, ORX_STAGE_WHOLE);
  return k && same_defines(k, plan) ? k : NULL;
}

int orx_host_can_run(const orx_plan *plan) { return kernel_for(plan) != NULL; }

/* One call's grid of host-plan groups, which a few threads share. */
typedef struct host_grid {
  const orx_host_kernel *kernel;
  const void *in, *in_b;
  size_t count;
  uint64_t first;
  unsigned char *partials;
  uint32_t counter;
  size_t groups;
  orx_claims *claims; /* the groups, by thread */
  unsigned char *out;
} host_grid;

/* Each thread claims groups until none is left, the calling thread from the start and the host
 * plan's threads as they come (orx_threads_share): which group runs where and when changes
 * nothing, as on a device. A thread claims its own range of groups first, the same every call, so
 * that an array reduced call after call stays in the caches of the cores that read it (OpenMP's
 * static schedule does so); then the others' leftovers, so that a thread kept off its core (on 2
 * cores, by another library's spinning threads) leaves its groups to the others, where a fixed
 * share per thread made the call wait for it. PoCL 5, 16 cores, end to end against OpenMP, with
 * threads.c's end of a shared call: f32 and i32 sum and max of 2^20 0.36-0.65x -> 0.63-0.81x, of
 * 2^22 0.35-0.92x -> 0.80-1.28x (docs/perf/pocl5-host-grid-claims.txt). */
static void run_groups(void *arg, size_t thread) {
  host_grid *g = arg;
  size_t visited = 0;
  for (size_t group; (group = orx_claims_next(g->claims, thread, &visited)) != SIZE_MAX;)
    g->kernel->reduce(g->in, g->in_b, g->count, g->first, g->partials, &g->counter, group,
                      g->groups, g->out);
}

/* The threads for host-plan groups: as many as the device has compute units, up to the plan's
 * most groups, shared with the process's other contexts of that size (thread_pools.c); NULL
 * where they cannot start (the calling thread then runs every group). */
static orx_threads *host_threads(ocl_reduce_context *ctx, size_t most) {
  if (!ctx->host_threads) {
    const size_t units = ctx->caps.compute_units ? ctx->caps.compute_units : 1;
    ctx->host_threads = orx_thread_pool_acquire(units < most ? units : most,
                                                orx_plan_spin_ns(&ctx->target.forced));
  }
  return ctx->host_threads;
}

/* The plan's host kernel where it can read in and in_b: it reads elements as their type, so a
 * misaligned array goes through the device's staging copy instead; NULL otherwise. */
static const orx_host_kernel *runnable_kernel(const orx_plan *plan, const void *in,
                                              const void *in_b) {
  const orx_host_kernel *k = kernel_for(plan);
  const size_t elem = orx_plan_element_bytes(plan);
  return k && (uintptr_t)in % elem == 0 && (uintptr_t)in_b % elem == 0 &&
                 plan->op.result_bytes <= ORX_RESULT_SLOT_BYTES
             ? k
             : NULL;
}

/* task over arg, which claims `shares` items through *claims: on the host plan's threads where
 * there are several, each with its range of them, else on the calling thread; timed as the call's
 * kernel where the context profiles. */
static void run_shares(ocl_reduce_context *ctx, orx_thread_task task, void *arg,
                       orx_claims *claims, size_t shares) {
  const uint64_t start = ctx->profiling ? orx_now_ns() : 0;
  orx_threads *threads = shares > 1 ? host_threads(ctx, ORX_HOST_PLAN_MAX_GROUPS) : NULL;
  orx_claims_init(claims, shares, threads ? orx_threads_count(threads) : 1);
  if (threads)
    orx_threads_share(threads, task, arg);
  else
    task(arg, 0);
  if (ctx->profiling) {
    ctx->last_kernel_ns = orx_now_ns() - start;
    ctx->has_kernel_time = 1;
  }
}

int orx_host_run(ocl_reduce_context *ctx, const orx_plan *plan, const void *in, const void *in_b,
                 size_t count, uint64_t first, void *out) {
  const orx_host_kernel *k = runnable_kernel(plan, in, in_b);
  if (!k)
    return 0;
  alignas(16) unsigned char result[ORX_RESULT_SLOT_BYTES];
  alignas(16) unsigned char partials[ORX_HOST_PLAN_MAX_GROUPS * ORX_HOST_PARTIAL_BYTES];
  orx_claims claims; /* set by run_shares: not 4 KiB cleared per call */
  host_grid grid = {k, in, in_b, count, first, partials, 0, orx_plan_groups(plan, count, 0),
                    &claims, result};
  run_shares(ctx, run_groups, &grid, &claims, grid.groups);
  memcpy(out, result, plan->op.result_bytes);
  return 1;
}

/* Equal segments on the host: each a whole array of the plan's host kernel, its grid's groups
 * one after the other on one thread (the bits of that whole array's own call); runs of whole
 * segments (at least ORX_HOST_PLAN_GROUP_BYTES of input each, at most ORX_HOST_PLAN_MAX_GROUPS
 * runs) that the threads claim as host_grid's groups. */
typedef struct host_segments {
  const orx_host_kernel *kernel;
  const unsigned char *in, *in_b;
  size_t length, bytes, result_bytes; /* elements, input bytes and result bytes per segment */
  size_t groups;                      /* a segment's grid */
  size_t count, runs;
  orx_claims *claims; /* the runs, by thread */
  unsigned char *out;
} host_segments;

static void run_segment_runs(void *arg, size_t thread) {
  host_segments *g = arg;
  alignas(16) unsigned char result[ORX_RESULT_SLOT_BYTES];
  alignas(16) unsigned char partials[ORX_HOST_PLAN_MAX_GROUPS * ORX_HOST_PARTIAL_BYTES];
  size_t visited = 0;
  for (size_t run; (run = orx_claims_next(g->claims, thread, &visited)) != SIZE_MAX;)
    for (size_t s = run * g->count / g->runs, end = (run + 1) * g->count / g->runs; s < end; s++) {
      uint32_t counter = 0;
      for (size_t group = 0; group < g->groups; group++)
        g->kernel->reduce(g->in + s * g->bytes, g->in_b ? g->in_b + s * g->bytes : NULL,
                          g->length, 0, partials, &counter, group, g->groups, result);
      memcpy(g->out + s * g->result_bytes, result, g->result_bytes);
    }
}

int orx_host_run_segments(ocl_reduce_context *ctx, const orx_plan *plan, const void *in,
                          const void *in_b, size_t count, size_t length, void *out) {
  const orx_host_kernel *k = runnable_kernel(plan, in, in_b);
  if (!k || length == 0)
    return 0;
  const size_t bytes = length * orx_plan_element_bytes(plan);
  const size_t per_run = ORX_HOST_PLAN_GROUP_BYTES / bytes + 1;
  size_t runs = count / per_run + (count % per_run != 0);
  if (runs > ORX_HOST_PLAN_MAX_GROUPS)
    runs = ORX_HOST_PLAN_MAX_GROUPS;
  orx_claims claims; /* set by run_shares */
  host_segments grid = {k, in, in_b, length, bytes, plan->op.result_bytes,
                        orx_plan_groups(plan, length, 0), count, runs, &claims, out};
  run_shares(ctx, run_segment_runs, &grid, &claims, runs);
  return 1;
}

void orx_host_release(ocl_reduce_context *ctx) {
  orx_thread_pool_release(ctx->host_threads);
  ctx->host_threads = NULL;
}
