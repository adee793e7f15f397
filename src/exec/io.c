/* =================================================================================================
 * io.c: inputs and outputs of the entry points that take arrays, checked and resolved (io.h).
 * ============================================================================================== */
#include "exec/io.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "exec/entry.h"

#include "exec/context.h"
#include "exec/entry.h"
#include "base/ids.h"
#include "exec/user_operator.h"

/* A built-in operator on one of the public types; without a context (the host's combine), as a
 * context of RUN_TO_RUN determinism runs it. */
static ocl_reduce_status resolve_builtin(ocl_reduce_context *ctx, const char *function,
                                         orx_op_id id, ocl_reduce_type type, orx_op_call *call) {
  if (type == OCL_REDUCE_OP_ELEMENT)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: type is OCL_REDUCE_OP_ELEMENT, which only a user operator takes, and op "
                    "is the built-in %s",
                    function, orx_op_name(id));
  ORX_CHECK_ARG(ctx, orx_type_valid(type), "%s: type has unknown value %d", function, (int)type);
  const char *refusal = orx_op_type_refusal(id, type);
  if (refusal)
    return orx_fail(ctx, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: %s is defined on %s, not on %s", function, orx_op_name(id), refusal,
                    orx_type_name(type));
  if (ctx && orx_state_facts_of(id, type).needs_fp64 && !ctx->caps.has_fp64)
    return orx_fail(ctx, OCL_REDUCE_ERROR_NO_FP64,
                    "%s: %s on %s computes in double, and device '%s' has no double precision "
                    "(cl_khr_fp64)",
                    function, orx_op_name(id), orx_type_name(type), ctx->caps.device_name);
  const orx_op_id run = ctx && ctx->determinism == OCL_REDUCE_CROSS_DEVICE && id == ORX_OP_SUM &&
                                orx_type_is_float(type)
                            ? ORX_OP_SUM_REPRODUCIBLE
                            : id;
  const orx_state_facts facts = orx_state_facts_of(run, type);
  call->op = orx_builtin_operator(run, type);
  call->builtin = run;
  call->type = type;
  call->elem = orx_type_size(type);
  call->result_bytes = facts.result_bytes;
  call->state_bytes = facts.state_bytes;
  call->name = orx_op_name(id);
  return OCL_REDUCE_OK;
}

/* A user operator on its own elements: type OP_ELEMENT, or the scalar type they are; a pair
 * operator (pair_map) where the call reduces pairs, any other where it reduces one input. */
static ocl_reduce_status resolve_user(ocl_reduce_context *ctx, const char *function,
                                      const ocl_reduce_operator *user, ocl_reduce_type type,
                                      int pairs, orx_op_call *call) {
  const orx_operator *op = &user->op;
  if (user->pairs != pairs)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    user->pairs ? "%s: op is the user pair operator '%s' (%s), which reduces two "
                                  "inputs: ocl_reduce_pairs and ocl_reduce_pairs_segments take it"
                                : "%s: op is the user operator '%s' (%s), which reduces one "
                                  "input: a pair operator (desc->pair_map in place of "
                                  "desc->map) goes here",
                    function, user->name, user->roles);
  if (type != OCL_REDUCE_OP_ELEMENT && !(orx_type_valid(type) && (int)type == op->element_type))
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: type is %s, but the user operator '%s' reduces elements of its own type "
                    "'%s' (%u bytes): pass OCL_REDUCE_OP_ELEMENT",
                    function, orx_type_valid(type) ? orx_type_name(type) : "an unknown value",
                    user->name, user->element_type, op->element_bytes);
  ORX_FORWARD(orx_user_operator_ready(ctx, function, user));
  call->op = *op;
  call->builtin = -1;
  call->type = (ocl_reduce_type)op->element_type; /* ORX_CUSTOM, or a scalar type */
  call->elem = op->element_bytes;
  call->result_bytes = call->state_bytes = op->state_bytes;
  call->name = user->name;
  return OCL_REDUCE_OK;
}

