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

/* Checks op and type as every reducing entry point does: known values, an operator defined on
 * the type, and a type the device has. */
ocl_reduce_status orx_check_op_type(ocl_reduce_context *ctx, const char *function,
                                    ocl_reduce_op op, ocl_reduce_type type);

/* The operator a context runs for op on type: SUM on floats is SUM_REPRODUCIBLE under
 * OCL_REDUCE_CROSS_DEVICE. */
ocl_reduce_op orx_context_op(const ocl_reduce_context *ctx, ocl_reduce_op op,
                             ocl_reduce_type type);

/* Checks a user operator argument: not NULL, created on ctx. */
ocl_reduce_status orx_check_user_operator(ocl_reduce_context *ctx, const char *function,
                                          const ocl_reduce_operator *op);

/* An input or output, resolved: host memory, or elements [offset, ...) of a device allocation. */
typedef struct orx_io {
  const void *host; /* host memory (already advanced by the element offset), or NULL */
  void *host_out;   /* the same, writable, for outputs */
  orx_mem *mem;     /* device memory, or NULL */
  size_t offset;    /* in elements, for device memory */
  size_t capacity;  /* elements available from offset (device memory); SIZE_MAX for host memory */
} orx_io;

/* INVALID_ARGUMENT, naming `name`, unless elements [offset, offset + count) of `size` bytes in
 * host memory have a byte size that size_t counts: checked before anything is allocated, as a
 * wrapped size would reach past the caller's memory. */
ocl_reduce_status orx_check_host_span(ocl_reduce_context *ctx, const char *function,
                                      const char *name, size_t offset, size_t count, size_t size);
/* Checks `in` for `needed` elements of `size` bytes (`name` in messages; offsets count such
 * elements) and resolves it. Host memory may be NULL only when needed is 0. */
ocl_reduce_status orx_resolve_input(ocl_reduce_context *ctx, const char *function,
                                    const char *name, const ocl_reduce_input *in, size_t size,
                                    size_t needed, orx_io *out);
ocl_reduce_status orx_resolve_output(ocl_reduce_context *ctx, const char *function,
                                     const char *name, const ocl_reduce_output *out, size_t size,
                                     size_t needed, orx_io *io);
/* INVALID_ARGUMENT when `out`'s first out_bytes share device memory with `in`'s first in_bytes. */
ocl_reduce_status orx_check_disjoint(ocl_reduce_context *ctx, const char *function,
                                     const char *in_name, const orx_io *in, size_t in_bytes,
                                     const orx_io *out, size_t out_bytes, size_t out_elem,
                                     size_t in_elem);

#endif /* ORX_IO_H */
