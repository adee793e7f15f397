/* =================================================================================================
 * orx_state_ops.cl: the built-in structured operators, written as a user operator is (see
 * ocl_reduce_operator_desc): a state type `orx_state`, orx_state_identity(),
 * orx_state_map(element, index) and orx_state_combine(a, b), for elements of the value type
 * ORX_VALUE_T of ORX_TYPE_ID. The kernel's ORX_OP_ID selects one; its names are the contract's
 * defaults, so the kernels run them exactly as they run a user's. A built-in may also project its
 * state to a result (ORX_STATE_RESULT); the host sizes results by ocl_reduce_result_size.
 *
 * A built-in may also absorb elements with fewer instructions than map and combine, into states
 * whose elements all have lower indices: one at a time, ORX_STATE_ABSORB(s, x, index) -> state,
 * or a loaded vector into the ORX_VEC lanes a work-item keeps per chain (lib/orx_stream.cl),
 * ORX_STATE_LANES_ABSORB(lane, c, first) with lane[j] taking c[j], of index first + j, where
 * every lane has absorbed as many. Lanes may be of a type of the operator's own,
 * ORX_STATE_LANE_T, with ORX_STATE_LANE_IDENTITY(), ORX_STATE_LANE_MERGE(a, b) (a's elements
 * before b's) and ORX_STATE_LANE_STATE(lane) -> state. And a work-group's states may combine
 * its own way, ORX_STATE_GROUP_REDUCE(x, scratch) -> the group's state in work-item 0, called by
 * every work-item with local scratch of ORX_WG_SIZE states (lib/orx_workgroup.cl).
 *
 * Every combine here is commutative and associative on the values it sees, so results do not
 * depend on the combine order, except for the rounding of the float sums and moments.
 * ============================================================================================== */
#ifndef ORX_STATE_OPS_CL
#define ORX_STATE_OPS_CL

#include "lib/orx_apply.cl"

/* Chains of split lanes (below) where a C compiler builds the kernel, the host's (plain-struct
 * vectors, contiguous runs). The OpenCL compilers of CPU devices vectorize across work-items,
 * not within one; Intel's crashed building MINMAX f32's split chain of 16 lanes (a segfault in
 * its LLVM's MachineCombiner), where PoCL 3.1's device plans gained 1.3-2.2x on MINMAX. */
#define ORX_STATE_SPLIT_CHAINS                                                                     \
  (ORX_STREAM_CONTIGUOUS && !ORX_NATIVE_VECTORS && !ORX_INPUT_STATES)

#if ORX_OP_ID == ORX_OP_ARGMIN || ORX_OP_ID == ORX_OP_ARGMAX
/* ocl_reduce_arg: the value in the first 8 bytes, the index after. The float states below are
 * this layout; the packed and keys states return it. */
typedef struct orx_arg {
  ORX_VALUE_T value;
#if ORX_TYPE_BYTES == 4
  uint zero; /* the rest of the value's 8 bytes, kept 0 */
#endif
  ulong index;
} orx_arg;
/* An initializer of this layout's members (or the keys state's, lib/orx_state_keys.cl), the
 * padding 0. */
#if ORX_TYPE_BYTES == 4
#define ORX_ARG_OF(value_or_key, index) {(value_or_key), 0u, (index)}
#else
#define ORX_ARG_OF(value_or_key, index) {(value_or_key), (index)}
#endif
#endif

/* Sliding windows' states (src/planner/plan_windows.c): ARGMIN and ARGMAX of 4-byte elements in
 * 64 bits, and float ARGMIN, ARGMAX and MINMAX on order keys. */
#if ORX_STATE_PACKED
#include "lib/orx_state_packed.cl"
#elif ORX_STATE_KEYS
#include "lib/orx_state_keys.cl"
#endif

#if (ORX_OP_ID == ORX_OP_ARGMIN || ORX_OP_ID == ORX_OP_ARGMAX) && !ORX_STATE_PACKED &&            \
    !ORX_STATE_KEYS
/* ---- ARGMIN, ARGMAX: ocl_reduce_arg's layout ------------------------------------------------ */
typedef orx_arg orx_state;

