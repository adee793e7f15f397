/* =================================================================================================
 * orx_types.cl: the element type T of a kernel build, its vector type TV, and the bit-level
 * helpers the operators need. Every kernel file uses T and TV only through this file.
 *
 * The host defines ORX_TYPE_ID (numbered as ocl_reduce_type) and ORX_VEC (1, 2, 4, 8 or 16) in
 * the generated block it prepends; the defaults below let the file compile on its own.
 *
 * ORX_NATIVE_VECTORS is 1 in OpenCL C, where vector types have arithmetic, comparisons and
 * component-wise ?: . A backend whose vector types are plain structs (CUDA) defines it to 0 in its
 * prelude, and then vectors are only used to load 16 bytes at a time (ORX_VEC <= 4).
 * ============================================================================================== */
#ifndef ORX_TYPES_CL
#define ORX_TYPES_CL

#ifndef ORX_TYPE_ID
#define ORX_TYPE_ID 4 /* f32, in case this file is compiled outside the library */
#endif
#ifndef ORX_VEC
#define ORX_VEC 1
#endif
#ifndef ORX_NATIVE_VECTORS
#define ORX_NATIVE_VECTORS 1
#endif
/* Input pointers do not alias anything the kernel writes (lets GPUs use read-only loads). */
#ifndef ORX_RESTRICT
#define ORX_RESTRICT restrict
#endif
/* Qualifies every helper function; a backend prelude may redefine it (CUDA: __device__). */
#ifndef ORX_INLINE
#define ORX_INLINE static inline
#endif

#define ORX_I32 0
#define ORX_U32 1
#define ORX_I64 2
#define ORX_U64 3
#define ORX_F32 4
#define ORX_F64 5

#define ORX_CAT_(a, b) a##b
#define ORX_CAT(a, b) ORX_CAT_(a, b)

/* T: element type. ORX_BITS_T: unsigned integer of the same width, for bit-level operations.
 * ORX_AS_BITS / ORX_FROM_BITS reinterpret scalars; the _V forms reinterpret vectors. */
#if ORX_TYPE_ID == ORX_I32
#define T int
#define ORX_BITS_NAME uint
#define ORX_IS_FLOAT 0
#define ORX_IS_SIGNED 1
#define ORX_TYPE_BYTES 4
#elif ORX_TYPE_ID == ORX_U32
#define T uint
#define ORX_BITS_NAME uint
#define ORX_IS_FLOAT 0
#define ORX_IS_SIGNED 0
#define ORX_TYPE_BYTES 4
#elif ORX_TYPE_ID == ORX_I64
#define T long
#define ORX_BITS_NAME ulong
#define ORX_IS_FLOAT 0
#define ORX_IS_SIGNED 1
#define ORX_TYPE_BYTES 8
#elif ORX_TYPE_ID == ORX_U64
#define T ulong
#define ORX_BITS_NAME ulong
#define ORX_IS_FLOAT 0
#define ORX_IS_SIGNED 0
#define ORX_TYPE_BYTES 8
#elif ORX_TYPE_ID == ORX_F32
#define T float
#define ORX_BITS_NAME uint
#define ORX_IS_FLOAT 1
#define ORX_IS_SIGNED 1
#define ORX_TYPE_BYTES 4
#elif ORX_TYPE_ID == ORX_F64
#if ORX_NATIVE_VECTORS
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define T double
#define ORX_BITS_NAME ulong
#define ORX_IS_FLOAT 1
#define ORX_IS_SIGNED 1
#define ORX_TYPE_BYTES 8
#else
#error "ORX_TYPE_ID must be one of ORX_I32 ... ORX_F64"
#endif

#define ORX_BITS_T ORX_BITS_NAME
#define ORX_AS_BITS ORX_CAT(as_, ORX_BITS_NAME)
#define ORX_FROM_BITS ORX_CAT(as_, T)

/* TV: ORX_VEC elements loaded and, in OpenCL C, combined at once. */
#if ORX_VEC == 1
#define TV T
#define ORX_BITS_TV ORX_BITS_T
#define ORX_AS_BITS_V ORX_AS_BITS
#define ORX_FROM_BITS_V ORX_FROM_BITS
#else
#define TV ORX_CAT(T, ORX_VEC)
#define ORX_BITS_TV ORX_CAT(ORX_BITS_NAME, ORX_VEC)
#define ORX_AS_BITS_V ORX_CAT(as_, ORX_BITS_TV)
#define ORX_FROM_BITS_V ORX_CAT(as_, TV)
#endif

/* The operator's identity as a T, from the bit pattern the host puts in ORX_IDENTITY_BITS
 * (one table on the host serves the kernels and the count == 0 answer). */
#ifndef ORX_IDENTITY_BITS
#define ORX_IDENTITY_BITS 0
#endif
#define ORX_IDENTITY ORX_FROM_BITS((ORX_BITS_T)(ORX_IDENTITY_BITS))

/* Broadcast a scalar to every component of a TV. */
ORX_INLINE TV orx_splat_v(T x) {
#if ORX_VEC == 1 || ORX_NATIVE_VECTORS
  return (TV)(x);
#else
  TV v;
  v.x = x;
  v.y = x;
#if ORX_VEC == 4
  v.z = x;
  v.w = x;
#endif
  return v;
#endif
}

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

#endif /* ORX_TYPES_CL */
