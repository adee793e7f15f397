/* =================================================================================================
 * group_run.c: a group call's checks and its cut into parts (group_call.h), and segments over a
 * group (ocl_reduce_group_segments): each device reduces its segments to their results, on its
 * own thread, or enqueued from the calling thread where device memory goes in and out.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "exec/context_facts.h"
#include "base/errors.h"
#include "base/ids.h"
#include "exec/io.h"
#include "group/group_call.h"
#include "group/group_shares.h"

ocl_reduce_input orx_group_call_part_input(const group_call *c, size_t d) {
  if (c->gbuf)
    return ocl_reduce_buffer_input(c->gbuf->parts[d], 0);
  return ocl_reduce_host_input((const char *)c->input.host + c->first[d] * c->elem,
                               c->count[d] * (c->segment_length ? c->segment_length : 1) * c->elem);
}

/* A part's segments to their results. */
static ocl_reduce_status part_task(void *arg, size_t d) {
  const group_call *c = arg;
  const uint64_t first_segment = c->first[d] / c->segment_length;
  const ocl_reduce_output out = c->out_gbuf
                                    ? ocl_reduce_buffer_output(c->out_gbuf->parts[d], 0)
                                    : ocl_reduce_host_output(c->out + first_segment * c->out_bytes,
                                                             c->count[d] * c->out_bytes);
  return ocl_reduce_segments(c->group->contexts[d], c->op, c->type, orx_group_call_part_input(c, d),
                             c->count[d], c->segment_length, out);
}

/* The operator on every device (a user operator made ready on each), and its sizes. */
ocl_reduce_status orx_group_call_operator(group_call *c) {
  const ocl_reduce_group *g = c->group;
  orx_op_call call;
  for (size_t d = 0; d < g->size; d++) {
    const ocl_reduce_status status =
        orx_resolve_op(g->contexts[d], c->function, c->op, c->type, &call);
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s (device %zu)", ocl_reduce_last_error(g->contexts[d]), d);
  }
  c->elem = call.elem;
  c->out_bytes =
      c->segment_length ? call.result_bytes : ocl_reduce_state_size(g->contexts[0], c->op, c->type);
  return OCL_REDUCE_OK;
}

/* Checks the input for `units` (elements, or segments of segment_length) and cuts it. */
ocl_reduce_status orx_group_call_cut(group_call *c, size_t units) {
  const ocl_reduce_group *g = c->group;
  const size_t length = c->segment_length ? c->segment_length : 1;
  ORX_CHECK_ARG(NULL, units <= SIZE_MAX / length / c->elem, "%s: the input's size overflows",
                c->function);
  const size_t elements = units * length;
  const orx_group_buffer *b = c->gbuf;
  ORX_CHECK_ARG(NULL, !(c->input.buffer && c->input.host),
                "%s: input: set host or buffer, not both", c->function);
  ORX_CHECK_ARG(NULL, b || c->input.host || elements == 0, "%s: input is NULL", c->function);
  ORX_CHECK_ARG(NULL, b || !c->input.host || elements * c->elem <= c->input.bytes,
                "%s: input is %zu bytes of host memory, and the request needs %zu", c->function,
                c->input.bytes, elements * c->elem);
  if (!b && c->out_gbuf) {
    /* Segments into a group buffer: each device reduces the segments whose results its part
     * holds. */
    for (size_t d = 0; d < g->size; d++) {
      c->first[d] = (uint64_t)c->out_gbuf->first[d] * length;
      c->count[d] = c->out_gbuf->counts[d];
    }
  } else if (!b) {
    orx_group_parts(g, OCL_REDUCE_SHARES_HOST, units, (uint64_t)length * c->elem, c->count);
    uint64_t first = 0;
    for (size_t d = 0; d < g->size; d++) {
      c->first[d] = first;
      first += c->count[d] * length;
    }
  } else {
    ORX_CHECK_ARG(NULL, b->group_id == g->id, "%s: input: a buffer of another group", c->function);
    ORX_CHECK_ARG(NULL, b->element_size == c->elem,
                  "%s: input: the buffer's elements are %zu bytes, the operator's %zu", c->function,
                  b->element_size, c->elem);
    ORX_CHECK_ARG(NULL, b->count == elements,
                  "%s: input: the buffer holds %zu elements, the call reduces %zu", c->function,
                  b->count, elements);
    for (size_t d = 0; d < g->size; d++) {
      ORX_CHECK_ARG(NULL, b->counts[d] % length == 0,
                    "%s: input: device %zu's part (%zu elements) is not whole segments of %zu: "
                    "create the buffer with granule = segment_length",
                    c->function, d, b->counts[d], length);
      c->first[d] = b->first[d];
      c->count[d] = b->counts[d] / length;
      ORX_CHECK_ARG(NULL, !c->out_gbuf || c->out_gbuf->counts[d] == c->count[d],
                    "%s: results: device %zu's part holds %zu results, and its part of the input "
                    "%llu segments: make the results with "
                    "ocl_reduce_group_buffer_create_results(input, ...)",
                    c->function, d, c->out_gbuf ? c->out_gbuf->counts[d] : 0,
                    (unsigned long long)c->count[d]);
    }
  }
  c->parts = 0;
  for (size_t d = 0; d < g->size; d++) {
    c->run[d] = c->count[d] > 0;
    c->parts += c->run[d];
  }
  return OCL_REDUCE_OK;
}