#if ORX_OP_ID == ORX_OP_ARGMIN
#define ORX_ARG_BEFORE(a, b) ((a) < (b))
#define ORX_ARG_IDENTITY ORX_OP_MIN
#else
#define ORX_ARG_BEFORE(a, b) ((a) > (b))
#define ORX_ARG_IDENTITY ORX_OP_MAX
#endif

ORX_INLINE orx_state orx_state_map(ORX_VALUE_T x, ulong index) {
  const orx_state s = ORX_ARG_OF(x, index);
  return s;
}
ORX_INLINE orx_state orx_state_identity(void) {
  return orx_state_map(ORX_IDENTITY_OF(ORX_ARG_IDENTITY), ~(ulong)0);
}
/* Whether a goes before b: the extreme value; among equal values the lower index. Floats: a NaN
 * goes before any number (the first NaN wins, as MIN and MAX propagate NaN), and -0.0 orders
 * below +0.0 (equal values with different bits differ in the sign of zero). */
ORX_INLINE int orx_arg_first(orx_state a, orx_state b) {
  const int lower = a.index < b.index;
#if ORX_IS_FLOAT
  const int a_nan = a.value != a.value, b_nan = b.value != b.value;
  const ORX_BITS_T a_bits = ORX_AS_BITS(a.value), b_bits = ORX_AS_BITS(b.value);
  /* Equal values: -0.0 has the larger bits. */
  const int sign_first = ORX_OP_ID == ORX_OP_ARGMIN ? a_bits > b_bits : a_bits < b_bits;
  return (a_nan | b_nan) ? (a_nan & (!b_nan | lower))
         : ORX_ARG_BEFORE(a.value, b.value) ? 1
         : ORX_ARG_BEFORE(b.value, a.value) ? 0
         : a_bits != b_bits                 ? sign_first
                                            : lower;
#else
  return ORX_ARG_BEFORE(a.value, b.value) ? 1 : ORX_ARG_BEFORE(b.value, a.value) ? 0 : lower;
#endif
}
ORX_INLINE orx_state orx_state_combine(orx_state a, orx_state b) {
  return orx_arg_first(a, b) ? a : b;
}
/* The state with `base` taken from its index, the identity's aside: reduce by key maps elements
 * with their positions in the input and stores each run's index from the run's start
 * (kernels/by_key.cl). */
ORX_INLINE orx_state orx_state_rebase(orx_state s, ulong base) {
  s.index -= s.index == ~(ulong)0 ? 0 : base;
  return s;
}
#define ORX_STATE_REBASE orx_state_rebase
#if ORX_TYPE_BYTES == 4
/* A state as reduce by key keeps it in local memory within a tile (kernels/by_key.cl): its index
 * from `base` (the tile's first element, or the start of a run that starts in the tile) fits 32
 * bits there, so a 4-byte value waits in 8 bytes, not 16, and a tile holds twice the pairs. */
typedef struct orx_state_near {
  ORX_VALUE_T value;
  uint index;
} orx_state_near;
ORX_INLINE orx_state_near orx_state_to_near(orx_state s, ulong base) {
  orx_state_near n;
  n.value = s.value;
  n.index = (uint)(s.index - base);
  return n;
}
ORX_INLINE orx_state orx_state_from_near(orx_state_near n, ulong base) {
  return orx_state_map(n.value, base + n.index);
}
#define ORX_STATE_NEAR orx_state_near
#define ORX_STATE_TO_NEAR orx_state_to_near
#define ORX_STATE_FROM_NEAR orx_state_from_near
#endif
/* Whether x goes before lane state s, whose elements all have lower indices than x: only a
 * strictly better value (or the identity's place) moves the index, so ties keep the first. */
