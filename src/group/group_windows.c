/* =================================================================================================
 * group_windows.c: sliding windows over a group buffer (ocl_reduce_group_windows with a group's
 * buffer as input). Device d computes the windows that start in its part:
 *   - the inner ones, whose elements all lie in its part, from its part in place;
 *   - the seam: the last window - 1 starts (fewer where the input ends), whose windows reach into
 *     the following parts. Their elements, at most 2 (window - 1), are read to host memory first,
 *     from the calling thread (a context is used by one thread at a time), then reduced by
 *     device d from there.
 * Every window is one device's window over the same elements with the same indices, so results
 * have the bits ocl_reduce_windows gives where the header promises them. Results go to host
 * memory, or stay on the devices in a group buffer whose part d holds the windows starting in
 * input part d (ocl_reduce_group_buffer_create_window_results): with device memory in and out,
 * every part's work is enqueued from the calling thread and the call returns once enqueued.
 * ============================================================================================== */
#include <stdlib.h>

#include "core/errors.h"
#include "core/run.h"
#include "group/group_windows.h"

typedef struct windows_call {
  const char *function;
  const ocl_reduce_group *group;
  ocl_reduce_op op;
  ocl_reduce_type type;
  size_t window, elem, result_bytes;
  const orx_group_buffer *in, *out; /* out: the results' group buffer, or NULL (host) */
  unsigned char *host_results;
  uint64_t inner[OCL_REDUCE_GROUP_MAX_DEVICES]; /* windows inside part d */
  uint64_t seam[OCL_REDUCE_GROUP_MAX_DEVICES];  /* windows after them, from seams */
  size_t seam_at[OCL_REDUCE_GROUP_MAX_DEVICES]; /* the first of their elements in seams */
  unsigned char run[OCL_REDUCE_GROUP_MAX_DEVICES];
  unsigned char *seams;
} windows_call;

/* Where a window's results go: the results' group buffer part d from result `at` of it, or the
 * host results from window `at` of the whole. */
static ocl_reduce_output results_of(const windows_call *c, size_t d, uint64_t at, uint64_t count) {
  if (c->out)
    return ocl_reduce_buffer_output(c->out->parts[d], at);
  return ocl_reduce_host_output(c->host_results + (c->in->first[d] + at) * c->result_bytes,
                                count * c->result_bytes);
}

/* The seam first: its host input's copy waits for the device's queue, which is then empty (after
 * the inner windows it waited for their kernel, and the next device started that much later:
 * 0.94x one H100 on two). */
static ocl_reduce_status part_task(void *arg, size_t d) {
  const windows_call *c = arg;
  ocl_reduce_context *ctx = c->group->contexts[d];
  const uint64_t first = c->in->first[d];
  if (c->seam[d]) {
    const size_t n_in = (size_t)c->seam[d] + c->window - 1;
    const ocl_reduce_input in =
        ocl_reduce_host_input(c->seams + c->seam_at[d] * c->elem, n_in * c->elem);
    const ocl_reduce_output out = results_of(c, d, c->inner[d], c->seam[d]);
    ORX_FORWARD(orx_windows_checked(ctx, c->function, c->op, c->type, &in, n_in, c->window,
                                    first + c->inner[d], &out));
  }
  if (c->inner[d]) {
    const ocl_reduce_input in = ocl_reduce_buffer_input(c->in->parts[d], 0);
    const ocl_reduce_output out = results_of(c, d, 0, c->inner[d]);
    ORX_FORWARD(orx_windows_checked(ctx, c->function, c->op, c->type, &in, c->in->counts[d],
                                    c->window, first, &out));
  }
  return OCL_REDUCE_OK;
}

/* Elements [from, from + count) of the input into host memory at `to`, part by part. */
static ocl_reduce_status read_elements(const windows_call *c, uint64_t from, uint64_t count,
                                       unsigned char *to) {
  const orx_group_buffer *b = c->in;
  for (size_t e = 0; e < b->size && count > 0; e++) {
    const uint64_t begin = b->first[e], end = begin + b->counts[e];
    if (from >= end || from < begin)
      continue;
    const uint64_t take = end - from < count ? end - from : count;
    const ocl_reduce_status status = ocl_reduce_buffer_read(
        b->parts[e], (size_t)(from - begin) * c->elem, to, (size_t)take * c->elem);
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s: reading the windows across device %zu (%s): %s",
                      c->function, e, orx_group_device_name(c->group, e),
                      ocl_reduce_last_error(c->group->contexts[e]));
    to += take * c->elem;
    from += take;
    count -= take;
  }
  return OCL_REDUCE_OK;
}

/* Cuts the windows by the input's parts and reads the seams' elements. */
static ocl_reduce_status cut(windows_call *c) {
  const orx_group_buffer *b = c->in;
  uint64_t counts[OCL_REDUCE_GROUP_MAX_DEVICES];
  orx_group_window_result_counts(b, c->window, counts);
  size_t seam_elements = 0;
  for (size_t d = 0; d < b->size; d++) {
    c->inner[d] = b->counts[d] >= c->window ? b->counts[d] - c->window + 1 : 0;
    c->seam[d] = counts[d] - c->inner[d];
    c->seam_at[d] = seam_elements;
    if (c->seam[d])
      seam_elements += (size_t)c->seam[d] + c->window - 1;
    c->run[d] = counts[d] > 0;
  }
  if (seam_elements == 0)
    return OCL_REDUCE_OK;
  c->seams = malloc(seam_elements * c->elem);
  if (!c->seams)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", c->function);
  for (size_t d = 0; d < b->size; d++)
    if (c->seam[d])
      ORX_FORWARD(read_elements(c, b->first[d] + c->inner[d], c->seam[d] + c->window - 1,
                                c->seams + c->seam_at[d] * c->elem));
  return OCL_REDUCE_OK;
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

ocl_reduce_status orx_group_windows_resident(const ocl_reduce_group *group, const char *function,
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
  ocl_reduce_status status = cut(&c);
  if (status == OCL_REDUCE_OK)
    status = c.out ? orx_group_each_enqueue(group, function, c.run, part_task, &c)
                   : orx_group_each(group, function, c.run, part_task, &c);
  free(c.seams);
  return status;
}
