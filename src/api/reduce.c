/* =================================================================================================
 * reduce.c: the whole-array entry points, ocl_reduce (host memory), ocl_reduce_buffer_reduce (a
 * device buffer), ocl_reduce_into and ocl_reduce_custom (either input and output): argument
 * checks and the count == 0 answer; the run is run_array.c's.
 * ============================================================================================== */
#include "core/context.h"
#include "core/run.h"

/* count == 0: a scalar operator's identity is the contract's bits; a structured operator's comes
 * from its kernel, which reduces nothing to it. */
static ocl_reduce_status run_or_identity(ocl_reduce_context *ctx, ocl_reduce_op op,
                                         ocl_reduce_type type, const orx_io *in, size_t count,
                                         void *result) {
  const orx_request request = orx_reduce_request(orx_context_op(ctx, op, type), type);
  if (count == 0 && !orx_operator_is_state(&request.op)) {
    orx_write_identity(op, type, result);
    return OCL_REDUCE_OK;
  }
  const orx_io out = {NULL, result, NULL, 0, SIZE_MAX};
  return orx_run_reduce(ctx, &request, in, count, 0, &out);
}

ocl_reduce_status ocl_reduce_buffer_reduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                           ocl_reduce_type type, const ocl_reduce_buffer *input,
                                           size_t offset, size_t count, void *result) {
  static const char function[] = "ocl_reduce_buffer_reduce";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_CHECK_ARG(ctx, result, "%s: result is NULL", function);
  ORX_FORWARD(orx_check_op_type(ctx, function, op, type));
  ORX_CHECK_ARG(ctx, input, "%s: input is NULL", function);
  const ocl_reduce_input in = ocl_reduce_buffer_input(input, offset);
  orx_io io;
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &in, orx_type_size(type), count, &io));
  return run_or_identity(ctx, op, type, &io, count, result);
}

ocl_reduce_status ocl_reduce(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                             const void *input, size_t count, void *result) {
  static const char function[] = "ocl_reduce";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_CHECK_ARG(ctx, result, "%s: result is NULL", function);
  ORX_FORWARD(orx_check_op_type(ctx, function, op, type));
  ORX_CHECK_ARG(ctx, input || count == 0, "%s: input is NULL and count is %zu", function, count);
  ORX_FORWARD(orx_check_host_span(ctx, function, "input", 0, count, orx_type_size(type)));
  const orx_io io = {input, NULL, NULL, 0, SIZE_MAX};
  return run_or_identity(ctx, op, type, &io, count, result);
}

ocl_reduce_status ocl_reduce_into(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                  ocl_reduce_input input, size_t count, ocl_reduce_output result) {
  static const char function[] = "ocl_reduce_into";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_FORWARD(orx_check_op_type(ctx, function, op, type));
  const size_t elem = orx_type_size(type), bytes = ocl_reduce_result_size(op, type);
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "result", &result, bytes, 1, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, elem, count, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &in, count * elem, &out, bytes,
                                 bytes, elem));
  if (out.host_out)
    return run_or_identity(ctx, op, type, &in, count, out.host_out);
  const orx_request request = orx_reduce_request(orx_context_op(ctx, op, type), type);
  if (count == 0 && !orx_operator_is_state(&request.op)) {
    unsigned char identity[ORX_RESULT_SLOT_BYTES];
    orx_write_identity(op, type, identity);
    return orx_device_write(ctx, out.mem, out.offset * bytes, identity, bytes);
  }
  return orx_run_reduce(ctx, &request, &in, count, 0, &out);
}

ocl_reduce_status ocl_reduce_custom(ocl_reduce_context *ctx, const ocl_reduce_operator *op,
                                    ocl_reduce_input input, size_t count,
                                    ocl_reduce_output result) {
  static const char function[] = "ocl_reduce_custom";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_FORWARD(orx_check_user_operator(ctx, function, op));
  const size_t elem = op->op.element_bytes, state = op->op.state_bytes;
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "result", &result, state, 1, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, elem, count, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &in, count * elem, &out, state,
                                 state, elem));
  const orx_request request = orx_custom_request(&op->op);
  return orx_run_reduce(ctx, &request, &in, count, 0, &out);
}