ORX_INLINE int orx_arg_displaces(ORX_VALUE_T x, orx_state s) {
  const int tie = x == s.value;
  const int empty = s.index == ~(ulong)0;
#if ORX_IS_FLOAT
  const ORX_BITS_T x_bits = ORX_AS_BITS(x), s_bits = ORX_AS_BITS(s.value);
  const int sign_first = ORX_OP_ID == ORX_OP_ARGMIN ? x_bits > s_bits : x_bits < s_bits;
  return (s.value == s.value) &
         ((x != x) | ORX_ARG_BEFORE(x, s.value) | (tie & (sign_first | empty)));
#else
  return ORX_ARG_BEFORE(x, s.value) | (tie & empty);
#endif
}
/* One test per element, and a select (no index comparison). Lanes that kept an integer key of the
 * value as well (one integer compare) took more registers and ran slower on the H200 (f32 2^28:
 * 0.76x of CUB's ArgMin against 0.84x). */
ORX_INLINE orx_state orx_state_absorb(orx_state s, ORX_VALUE_T x, ulong index) {
  if (orx_arg_displaces(x, s))
    s = orx_state_map(x, index);
  return s;
}
#define ORX_STATE_ABSORB orx_state_absorb
/* Whether every element e[j] of a vector is strictly behind lane value[j] (no NaN, no tie): then
 * the vector changes nothing. After the first few vectors almost every vector is such; one
 * compare per element finds them, and the branch is predictable (CPUs, the chunk layout: the
 * numbers are in src/planner/plan_state.c). */
ORX_INLINE int orx_arg_all_behind(const ORX_VALUE_T *value, const ORX_VALUE_T *e) {
  int behind = 1;
  for (int j = 0; j < ORX_VEC; j++)
    behind &= ORX_ARG_BEFORE(value[j], e[j]);
  return behind;
}
ORX_INLINE void orx_state_lanes_absorb(orx_state *lane, const ORX_VALUE_T *c, ulong first) {
#if ORX_STREAM_CONTIGUOUS
  ORX_VALUE_T value[ORX_VEC];
  for (int j = 0; j < ORX_VEC; j++)
    value[j] = lane[j].value;
  if (orx_arg_all_behind(value, c))
    return;
#endif
  /* orx_state_absorb's step, written out: assigning its returned copy of each lane took 76
   * registers on sm_90 where this takes 58. */
  for (int j = 0; j < ORX_VEC; j++)
    if (orx_arg_displaces(c[j], lane[j]))
      lane[j] = orx_state_map(c[j], first + (ulong)j);
}
#define ORX_STATE_LANES_ABSORB orx_state_lanes_absorb
#if ORX_STATE_SPLIT_CHAINS
/* The host's kernels: a chain keeps its lanes' values in one array and their indices in another
 * (lib/orx_stream.cl, ORX_STATE_CHAIN_T), where an array of states made GCC transpose every
 * loaded vector against the lanes' fields (shuffles were most of the loop: f32 2^22 from host
 * memory, PoCL 3.1's 2 cores, 2.5-3.3 -> 1.6-1.7 ms; src/planner/host_plan.h). */
typedef struct orx_arg_chain {
  ORX_VALUE_T value[ORX_VEC];
  ulong index[ORX_VEC];
} orx_arg_chain;
ORX_INLINE orx_state orx_arg_chain_lane(const orx_arg_chain *c, int j) {
  return orx_state_map(c->value[j], c->index[j]);
}
ORX_INLINE orx_arg_chain orx_arg_chain_identity(void) {
  const orx_state none = orx_state_identity();
  orx_arg_chain c;
  for (int j = 0; j < ORX_VEC; j++) {
    c.value[j] = none.value;
    c.index[j] = none.index;
  }
  return c;
}
ORX_INLINE_ALWAYS void orx_arg_chain_absorb(orx_arg_chain *c, TV x, ulong first) {
  ORX_VALUE_T e[ORX_VEC];
  ORX_STORE_V(x, e);
  if (orx_arg_all_behind(c->value, e))
    return;
  for (int j = 0; j < ORX_VEC; j++)
    if (orx_arg_displaces(e[j], orx_arg_chain_lane(c, j))) {
      c->value[j] = e[j];
      c->index[j] = first + (ulong)j;
    }
}
ORX_INLINE orx_arg_chain orx_arg_chain_merge(orx_arg_chain a, orx_arg_chain b) {
  for (int j = 0; j < ORX_VEC; j++) {
    const orx_state s = orx_state_combine(orx_arg_chain_lane(&a, j), orx_arg_chain_lane(&b, j));
    a.value[j] = s.value;
    a.index[j] = s.index;
  }
  return a;
}
ORX_INLINE orx_state orx_arg_chain_state(orx_arg_chain c) {
  orx_state r = orx_arg_chain_lane(&c, 0);
  for (int j = 1; j < ORX_VEC; j++)
    r = orx_state_combine(r, orx_arg_chain_lane(&c, j));
  return r;
}
#define ORX_STATE_CHAIN_T orx_arg_chain
#define ORX_STATE_CHAIN_IDENTITY orx_arg_chain_identity
#define ORX_STATE_CHAIN_ABSORB orx_arg_chain_absorb
#define ORX_STATE_CHAIN_MERGE orx_arg_chain_merge
#define ORX_STATE_CHAIN_STATE orx_arg_chain_state
#endif

