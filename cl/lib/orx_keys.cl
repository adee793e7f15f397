/* =================================================================================================
 * orx_keys.cl: the accumulator of one chain of a work-item's stream, ORX_CHAIN_V, per operator
 * slot, with orx_chain_identity(k), orx_chain_absorb(op, &chain, x, first),
 * orx_chain_merge(op, a, b) and orx_chain_value(op, chain) (the chain as the stream's ORX_ACC_V).
 * lib/orx_stream.cl includes it after defining ORX_ACC_V, which the chain is for every operator
 * but float MIN and MAX built with ORX_FLOAT_KEYS (the planner's choice): a single-operator
 * kernel's chains are integer keys of their own type (ORX_KEY_CHAINS is 1); the multi-operator
 * kernel's MIN and MAX slots keep keys in the bits of their ORX_ACC_V, beside the other slots'
 * values.
 *
 * Why keys: IEEE 754-2019 minimum and maximum (any NaN gives NaN, -0.0 orders below +0.0) take
 * two NaN tests, two compares and a select of the tie per element in floating point; on a key
 * of the float's bits (lib/orx_order_keys.cl) they are one integer min or max. Keys become
 * values again once, when a work-item's chains are merged. MIN and MAX slots of one kernel share
 * the order of each element's bits (the compiler computes it once), and differ by their rotation.
 * ============================================================================================== */
#ifndef ORX_KEYS_CL
#define ORX_KEYS_CL

#include "lib/orx_ops.cl"

#if ORX_FLOAT_KEYS && !ORX_STATE && ORX_IS_FLOAT &&                                               \
    (ORX_SLOTS > 1 || ORX_OP_ID == ORX_OP_MIN || ORX_OP_ID == ORX_OP_MAX)
/* Whether a slot's operator (a constant wherever the slot loops are unrolled) streams as keys. */
#define orx_keyed(op) ((op) == ORX_OP_MIN || (op) == ORX_OP_MAX)
#if ORX_FLOAT_KEYS == 2 && ORX_NATIVE_VECTORS
/* Whole vectors at once (CPUs: one AVX-512 instruction per step). */
#if ORX_VEC == 1
#define ORX_KEYS_T ORX_ORDER_KEY_T
#define ORX_KEY_BITS_T ORX_BITS_T
#else
#define ORX_KEYS_T ORX_CAT(ORX_ORDER_KEY_T, ORX_VEC)
#define ORX_KEY_BITS_T ORX_BITS_TV
#endif
#define ORX_AS_KEYS ORX_CAT(as_, ORX_KEYS_T)
#define ORX_AS_KEY_BITS ORX_CAT(as_, ORX_KEY_BITS_T)
typedef ORX_KEYS_T orx_keys;
/* orx_order_bits of whole vectors. */
ORX_INLINE ORX_KEY_BITS_T orx_order_bits_v(ORX_KEY_BITS_T b) {
  return b ^ (ORX_AS_KEY_BITS(ORX_AS_KEYS(b) >> ORX_ORDER_SIGN_SHIFT) & ORX_ORDER_MAGNITUDE);
}
ORX_INLINE orx_keys orx_keys_identity(int op) { return (orx_keys)(ORX_ORDER_IDENTITY(op)); }
ORX_INLINE void orx_keys_absorb(int op, orx_keys *c, TV x) {
  const orx_keys key = ORX_AS_KEYS(ORX_ORDER_ROTATE(op, orx_order_bits_v(ORX_AS_BITS_V(x))));
  *c = ORX_ORDER_PICK(op, *c, key);
}
ORX_INLINE orx_keys orx_keys_merge(int op, orx_keys a, orx_keys b) {
  return ORX_ORDER_PICK(op, a, b);
}
ORX_INLINE TV orx_keys_value(int op, orx_keys c) {
  return ORX_FROM_BITS_V(orx_order_bits_v(ORX_ORDER_UNROTATE(op, ORX_AS_KEY_BITS(c))));
}
/* Keys kept in the bits of a TV, and back. */
#define orx_keys_of_bits(chain) ORX_AS_KEYS(ORX_AS_BITS_V(chain))
#define orx_keys_as_bits(keys) ORX_FROM_BITS_V(ORX_AS_KEY_BITS(keys))
#else
/* One key per component (GPUs; in CUDA vectors are structs anyway). */
typedef struct orx_keys {
  ORX_ORDER_KEY_T key[ORX_VEC];
} orx_keys;
ORX_INLINE orx_keys orx_keys_identity(int op) {
  orx_keys c;
  for (int j = 0; j < ORX_VEC; j++)
    c.key[j] = ORX_ORDER_IDENTITY(op);
  return c;
}
ORX_INLINE void orx_keys_absorb(int op, orx_keys *c, TV x) {
  T v[ORX_VEC];
  ORX_STORE_V(x, v);
  for (int j = 0; j < ORX_VEC; j++) {
    const ORX_ORDER_KEY_T key = orx_order_key_of(op, ORX_AS_BITS(v[j]));
    c->key[j] = ORX_ORDER_PICK(op, c->key[j], key);
  }
}
ORX_INLINE orx_keys orx_keys_merge(int op, orx_keys a, orx_keys b) {
  for (int j = 0; j < ORX_VEC; j++)
    a.key[j] = ORX_ORDER_PICK(op, a.key[j], b.key[j]);
  return a;
}
ORX_INLINE TV orx_keys_value(int op, orx_keys c) {
  T v[ORX_VEC];
  for (int j = 0; j < ORX_VEC; j++)
    v[j] = ORX_FROM_BITS(orx_order_bits_of(op, c.key[j]));
  return ORX_LOAD_V(v);
}
/* Keys kept in the bits of a TV, and back. */
ORX_INLINE orx_keys orx_keys_of_bits(TV chain) {
  T v[ORX_VEC];
  ORX_STORE_V(chain, v);
  orx_keys c;
  for (int j = 0; j < ORX_VEC; j++)
    c.key[j] = (ORX_ORDER_KEY_T)ORX_AS_BITS(v[j]);
  return c;
}
ORX_INLINE TV orx_keys_as_bits(orx_keys c) {
  T v[ORX_VEC];
  for (int j = 0; j < ORX_VEC; j++)
    v[j] = ORX_FROM_BITS((ORX_BITS_T)c.key[j]);
  return ORX_LOAD_V(v);
}
#endif
#if ORX_SLOTS == 1
/* One operator: its chains are keys of their own type. (Keys in the bits of a TV, as the
 * multi-operator kernel keeps them, ran CUDA's f32 MIN and MAX of 2^28 at 0.81x: H100, one
 * run, NVIDIA's OpenCL unchanged.) */
