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
 * life, woken per call: starting threads per call cost 10-50 us each, against a budget of tens of
 * microseconds for a group of GPUs to beat one (the 1.9x on two).
 * ============================================================================================== */
#include "group/group_workers.h"

#include <pthread.h>
#include <stdlib.h>

#include "core/context_facts.h"
#include "core/errors.h"

struct orx_group_workers {
  pthread_mutex_t lock;
  pthread_cond_t wake, done;
  size_t lanes;
  size_t lane_of[OCL_REDUCE_GROUP_MAX_DEVICES];
  pthread_t thread[OCL_REDUCE_GROUP_MAX_DEVICES]; /* by lane; lane 0 has none */
  int started[OCL_REDUCE_GROUP_MAX_DEVICES];
  /* The call in progress. */
  uint64_t call;  /* counts calls: a thread runs each once */
  size_t pending; /* started threads that have not finished it */
  int stopping;
  orx_group_task fn;
  void *arg;
  const unsigned char *run;
  ocl_reduce_status status[OCL_REDUCE_GROUP_MAX_DEVICES];
  size_t devices;
};

typedef struct lane_start {
  struct orx_group_workers *w;
  size_t lane;
} lane_start;

static void run_lane(struct orx_group_workers *w, size_t lane) {
  for (size_t d = 0; d < w->devices; d++)
    if (w->lane_of[d] == lane && w->run[d])
      w->status[d] = w->fn(w->arg, d);
}

static void *lane_thread(void *p) {
  struct orx_group_workers *w = ((lane_start *)p)->w;
  const size_t lane = ((lane_start *)p)->lane;
  free(p);
  uint64_t seen = 0;
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (w->call == seen && !w->stopping)
      pthread_cond_wait(&w->wake, &w->lock);
    if (w->stopping)
      break;
    seen = w->call;
    pthread_mutex_unlock(&w->lock);
    run_lane(w, lane);
    pthread_mutex_lock(&w->lock);
    if (--w->pending == 0)
      pthread_cond_signal(&w->done);
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

static int same_device(const ocl_reduce_context *a, const ocl_reduce_context *b) {
  return orx_context_same_device(a, b);
}

ocl_reduce_status orx_group_workers_start(ocl_reduce_group *g) {
  struct orx_group_workers *w = calloc(1, sizeof *w);
  if (!w)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "ocl_reduce_group: out of memory");
  w->devices = g->size;
  for (size_t d = 0; d < g->size; d++) {
    w->lane_of[d] = w->lanes;
    for (size_t e = 0; e < d; e++)
      if (same_device(g->contexts[e], g->contexts[d])) {
        w->lane_of[d] = w->lane_of[e];
        break;
      }
    w->lanes += w->lane_of[d] == w->lanes;
  }
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->wake, NULL);
  pthread_cond_init(&w->done, NULL);
  for (size_t lane = 1; lane < w->lanes; lane++) {
    lane_start *start = malloc(sizeof *start);
    if (!start)
      continue;
    *start = (lane_start){w, lane};
    w->started[lane] = pthread_create(&w->thread[lane], NULL, lane_thread, start) == 0;
    if (!w->started[lane])
      free(start);
  }
  g->workers = w;
  return OCL_REDUCE_OK;
}

void orx_group_workers_stop(ocl_reduce_group *g) {
  struct orx_group_workers *w = g->workers;
  if (!w)
    return;
  pthread_mutex_lock(&w->lock);
  w->stopping = 1;
  pthread_cond_broadcast(&w->wake);
  pthread_mutex_unlock(&w->lock);
  for (size_t lane = 1; lane < w->lanes; lane++)
    if (w->started[lane])
      pthread_join(w->thread[lane], NULL);
  pthread_cond_destroy(&w->wake);
  pthread_cond_destroy(&w->done);
  pthread_mutex_destroy(&w->lock);
  free(w);
  g->workers = NULL;
}

ocl_reduce_status orx_group_each(const ocl_reduce_group *group, const char *function,
                                 const unsigned char *run, orx_group_task fn, void *arg) {
  struct orx_group_workers *w = group->workers;
  for (size_t d = 0; d < group->size; d++)
    w->status[d] = OCL_REDUCE_OK;
  pthread_mutex_lock(&w->lock);
  w->fn = fn;
  w->arg = arg;
  w->run = run;
  w->pending = 0;
  for (size_t lane = 1; lane < w->lanes; lane++)
    w->pending += (size_t)w->started[lane];
  w->call++;
  pthread_cond_broadcast(&w->wake);
  pthread_mutex_unlock(&w->lock);
  /* Lane 0 here, then any lane whose thread could not start. */
  for (size_t lane = 0; lane < w->lanes; lane++)
    if (!w->started[lane])
      run_lane(w, lane);
  pthread_mutex_lock(&w->lock);
  while (w->pending > 0)
    pthread_cond_wait(&w->done, &w->lock);
  pthread_mutex_unlock(&w->lock);
  for (size_t d = 0; d < group->size; d++)
    if (w->status[d] != OCL_REDUCE_OK)
      return orx_fail(NULL, w->status[d], "%s: device %zu (%s): %s", function, d,
                      orx_group_device_name(group, d), ocl_reduce_last_error(group->contexts[d]));
  return OCL_REDUCE_OK;
}
