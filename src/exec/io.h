/* =================================================================================================
 * io.h: the arguments every reducing entry point checks alike (io.c): the operator and type, and
 * ocl_reduce_input and ocl_reduce_output, the "host memory or elements of a device buffer"
 * descriptors of the entry points that take arrays: exactly one place set, the buffer of this
 * context, element alignment of wrapped device pointers, and the element range.
 * ============================================================================================== */
#ifndef ORX_IO_H
#define ORX_IO_H

#include <stddef.h>

#include "backends/backend.h"
#include "planner/planner.h"

/* The operator of a call, resolved: a built-in operator on a type, or a user operator on its own
 * elements, checked (a known value, defined on the type, a device that can run it; a user
 * operator compiled and probed on ctx) and as ctx runs it (SUM on floats is SUM_REPRODUCIBLE
 * under OCL_REDUCE_CROSS_DEVICE). A built-in resolves with ctx NULL too (no device to check). */
typedef struct orx_op_call {
  orx_operator op;      /* what the planner is given */
  orx_op_id builtin;    /* the built-in id as ctx runs it; -1 for a user operator */
  ocl_reduce_type type; /* the elements: the call's type, or the user operator's (ORX_CUSTOM) */
  size_t elem;          /* bytes of one element */
  size_t result_bytes;  /* bytes of one result */
  size_t state_bytes;   /* bytes of one state (ocl_reduce_partial) */
  const char *name;     /* for messages: "sum", or the user operator's name */
} orx_op_call;
ocl_reduce_status orx_resolve_op(ocl_reduce_context *ctx, const char *function, ocl_reduce_op op,
                                 ocl_reduce_type type, orx_op_call *call);

/* A pair operator's call (ocl_reduce_pairs*), resolved: a built-in's SUM over the values of the
 * pairs of `type` elements, as ctx runs it, or a user pair operator over the pairs of its
 * elements; a single-input operator is refused by name. */
typedef struct orx_pair_call {
  orx_pair_id pair;     /* an ORX_PAIR_ id: a built-in's, or ORX_PAIR_USER */
  ocl_reduce_type type; /* both inputs' elements (a user operator's: OCL_REDUCE_OP_ELEMENT) */
  size_t elem;          /* bytes of one element */
  orx_op_call sum;      /* SUM of the values (their type; the pair's name for messages), or
                           under CROSS_DEVICE of float values SUM_REPRODUCIBLE; the user
                           operator's call, its elements read as pairs (type OP_ELEMENT) */
} orx_pair_call;
ocl_reduce_status orx_resolve_pair(ocl_reduce_context *ctx, const char *function,
                                   ocl_reduce_op op, ocl_reduce_type type, orx_pair_call *call);
/* Whether op reduces pairs: a built-in pair operator, or a live user pair operator. */
int orx_op_reduces_pairs(ocl_reduce_op op);

/* Refuses (INVALID_ARGUMENT naming `function`) an index_base from which count elements' indices
 * would pass UINT64_MAX - 1 (UINT64_MAX is an empty ARGMIN/ARGMAX's index): for the operators
 * that see indices, ARGMIN, ARGMAX and user operators (their map's). */
ocl_reduce_status orx_check_index_base(ocl_reduce_context *ctx, const char *function,
                                       ocl_reduce_op op, size_t count, uint64_t index_base);

/* The request of a whole-array reduction with a resolved operator. */
orx_request orx_op_request(const orx_op_call *call);

/* An input or output, resolved: host memory, or elements [offset, ...) of a device allocation. */
typedef struct orx_io {
  const void *host; /* host memory (already advanced by the element offset), or NULL */
  void *host_out;   /* the same, writable, for outputs */
  orx_mem *mem;     /* device memory, or NULL */
  size_t offset;    /* in elements, for device memory */
  size_t capacity;  /* elements available from offset, in host memory or a buffer */
} orx_io;

/* The same input from its element `at` on (elements of `elem` bytes). */
orx_io orx_io_from(const orx_io *io, size_t at, size_t elem);

/* INVALID_ARGUMENT, naming `name` and both sizes, unless elements [offset, offset + count) of
 * `size` bytes fit in `bytes` of host memory (a byte count that size_t cannot hold does not). */
ocl_reduce_status orx_check_host_span(ocl_reduce_context *ctx, const char *function,
                                      const char *name, size_t offset, size_t count, size_t size,
                                      size_t bytes);
/* Checks `in` for `needed` elements of `size` bytes (`name` in messages; offsets count such
 * elements) and resolves it: host memory must hold them (its bytes), buffers too. Host memory
 * may be NULL only when needed is 0. */
ocl_reduce_status orx_resolve_input(ocl_reduce_context *ctx, const char *function,
                                    const char *name, const ocl_reduce_input *in, size_t size,
                                    size_t needed, orx_io *out);
ocl_reduce_status orx_resolve_output(ocl_reduce_context *ctx, const char *function,
                                     const char *name, const ocl_reduce_output *out, size_t size,
                                     size_t needed, orx_io *io);
/* Whether `a`'s first a_bytes and `b`'s first b_bytes share no device memory (elements of a_elem
 * and b_elem bytes: their offsets' units). */
int orx_io_apart(const orx_io *a, size_t a_bytes, size_t a_elem, const orx_io *b, size_t b_bytes,
                 size_t b_elem);
/* INVALID_ARGUMENT, naming both, when `a`'s first a_bytes share device memory with `b`'s first
 * b_bytes (elements of a_elem and b_elem bytes: their offsets' units), the first one written. */
ocl_reduce_status orx_check_apart(ocl_reduce_context *ctx, const char *function,
                                  const char *a_name, const orx_io *a, size_t a_bytes,
                                  size_t a_elem, const char *b_name, const orx_io *b,
                                  size_t b_bytes, size_t b_elem);
/* INVALID_ARGUMENT when `out`'s first out_bytes share device memory with `in`'s first in_bytes. */
ocl_reduce_status orx_check_disjoint(ocl_reduce_context *ctx, const char *function,
                                     const char *in_name, const orx_io *in, size_t in_bytes,
                                     const orx_io *out, size_t out_bytes, size_t out_elem,
                                     size_t in_elem);

#endif /* ORX_IO_H */
