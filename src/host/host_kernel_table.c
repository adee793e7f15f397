/* =================================================================================================
 * host_kernel_table.c: the host kernels by operator and type (core/host_kernels.h). The build
 * generates one file per pair, each defining orx_host_kernel_<op>_<type> (host_kernel.inc).
 * ============================================================================================== */
#include "core/host_kernels.h"
#include "core/ids.h"

#define ORX_HOST_KERNEL_DECLARE(op)                                                                \
  extern const orx_host_kernel orx_host_kernel_##op##_0, orx_host_kernel_##op##_1,                 \
      orx_host_kernel_##op##_2, orx_host_kernel_##op##_3, orx_host_kernel_##op##_4,                \
      orx_host_kernel_##op##_5;
#define ORX_HOST_KERNEL_ROW(op)                                                                    \
  {&orx_host_kernel_##op##_0, &orx_host_kernel_##op##_1, &orx_host_kernel_##op##_2,                \
   &orx_host_kernel_##op##_3, &orx_host_kernel_##op##_4, &orx_host_kernel_##op##_5},
#define ORX_HOST_KERNEL_OPS(X)                                                                     \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)

_Static_assert(ORX_OP_COUNT == 14 && OCL_REDUCE_TYPE_COUNT == 6,
               "the host kernels' table and the build's list (CMakeLists.txt) cover every pair");

ORX_HOST_KERNEL_OPS(ORX_HOST_KERNEL_DECLARE)

static const orx_host_kernel *const table[ORX_OP_COUNT][OCL_REDUCE_TYPE_COUNT] = {
    ORX_HOST_KERNEL_OPS(ORX_HOST_KERNEL_ROW)};

const orx_host_kernel *orx_host_kernel_of(unsigned op, ocl_reduce_type type) {
  if (op >= ORX_OP_COUNT || (unsigned)type >= OCL_REDUCE_TYPE_COUNT)
    return NULL;
  const orx_host_kernel *k = table[op][type];
  return k->reduce ? k : NULL;
}
