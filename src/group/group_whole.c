/* =================================================================================================
 * group_whole.c: whole arrays over a group (ocl_reduce_group_reduce, _partial and _multi), with
 * any operator. Each device reduces its part to states, one per operator:
 *   - from host memory, or from a group buffer while the group's threads spin (calls back to
 *     back), on its own thread: the call a device alone makes, its states in host memory when it
 *     returns (a GPU's kernel writes them to host-visible memory where it has such);
 *   - from a group buffer while the threads sleep, into a small buffer of the group's on its
 *     device, then copied to page-locked host memory: each device's reduction and copy enqueued
 *     by the threads that claim it (orx_group_each_enqueue: the calling thread alone, which
 *     starts the second device sooner than waking its thread would), then the waits, shared
 *     likewise. That copy after the kernel was most of what the group added to its slowest part
 *     on two H100s (8 of 10-12 us, a host timeline in docs/perf/HISTORY.md); on the threads, with
 *     no copy, 0-6 us.
 * Where several operators are all scalar built-ins (a state is a value) a part's states come from
 * ocl_reduce_multi, one pass over the part for all of them. The parts' states then combine in
 * device order. A built-in's combine on the calling thread, with the host build of reduce_all.cl
 * (host/host_kernels.h): over the p values for scalar operators, over the p states (its FINAL or
 * MERGE stage) for the others. Through ocl_reduce_final (or _merge) on the first device, as user
 * operators still combine, the upload, launch and read cost ARGMIN and MEAN_VAR 32-42 us of
 * group overhead on two H100s; on the calling thread 10-11 us remain (docs/perf/HISTORY.md). A
 * call that one device takes whole is that device's one-device call.
 * ============================================================================================== */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "exec/host_combine.h"
#include "base/ids.h"
#include "exec/io.h"
#include "exec/memory.h"
#include "exec/staging.h"
#include "group/group_call.h"

/* One whole-array call: its operators (one, or multi's) and where the parts' states go. */
typedef struct whole_call {
  group_call c; /* ops[0]'s: the checks and the cut */
  ocl_reduce_group *group;
  const ocl_reduce_op *ops;
  size_t op_count;
  size_t state_bytes[OCL_REDUCE_MULTI_MAX_OPS];
  size_t state_slot;     /* bytes between a part's states: the largest */
  size_t result_slot;    /* bytes between results (multi's layout): the largest */
  int scalar;            /* every operator's state is its value, on every device */
  const orx_host_kernel *combiner[OCL_REDUCE_MULTI_MAX_OPS]; /* NULL: on the first device */
  orx_op_call calls[OCL_REDUCE_MULTI_MAX_OPS];               /* the combiners' operators */
  int on_device;         /* states into group->states, then read (group buffer input) */
  unsigned char *states; /* the parts' states: [packed part][operator], state_slot each */
  void *copied[OCL_REDUCE_GROUP_MAX_DEVICES]; /* on the device: its states' copy's marker */
} whole_call;

/* The host kernel that combines op's states of the parts, or NULL: where every device runs op as
 * the same built-in with the same state (SUM under OCL_REDUCE_CROSS_DEVICE is a state operator).
 * *first: op as device 0 runs it; *scalar: whether op is a scalar built-in on every device. */
static const orx_host_kernel *host_combiner(const ocl_reduce_group *g, const char *function,
                                            ocl_reduce_op op, ocl_reduce_type type, int to_state,
                                            orx_op_call *first, int *scalar) {
  memset(first, 0, sizeof *first);
  *scalar = 0;
  for (size_t d = 0; d < g->size; d++) {
    orx_op_call call;
    if (orx_resolve_op(g->contexts[d], function, op, type, &call) != OCL_REDUCE_OK ||
        call.builtin < 0)
      return NULL;
    if (d == 0)
      *first = call;
    else if (call.builtin != first->builtin || call.state_bytes != first->state_bytes ||
             orx_call_is_scalar(&call) != orx_call_is_scalar(first))
      return NULL;
  }
  const orx_host_kernel *k = orx_host_combiner(first, to_state);
  *scalar = k && orx_call_is_scalar(first);
  return k;
}

