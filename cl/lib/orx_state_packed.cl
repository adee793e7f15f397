/* =================================================================================================
 * orx_state_packed.cl: ARGMIN and ARGMAX of 4-byte elements (f32, i32, u32) in one 64-bit state
 * (ORX_STATE_PACKED, for sliding windows whose indices fit 32 bits; keys=1, src/planner): the
 * value's key in the high half and the index in the low (ARGMAX: its complement), so that of two
 * states the greater (ARGMAX) or the lesser (ARGMIN) wins. A combine is a 64-bit compare, and a
 * state takes half the local memory of ocl_reduce_arg's 16 bytes, so that windows' tiles hold
 * twice the elements (tiles of 2048 rather than 1024: windows of 1000 scan in one tile rather than
 * across tiles of 512 in two launches).
 *
 * Keys: a float's order key (lib/orx_order_keys.cl, MIN's or MAX's, so that every NaN wins and
 * -0.0 orders below +0.0) and an integer's value, each as an unsigned number in the same order.
 * Equal keys are equal values: the low halves then keep the first index. Two NaNs, whose keys
 * differ by payload, are told apart by index alone: the first NaN wins with its own bits, as the
 * 16-byte state's compares give (lib/orx_state_ops.cl). The result (ORX_STATE_RESULT) is
 * ocl_reduce_arg: the value back from its key, bit for bit, and the index.
 * ============================================================================================== */
#ifndef ORX_STATE_PACKED_CL
#define ORX_STATE_PACKED_CL

#if ORX_TYPE_BYTES != 4 || (ORX_OP_ID != ORX_OP_ARGMIN && ORX_OP_ID != ORX_OP_ARGMAX) ||        \
    ORX_RESULT_NARROW != ORX_NO_TYPE || ORX_INPUT_STATES
#error "ORX_STATE_PACKED: ARGMIN or ARGMAX of 4-byte elements"
#endif

typedef ulong orx_state;
#define ORX_PACKED_MAX (ORX_OP_ID == ORX_OP_ARGMAX)
#define ORX_PACKED_NO_INDEX 0xffffffffu /* the identity's (the host keeps indices below it) */

/* A value's key: unsigned, in ARGMIN's and ARGMAX's order of values. */
ORX_INLINE uint orx_packed_key(ORX_VALUE_T x) {
#if ORX_IS_FLOAT
  return (uint)orx_order_key_of(ORX_PACKED_MAX ? ORX_OP_MAX : ORX_OP_MIN, ORX_AS_BITS(x)) ^
         0x80000000u;
#elif ORX_TYPE_ID == ORX_I32
  return (uint)x ^ 0x80000000u;
#else
  return x;
#endif
}
ORX_INLINE ORX_VALUE_T orx_packed_value(uint key) {
#if ORX_IS_FLOAT
  return ORX_FROM_BITS(orx_order_bits_of(ORX_PACKED_MAX ? ORX_OP_MAX : ORX_OP_MIN,
                                         key ^ 0x80000000u));
#elif ORX_TYPE_ID == ORX_I32
  return (int)(key ^ 0x80000000u);
#else
  return key;
#endif
}
ORX_INLINE orx_state orx_packed(uint key, uint index) {
  return (ulong)key << 32 | (ORX_PACKED_MAX ? ~index : index);
}
/* Whether a key is a NaN's: beyond the winning infinity's (floats). */
ORX_INLINE int orx_packed_nan(uint key) {
#if ORX_IS_FLOAT
  const uint inf = orx_packed_key(ORX_IDENTITY_OF(ORX_PACKED_MAX ? ORX_OP_MIN : ORX_OP_MAX));
  return ORX_PACKED_MAX ? key > inf : key < inf;
#else
  (void)key;
  return 0;
#endif
}

ORX_INLINE orx_state orx_state_map(ORX_VALUE_T x, ulong index) {
  return orx_packed(orx_packed_key(x), (uint)index);
}
/* MIN's or MAX's identity with no index: every element wins over it. */
ORX_INLINE orx_state orx_state_identity(void) {
  return orx_packed(orx_packed_key(ORX_IDENTITY_OF(ORX_PACKED_MAX ? ORX_OP_MAX : ORX_OP_MIN)),
                    ORX_PACKED_NO_INDEX);
}
ORX_INLINE orx_state orx_state_combine(orx_state a, orx_state b) {
  const int nans = orx_packed_nan((uint)(a >> 32)) & orx_packed_nan((uint)(b >> 32));
  const ulong x = nans ? (ulong)(uint)a : a, y = nans ? (ulong)(uint)b : b;
  return (ORX_PACKED_MAX ? x > y : x < y) ? a : b;
}

/* ocl_reduce_arg (orx_arg, lib/orx_state_ops.cl). */
ORX_INLINE orx_arg orx_state_result(orx_state s) {
  const uint index = ORX_PACKED_MAX ? ~(uint)s : (uint)s;
  const orx_arg r = ORX_ARG_OF(orx_packed_value((uint)(s >> 32)),
                               index == ORX_PACKED_NO_INDEX ? ~(ulong)0 : (ulong)index);
  return r;
}
#define ORX_STATE_RESULT_T orx_arg
#define ORX_STATE_RESULT orx_state_result

#endif /* ORX_STATE_PACKED_CL */
