/* =================================================================================================
 * host_kernel_table.c: the host kernels by operator, type and stage (host/host_kernels.h). The
 * build generates one file per triple, each defining orx_host_kernel_<op>_<type>_<stage>
 * (host_kernel.inc).
 * ============================================================================================== */
#include "host/host_kernels.h"
#include "base/ids.h"

#define ORX_HOST_KERNEL_STAGES(X, op, type) X(op, type, 0) X(op, type, 1) X(op, type, 2)
#define ORX_HOST_KERNEL_TYPES(X, op)                                                               \
  ORX_HOST_KERNEL_STAGES(X, op, 0)                                                                 \
  ORX_HOST_KERNEL_STAGES(X, op, 1)                                                                 \
  ORX_HOST_KERNEL_STAGES(X, op, 2) ORX_HOST_KERNEL_STAGES(X, op, 3)                                \
      ORX_HOST_KERNEL_STAGES(X, op, 4) ORX_HOST_KERNEL_STAGES(X, op, 5)
#define ORX_HOST_KERNEL_OPS(X)                                                                     \
  ORX_HOST_KERNEL_TYPES(X, 0)                                                                      \
  ORX_HOST_KERNEL_TYPES(X, 1)                                                                      \
  ORX_HOST_KERNEL_TYPES(X, 2) ORX_HOST_KERNEL_TYPES(X, 3) ORX_HOST_KERNEL_TYPES(X, 4)              \
      ORX_HOST_KERNEL_TYPES(X, 5) ORX_HOST_KERNEL_TYPES(X, 6) ORX_HOST_KERNEL_TYPES(X, 7)          \
          ORX_HOST_KERNEL_TYPES(X, 8) ORX_HOST_KERNEL_TYPES(X, 9) ORX_HOST_KERNEL_TYPES(X, 10)     \
              ORX_HOST_KERNEL_TYPES(X, 11) ORX_HOST_KERNEL_TYPES(X, 12)                            \
                  ORX_HOST_KERNEL_TYPES(X, 13)
#define ORX_HOST_KERNEL_STAGE_COUNT 3

_Static_assert(ORX_OP_COUNT == 14 && OCL_REDUCE_TYPE_COUNT == 6,
               "the host kernels' table and the build's list (CMakeLists.txt) cover every pair");

#define ORX_HOST_KERNEL_DECLARE(op, type, stage)                                                   \
  extern const orx_host_kernel orx_host_kernel_##op##_##type##_##stage;
ORX_HOST_KERNEL_OPS(ORX_HOST_KERNEL_DECLARE)

/* In the order of the loops that list them: op, type, stage. */
#define ORX_HOST_KERNEL_ADDRESS(op, type, stage) &orx_host_kernel_##op##_##type##_##stage,
static const orx_host_kernel
    *const table[ORX_OP_COUNT * OCL_REDUCE_TYPE_COUNT * ORX_HOST_KERNEL_STAGE_COUNT] = {
        ORX_HOST_KERNEL_OPS(ORX_HOST_KERNEL_ADDRESS)};

const orx_host_kernel *orx_host_kernel_of(unsigned op, ocl_reduce_type type, orx_stage stage) {
  unsigned s;
  switch (stage) {
  case ORX_STAGE_WHOLE: s = 0; break;
  case ORX_STAGE_FINAL: s = 1; break;
  case ORX_STAGE_MERGE: s = 2; break;
  default: return NULL;
  }
  if (op >= ORX_OP_COUNT || (unsigned)type >= OCL_REDUCE_TYPE_COUNT)
    return NULL;
  const orx_host_kernel *k =
      table[(op * OCL_REDUCE_TYPE_COUNT + (unsigned)type) * ORX_HOST_KERNEL_STAGE_COUNT + s];
  return k->reduce ? k : NULL;
}
