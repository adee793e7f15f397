/* =================================================================================================
 * orx_dialect.cl: the few words of OpenCL C the kernels use that a backend may need to spell
 * otherwise. These are the OpenCL C spellings; a backend's prelude, which comes before any kernel
 * text, defines its own (lib/orx_cuda_prelude.cl for CUDA). Nothing here is for the host to set.
 * ============================================================================================== */
#ifndef ORX_DIALECT_CL
#define ORX_DIALECT_CL

/* 1: vector types have arithmetic, comparisons and component-wise ?: (OpenCL C). 0: they are
 * plain structs (CUDA), used only to load 16 bytes at a time (ORX_VEC <= 4). */
#ifndef ORX_NATIVE_VECTORS
#define ORX_NATIVE_VECTORS 1
#endif
/* ORX_NO_CONTRACT (the host plan): every expression rounds as written. */
#if ORX_NATIVE_VECTORS && ORX_NO_CONTRACT
#pragma OPENCL FP_CONTRACT OFF
#endif
/* Qualifies every helper function. */
#ifndef ORX_INLINE
#define ORX_INLINE static inline
#endif
/* Qualifies the few helpers that must be inlined for their arguments to stay in registers (a
 * compiler's inliner weighs size; these are called in the hottest loops). */
#ifndef ORX_INLINE_ALWAYS
#define ORX_INLINE_ALWAYS static inline __attribute__((always_inline))
#endif
/* Before the loop over a chain's ORX_UNROLL loads (lib/orx_stream.cl): where a compiler would leave
 * it rolled, with the loads in memory, a backend unrolls it by force (CUDA's prelude). */
#ifndef ORX_UNROLL_LOADS
#define ORX_UNROLL_LOADS
#endif
/* Input pointers do not alias anything the kernel writes (lets GPUs use read-only loads). */
#ifndef ORX_RESTRICT
#define ORX_RESTRICT restrict
#endif
/* Qualifiers of pointers into local and global memory passed to helper functions. */
#ifndef ORX_LOCAL_PTR
#define ORX_LOCAL_PTR __local
#endif
#ifndef ORX_GLOBAL_PTR
#define ORX_GLOBAL_PTR __global
#endif
/* Attributes of every kernel: launched with work-groups of exactly ORX_WG_SIZE work-items. */
#ifndef ORX_KERNEL_ATTR
#define ORX_KERNEL_ATTR __attribute__((reqd_work_group_size(ORX_WG_SIZE, 1, 1)))
#endif

#endif /* ORX_DIALECT_CL */
