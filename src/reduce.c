/* =================================================================================================
 * reduce.c: the reducing entry points. Argument checks, the count == 0 answer, scratch memory, and
 * the launch of cl/reduce_all.cl. Host input is uploaded in pieces of bounded size (one staging
 * buffer, reused), each piece is reduced into a slot of chunk_results, and one more launch reduces
 * those slots; so inputs larger than the device's largest allocation work, and the piece sizes,
 * hence the results' bits, depend only on the count.
 * ============================================================================================== */
#include <string.h>

#include "backend.h"

/* Staging buffer for host input: at most this much device memory per context. */
#define ORX_STAGING_BYTES ((size_t)64 << 20)

/* ---- Checks ------------------------------------------------------------------------------------ */

static ocl_reduce_status check_op_type(ocl_reduce_context *ctx, const char *function,
                                       ocl_reduce_op op, ocl_reduce_type type, const void *result) {
  ORX_CHECK_ARG(ctx, result, "%s: result is NULL", function);
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

static void write_identity(ocl_reduce_op op, ocl_reduce_type type, void *result) {
  uint64_t bits = orx_identity_bits(op, type);
  if (ocl_reduce_type_size(type) == 4) {
    uint32_t narrow = (uint32_t)bits;
    memcpy(result, &narrow, 4);
  } else {
    memcpy(result, &bits, 8);
  }
}

/* ---- Scratch memory ---------------------------------------------------------------------------- */

/* Grows *mem to at least `bytes` (contents are not kept). */
static ocl_reduce_status ensure_mem(ocl_reduce_context *ctx, orx_mem **mem, size_t *have,
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

static ocl_reduce_status ensure_scratch(ocl_reduce_context *ctx, const orx_policy *policy) {
  ORX_FORWARD(ensure_mem(ctx, &ctx->partials, &ctx->partials_bytes, (size_t)policy->max_groups * 8));
  if (!ctx->results && ctx->caps.host_visible_memory) {
    /* The result slot in memory the host reads directly: one command per call, not two. */
    if (ctx->ops->alloc_host_visible(ctx, ctx->backend, 64, &ctx->results, &ctx->results_host) ==
        OCL_REDUCE_OK) {
      ctx->results_bytes = 64;
      ctx->device_allocations++;
    }
  }
  ORX_FORWARD(ensure_mem(ctx, &ctx->results, &ctx->results_bytes, 8));
  if (!ctx->counter) {
    size_t have = 0;
    ORX_FORWARD(ensure_mem(ctx, &ctx->counter, &have, sizeof(uint32_t)));
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

/* Reduces elements [offset, offset + count) of `in` (count > 0) into element out_index of `out`. */
static ocl_reduce_status launch_reduce_all(ocl_reduce_context *ctx, const orx_built *built,
                                           orx_mem *in, size_t offset, size_t count, orx_mem *out,
                                           size_t out_index) {
  const orx_policy *policy = &built->policy;
  /* Elements before the first vector-aligned one. Allocations start aligned to whole vectors,
   * wrapped CUDA pointers at some element boundary (checked by the caller). */
  const size_t elem = ocl_reduce_type_size(built->type);
  const size_t misaligned = ctx->ops->misalignment ? ctx->ops->misalignment(in) / elem : 0;
  size_t head = (policy->vec - (misaligned + offset) % policy->vec) % policy->vec;
  if (head > count)
    head = count;
  const orx_arg args[] = {
      {ORX_ARG_MEM, in, 0},           {ORX_ARG_U64, NULL, offset},
      {ORX_ARG_U64, NULL, count},     {ORX_ARG_U64, NULL, head},
      {ORX_ARG_MEM, ctx->partials, 0}, {ORX_ARG_MEM, ctx->counter, 0},
      {ORX_ARG_MEM, out, 0},          {ORX_ARG_U64, NULL, out_index},
  };
  uint64_t ns = 0;
  ORX_FORWARD(ctx->ops->launch(ctx, ctx->backend, built->program,
                               orx_policy_groups(policy, count), policy->wg_size, args,
                               ORX_ARRAY_SIZE(args), ctx->profiling ? &ns : NULL));
  if (ctx->profiling) {
    ctx->last_kernel_ns = ns;
    ctx->has_kernel_time = 1;
  }
  return OCL_REDUCE_OK;
}

/* Builds (or finds) the kernel for op on type and makes sure its scratch memory exists. */
static ocl_reduce_status prepare(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                 const orx_built **built) {
  ORX_FORWARD(orx_program_get(ctx, ORX_KERNEL_REDUCE_ALL, op, orx_compute_type(op, type), built));
  return ensure_scratch(ctx, &(*built)->policy);
}

static ocl_reduce_status read_result(ocl_reduce_context *ctx, ocl_reduce_type type, void *result) {
  uint64_t value = 0;
  size_t size = ocl_reduce_type_size(type);
  if (ctx->results_host) {
    ORX_FORWARD(ctx->ops->finish(ctx, ctx->backend));
    memcpy(&value, ctx->results_host, size);
  } else {
    ORX_FORWARD(ctx->ops->read(ctx, ctx->backend, ctx->results, 0, &value, size));
  }
  memcpy(result, &value, size);
  return OCL_REDUCE_OK;
}

/* ---- Public entry points ------------------------------------------------------------------------- */

ocl_reduce_status ocl_reduce_buffer_reduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                           ocl_reduce_type type, const ocl_reduce_buffer *input,
                                           size_t offset, size_t count, void *result) {
  static const char function[] = "ocl_reduce_buffer_reduce";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_FORWARD(check_op_type(ctx, function, op, type, result));
  ORX_CHECK_ARG(ctx, input, "%s: input is NULL", function);
  ORX_CHECK_ARG(ctx, input->ctx == ctx, "%s: input belongs to another context", function);
  const size_t size = ocl_reduce_type_size(type);
  ORX_CHECK_ARG(ctx, !ctx->ops->misalignment || ctx->ops->misalignment(input->mem) % size == 0,
                "%s: the wrapped device pointer is not aligned to the %zu bytes of a %s", function,
                size, ocl_reduce_type_name(type));
  const size_t capacity = input->bytes / size;
  if (offset > capacity || count > capacity - offset)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_RANGE,
                    "%s: elements [%zu, %zu + %zu) of %s reach beyond the buffer's %zu elements "
                    "(%zu bytes)",
                    function, offset, offset, count, ocl_reduce_type_name(type), capacity,
                    input->bytes);
  if (count == 0) {
    write_identity(op, type, result);
    return OCL_REDUCE_OK;
  }
  const orx_built *built = NULL;
  ORX_FORWARD(prepare(ctx, op, type, &built));
  ORX_FORWARD(launch_reduce_all(ctx, built, input->mem, offset, count, ctx->results, 0));
  return read_result(ctx, type, result);
}

ocl_reduce_status ocl_reduce(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                             const void *input, size_t count, void *result) {
  static const char function[] = "ocl_reduce";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_FORWARD(check_op_type(ctx, function, op, type, result));
  ORX_CHECK_ARG(ctx, input || count == 0, "%s: input is NULL and count is %zu", function, count);
  if (count == 0) {
    write_identity(op, type, result);
    return OCL_REDUCE_OK;
  }
  const orx_built *built = NULL;
  ORX_FORWARD(prepare(ctx, op, type, &built));

  /* Pieces of whole vectors, no larger than the staging limit or the device's largest buffer. */
  const size_t size = ocl_reduce_type_size(type);
  size_t limit = ORX_STAGING_BYTES;
  if (ctx->caps.max_alloc_bytes && limit > ctx->caps.max_alloc_bytes)
    limit = (size_t)ctx->caps.max_alloc_bytes;
  const size_t quantum = (size_t)built->policy.vec * size;
  size_t piece = limit / quantum * quantum / size;
  if (piece == 0)
    piece = 1;
  if (piece > count)
    piece = count;
  ORX_FORWARD(ensure_mem(ctx, &ctx->staging, &ctx->staging_bytes, piece * size));

  const char *bytes = input;
  if (piece == count) {
    ORX_FORWARD(orx_device_write(ctx, ctx->staging, 0, bytes, count * size));
    ORX_FORWARD(launch_reduce_all(ctx, built, ctx->staging, 0, count, ctx->results, 0));
    return read_result(ctx, type, result);
  }
  const size_t pieces = count / piece + (count % piece != 0);
  ORX_FORWARD(ensure_mem(ctx, &ctx->chunk_results, &ctx->chunk_results_bytes, pieces * 8));
  for (size_t k = 0; k < pieces; k++) {
    size_t first = k * piece;
    size_t n = count - first < piece ? count - first : piece;
    ORX_FORWARD(orx_device_write(ctx, ctx->staging, 0, bytes + first * size, n * size));
    ORX_FORWARD(launch_reduce_all(ctx, built, ctx->staging, 0, n, ctx->chunk_results, k));
  }
  ORX_FORWARD(launch_reduce_all(ctx, built, ctx->chunk_results, 0, pieces, ctx->results, 0));
  return read_result(ctx, type, result);
}
