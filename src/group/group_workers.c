/* =================================================================================================
 * group_workers.c: running a group's tasks, one per device, at once (group.h, orx_group_each).
 *
 * Devices are sorted into lanes, one per physical device (backend, platform and device index):
 * the contexts of one device (the same device listed twice) share a lane and run one after the
 * other. They share its memory bandwidth, so running them at once gains nothing; and PoCL 5.0
 * asserts in its kernel-handle cache (pocl_release_dlhandle_cache) when two contexts on its CPU
 * device launch the same kernel from two threads (seen on the H200 machine).
 *
 * Lane 0 runs on the calling thread; every other lane has a thread of its own for the group's
 * life, woken per call (core/threads.h). Tasks that only enqueue run on the lanes' threads while
 * those spin after an earlier call, else one after the other on the calling thread: a sleeping
 * thread's wake cost two H100s more than a launch, and a launch on the calling thread (some 7 us
 * of it) delays the next device's by as much.
 * ============================================================================================== */
#include "group/group_workers.h"

#include <stdlib.h>

#include "core/context_facts.h"
#include "core/errors.h"
#include "core/threads.h"

struct orx_group_workers {
  orx_threads *threads; /* one index per lane */
  size_t lane_of[OCL_REDUCE_GROUP_MAX_DEVICES];
  /* The call in progress. */
  orx_group_task fn;
  void *arg;
  const unsigned char *run;
  ocl_reduce_status status[OCL_REDUCE_GROUP_MAX_DEVICES];
  size_t devices;
};

static void run_lane(void *p, size_t lane) {
  struct orx_group_workers *w = p;
  for (size_t d = 0; d < w->devices; d++)
    if (w->lane_of[d] == lane && w->run[d])
      w->status[d] = w->fn(w->arg, d);
}

ocl_reduce_status orx_group_workers_start(ocl_reduce_group *g) {
  struct orx_group_workers *w = calloc(1, sizeof *w);
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
                              const unsigned char *run, orx_group_task fn, void *arg, int here) {
  struct orx_group_workers *w = group->workers;
  for (size_t d = 0; d < group->size; d++)
    w->status[d] = OCL_REDUCE_OK;
  w->fn = fn;
  w->arg = arg;
  w->run = run;
  if (here && !orx_threads_awake(w->threads))
    for (size_t lane = 0; lane < orx_threads_count(w->threads); lane++)
      run_lane(w, lane);
  else
    orx_threads_run(w->threads, run_lane, w);
  for (size_t d = 0; d < group->size; d++)
    if (w->status[d] != OCL_REDUCE_OK)
      return orx_fail(NULL, w->status[d], "%s: device %zu (%s): %s", function, d,
                      orx_group_device_name(group, d), ocl_reduce_last_error(group->contexts[d]));
  return OCL_REDUCE_OK;
}

int orx_group_threads_awake(const ocl_reduce_group *group) {
  return orx_threads_awake(group->workers->threads);
}

ocl_reduce_status orx_group_each(const ocl_reduce_group *group, const char *function,
                                 const unsigned char *run, orx_group_task fn, void *arg) {
  return each(group, function, run, fn, arg, 0);
}

ocl_reduce_status orx_group_each_enqueue(const ocl_reduce_group *group, const char *function,
                                         const unsigned char *run, orx_group_task fn, void *arg) {
  return each(group, function, run, fn, arg, 1);
}