#elif ORX_OP_ID == ORX_OP_MINMAX
/* ---- MINMAX: two values, MIN's then MAX's -------------------------------------------------- */
/* Each as itself, or as MIN's and MAX's order keys (lib/orx_state_keys.cl): part_of(op, x) is
 * element x as op's part, part_identity(op) and part_pick(op, a, b) op's identity and choice. */
#if !ORX_STATE_KEYS
typedef ORX_VALUE_T orx_minmax_part;
#define orx_minmax_part_of(op, x) (x)
#define orx_minmax_part_identity(op) ORX_IDENTITY_OF(op)
#define orx_minmax_part_pick(op, a, b)                                                             \
  ((op) == ORX_OP_MIN ? orx_value_min((a), (b)) : orx_value_max((a), (b)))
#endif
typedef struct orx_state {
  orx_minmax_part min, max;
} orx_state;

ORX_INLINE orx_state orx_state_map(ORX_VALUE_T x, ulong index) {
  (void)index;
  orx_state s;
  s.min = orx_minmax_part_of(ORX_OP_MIN, x);
  s.max = orx_minmax_part_of(ORX_OP_MAX, x);
  return s;
}
ORX_INLINE orx_state orx_state_identity(void) {
  orx_state s;
  s.min = orx_minmax_part_identity(ORX_OP_MIN);
  s.max = orx_minmax_part_identity(ORX_OP_MAX);
  return s;
}
ORX_INLINE orx_state orx_state_combine(orx_state a, orx_state b) {
  orx_state s;
  s.min = orx_minmax_part_pick(ORX_OP_MIN, a.min, b.min);
  s.max = orx_minmax_part_pick(ORX_OP_MAX, a.max, b.max);
  return s;
}
#if ORX_STATE_KEYS
ORX_INLINE orx_minmax_result orx_state_result(orx_state s) {
  orx_minmax_result r;
  r.min = orx_value_of_key(ORX_OP_MIN, s.min);
  r.max = orx_value_of_key(ORX_OP_MAX, s.max);
  return r;
}
#define ORX_STATE_RESULT_T orx_minmax_result
#define ORX_STATE_RESULT orx_state_result
#elif ORX_IS_FLOAT
/* Float lanes keep the least and greatest element as integer keys, whose signed order is the
 * floats' with -0.0 below +0.0, negative NaNs below -inf and positive ones above +inf: an
 * integer min and max per element instead of MIN's and MAX's selects with their NaN and
 * signed-zero rules (H200, f32 2^28: 0.88x of the f32 sum with the selects). A NaN shows as a
 * key beyond an infinity's, and makes both values that NaN when the lane becomes a state. */
