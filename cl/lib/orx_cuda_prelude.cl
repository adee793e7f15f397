/* =================================================================================================
 * orx_cuda_prelude.cl: maps the OpenCL C that the kernels in cl/ use onto CUDA C++, so that NVRTC
 * compiles the same kernel texts for the CUDA backend (CLBlast does the same with its
 * opencl_to_cuda.h). Only what the kernels use is mapped, and the scalar types and constants
 * that user operators' sources may use (see ocl_reduce_operator_desc). It comes after the
 * contract and before the kernel file, and spells the words of lib/orx_dialect.cl for CUDA.
 * Vector types exist in CUDA only as structs (float4, ...): ORX_NATIVE_VECTORS = 0 makes the
 * kernels use them for 16-byte loads only.
 * ============================================================================================== */
#include "orx_contract.h"

#define ORX_NATIVE_VECTORS 0
#define ORX_INLINE static __device__ __forceinline__
#define ORX_INLINE_ALWAYS static __device__ __forceinline__
#define ORX_LOCAL_PTR
#define ORX_GLOBAL_PTR
#define ORX_RESTRICT __restrict__
/* NVRTC left the loop over a chain's loads rolled where absorbing a load is long (the reproducible
 * sum's 4-element vectors), with the loads in an array on the stack: half the speed (ptxas: a
 * 128-byte stack frame; plan_state.c). */
#define ORX_UNROLL_LOADS _Pragma("unroll")

/* Qualifiers: kernels get C linkage so that the host finds them by name. */
#define __kernel extern "C" __global__
#define __global
#define __local __shared__
/* ORX_MIN_GROUPS_PER_CU: work-groups that must fit on one SM at once, which caps registers (the
 * planner sets it where the compiler would otherwise trade occupancy for registers). Never pass 1:
 * NVRTC then takes as many registers as it likes (104 instead of 54 for the segment kernel). */
#if ORX_MIN_GROUPS_PER_CU > 0
#define ORX_KERNEL_ATTR __launch_bounds__(ORX_WG_SIZE, ORX_MIN_GROUPS_PER_CU)
#else
#define ORX_KERNEL_ATTR __launch_bounds__(ORX_WG_SIZE)
#endif

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

/* OpenCL C's float constants, for user operators' sources (CUDA has the math functions they use
 * under OpenCL's names: fmin, fmax, sqrt, fabs, isnan, min, max, ...). */
#define INFINITY __int_as_float(0x7f800000)
#define NAN __int_as_float(0x7fffffff)
#define MAXFLOAT 3.402823466e+38F
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define DBL_MAX 1.7976931348623158e+308
#define DBL_MIN 2.2250738585072014e-308

/* Work-item functions (one-dimensional launches only). */
#define get_local_id(d) ((size_t)threadIdx.x)
#define get_group_id(d) ((size_t)blockIdx.x)
#define get_local_size(d) ((size_t)blockDim.x)
#define get_num_groups(d) ((size_t)gridDim.x)
#define get_global_id(d) ((size_t)blockIdx.x * blockDim.x + threadIdx.x)
#define get_global_size(d) ((size_t)gridDim.x * blockDim.x)

/* Synchronisation and atomics. */
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define barrier(flags) __syncthreads()
#define atomic_inc(p) atomicAdd((unsigned int *)(p), 1u)
#define atomic_xchg(p, v) atomicExch((unsigned int *)(p), (v))

/* Leading zero bits and set bits of a 32-bit word. */
ORX_INLINE uint clz(uint x) { return (uint)__clz((int)x); }
ORX_INLINE uint popcount(uint x) { return (uint)__popc(x); }

/* Conversion to a 64-bit integer, rounding to nearest even (convert_long_rte). */
ORX_INLINE long convert_long_rte(float x) { return (long)__float2ll_rn(x); }

/* Reinterpretation (as_type). */
ORX_INLINE uint as_uint(float x) { return __float_as_uint(x); }
ORX_INLINE uint as_uint(int x) { return (uint)x; }
ORX_INLINE uint as_uint(uint x) { return x; }
ORX_INLINE int as_int(uint x) { return (int)x; }
ORX_INLINE float as_float(uint x) { return __uint_as_float(x); }
ORX_INLINE ulong as_ulong(double x) { return (ulong)__double_as_longlong(x); }
ORX_INLINE ulong as_ulong(long x) { return (ulong)x; }
ORX_INLINE ulong as_ulong(ulong x) { return x; }
ORX_INLINE long as_long(ulong x) { return (long)x; }
ORX_INLINE double as_double(ulong x) { return __longlong_as_double((long long)x); }

