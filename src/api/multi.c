/* =================================================================================================
 * multi.c: ocl_reduce_multi, several operators over the same array in one pass: argument checks
 * and the count == 0 answer; the run is run_array.c's.
 * ============================================================================================== */
#include <string.h>

#include "core/context.h"
#include "core/run.h"

static const char function[] = "ocl_reduce_multi";

/* Writes the operators' identities to the results (count == 0). */
static ocl_reduce_status write_identities(ocl_reduce_context *ctx, const ocl_reduce_op *ops,
                                          size_t op_count, ocl_reduce_type type,
                                          const orx_io *out) {
  const size_t size = orx_type_size(type);
  unsigned char values[OCL_REDUCE_MULTI_MAX_OPS * 8];
  for (size_t k = 0; k < op_count; k++)
    orx_write_identity(ops[k], type, values + k * size);
  if (out->host_out) {
    memcpy(out->host_out, values, op_count * size);
    return OCL_REDUCE_OK;
  }
  return ctx->ops->write(ctx, ctx->backend, out->mem, out->offset * size, values, op_count * size);
}

/* A context whose SUM is another operator (OCL_REDUCE_CROSS_DEVICE) takes one reduction per
 * operator: a state operator has no slot in the multi-operator kernel. */
static ocl_reduce_status reduce_one_by_one(ocl_reduce_context *ctx, const ocl_reduce_op *ops,
                                           size_t op_count, ocl_reduce_type type,
                                           const orx_io *in, size_t count, const orx_io *out) {
  const size_t size = orx_type_size(type);
  for (size_t k = 0; k < op_count; k++) {
    const orx_request request = orx_reduce_request(orx_context_op(ctx, ops[k], type), type);
    orx_io slot = *out;
    if (slot.host_out)
      slot.host_out = (unsigned char *)slot.host_out + k * size;
    else
      slot.offset += k;
    ORX_FORWARD(orx_run_reduce(ctx, &request, in, count, 0, &slot));
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_multi(ocl_reduce_context *ctx, const ocl_reduce_op *ops,
                                   size_t op_count, ocl_reduce_type type, ocl_reduce_input input,
                                   size_t count, ocl_reduce_output results) {
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_CHECK_ARG(ctx, ops, "%s: ops is NULL", function);
  ORX_CHECK_ARG(ctx, op_count >= 1 && op_count <= OCL_REDUCE_MULTI_MAX_OPS,
                "%s: op_count is %zu, not 1 .. %d", function, op_count, OCL_REDUCE_MULTI_MAX_OPS);
  for (size_t k = 0; k < op_count; k++) {
    ORX_FORWARD(orx_check_op_type(ctx, function, ops[k], type));
    if (orx_op_flags(ops[k]) & ORX_OPF_STATE)
      return orx_fail(ctx, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                      "%s: ops[%zu] is %s, a structured operator; ocl_reduce_multi applies scalar "
                      "operators (sum, prod, min, max, and, or, xor)",
                      function, k, orx_op_name(ops[k]));
  }
  const size_t size = orx_type_size(type);
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "results", &results, size, op_count, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, size, count, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &in, count * size, &out,
                                 op_count * size, size, size));
  if (count == 0)
    return write_identities(ctx, ops, op_count, type, &out);
  for (size_t k = 0; k < op_count; k++)
    if (orx_context_op(ctx, ops[k], type) != ops[k])
      return reduce_one_by_one(ctx, ops, op_count, type, &in, count, &out);
  return orx_run_multi(ctx, ops, op_count, type, &in, count, &out);
}
