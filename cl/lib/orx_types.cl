/* =================================================================================================
 * orx_types.cl: the value type of a kernel build, ORX_VALUE_T (ORX_TYPE_ID, numbered in
 * orx_contract.h: a public scalar type, or ORX_CUSTOM, a user operator's element type); the type T
 * of the elements the kernel reads (the values, or with ORX_INPUT_STATES the operator's states);
 * the vector type TV of ORX_VEC elements; and the bit-level helpers the operators need. Every
 * kernel file uses T and TV only through this file; the type's facts (size, float, signed) come
 * from the contract's list. And any type seen as its 32-bit words (ORX_WORDS_UNION).
 * ============================================================================================== */
#ifndef ORX_TYPES_CL
#define ORX_TYPES_CL

#include "orx_contract.h"
#include "lib/orx_dialect.cl"

#define ORX_CAT_(a, b) a##b
#define ORX_CAT(a, b) ORX_CAT_(a, b)

/* typedef union NAME: a value of TYPE (member FIELD) as its 32-bit words w[] (rounded up), for
 * what moves 32 bits at a time: volatile reads of a state (lib/orx_state.cl; a copy of a volatile
 * struct is not C++, which CUDA speaks), a summary's shuffles (kernels/by_key.cl). */
#define ORX_WORDS_UNION(name, type, field)                                                         \
  typedef union name {                                                                             \
    type field;                                                                                    \
    uint w[(sizeof(type) + 3) / 4];                                                                \
  } name

#if ORX_TYPE_ID == ORX_CUSTOM
#define ORX_TYPE_BYTES ORX_ELEMENT_BYTES
#else
#define ORX_TYPE_BYTES ORX_TYPE_BYTES_OF(ORX_TYPE_ID)
#endif
#define ORX_IS_FLOAT ORX_TYPE_IS_FLOAT_OF(ORX_TYPE_ID)
#define ORX_IS_SIGNED ORX_TYPE_IS_SIGNED_OF(ORX_TYPE_ID)

/* ORX_VALUE_T: the value type. ORX_BITS_T: unsigned integer of the same width (public types), for
 * bit-level operations. ORX_AS_BITS / ORX_FROM_BITS reinterpret scalars; the _V forms reinterpret
 * vectors. */
#if ORX_PAIR_OP == ORX_PAIR_USER
/* A user pair operator's elements are pairs, which its pair_map takes apart (lib/orx_state.cl). */
typedef struct orx_user_pair {
  ORX_ELEMENT_T a, b; /* the operator's source defines the type */
} orx_user_pair;
#define ORX_VALUE_T orx_user_pair
#elif ORX_TYPE_ID == ORX_CUSTOM
#define ORX_VALUE_T ORX_ELEMENT_T /* the operator's source defines it */
#elif ORX_TYPE_ID == ORX_I32
#define ORX_VALUE_T int
#define ORX_BITS_NAME uint
#elif ORX_TYPE_ID == ORX_U32
#define ORX_VALUE_T uint
#define ORX_BITS_NAME uint
#elif ORX_TYPE_ID == ORX_I64
#define ORX_VALUE_T long
#define ORX_BITS_NAME ulong
#elif ORX_TYPE_ID == ORX_U64
#define ORX_VALUE_T ulong
#define ORX_BITS_NAME ulong
#elif ORX_TYPE_ID == ORX_F32
#define ORX_VALUE_T float
#define ORX_BITS_NAME uint
#elif ORX_TYPE_ID == ORX_F64
#if ORX_NATIVE_VECTORS
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define ORX_VALUE_T double
#define ORX_BITS_NAME ulong
#else
#error "ORX_TYPE_ID must be one of ORX_I32 ... ORX_F64"
#endif

#define ORX_BITS_T ORX_BITS_NAME
#define ORX_AS_BITS ORX_CAT(as_, ORX_BITS_NAME)
#define ORX_FROM_BITS ORX_CAT(as_, ORX_VALUE_T)
/* Floats' order keys on those bits (included here once for every program: the library's include
 * expansion takes each file once, wherever it comes first, whatever the conditions around it). */