/* Checks the operators on every device (ops[0]'s in w->c) and lays out their states and results. */
static ocl_reduce_status resolve_ops(whole_call *w) {
  const group_call *first = &w->c;
  ORX_FORWARD(orx_group_call_operator(&w->c));
  w->scalar = 1;
  for (size_t k = 0; k < w->op_count; k++) {
    group_call other;
    const group_call *c = first;
    if (k > 0) {
      other = orx_group_call_make(first->function, first->group, w->ops[k], first->type,
                                  first->input, 0);
      ORX_FORWARD(orx_group_call_operator(&other));
      ORX_CHECK_ARG(NULL, other.elem == first->elem,
                    "%s: ops[%zu] (%s) reduces elements of %zu bytes, ops[0] (%s) of %zu",
                    first->function, k, ocl_reduce_op_name(w->ops[k]), other.elem,
                    ocl_reduce_op_name(w->ops[0]), first->elem);
      c = &other;
    }
    w->state_bytes[k] = c->out_bytes;
    w->state_slot = c->out_bytes > w->state_slot ? c->out_bytes : w->state_slot;
    const size_t result = ocl_reduce_result_size(w->ops[k], first->type);
    w->result_slot = result > w->result_slot ? result : w->result_slot;
    int scalar;
    w->combiner[k] = host_combiner(first->group, first->function, w->ops[k], first->type,
                                   first->to_state, &w->calls[k], &scalar);
    w->scalar &= scalar;
  }
  return OCL_REDUCE_OK;
}

static size_t packed(const group_call *c, size_t d) {
  size_t slot = 0;
  for (size_t e = 0; e < d; e++)
    slot += c->run[e];
  return slot;
}

/* A part to its states: one pass for several scalar operators; else one reduction per operator,
 * the call a device alone makes: each part runs the one-device plan (the multi-operator kernel's
 * is for several). */
static ocl_reduce_status part_states(void *arg, size_t d) {
  whole_call *w = arg;
  const group_call *c = &w->c;
  ocl_reduce_context *ctx = c->group->contexts[d];
  const ocl_reduce_input in = orx_group_call_part_input(c, d);
  unsigned char *mine = w->states + packed(c, d) * w->op_count * w->state_slot;
  ocl_reduce_buffer *on_device = w->on_device ? w->group->states[d] : NULL;
  if (w->scalar && w->op_count > 1)
    return ocl_reduce_multi(ctx, w->ops, w->op_count, c->type, in, c->count[d],
                            on_device ? ocl_reduce_buffer_output(on_device, 0)
                                      : ocl_reduce_host_output(mine, w->op_count * w->state_slot));
  for (size_t k = 0; k < w->op_count; k++) {
    const ocl_reduce_output out =
        on_device ? ocl_reduce_buffer_output(on_device, 0)
                  : ocl_reduce_host_output(mine + k * w->state_slot, w->state_bytes[k]);
    ORX_FORWARD(w->scalar ? ocl_reduce_into(ctx, w->ops[k], c->type, in, c->count[d], out)
                          : ocl_reduce_partial(ctx, w->ops[k], c->type, in, c->count[d],
                                               c->index_base + c->first[d], out));
  }
  return OCL_REDUCE_OK;
}

/* From a group buffer: a part's reduction into its states on the device, and their copy to
 * page-locked host memory, enqueued. */
static ocl_reduce_status part_states_copy(void *arg, size_t d) {
  ORX_FORWARD(part_states(arg, d));
  whole_call *w = arg;
  return orx_buffer_read_enqueue(w->group->states[d], 0, w->group->host_states[d],
                                 w->op_count * w->state_slot, &w->copied[d]);
}

/* A device's states, once copied, into their place among the parts'. */
static ocl_reduce_status collect_states(void *arg, size_t d) {
  whole_call *w = arg;
  void *copied = w->copied[d];
  w->copied[d] = NULL;
  ORX_FORWARD(orx_buffer_wait(w->group->states[d], copied));
  const size_t bytes = w->op_count * w->state_slot;
  memcpy(w->states + packed(&w->c, d) * bytes, w->group->host_states[d], bytes);
  return OCL_REDUCE_OK;
}

