/* =================================================================================================
 * orx_ops.cl: the reduction operators. Kernels combine values only through orx_combine (scalars)
 * and orx_combine_v (vectors) and pad only with ORX_IDENTITY, so adding an operator is one edit
 * here and every path and backend gets it.
 *
 * The host defines ORX_OP_ID (numbered as ocl_reduce_op). Integer SUM and PROD are built for the
 * unsigned type of the same width (the host does this): unsigned arithmetic wraps by definition,
 * and its bits equal two's-complement signed wrapping, so no kernel has signed overflow.
 * ============================================================================================== */
#ifndef ORX_OPS_CL
#define ORX_OPS_CL

#ifndef ORX_OP_ID
#define ORX_OP_ID 0 /* sum, in case this file is compiled outside the library */
#endif

#define ORX_OP_SUM 0
#define ORX_OP_PROD 1
#define ORX_OP_MIN 2
#define ORX_OP_MAX 3
#define ORX_OP_AND 4
#define ORX_OP_OR 5
#define ORX_OP_XOR 6

/* ORX_APPLY(a, b, AS_BITS, FROM_BITS): the operator on two scalars or, in OpenCL C, two vectors
 * (the conditional operator then selects per component). AS_BITS / FROM_BITS reinterpret the
 * operands' type as unsigned bits and back. */
#if ORX_OP_ID == ORX_OP_SUM
#define ORX_APPLY(a, b, AS_BITS, FROM_BITS) ((a) + (b))
#elif ORX_OP_ID == ORX_OP_PROD
#define ORX_APPLY(a, b, AS_BITS, FROM_BITS) ((a) * (b))
#elif ORX_OP_ID == ORX_OP_AND
#define ORX_APPLY(a, b, AS_BITS, FROM_BITS) ((a) & (b))
#elif ORX_OP_ID == ORX_OP_OR
#define ORX_APPLY(a, b, AS_BITS, FROM_BITS) ((a) | (b))
#elif ORX_OP_ID == ORX_OP_XOR
#define ORX_APPLY(a, b, AS_BITS, FROM_BITS) ((a) ^ (b))
#elif (ORX_OP_ID == ORX_OP_MIN || ORX_OP_ID == ORX_OP_MAX) && !ORX_IS_FLOAT
#if ORX_OP_ID == ORX_OP_MIN
#define ORX_APPLY(a, b, AS_BITS, FROM_BITS) (((b) < (a)) ? (b) : (a))
#else
#define ORX_APPLY(a, b, AS_BITS, FROM_BITS) (((a) < (b)) ? (b) : (a))
#endif
#elif ORX_OP_ID == ORX_OP_MIN || ORX_OP_ID == ORX_OP_MAX
/* IEEE 754-2019 minimum / maximum: a NaN operand gives NaN, and -0.0 orders below +0.0. Operands
 * that compare equal differ at most in the sign of zero, so OR of their bits picks -0.0 (minimum)
 * and AND picks +0.0 (maximum); the result never depends on the combine order. */
#if ORX_OP_ID == ORX_OP_MIN
#define ORX_LESSER(a, b) ((a) < (b))
#define ORX_TIE_BITS(x, y) ((x) | (y))
#else
#define ORX_LESSER(a, b) ((a) > (b))
#define ORX_TIE_BITS(x, y) ((x) & (y))
#endif
#define ORX_APPLY(a, b, AS_BITS, FROM_BITS)                                                        \
  (((a) != (a)) ? (a)                                                                              \
   : ((b) != (b)) ? (b)                                                                            \
   : ORX_LESSER(a, b) ? (a)                                                                        \
   : ORX_LESSER(b, a) ? (b)                                                                        \
                       : FROM_BITS(ORX_TIE_BITS(AS_BITS(a), AS_BITS(b))))
#else
#error "ORX_OP_ID must be one of ORX_OP_SUM ... ORX_OP_XOR"
#endif

#if ORX_IS_FLOAT && ORX_OP_ID >= ORX_OP_AND
#error "bitwise operators are not defined on float types"
#endif

ORX_INLINE T orx_combine(T a, T b) { return ORX_APPLY(a, b, ORX_AS_BITS, ORX_FROM_BITS); }

/* Component-wise combine of two vectors. */
ORX_INLINE TV orx_combine_v(TV a, TV b) {
#if ORX_VEC == 1
  return orx_combine(a, b);
#elif ORX_NATIVE_VECTORS
  return ORX_APPLY(a, b, ORX_AS_BITS_V, ORX_FROM_BITS_V);
#else
  TV r;
  r.x = orx_combine(a.x, b.x);
  r.y = orx_combine(a.y, b.y);
#if ORX_VEC == 4
  r.z = orx_combine(a.z, b.z);
  r.w = orx_combine(a.w, b.w);
#endif
  return r;
#endif
}

#endif /* ORX_OPS_CL */
