/* =================================================================================================
 * multi.c: ocl_reduce_multi, several operators over the same array in one pass
 * (cl/reduce_multi.cl). Device input is one launch. Host input larger than one staging upload is
 * reduced piece by piece, every operator's partial per piece into chunk_results (operator k's at
 * [k * pieces, (k + 1) * pieces)), and then one whole-array launch per operator reduces its
 * partials, so the results do not depend on anything but the count, as with ocl_reduce.
 * ============================================================================================== */
#include <string.h>

#include "backend.h"

static const char function[] = "ocl_reduce_multi";

/* Launches the multi-operator kernel over elements [offset, offset + count) of `in`; result k
 * goes to element out_index + k * out_stride of `out`. */
static ocl_reduce_status launch_multi(ocl_reduce_context *ctx, const orx_built *built,
                                      orx_mem *in, size_t offset, size_t count, orx_mem *out,
                                      size_t out_index, size_t out_stride) {
  return orx_launch_array(ctx, built, in, offset, count, out, out_index, &out_stride);
}

/* Host input in pieces: per-piece partials, then one whole-array reduction per operator. */
static ocl_reduce_status reduce_host_pieces(ocl_reduce_context *ctx, const orx_built *built,
                                            const ocl_reduce_op *ops, size_t op_count,
                                            ocl_reduce_type type, const void *host, size_t count,
                                            size_t piece, orx_mem *out, size_t out_index) {
  const size_t size = ocl_reduce_type_size(type);
  const size_t pieces = count / piece + (count % piece != 0);
  ORX_FORWARD(orx_ensure_mem(ctx, &ctx->chunk_results, &ctx->chunk_results_bytes,
                             pieces * op_count * 8));
  const char *bytes = host;
  for (size_t p = 0; p < pieces; p++) {
    const size_t first = p * piece;
    const size_t n = count - first < piece ? count - first : piece;
    ORX_FORWARD(orx_device_write(ctx, ctx->staging, 0, bytes + first * size, n * size));
    ORX_FORWARD(launch_multi(ctx, built, ctx->staging, 0, n, ctx->chunk_results, p, pieces));
  }
  for (size_t k = 0; k < op_count; k++) {
    const orx_variant variant =
        orx_variant_of(ORX_KERNEL_REDUCE_ALL, ops[k], orx_compute_type(ops[k], type));
    const orx_built *all = NULL;
    ORX_FORWARD(orx_program_get(ctx, &variant, &all));
    ORX_FORWARD(orx_launch_reduce_all(ctx, all, ctx->chunk_results, k * pieces, pieces, out,
                                      out_index + k));
  }
  return OCL_REDUCE_OK;
}

/* Writes the operators' identities to the results (count == 0). */
static ocl_reduce_status write_identities(ocl_reduce_context *ctx, const ocl_reduce_op *ops,
                                          size_t op_count, ocl_reduce_type type,
                                          const orx_io *out) {
  const size_t size = ocl_reduce_type_size(type);
  unsigned char values[ORX_MULTI_MAX_OPS * 8];
  for (size_t k = 0; k < op_count; k++)
    orx_write_identity(ops[k], type, values + k * size);
  if (out->host_out) {
    memcpy(out->host_out, values, op_count * size);
    return OCL_REDUCE_OK;
  }
  return ctx->ops->write(ctx, ctx->backend, out->mem, out->offset * size, values, op_count * size);
}

ocl_reduce_status ocl_reduce_multi(ocl_reduce_context *ctx, const ocl_reduce_op *ops,
                                   size_t op_count, ocl_reduce_type type, ocl_reduce_input input,
                                   size_t count, ocl_reduce_output results) {
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_CHECK_ARG(ctx, ops, "%s: ops is NULL", function);
  ORX_CHECK_ARG(ctx, op_count >= 1 && op_count <= ORX_MULTI_MAX_OPS,
                "%s: op_count is %zu, not 1 .. %d", function, op_count, ORX_MULTI_MAX_OPS);
  for (size_t k = 0; k < op_count; k++)
    ORX_FORWARD(orx_check_op_type(ctx, function, ops[k], type));
  const size_t size = ocl_reduce_type_size(type);
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "results", &results, type, op_count, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, type, count, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &in, count * size, &out,
                                 op_count * size, size, size));
  if (count == 0)
    return write_identities(ctx, ops, op_count, type, &out);
  orx_call_begin(ctx);

  /* Signed integer types stay signed (MIN and MAX need it); SUM and PROD wrap in the kernels'
   * unsigned arithmetic anyway. */
  orx_variant variant = orx_variant_of(ORX_KERNEL_MULTI, OCL_REDUCE_SUM, type);
  variant.op_count = (unsigned)op_count;
  memcpy(variant.ops, ops, op_count * sizeof *ops);
  const orx_built *built = NULL;
  ORX_FORWARD(orx_program_get(ctx, &variant, &built));
  ORX_FORWARD(orx_ensure_scratch(ctx, &built->policy, ORX_MULTI_MAX_OPS));

  orx_mem *out_mem = out.host_out ? ctx->results : out.mem;
  const size_t out_index = out.host_out ? 0 : out.offset;
  if (in.mem) {
    ORX_FORWARD(launch_multi(ctx, built, in.mem, in.offset, count, out_mem, out_index, 1));
  } else {
    size_t piece = orx_staging_piece(ctx, type, built->policy.vec);
    if (piece > count)
      piece = count;
    ORX_FORWARD(orx_ensure_mem(ctx, &ctx->staging, &ctx->staging_bytes, piece * size));
    if (piece == count) {
      ORX_FORWARD(orx_device_write(ctx, ctx->staging, 0, in.host, count * size));
      ORX_FORWARD(launch_multi(ctx, built, ctx->staging, 0, count, out_mem, out_index, 1));
    } else {
      ORX_FORWARD(reduce_host_pieces(ctx, built, ops, op_count, type, in.host, count, piece,
                                     out_mem, out_index));
    }
  }
  if (!out.host_out)
    return OCL_REDUCE_OK;
  unsigned char values[ORX_MULTI_MAX_OPS * 8];
  ORX_FORWARD(orx_read_results(ctx, values, op_count * size));
  memcpy(out.host_out, values, op_count * size);
  return OCL_REDUCE_OK;
}
