/* =================================================================================================
 * io.c: inputs and outputs of the entry points that take arrays, checked and resolved (io.h).
 * ============================================================================================== */
#include "core/io.h"

#include <stdint.h>

#include "core/context.h"
#include "core/ids.h"

ocl_reduce_status orx_check_op_type(ocl_reduce_context *ctx, const char *function,
                                    ocl_reduce_op op, ocl_reduce_type type) {
  ORX_CHECK_ARG(ctx, orx_op_valid(op), "%s: op has unknown value %d", function, (int)op);
  ORX_CHECK_ARG(ctx, orx_type_valid(type), "%s: type has unknown value %d", function, (int)type);
  const char *refusal = orx_op_type_refusal(op, type);
  if (refusal)
    return orx_fail(ctx, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: %s is defined on %s, not on %s", function, orx_op_name(op), refusal,
                    orx_type_name(type));
  if (orx_state_facts_of(op, type).needs_fp64 && !ctx->caps.has_fp64)
    return orx_fail(ctx, OCL_REDUCE_ERROR_NO_FP64,
                    "%s: %s on %s computes in double, and device '%s' has no double precision "
                    "(cl_khr_fp64)",
                    function, orx_op_name(op), orx_type_name(type), ctx->caps.device_name);
  return OCL_REDUCE_OK;
}

ocl_reduce_op orx_context_op(const ocl_reduce_context *ctx, ocl_reduce_op op,
                             ocl_reduce_type type) {
  return ctx->determinism == OCL_REDUCE_CROSS_DEVICE && op == OCL_REDUCE_SUM &&
                 orx_type_is_float(type)
             ? OCL_REDUCE_SUM_REPRODUCIBLE
             : op;
}

ocl_reduce_status orx_check_user_operator(ocl_reduce_context *ctx, const char *function,
                                          const ocl_reduce_operator *op) {
  ORX_CHECK_ARG(ctx, op, "%s: op is NULL", function);
  ORX_CHECK_ARG(ctx, op->ctx == ctx, "%s: op was created on another context", function);
  return OCL_REDUCE_OK;
}

/* Checks a buffer for elements [offset, offset + needed) of `size` bytes and fills io. */
static ocl_reduce_status resolve_buffer(ocl_reduce_context *ctx, const char *function,
                                        const char *name, const ocl_reduce_buffer *buffer,
                                        size_t offset, size_t size, size_t needed, orx_io *io) {
  ORX_CHECK_ARG(ctx, buffer->ctx == ctx, "%s: %s belongs to another context", function, name);
  ORX_CHECK_ARG(ctx, !ctx->ops->misalignment || ctx->ops->misalignment(buffer->mem) % size == 0,
                "%s: the device pointer wrapped by %s is not aligned to its %zu-byte elements",
                function, name, size);
  const size_t capacity = buffer->bytes / size;
  if (offset > capacity || needed > capacity - offset)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_RANGE,
                    "%s: %s elements [%zu, %zu + %zu) of %zu bytes reach beyond the buffer's %zu "
                    "elements (%zu bytes)",
                    function, name, offset, offset, needed, size, capacity, buffer->bytes);
  io->mem = buffer->mem;
  io->offset = offset;
  io->capacity = capacity - offset;
  return OCL_REDUCE_OK;
}

/* Exactly one of host and buffer, except that nothing at all is fine when nothing is needed. */
static ocl_reduce_status check_one_place(ocl_reduce_context *ctx, const char *function,
                                         const char *name, const void *host, const void *buffer,
                                         size_t needed) {
  ORX_CHECK_ARG(ctx, !(host && buffer), "%s: %s sets both host and buffer", function, name);
  ORX_CHECK_ARG(ctx, host || buffer || needed == 0,
                "%s: %s is NULL (neither host nor buffer is set) and %zu elements are needed",
                function, name, needed);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_check_host_span(ocl_reduce_context *ctx, const char *function,
                                      const char *name, size_t offset, size_t count, size_t size) {
  ORX_CHECK_ARG(ctx, size == 0 || (offset <= SIZE_MAX / size && count <= SIZE_MAX / size - offset),
                "%s: %s: elements [%zu, %zu + %zu) of %zu bytes in host memory are more bytes "
                "than size_t counts",
                function, name, offset, offset, count, size);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_resolve_input(ocl_reduce_context *ctx, const char *function,
                                    const char *name, const ocl_reduce_input *in, size_t size,
                                    size_t needed, orx_io *io) {
  *io = (orx_io){NULL, NULL, NULL, 0, SIZE_MAX};
  ORX_FORWARD(check_one_place(ctx, function, name, in->host, in->buffer, needed));
  if (in->buffer)
    return resolve_buffer(ctx, function, name, in->buffer, in->offset, size, needed, io);
  if (in->host) {
    ORX_FORWARD(orx_check_host_span(ctx, function, name, in->offset, needed, size));
    io->host = (const char *)in->host + in->offset * size;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_resolve_output(ocl_reduce_context *ctx, const char *function,
                                     const char *name, const ocl_reduce_output *out, size_t size,
                                     size_t needed, orx_io *io) {
  *io = (orx_io){NULL, NULL, NULL, 0, SIZE_MAX};
  ORX_FORWARD(check_one_place(ctx, function, name, out->host, out->buffer, needed));
  if (out->buffer)
    return resolve_buffer(ctx, function, name, out->buffer, out->offset, size, needed, io);
  if (out->host) {
    ORX_FORWARD(orx_check_host_span(ctx, function, name, out->offset, needed, size));
    io->host_out = (char *)out->host + out->offset * size;
    io->host = io->host_out;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_check_disjoint(ocl_reduce_context *ctx, const char *function,
                                     const char *in_name, const orx_io *in, size_t in_bytes,
                                     const orx_io *out, size_t out_bytes, size_t out_elem,
                                     size_t in_elem) {
  if (!in->mem || in->mem != out->mem || in_bytes == 0 || out_bytes == 0)
    return OCL_REDUCE_OK;
  const size_t in_begin = in->offset * in_elem, out_begin = out->offset * out_elem;
  const int overlap = in_begin < out_begin + out_bytes && out_begin < in_begin + in_bytes;
  ORX_CHECK_ARG(ctx, !overlap,
                "%s: results (bytes [%zu, %zu) of the buffer) overlap %s (bytes [%zu, %zu)): a "
                "kernel would read what it overwrites",
                function, out_begin, out_begin + out_bytes, in_name, in_begin,
                in_begin + in_bytes);
  return OCL_REDUCE_OK;
}
