/* =================================================================================================
 * orx_state.cl: the kernel's operator when its accumulator is a structured operator's state
 * (ORX_STATE, included by lib/orx_ops.cl in place of the scalar operators). It gives the kernels
 * the same interface over the state type A:
 *
 *   ORX_IDENTITY, orx_combine(a, b)   the operator's identity() and combine(a, b)
 *   ORX_MAP(x, index)                  an element (with its index in the reduction) as a state:
 *                                      map(x, index), or x itself with ORX_INPUT_STATES, or
 *                                      a user pair operator's pair_map(x.a, x.b, index)
 *   orx_absorb(a, x, index)            combine(a, map(x, index)) where every element a holds has
 *                                      a lower index than x (a built-in's cheaper step, if any)
 *   orx_result(a), ORX_RESULT_T        what the kernel stores: the state, or the operator's
 *                                      projection of it (ORX_PARTIAL_OUT 0)
 *   orx_combine_op, orx_slot_op, ...   the operator slots, for code shared with multi-operator
 *                                      kernels: one slot, the operator
 *
 * The operator is the built-in structured operator ORX_OP_ID (lib/orx_state_ops.cl) or, for
 * ORX_OP_CUSTOM, the user's source text ahead of the kernel, whose names the host defines
 * (ORX_HOST_NAMES in the contract). Either way only the names below are used.
 *
 * States cross subgroups as 32-bit words (lib/orx_subgroup.cl) and local memory as whole structs.
 * ============================================================================================== */
#ifndef ORX_STATE_CL
#define ORX_STATE_CL

#include "lib/orx_types.cl"

#if ORX_OP_ID != ORX_OP_CUSTOM
#include "lib/orx_state_ops.cl"
#endif

#define A ORX_STATE_T

ORX_INLINE A orx_state_identity_of(void) { return ORX_STATE_IDENTITY(); }
#define ORX_IDENTITY orx_state_identity_of()
ORX_INLINE A orx_combine(A a, A b) { return ORX_STATE_COMBINE(a, b); }

#if ORX_INPUT_STATES
#define ORX_MAP(x, index) (x)
#elif ORX_PAIR_OP == ORX_PAIR_USER /* x holds a pair (lib/orx_types.cl) */
#define ORX_MAP(x, index) ORX_STATE_PAIR_MAP((x).a, (x).b, (ulong)(index))
#else
#define ORX_MAP(x, index) ORX_STATE_MAP((x), (ulong)(index))
#endif
#if defined(ORX_STATE_ABSORB) && !ORX_INPUT_STATES
#define orx_absorb(a, x, index) ORX_STATE_ABSORB((a), (x), (ulong)(index))
#else
#define orx_absorb(a, x, index) orx_combine((a), ORX_MAP((x), (index)))
#endif

/* What the kernel stores. Operators that project their state define ORX_STATE_RESULT and
 * ORX_STATE_RESULT_T (built-ins only); those whose results hold elements, ORX_STATE_NARROW and
 * ORX_STATE_NARROW_T for 16-bit elements (ORX_RESULT_NARROW). */
#if !ORX_PARTIAL_OUT && defined(ORX_STATE_NARROW)
#define ORX_RESULT_T ORX_STATE_NARROW_T
#define orx_result(x) ORX_STATE_NARROW(x)
#elif ORX_PARTIAL_OUT || !defined(ORX_STATE_RESULT)
#define ORX_RESULT_T A
#define orx_result(x) (x)
#else
#define ORX_RESULT_T ORX_STATE_RESULT_T
#define orx_result(x) ORX_STATE_RESULT(x)
#endif

/* One slot: the operator. */
#define orx_combine_op(op, a, b) orx_combine((a), (b))
#define orx_combine_op_v(op, a, b) orx_combine((a), (b))
#define orx_slot_op(k) 0
#define orx_slot_identity(k) ORX_IDENTITY
#define orx_identity_op(op) ORX_IDENTITY

/* A state as 32-bit words, for volatile reads. */
#define ORX_STATE_WORDS ((sizeof(A) + 3) / 4)
ORX_WORDS_UNION(orx_state_words, A, state);

/* An element of all-zero bytes: a filler that is never mapped (elements may be structs, which
 * no cast makes). */
ORX_INLINE T orx_zero_element(void) {
  union {
    T element;
    uchar bytes[sizeof(T)];
  } u;
  for (uint k = 0; k < sizeof(T); k++)
    u.bytes[k] = 0;
  return u.element;
}

/* p[i] of states that other work-groups wrote, read through volatile words. */
ORX_INLINE A orx_read_volatile(ORX_GLOBAL_PTR volatile const A *p, ulong i) {
  ORX_GLOBAL_PTR volatile const uint *words =
      (ORX_GLOBAL_PTR volatile const uint *)(ORX_GLOBAL_PTR volatile const void *)(p + i);
  orx_state_words u;
  for (uint k = 0; k < ORX_STATE_WORDS; k++)
    u.w[k] = words[k];
  return u.state;
}

#endif /* ORX_STATE_CL */
