/* =================================================================================================
 * orx_subgroup.cl: one interface to subgroups, with a body per implementation, for any value
 * type (nothing here depends on the kernel's type or operator). The host picks the implementation
 * from the device's extensions and defines ORX_SG_IMPL (ids in orx_contract.h):
 *
 *   ORX_SG_NONE     no subgroups: the subgroup is the whole work-group, and exchanges go through
 *                   local memory (ocl_reduce_collectives.inc).
 *   ORX_SG_KHR      cl_khr_subgroup_shuffle: sub_group_shuffle_xor.
 *   ORX_SG_INTEL    cl_intel_subgroups: intel_sub_group_shuffle_xor.
 *   ORX_SG_BUILTIN  cl_khr_subgroups without shuffles (AMD): exchanges through local memory; the
 *                   library's kernels may use sub_group_reduce_add/min/max for their operator
 *                   (lib/orx_workgroup.cl).
 *   ORX_SG_NV_PTX   NVIDIA's OpenCL, which has no subgroup extension: warps of ORX_SG_SIZE (the
 *                   host queries it) consecutive work-items, shuffled with inline PTX
 *                   shfl.sync.bfly (lib/orx_warp.cl).
 *   ORX_SG_CUDA     the CUDA backend (lib/orx_cuda_prelude.cl): warps, __shfl_xor_sync
 *                   (lib/orx_warp.cl for 32 bits).
 *
 * Interface: orx_sg_lane(), orx_sg_size(), orx_sg_id(), orx_sg_count(); when ORX_SG_HAS_SHUFFLE,
 * orx_sg_shuffle_xor_u32(x, mask), 32 bits from lane (lane ^ mask), and for the implementations
 * with typed shuffles (ORX_SG_HAS_VALUE_SHUFFLE) orx_sg_shuffle_xor_value(x, mask) of a scalar.
 * Work-groups are one-dimensional and a multiple of the subgroup size, and subgroups are runs of
 * consecutive work-items, so lane == local id % subgroup size and subgroups are full.
 * ============================================================================================== */
#ifndef ORX_SUBGROUP_CL
#define ORX_SUBGROUP_CL

#include "orx_contract.h"
#include "lib/orx_dialect.cl"
#include "lib/orx_warp.cl"

/* cl_khr_subgroups wants its pragma where the compiler announces the extension (OpenCL C 2.x);
 * OpenCL C 3.0's subgroup feature needs none, and a compiler that offers the functions without
 * the macro warns that the extension is "unsupported" (Intel's CPU runtime). */
#if (ORX_SG_IMPL == ORX_SG_KHR || ORX_SG_IMPL == ORX_SG_BUILTIN) && defined(cl_khr_subgroups) && \
    !defined(__opencl_c_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
/* cl_khr_subgroup_shuffle only adds built-in functions, which need no pragma: clang-based
 * compilers (PoCL 5) warn that it is "unknown or does not require pragma". */
#if ORX_SG_IMPL == ORX_SG_INTEL
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#endif

#if ORX_SG_IMPL == ORX_SG_NV_PTX || ORX_SG_IMPL == ORX_SG_CUDA
#if !ORX_WARP_SHUFFLE || ORX_SG_SIZE != ORX_WARP_SIZE
#error "orx_subgroup.cl: warps (ptx, cuda) are NVIDIA's 32 lanes, through its compilers"
#endif
/* A warp is ORX_SG_SIZE consecutive work-items of a one-dimensional work-group. */
ORX_INLINE uint orx_sg_lane(void) { return (uint)get_local_id(0) % ORX_SG_SIZE; }
ORX_INLINE uint orx_sg_size(void) { return ORX_SG_SIZE; }
ORX_INLINE uint orx_sg_id(void) { return (uint)get_local_id(0) / ORX_SG_SIZE; }
ORX_INLINE uint orx_sg_count(void) { return (uint)get_local_size(0) / ORX_SG_SIZE; }
#elif ORX_SG_IMPL == ORX_SG_NONE
/* No subgroups: one subgroup, the work-group. */
ORX_INLINE uint orx_sg_lane(void) { return (uint)get_local_id(0); }
ORX_INLINE uint orx_sg_size(void) { return (uint)get_local_size(0); }
ORX_INLINE uint orx_sg_id(void) { return 0; }
ORX_INLINE uint orx_sg_count(void) { return 1; }
#else
ORX_INLINE uint orx_sg_lane(void) { return get_sub_group_local_id(); }
ORX_INLINE uint orx_sg_size(void) { return get_sub_group_size(); }
ORX_INLINE uint orx_sg_id(void) { return get_sub_group_id(); }
ORX_INLINE uint orx_sg_count(void) { return get_num_sub_groups(); }
#endif

/* orx_sg_shuffle_xor_u32: 32 bits from lane (lane ^ mask), in every implementation that shuffles;
 * orx_sg_shuffle_xor_value: a scalar, where the implementation has typed shuffles. */
#if ORX_SG_IMPL == ORX_SG_KHR
#define ORX_SG_HAS_SHUFFLE 1
#define ORX_SG_HAS_VALUE_SHUFFLE 1
#define orx_sg_shuffle_xor_u32(x, mask) sub_group_shuffle_xor((uint)(x), (mask))
#define orx_sg_shuffle_xor_value(x, mask) sub_group_shuffle_xor((x), (mask))
#elif ORX_SG_IMPL == ORX_SG_INTEL
#define ORX_SG_HAS_SHUFFLE 1
#define ORX_SG_HAS_VALUE_SHUFFLE 1
#define orx_sg_shuffle_xor_u32(x, mask) intel_sub_group_shuffle_xor((uint)(x), (mask))
#define orx_sg_shuffle_xor_value(x, mask) intel_sub_group_shuffle_xor((x), (mask))
#elif ORX_SG_IMPL == ORX_SG_NV_PTX
#define ORX_SG_HAS_SHUFFLE 1
#define ORX_SG_HAS_VALUE_SHUFFLE 0 /* 32 bits at a time */
#define orx_sg_shuffle_xor_u32(x, mask) orx_warp_shuffle_xor((x), (mask))
#elif ORX_SG_IMPL == ORX_SG_CUDA
#define ORX_SG_HAS_SHUFFLE 1
#define ORX_SG_HAS_VALUE_SHUFFLE 1
#define orx_sg_shuffle_xor_u32(x, mask) orx_warp_shuffle_xor((x), (mask))
#define orx_sg_shuffle_xor_value(x, mask)                                                          \
  __shfl_xor_sync(0xffffffffu, (x), (int)(mask), ORX_SG_SIZE)
#else
#define ORX_SG_HAS_SHUFFLE 0
#define ORX_SG_HAS_VALUE_SHUFFLE 0
#endif
/* The host plans by the contract's column (ORX_SUBGROUP_IMPLS' shuffles): the two must agree. */
#define ORX_SG_SHUFFLES_IF(c, ID, name, warps, shuffles)                                         \
  +(ORX_SG_IMPL == ORX_SG_##ID ? shuffles : 0)
#if (0 ORX_SUBGROUP_IMPLS(ORX_SG_SHUFFLES_IF, )) != ORX_SG_HAS_SHUFFLE
#error "ORX_SG_HAS_SHUFFLE differs from the contract's ORX_SUBGROUP_IMPLS"
#endif
#undef ORX_SG_SHUFFLES_IF

#endif /* ORX_SUBGROUP_CL */