#define ORX_KEY_CHAINS 1
#define ORX_CHAIN_V orx_keys
#define orx_chain_identity(k) orx_keys_identity(ORX_OP_ID)
#define orx_chain_absorb(op, chain, x, first) orx_keys_absorb(ORX_OP_ID, (chain), (x))
#define orx_chain_merge(op, a, b) orx_keys_merge(ORX_OP_ID, (a), (b))
#define orx_chain_value(op, chain) orx_keys_value(ORX_OP_ID, (chain))
#else
/* Several operators: every slot's chain is an ORX_ACC_V, a MIN or MAX slot's holding keys. */
#define ORX_KEY_CHAINS 0
#define ORX_CHAIN_V ORX_ACC_V
ORX_INLINE TV orx_chain_identity(uint k) {
  const int op = orx_slot_op(k);
  return orx_keyed(op) ? orx_keys_as_bits(orx_keys_identity(op)) : orx_acc_v_identity(k);
}
ORX_INLINE void orx_chain_absorb(int op, TV *chain, TV x, ulong first) {
  if (orx_keyed(op)) {
    orx_keys c = orx_keys_of_bits(*chain);
    orx_keys_absorb(op, &c, x);
    *chain = orx_keys_as_bits(c);
  } else {
    orx_absorb_into(op, chain, x, first);
  }
}
ORX_INLINE TV orx_chain_merge(int op, TV a, TV b) {
  return orx_keyed(op) ? orx_keys_as_bits(orx_keys_merge(op, orx_keys_of_bits(a),
                                                         orx_keys_of_bits(b)))
                       : orx_merge_v(op, a, b);
}
ORX_INLINE TV orx_chain_value(int op, TV chain) {
  return orx_keyed(op) ? orx_keys_value(op, orx_keys_of_bits(chain)) : chain;
}
#endif
#else
#define ORX_KEY_CHAINS 0
#define ORX_CHAIN_V ORX_ACC_V
#define orx_chain_identity(k) orx_acc_v_identity(k)
#define orx_chain_absorb(op, chain, x, first) orx_absorb_into((op), (chain), (x), (first))
#define orx_chain_merge(op, a, b) orx_merge_v((op), (a), (b))
#define orx_chain_value(op, chain) (chain)
#endif

#endif /* ORX_KEYS_CL */
