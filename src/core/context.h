/* =================================================================================================
 * context.h: what a context, a buffer and a user operator hold. A context binds one device
 * through one backend; the planner's target (device, path, forced policy) is fixed at creation,
 * programs and scratch memory come on first use.
 * ============================================================================================== */
#ifndef ORX_CONTEXT_H
#define ORX_CONTEXT_H

#include <stdint.h>

#include "backends/backend.h"
#include "core/errors.h"
#include "core/memory.h"
#include "core/planner.h"
#include "core/program.h"

struct ocl_reduce_context {
  const orx_backend_ops *ops;
  orx_backend *backend;
  orx_caps caps;
  orx_target target; /* target.caps is &caps */
  int profiling;
  ocl_reduce_determinism determinism; /* never DEFAULT */

  orx_program_cache programs;
  orx_scratch scratch[ORX_SCRATCH_COUNT];

  /* Counters reported by ocl_reduce_context_query. */
  uint64_t kernel_builds;
  uint64_t bytes_to_device;
  uint64_t device_allocations;

  uint64_t last_kernel_ns; /* the device time of the last reducing call's kernels */
  int has_kernel_time;
  unsigned buffers_alive;

  char error[ORX_ERROR_CAPACITY];
};

struct ocl_reduce_buffer {
  ocl_reduce_context *ctx;
  orx_mem *mem;
  size_t bytes;
};

/* A user operator (src/api/operator.c): the planner's view of it, whose source and names point
 * into text. */
struct ocl_reduce_operator {
  const ocl_reduce_context *ctx;
  orx_operator op;
  char *text;
};

#endif /* ORX_CONTEXT_H */