#include "lib/orx_order_keys.cl"

/* T: the elements the kernel reads. */
#if ORX_INPUT_STATES
#define T ORX_STATE_T
#else
#define T ORX_VALUE_T
#endif

/* TV: ORX_VEC elements loaded and, in OpenCL C, combined at once. */
#if ORX_VEC == 1
#define TV T
#define ORX_BITS_TV ORX_BITS_T
#define ORX_AS_BITS_V ORX_AS_BITS
#define ORX_FROM_BITS_V ORX_FROM_BITS
#else
#define TV ORX_CAT(ORX_VALUE_T, ORX_VEC) /* public types only: the host plans no vectors else */
#define ORX_BITS_TV ORX_CAT(ORX_BITS_NAME, ORX_VEC)
#define ORX_AS_BITS_V ORX_CAT(as_, ORX_BITS_TV)
#define ORX_FROM_BITS_V ORX_CAT(as_, TV)
#endif

/* The identity of operator `op` as a T: the contract's bit pattern, the same the host answers
 * count == 0 with. */
#define ORX_IDENTITY_OF(op) ORX_FROM_BITS((ORX_BITS_T)(ORX_IDENTITY_BITS_OF(op, ORX_TYPE_ID)))

/* Stores the ORX_VEC components of a TV to p[0..ORX_VEC), to fold a vector accumulator into
 * scalars once per work-item. */
#if ORX_VEC == 1
#define ORX_STORE_V(v, p) ((p)[0] = (v))
#else
#define ORX_STORE_V(v, p) ORX_CAT(vstore, ORX_VEC)((v), 0, (p))
#endif
/* ... and the reverse: a TV from the ORX_VEC elements at p. */
#if ORX_VEC == 1
#define ORX_LOAD_V(p) ((p)[0])
#else
#define ORX_LOAD_V(p) ORX_CAT(vload, ORX_VEC)(0, (p))
#endif

/* ORX_ELEM_T, ORX_ELEM_V: what a kernel's input holds, an element and a vector of ORX_VEC of
 * them; ORX_READ(p, i) and ORX_READ_V(p, v): element i of p and vector v of p as the kernel
 * computes on them (T, TV). Every kernel reads its input elements through these two only, so that
 * a type stored narrower than it computes converts where it is loaded, and a second input joins
 * there (docs/design/half-and-pairs.md). */

/* Vector v of 16-bit floats at p (its ORX_VEC elements from v * ORX_VEC, on a vector boundary)
 * as floats, in OpenCL C; the planner's form per device (ORX_NARROW_SPLIT):
 *   0 (GPUs): one load of the vector's 16-bit lanes, converted in registers: vloadN and
 *     vload_halfN promise the compiler only an element's alignment. H200, NVIDIA's OpenCL, f16
 *     and bf16 sums of 2^28: 143-145 us through vload_half4 / vload4, 141-142 us so (one run
 *     each, on other machines); still 0.87x our f32 rate, where CUDA's take 0.94-0.96x.
 *   1 (CPU devices): f16 through vload_halfN, bf16 in 32-bit words, each split into its two
 *     elements: Intel's CPU runtime, which vectorizes across work-items, took seconds to build
 *     the lanes' loads and ran them 4-7x slower (src/planner/plan_narrow.c: the measurements). */
