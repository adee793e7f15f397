/* =================================================================================================
 * host_prelude.h: maps the OpenCL C that the kernels in cl/ use onto C11 with GCC's builtins, so
 * that the library's own compiler builds the same kernel texts for the calling thread (the host
 * path, host_run.c), as lib/orx_cuda_prelude.cl does for NVRTC. The host runs a kernel's grid as
 * work-groups of one work-item (ORX_WG_SIZE 1), each group on one of a few threads that sets its
 * group first: barriers have nothing to wait for, local memory is the function's own, and the
 * groups publish their partials and count themselves with C11's atomics and fences where OpenCL
 * has its own (lib/orx_finish.cl). Vectors are structs (ORX_NATIVE_VECTORS 0, ORX_VEC <= 4,
 * 16-byte loads), as for CUDA.
 *
 * It comes after the generated defines and the contract, before the kernel file
 * (host_kernel.inc). The defines' block is the host plan's (planner/host_plan.h).
 * ============================================================================================== */
#ifndef ORX_HOST_PRELUDE_H
#define ORX_HOST_PRELUDE_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "base/half.h"
#include "orx_contract.h"

#if ORX_WG_SIZE != 1
#error "the host runs one work-group of one work-item"
#endif

#define ORX_NATIVE_VECTORS 0
#if defined(ORX_HOST_INLINE_ALL)
#define ORX_INLINE static inline __attribute__((always_inline))
#else
#define ORX_INLINE static inline
#endif
#define ORX_INLINE_ALWAYS static inline __attribute__((always_inline))
#define ORX_LOCAL_PTR
#define ORX_GLOBAL_PTR
#define ORX_RESTRICT restrict
#define ORX_KERNEL_ATTR
/* A work-item absorbs each load as it comes (lib/orx_stream.cl), into the same chains in the same
 * order: GCC kept the loads' array of the usual form in memory, a store per 16-byte load, and the
 * stores bounded the loop (f32 sum of 2^16 on one EPYC core of the PoCL 3.1 machine). */
#define ORX_LOADS_IN_PLACE 1

/* A kernel is its file's own function (every host kernel defines one of the same name), inlined
 * into the entry that calls it, so that each of the entry's clones (host_kernel.inc) compiles the
 * loop for its instruction set. */
#define __kernel static inline __attribute__((always_inline))
#define __global
#define __local

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
_Static_assert(sizeof(long) == 8, "OpenCL's long is 64 bits: the host path needs an LP64 host");

/* Work-item functions: work-item 0 of its work-group of one, the group this thread runs. */
static _Thread_local size_t orx_host_group, orx_host_groups = 1;
#define get_local_id(d) ((size_t)0)
#define get_group_id(d) orx_host_group
#define get_local_size(d) ((size_t)1)
#define get_num_groups(d) orx_host_groups
#define get_global_id(d) orx_host_group
#define get_global_size(d) orx_host_groups

/* Synchronisation: nothing else runs in a work-group; groups on other threads see each other's
 * partials through the counter's acquire-release increment (C11: the increments form one release
 * sequence), which ThreadSanitizer models. */
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define barrier(flags) ((void)0)
#define orx_count_in(p) __atomic_fetch_add((p), 1u, __ATOMIC_ACQ_REL)
#define orx_acquire() ((void)0) /* the count acquired */
#define orx_count_reset(p) __atomic_store_n((p), 0u, __ATOMIC_RELAXED)

/* Leading zero bits and set bits of a 32-bit word (clz(0) is 32, as in OpenCL C). */
ORX_INLINE uint clz(uint x) { return x ? (uint)__builtin_clz(x) : 32u; }
ORX_INLINE uint popcount(uint x) { return (uint)__builtin_popcount(x); }

/* Conversion to a 64-bit integer, rounding to nearest even (the default rounding mode). */
ORX_INLINE long convert_long_rte(float x) { return (long)llrintf(x); }

/* Reinterpretation (as_type), by the argument's type as OpenCL C overloads it. */
#define ORX_HOST_BITCAST(name, From, To)                                                           \
  ORX_INLINE To name(From x) {                                                                     \
    To y;                                                                                          \
    memcpy(&y, &x, sizeof y);                                                                      \
    return y;                                                                                      \
  }
ORX_HOST_BITCAST(orx_host_float_bits, float, uint)
ORX_HOST_BITCAST(orx_host_bits_float, uint, float)
ORX_HOST_BITCAST(orx_host_double_bits, double, ulong)
ORX_HOST_BITCAST(orx_host_bits_double, ulong, double)
#define as_uint(x) _Generic((x), float: orx_host_float_bits((float)(x)), default: (uint)(x))
#define as_int(x) ((int)as_uint(x))
#define as_float(x) orx_host_bits_float((uint)(x))
#define as_ulong(x) _Generic((x), double: orx_host_double_bits((double)(x)), default: (ulong)(x))
#define as_long(x) ((long)as_ulong(x))
#define as_double(x) orx_host_bits_double((ulong)(x))

/* The vector types, as structs of their components: 16-byte loads of every element type. */
#define ORX_HOST_VECTOR2(V, S)                                                                     \
  typedef struct V {                                                                               \
    S x, y;                                                                                        \
  } V;
#define ORX_HOST_VECTOR4(V, S)                                                                     \
  typedef struct V {                                                                               \
    S x, y, z, w;                                                                                  \
  } V;
ORX_HOST_VECTOR2(float2, float)
ORX_HOST_VECTOR2(int2, int)
ORX_HOST_VECTOR2(uint2, uint)
ORX_HOST_VECTOR2(double2, double)
ORX_HOST_VECTOR2(long2, long)
ORX_HOST_VECTOR2(ulong2, ulong)
ORX_HOST_VECTOR4(float4, float)
ORX_HOST_VECTOR4(int4, int)
ORX_HOST_VECTOR4(uint4, uint)
/* 16-bit floats' bits, which a pair operator's kernel loads a vector of (lib/orx_pairs.cl). */
ORX_HOST_VECTOR2(ushort2, ushort)
ORX_HOST_VECTOR4(ushort4, ushort)

/* vstoreN(v, i, p) and vloadN(i, p); the kernels load only their vector type TV. */
#define vstore2(v, i, p) ((p)[2 * (i)] = (v).x, (p)[2 * (i) + 1] = (v).y)
#define vstore4(v, i, p)                                                                           \
  ((p)[4 * (i)] = (v).x, (p)[4 * (i) + 1] = (v).y, (p)[4 * (i) + 2] = (v).z,                       \
   (p)[4 * (i) + 3] = (v).w)
#define vload2(i, p) ((TV){(p)[2 * (i)], (p)[2 * (i) + 1]})
#define vload4(i, p) ((TV){(p)[4 * (i)], (p)[4 * (i) + 1], (p)[4 * (i) + 2], (p)[4 * (i) + 3]})

/* 16-bit floats (ORX_ELEM_TYPE_ID, ORX_PAIR_TYPE_ID): `half` is their bits, converted exactly by
 * src/base/half.c, as OpenCL C's vload_half does, into f32 vectors (a count of equal pairs reads
 * them into a u64 kernel). */
typedef ushort half;
#define vload_half(i, p) orx_f16_to_f32((p)[i])
#define vload_half2(i, p) ((float2){vload_half(2 * (i), p), vload_half(2 * (i) + 1, p)})
#define vload_half4(i, p)                                                                          \
  ((float4){vload_half(4 * (i), p), vload_half(4 * (i) + 1, p), vload_half(4 * (i) + 2, p),       \
            vload_half(4 * (i) + 3, p)})

#endif /* ORX_HOST_PRELUDE_H */
