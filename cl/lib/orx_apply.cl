/* =================================================================================================
 * orx_apply.cl: the scalar operators of the contract as macros on two values of the value type
 * (lib/orx_types.cl), shared by the scalar operators (lib/orx_ops.cl) and the structured ones
 * built from them (lib/orx_state_ops.cl: MINMAX takes MIN's and MAX's semantics).
 * ============================================================================================== */
#ifndef ORX_APPLY_CL
#define ORX_APPLY_CL

#include "lib/orx_types.cl"

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

/* MIN (min != 0) or MAX of two scalar values, as ORX_APPLY_MIN / ORX_APPLY_MAX give them, written
 * as a sequence of selects between values already computed: as nested conditionals NVRTC compiled
 * branches, and MINMAX (two of them per element) ran at 0.39x of the f32 sum on the H200. (On
 * OpenCL vectors the conditional operator evaluates both sides and selects anyway.) `min` is a
 * constant at every use, so each use compiles to one of the two. */
#if ORX_TYPE_ID != ORX_CUSTOM
ORX_INLINE ORX_VALUE_T orx_value_min_or_max(ORX_VALUE_T a, ORX_VALUE_T b, int min) {
#if ORX_IS_FLOAT
  const ORX_BITS_T a_bits = ORX_AS_BITS(a), b_bits = ORX_AS_BITS(b);
  const ORX_VALUE_T tie = ORX_FROM_BITS(min ? a_bits | b_bits : a_bits & b_bits);
  ORX_VALUE_T r = (min ? ORX_BELOW(b, a) : ORX_ABOVE(b, a)) ? b : a;
  r = a == b ? tie : r;
  r = b != b ? b : r;
  return a != a ? a : r;
#else
  return min ? ORX_APPLY_MIN(a, b, ORX_AS_BITS, ORX_FROM_BITS)
             : ORX_APPLY_MAX(a, b, ORX_AS_BITS, ORX_FROM_BITS);
#endif
}
#define orx_value_min(a, b) orx_value_min_or_max((a), (b), 1)
#define orx_value_max(a, b) orx_value_min_or_max((a), (b), 0)
#endif

#endif /* ORX_APPLY_CL */
