/* =================================================================================================
 * ocl_reduce_collectives.h: ocl_reduce's subgroup and work-group reductions, for your own kernels
 * in OpenCL C (every OpenCL implementation) and, through the same text, CUDA. They follow CUB's
 * WarpReduce and BlockReduce, for any value type and any associative combine, and keep lane order,
 * so the combine need not be commutative.
 *
 * Build the kernel with ocl_reduce_program_build() (include/ocl_reduce.h): it puts the defines for
 * the context's device ahead of your source (which subgroup shuffles the device has, the work-group
 * size) and resolves the includes below from the library itself. To build it yourself, install the
 * library, compile with -I<prefix>/include/ocl_reduce and the defines ocl_reduce_program_defines()
 * writes for your device; for CUDA, put lib/orx_cuda_prelude.cl first.
 *
 * Use:
 *   #include "ocl_reduce_collectives.h"
 *
 *   typedef struct { uint best, second; } pair;            // any type
 *   pair pair_best(pair a, pair b) { ... }                 // associative
 *   pair pair_none(void) { ... }                           // pair_best(pair_none(), x) == x
 *   #define ORX_COLL_NAME(name) pair_##name                // the functions' names: pair_...
 *   #define ORX_COLL_T pair
 *   #define ORX_COLL_COMBINE(a, b) pair_best(a, b)
 *   #define ORX_COLL_IDENTITY pair_none()
 *   #include "ocl_reduce_collectives.inc"                  // again for every other type
 *
 *   __kernel ORX_KERNEL_ATTR void k(...) {
 *     __local pair scratch[ORX_COLL_SCRATCH];
 *     pair x = ...;
 *     pair all = pair_workgroup_reduce(x, scratch);        // valid in work-item 0
 *   }
 *
 * The functions (NAME_ is what ORX_COLL_NAME makes of each name; T is ORX_COLL_T):
 *
 *   T NAME_subgroup_reduce(T x, __local T *scratch)
 *       x combined over the work-item's subgroup in lane order; every lane gets the result.
 *   T NAME_reduce_lanes(T x, uint lanes, __local T *scratch)
 *       x combined over each group of `lanes` consecutive work-items (a power of two that divides
 *       the work-group size), in order; every work-item gets its group's result. `lanes` need not
 *       match the subgroup: partners inside one subgroup exchange by shuffles, others through
 *       local memory.
 *   T NAME_multireduce(T *v, uint q, uint lanes, __local T *scratch)
 *       q independent reductions at once (Parker & MacKinnon's multireduction): v[0 .. q) holds
 *       this work-item's value of each (q a power of two, q <= lanes, q <= 32 keeps v in
 *       registers); over each group of `lanes` consecutive work-items, the work-item at position
 *       l of its group gets reduction (l mod q), combined over the group in order. With q ==
 *       lanes == the subgroup size, lane i gets reduction i. It costs q - 1 combines and 2(q - 1)
 *       shuffles, where q separate reductions would take q log2(lanes). v is overwritten.
 *   T NAME_workgroup_reduce(T x, __local T *scratch)
 *       x combined over the work-group in work-item order; the result is valid in work-item 0.
 *
 * Every function must be called by all work-items of the work-group together, with the same q and
 * lanes (some exchanges go through local memory, with barriers); `scratch` is ORX_COLL_SCRATCH
 * values of T in local memory, and may be reused between calls. Work-groups are one-dimensional,
 * of ORX_WG_SIZE work-items (a power of two), as the kernel was built for; ORX_KERNEL_ATTR states
 * it to the compiler.
 *
 * The device's side, all of it set by the defines:
 *   orx_sg_lane(), orx_sg_size(), orx_sg_id(), orx_sg_count()   the subgroup of a work-item:
 *       the hardware's where there is one (NVIDIA: warps of 32; Intel: 8 to 32; AMD: 32 or 64);
 *       without subgroups, and on PoCL's CPU device (whose subgroups are work-group barriers),
 *       the whole work-group, whose exchanges go through local memory.
 *   ORX_SG_HAS_SHUFFLE   1 where subgroups shuffle (cl_khr_subgroup_shuffle, cl_intel_subgroups,
 *       NVIDIA's PTX shfl, CUDA's __shfl_xor_sync).
 * Names beginning with orx_ or ORX_ belong to the library.
 * ============================================================================================== */
#ifndef OCL_REDUCE_COLLECTIVES_H
#define OCL_REDUCE_COLLECTIVES_H

#include "orx_contract.h"
#include "lib/orx_dialect.cl"
#include "lib/orx_split.cl"
#include "lib/orx_subgroup.cl"

#endif /* OCL_REDUCE_COLLECTIVES_H */
