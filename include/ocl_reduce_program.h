/*
 * ocl_reduce_program.h: your own kernels, built and launched by a context, with the library's
 * device-side collectives (subgroup reduce, the multireduction, work-group reduce), for any type
 * and associative combine, on every OpenCL implementation and through CUDA from the same text.
 * The device headers are cl/ocl_reduce_collectives.h and .inc, installed under
 * <includedir>/ocl_reduce/.
 */
#ifndef OCL_REDUCE_PROGRAM_H
#define OCL_REDUCE_PROGRAM_H

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Your own kernels, with the library's collectives
 *
 * The subgroup and work-group reductions the library's kernels are made of, as a device-side
 * header set for your kernels (cl/ocl_reduce_collectives.h documents them; installed under
 * <includedir>/ocl_reduce/): subgroup reduce, the multireduction of up to 32 values (lane i gets
 * reduction i) and work-group reduce, for any type and any associative combine, on every OpenCL
 * implementation and, from the same text, through CUDA. Write the kernel in OpenCL C (the subset
 * the library's kernels use, which the CUDA backend compiles with NVRTC behind a prelude), and:
 *
 *   ocl_reduce_program *prog;
 *   ocl_reduce_program_build(ctx, source, "my_kernel", 256, &prog);
 *   ocl_reduce_kernel_arg args[] = {ocl_reduce_kernel_arg_buffer(in), ocl_reduce_kernel_arg_u32(n)};
 *   ocl_reduce_program_launch(ctx, prog, groups, args, 2);
 *   ocl_reduce_program_destroy(prog);
 * examples/binary_match.c matches binary descriptors this way.
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_program ocl_reduce_program;

/* One kernel argument: a buffer (the kernel's global pointer parameter), or a value of 4 or 8
 * bytes (uint, int, float; ulong, long, double) given by its bits. */
typedef struct ocl_reduce_kernel_arg {
  ocl_reduce_buffer *buffer; /* NULL for a value */
  uint64_t bits;             /* the value's bits, in the low `bytes` bytes */
  unsigned bytes;            /* 4 or 8 for a value, 0 for a buffer */
} ocl_reduce_kernel_arg;
static inline ocl_reduce_kernel_arg ocl_reduce_kernel_arg_buffer(ocl_reduce_buffer *buffer) {
  ocl_reduce_kernel_arg a = {buffer, 0, 0};
  return a;
}
static inline ocl_reduce_kernel_arg ocl_reduce_kernel_arg_u32(uint32_t value) {
  ocl_reduce_kernel_arg a = {NULL, value, 4};
  return a;
}
static inline ocl_reduce_kernel_arg ocl_reduce_kernel_arg_u64(uint64_t value) {
  ocl_reduce_kernel_arg a = {NULL, value, 8};
  return a;
}
static inline ocl_reduce_kernel_arg ocl_reduce_kernel_arg_f32(float value) {
  union {
    float f;
    uint32_t u;
  } v;
  v.f = value;
  return ocl_reduce_kernel_arg_u32(v.u);
}

/* Builds `source` for the context's device with the collectives' defines (the subgroup
 * implementation the context chose, ORX_WG_SIZE = work_group_size) ahead of it, and looks up its
 * kernel `kernel_name`, to be launched with work-groups of work_group_size work-items (a power of
 * two, within the device's limit; on NVIDIA a multiple of 32). Its `#include "..."` lines must
 * name the library's device headers (ocl_reduce_collectives.h, ocl_reduce_collectives.inc); they
 * are resolved from the library itself. Errors: INVALID_ARGUMENT (NULL or empty source, a kernel
 * name the source does not contain, a work-group size the device cannot take), KERNEL_SOURCE (an
 * include the library does not have), BUILD (the compiler's log in ocl_reduce_last_error). *out
 * is set only on success. Destroy the program before its context. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_program_build(ocl_reduce_context *ctx,
                                                          const char *source,
                                                          const char *kernel_name,
                                                          unsigned work_group_size,
                                                          ocl_reduce_program **out);
/* Enqueues `groups` (> 0) work-groups of the program's kernel with these arguments (at most 16,
 * in the order of the kernel's parameters) on the context's queue, after everything enqueued
 * before; buffer reads and reductions on ctx come after it. With opts.profiling, the kernel's
 * device time is ocl_reduce_last_kernel_ns afterwards. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_program_launch(ocl_reduce_context *ctx,
                                                           ocl_reduce_program *program,
                                                           size_t groups,
                                                           const ocl_reduce_kernel_arg *args,
                                                           size_t nargs);
/* The native handles, owned by the program: cl_program and cl_kernel (OpenCL), or CUmodule and
 * CUfunction (CUDA). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_program_native(const ocl_reduce_program *program,
                                                           void **native_program,
                                                           void **native_kernel);
/* Releases it, before or after its context is destroyed. NULL is accepted. */
OCL_REDUCE_API void ocl_reduce_program_destroy(ocl_reduce_program *program);
/* The defines ocl_reduce_program_build puts ahead of a source, as compiler options
 * ("-DORX_SG_IMPL=2 -DORX_WG_SIZE=256 ..."), for building such a program yourself with
 * -I<includedir>/ocl_reduce. Cut at capacity bytes; errors as for ocl_reduce_program_build. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_program_defines(ocl_reduce_context *ctx,
                                                            unsigned work_group_size, char *text,
                                                            size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* OCL_REDUCE_PROGRAM_H */