/* op, neither built-in nor NULL: a live user operator, or refused naming `function`. */
static ocl_reduce_status check_user(ocl_reduce_context *ctx, const char *function,
                                    ocl_reduce_op op) {
  /* A value that is no address malloc gives (small, misaligned) was never an operator. */
  const uintptr_t address = (uintptr_t)op;
  ORX_CHECK_ARG(ctx, address > 4096 && address % _Alignof(max_align_t) == 0,
                "%s: op (%p) is neither a built-in operator nor a live user operator", function,
                (const void *)op);
  if (!orx_is_user_operator(op))
    return orx_fail(ctx, OCL_REDUCE_ERROR_MISUSE,
                    "%s: op (%p) is neither a built-in operator nor a live user operator "
                    "(destroyed, or not one that ocl_reduce_operator_create made)",
                    function, (const void *)op);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_resolve_op(ocl_reduce_context *ctx, const char *function, ocl_reduce_op op,
                                 ocl_reduce_type type, orx_op_call *call) {
  memset(call, 0, sizeof *call);
  ORX_CHECK_ARG(ctx, op, "%s: op is NULL", function);
  const orx_op_id id = orx_builtin_id(op);
  if (id >= 0)
    return resolve_builtin(ctx, function, id, type, call);
  if (orx_pair_builtin_id(op) >= 0)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: op is the pair operator %s, which reduces two inputs: "
                    "ocl_reduce_pairs and ocl_reduce_pairs_segments take it",
                    function, orx_pair_name(orx_pair_builtin_id(op)));
  ORX_FORWARD(check_user(ctx, function, op));
  return resolve_user(ctx, function, op, type, 0, call);
}

ocl_reduce_status orx_resolve_pair(ocl_reduce_context *ctx, const char *function,
                                   ocl_reduce_op op, ocl_reduce_type type, orx_pair_call *call) {
  memset(call, 0, sizeof *call);
  ORX_CHECK_ARG(ctx, op, "%s: op is NULL", function);
  const orx_pair_id pair = orx_pair_builtin_id(op);
  if (pair < 0 && orx_builtin_id(op) >= 0)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: op is %s, which reduces one input: a pair operator (OCL_REDUCE_DOT, "
                    "OCL_REDUCE_SQUARED_DISTANCE, OCL_REDUCE_ABS_DISTANCE, "
                    "OCL_REDUCE_COUNT_EQUAL) goes here",
                    function, orx_op_name(orx_builtin_id(op)));
  if (pair < 0) { /* a user pair operator: its own kernel over the pairs of its elements */
    ORX_FORWARD(check_user(ctx, function, op));
    ORX_FORWARD(resolve_user(ctx, function, op, type, 1, &call->sum));
    call->pair = ORX_PAIR_USER;
    call->type = call->sum.type = OCL_REDUCE_OP_ELEMENT; /* read as pairs, not as vectors */
    call->sum.op.element_type = ORX_CUSTOM;
    call->elem = call->sum.elem;
    return OCL_REDUCE_OK;
  }
  ORX_CHECK_ARG(ctx, orx_type_valid(type), "%s: type has unknown value %d", function, (int)type);
  const ocl_reduce_type value = orx_pair_value_type(pair, type);
  if (ctx && type == OCL_REDUCE_F64 && !ctx->caps.has_fp64)
    return orx_fail(ctx, OCL_REDUCE_ERROR_NO_FP64,
                    "%s: %s on f64, and device '%s' has no double precision (cl_khr_fp64)",
                    function, orx_pair_name(pair), ctx->caps.device_name);
  /* SUM of the values, as ctx runs it: SUM_REPRODUCIBLE of float values under CROSS_DEVICE. */
  ORX_FORWARD(resolve_builtin(ctx, function, ORX_OP_SUM, value, &call->sum));
  call->pair = pair;
  call->type = type;
  call->elem = orx_type_size(type);
  call->sum.name = orx_pair_name(pair);
  return OCL_REDUCE_OK;
}

int orx_op_reduces_pairs(ocl_reduce_op op) {
  return orx_pair_builtin_id(op) >= 0 ||
         (orx_builtin_id(op) < 0 && orx_is_user_operator(op) && op->pairs);
}

ocl_reduce_status orx_check_index_base(ocl_reduce_context *ctx, const char *function,
                                       ocl_reduce_op op, size_t count, uint64_t index_base) {
  const orx_op_id id = orx_builtin_id(op);
  if (count == 0 || (id != ORX_OP_ARGMIN && id != ORX_OP_ARGMAX && id >= 0))
    return OCL_REDUCE_OK;
  ORX_CHECK_ARG(ctx, index_base <= UINT64_MAX - count,
                "%s: index_base is %llu, so the last of %zu elements would have index %llu + "
                "%zu - 1, past 2^64 - 2 (an index of 2^64 - 1 means an empty result)",
                function, (unsigned long long)index_base, count,
                (unsigned long long)index_base, count);
  return OCL_REDUCE_OK;
}

orx_request orx_op_request(const orx_op_call *call) {
  return call->builtin >= 0 ? orx_reduce_request(call->builtin, call->type)
                            : orx_custom_request(&call->op);
}

