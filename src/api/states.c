/* =================================================================================================
 * states.c: reductions in parts (ocl_reduce_partial, ocl_reduce_merge, ocl_reduce_final). A part
 * reduces to its state (the PARTIAL stage of the whole-array request, its first element at
 * index_base), states combine into one state (MERGE) or into the result (FINAL), always in the
 * order given: the run is run_array.c's, so every operator, path and backend that reduces whole
 * arrays takes parts. ocl_reduce_final_host combines a built-in's states on the calling thread
 * instead (exec/host_combine.h), as groups do their parts'.
 * ============================================================================================== */
#include "exec/context.h"
#include "exec/entry.h"
#include "base/errors.h"
#include "exec/host_combine.h"
#include "exec/io.h"
#include "exec/run.h"
#include "exec/user_operator.h"

/* Checks one stage's call and runs it. */
static ocl_reduce_status run(ocl_reduce_context *ctx, const char *function, ocl_reduce_op op,
                             ocl_reduce_type type, orx_stage stage, ocl_reduce_input input,
                             size_t count, uint64_t index_base, ocl_reduce_output output) {
  ORX_ENTER(ctx, function);
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  ORX_FORWARD(orx_check_index_base(ctx, function, op, count, index_base));
  const int reads_states = orx_stage_reads_states(stage);
  const int writes_states = orx_stage_writes_states(stage);
  const size_t in_bytes = reads_states ? call.state_bytes : call.elem;
  const size_t out_bytes = writes_states ? call.state_bytes : call.result_bytes;
  const char *in_name = reads_states ? "states" : "input";
  const char *out_name = writes_states ? "state" : "result";
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, out_name, &output, out_bytes, 1, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, in_name, &input, in_bytes, count, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, in_name, &in, count * in_bytes, &out, out_bytes,
                                 out_bytes, in_bytes));
  return orx_run_call(ctx, &call, stage, &in, count, index_base, &out);
}

size_t ocl_reduce_state_size(const ocl_reduce_context *ctx, ocl_reduce_op op,
                             ocl_reduce_type type) {
  const orx_op_id id = orx_builtin_id(op);
  if (orx_pair_builtin_id(op) >= 0 || (orx_is_user_operator(op) && op->pairs))
    return 0; /* the calls in parts take no pair operator */
  if (id < 0) /* a user operator's state is its result */
    return ocl_reduce_result_size(op, type);
  if (!orx_type_valid(type) || orx_op_type_refusal(id, type))
    return 0;
  const int cross_device = ctx && ctx->determinism == OCL_REDUCE_CROSS_DEVICE && id == ORX_OP_SUM &&
                           orx_type_is_float(type);
  return orx_state_facts_of(cross_device ? ORX_OP_SUM_REPRODUCIBLE : id, type).state_bytes;
}

ocl_reduce_status ocl_reduce_partial(ocl_reduce_context *ctx, ocl_reduce_op op,
                                     ocl_reduce_type type, ocl_reduce_input input, size_t count,
                                     uint64_t index_base, ocl_reduce_output state) {
  return run(ctx, "ocl_reduce_partial", op, type, ORX_STAGE_PARTIAL, input, count, index_base,
             state);
}

ocl_reduce_status ocl_reduce_merge(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                   ocl_reduce_input states, size_t count, ocl_reduce_output state) {
  return run(ctx, "ocl_reduce_merge", op, type, ORX_STAGE_MERGE, states, count, 0, state);
}

ocl_reduce_status ocl_reduce_final(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                   ocl_reduce_input states, size_t count,
                                   ocl_reduce_output result) {
  return run(ctx, "ocl_reduce_final", op, type, ORX_STAGE_FINAL, states, count, 0, result);
}

ocl_reduce_status ocl_reduce_final_host(ocl_reduce_op op, ocl_reduce_type type,
                                        ocl_reduce_input states, size_t count,
                                        ocl_reduce_output result) {
  static const char fn[] = "ocl_reduce_final_host";
  orx_call_named(fn);
  ORX_CHECK_ARG(NULL, !op || orx_builtin_id(op) >= 0,
                "%s: op is a user operator, whose states combine on a device (ocl_reduce_final)",
                fn);
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(NULL, fn, op, type, &call));
  ORX_CHECK_ARG(NULL, !states.buffer, "%s: states is a buffer; this call reads host memory", fn);
  ORX_CHECK_ARG(NULL, !result.buffer, "%s: result is a buffer; this call writes host memory", fn);
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(NULL, fn, "result", &result, call.result_bytes, 1, &out));
  ORX_FORWARD(orx_resolve_input(NULL, fn, "states", &states, call.state_bytes, count, &in));
  const orx_host_kernel *k = orx_host_combiner(&call, 0);
  if (!k)
    return orx_fail(NULL, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: %s on %s has no host build in this library", fn, call.name,
                    orx_type_name(type));
  return orx_host_combine(k, &call, 0, in.host, count, out.host_out);
}
