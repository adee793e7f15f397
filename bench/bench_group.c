/* =================================================================================================
 * bench_group.c: a group of devices as a contender of `ocl-reduce bench --devices LIST` (bench.h):
 * the case's input spread over the group in a group buffer (device-resident), or reduced from
 * host memory. A group has no device time of its own (its devices run apart): its device column
 * is the wall time of a call that leaves its results on the devices (segments from a group buffer
 * into a group buffer of results; whole arrays, whose one result goes to the host anyway, as end
 * to end), and its end-to-end column the call with results in host memory. Its competitor is the
 * first device of the list alone.
 * ============================================================================================== */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ocl_reduce_group.h"
#include "tool_common.h"

typedef struct group_state {
  ocl_reduce_group *group;
  ocl_reduce_buffer *input, *results; /* results: segments' on the devices */
  int from_host;                      /* 1: the case's malloc'd array; 2: a page-locked copy */
  void *pinned;                       /* that copy (ocl_reduce_host_alloc on device 0) */
} group_state;

static void group_unprepare(contender *c) {
  group_state *s = c->state;
  ocl_reduce_buffer_destroy(s->input);
  ocl_reduce_buffer_destroy(s->results);
  s->input = s->results = NULL;
  ocl_reduce_host_free(ocl_reduce_group_context(s->group, 0), s->pinned);
  s->pinned = NULL;
}

static int group_prepare(contender *c, const bench_case *bc, char *why, size_t why_size) {
  group_state *s = c->state;
  const size_t bytes = bc->n * ocl_reduce_type_size(bc->type);
  if (s->from_host == 2) {
    ocl_reduce_context *first = ocl_reduce_group_context(s->group, 0);
    if (ocl_reduce_host_alloc(first, bytes, &s->pinned) != OCL_REDUCE_OK) {
      snprintf(why, why_size, "ocl_reduce_host_alloc: %s", ocl_reduce_last_error(first));
      return 0;
    }
    memcpy(s->pinned, bc->host, bytes);
  }
  if (s->from_host)
    return 1;
  ocl_reduce_status st =
      ocl_reduce_group_buffer_create(s->group, ocl_reduce_type_size(bc->type), bc->n,
                                     bc->segment_length ? bc->segment_length : 1, &s->input);
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_buffer_write(s->input, 0, bc->host, bc->n * ocl_reduce_type_size(bc->type));
  if (st == OCL_REDUCE_OK && bc->segment_length)
    st = ocl_reduce_group_buffer_create_results(
        s->input, bc->segment_length, ocl_reduce_result_size(bc->op, bc->type), &s->results);
  if (st != OCL_REDUCE_OK) {
    snprintf(why, why_size, "%s: %s", ocl_reduce_status_name(st), ocl_reduce_last_error(NULL));
    group_unprepare(c);
    return 0;
  }
  return 1;
}

static int group_run(contender *c, const bench_case *bc, bench_sample *sample, void *result) {
  const group_state *s = c->state;
  const ocl_reduce_input in = s->from_host
                                  ? ocl_reduce_host_input(s->pinned ? s->pinned : bc->host,
                                                          bc->n * ocl_reduce_type_size(bc->type))
                                  : ocl_reduce_buffer_input(s->input, 0);
  const size_t one = ocl_reduce_result_size(bc->op, bc->type);
  const double t0 = tool_now();
  const ocl_reduce_status st =
      bc->segment_length
          ? ocl_reduce_group_segments(s->group, bc->op, bc->type, in, bc->segment_count,
                                      bc->segment_length,
                                      ocl_reduce_host_output(result, bc->segment_count * one))
          : ocl_reduce_group_reduce(s->group, bc->op, bc->type, in, bc->n,
                                    ocl_reduce_host_output(result, one));
  sample->end_to_end_s = sample->device_s = tool_now() - t0;
  if (st != OCL_REDUCE_OK)
    tool_fail(c->name, st, NULL);
  return st == OCL_REDUCE_OK;
}

/* Segments from the group buffer into the group buffer of results; other cases as end to end. */
static int group_run_device(contender *c, const bench_case *bc, double *device_s, void *result) {
  group_state *s = c->state;
  if (!s->results) {
    bench_sample sample;
    const int ok = group_run(c, bc, &sample, result);
    *device_s = sample.device_s;
    return ok;
  }
  const double t0 = tool_now();
  ocl_reduce_status st = ocl_reduce_group_segments(
      s->group, bc->op, bc->type, ocl_reduce_buffer_input(s->input, 0), bc->segment_count,
      bc->segment_length, ocl_reduce_buffer_output(s->results, 0));
  /* Results in device memory: the call returns once enqueued, as one context's does. */
  for (size_t d = 0; st == OCL_REDUCE_OK && d < ocl_reduce_group_size(s->group); d++)
    st = ocl_reduce_finish(ocl_reduce_group_context(s->group, d));
  *device_s = tool_now() - t0;
  if (st != OCL_REDUCE_OK)
    tool_fail(c->name, st, NULL);
  return st == OCL_REDUCE_OK;
}

