/* =================================================================================================
 * host_kernels.h: reduce_all.cl compiled for the calling thread, once per built-in operator and
 * type, with the host plan's defines (host_plan.h; src/host/host_kernel.inc builds each, and the
 * build generates the table). host_run.c runs them.
 * ============================================================================================== */
#ifndef ORX_HOST_KERNELS_H
#define ORX_HOST_KERNELS_H

#include <stdint.h>

#include "core/planner.h"

/* Reduces the n elements at `in` (aligned to their type; element 0 has index `first`) into one
 * result at `out` (ORX_RESULT_SLOT_BYTES, aligned to 16): what reduce_all.cl computes as one
 * work-group of one work-item. */
typedef void (*orx_host_reduce_fn)(const void *in, uint64_t n, uint64_t first, void *out);

/* One define of the block a host kernel was compiled with; the others take the contract's
 * defaults (a plan's ORX_DEFINE_UNSET). */
typedef struct orx_host_define {
  orx_define define;
  int64_t value;
} orx_host_define;

typedef struct orx_host_kernel {
  const orx_host_define *defines;
  unsigned define_count;
  orx_host_reduce_fn reduce; /* NULL where the operator does not compute in the type */
} orx_host_kernel;

/* The host kernel of operator op (an ORX_OP_ id below ORX_OP_COUNT) computing in `type`. */
const orx_host_kernel *orx_host_kernel_of(unsigned op, ocl_reduce_type type);

#endif /* ORX_HOST_KERNELS_H */
