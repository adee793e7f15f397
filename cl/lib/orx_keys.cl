/* =================================================================================================
 * orx_keys.cl: the accumulator of one chain of a work-item's stream, ORX_CHAIN_V, with
 * orx_chain_identity(k) and orx_chain_absorb(op, &chain, x, first), and for keys
 * orx_chain_merge(op, a, b) and orx_chain_value(chain) (the chain as the stream's ORX_ACC_V,
 * which the other chains already are). lib/orx_stream.cl includes it
 * after defining ORX_ACC_V, which the chain is for every operator but float MIN and MAX of
 * single-operator kernels built with ORX_FLOAT_KEYS (the planner's choice): their chains hold
 * integer keys (ORX_KEY_CHAINS is 1).
 *
 * Why keys: IEEE 754-2019 minimum and maximum (any NaN gives NaN, -0.0 orders below +0.0) take
 * two NaN tests, two compares and a select of the tie per element in floating point; on a key
 * of the float's bits they are one integer min or max. The key is the bits with the magnitude
 * inverted for negative numbers, a signed integer whose order is the float order (-NaN < -inf <
 * ... < -0.0 < +0.0 < ... < +inf < +NaN), rotated by the count of NaN payloads: up for MIN, so
 * that the positive NaNs wrap around below -inf, down for MAX, so that the negative NaNs wrap
 * around above +inf. Every NaN wins, whatever its sign, in any order of combining. Keys become
 * values again once, when a work-item's chains are merged.
 * ============================================================================================== */
#ifndef ORX_KEYS_CL
#define ORX_KEYS_CL

#include "lib/orx_ops.cl"

#if ORX_FLOAT_KEYS && !ORX_STATE && ORX_IS_FLOAT && ORX_SLOTS == 1 &&                             \
    (ORX_OP_ID == ORX_OP_MIN || ORX_OP_ID == ORX_OP_MAX)
#if ORX_TYPE_BYTES == 4
#define ORX_KEY_T int
#else
#define ORX_KEY_T long
#endif
#define ORX_KEY_SIGN_SHIFT (8 * ORX_TYPE_BYTES - 1)
/* The magnitude bits (0x7fffffff for f32), and the count of NaN payloads of one sign, the
 * magnitudes above +inf's (0x007fffff). */
