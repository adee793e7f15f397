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

/* Device d's part of an input (host memory, or the group buffer gbuf). */
static ocl_reduce_input part_of(const group_call *c, const ocl_reduce_input *input,
                                const orx_group_buffer *gbuf, size_t d) {
  if (gbuf)
    return ocl_reduce_buffer_input(gbuf->parts[d], 0);
  return ocl_reduce_host_input((const char *)input->host + c->first[d] * c->elem,
                               c->count[d] * (c->segment_length ? c->segment_length : 1) * c->elem);
}

ocl_reduce_input orx_group_call_part_input(const group_call *c, size_t d) {
  return part_of(c, &c->input, c->gbuf, d);
}

ocl_reduce_input orx_group_call_part_input_b(const group_call *c, size_t d) {
  return part_of(c, &c->input_b, c->gbuf_b, d);
}

/* ocl_reduce_segments, or for pairs ocl_reduce_pairs_segments, on device d. */
static ocl_reduce_status segments_on(const group_call *c, size_t d, ocl_reduce_input a,
                                     ocl_reduce_input b, size_t count, size_t length,
                                     ocl_reduce_output out) {
  ocl_reduce_context *ctx = c->group->contexts[d];
  return c->pairs ? ocl_reduce_pairs_segments(ctx, c->op, c->type, a, b, count, length, out)
                  : ocl_reduce_segments(ctx, c->op, c->type, a, count, length, out);
}

/* A part's segments to their results. */
static ocl_reduce_status part_task(void *arg, size_t d) {
  const group_call *c = arg;
  const uint64_t first_segment = c->first[d] / c->segment_length;
  const ocl_reduce_output out = c->out_gbuf
                                    ? ocl_reduce_buffer_output(c->out_gbuf->parts[d], 0)
                                    : ocl_reduce_host_output(c->out + first_segment * c->out_bytes,
                                                             c->count[d] * c->out_bytes);
  return segments_on(c, d, orx_group_call_part_input(c, d),
                     c->pairs ? orx_group_call_part_input_b(c, d) : c->input_b, c->count[d],
                     c->segment_length, out);
}

ocl_reduce_status orx_group_call_pairs(group_call *c, ocl_reduce_input b) {
  ORX_FORWARD(orx_group_check_input_named(c->function, "b", &b));
  c->pairs = 1;
  c->input_b = b;
  c->gbuf_b = orx_group_buffer_of(b.buffer);
  return OCL_REDUCE_OK;
}

/* The operator on every device (a user operator made ready on each), and its sizes. */
ocl_reduce_status orx_group_call_operator(group_call *c) {
  const ocl_reduce_group *g = c->group;
  orx_op_call call;
  orx_pair_call pair;
  for (size_t d = 0; d < g->size; d++) {
    ocl_reduce_context *ctx = g->contexts[d];
    const ocl_reduce_status status =
        c->pairs ? orx_resolve_pair(ctx, c->function, c->op, c->type, &pair)
                 : orx_resolve_op(ctx, c->function, c->op, c->type, &call);
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s (device %zu)", ocl_reduce_last_error(ctx), d);
  }
  if (c->pairs) { /* a whole array's parts leave states of the pairs' sum or operator */
    c->elem = pair.elem;
    c->out_bytes = c->segment_length ? pair.sum.result_bytes : pair.sum.state_bytes;
    return OCL_REDUCE_OK;
  }
  c->elem = call.elem;
  c->out_bytes =
      c->segment_length ? call.result_bytes : ocl_reduce_state_size(g->contexts[0], c->op, c->type);
  return OCL_REDUCE_OK;
}

/* One input, named `name`, for `elements`: host memory of their size, or this group's buffer
 * holding them, each part whole segments of `length`. */
static ocl_reduce_status check_input(const group_call *c, const char *name,
                                     const ocl_reduce_input *in, const orx_group_buffer *b,
                                     size_t elements, size_t length) {
  const char *fn = c->function;
  ORX_CHECK_ARG(NULL, !(in->buffer && in->host), "%s: %s: set host or buffer, not both", fn,
                name);
  ORX_CHECK_ARG(NULL, b || in->host || elements == 0, "%s: %s is NULL", fn, name);
  ORX_CHECK_ARG(NULL, b || !in->host || elements * c->elem <= in->bytes,
                "%s: %s is %zu bytes of host memory, and the request needs %zu", fn, name,
                in->bytes, elements * c->elem);
  if (!b)
    return OCL_REDUCE_OK;
  ORX_CHECK_ARG(NULL, b->group_id == c->group->id, "%s: %s: a buffer of another group", fn, name);
  ORX_CHECK_ARG(NULL, b->element_size == c->elem,
                "%s: %s: the buffer's elements are %zu bytes, the operator's %zu", fn, name,
                b->element_size, c->elem);
  ORX_CHECK_ARG(NULL, b->count == elements, "%s: %s: the buffer holds %zu elements, the call "
                "reduces %zu", fn, name, b->count, elements);
  for (size_t d = 0; d < c->group->size; d++)
    ORX_CHECK_ARG(NULL, b->counts[d] % length == 0,
                  "%s: %s: device %zu's part (%zu elements) is not whole segments of %zu: "
                  "create the buffer with granule = segment_length",
                  fn, name, d, b->counts[d], length);
  return OCL_REDUCE_OK;
}

