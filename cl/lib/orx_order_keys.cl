/* =================================================================================================
 * orx_order_keys.cl: a float's order key, one integer of the float's width whose order is IEEE
 * 754-2019 minimum's and maximum's (any NaN wins, -0.0 orders below +0.0), so that float MIN and
 * MAX take one integer min or max an element (lib/orx_keys.cl's chains; a kernel's elements read
 * as keys, ORX_ELEM_KEYS in lib/orx_types.cl). For ORX_TYPE_BYTES 4 (f32) or 8 (f64), on the bits
 * ORX_BITS_T of that width (lib/orx_types.cl includes this file where it defines them):
 *
 *   orx_order_bits(b)          the bits with the magnitude inverted for negative numbers: a
 *                              signed integer in float order (-NaN < -inf < ... < -0.0 < +0.0 <
 *                              ... < +inf < +NaN); its own inverse (the sign bit stays);
 *   ORX_ORDER_ROTATE(op, u)    rotated by the count of NaN payloads: up for MIN, so that the
 *                              positive NaNs wrap around below -inf, down for MAX, so that the
 *                              negative NaNs wrap around above +inf; ORX_ORDER_UNROTATE(op, u)
 *                              undoes it;
 *   ORX_ORDER_PICK(op, a, b)   the key op keeps of two; ORX_ORDER_IDENTITY(op) its identity;
 *   orx_order_key_of(op, b)    a float's bits as op's key; orx_order_bits_of(op, k) the bits back.
 *
 * Every NaN wins, whatever its sign, in any order of combining, and keys become floats again
 * bit for bit.
 * ============================================================================================== */
#ifndef ORX_ORDER_KEYS_CL
#define ORX_ORDER_KEYS_CL

#include "lib/orx_dialect.cl"

#if defined(ORX_BITS_NAME) /* public types (lib/orx_types.cl, which includes this file) */
#if ORX_TYPE_BYTES == 4
#define ORX_ORDER_KEY_T int
#define ORX_ORDER_NANS ((ORX_BITS_T)0x007fffffu) /* the magnitudes above +inf's */
#else
#define ORX_ORDER_KEY_T long
#define ORX_ORDER_NANS ((ORX_BITS_T)0x000fffffffffffffUL)
#endif
#define ORX_ORDER_SIGN_SHIFT (8 * ORX_TYPE_BYTES - 1)
#define ORX_ORDER_MAGNITUDE (~(ORX_BITS_T)0 >> 1) /* 0x7fffffff for f32 */
/* Of scalars or whole vectors alike. */
#define ORX_ORDER_ROTATE(op, u) ((op) == ORX_OP_MIN ? (u) + ORX_ORDER_NANS : (u) - ORX_ORDER_NANS)
#define ORX_ORDER_UNROTATE(op, u) ((op) == ORX_OP_MIN ? (u) - ORX_ORDER_NANS : (u) + ORX_ORDER_NANS)
#define ORX_ORDER_PICK(op, a, b)                                                                   \
  ((op) == ORX_OP_MIN ? ((b) < (a) ? (b) : (a)) : ((a) < (b) ? (b) : (a)))
#define ORX_ORDER_IDENTITY(op)                                                                     \
  ((op) == ORX_OP_MIN ? (ORX_ORDER_KEY_T)ORX_ORDER_MAGNITUDE                                       \
                      : -(ORX_ORDER_KEY_T)ORX_ORDER_MAGNITUDE - 1)

ORX_INLINE ORX_BITS_T orx_order_bits(ORX_BITS_T b) {
  return b ^ ((ORX_BITS_T)((ORX_ORDER_KEY_T)b >> ORX_ORDER_SIGN_SHIFT) & ORX_ORDER_MAGNITUDE);
}
#define orx_order_key_of(op, b) ((ORX_ORDER_KEY_T)ORX_ORDER_ROTATE((op), orx_order_bits(b)))
#define orx_order_bits_of(op, k) orx_order_bits(ORX_ORDER_UNROTATE((op), (ORX_BITS_T)(k)))
#endif

#endif /* ORX_ORDER_KEYS_CL */