typedef ORX_ORDER_KEY_T orx_minmax_key; /* lib/orx_order_keys.cl's order, not rotated */
#define orx_minmax_key_of(x) ((orx_minmax_key)orx_order_bits(ORX_AS_BITS(x)))
#define orx_minmax_value_of(k) ORX_FROM_BITS(orx_order_bits((ORX_BITS_T)(k)))
typedef struct orx_minmax_lane {
  orx_minmax_key min, max;
} orx_minmax_lane;
ORX_INLINE orx_minmax_lane orx_minmax_lane_identity(void) {
  orx_minmax_lane l;
  l.min = orx_minmax_key_of(ORX_IDENTITY_OF(ORX_OP_MIN));
  l.max = orx_minmax_key_of(ORX_IDENTITY_OF(ORX_OP_MAX));
  return l;
}
ORX_INLINE orx_minmax_lane orx_minmax_lane_merge(orx_minmax_lane a, orx_minmax_lane b) {
  a.min = b.min < a.min ? b.min : a.min;
  a.max = b.max > a.max ? b.max : a.max;
  return a;
}
ORX_INLINE void orx_minmax_lanes_absorb(orx_minmax_lane *lane, const ORX_VALUE_T *c, ulong first) {
  (void)first;
  for (int j = 0; j < ORX_VEC; j++) {
    const orx_minmax_key k = orx_minmax_key_of(c[j]);
    lane[j].min = k < lane[j].min ? k : lane[j].min;
    lane[j].max = k > lane[j].max ? k : lane[j].max;
  }
}
ORX_INLINE orx_state orx_minmax_lane_state(orx_minmax_lane l) {
  orx_state s;
  s.min = orx_minmax_value_of(l.min);
  s.max = orx_minmax_value_of(l.max);
  const ORX_VALUE_T nan = s.min != s.min ? s.min : s.max;
  if (nan != nan) {
    s.min = nan;
    s.max = nan;
  }
  return s;
}
#define ORX_STATE_LANE_T orx_minmax_lane
#define ORX_STATE_LANE_IDENTITY orx_minmax_lane_identity
#define ORX_STATE_LANE_MERGE orx_minmax_lane_merge
#define ORX_STATE_LANE_STATE orx_minmax_lane_state
#define ORX_STATE_LANES_ABSORB orx_minmax_lanes_absorb
#endif
#if ORX_STATE_SPLIT_CHAINS && !ORX_STATE_KEYS
/* The host's kernels: a chain keeps its lanes' least elements in one array and their greatest
 * in another (as ARGMIN's chain does, for the same reason), integer keys for floats. */
#if ORX_IS_FLOAT
typedef orx_minmax_key orx_minmax_chain_key;
#define orx_minmax_chain_key_of(x) orx_minmax_key_of(x)
#else
typedef ORX_VALUE_T orx_minmax_chain_key;
#define orx_minmax_chain_key_of(x) (x)
#endif
typedef struct orx_minmax_chain {
  orx_minmax_chain_key min[ORX_VEC], max[ORX_VEC];
} orx_minmax_chain;
ORX_INLINE orx_minmax_chain orx_minmax_chain_identity(void) {
  orx_minmax_chain c;
  for (int j = 0; j < ORX_VEC; j++) {
    c.min[j] = orx_minmax_chain_key_of(ORX_IDENTITY_OF(ORX_OP_MIN));
    c.max[j] = orx_minmax_chain_key_of(ORX_IDENTITY_OF(ORX_OP_MAX));
  }
  return c;
}
ORX_INLINE_ALWAYS void orx_minmax_chain_absorb(orx_minmax_chain *c, TV x, ulong first) {
  (void)first;
  ORX_VALUE_T e[ORX_VEC];
  ORX_STORE_V(x, e);
  for (int j = 0; j < ORX_VEC; j++) {
    const orx_minmax_chain_key k = orx_minmax_chain_key_of(e[j]);
    c->min[j] = k < c->min[j] ? k : c->min[j];
    c->max[j] = k > c->max[j] ? k : c->max[j];
  }
}
ORX_INLINE orx_minmax_chain orx_minmax_chain_merge(orx_minmax_chain a, orx_minmax_chain b) {
  for (int j = 0; j < ORX_VEC; j++) {
    a.min[j] = b.min[j] < a.min[j] ? b.min[j] : a.min[j];
    a.max[j] = b.max[j] > a.max[j] ? b.max[j] : a.max[j];
  }
  return a;
}
ORX_INLINE orx_state orx_minmax_chain_state(orx_minmax_chain c) {
  orx_minmax_chain_key least = c.min[0], greatest = c.max[0];
  for (int j = 1; j < ORX_VEC; j++) {
    least = c.min[j] < least ? c.min[j] : least;
    greatest = c.max[j] > greatest ? c.max[j] : greatest;
  }
#if ORX_IS_FLOAT
  orx_minmax_lane l;
  l.min = least;
  l.max = greatest;
  return orx_minmax_lane_state(l);
#else
  orx_state s;
  s.min = least;
  s.max = greatest;
  return s;
#endif
}
#define ORX_STATE_CHAIN_T orx_minmax_chain
#define ORX_STATE_CHAIN_IDENTITY orx_minmax_chain_identity
#define ORX_STATE_CHAIN_ABSORB orx_minmax_chain_absorb
#define ORX_STATE_CHAIN_MERGE orx_minmax_chain_merge
#define ORX_STATE_CHAIN_STATE orx_minmax_chain_state
#endif

