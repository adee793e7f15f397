/* =================================================================================================
 * orx_subgroup.cl: one interface to subgroups, with a body per implementation. The host picks the
 * implementation from the device's extensions and defines ORX_SG_IMPL (ids in orx_contract.h):
 *
 *   ORX_SG_NONE     no subgroups: nothing here is defined, and the kernels use local memory only.
 *   ORX_SG_KHR      cl_khr_subgroup_shuffle: sub_group_shuffle_xor.
 *   ORX_SG_INTEL    cl_intel_subgroups: intel_sub_group_shuffle_xor.
 *   ORX_SG_BUILTIN  cl_khr_subgroups without shuffles (AMD): sub_group_reduce_add/min/max, where
 *                   the host found the kernel's operator has one (ORX_SG_BUILTIN_REDUCE); else
 *                   local memory.
 *   ORX_SG_NV_PTX   NVIDIA's OpenCL, which has no subgroup extension: warps of ORX_SG_SIZE (the
 *                   host queries it) consecutive work-items, shuffled with inline PTX
 *                   shfl.sync.bfly; 64-bit values as two 32-bit shuffles.
 *   ORX_SG_CUDA     the CUDA backend (lib/orx_cuda_prelude.cl): warps, __shfl_xor_sync.
 *
 * Interface: orx_sg_lane(), orx_sg_size(), orx_sg_id(), orx_sg_count(); when ORX_SG_HAS_SHUFFLE,
 * orx_sg_shuffle_xor(x, mask) of an accumulator (a state as 32-bit words: every implementation
 * shuffles those); when ORX_SG_HAS_REDUCE, orx_sg_reduce_builtin(x) (whole subgroup).
 * Work-groups are one-dimensional and a multiple of the subgroup size, so subgroups are full.
 * ============================================================================================== */
#ifndef ORX_SUBGROUP_CL
#define ORX_SUBGROUP_CL

#include "lib/orx_ops.cl"

#if ORX_SG_IMPL == ORX_SG_KHR || ORX_SG_IMPL == ORX_SG_BUILTIN
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
#if ORX_SG_IMPL == ORX_SG_KHR
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
#endif
#if ORX_SG_IMPL == ORX_SG_INTEL
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#if ORX_TYPE_BYTES == 8 && !ORX_IS_FLOAT
#pragma OPENCL EXTENSION cl_intel_subgroups_long : enable
#endif
#endif

#if ORX_SG_IMPL == ORX_SG_NV_PTX || ORX_SG_IMPL == ORX_SG_CUDA
/* A warp is ORX_SG_SIZE consecutive work-items of a one-dimensional work-group. */
ORX_INLINE uint orx_sg_lane(void) { return (uint)get_local_id(0) % ORX_SG_SIZE; }
ORX_INLINE uint orx_sg_size(void) { return ORX_SG_SIZE; }
ORX_INLINE uint orx_sg_id(void) { return (uint)get_local_id(0) / ORX_SG_SIZE; }
ORX_INLINE uint orx_sg_count(void) { return (uint)get_local_size(0) / ORX_SG_SIZE; }
#elif ORX_SG_IMPL != ORX_SG_NONE
ORX_INLINE uint orx_sg_lane(void) { return get_sub_group_local_id(); }
ORX_INLINE uint orx_sg_size(void) { return get_sub_group_size(); }
ORX_INLINE uint orx_sg_id(void) { return get_sub_group_id(); }
ORX_INLINE uint orx_sg_count(void) { return get_num_sub_groups(); }
#endif

#if ORX_SG_IMPL == ORX_SG_NV_PTX
/* Butterfly shuffle of 32 bits across a full 32-lane warp (clamp 0x1f, every lane a member). */
ORX_INLINE uint orx_ptx_shfl_xor(uint x, uint mask) {
  uint r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(mask));
  return r;
}
#endif

/* orx_sg_shuffle_xor_u32: 32 bits from lane (lane ^ mask), in every implementation that shuffles;
 * orx_sg_shuffle_xor_value: a value of the compute type. */