/* The devices' memory for their states, made at the first call that needs it. */
static ocl_reduce_status state_buffers(whole_call *w) {
  ocl_reduce_group *g = w->group;
  const size_t bytes = OCL_REDUCE_MULTI_MAX_OPS * ORX_RESULT_SLOT_BYTES;
  for (size_t d = 0; d < g->size; d++) {
    if (!w->c.run[d] || (g->states[d] && g->host_states[d]))
      continue;
    ocl_reduce_status status = OCL_REDUCE_OK;
    if (!g->states[d])
      status = ocl_reduce_buffer_create(g->contexts[d], bytes, &g->states[d]);
    if (status == OCL_REDUCE_OK)
      status = ocl_reduce_host_alloc(g->contexts[d], bytes, &g->host_states[d]);
    if (status != OCL_REDUCE_OK)
      return orx_fail(NULL, status, "%s: device %zu (%s): %s", w->c.function, d,
                      orx_group_device_name(g, d), ocl_reduce_last_error(g->contexts[d]));
  }
  return OCL_REDUCE_OK;
}

/* Operator k's states of the parts, in device order, to its result (or one state) at out. */
static ocl_reduce_status combine(const whole_call *w, size_t k, unsigned char *out) {
  const group_call *c = &w->c;
  const size_t bytes = w->state_bytes[k];
  alignas(16) unsigned char states[OCL_REDUCE_GROUP_MAX_DEVICES * ORX_RESULT_SLOT_BYTES];
  for (size_t p = 0; p < c->parts; p++)
    memcpy(states + p * bytes, w->states + (p * w->op_count + k) * w->state_slot, bytes);
  const size_t out_bytes = c->to_state ? bytes : ocl_reduce_result_size(w->ops[k], c->type);
  if (w->combiner[k])
    return orx_host_combine(w->combiner[k], &w->calls[k], c->to_state, states, c->parts, out);
  ocl_reduce_context *first = c->group->contexts[0];
  const ocl_reduce_input in = ocl_reduce_host_input(states, c->parts * bytes);
  const ocl_reduce_output to = ocl_reduce_host_output(out, out_bytes);
  const ocl_reduce_status status =
      c->to_state ? ocl_reduce_merge(first, w->ops[k], c->type, in, c->parts, to)
                  : ocl_reduce_final(first, w->ops[k], c->type, in, c->parts, to);
  if (status != OCL_REDUCE_OK)
    return orx_fail(NULL, status, "%s: combining on device 0 (%s): %s", c->function,
                    orx_group_device_name(c->group, 0), ocl_reduce_last_error(first));
  return OCL_REDUCE_OK;
}

/* The one device that takes the call: its own call, to out. */
static ocl_reduce_status one_device(const whole_call *w, size_t count, void *out,
                                    size_t out_bytes) {
  const group_call *c = &w->c;
  const size_t d = orx_group_call_only_device(c);
  ocl_reduce_context *ctx = c->group->contexts[d];
  static const unsigned char nothing;
  const ocl_reduce_input in =
      c->parts ? orx_group_call_part_input(c, d) : ocl_reduce_host_input(&nothing, sizeof nothing);
  const ocl_reduce_output to = ocl_reduce_host_output(out, out_bytes);
  const ocl_reduce_status status =
      w->op_count > 1 ? ocl_reduce_multi(ctx, w->ops, w->op_count, c->type, in, count, to)
      : c->to_state   ? ocl_reduce_partial(ctx, c->op, c->type, in, count, c->index_base, to)
                      : ocl_reduce_into(ctx, c->op, c->type, in, count, to);
  if (status != OCL_REDUCE_OK)
    return orx_fail(NULL, status, "%s: device %zu (%s): %s", c->function, d,
                    orx_group_device_name(c->group, d), ocl_reduce_last_error(ctx));
  return OCL_REDUCE_OK;
}

