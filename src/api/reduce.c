/* =================================================================================================
 * reduce.c: the whole-array entry points, ocl_reduce (host memory) and ocl_reduce_buffer_reduce
 * (a device buffer): argument checks and the count == 0 answer; the run is run_array.c's.
 * ============================================================================================== */
#include "core/context.h"
#include "core/run.h"

/* count == 0: a scalar operator's identity is the contract's bits; a structured operator's comes
 * from its kernel, which reduces nothing to it. */
static ocl_reduce_status run_or_identity(ocl_reduce_context *ctx, ocl_reduce_op op,
                                         ocl_reduce_type type, const orx_io *in, size_t count,
                                         void *result) {
  const orx_request request = orx_reduce_request(op, type);
  if (count == 0 && !orx_operator_is_state(&request.op)) {
    orx_write_identity(op, type, result);
    return OCL_REDUCE_OK;
  }
  return orx_run_reduce(ctx, &request, in, count, result);
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
  const orx_io io = {input, NULL, NULL, 0, SIZE_MAX};
  return run_or_identity(ctx, op, type, &io, count, result);
}
