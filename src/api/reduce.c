/* =================================================================================================
 * reduce.c: the whole-array entry points, ocl_reduce (host memory, the one-line convenience) and
 * ocl_reduce_into (any input and output): argument checks and the count == 0 answer; the run is
 * run_array.c's.
 * ============================================================================================== */
#include "exec/context.h"
#include "exec/entry.h"
#include "exec/run.h"

ocl_reduce_status ocl_reduce_into(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                  ocl_reduce_input input, size_t count, ocl_reduce_output result) {
  static const char function[] = "ocl_reduce_into";
  ORX_ENTER(ctx, function);
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "result", &result, call.result_bytes, 1, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, call.elem, count, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &in, count * call.elem, &out,
                                 call.result_bytes, call.result_bytes, call.elem));
  return orx_run_call(ctx, &call, ORX_STAGE_WHOLE, &in, count, 0, &out);
}

ocl_reduce_status ocl_reduce(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                             const void *input, size_t count, void *result, size_t result_bytes) {
  static const char function[] = "ocl_reduce";
  ORX_ENTER(ctx, function);
  ORX_CHECK_ARG(ctx, result, "%s: result is NULL", function);
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  ORX_CHECK_ARG(ctx, result_bytes >= call.result_bytes,
                "%s: result_bytes is %zu, and one result of %s on %s is %zu bytes", function,
                result_bytes, call.name,
                type == OCL_REDUCE_OP_ELEMENT ? "its elements" : ocl_reduce_type_name(type),
                call.result_bytes);
  ORX_CHECK_ARG(ctx, input || count == 0, "%s: input is NULL and count is %zu", function, count);
  /* The convenience takes count elements at input as the caller's own size of it. */
  ORX_CHECK_ARG(ctx, count <= SIZE_MAX / call.elem,
                "%s: input: %zu elements of %zu bytes are more bytes than size_t counts", function,
                count, call.elem);
  const ocl_reduce_input in_desc = ocl_reduce_host_input(input, count * call.elem);
  const ocl_reduce_output out_desc = ocl_reduce_host_output(result, result_bytes);
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "result", &out_desc, call.result_bytes, 1, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &in_desc, call.elem, count, &in));
  return orx_run_call(ctx, &call, ORX_STAGE_WHOLE, &in, count, 0, &out);
}