/* Checks the input for `units` (elements, or segments of segment_length) and cuts it. */
ocl_reduce_status orx_group_call_cut(group_call *c, size_t units) {
  const ocl_reduce_group *g = c->group;
  const size_t length = c->segment_length ? c->segment_length : 1;
  ORX_CHECK_ARG(NULL, units <= SIZE_MAX / length / c->elem, "%s: the input's size overflows",
                c->function);
  const size_t elements = units * length;
  ORX_FORWARD(check_input(c, c->pairs ? "a" : "input", &c->input, c->gbuf, elements, length));
  if (c->pairs)
    ORX_FORWARD(check_input(c, "b", &c->input_b, c->gbuf_b, elements, length));
  /* The parts of a group buffer (a's, else b's); of the shares where both are host memory. */
  const orx_group_buffer *b = c->gbuf ? c->gbuf : c->gbuf_b;
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
    for (size_t d = 0; d < g->size; d++) {
      c->first[d] = b->first[d];
      c->count[d] = b->counts[d] / length;
      ORX_CHECK_ARG(NULL, !c->out_gbuf || c->out_gbuf->counts[d] == c->count[d],
                    "%s: results: device %zu's part holds %zu results, and its part of the input "
                    "%llu segments: make the results with "
                    "ocl_reduce_group_buffer_create_results(input, ...)",
                    c->function, d, c->out_gbuf ? c->out_gbuf->counts[d] : 0,
                    (unsigned long long)c->count[d]);
      const orx_group_buffer *other = c->gbuf && c->gbuf_b ? c->gbuf_b : b; /* b: alike */
      const int alike = other->first[d] == b->first[d] && other->counts[d] == b->counts[d];
      ORX_CHECK_ARG(NULL, alike,
                    "%s: b: device %zu's part holds elements from %zu on, %zu of them, and a's "
                    "from %zu on, %zu: create both buffers alike (count and granule, the same "
                    "shares)",
                    c->function, d, other->first[d], other->counts[d], b->first[d],
                    b->counts[d]);
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
    for (int k = 0; k < 1 + c->pairs; k++) {
      const orx_group_buffer *b = k ? c->gbuf_b : c->gbuf;
      ORX_CHECK_ARG(NULL, !b || (b->group_id == c->group->id && b->count == 0),
                    "%s: %s: a buffer of another group, or not empty for empty segments",
                    c->function, c->pairs ? (k ? "b" : "a") : "input");
    }
    static const unsigned char nothing;
    ocl_reduce_context *ctx = c->group->contexts[0];
    const ocl_reduce_input in = ocl_reduce_host_input(&nothing, sizeof nothing);
    const ocl_reduce_output out = ocl_reduce_host_output(results, results_bytes);
    const ocl_reduce_status status = segments_on(c, 0, in, in, segment_count, 0, out);
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s: device 0 (%s): %s", c->function,
                      orx_group_device_name(c->group, 0), ocl_reduce_last_error(ctx));
    return OCL_REDUCE_OK;
  }
  ORX_FORWARD(orx_group_call_cut(c, segment_count));
  if (segment_count == 0)
    return OCL_REDUCE_OK;
  c->out = results;
  /* Device memory in and out: each part's call only enqueues. */
  if (c->gbuf && (c->gbuf_b || !c->pairs) && c->out_gbuf)
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

ocl_reduce_status orx_group_check_input_named(const char *function, const char *name,
                                              const ocl_reduce_input *input) {
  ORX_CHECK_ARG(NULL, !input->buffer || orx_group_buffer_of(input->buffer),
                "%s: %s is a buffer of one context: a group reads host memory or a group "
                "buffer (ocl_reduce_group_buffer_create)",
                function, name);
  ORX_CHECK_ARG(NULL, !input->buffer || input->offset == 0,
                "%s: %s: a group buffer is read whole, from offset 0 (not %zu)", function, name,
                input->offset);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_group_check_input(const char *function, const ocl_reduce_input *input) {
  return orx_group_check_input_named(function, "input", input);
}

ocl_reduce_status orx_group_check_output(const char *function, const ocl_reduce_output *output) {
  if (output->buffer)
    return orx_fail(NULL, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: results: a group's results go to host memory (a buffer lives on one "
                    "device)",
                    function);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_group_check_memory(const char *function, const ocl_reduce_input *input,
                                         const ocl_reduce_output *output) {
  ORX_FORWARD(orx_group_check_input(function, input));
  return orx_group_check_output(function, output);
}

/* Segments of one input, or (b non-NULL) of pairs. */
static ocl_reduce_status group_segments(const char *fn, ocl_reduce_group *group, ocl_reduce_op op,
                                        ocl_reduce_type type, ocl_reduce_input input,
                                        const ocl_reduce_input *b, size_t segment_count,
                                        size_t segment_length, ocl_reduce_output results) {
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  /* Results may stay on the devices, in a group buffer whose parts follow the segments. */
  ORX_FORWARD(orx_group_check_input_named(fn, b ? "a" : "input", &input));
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
  if (b)
    ORX_FORWARD(orx_group_call_pairs(&c, *b));
  return reduce_segments(&c, segment_count, results.host, results.bytes);
}

ocl_reduce_status orx_group_segments_named(const char *fn, ocl_reduce_group *group,
                                           ocl_reduce_op op, ocl_reduce_type type,
                                           ocl_reduce_input input, size_t segment_count,
                                           size_t segment_length, ocl_reduce_output results) {
  return group_segments(fn, group, op, type, input, NULL, segment_count, segment_length,
                        results);
}

ocl_reduce_status ocl_reduce_group_pairs_segments(ocl_reduce_group *group, ocl_reduce_op op,
                                                  ocl_reduce_type type, ocl_reduce_input a,
                                                  ocl_reduce_input b, size_t segment_count,
                                                  size_t segment_length,
                                                  ocl_reduce_output results) {
  return group_segments("ocl_reduce_group_pairs_segments", group, op, type, a, &b, segment_count,
                        segment_length, results);
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