/* The device that takes a call alone: the one part's, or the first (no part: nothing to read). */
size_t orx_group_call_only_device(const group_call *c) {
  for (size_t d = 0; d < c->group->size; d++)
    if (c->run[d])
      return d;
  return 0;
}

/* A group buffer as the results of segments: this group's, of as many results of their size. */
static ocl_reduce_status check_results_buffer(group_call *c, size_t segment_count) {
  const orx_group_buffer *r = c->out_gbuf;
  ORX_CHECK_ARG(NULL, r->group_id == c->group->id, "%s: results: a buffer of another group",
                c->function);
  ORX_CHECK_ARG(NULL, r->element_size == c->out_bytes && r->count == segment_count,
                "%s: results: the buffer holds %zu elements of %zu bytes, and the call writes %zu "
                "results of %zu",
                c->function, r->count, r->element_size, segment_count, c->out_bytes);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status reduce_segments(group_call *c, size_t segment_count, void *results,
                                         size_t results_bytes) {
  ORX_FORWARD(orx_group_call_operator(c));
  if (c->out_gbuf) {
    ORX_FORWARD(check_results_buffer(c, segment_count));
    results_bytes = segment_count * c->out_bytes;
  }
  ORX_CHECK_ARG(NULL, results || c->out_gbuf || segment_count == 0, "%s: results is NULL",
                c->function);
  ORX_CHECK_ARG(NULL, segment_count <= results_bytes / c->out_bytes,
                "%s: results is %zu bytes, and %zu results of %zu bytes need %zu", c->function,
                results_bytes, segment_count, c->out_bytes,
                segment_count <= SIZE_MAX / c->out_bytes ? segment_count * c->out_bytes : SIZE_MAX);
  if (c->segment_length == 0 && c->out_gbuf && segment_count > 0)
    return orx_fail(NULL, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: results: empty segments' identities go to host memory", c->function);
  if (c->segment_length == 0) {
    /* Identities only: one device writes them, reading nothing (a buffer input must still be
     * this group's, and hold nothing). */
    const orx_group_buffer *b = c->gbuf;
    ORX_CHECK_ARG(NULL, !b || (b->group_id == c->group->id && b->count == 0),
                  "%s: input: a buffer of another group, or not empty for empty segments",
                  c->function);
    static const unsigned char nothing;
    ocl_reduce_context *ctx = c->group->contexts[0];
    const ocl_reduce_input in = ocl_reduce_host_input(&nothing, sizeof nothing);
    const ocl_reduce_output out = ocl_reduce_host_output(results, results_bytes);
    const ocl_reduce_status status =
        ocl_reduce_segments(ctx, c->op, c->type, in, segment_count, 0, out);
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s: device 0 (%s): %s", c->function,
                      orx_group_device_name(c->group, 0), ocl_reduce_last_error(ctx));
    return OCL_REDUCE_OK;
  }
  ORX_FORWARD(orx_group_call_cut(c, segment_count));
  if (segment_count == 0)
    return OCL_REDUCE_OK;
  c->out = results;
  if (c->gbuf && c->out_gbuf) /* device memory in and out: each part's call only enqueues */
    return orx_group_each_enqueue(c->group, c->function, c->run, part_task, c);
  return orx_group_each(c->group, c->function, c->run, part_task, c);
}

group_call orx_group_call_make(const char *function, const ocl_reduce_group *group,
                               ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input input,
                               size_t segment_length) {
  group_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  c.group = group;
  c.op = op;
  c.type = type;
  c.input = input;
  c.gbuf = orx_group_buffer_of(input.buffer);
  c.segment_length = segment_length;
  return c;
}

ocl_reduce_status orx_group_check_input(const char *function, const ocl_reduce_input *input) {
  ORX_CHECK_ARG(NULL, !input->buffer || orx_group_buffer_of(input->buffer),
                "%s: input is a buffer of one context: a group reads host memory or a group "
                "buffer (ocl_reduce_group_buffer_create)",
                function);
  ORX_CHECK_ARG(NULL, !input->buffer || input->offset == 0,
                "%s: input: a group buffer is read whole, from offset 0 (not %zu)", function,
                input->offset);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_group_check_memory(const char *function, const ocl_reduce_input *input,
                                         const ocl_reduce_output *output) {
  ORX_FORWARD(orx_group_check_input(function, input));
  if (output->buffer)
    return orx_fail(NULL, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: results: a group's results go to host memory (a buffer lives on one "
                    "device)",
                    function);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_group_segments_named(const char *fn, ocl_reduce_group *group,
                                           ocl_reduce_op op, ocl_reduce_type type,
                                           ocl_reduce_input input, size_t segment_count,
                                           size_t segment_length, ocl_reduce_output results) {
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  /* Results may stay on the devices, in a group buffer whose parts follow the segments. */
  ORX_FORWARD(orx_group_check_input(fn, &input));
  const orx_group_buffer *out_gbuf = orx_group_buffer_of(results.buffer);
  ORX_CHECK_ARG(NULL, !results.buffer || out_gbuf,
                "%s: results is a buffer of one context: segments of a group go to host memory "
                "or a group buffer (ocl_reduce_group_buffer_create_results)",
                fn);
  ORX_CHECK_ARG(NULL, !results.buffer || !results.host, "%s: results sets both host and buffer",
                fn);
  ORX_CHECK_ARG(NULL, !results.buffer || results.offset == 0,
                "%s: results: a group buffer is written whole, from offset 0 (not %zu)", fn,
                results.offset);
  group_call c = orx_group_call_make(fn, group, op, type, input, segment_length);
  c.out_gbuf = out_gbuf;
  return reduce_segments(&c, segment_count, results.host, results.bytes);
}

ocl_reduce_status ocl_reduce_group_segments(ocl_reduce_group *group, ocl_reduce_op op,
                                            ocl_reduce_type type, ocl_reduce_input input,
                                            size_t segment_count, size_t segment_length,
                                            ocl_reduce_output results) {
  return orx_group_segments_named("ocl_reduce_group_segments", group, op, type, input,
                                  segment_count, segment_length, results);
}

ocl_reduce_status orx_group_operator(const ocl_reduce_group *group, const char *function,
                                     ocl_reduce_op op, ocl_reduce_type type, size_t *elem,
                                     size_t *result_bytes) {
  group_call c = orx_group_call_make(function, group, op, type, ocl_reduce_host_input(NULL, 0), 1);
  ORX_FORWARD(orx_group_call_operator(&c));
  *elem = c.elem;
  *result_bytes = c.out_bytes;
  return OCL_REDUCE_OK;
}
