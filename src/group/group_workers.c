/* =================================================================================================
 * group_workers.c: running a group's tasks, one per device, at once (group.h, orx_group_each).
 *
 * Devices are sorted into lanes, one per physical device (backend, platform and device index):
 * the contexts of one device (the same device listed twice) share a lane and run one after the
 * other. They share its memory bandwidth, so running them at once gains nothing; and PoCL 5.0
 * asserts in its kernel-handle cache (pocl_release_dlhandle_cache) when two contexts on its CPU
 * device launch the same kernel from two threads (seen on the H200 machine).
 *
 * The group has a thread per lane but the first for its life (base/threads.h). Tasks that may
 * block (a host part's copy) run lane by lane, lane 0 on the calling thread, each other lane on
 * its thread, woken per call. Tasks that hold up no other device (they enqueue, or wait for work
 * already enqueued) are shared instead: the calling thread and the threads that come in time
 * claim lanes one by one, so that the calling thread alone covers them while the threads sleep
 * (a wake cost two H100s more than a launch: the calling thread starts the next device sooner),
 * and a call finds them spinning after the last. Run on the calling thread alone whenever the
 * threads slept, whole arrays from group buffers never woke them: the group's devices started
 * one after the other, a launch (4-7 us of host time) apart, at every call (four H200s: 19-27 us
 * beyond the slowest device's part alone, 12-16 shared; 9-12 on two either way). Callers that
 * know their threads spin take the lane-by-lane form for calls that block (whole arrays from
 * group buffers: group_whole.c), and a caller with host work before a shared call may wake the
 * threads first (windows' seam reads: group_windows.c).
 * ============================================================================================== */
#include "group/group_workers.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "exec/context_facts.h"
#include "base/errors.h"
#include "base/threads.h"

struct orx_group_workers {
  orx_threads *threads; /* one index per lane */
  size_t lane_of[OCL_REDUCE_GROUP_MAX_DEVICES];
  size_t lanes;
  /* The call in progress. */
  orx_group_task fn;
  void *arg;
  const unsigned char *run;
  ocl_reduce_status status[OCL_REDUCE_GROUP_MAX_DEVICES];
  size_t devices;
  atomic_size_t next_lane; /* a shared call's next lane to claim */
};

static void run_lane(void *p, size_t lane) {
  struct orx_group_workers *w = p;
  for (size_t d = 0; d < w->devices; d++)
    if (w->lane_of[d] == lane && w->run[d])
      w->status[d] = w->fn(w->arg, d);
}

/* A shared call's task on any thread: the lanes that no thread has claimed yet, one by one. */
static void claim_lanes(void *p, size_t index) {
  (void)index;
  struct orx_group_workers *w = p;
  for (size_t lane; (lane = atomic_fetch_add(&w->next_lane, 1)) < w->lanes;)
    run_lane(w, lane);
}

ocl_reduce_status orx_group_workers_start(ocl_reduce_group *g) {
  struct orx_group_workers *w = orx_calloc(1, sizeof *w);
  if (!w)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "ocl_reduce_group: out of memory");
  w->devices = g->size;
  size_t lanes = 0;
  for (size_t d = 0; d < g->size; d++) {
    w->lane_of[d] = lanes;
    for (size_t e = 0; e < d; e++)
      if (orx_context_same_device(g->contexts[e], g->contexts[d])) {
        w->lane_of[d] = w->lane_of[e];
        break;
      }
    lanes += w->lane_of[d] == lanes;
  }
  w->lanes = lanes;
  if (!(w->threads = orx_threads_start(lanes, orx_context_spin_ns(g->contexts[0])))) {
    free(w);
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "ocl_reduce_group: out of memory");
  }
  g->workers = w;
  return OCL_REDUCE_OK;
}

void orx_group_workers_stop(ocl_reduce_group *g) {
  struct orx_group_workers *w = g->workers;
  if (!w)
    return;
  orx_threads_stop(w->threads);
  free(w);
  g->workers = NULL;
}

/* Every device's task, on the calling thread or the lanes' threads. */
static ocl_reduce_status each(const ocl_reduce_group *group, const char *function,
                              const unsigned char *run, orx_group_task fn, void *arg, int shared) {
  struct orx_group_workers *w = group->workers;
  for (size_t d = 0; d < group->size; d++)
    w->status[d] = OCL_REDUCE_OK;
  w->fn = fn;
  w->arg = arg;
  w->run = run;
  if (shared) {
    atomic_store(&w->next_lane, 0);
    orx_threads_share(w->threads, claim_lanes, w);
  } else {
    orx_threads_run(w->threads, run_lane, w);
  }
  for (size_t d = 0; d < group->size; d++)
    if (w->status[d] != OCL_REDUCE_OK)
      return orx_fail(NULL, w->status[d], "%s: device %zu (%s): %s", function, d,
                      orx_group_device_name(group, d), ocl_reduce_last_error(group->contexts[d]));
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_group_each(const ocl_reduce_group *group, const char *function,
                                 const unsigned char *run, orx_group_task fn, void *arg) {
  return each(group, function, run, fn, arg, 0);
}

int orx_group_threads_awake(const ocl_reduce_group *group) {
  return orx_threads_awake(group->workers->threads);
}

void orx_group_wake_threads(const ocl_reduce_group *group) {
  orx_threads_wake(group->workers->threads);
}

ocl_reduce_status orx_group_each_enqueue(const ocl_reduce_group *group, const char *function,
                                         const unsigned char *run, orx_group_task fn, void *arg) {
  return each(group, function, run, fn, arg, 1);
}