#if ORX_NATIVE_VECTORS && ORX_VEC > 1
#define ORX_FLOAT_V ORX_CAT(float, ORX_VEC)
ORX_INLINE_ALWAYS ORX_FLOAT_V orx_narrow_f16_v(ORX_GLOBAL_PTR const half *p, ulong v) {
#if ORX_NARROW_SPLIT
  return ORX_CAT(vload_half, ORX_VEC)(v, p);
#else
  const ORX_CAT(ushort, ORX_VEC) bits = ((ORX_GLOBAL_PTR const ORX_CAT(ushort, ORX_VEC) *)p)[v];
  return ORX_CAT(vload_half, ORX_VEC)(0, (const half *)&bits); /* converted in registers */
#endif
}
#if ORX_NARROW_SPLIT && ORX_VEC > 2
/* Vectors of half as many 32-bit words; little-endian, element 2k is word k's low half. */
#if ORX_VEC == 4
#define ORX_WORDS_V uint2
#define ORX_AS_FLOAT_WORDS_V as_float2
#elif ORX_VEC == 8
#define ORX_WORDS_V uint4
#define ORX_AS_FLOAT_WORDS_V as_float4
#else
#define ORX_WORDS_V uint8
#define ORX_AS_FLOAT_WORDS_V as_float8
#endif
ORX_INLINE_ALWAYS ORX_FLOAT_V orx_narrow_bf16_v(ORX_GLOBAL_PTR const ushort *p, ulong v) {
  const ORX_WORDS_V w = ((ORX_GLOBAL_PTR const ORX_WORDS_V *)p)[v];
  ORX_FLOAT_V x;
  x.even = ORX_AS_FLOAT_WORDS_V(w << 16);
  x.odd = ORX_AS_FLOAT_WORDS_V(w & 0xffff0000u);
  return x;
}
#else
ORX_INLINE_ALWAYS ORX_FLOAT_V orx_narrow_bf16_v(ORX_GLOBAL_PTR const ushort *p, ulong v) {
  const ORX_CAT(ushort, ORX_VEC) bits = ((ORX_GLOBAL_PTR const ORX_CAT(ushort, ORX_VEC) *)p)[v];
  return ORX_CAT(as_float, ORX_VEC)(ORX_CAT(convert_uint, ORX_VEC)(bits) << 16);
}
#endif
#endif

#if ORX_PAIR_OP != ORX_PAIR_NONE
#include "lib/orx_pairs.cl"
#elif ORX_ELEM_TYPE_ID != ORX_NO_TYPE && !ORX_INPUT_STATES
#if ORX_TYPE_ID != ORX_F32
#error "16-bit elements are read into f32 kernels"
#endif
/* 16-bit floats: a pointer to single elements, vector v the ORX_VEC elements from v * ORX_VEC
 * (vload_halfN's convention). f16 through vload_half (core OpenCL C; the CUDA and host preludes
 * give it too), bf16 by shifting its bits into an f32's top half. Both exact. */
#if ORX_ELEM_TYPE_ID == ORX_F16
#define ORX_ELEM_T half
#define ORX_READ(p, i) vload_half((i), (p))
#else
#define ORX_ELEM_T ushort
#define ORX_READ(p, i) as_float((uint)(p)[i] << 16)
#endif
#define ORX_ELEM_V ORX_ELEM_T
ORX_INLINE TV orx_read_narrow_v(ORX_GLOBAL_PTR const ORX_ELEM_T *p, ulong v) {
#if ORX_VEC == 1
  return ORX_READ(p, v);
#elif ORX_ELEM_TYPE_ID == ORX_F16 && ORX_NATIVE_VECTORS
  return orx_narrow_f16_v(p, v);
#elif ORX_ELEM_TYPE_ID == ORX_F16 /* the CUDA and host preludes' vload_halfN */
  return ORX_CAT(vload_half, ORX_VEC)(v, p);
#elif ORX_NATIVE_VECTORS
  return orx_narrow_bf16_v(p, v);
#elif defined(ORX_VLOAD_BF16) /* the CUDA prelude gives its own */
  return ORX_VLOAD_BF16(v, p);
#else /* the host's kernels: element by element */
  T c[ORX_VEC];
  for (uint k = 0; k < ORX_VEC; k++)
    c[k] = ORX_READ(p, v * ORX_VEC + k);
  return ORX_LOAD_V(c);
#endif
}
#define ORX_READ_V(p, v) orx_read_narrow_v((p), (v))
#elif ORX_ELEM_KEYS
/* Float MIN and MAX as integer MIN and MAX of the floats' order keys (lib/orx_order_keys.cl): the
 * kernel computes on I32 or I64, its input holds the floats' bits, read as ORX_OP_ID's keys, and
 * its results are written back as floats (ORX_WRITE_RESULT, lib/orx_ops.cl). The planner's
 * choice for sliding windows, whose scans combine each element several times. */