#if ORX_SG_IMPL == ORX_SG_KHR
#define ORX_SG_HAS_SHUFFLE 1
#define orx_sg_shuffle_xor_u32(x, mask) sub_group_shuffle_xor((uint)(x), (mask))
#define orx_sg_shuffle_xor_value(x, mask) sub_group_shuffle_xor((x), (mask))
#elif ORX_SG_IMPL == ORX_SG_INTEL
#define ORX_SG_HAS_SHUFFLE 1
#define orx_sg_shuffle_xor_u32(x, mask) intel_sub_group_shuffle_xor((uint)(x), (mask))
#define orx_sg_shuffle_xor_value(x, mask) intel_sub_group_shuffle_xor((x), (mask))
#elif ORX_SG_IMPL == ORX_SG_NV_PTX
#define ORX_SG_HAS_SHUFFLE 1
#define orx_sg_shuffle_xor_u32(x, mask) orx_ptx_shfl_xor((x), (mask))
#elif ORX_SG_IMPL == ORX_SG_CUDA
#define ORX_SG_HAS_SHUFFLE 1
#define orx_sg_shuffle_xor_u32(x, mask)                                                            \
  __shfl_xor_sync(0xffffffffu, (uint)(x), (int)(mask), ORX_SG_SIZE)
#define orx_sg_shuffle_xor_value(x, mask)                                                          \
  __shfl_xor_sync(0xffffffffu, (x), (int)(mask), ORX_SG_SIZE)
#else
#define ORX_SG_HAS_SHUFFLE 0
#endif

/* orx_sg_shuffle_xor(x, mask): the accumulator (lib/orx_ops.cl) of lane (lane ^ mask). */
#if ORX_SG_HAS_SHUFFLE && ORX_STATE
/* A state, word by word. */
ORX_INLINE A orx_sg_shuffle_xor(A x, uint mask) {
  orx_state_words u;
  u.state = x;
  for (uint k = 0; k < ORX_STATE_WORDS; k++)
    u.w[k] = orx_sg_shuffle_xor_u32(u.w[k], mask);
  return u.state;
}
#elif ORX_SG_IMPL == ORX_SG_NV_PTX
/* inline PTX shuffles 32 bits: 64-bit values go as two halves. */
ORX_INLINE T orx_sg_shuffle_xor(T x, uint mask) {
#if ORX_TYPE_BYTES == 4
  return ORX_FROM_BITS(orx_ptx_shfl_xor(ORX_AS_BITS(x), mask));
#else
  uint2 halves = as_uint2(x);
  halves.x = orx_ptx_shfl_xor(halves.x, mask);
  halves.y = orx_ptx_shfl_xor(halves.y, mask);
  return ORX_FROM_BITS(halves);
#endif
}
#elif ORX_SG_HAS_SHUFFLE
ORX_INLINE T orx_sg_shuffle_xor(T x, uint mask) { return orx_sg_shuffle_xor_value(x, mask); }
#endif

/* The reduce built-ins exist for add, min and max; the host asks for one only where its
 * semantics are the operator's (ORX_OPF_SG_BUILTIN in the contract). */
#if ORX_SG_IMPL == ORX_SG_BUILTIN && ORX_SG_BUILTIN_REDUCE
#define ORX_SG_HAS_REDUCE 1
#if ORX_OP_ID == ORX_OP_SUM
#define orx_sg_reduce_builtin(x) sub_group_reduce_add(x)
#elif ORX_OP_ID == ORX_OP_MIN
#define orx_sg_reduce_builtin(x) sub_group_reduce_min(x)
#elif ORX_OP_ID == ORX_OP_MAX
#define orx_sg_reduce_builtin(x) sub_group_reduce_max(x)
#else
#error "ORX_SG_BUILTIN_REDUCE is set for an operator without a sub_group_reduce built-in"
#endif
#else
#define ORX_SG_HAS_REDUCE 0
#endif

#endif /* ORX_SUBGROUP_CL */
