/* =================================================================================================
 * orx_subgroup.cl: one interface to subgroups, with a body per implementation. The host picks the
 * implementation from the device's extensions and defines ORX_SG_IMPL:
 *
 *   ORX_SG_NONE     no subgroups: nothing here is defined, and the kernels use local memory only.
 *   ORX_SG_KHR      cl_khr_subgroup_shuffle: sub_group_shuffle_xor.
 *   ORX_SG_INTEL    cl_intel_subgroups: intel_sub_group_shuffle_xor.
 *   ORX_SG_BUILTIN  cl_khr_subgroups without shuffles (AMD): sub_group_reduce_add/min/max, for
 *                   the operators that have one (ORX_SG_HAS_REDUCE); others use local memory.
 *
 * Interface: orx_sg_lane(), orx_sg_size(), orx_sg_id(), orx_sg_count(); when ORX_SG_HAS_SHUFFLE,
 * orx_sg_shuffle_xor(x, mask); when ORX_SG_HAS_REDUCE, orx_sg_reduce_builtin(x) (whole subgroup).
 * Work-groups are one-dimensional and a multiple of the subgroup size, so subgroups are full.
 * ============================================================================================== */
#ifndef ORX_SUBGROUP_CL
#define ORX_SUBGROUP_CL

#define ORX_SG_NONE 0
#define ORX_SG_KHR 1
#define ORX_SG_INTEL 2
#define ORX_SG_BUILTIN 3

#ifndef ORX_SG_IMPL
#define ORX_SG_IMPL ORX_SG_NONE
#endif

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

#if ORX_SG_IMPL != ORX_SG_NONE
ORX_INLINE uint orx_sg_lane(void) { return get_sub_group_local_id(); }
ORX_INLINE uint orx_sg_size(void) { return get_sub_group_size(); }
ORX_INLINE uint orx_sg_id(void) { return get_sub_group_id(); }
ORX_INLINE uint orx_sg_count(void) { return get_num_sub_groups(); }
#endif

#if ORX_SG_IMPL == ORX_SG_KHR
#define ORX_SG_HAS_SHUFFLE 1
ORX_INLINE T orx_sg_shuffle_xor(T x, uint mask) { return sub_group_shuffle_xor(x, mask); }
#elif ORX_SG_IMPL == ORX_SG_INTEL
#define ORX_SG_HAS_SHUFFLE 1
ORX_INLINE T orx_sg_shuffle_xor(T x, uint mask) { return intel_sub_group_shuffle_xor(x, mask); }
#else
#define ORX_SG_HAS_SHUFFLE 0
#endif

/* The reduce built-ins exist for add, min and max. Float min and max are left out: the built-ins
 * follow OpenCL's fmin/fmax, which drop NaNs and do not order -0.0 below +0.0. */
#if ORX_SG_IMPL == ORX_SG_BUILTIN &&                                                               \
    (ORX_OP_ID == ORX_OP_SUM || (!ORX_IS_FLOAT && (ORX_OP_ID == ORX_OP_MIN || ORX_OP_ID == ORX_OP_MAX)))
#define ORX_SG_HAS_REDUCE 1
#if ORX_OP_ID == ORX_OP_SUM
#define orx_sg_reduce_builtin(x) sub_group_reduce_add(x)
#elif ORX_OP_ID == ORX_OP_MIN
#define orx_sg_reduce_builtin(x) sub_group_reduce_min(x)
#else
#define orx_sg_reduce_builtin(x) sub_group_reduce_max(x)
#endif
#else
#define ORX_SG_HAS_REDUCE 0
#endif

#endif /* ORX_SUBGROUP_CL */
