/* =================================================================================================
 * host_kernel_table.c: the host kernels by operator, type and stage (host/host_kernels.h). The
 * build generates one file per triple, each defining orx_host_kernel_<op>_<type>_<stage>
 * (host_kernel.inc), and their list from the contract's rows (CMakeLists.txt).
 * ============================================================================================== */
#include "host/host_kernels.h"
#include "base/ids.h"

#include "generated/host_kernels/host_kernel_list.h" /* ORX_HOST_KERNEL_LIST (CMakeLists.txt) */

#define ORX_HOST_KERNEL_STAGE_COUNT 3
_Static_assert(ORX_HOST_KERNEL_OPS_LISTED == ORX_OP_COUNT &&
                   ORX_HOST_KERNEL_TYPES_LISTED == OCL_REDUCE_TYPE_COUNT &&
                   ORX_HOST_KERNEL_PAIRS_LISTED == ORX_PAIR_COUNT,
               "the build's list of host kernels covers every operator and type");

#define ORX_HOST_KERNEL_DECLARE(op, type, stage)                                                   \
  extern const orx_host_kernel orx_host_kernel_##op##_##type##_##stage;
ORX_HOST_KERNEL_LIST(ORX_HOST_KERNEL_DECLARE)

/* In the order of the loops that list them: op, type, stage. */
#define ORX_HOST_KERNEL_ADDRESS(op, type, stage) &orx_host_kernel_##op##_##type##_##stage,
static const orx_host_kernel
    *const table[ORX_OP_COUNT * OCL_REDUCE_TYPE_COUNT * ORX_HOST_KERNEL_STAGE_COUNT] = {
        ORX_HOST_KERNEL_LIST(ORX_HOST_KERNEL_ADDRESS)};

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

#define ORX_HOST_PAIR_KERNEL_DECLARE(pair, type, op)                                               \
  extern const orx_host_kernel orx_host_pair_kernel_##pair##_##type##_##op;
ORX_HOST_PAIR_KERNEL_LIST(ORX_HOST_PAIR_KERNEL_DECLARE)

/* In the order of the loops that list them: pair, type, then SUM and SUM_REPRODUCIBLE. */
#define ORX_HOST_PAIR_KERNEL_ADDRESS(pair, type, op) &orx_host_pair_kernel_##pair##_##type##_##op,
static const orx_host_kernel *const pair_table[ORX_PAIR_COUNT * OCL_REDUCE_TYPE_COUNT * 2] = {
    ORX_HOST_PAIR_KERNEL_LIST(ORX_HOST_PAIR_KERNEL_ADDRESS)};

const orx_host_kernel *orx_host_pair_kernel_of(int pair, ocl_reduce_type type, unsigned op) {
  if (pair < 0 || pair >= ORX_PAIR_COUNT || (unsigned)type >= OCL_REDUCE_TYPE_COUNT ||
      (op != ORX_OP_SUM && op != ORX_OP_SUM_REPRODUCIBLE))
    return NULL;
  const unsigned row = (unsigned)pair * OCL_REDUCE_TYPE_COUNT + (unsigned)type;
  const orx_host_kernel *k = pair_table[row * 2 + (op == ORX_OP_SUM_REPRODUCIBLE)];
  return k->reduce ? k : NULL;
}
