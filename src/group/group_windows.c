/* =================================================================================================
 * group_windows.c: sliding windows over a group buffer (ocl_reduce_group_windows with a group's
 * buffer as input). Device d computes the windows that start in its part:
 *   - the inner ones, whose elements all lie in its part, from its part in place;
 *   - the seam: the last window - 1 starts (fewer where the input ends), whose windows reach into
 *     the following parts, from their elements (at most 2 (window - 1)) copied out of the parts
 *     that hold them, from the calling thread (a context is used by one thread at a time).
 * Seams of up to the planner's bytes (plan_group.c) go through the group's page-locked and device
 * memory: every device's reads are in flight at once, and each seam reaches its device by an
 * enqueued copy after the inner windows, so that nothing waits for a kernel. On two H100s, the
 * blocking reads and uploads of the first version cost 39 us over the slowest part alone (2^28
 * f32, windows of 32), this 19-21 (docs/perf/HISTORY.md). Larger seams are read one part after the
 * other into host memory and reduced from there before the inner windows, whose kernel their
 * upload would wait for.
 * Every window is one device's window over the same elements with the same indices, so results
 * have the bits ocl_reduce_windows gives where the header promises them. Results go to host
 * memory, or stay on the devices in a group buffer whose part d holds the windows starting in
 * input part d (ocl_reduce_group_buffer_create_window_results): with device memory in and out,
 * the call returns once the seams are read and every part's work is enqueued.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "exec/run.h"
#include "exec/staging.h"
#include "group/group_windows.h"

/* Elements [at, at + count) of input part `part`, for the seam of device `seam`: at `to` among
 * the call's seam elements (those of device 0's seam first). */
typedef struct seam_piece {
  size_t part, seam;
  uint64_t at, count;
  size_t to;
} seam_piece;

typedef struct windows_call {
  const char *function;
  ocl_reduce_group *group;
  ocl_reduce_op op;
  ocl_reduce_type type;
  size_t window, elem, result_bytes;
  const orx_group_buffer *in, *out; /* out: the results' group buffer, or NULL (host) */
  unsigned char *host_results;
  uint64_t inner[OCL_REDUCE_GROUP_MAX_DEVICES]; /* windows inside part d */
  uint64_t seam[OCL_REDUCE_GROUP_MAX_DEVICES];  /* windows after them, from seams */
  size_t seam_at[OCL_REDUCE_GROUP_MAX_DEVICES]; /* the first of their elements in seams */
  unsigned char run[OCL_REDUCE_GROUP_MAX_DEVICES];
  seam_piece pieces[OCL_REDUCE_GROUP_MAX_DEVICES * OCL_REDUCE_GROUP_MAX_DEVICES];
  size_t piece_count, seam_elements;
  int staged;
  void *read[OCL_REDUCE_GROUP_MAX_DEVICES * OCL_REDUCE_GROUP_MAX_DEVICES]; /* staged: markers */
  size_t reads;                                                            /* enqueued */
  unsigned char *seams; /* not staged: the seams' elements */
} windows_call;

/* Where a window's results go: the results' group buffer part d from result `at` of it, or the
 * host results from window `at` of the whole. */
static ocl_reduce_output results_of(const windows_call *c, size_t d, uint64_t at, uint64_t count) {
  if (c->out)
    return ocl_reduce_buffer_output(c->out->parts[d], at);
  return ocl_reduce_host_output(c->host_results + (c->in->first[d] + at) * c->result_bytes,
                                count * c->result_bytes);
}

/* Device d's copy of its own seam's elements, in its page-locked memory (staged). */
static unsigned char *own_seam(const windows_call *c, size_t d) {
  return (unsigned char *)c->group->host_seam[d] + c->group->seam_bytes[d];
}

/* The windows of device d's seam: staged, from its seam buffer, after the copy there. */
static ocl_reduce_status seam_windows(const windows_call *c, size_t d) {
  ocl_reduce_group *g = c->group;
  const size_t n_in = (size_t)c->seam[d] + c->window - 1;
  ocl_reduce_input in;
  if (c->staged) {
    ORX_FORWARD(orx_buffer_write_enqueue(g->seam[d], 0, own_seam(c, d), n_in * c->elem,
                                         &g->seam_written[d]));
    in = ocl_reduce_buffer_input(g->seam[d], 0);
  } else {
    in = ocl_reduce_host_input(c->seams + c->seam_at[d] * c->elem, n_in * c->elem);
  }
  const ocl_reduce_output out = results_of(c, d, c->inner[d], c->seam[d]);
  return orx_windows_checked(g->contexts[d], c->function, c->op, c->type, &in, n_in, c->window,
                             c->in->first[d] + c->inner[d], &out);
}

