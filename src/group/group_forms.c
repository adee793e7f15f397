/* =================================================================================================
 * group_forms.c: the forms of a group whose parts are not cut by elements alone
 * (ocl_reduce_group.h): sliding windows, each device taking a contiguous run of the results and
 * the input they read (window - 1 elements shared with the next device), its indices counted from
 * the whole input's start (group_windows.c takes windows over a group buffer); and segments by
 * offsets, each device taking a contiguous run of whole segments, cut where the elements before
 * reach its share. Both read host memory here: a group buffer's parts neither overlap by
 * window - 1 elements nor follow a call's segments.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "exec/run.h"
#include "group/group_forms.h"
#include "group/group_shares.h"
#include "group/group_windows.h"

/* One call's runs: device d takes results (windows, or segments) [first[d], first[d] +
 * count[d]). */
typedef struct form_call {
  const char *function;
  const ocl_reduce_group *group;
  ocl_reduce_op op;
  ocl_reduce_type type;
  size_t elem, result_bytes;
  const unsigned char *input;
  size_t window;           /* windows */
  const uint64_t *offsets; /* segments by offsets */
  uint64_t *rebased;       /* each device's offsets from its first element: count[d] + 1 each */
  unsigned char *results;
  uint64_t first[OCL_REDUCE_GROUP_MAX_DEVICES], count[OCL_REDUCE_GROUP_MAX_DEVICES];
  unsigned char run[OCL_REDUCE_GROUP_MAX_DEVICES];
} form_call;

/* What every form checks alike: the group, the operator on every device, host input of
 * input_elements, and results for `results` of them. */
static ocl_reduce_status begin(form_call *c, ocl_reduce_group *group, ocl_reduce_op op,
                               ocl_reduce_type type, const ocl_reduce_input *input, size_t results,
                               const ocl_reduce_output *output) {
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", c->function);
  c->group = group;
  c->op = op;
  c->type = type;
  ORX_FORWARD(orx_group_operator(group, c->function, op, type, &c->elem, &c->result_bytes));
  if (input->buffer)
    return orx_fail(NULL, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: input is a buffer, whose parts (a group's) or whole (one context's) do "
                    "not follow this form's cut by windows or segments: give it host memory",
                    c->function);
  c->input = input->host;
  ORX_FORWARD(orx_group_check_memory(c->function, input, output));
  ORX_CHECK_ARG(NULL, output->host || results == 0, "%s: results is NULL", c->function);
  ORX_CHECK_ARG(NULL, results <= output->bytes / c->result_bytes,
                "%s: results is %zu bytes, and %zu results of %zu bytes need %zu", c->function,
                output->bytes, results, c->result_bytes,
                results <= SIZE_MAX / c->result_bytes ? results * c->result_bytes : SIZE_MAX);
  c->results = output->host;
  return OCL_REDUCE_OK;
}

/* Checks host input for `elements`. */
static ocl_reduce_status check_input(const form_call *c, const ocl_reduce_input *input,
                                     uint64_t elements) {
  ORX_CHECK_ARG(NULL, c->input || elements == 0, "%s: input is NULL", c->function);
  ORX_CHECK_ARG(NULL, elements <= input->bytes / c->elem,
                "%s: input is %zu bytes of host memory, and the request needs %llu", c->function,
                input->bytes, (unsigned long long)(elements * c->elem));
  return OCL_REDUCE_OK;
}

static ocl_reduce_status window_task(void *arg, size_t d) {
  const form_call *c = arg;
  const size_t n_in = (size_t)c->count[d] + c->window - 1;
  const ocl_reduce_input in =
      ocl_reduce_host_input(c->input + c->first[d] * c->elem, n_in * c->elem);
  const ocl_reduce_output out = ocl_reduce_host_output(c->results + c->first[d] * c->result_bytes,
                                                       c->count[d] * c->result_bytes);
  return orx_windows_checked(c->group->contexts[d], c->function, c->op, c->type, &in, n_in,
                             c->window, c->first[d], &out);
}

ocl_reduce_status ocl_reduce_group_windows(ocl_reduce_group *group, ocl_reduce_op op,
                                           ocl_reduce_type type, ocl_reduce_input input,
                                           size_t count, size_t window, ocl_reduce_output results) {
  form_call c;
  memset(&c, 0, sizeof c);
  c.function = "ocl_reduce_group_windows";
  if (group && (window == 0 || window > count))
    return orx_fail(NULL, OCL_REDUCE_ERROR_BAD_WINDOW,
                    "%s: window = %zu, count = %zu: a window is 1 to count elements long",
                    c.function, window, count);
  if (group && input.buffer && orx_group_buffer_of(input.buffer))
    return orx_group_windows_resident(group, c.function, op, type, &input, count, window, &results);
  const size_t n_out = window && window <= count ? count - window + 1 : 0;
  ORX_FORWARD(begin(&c, group, op, type, &input, n_out, &results));
  ORX_FORWARD(check_input(&c, &input, count));
  c.window = window;
  /* The results cut by the host shares, each run of them reading window - 1 elements past it. */
  orx_group_parts(group, OCL_REDUCE_SHARES_HOST, n_out, c.elem, c.count);
  uint64_t first = 0;
  for (size_t d = 0; d < group->size; d++) {
    c.first[d] = first;
    first += c.count[d];
    c.run[d] = c.count[d] > 0;
  }
  return orx_group_each(group, c.function, c.run, window_task, &c);
}

