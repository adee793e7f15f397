/* =================================================================================================
 * orx_ops.cl: the reduction operators. Kernels combine values only through these functions and pad
 * only with identities, so adding an operator is one edit here and every path and backend gets it.
 *
 *   orx_combine(a, b), orx_combine_v(a, b)   the operator ORX_OP_ID (single-operator kernels)
 *   orx_combine_op(op, a, b)                 any operator by number (multi-operator kernels; with
 *                                            a constant `op` it folds to one operator)
 *
 * Integer SUM and PROD wrap modulo 2^bits: they compute in the unsigned type of the same width,
 * whose bits equal two's-complement signed wrapping, so no kernel has signed overflow.
 * ============================================================================================== */
#ifndef ORX_OPS_CL
#define ORX_OPS_CL

#define ORX_OP_SUM 0
#define ORX_OP_PROD 1
#define ORX_OP_MIN 2
#define ORX_OP_MAX 3
#define ORX_OP_AND 4
#define ORX_OP_OR 5
#define ORX_OP_XOR 6

/* ORX_APPLY_<OP>(a, b, AS_BITS, FROM_BITS): the operator on two scalars or, in OpenCL C, two
 * vectors (the conditional operator then selects per component). AS_BITS / FROM_BITS reinterpret
 * the operands' type as unsigned bits and back. */
#if ORX_IS_FLOAT
#define ORX_APPLY_SUM(a, b, AS_BITS, FROM_BITS) ((a) + (b))
#define ORX_APPLY_PROD(a, b, AS_BITS, FROM_BITS) ((a) * (b))
/* IEEE 754-2019 minimum / maximum: a NaN operand gives NaN, and -0.0 orders below +0.0. Operands
 * that compare equal differ at most in the sign of zero, so OR of their bits picks -0.0 (minimum)
 * and AND picks +0.0 (maximum); the result never depends on the combine order. */
#define ORX_MINMAX(a, b, LESSER, TIE, AS_BITS, FROM_BITS)                                          \
  (((a) != (a)) ? (a)                                                                              \
   : ((b) != (b)) ? (b)                                                                            \
   : LESSER(a, b) ? (a)                                                                            \
   : LESSER(b, a) ? (b)                                                                            \
                  : FROM_BITS(AS_BITS(a) TIE AS_BITS(b)))
#define ORX_BELOW(a, b) ((a) < (b))
#define ORX_ABOVE(a, b) ((a) > (b))
#define ORX_APPLY_MIN(a, b, AS_BITS, FROM_BITS) ORX_MINMAX(a, b, ORX_BELOW, |, AS_BITS, FROM_BITS)
#define ORX_APPLY_MAX(a, b, AS_BITS, FROM_BITS) ORX_MINMAX(a, b, ORX_ABOVE, &, AS_BITS, FROM_BITS)
#else
#define ORX_APPLY_SUM(a, b, AS_BITS, FROM_BITS) FROM_BITS(AS_BITS(a) + AS_BITS(b))
#define ORX_APPLY_PROD(a, b, AS_BITS, FROM_BITS) FROM_BITS(AS_BITS(a) * AS_BITS(b))
#define ORX_APPLY_MIN(a, b, AS_BITS, FROM_BITS) (((b) < (a)) ? (b) : (a))
#define ORX_APPLY_MAX(a, b, AS_BITS, FROM_BITS) (((a) < (b)) ? (b) : (a))
#define ORX_APPLY_AND(a, b, AS_BITS, FROM_BITS) ((a) & (b))
#define ORX_APPLY_OR(a, b, AS_BITS, FROM_BITS) ((a) | (b))
#define ORX_APPLY_XOR(a, b, AS_BITS, FROM_BITS) ((a) ^ (b))
#endif

/* Any operator by number. */
ORX_INLINE T orx_combine_op(int op, T a, T b) {
  switch (op) {
  case ORX_OP_PROD:
    return ORX_APPLY_PROD(a, b, ORX_AS_BITS, ORX_FROM_BITS);
  case ORX_OP_MIN:
    return ORX_APPLY_MIN(a, b, ORX_AS_BITS, ORX_FROM_BITS);
  case ORX_OP_MAX:
    return ORX_APPLY_MAX(a, b, ORX_AS_BITS, ORX_FROM_BITS);
#if !ORX_IS_FLOAT
  case ORX_OP_AND:
    return ORX_APPLY_AND(a, b, ORX_AS_BITS, ORX_FROM_BITS);
  case ORX_OP_OR:
    return ORX_APPLY_OR(a, b, ORX_AS_BITS, ORX_FROM_BITS);
  case ORX_OP_XOR:
    return ORX_APPLY_XOR(a, b, ORX_AS_BITS, ORX_FROM_BITS);
#endif
  default:
    return ORX_APPLY_SUM(a, b, ORX_AS_BITS, ORX_FROM_BITS);
  }
}

/* Component-wise, for vector accumulators. */
ORX_INLINE TV orx_combine_op_v(int op, TV a, TV b) {
#if ORX_VEC == 1
  return orx_combine_op(op, a, b);
#elif ORX_NATIVE_VECTORS
  switch (op) {
  case ORX_OP_PROD:
    return ORX_APPLY_PROD(a, b, ORX_AS_BITS_V, ORX_FROM_BITS_V);
  case ORX_OP_MIN:
    return ORX_APPLY_MIN(a, b, ORX_AS_BITS_V, ORX_FROM_BITS_V);
  case ORX_OP_MAX:
    return ORX_APPLY_MAX(a, b, ORX_AS_BITS_V, ORX_FROM_BITS_V);
#if !ORX_IS_FLOAT
  case ORX_OP_AND:
    return ORX_APPLY_AND(a, b, ORX_AS_BITS_V, ORX_FROM_BITS_V);
  case ORX_OP_OR:
    return ORX_APPLY_OR(a, b, ORX_AS_BITS_V, ORX_FROM_BITS_V);
  case ORX_OP_XOR:
    return ORX_APPLY_XOR(a, b, ORX_AS_BITS_V, ORX_FROM_BITS_V);
#endif
  default:
    return ORX_APPLY_SUM(a, b, ORX_AS_BITS_V, ORX_FROM_BITS_V);
  }
#else
  TV r;
  r.x = orx_combine_op(op, a.x, b.x);
  r.y = orx_combine_op(op, a.y, b.y);
#if ORX_VEC == 4
  r.z = orx_combine_op(op, a.z, b.z);
  r.w = orx_combine_op(op, a.w, b.w);
#endif
  return r;
#endif
}

/* The kernel's one operator, when it has one. */
#ifdef ORX_OP_ID
#if ORX_IS_FLOAT && ORX_OP_ID >= ORX_OP_AND
#error "bitwise operators are not defined on float types"
#endif
ORX_INLINE T orx_combine(T a, T b) { return orx_combine_op(ORX_OP_ID, a, b); }
ORX_INLINE TV orx_combine_v(TV a, TV b) { return orx_combine_op_v(ORX_OP_ID, a, b); }
#endif

#endif /* ORX_OPS_CL */
