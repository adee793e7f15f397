/* =================================================================================================
 * reduce.c: the whole-array entry points, and what every reducing entry point shares: argument
 * checks, the count == 0 answer, scratch memory, launches of cl/reduce_all.cl, and host input.
 *
 * Host input is uploaded in pieces of bounded size (one staging buffer, reused), each piece is
 * reduced into a slot of chunk_results, and one more launch reduces those slots; so inputs larger
 * than the device's largest allocation work, and the piece sizes, hence the results' bits, depend
 * only on the count.
 * ============================================================================================== */
#include <string.h>

#include "backend.h"

/* ---- Checks ------------------------------------------------------------------------------------ */

ocl_reduce_status orx_check_op_type(ocl_reduce_context *ctx, const char *function,
                                    ocl_reduce_op op, ocl_reduce_type type) {
  ORX_CHECK_ARG(ctx, orx_op_valid(op), "%s: op has unknown value %d", function, (int)op);
  ORX_CHECK_ARG(ctx, orx_type_valid(type), "%s: type has unknown value %d", function, (int)type);
  if (orx_type_is_float(type) && op >= OCL_REDUCE_AND)
    return orx_fail(ctx, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: %s is defined on integer types only, not on %s", function,
                    ocl_reduce_op_name(op), ocl_reduce_type_name(type));
  if (type == OCL_REDUCE_F64 && !ctx->caps.has_fp64)
    return orx_fail(ctx, OCL_REDUCE_ERROR_NO_FP64,
                    "%s: device '%s' has no double precision (cl_khr_fp64)", function,
                    ctx->caps.device_name);
  return OCL_REDUCE_OK;
}

void orx_write_identity(ocl_reduce_op op, ocl_reduce_type type, void *result) {
  uint64_t bits = orx_identity_bits(op, type);
  if (ocl_reduce_type_size(type) == 4) {
    uint32_t narrow = (uint32_t)bits;
    memcpy(result, &narrow, 4);
  } else {
    memcpy(result, &bits, 8);
  }
}

/* ---- Scratch memory ---------------------------------------------------------------------------- */