static ocl_reduce_status offsets_task(void *arg, size_t d) {
  const form_call *c = arg;
  const uint64_t *o = c->offsets + c->first[d];
  const uint64_t *rebased = c->rebased + c->first[d] + d;
  /* No input at all is fine where every segment is empty (begin checked it). */
  const ocl_reduce_input in = ocl_reduce_host_input(c->input ? c->input + o[0] * c->elem : NULL,
                                                    (size_t)(o[c->count[d]] - o[0]) * c->elem);
  const ocl_reduce_input offsets =
      ocl_reduce_host_input(rebased, (c->count[d] + 1) * sizeof *rebased);
  const ocl_reduce_output out = ocl_reduce_host_output(c->results + c->first[d] * c->result_bytes,
                                                       c->count[d] * c->result_bytes);
  return ocl_reduce_segments_offsets(c->group->contexts[d], c->op, c->type, in, c->count[d],
                                     offsets, out);
}

/* Cuts the segments where the elements before them reach each device's share of the elements. */
static void cut_segments(form_call *c, size_t segment_count) {
  const ocl_reduce_group *g = c->group;
  const uint64_t *o = c->offsets;
  uint64_t elements[OCL_REDUCE_GROUP_MAX_DEVICES];
  orx_group_parts(g, OCL_REDUCE_SHARES_HOST, o[segment_count] - o[0], c->elem, elements);
  uint64_t reach = 0;
  size_t s = 0;
  size_t last = 0;
  for (size_t d = 0; d < g->size; d++)
    if (elements[d])
      last = d;
  for (size_t d = 0; d < g->size; d++) {
    reach += elements[d];
    size_t end = s;
    if (d == last)
      end = segment_count;
    else if (elements[d])
      while (end < segment_count && o[end] - o[0] < reach)
        end++;
    c->first[d] = s;
    c->count[d] = end - s;
    c->run[d] = end > s;
    s = end;
  }
}

ocl_reduce_status orx_group_segments_offsets(ocl_reduce_group *group, const char *function,
                                             ocl_reduce_op op, ocl_reduce_type type,
                                             const ocl_reduce_input *in, size_t segment_count,
                                             const ocl_reduce_input *offsets,
                                             const ocl_reduce_output *results) {
  form_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  const ocl_reduce_input input = *in;
  ORX_FORWARD(begin(&c, group, op, type, &input, segment_count, results));
  ORX_CHECK_ARG(NULL, !offsets->buffer, "%s: offsets must be host memory", c.function);
  ORX_CHECK_ARG(NULL,
                offsets->host && segment_count < SIZE_MAX / sizeof(uint64_t) &&
                    (segment_count + 1) * sizeof(uint64_t) <= offsets->bytes,
                "%s: offsets is %zu bytes, and %zu segments need %zu offsets", c.function,
                offsets->bytes, segment_count, segment_count + 1);
  const uint64_t *o = offsets->host;
  for (size_t i = 0; i < segment_count; i++)
    if (o[i] > o[i + 1])
      return orx_fail(NULL, OCL_REDUCE_ERROR_BAD_OFFSETS,
                      "%s: offsets[%zu] = %llu is less than offsets[%zu] = %llu", c.function, i + 1,
                      (unsigned long long)o[i + 1], i, (unsigned long long)o[i]);
  if (o[segment_count] > input.bytes / c.elem)
    return orx_fail(NULL, OCL_REDUCE_ERROR_BAD_OFFSETS,
                    "%s: offsets[%zu] = %llu reaches beyond the input's %zu elements", c.function,
                    segment_count, (unsigned long long)o[segment_count], input.bytes / c.elem);
  ORX_FORWARD(check_input(&c, &input, o[segment_count]));
  if (segment_count == 0)
    return OCL_REDUCE_OK;
  c.offsets = o;
  cut_segments(&c, segment_count);
  /* Each device's offsets from its own first element: its run and one more, in one array. */
  c.rebased = orx_malloc((segment_count + group->size) * sizeof *c.rebased);
  if (!c.rebased)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", c.function);
  for (size_t d = 0; d < group->size; d++)
    for (uint64_t i = 0; i <= c.count[d]; i++)
      c.rebased[c.first[d] + d + i] = o[c.first[d] + i] - o[c.first[d]];
  const ocl_reduce_status status = orx_group_each(group, c.function, c.run, offsets_task, &c);
  free(c.rebased);
  return status;
}

ocl_reduce_status ocl_reduce_group_segments_offsets(ocl_reduce_group *group, ocl_reduce_op op,
                                                    ocl_reduce_type type, ocl_reduce_input input,
                                                    size_t segment_count, ocl_reduce_input offsets,
                                                    ocl_reduce_output results) {
  return orx_group_segments_offsets(group, "ocl_reduce_group_segments_offsets", op, type, &input,
                                    segment_count, &offsets, &results);
}
