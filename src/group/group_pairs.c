/* =================================================================================================
 * group_pairs.c: a pair operator over a group's whole arrays (ocl_reduce_group_pairs; its
 * segments are group_run.c's). Both inputs are cut alike (group_call.h); each device reduces its
 * part of the pairs to one state on its own thread (api/pair_parts.h), the index of its first
 * pair counted from the whole's; the states combine in device order: a built-in's, which are its
 * sum's, on the calling thread by the host build of that sum, a user operator's by its final
 * stage on the first device. A call that one device takes whole is that device's own call.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "api/pair_parts.h"
#include "base/errors.h"
#include "exec/host_combine.h"
#include "exec/io.h"
#include "group/group_call.h"

/* The call with the parts' states: [packed part] of c->out_bytes. */
typedef struct pairs_call {
  group_call c;
  unsigned char *states;
  size_t slot[OCL_REDUCE_GROUP_MAX_DEVICES]; /* device d's place among the states */
} pairs_call;

static ocl_reduce_status part_state(void *arg, size_t d) {
  pairs_call *p = arg;
  const group_call *c = &p->c;
  return orx_pairs_state(c->group->contexts[d], c->function, c->op, c->type,
                         orx_group_call_part_input(c, d), orx_group_call_part_input_b(c, d),
                         c->count[d], c->first[d],
                         ocl_reduce_host_output(p->states + p->slot[d] * c->out_bytes,
                                                c->out_bytes));
}

/* The parts' states to the result: by the host build of a built-in's sum, where every device
 * sums alike (the same operator and state: their determinism agrees), else on device 0. */
static ocl_reduce_status combine(const pairs_call *p, void *result, size_t result_bytes) {
  const group_call *c = &p->c;
  const ocl_reduce_group *g = c->group;
  orx_pair_call first;
  memset(&first, 0, sizeof first);
  const orx_host_kernel *k = NULL;
  for (size_t d = 0; d < g->size; d++) {
    orx_pair_call call;
    ORX_FORWARD(orx_resolve_pair(g->contexts[d], c->function, c->op, c->type, &call));
    if (d == 0)
      first = call;
    else if (call.sum.builtin != first.sum.builtin || call.sum.state_bytes != c->out_bytes)
      return orx_fail(NULL, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                      "%s: device %zu (%s) sums the pairs' values as %s, device 0 as %s: its "
                      "determinism differs, and their states do not combine",
                      c->function, d, orx_group_device_name(g, d), orx_op_name(call.sum.builtin),
                      orx_op_name(first.sum.builtin));
  }
  if (first.pair != ORX_PAIR_USER)
    k = orx_host_combiner(&first.sum, 0);
  if (k)
    return orx_host_combine(k, &first.sum, 0, p->states, c->parts, result);
  ocl_reduce_context *ctx = g->contexts[0];
  const ocl_reduce_status status = orx_pairs_final(
      ctx, c->function, c->op, c->type, ocl_reduce_host_input(p->states, c->parts * c->out_bytes),
      c->parts, ocl_reduce_host_output(result, result_bytes));
  if (status != OCL_REDUCE_OK)
    return orx_fail(NULL, status, "%s: combining on device 0 (%s): %s", c->function,
                    orx_group_device_name(g, 0), ocl_reduce_last_error(ctx));
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_group_pairs(ocl_reduce_group *group, ocl_reduce_op op,
                                         ocl_reduce_type type, ocl_reduce_input a,
                                         ocl_reduce_input b, size_t count,
                                         ocl_reduce_output result) {
  static const char fn[] = "ocl_reduce_group_pairs";
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_FORWARD(orx_group_check_input_named(fn, "a", &a));
  ORX_FORWARD(orx_group_check_output(fn, &result));
  pairs_call p;
  memset(&p, 0, sizeof p);
  p.c = orx_group_call_make(fn, group, op, type, a, 0);
  group_call *c = &p.c;
  ORX_FORWARD(orx_group_call_pairs(c, b));
  ORX_FORWARD(orx_group_call_operator(c));
  const size_t result_bytes = ocl_reduce_result_size(op, type);
  ORX_CHECK_ARG(NULL, result.host, "%s: result is NULL", fn);
  ORX_CHECK_ARG(NULL, result.bytes >= result_bytes,
                "%s: result_bytes is %zu, and one result of %s is %zu bytes", fn, result.bytes,
                ocl_reduce_op_name(op), result_bytes);
  ORX_FORWARD(orx_group_call_cut(c, count));
  if (c->parts <= 1) { /* the one device's own call (no part: device 0's identity) */
    const size_t d = orx_group_call_only_device(c);
    ocl_reduce_context *ctx = group->contexts[d];
    static const unsigned char nothing;
    const ocl_reduce_input none = ocl_reduce_host_input(&nothing, sizeof nothing);
    const ocl_reduce_status status =
        ocl_reduce_pairs(ctx, op, type, c->parts ? orx_group_call_part_input(c, d) : none,
                         c->parts ? orx_group_call_part_input_b(c, d) : none, count, result);
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s: device %zu (%s): %s", fn, d,
                      orx_group_device_name(group, d), ocl_reduce_last_error(ctx));
    return OCL_REDUCE_OK;
  }
  size_t packed = 0;
  for (size_t d = 0; d < group->size; d++) {
    p.slot[d] = packed;
    packed += c->run[d];
  }
  p.states = orx_malloc(c->parts * c->out_bytes);
  if (!p.states)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", fn);
  ocl_reduce_status status = orx_group_each(group, fn, c->run, part_state, &p);
  if (status == OCL_REDUCE_OK)
    status = combine(&p, result.host, result.bytes);
  free(p.states);
  return status;
}