/* Checks a buffer for elements [offset, offset + needed) of `size` bytes and fills io. */
static ocl_reduce_status resolve_buffer(ocl_reduce_context *ctx, const char *function,
                                        const char *name, const ocl_reduce_buffer *buffer,
                                        size_t offset, size_t size, size_t needed, orx_io *io) {
  ocl_reduce_context *owner = NULL;
  ORX_FORWARD(orx_buffer_check(ctx, buffer, function, name, &owner));
  ORX_CHECK_ARG(ctx, owner,
                "%s: %s is a group's buffer, spread over its devices: the group's calls read it",
                function, name);
  /* Read no further unless it is ctx's: only then does ctx's lock keep it from its destroy. */
  ORX_CHECK_ARG(ctx, owner == ctx, "%s: %s belongs to another context", function, name);
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
                                      const char *name, size_t offset, size_t count, size_t size,
                                      size_t bytes) {
  ORX_CHECK_ARG(ctx, size == 0 || (offset <= SIZE_MAX / size && count <= SIZE_MAX / size - offset),
                "%s: %s: elements [%zu, %zu + %zu) of %zu bytes in host memory are more bytes "
                "than size_t counts",
                function, name, offset, offset, count, size);
  const size_t needed = (offset + count) * size;
  ORX_CHECK_ARG(ctx, needed <= bytes,
                "%s: %s is %zu bytes of host memory, and the request needs %zu (elements [%zu, "
                "%zu + %zu) of %zu bytes)",
                function, name, bytes, needed, offset, offset, count, size);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_resolve_input(ocl_reduce_context *ctx, const char *function,
                                    const char *name, const ocl_reduce_input *in, size_t size,
                                    size_t needed, orx_io *io) {
  *io = (orx_io){NULL, NULL, NULL, 0, 0};
  ORX_FORWARD(check_one_place(ctx, function, name, in->host, in->buffer, needed));
  if (in->buffer)
    return resolve_buffer(ctx, function, name, in->buffer, in->offset, size, needed, io);
  if (in->host) {
    ORX_FORWARD(orx_check_host_span(ctx, function, name, in->offset, needed, size, in->bytes));
    io->host = (const char *)in->host + in->offset * size;
    io->capacity = size ? in->bytes / size - in->offset : 0;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_resolve_output(ocl_reduce_context *ctx, const char *function,
                                     const char *name, const ocl_reduce_output *out, size_t size,
                                     size_t needed, orx_io *io) {
  *io = (orx_io){NULL, NULL, NULL, 0, 0};
  ORX_FORWARD(check_one_place(ctx, function, name, out->host, out->buffer, needed));
  if (out->buffer)
    return resolve_buffer(ctx, function, name, out->buffer, out->offset, size, needed, io);
  if (out->host) {
    ORX_FORWARD(orx_check_host_span(ctx, function, name, out->offset, needed, size, out->bytes));
    io->host_out = (char *)out->host + out->offset * size;
    io->host = io->host_out;
    io->capacity = size ? out->bytes / size - out->offset : 0;
  }
  return OCL_REDUCE_OK;
}

orx_io orx_io_from(const orx_io *io, size_t at, size_t elem) {
  orx_io part = *io;
  if (part.mem)
    part.offset += at;
  if (part.host)
    part.host = (const char *)part.host + at * elem;
  if (part.host_out)
    part.host_out = (char *)part.host_out + at * elem;
  part.capacity = part.capacity > at ? part.capacity - at : 0;
  return part;
}

int orx_io_apart(const orx_io *a, size_t a_bytes, size_t a_elem, const orx_io *b, size_t b_bytes,
                 size_t b_elem) {
  if (!a->mem || a->mem != b->mem || a_bytes == 0 || b_bytes == 0)
    return 1;
  const size_t a_begin = a->offset * a_elem, b_begin = b->offset * b_elem;
  return !(a_begin < b_begin + b_bytes && b_begin < a_begin + a_bytes);
}

ocl_reduce_status orx_check_apart(ocl_reduce_context *ctx, const char *function,
                                  const char *a_name, const orx_io *a, size_t a_bytes,
                                  size_t a_elem, const char *b_name, const orx_io *b,
                                  size_t b_bytes, size_t b_elem) {
  if (orx_io_apart(a, a_bytes, a_elem, b, b_bytes, b_elem))
    return OCL_REDUCE_OK;
  const size_t a_begin = a->offset * a_elem, b_begin = b->offset * b_elem;
  return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                  "%s: %s (bytes [%zu, %zu) of the buffer) overlap %s (bytes [%zu, %zu)): a "
                  "kernel would read what it overwrites",
                  function, a_name, a_begin, a_begin + a_bytes, b_name, b_begin,
                  b_begin + b_bytes);
}

ocl_reduce_status orx_check_disjoint(ocl_reduce_context *ctx, const char *function,
                                     const char *in_name, const orx_io *in, size_t in_bytes,
                                     const orx_io *out, size_t out_bytes, size_t out_elem,
                                     size_t in_elem) {
  return orx_check_apart(ctx, function, "results", out, out_bytes, out_elem, in_name, in,
                         in_bytes, in_elem);
}