static ocl_reduce_status inner_task(void *arg, size_t d) {
  const windows_call *c = arg;
  if (!c->inner[d])
    return OCL_REDUCE_OK;
  const ocl_reduce_input in = ocl_reduce_buffer_input(c->in->parts[d], 0);
  const ocl_reduce_output out = results_of(c, d, 0, c->inner[d]);
  return orx_windows_checked(c->group->contexts[d], c->function, c->op, c->type, &in,
                             c->in->counts[d], c->window, c->in->first[d], &out);
}

static ocl_reduce_status seam_task(void *arg, size_t d) {
  const windows_call *c = arg;
  return c->seam[d] ? seam_windows(c, d) : OCL_REDUCE_OK;
}

/* A device's windows: a seam from host memory first (its blocking upload would otherwise wait
 * for the inner windows' kernel), a staged one after them. */
static ocl_reduce_status part_task(void *arg, size_t d) {
  const windows_call *c = arg;
  if (!c->staged)
    ORX_FORWARD(seam_task(arg, d));
  ORX_FORWARD(inner_task(arg, d));
  return c->staged ? seam_task(arg, d) : OCL_REDUCE_OK;
}

/* The pieces of every seam, part by part. */
static void cut_pieces(windows_call *c) {
  const orx_group_buffer *b = c->in;
  for (size_t d = 0; d < b->size; d++) {
    if (!c->seam[d])
      continue;
    uint64_t from = b->first[d] + c->inner[d], count = c->seam[d] + c->window - 1;
    size_t to = c->seam_at[d];
    for (size_t e = d; e < b->size && count > 0; e++) {
      const uint64_t begin = b->first[e], end = begin + b->counts[e];
      if (from >= end || from < begin)
        continue;
      const uint64_t take = end - from < count ? end - from : count;
      c->pieces[c->piece_count++] = (seam_piece){e, d, from - begin, take, to};
      to += (size_t)take;
      from += take;
      count -= take;
    }
  }
}

static ocl_reduce_status read_failed(const windows_call *c, ocl_reduce_status status, size_t e) {
  return orx_fail(NULL, status, "%s: reading the windows across device %zu (%s): %s", c->function,
                  e, orx_group_device_name(c->group, e),
                  ocl_reduce_last_error(c->group->contexts[e]));
}

/* Not staged: the pieces into c->seams, one blocking read after the other. */
static ocl_reduce_status read_seams(windows_call *c) {
  c->seams = orx_malloc(c->seam_elements * c->elem);
  if (!c->seams)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", c->function);
  for (size_t i = 0; i < c->piece_count; i++) {
    const seam_piece *p = &c->pieces[i];
    const ocl_reduce_status status =
        ocl_reduce_buffer_read(c->in->parts[p->part], (size_t)p->at * c->elem,
                               c->seams + p->to * c->elem, (size_t)p->count * c->elem);
    if (status != OCL_REDUCE_OK)
      return read_failed(c, status, p->part);
  }
  return OCL_REDUCE_OK;
}

/* Each device's seam memory, at least `bytes` (after its last copy from it). */
static ocl_reduce_status seam_memory(windows_call *c, size_t bytes) {
  ocl_reduce_group *g = c->group;
  for (size_t d = 0; d < g->size; d++) {
    if (!c->in->parts[d] || g->seam_bytes[d] >= bytes)
      continue;
    ocl_reduce_status status = orx_buffer_wait(g->seam[d], g->seam_written[d]);
    g->seam_written[d] = NULL;
    ocl_reduce_buffer_destroy(g->seam[d]);
    ocl_reduce_host_free(g->contexts[d], g->host_seam[d]);
    g->seam[d] = NULL;
    g->host_seam[d] = NULL;
    g->seam_bytes[d] = 0;
    size_t grown = 4096;
    while (grown < bytes)
      grown *= 2;
    if (status == OCL_REDUCE_OK)
      status = ocl_reduce_buffer_create(g->contexts[d], grown, &g->seam[d]);
    if (status == OCL_REDUCE_OK)
      status = ocl_reduce_host_alloc(g->contexts[d], 2 * grown, &g->host_seam[d]);
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s: seam memory on device %zu (%s): %s", c->function, d,
                      orx_group_device_name(g, d), ocl_reduce_last_error(g->contexts[d]));
    g->seam_bytes[d] = grown;
  }
  return OCL_REDUCE_OK;
}