#elif ORX_OP_ID == ORX_OP_SUM_WIDE
/* ---- SUM_WIDE: 32-bit values summed in 64 bits (integers wrap modulo 2^64) ---------------- */
#if ORX_TYPE_ID == ORX_F32
#if ORX_NATIVE_VECTORS
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
typedef double orx_state;
#elif ORX_TYPE_ID == ORX_I32 || ORX_TYPE_ID == ORX_U32
typedef ulong orx_state; /* i32: sign-extended; two's-complement bits of the int64 sum */
#else
#error "SUM_WIDE takes 32-bit types"
#endif
ORX_INLINE orx_state orx_state_map(ORX_VALUE_T x, ulong index) {
  (void)index;
#if ORX_TYPE_ID == ORX_I32
  return (orx_state)(long)x;
#else
  return (orx_state)x;
#endif
}
ORX_INLINE orx_state orx_state_identity(void) { return (orx_state)0; }
ORX_INLINE orx_state orx_state_combine(orx_state a, orx_state b) { return a + b; }

#elif ORX_OP_ID == ORX_OP_SUM_COMPENSATED
/* ---- SUM_COMPENSATED: Neumaier's sum; each combine keeps the rounding error of its addition
 * exactly (Fast2Sum with the larger magnitude first) in `error` ------------------------------- */
typedef struct orx_state {
  ORX_VALUE_T sum, error;
} orx_state;
ORX_INLINE orx_state orx_state_map(ORX_VALUE_T x, ulong index) {
  (void)index;
  orx_state s;
  s.sum = x;
  s.error = 0;
  return s;
}
ORX_INLINE orx_state orx_state_identity(void) { return orx_state_map(0, 0); }
ORX_INLINE orx_state orx_state_combine(orx_state a, orx_state b) {
  orx_state s;
  s.sum = a.sum + b.sum;
  const ORX_VALUE_T big = (a.sum < 0 ? -a.sum : a.sum) >= (b.sum < 0 ? -b.sum : b.sum) ? a.sum
                                                                                     : b.sum;
  const ORX_VALUE_T small = big == a.sum ? b.sum : a.sum;
  const ORX_VALUE_T lost = (big - s.sum) + small;
  /* An infinite or NaN sum is the result as it is: its lost part would be NaN. */
  s.error = (s.sum - s.sum == 0) ? a.error + b.error + lost : 0;
  return s;
}
/* Neumaier's step per element: no error term to add, and (for lanes, whose sums only grow by
 * elements) no check for infinities: a lane's error after an infinite sum is NaN, which
 * combine and the result drop. */
ORX_INLINE void orx_state_lanes_absorb(orx_state *lane, const ORX_VALUE_T *c, ulong first) {
  (void)first;
  for (int j = 0; j < ORX_VEC; j++) {
    const ORX_VALUE_T x = c[j], sum = lane[j].sum, t = sum + x;
    const int sum_bigger = (sum < 0 ? -sum : sum) >= (x < 0 ? -x : x);
    lane[j].error += sum_bigger ? (sum - t) + x : (x - t) + sum;
    lane[j].sum = t;
  }
}
#define ORX_STATE_LANES_ABSORB orx_state_lanes_absorb
/* The result is the sum with its error added (none once the sum is infinite or NaN): one value of
 * the type. */