static void group_destroy(contender *c) {
  group_state *s = c->state;
  if (!s)
    return;
  group_unprepare(c);
  ocl_reduce_group_destroy(s->group);
  free(s);
}

static const contender_ops group_ops = {group_prepare, group_run,        group_unprepare,
                                        group_destroy, group_run_device, NULL};

/* One device's copy of a group's bandwidth measure, on a thread of its own for the copies at
 * once. */
typedef struct upload {
  ocl_reduce_context *ctx;
  ocl_reduce_buffer *buffer;
  void *host;
  size_t bytes;
  ocl_reduce_status status;
} upload;

static void *upload_run(void *p) {
  upload *u = p;
  u->status = ocl_reduce_buffer_write(u->buffer, 0, u->host, u->bytes);
  return NULL;
}

/* The pinned host-to-device bandwidth of the group's devices, what the group's host input is
 * held against: each device's copy of 1 GiB from page-locked memory of its own
 * (ocl_reduce_host_alloc, copied directly) timed alone, the fastest of three, summed
 * (*summed); and the devices' copies at once, the fastest of three (*together: where the devices
 * share the host's links or memory, less than the sum). GB/s; 0 when a copy fails. */
static void group_upload_bandwidth(ocl_reduce_group *g, double *summed, double *together) {
  upload ups[OCL_REDUCE_GROUP_MAX_DEVICES];
  const size_t devices = ocl_reduce_group_size(g);
  int ready = 1;
  *summed = *together = 0.0;
  for (size_t d = 0; d < devices; d++) {
    upload *u = &ups[d];
    memset(u, 0, sizeof *u);
    u->ctx = ocl_reduce_group_context(g, d);
    u->bytes = (size_t)1 << 30;
    ready &= ocl_reduce_host_alloc(u->ctx, u->bytes, &u->host) == OCL_REDUCE_OK &&
             ocl_reduce_buffer_create(u->ctx, u->bytes, &u->buffer) == OCL_REDUCE_OK;
    if (u->host)
      memset(u->host, 1, u->bytes);
  }
  for (size_t d = 0; ready && d < devices; d++) {
    double best = -1.0;
    for (int r = 0; r < 3; r++) {
      const double t0 = tool_now();
      upload_run(&ups[d]);
      const double t = tool_now() - t0;
      best = best < 0 || t < best ? t : best;
      ready &= ups[d].status == OCL_REDUCE_OK;
    }
    *summed += 1e-9 * (double)ups[d].bytes / best;
  }
  double best = -1.0;
  for (int r = 0; ready && r < 3; r++) {
    pthread_t threads[OCL_REDUCE_GROUP_MAX_DEVICES];
    const double t0 = tool_now();
    size_t started = 0;
    while (started < devices &&
           pthread_create(&threads[started], NULL, upload_run, &ups[started]) == 0)
      started++;
    for (size_t d = 0; d < started; d++)
      pthread_join(threads[d], NULL);
    const double t = tool_now() - t0;
    for (size_t d = 0; d < devices; d++)
      ready &= d < started && ups[d].status == OCL_REDUCE_OK;
    best = best < 0 || t < best ? t : best;
  }
  if (ready)
    *together = 1e-9 * (double)ups[0].bytes * (double)devices / best;
  else
    *summed = 0.0;
  for (size_t d = 0; d < devices; d++) {
    ocl_reduce_buffer_destroy(ups[d].buffer);
    ocl_reduce_host_free(ups[d].ctx, ups[d].host);
  }
}

int contender_group(contender *c, const char *devices, int from_host, char *why, size_t why_size) {
  group_state *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(why, why_size, "out of memory");
    return 0;
  }
  const ocl_reduce_status st = ocl_reduce_group_create(NULL, devices, &s->group);
  if (st != OCL_REDUCE_OK) {
    snprintf(why, why_size, "%s: %s", ocl_reduce_status_name(st), ocl_reduce_last_error(NULL));
    free(s);
    return 0;
  }
  s->from_host = from_host;
  memset(c, 0, sizeof *c);
  c->ops = &group_ops;
  c->state = s;
  c->is_ocl_reduce = 1;
  snprintf(c->name, sizeof c->name, "group[%s]%s", devices,
           from_host == 2 ? " from pinned host"
           : from_host    ? " from host"
                          : "");
  if (from_host == 1) {
    double summed, together;
    group_upload_bandwidth(s->group, &summed, &together);
    fprintf(stderr,
            "the group's pinned host-to-device bandwidth: each device alone, summed, %.1f GB/s; "
            "all at once %.1f GB/s\n",
            summed, together);
  }
  return 1;
}