ocl_reduce_status orx_ensure_mem(ocl_reduce_context *ctx, orx_mem **mem, size_t *have,
                                 size_t bytes) {
  if (*mem && *have >= bytes)
    return OCL_REDUCE_OK;
  ctx->ops->release_mem(*mem);
  *mem = NULL;
  *have = 0;
  ORX_FORWARD(orx_device_alloc(ctx, bytes, mem));
  *have = bytes;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_ensure_scratch(ocl_reduce_context *ctx, const orx_policy *policy,
                                     unsigned per_group) {
  ORX_FORWARD(orx_ensure_mem(ctx, &ctx->partials, &ctx->partials_bytes,
                             (size_t)policy->max_groups * per_group * 8));
  if (!ctx->results && ctx->caps.host_visible_memory) {
    /* The result slot in memory the host reads directly: one command per call, not two. */
    if (ctx->ops->alloc_host_visible(ctx, ctx->backend, ORX_RESULT_SLOT_BYTES, &ctx->results,
                                     &ctx->results_host) == OCL_REDUCE_OK) {
      ctx->results_bytes = ORX_RESULT_SLOT_BYTES;
      ctx->device_allocations++;
    }
  }
  ORX_FORWARD(orx_ensure_mem(ctx, &ctx->results, &ctx->results_bytes, ORX_RESULT_SLOT_BYTES));
  if (!ctx->counter) {
    size_t have = 0;
    ORX_FORWARD(orx_ensure_mem(ctx, &ctx->counter, &have, sizeof(uint32_t)));
    uint32_t zero = 0;
    /* Scratch set-up, not application data: not counted in bytes_to_device. */
    ocl_reduce_status status = ctx->ops->write(ctx, ctx->backend, ctx->counter, 0, &zero, 4);
    if (status != OCL_REDUCE_OK) {
      ctx->ops->release_mem(ctx->counter);
      ctx->counter = NULL;
      return status;
    }
  }
  return OCL_REDUCE_OK;
}

/* ---- Launch ---------------------------------------------------------------------------------------- */

size_t orx_vector_head(const ocl_reduce_context *ctx, const orx_mem *mem, size_t offset,
                       unsigned vec, size_t elem) {
  /* Allocations start aligned to whole vectors, wrapped CUDA pointers at some element boundary
   * (checked when the input is resolved). */
  const size_t misaligned = ctx->ops->misalignment ? ctx->ops->misalignment(mem) / elem : 0;
  return (vec - (misaligned + offset) % vec) % vec;
}

ocl_reduce_status orx_launch(ocl_reduce_context *ctx, const orx_built *built, size_t groups,
                             const orx_arg *args, size_t nargs) {
  uint64_t ns = 0;
  ORX_FORWARD(ctx->ops->launch(ctx, ctx->backend, built->program, groups, built->policy.wg_size,
                               args, nargs, ctx->profiling ? &ns : NULL));
  if (ctx->profiling) {
    ctx->last_kernel_ns += ns;
    ctx->has_kernel_time = 1;
  }
  return OCL_REDUCE_OK;
}

void orx_call_begin(ocl_reduce_context *ctx) {
  ctx->last_kernel_ns = 0;
  ctx->has_kernel_time = 0;
}

ocl_reduce_status orx_launch_array(ocl_reduce_context *ctx, const orx_built *built, orx_mem *in,
                                   size_t offset, size_t count, orx_mem *out, size_t out_index,
                                   const size_t *out_stride) {
  const orx_policy *policy = &built->policy;
  size_t head = orx_vector_head(ctx, in, offset, policy->vec, ocl_reduce_type_size(built->type));
  if (head > count)
    head = count;
  const orx_arg args[] = {
      {ORX_ARG_MEM, in, 0},           {ORX_ARG_U64, NULL, offset},
      {ORX_ARG_U64, NULL, count},     {ORX_ARG_U64, NULL, head},
      {ORX_ARG_MEM, ctx->partials, 0}, {ORX_ARG_MEM, ctx->counter, 0},
      {ORX_ARG_MEM, out, 0},          {ORX_ARG_U64, NULL, out_index},
      {ORX_ARG_U64, NULL, out_stride ? *out_stride : 0},
  };
  return orx_launch(ctx, built, orx_policy_groups(policy, count), args,
                    ORX_ARRAY_SIZE(args) - (out_stride ? 0 : 1));
}

ocl_reduce_status orx_launch_reduce_all(ocl_reduce_context *ctx, const orx_built *built,
                                        orx_mem *in, size_t offset, size_t count, orx_mem *out,
                                        size_t out_index) {
  return orx_launch_array(ctx, built, in, offset, count, out, out_index, NULL);
}

/* Builds (or finds) the whole-array kernel for op on type and makes sure its scratch exists. */
static ocl_reduce_status prepare(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                 const orx_built **built) {
  const orx_variant variant =
      orx_variant_of(ORX_KERNEL_REDUCE_ALL, op, orx_compute_type(op, type));
  ORX_FORWARD(orx_program_get(ctx, &variant, built));
  return orx_ensure_scratch(ctx, &(*built)->policy, 1);
}

ocl_reduce_status orx_read_results(ocl_reduce_context *ctx, void *dst, size_t bytes) {
  if (ctx->results_host) {
    ORX_FORWARD(ctx->ops->finish(ctx, ctx->backend));
    memcpy(dst, ctx->results_host, bytes);
    return OCL_REDUCE_OK;
  }
  return ctx->ops->read(ctx, ctx->backend, ctx->results, 0, dst, bytes);
}

static ocl_reduce_status read_result(ocl_reduce_context *ctx, ocl_reduce_type type, void *result) {
  uint64_t value = 0;
  const size_t size = ocl_reduce_type_size(type);
  ORX_FORWARD(orx_read_results(ctx, &value, size));
  memcpy(result, &value, size);
  return OCL_REDUCE_OK;
}

/* ---- Host input ------------------------------------------------------------------------------- */

size_t orx_staging_piece(const ocl_reduce_context *ctx, ocl_reduce_type type, unsigned vec) {
  /* Whole vectors, no more than the staging limit or the device's largest buffer. */
  const size_t size = ocl_reduce_type_size(type);
  size_t limit = ORX_STAGING_BYTES;
  if (ctx->caps.max_alloc_bytes && limit > ctx->caps.max_alloc_bytes)
    limit = (size_t)ctx->caps.max_alloc_bytes;
  const size_t quantum = (size_t)vec * size;
  const size_t piece = limit / quantum * quantum / size;
  return piece ? piece : 1;
}

ocl_reduce_status orx_reduce_host_into(ocl_reduce_context *ctx, const orx_built *built,
                                       const void *host, size_t count, orx_mem *out,
                                       size_t out_index) {
  const size_t size = ocl_reduce_type_size(built->type);
  size_t piece = orx_staging_piece(ctx, built->type, built->policy.vec);
  if (piece > count)
    piece = count ? count : 1;
  ORX_FORWARD(orx_ensure_mem(ctx, &ctx->staging, &ctx->staging_bytes, piece * size));
  const char *bytes = host;
  if (count <= piece) {
    if (count)
      ORX_FORWARD(orx_device_write(ctx, ctx->staging, 0, bytes, count * size));
    return orx_launch_reduce_all(ctx, built, ctx->staging, 0, count, out, out_index);
  }
  const size_t pieces = count / piece + (count % piece != 0);
  ORX_FORWARD(orx_ensure_mem(ctx, &ctx->chunk_results, &ctx->chunk_results_bytes, pieces * 8));
  for (size_t k = 0; k < pieces; k++) {
    const size_t first = k * piece;
    const size_t n = count - first < piece ? count - first : piece;
    ORX_FORWARD(orx_device_write(ctx, ctx->staging, 0, bytes + first * size, n * size));
    ORX_FORWARD(orx_launch_reduce_all(ctx, built, ctx->staging, 0, n, ctx->chunk_results, k));
  }
  return orx_launch_reduce_all(ctx, built, ctx->chunk_results, 0, pieces, out, out_index);
}

/* ---- Public entry points ------------------------------------------------------------------------- */

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
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &in, type, count,
                                &io));
  if (count == 0) {
    orx_write_identity(op, type, result);
    return OCL_REDUCE_OK;
  }
  orx_call_begin(ctx);
  const orx_built *built = NULL;
  ORX_FORWARD(prepare(ctx, op, type, &built));
  ORX_FORWARD(orx_launch_reduce_all(ctx, built, io.mem, io.offset, count, ctx->results, 0));
  return read_result(ctx, type, result);
}

ocl_reduce_status ocl_reduce(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                             const void *input, size_t count, void *result) {
  static const char function[] = "ocl_reduce";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_CHECK_ARG(ctx, result, "%s: result is NULL", function);
  ORX_FORWARD(orx_check_op_type(ctx, function, op, type));
  ORX_CHECK_ARG(ctx, input || count == 0, "%s: input is NULL and count is %zu", function, count);
  if (count == 0) {
    orx_write_identity(op, type, result);
    return OCL_REDUCE_OK;
  }
  orx_call_begin(ctx);
  const orx_built *built = NULL;
  ORX_FORWARD(prepare(ctx, op, type, &built));
  ORX_FORWARD(orx_reduce_host_into(ctx, built, input, count, ctx->results, 0));
  return read_result(ctx, type, result);
}