/* Checks the output (`out_bytes` at out, for op_count results or one state), then reduces. */
static ocl_reduce_status reduce_whole(whole_call *w, size_t count, unsigned char *out,
                                      size_t out_bytes) {
  group_call *c = &w->c;
  ORX_FORWARD(resolve_ops(w));
  if (w->op_count > 1) {
    ORX_CHECK_ARG(NULL, out, "%s: results is NULL", c->function);
    ORX_CHECK_ARG(NULL, w->op_count <= out_bytes / w->result_slot,
                  "%s: results is %zu bytes, and %zu results in slots of %zu bytes need %zu",
                  c->function, out_bytes, w->op_count, w->result_slot,
                  w->op_count * w->result_slot);
  } else {
    const char *name = c->to_state ? "state" : "result";
    ORX_CHECK_ARG(NULL, out, "%s: %s is NULL", c->function, name);
    const size_t needed = c->to_state ? w->state_bytes[0] : w->result_slot;
    ORX_CHECK_ARG(NULL, out_bytes >= needed, "%s: %s_bytes is %zu, and one %s of %s is %zu bytes",
                  c->function, name, out_bytes, name, ocl_reduce_op_name(c->op), needed);
  }
  ORX_FORWARD(orx_group_call_cut(c, count));
  if (c->parts <= 1)
    return one_device(w, count, out, out_bytes);
  /* Enqueued only where the threads sleep; the one-device calls on them otherwise. */
  w->on_device = c->gbuf && (w->scalar || w->op_count == 1) && !orx_group_threads_awake(c->group);
  if (w->on_device)
    ORX_FORWARD(state_buffers(w));
  w->states = orx_malloc(c->parts * w->op_count * w->state_slot);
  if (!w->states)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", c->function);
  ocl_reduce_status status =
      w->on_device ? orx_group_each_enqueue(w->group, c->function, c->run, part_states_copy, w)
                   : orx_group_each(w->group, c->function, c->run, part_states, w);
  if (status == OCL_REDUCE_OK && w->on_device)
    status = orx_group_each_enqueue(w->group, c->function, c->run, collect_states, w);
  for (size_t d = 0; d < c->group->size; d++) /* a device failed: the others' copies are done */
    if (w->copied[d])
      orx_buffer_wait(w->group->states[d], w->copied[d]);
  for (size_t k = 0; status == OCL_REDUCE_OK && k < w->op_count; k++)
    status = combine(w, k, out + k * w->result_slot);
  free(w->states);
  return status;
}

static whole_call make_whole(const char *function, ocl_reduce_group *group,
                             const ocl_reduce_op *ops, size_t op_count, ocl_reduce_type type,
                             ocl_reduce_input input) {
  whole_call w;
  memset(&w, 0, sizeof w);
  w.c = orx_group_call_make(function, group, ops[0], type, input, 0);
  w.group = group;
  w.ops = ops;
  w.op_count = op_count;
  return w;
}

ocl_reduce_status orx_group_reduce_named(const char *fn, ocl_reduce_group *group,
                                         ocl_reduce_op op, ocl_reduce_type type,
                                         ocl_reduce_input input, size_t count,
                                         ocl_reduce_output result) {
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_FORWARD(orx_group_check_memory(fn, &input, &result));
  whole_call w = make_whole(fn, group, &op, 1, type, input);
  return reduce_whole(&w, count, result.host, result.bytes);
}

ocl_reduce_status ocl_reduce_group_reduce(ocl_reduce_group *group, ocl_reduce_op op,
                                          ocl_reduce_type type, ocl_reduce_input input,
                                          size_t count, ocl_reduce_output result) {
  return orx_group_reduce_named("ocl_reduce_group_reduce", group, op, type, input, count, result);
}

ocl_reduce_status ocl_reduce_group_partial(ocl_reduce_group *group, ocl_reduce_op op,
                                           ocl_reduce_type type, ocl_reduce_input input,
                                           size_t count, uint64_t index_base,
                                           ocl_reduce_output state) {
  static const char fn[] = "ocl_reduce_group_partial";
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_FORWARD(orx_group_check_memory(fn, &input, &state));
  ORX_FORWARD(orx_check_index_base(NULL, fn, op, count, index_base));
  whole_call w = make_whole(fn, group, &op, 1, type, input);
  w.c.index_base = index_base;
  w.c.to_state = 1;
  return reduce_whole(&w, count, state.host, state.bytes);
}

ocl_reduce_status ocl_reduce_group_multi(ocl_reduce_group *group, const ocl_reduce_op *ops,
                                         size_t op_count, ocl_reduce_type type,
                                         ocl_reduce_input input, size_t count,
                                         ocl_reduce_output results) {
  static const char fn[] = "ocl_reduce_group_multi";
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_FORWARD(orx_group_check_memory(fn, &input, &results));
  ORX_CHECK_ARG(NULL, ops, "%s: ops is NULL", fn);
  ORX_CHECK_ARG(NULL, op_count >= 1 && op_count <= OCL_REDUCE_MULTI_MAX_OPS,
                "%s: op_count is %zu, not 1 .. %d", fn, op_count, OCL_REDUCE_MULTI_MAX_OPS);
  whole_call w = make_whole(fn, group, ops, op_count, type, input);
  return reduce_whole(&w, count, results.host, results.bytes);
}
