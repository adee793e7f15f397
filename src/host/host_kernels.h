/* =================================================================================================
 * host_kernels.h: reduce_all.cl compiled for the calling thread, once per built-in operator and
 * type, with the host plan's defines (host_plan.h; src/host/host_kernel.inc builds each, and the
 * build generates the table). host_run.c runs them.
 * ============================================================================================== */
#ifndef ORX_HOST_KERNELS_H
#define ORX_HOST_KERNELS_H

#include <stdint.h>

#include "planner/planner.h"

/* Group `group` of a grid of `groups` work-groups of one work-item over the n elements at `in`
 * (aligned to their type; element 0 has index `first`; a pair operator's kernel reads the pairs
 * of `in` and `in_b`, one input's reads ignore in_b), what reduce_all.cl computes in that
 * group: its share, published in partials (groups slots of ORX_HOST_PARTIAL_BYTES, aligned to 16)
 * and counted on *counter (0 before the grid's first group); the last group to count itself
 * writes the result to `out` (ORX_RESULT_SLOT_BYTES, aligned to 16). With groups = 1, partials
 * and counter are unused (NULL). Groups run at once on different threads, or one after the
 * other. */
#define ORX_HOST_PARTIAL_BYTES 64
typedef void (*orx_host_reduce_fn)(const void *in, const void *in_b, uint64_t n, uint64_t first,
                                   void *partials, uint32_t *counter, uint64_t group,
                                   uint64_t groups, void *out);

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
  unsigned accumulator_bytes; /* sizeof the kernel's accumulator: a state operator's state */
} orx_host_kernel;

/* The host kernel of operator op (an ORX_OP_ id below ORX_OP_COUNT) computing in `type`, for
 * `stage`: ORX_STAGE_WHOLE reads elements; ORX_STAGE_FINAL and ORX_STAGE_MERGE read a state
 * operator's states (n of them, aligned to 16) and write its result or one state. NULL for other
 * stages and pairs the operator does not compute in. */
const orx_host_kernel *orx_host_kernel_of(unsigned op, ocl_reduce_type type, orx_stage stage);

/* The host kernel of pair operator `pair` (an ORX_PAIR_ id below ORX_PAIR_USER) over inputs of
 * `type`, summing its values with op (ORX_OP_SUM or ORX_OP_SUM_REPRODUCIBLE), elements to a
 * result; NULL where the sum does not take the values. */
const orx_host_kernel *orx_host_pair_kernel_of(int pair, ocl_reduce_type type, unsigned op);

#endif /* ORX_HOST_KERNELS_H */