#if ORX_IS_FLOAT || ORX_STATE || ORX_VEC != 1 ||                                                 \
    (ORX_OP_ID != ORX_OP_MIN && ORX_OP_ID != ORX_OP_MAX)
#error "ORX_ELEM_KEYS: integer MIN or MAX, an element at a time"
#endif
#define ORX_ELEM_T ORX_BITS_T
#define ORX_ELEM_V ORX_BITS_T
#define ORX_READ(p, i) orx_order_key_of(ORX_OP_ID, (p)[i])
#define ORX_READ_V(p, v) ORX_READ((p), (v))
#else
#define ORX_ELEM_T T
#define ORX_ELEM_V TV
#define ORX_READ(p, i) ((p)[i])
#define ORX_READ_V(p, v) ((p)[v])
#endif

/* The input handle every kernel reads through: ORX_IN, to elements, and ORX_IN_V, to vectors of
 * ORX_VEC of them (the pointer types above; ORX_IN_RESTRICT qualifies them as parameters), moved
 * by ORX_IN_AT(p, k) and ORX_IN_BACK(p, k) elements and seen as vectors by ORX_IN_AS_V(p). A
 * kernel declares its input as ORX_IN_PARAMS(name) and takes the handle to its elements from
 * `offset` on as ORX_IN_OPEN(name, offset) (a pair's b from its own offset).
 * lib/orx_pairs.cl gives the same names for two inputs. */
#if ORX_PAIR_OP == ORX_PAIR_NONE
#define ORX_IN ORX_GLOBAL_PTR const ORX_ELEM_T *
#define ORX_IN_V ORX_GLOBAL_PTR const ORX_ELEM_V *
#define ORX_IN_RESTRICT ORX_RESTRICT
#define ORX_IN_AT(p, k) ((p) + (k))
#define ORX_IN_BACK(p, k) ((p) - (k))
#define ORX_IN_AS_V(p) ((ORX_GLOBAL_PTR const ORX_ELEM_V *)(p))
#define ORX_IN_PARAMS(name) __global const ORX_ELEM_T *ORX_RESTRICT name
#define ORX_IN_OPEN(name, offset) ((name) + (offset))
#endif

/* A 16-bit result's bits (ORX_RESULT_NARROW) from the f32 it was computed in: one of the
 * elements, so the conversion back is exact. */
#if ORX_RESULT_NARROW == ORX_F16
/* By the bits, as src/base/half.c converts (a NaN keeps its payload's top bits, quiet):
 * vstore_half gave PoCL's NaN 0x7fff where the element was 0x7e00. Exact f16 values only. */
ORX_INLINE ushort orx_narrow_bits(float x) {
  const uint u = as_uint(x), sign = (u >> 16) & 0x8000u, e = (u >> 23) & 0xffu;
  const uint m = u & 0x7fffffu;
  if (e == 0xffu) /* infinities and NaNs */
    return (ushort)(sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0u));
  if (e > 112u) /* normal */
    return (ushort)(sign | ((e - 112u) << 10) | (m >> 13));
  if (e < 103u) /* zero */
    return (ushort)sign;
  return (ushort)(sign | ((0x800000u | m) >> (126u - e))); /* subnormal */
}
#elif ORX_RESULT_NARROW == ORX_BF16
ORX_INLINE ushort orx_narrow_bits(float x) {
  const uint u = as_uint(x);
  const uint quiet = (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) ? 0x40u : 0u;
  return (ushort)((u >> 16) | quiet); /* a NaN quiet, as src/base/half.c */
}
#endif

#endif /* ORX_TYPES_CL */