/* Staged: every piece's read enqueued, into its part's device's page-locked memory. */
static ocl_reduce_status enqueue_reads(windows_call *c) {
  ocl_reduce_group *g = c->group;
  ORX_FORWARD(seam_memory(c, c->seam_elements * c->elem));
  for (; c->reads < c->piece_count; c->reads++) {
    const seam_piece *p = &c->pieces[c->reads];
    const ocl_reduce_status status =
        orx_buffer_read_enqueue(c->in->parts[p->part], (size_t)p->at * c->elem,
                                (unsigned char *)g->host_seam[p->part] + p->to * c->elem,
                                (size_t)p->count * c->elem, &c->read[c->reads]);
    if (status != OCL_REDUCE_OK)
      return read_failed(c, status, p->part);
  }
  return OCL_REDUCE_OK;
}

/* Waits for every read enqueued (after a failure too), then gathers each seam into its own
 * device's page-locked memory, once that device's last copy from there is done. */
static ocl_reduce_status finish_reads(windows_call *c) {
  ocl_reduce_group *g = c->group;
  ocl_reduce_status status = OCL_REDUCE_OK;
  size_t failed = 0;
  for (size_t k = 0; k < c->reads; k++) {
    const ocl_reduce_status waited = orx_buffer_wait(c->in->parts[c->pieces[k].part], c->read[k]);
    if (status == OCL_REDUCE_OK && waited != OCL_REDUCE_OK) {
      status = waited;
      failed = c->pieces[k].part;
    }
  }
  if (status != OCL_REDUCE_OK)
    return read_failed(c, status, failed);
  if (c->reads < c->piece_count)
    return OCL_REDUCE_ERROR_INTERNAL; /* enqueue_reads failed, and said why */
  for (size_t d = 0; d < g->size; d++) {
    if (!c->seam[d])
      continue;
    status = orx_buffer_wait(g->seam[d], g->seam_written[d]);
    g->seam_written[d] = NULL;
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s: device %zu (%s): %s", c->function, d,
                      orx_group_device_name(g, d), ocl_reduce_last_error(g->contexts[d]));
  }
  for (size_t i = 0; i < c->piece_count; i++) {
    const seam_piece *p = &c->pieces[i];
    memcpy(own_seam(c, p->seam) + (p->to - c->seam_at[p->seam]) * c->elem,
           (unsigned char *)g->host_seam[p->part] + p->to * c->elem, (size_t)p->count * c->elem);
  }
  return OCL_REDUCE_OK;
}

/* Device memory in and out, staged: the seams' reads first in each device's queue, every
 * device's inner windows behind them, then the seams, once read. Reading before any launch cost
 * two H100s 17 us before the first kernel, and each device's windows enqueued whole (some 9 us
 * of the calling thread per launch) delayed the next device's start by two launches. The reads
 * take the calling thread some 12 us: the group's threads, asleep after an application's wait
 * for the last call, are woken first, so that they come for the launches (a host timeline of two
 * H100s put the second device's start 40-47 us after the call's, its thread's wake 17 us after
 * the launches were published). */
static ocl_reduce_status enqueue_resident(windows_call *c) {
  orx_group_wake_threads(c->group);
  ocl_reduce_status status = enqueue_reads(c);
  if (status == OCL_REDUCE_OK)
    status = orx_group_each_enqueue(c->group, c->function, c->run, inner_task, c);
  const ocl_reduce_status read = finish_reads(c);
  if (status == OCL_REDUCE_OK)
    status = read;
  if (status == OCL_REDUCE_OK)
    status = orx_group_each_enqueue(c->group, c->function, c->run, seam_task, c);
  return status;
}

/* Cuts the windows by the input's parts, and their seams into pieces. */
static void cut(windows_call *c) {
  const orx_group_buffer *b = c->in;
  uint64_t counts[OCL_REDUCE_GROUP_MAX_DEVICES];
  orx_group_window_result_counts(b, c->window, counts);
  for (size_t d = 0; d < b->size; d++) {
    c->inner[d] = b->counts[d] >= c->window ? b->counts[d] - c->window + 1 : 0;
    c->seam[d] = counts[d] - c->inner[d];
    c->seam_at[d] = c->seam_elements;
    if (c->seam[d])
      c->seam_elements += (size_t)c->seam[d] + c->window - 1;
    c->run[d] = counts[d] > 0;
  }
  if (c->seam_elements == 0)
    return;
  cut_pieces(c);
  c->staged = c->seam_elements * c->elem <= c->group->seam_staged_bytes;
}

