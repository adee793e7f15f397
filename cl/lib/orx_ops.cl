/* =================================================================================================
 * orx_ops.cl: the kernel's operator (ids and facts in orx_contract.h), over its accumulator type A.
 * Kernels combine values only through these functions and pad only with identities, so a scalar
 * operator is its id and facts in the contract plus its ORX_APPLY_ macro (lib/orx_apply.cl) and
 * switch cases here, and every path and backend gets it. With ORX_STATE the accumulator is a
 * structured operator's state, and lib/orx_state.cl gives the same interface over it.
 *
 *   orx_combine(a, b), orx_combine_v(a, b)   the kernel's operator ORX_OP_ID
 *   orx_combine_op(op, a, b)                 any operator by id (with a constant `op` it folds
 *                                            to one operator)
 *   orx_slot_op(k), orx_slot_identity(k)     the operators of a kernel that applies ORX_SLOTS of
 *                                            them at once (1 for single-operator kernels: slot 0
 *                                            is ORX_OP_ID)
 *
 * Integer SUM and PROD wrap modulo 2^bits: they compute in the unsigned type of the same width
 * (ORX_OPF_UNSIGNED: the host picks the compute type), whose bits equal two's-complement signed
 * wrapping, so no kernel has signed overflow.
 * ============================================================================================== */
#ifndef ORX_OPS_CL
#define ORX_OPS_CL

#include "lib/orx_apply.cl"

#if ORX_STATE
/* The accumulator is the operator's state: the same interface over it. */
#include "lib/orx_state.cl"
#else

#if ORX_IS_FLOAT && (ORX_OP_FLAGS_OF(ORX_OP_ID) & ORX_OPF_INTEGER_ONLY)
#error "ORX_OP_ID is defined on integer types only"
#endif

/* A: the accumulator, one value of the compute type. An element enters it as it is (its index
 * only matters to state operators), and results are accumulators. */
#define A T
#define ORX_MAP(x, index) (x)
#define orx_absorb(a, x, index) orx_combine((a), (x))
#define orx_result(x) (x)
#define ORX_RESULT_T T
/* Partials of other work-groups, read through a volatile pointer. */
#define orx_read_volatile(p, i) ((p)[i])

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

/* The kernel's operator. */
ORX_INLINE T orx_combine(T a, T b) { return orx_combine_op(ORX_OP_ID, a, b); }
ORX_INLINE TV orx_combine_v(TV a, TV b) { return orx_combine_op_v(ORX_OP_ID, a, b); }
#define ORX_IDENTITY ORX_IDENTITY_OF(ORX_OP_ID)

/* Operator slot k (k < 8): called with k known at compile time (unrolled loops), each call folds
 * to one operator. Slots from ORX_SLOTS on repeat slot 0, so the padding reductions of the
 * multireduction (a power of two of them) are harmless. */
ORX_INLINE int orx_slot_op(uint k) {
#if ORX_SLOTS == 1
  (void)k; /* one operator: a constant, whatever k is (segment kernels index by lane) */
  return (int)((ulong)(ORX_SLOT_OPS)&0xffu);
#else
  return (int)(((ulong)(ORX_SLOT_OPS) >> (8 * (k < ORX_SLOTS ? k : 0u))) & 0xffu);
#endif
}
ORX_INLINE T orx_identity_op(int op) { return ORX_IDENTITY_OF(op); }
ORX_INLINE T orx_slot_identity(uint k) { return orx_identity_op(orx_slot_op(k)); }

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

#endif /* ORX_STATE */

/* Stores x as result i of p (ORX_RESULT_T, what orx_result makes of it). Every kernel stores its
 * results and partials through this one macro, so that a result narrower than the kernel's
 * compute type converts where it is stored (docs/design/half-and-pairs.md): MIN and MAX of 16-bit
 * elements return one of them, which converts back exactly (partials stay f32). */
#if ORX_RESULT_NARROW != ORX_NO_TYPE && !ORX_PARTIAL_OUT && !ORX_STATE
#define ORX_NARROW_RESULT 1
#undef ORX_RESULT_T
#define ORX_RESULT_T ushort
#define ORX_WRITE_RESULT(p, i, x) ((p)[i] = orx_narrow_bits(orx_result(x)))
#elif ORX_ELEM_KEYS && !ORX_PARTIAL_OUT /* keys back to the floats' bits (lib/orx_types.cl) */
#define ORX_NARROW_RESULT 0
#undef ORX_RESULT_T
#define ORX_RESULT_T ORX_BITS_T
#define ORX_WRITE_RESULT(p, i, x) ((p)[i] = orx_order_bits_of(ORX_OP_ID, orx_result(x)))
#else
#define ORX_NARROW_RESULT 0
#define ORX_WRITE_RESULT(p, i, x) ((p)[i] = orx_result(x))
#endif

#endif /* ORX_OPS_CL */
