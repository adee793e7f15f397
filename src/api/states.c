/* =================================================================================================
 * states.c: reductions in parts (ocl_reduce.h, "Reductions in parts"). A part reduces to its
 * state (the PARTIAL stage of the whole-array request, its first element at index_base), states
 * combine into one state (MERGE) or into the result (FINAL), always in the order given: the run
 * is run_array.c's, so every operator, path and backend that reduces whole arrays takes parts.
 * ============================================================================================== */
#include <string.h>

#include "core/context.h"
#include "core/run.h"

/* What one stage of a call reads and writes. */
typedef struct stage_call {
  const char *function;
  orx_request request; /* the operator as ctx runs it, and the stage */
  ocl_reduce_op op;    /* the built-in operator (count == 0 answers), or -1 */
  ocl_reduce_type type;
  size_t in_bytes;  /* one element, or one state */
  size_t out_bytes; /* one state, or one result */
} stage_call;

static stage_call builtin_call(const ocl_reduce_context *ctx, const char *function,
                               ocl_reduce_op op, ocl_reduce_type type, orx_stage stage) {
  stage_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  const ocl_reduce_op run = orx_context_op(ctx, op, type);
  c.request = orx_reduce_request(run, type);
  c.request.stage = stage;
  c.op = run;
  c.type = type;
  const orx_state_facts facts = orx_state_facts_of(run, type);
  c.in_bytes = orx_stage_reads_states(stage) ? facts.state_bytes : orx_type_size(type);
  c.out_bytes = orx_stage_writes_states(stage) ? facts.state_bytes : facts.result_bytes;
  return c;
}

static stage_call custom_call(const char *function, const ocl_reduce_operator *op,
                              orx_stage stage) {
  stage_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  c.request = orx_custom_request(&op->op);
  c.request.stage = stage;
  c.op = (ocl_reduce_op)-1;
  c.in_bytes = orx_stage_reads_states(stage) ? op->op.state_bytes : op->op.element_bytes;
  c.out_bytes = op->op.state_bytes; /* a user operator's result is its state */
  return c;
}

/* Resolves and runs it. count == 0 gives a scalar operator's identity (the contract's bits, as
 * its state is its result); a state operator's comes from its kernel. */
static ocl_reduce_status run(ocl_reduce_context *ctx, const stage_call *c, ocl_reduce_input input,
                             size_t count, uint64_t index_base, ocl_reduce_output output) {
  const orx_stage stage = c->request.stage;
  const char *in_name = orx_stage_reads_states(stage) ? "states" : "input";
  const char *out_name = orx_stage_writes_states(stage) ? "state" : "result";
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, c->function, out_name, &output, c->out_bytes, 1, &out));
  ORX_FORWARD(orx_resolve_input(ctx, c->function, in_name, &input, c->in_bytes, count, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, c->function, in_name, &in, count * c->in_bytes, &out,
                                 c->out_bytes, c->out_bytes, c->in_bytes));
  if (count == 0 && !orx_operator_is_state(&c->request.op)) {
    unsigned char identity[ORX_RESULT_SLOT_BYTES];
    orx_write_identity(c->op, c->type, identity);
    if (out.host_out) {
      memcpy(out.host_out, identity, c->out_bytes);
      return OCL_REDUCE_OK;
    }
    return orx_device_write(ctx, out.mem, out.offset * c->out_bytes, identity, c->out_bytes);
  }
  return orx_run_reduce(ctx, &c->request, &in, count, index_base, &out);
}

size_t ocl_reduce_state_size(const ocl_reduce_context *ctx, ocl_reduce_op op,
                             ocl_reduce_type type) {
  if (!orx_op_valid(op) || !orx_type_valid(type) || orx_op_type_refusal(op, type))
    return 0;
  return orx_state_facts_of(ctx ? orx_context_op(ctx, op, type) : op, type).state_bytes;
}

/* The built-in entry points: ctx and the operator checked, then the stage. */
static ocl_reduce_status builtin(ocl_reduce_context *ctx, const char *function, ocl_reduce_op op,
                                 ocl_reduce_type type, orx_stage stage, ocl_reduce_input input,
                                 size_t count, uint64_t index_base, ocl_reduce_output output) {
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_FORWARD(orx_check_op_type(ctx, function, op, type));
  const stage_call c = builtin_call(ctx, function, op, type, stage);
  return run(ctx, &c, input, count, index_base, output);
}

ocl_reduce_status ocl_reduce_state(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                   ocl_reduce_input input, size_t count, uint64_t index_base,
                                   ocl_reduce_output state) {
  return builtin(ctx, "ocl_reduce_state", op, type, ORX_STAGE_PARTIAL, input, count, index_base,
                 state);
}

ocl_reduce_status ocl_reduce_states_merge(ocl_reduce_context *ctx, ocl_reduce_op op,
                                          ocl_reduce_type type, ocl_reduce_input states,
                                          size_t count, ocl_reduce_output state) {
  return builtin(ctx, "ocl_reduce_states_merge", op, type, ORX_STAGE_MERGE, states, count, 0,
                 state);
}

ocl_reduce_status ocl_reduce_states(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                    ocl_reduce_input states, size_t count,
                                    ocl_reduce_output result) {
  return builtin(ctx, "ocl_reduce_states", op, type, ORX_STAGE_FINAL, states, count, 0, result);
}

/* The user-operator entry points. */
static ocl_reduce_status custom(ocl_reduce_context *ctx, const char *function,
                                const ocl_reduce_operator *op, orx_stage stage,
                                ocl_reduce_input input, size_t count, uint64_t index_base,
                                ocl_reduce_output output) {
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_FORWARD(orx_check_user_operator(ctx, function, op));
  const stage_call c = custom_call(function, op, stage);
  return run(ctx, &c, input, count, index_base, output);
}

ocl_reduce_status ocl_reduce_custom_state(ocl_reduce_context *ctx, const ocl_reduce_operator *op,
                                          ocl_reduce_input input, size_t count, uint64_t index_base,
                                          ocl_reduce_output state) {
  return custom(ctx, "ocl_reduce_custom_state", op, ORX_STAGE_PARTIAL, input, count, index_base,
                state);
}

ocl_reduce_status ocl_reduce_custom_states(ocl_reduce_context *ctx, const ocl_reduce_operator *op,
                                           ocl_reduce_input states, size_t count,
                                           ocl_reduce_output result) {
  return custom(ctx, "ocl_reduce_custom_states", op, ORX_STAGE_FINAL, states, count, 0, result);
}