#define ORX_KEY_MAGNITUDE (~(ORX_BITS_T)0 >> 1)
#if ORX_TYPE_BYTES == 4
#define ORX_KEY_NANS ((ORX_BITS_T)0x007fffffu)
#else
#define ORX_KEY_NANS ((ORX_BITS_T)0x000fffffffffffffUL)
#endif
#if ORX_OP_ID == ORX_OP_MIN
#define ORX_KEY_ROTATE(u) ((u) + ORX_KEY_NANS)
#define ORX_KEY_UNROTATE(u) ((u) - ORX_KEY_NANS)
#define ORX_KEY_PICK(a, b) ((b) < (a) ? (b) : (a))
#define ORX_KEY_IDENTITY ((ORX_KEY_T)ORX_KEY_MAGNITUDE)
#else
#define ORX_KEY_ROTATE(u) ((u) - ORX_KEY_NANS)
#define ORX_KEY_UNROTATE(u) ((u) + ORX_KEY_NANS)
#define ORX_KEY_PICK(a, b) ((a) < (b) ? (b) : (a))
#define ORX_KEY_IDENTITY (-(ORX_KEY_T)ORX_KEY_MAGNITUDE - 1)
#endif
#if ORX_FLOAT_KEYS == 2 && ORX_NATIVE_VECTORS
/* Whole vectors at once (CPUs: one AVX-512 instruction per step). */
#if ORX_VEC == 1
#define ORX_KEYS_T ORX_KEY_T
#define ORX_KEY_BITS_T ORX_BITS_T
#else
#define ORX_KEYS_T ORX_CAT(ORX_KEY_T, ORX_VEC)
#define ORX_KEY_BITS_T ORX_BITS_TV
#endif
#define ORX_AS_KEYS ORX_CAT(as_, ORX_KEYS_T)
#define ORX_AS_KEY_BITS ORX_CAT(as_, ORX_KEY_BITS_T)
typedef ORX_KEYS_T orx_keys;
/* Negative numbers' magnitude inverted; its own inverse (the sign bit stays). */
ORX_INLINE ORX_KEY_BITS_T orx_key_order(ORX_KEY_BITS_T b) {
  return b ^ (ORX_AS_KEY_BITS(ORX_AS_KEYS(b) >> ORX_KEY_SIGN_SHIFT) & ORX_KEY_MAGNITUDE);
}
ORX_INLINE orx_keys orx_keys_identity(void) { return (orx_keys)(ORX_KEY_IDENTITY); }
ORX_INLINE void orx_keys_absorb(orx_keys *c, TV x) {
  const orx_keys key = ORX_AS_KEYS(ORX_KEY_ROTATE(orx_key_order(ORX_AS_BITS_V(x))));
  *c = ORX_KEY_PICK(*c, key);
}
ORX_INLINE orx_keys orx_keys_merge(orx_keys a, orx_keys b) { return ORX_KEY_PICK(a, b); }
ORX_INLINE TV orx_keys_value(orx_keys c) {
  return ORX_FROM_BITS_V(orx_key_order(ORX_KEY_UNROTATE(ORX_AS_KEY_BITS(c))));
}
#else
/* One key per component (GPUs; in CUDA vectors are structs anyway). */
ORX_INLINE ORX_BITS_T orx_key_order(ORX_BITS_T b) {
  return b ^ ((ORX_BITS_T)((ORX_KEY_T)b >> ORX_KEY_SIGN_SHIFT) & ORX_KEY_MAGNITUDE);
}
typedef struct orx_keys {
  ORX_KEY_T key[ORX_VEC];
} orx_keys;
ORX_INLINE orx_keys orx_keys_identity(void) {
  orx_keys c;
  for (int j = 0; j < ORX_VEC; j++)
    c.key[j] = ORX_KEY_IDENTITY;
  return c;
}
ORX_INLINE void orx_keys_absorb(orx_keys *c, TV x) {
  T v[ORX_VEC];
  ORX_STORE_V(x, v);
  for (int j = 0; j < ORX_VEC; j++) {
    const ORX_KEY_T key = (ORX_KEY_T)ORX_KEY_ROTATE(orx_key_order(ORX_AS_BITS(v[j])));
    c->key[j] = ORX_KEY_PICK(c->key[j], key);
  }
}
ORX_INLINE orx_keys orx_keys_merge(orx_keys a, orx_keys b) {
  for (int j = 0; j < ORX_VEC; j++)
    a.key[j] = ORX_KEY_PICK(a.key[j], b.key[j]);
  return a;
}
ORX_INLINE TV orx_keys_value(orx_keys c) {
  T v[ORX_VEC];
  for (int j = 0; j < ORX_VEC; j++)
    v[j] = ORX_FROM_BITS(orx_key_order(ORX_KEY_UNROTATE((ORX_BITS_T)c.key[j])));
  return ORX_LOAD_V(v);
}
#endif
#define ORX_CHAIN_V orx_keys
#define ORX_KEY_CHAINS 1
#define orx_chain_identity(k) orx_keys_identity()
#define orx_chain_absorb(op, chain, x, first) orx_keys_absorb((chain), (x))
#define orx_chain_merge(op, a, b) orx_keys_merge((a), (b))
#define orx_chain_value(chain) orx_keys_value(chain)
#else
#define ORX_KEY_CHAINS 0
#define ORX_CHAIN_V ORX_ACC_V
#define orx_chain_identity(k) orx_acc_v_identity(k)
#define orx_chain_absorb(op, chain, x, first) orx_absorb_into((op), (chain), (x), (first))
#endif

#endif /* ORX_KEYS_CL */