/* vstoreN and vloadN for the vector structs the kernels load through. */
#define ORX_VSTORE2(V)                                                                             \
  template <typename S> ORX_INLINE void vstore2(V v, size_t i, S *p) {                             \
    p[2 * i] = v.x;                                                                                \
    p[2 * i + 1] = v.y;                                                                            \
  }
#define ORX_VSTORE4(V)                                                                             \
  template <typename S> ORX_INLINE void vstore4(V v, size_t i, S *p) {                             \
    p[4 * i] = v.x;                                                                                \
    p[4 * i + 1] = v.y;                                                                            \
    p[4 * i + 2] = v.z;                                                                            \
    p[4 * i + 3] = v.w;                                                                            \
  }
ORX_VSTORE2(float2)
ORX_VSTORE2(int2)
ORX_VSTORE2(uint2)
ORX_VSTORE2(double2)
ORX_VSTORE2(long2)
ORX_VSTORE2(ulong2)
ORX_VSTORE2(ushort2)
ORX_VSTORE4(float4)
ORX_VSTORE4(int4)
ORX_VSTORE4(uint4)
ORX_VSTORE4(ushort4)
#define ORX_VLOAD2(V, S)                                                                           \
  ORX_INLINE V vload2(size_t i, const S *p) {                                                      \
    V v;                                                                                           \
    v.x = p[2 * i];                                                                                \
    v.y = p[2 * i + 1];                                                                            \
    return v;                                                                                      \
  }
#define ORX_VLOAD4(V, S)                                                                           \
  ORX_INLINE V vload4(size_t i, const S *p) {                                                      \
    V v;                                                                                           \
    v.x = p[4 * i];                                                                                \
    v.y = p[4 * i + 1];                                                                            \
    v.z = p[4 * i + 2];                                                                            \
    v.w = p[4 * i + 3];                                                                            \
    return v;                                                                                      \
  }
ORX_VLOAD2(float2, float)
ORX_VLOAD2(int2, int)
ORX_VLOAD2(uint2, uint)
ORX_VLOAD2(double2, double)
ORX_VLOAD2(long2, long)
ORX_VLOAD2(ulong2, ulong)
ORX_VLOAD4(float4, float)
ORX_VLOAD4(int4, int)
ORX_VLOAD4(uint4, uint)

/* 16-bit floats (ORX_ELEM_TYPE_ID, lib/orx_types.cl): `half` is the bits here, which OpenCL C's
 * vload_half converts; the hardware converts them exactly (cvt), so NVRTC needs no cuda_fp16.h.
 * A NaN comes out as cvt gives it, as NVIDIA's vload_half does (the library promises no NaN's
 * payload): rebuilding its sign and payload cost each element four more instructions. H200, f16
 * sum of 2^28: 176.8 us so rebuilt, 128-131 us not (CUB 143-145). vload_half4 reads the four in
 * one 8-byte load (the kernels read vectors on vector boundaries), and so does orx_vload_bf16_4:
 * bf16 as four 2-byte loads took 165.3 us, 129-131 us so. */
typedef ushort half;
ORX_INLINE float orx_half_float(ushort h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}
ORX_INLINE float orx_bf16_float(ushort h) { return __uint_as_float((uint)h << 16); }
ORX_INLINE float vload_half(size_t i, const half *p) { return orx_half_float(p[i]); }
/* NAME2 and NAME4: a vector of 16-bit elements in one load, each converted by CONVERT. */
#define ORX_VLOAD_NARROW(NAME, CONVERT)                                                            \
  ORX_INLINE float2 NAME##2(size_t i, const ushort *p) {                                           \
    const ushort2 h = ((const ushort2 *)p)[i];                                                     \
    return make_float2(CONVERT(h.x), CONVERT(h.y));                                                \
  }                                                                                                \
  ORX_INLINE float4 NAME##4(size_t i, const ushort *p) {                                           \
    const ushort4 h = ((const ushort4 *)p)[i];                                                     \
    return make_float4(CONVERT(h.x), CONVERT(h.y), CONVERT(h.z), CONVERT(h.w));                    \
  }
ORX_VLOAD_NARROW(vload_half, orx_half_float)
ORX_VLOAD_NARROW(orx_vload_bf16_, orx_bf16_float)
#define ORX_VLOAD_BF16(v, p) ORX_CAT(orx_vload_bf16_, ORX_VEC)((v), (p))
