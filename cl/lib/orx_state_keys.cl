/* =================================================================================================
 * orx_state_keys.cl: ARGMIN, ARGMAX and MINMAX of floats whose states keep each value as its
 * order key (ORX_STATE_KEYS; lib/orx_order_keys.cl), for sliding windows, whose scans combine
 * each element several times: a combine is then integer compares, where the values' own take NaN
 * tests and the sign of zero on every one (the planner's choice and its figures:
 * src/planner/plan_windows.c, elements_as_keys).
 *
 * The keys are MIN's or MAX's (rotated so that every NaN wins, lib/orx_order_keys.cl), so the
 * results are those of lib/orx_state_ops.cl bit for bit: a value comes back from its key exactly;
 * MINMAX keeps MIN's key and MAX's; ARGMIN and ARGMAX take the first index among equal keys, the
 * first NaN where NaNs meet (any two NaNs lie beyond the infinity's key on the winning side, and
 * are then told apart by index alone), and -0.0 orders below +0.0 as its key does. The result
 * (ORX_STATE_RESULT) is the operator's public layout; states are the kernel's own (windows keep
 * them in local memory and their scratch only), of the same size.
 * ============================================================================================== */
#ifndef ORX_STATE_KEYS_CL
#define ORX_STATE_KEYS_CL

#if !ORX_IS_FLOAT || ORX_RESULT_NARROW != ORX_NO_TYPE || ORX_INPUT_STATES
#error "ORX_STATE_KEYS: states of f32 or f64 elements"
#endif

typedef ORX_ORDER_KEY_T orx_key;
#define orx_key_of(op, x) orx_order_key_of((op), ORX_AS_BITS(x))
#define orx_value_of_key(op, k) ORX_FROM_BITS(orx_order_bits_of((op), (k)))

#if ORX_OP_ID == ORX_OP_ARGMIN || ORX_OP_ID == ORX_OP_ARGMAX
#define ORX_ARG_KEY_OP (ORX_OP_ID == ORX_OP_ARGMIN ? ORX_OP_MIN : ORX_OP_MAX)
typedef struct orx_state {
  orx_key key;
#if ORX_TYPE_BYTES == 4
  uint zero; /* the public layout's padding, so that states keep its size */
#endif
  ulong index;
} orx_state;
ORX_INLINE orx_state orx_state_map(ORX_VALUE_T x, ulong index) {
  const orx_state s = ORX_ARG_OF(orx_key_of(ORX_ARG_KEY_OP, x), index);
  return s;
}
/* The infinity's key (the identity's value), with an index no element has. */
ORX_INLINE orx_state orx_state_identity(void) {
  const orx_state s = ORX_ARG_OF(ORX_ORDER_IDENTITY(ORX_ARG_KEY_OP), ~(ulong)0);
  return s;
}
/* Whether a key is a NaN's: beyond the winning infinity's. */
ORX_INLINE int orx_key_is_nan(orx_key k) {
  const orx_key inf = orx_key_of(ORX_ARG_KEY_OP, ORX_IDENTITY_OF(ORX_OP_ID == ORX_OP_ARGMIN
                                                                     ? ORX_OP_MAX
                                                                     : ORX_OP_MIN));
  return ORX_OP_ID == ORX_OP_ARGMIN ? k < inf : k > inf;
}
ORX_INLINE orx_state orx_state_combine(orx_state a, orx_state b) {
  const int lower = a.index < b.index;
  const int a_wins = ORX_OP_ID == ORX_OP_ARGMIN ? a.key < b.key : a.key > b.key;
  const int tie = a.key == b.key || (orx_key_is_nan(a.key) & orx_key_is_nan(b.key));
  return (tie ? lower : a_wins) ? a : b;
}
/* combine(s, map(x, index)) where every element s holds has a lower index than x (SERIAL's
 * prefixes): x takes the place of a state that is no NaN when its key wins, or of the
 * identity's when the keys are equal; no index compare, as the float states' step. */
ORX_INLINE orx_state orx_state_absorb(orx_state s, ORX_VALUE_T x, ulong index) {
  const orx_key k = orx_key_of(ORX_ARG_KEY_OP, x);
  const int wins = ORX_OP_ID == ORX_OP_ARGMIN ? k < s.key : k > s.key;
  if (!orx_key_is_nan(s.key) & (wins | ((k == s.key) & (s.index == ~(ulong)0)))) {
    s.key = k;
    s.index = index;
  }
  return s;
}
#define ORX_STATE_ABSORB orx_state_absorb
ORX_INLINE orx_arg orx_state_result(orx_state s) {
  const orx_arg r = ORX_ARG_OF(orx_value_of_key(ORX_ARG_KEY_OP, s.key), s.index);
  return r;
}
#define ORX_STATE_RESULT_T orx_arg
#define ORX_STATE_RESULT orx_state_result

#elif ORX_OP_ID == ORX_OP_MINMAX /* lib/orx_state_ops.cl's MINMAX on these parts */
typedef orx_key orx_minmax_part;
#define orx_minmax_part_of(op, x) orx_key_of((op), (x))
#define orx_minmax_part_identity(op) ORX_ORDER_IDENTITY(op)
#define orx_minmax_part_pick(op, a, b) ORX_ORDER_PICK((op), (a), (b))
typedef struct orx_minmax_result {
  ORX_VALUE_T min, max;
} orx_minmax_result;

#else
#error "ORX_STATE_KEYS: ARGMIN, ARGMAX or MINMAX"
#endif

#endif /* ORX_STATE_KEYS_CL */