/* The results' group buffer: this group's, laid out after the input's windows. */
static ocl_reduce_status check_results_buffer(const windows_call *c) {
  const orx_group_buffer *r = c->out;
  ORX_CHECK_ARG(NULL, r->group_id == c->group->id, "%s: results: a buffer of another group",
                c->function);
  ORX_CHECK_ARG(NULL, r->element_size == c->result_bytes,
                "%s: results: the buffer's elements are %zu bytes, a result %zu", c->function,
                r->element_size, c->result_bytes);
  uint64_t counts[OCL_REDUCE_GROUP_MAX_DEVICES];
  orx_group_window_result_counts(c->in, c->window, counts);
  for (size_t d = 0; d < c->group->size; d++)
    ORX_CHECK_ARG(NULL, r->counts[d] == counts[d],
                  "%s: results: device %zu's part holds %zu results, and the windows starting in "
                  "its part of the input are %llu: make the results with "
                  "ocl_reduce_group_buffer_create_window_results(input, window, ...)",
                  c->function, d, r->counts[d], (unsigned long long)counts[d]);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_group_windows_resident(ocl_reduce_group *group, const char *function,
                                             ocl_reduce_op op, ocl_reduce_type type,
                                             const ocl_reduce_input *input, size_t count,
                                             size_t window, const ocl_reduce_output *results) {
  windows_call c = {.function = function,
                    .group = group,
                    .op = op,
                    .type = type,
                    .window = window,
                    .in = orx_group_buffer_of(input->buffer)};
  ORX_FORWARD(orx_group_operator(group, function, op, type, &c.elem, &c.result_bytes));
  ORX_FORWARD(orx_group_check_input(function, input));
  ORX_CHECK_ARG(NULL, c.in->group_id == group->id, "%s: input: a buffer of another group",
                function);
  ORX_CHECK_ARG(NULL, c.in->element_size == c.elem,
                "%s: input: the buffer's elements are %zu bytes, the operator's %zu", function,
                c.in->element_size, c.elem);
  ORX_CHECK_ARG(NULL, c.in->count == count,
                "%s: input: the buffer holds %zu elements, the call reduces %zu", function,
                c.in->count, count);
  ORX_CHECK_ARG(NULL, !(results->buffer && results->host), "%s: results sets both host and buffer",
                function);
  const size_t n_out = count - window + 1;
  if (results->buffer) {
    c.out = orx_group_buffer_of(results->buffer);
    ORX_CHECK_ARG(NULL, c.out,
                  "%s: results is a buffer of one context: windows of a group go to host memory "
                  "or a group buffer (ocl_reduce_group_buffer_create_window_results)",
                  function);
    ORX_CHECK_ARG(NULL, results->offset == 0,
                  "%s: results: a group buffer is written whole, from offset 0 (not %zu)", function,
                  results->offset);
    ORX_FORWARD(check_results_buffer(&c));
  } else {
    ORX_CHECK_ARG(NULL, results->host, "%s: results is NULL", function);
    ORX_CHECK_ARG(NULL, n_out <= results->bytes / c.result_bytes,
                  "%s: results is %zu bytes, and %zu results of %zu bytes need %zu", function,
                  results->bytes, n_out, c.result_bytes,
                  n_out <= SIZE_MAX / c.result_bytes ? n_out * c.result_bytes : SIZE_MAX);
    c.host_results = results->host;
  }
  cut(&c);
  if (c.staged && c.out)
    return enqueue_resident(&c);
  ocl_reduce_status status = OCL_REDUCE_OK;
  if (c.staged) {
    status = enqueue_reads(&c);
    const ocl_reduce_status read = finish_reads(&c);
    status = status == OCL_REDUCE_OK ? read : status;
  } else if (c.seam_elements) {
    status = read_seams(&c);
  }
  if (status == OCL_REDUCE_OK)
    status = c.out ? orx_group_each_enqueue(group, function, c.run, part_task, &c)
                   : orx_group_each(group, function, c.run, part_task, &c);
  free(c.seams);
  return status;
}