#define ORX_STATE_RESULT_T ORX_VALUE_T
ORX_INLINE ORX_VALUE_T orx_state_result(orx_state s) {
  return s.sum + (s.sum - s.sum == 0 ? s.error : 0);
}
#define ORX_STATE_RESULT orx_state_result

#elif ORX_OP_ID == ORX_OP_MEAN_VAR
/* ---- MEAN_VAR: count, mean and M2 (the sum of squared deviations from the mean), merged as Chan
 * et al. do; in double precision for every type ---------------------------------------------- */
#if ORX_NATIVE_VECTORS
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
typedef struct orx_state {
  ulong count;
  double mean, m2;
} orx_state;
ORX_INLINE orx_state orx_state_map(ORX_VALUE_T x, ulong index) {
  (void)index;
  orx_state s;
  s.count = 1;
  s.mean = (double)x;
  s.m2 = 0;
  return s;
}
ORX_INLINE orx_state orx_state_identity(void) {
  orx_state s;
  s.count = 0;
  s.mean = 0;
  s.m2 = 0;
  return s;
}
ORX_INLINE orx_state orx_state_combine(orx_state a, orx_state b) {
  if (a.count == 0)
    return b;
  if (b.count == 0)
    return a;
  orx_state s;
  s.count = a.count + b.count;
  const double delta = b.mean - a.mean;
  const double b_share = (double)b.count / (double)s.count;
  s.mean = a.mean + delta * b_share;
  s.m2 = a.m2 + b.m2 + delta * delta * (double)a.count * b_share;
  return s;
}
/* Welford's step per element. The lanes have absorbed as many elements each, so one division
 * (tens of instructions in double) serves the whole vector. */
ORX_INLINE void orx_state_lanes_absorb(orx_state *lane, const ORX_VALUE_T *c, ulong first) {
  (void)first;
  const ulong count = lane[0].count + 1;
  const double share = 1.0 / (double)count;
  for (int j = 0; j < ORX_VEC; j++) {
    const double x = (double)c[j], delta = x - lane[j].mean;
    lane[j].count = count;
    lane[j].mean += delta * share;
    lane[j].m2 += delta * (x - lane[j].mean);
  }
}
#define ORX_STATE_LANES_ABSORB orx_state_lanes_absorb

#elif ORX_OP_ID == ORX_OP_SUM_REPRODUCIBLE
/* ---- SUM_REPRODUCIBLE: binned summation, the same bits in any order ------------------------ */
#include "lib/orx_repro.cl"

#endif /* ORX_OP_ID */

/* 16-bit elements (ORX_RESULT_NARROW): ARGMIN and ARGMAX return the element in the first 2 bytes
 * of ocl_reduce_arg's value, MINMAX two elements; their states stay f32's. */
#if ORX_RESULT_NARROW != ORX_NO_TYPE
#if ORX_OP_ID == ORX_OP_ARGMIN || ORX_OP_ID == ORX_OP_ARGMAX
/* The value's 8 bytes as two words, as the f32 state lays them out (little-endian devices: the
 * element in the first 2 bytes). */
typedef struct orx_narrow_result {
  uint value, zero;
  ulong index;
} orx_narrow_result;
ORX_INLINE orx_narrow_result orx_narrow_of(orx_state s) {
  orx_narrow_result r;
  r.value = orx_narrow_bits(s.value);
  r.zero = 0;
  r.index = s.index;
  return r;
}
#define ORX_STATE_NARROW orx_narrow_of
#define ORX_STATE_NARROW_T orx_narrow_result
#elif ORX_OP_ID == ORX_OP_MINMAX
typedef struct orx_narrow_result {
  ushort min, max;
} orx_narrow_result;
ORX_INLINE orx_narrow_result orx_narrow_of(orx_state s) {
  orx_narrow_result r;
  r.min = orx_narrow_bits(s.min);
  r.max = orx_narrow_bits(s.max);
  return r;
}
#define ORX_STATE_NARROW orx_narrow_of
#define ORX_STATE_NARROW_T orx_narrow_result
#endif
#endif

#endif /* ORX_STATE_OPS_CL */
