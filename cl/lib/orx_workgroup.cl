/* =================================================================================================
 * orx_workgroup.cl: combining the partial results of one work-group's work-items.
 *
 * Each work-item arrives with TWO independent partials, a and b (the even and odd components of
 * its vector accumulator). The first exchange merges them, as in Parker & MacKinnon's
 * multireduction: after it, lanes with bit 0 clear carry a and the others carry b, so the two
 * reductions share every later exchange instead of taking one each.
 *
 *   SUBGROUP path (§2): a merge is two shuffle-xors and one predicated select; then a butterfly
 *   over the subgroup, one value per subgroup to local memory, and one more subgroup reduction.
 *   With only reduce built-ins (ORX_SG_BUILTIN), a and b are combined first and each subgroup
 *   reduces with the built-in.
 *
 *   LOCAL path (§6, doubled local memory): each lane writes both a and b, two slots per lane, and
 *   reads back only the one it keeps; then a tree over the lanes in local memory.
 *
 * Every exchange combines the lower lane's value first, so the combine order is fixed: results are
 * run-to-run deterministic. Subgroup operations are always called by the whole work-group, because
 * some implementations (PoCL's CPU device) build them from work-group barriers.
 *
 * Requires: one-dimensional work-groups of ORX_WG_SIZE (a power of two) work-items, a multiple of
 * the subgroup size, and `scratch` of 2 * ORX_WG_SIZE accumulators (A) in local memory.
 * ============================================================================================== */
#ifndef ORX_WORKGROUP_CL
#define ORX_WORKGROUP_CL

#include "lib/orx_split.cl"
#include "lib/orx_subgroup.cl"

/* ---- LOCAL path: doubled local memory -------------------------------------------------------- */

/* The combine a merge makes: lanes with `mask` clear keep reduction a (operator op_a) and put their
 * own value first; the others keep b (op_b) and put their partner's first. So every exchange
 * combines the lower lane's value first, and the order is fixed. */
ORX_INLINE A orx_merge_pick(A a, A b, A a_other, A b_other, uint upper, int op_a, int op_b) {
  const A kept = upper ? b : a;
  const A other = upper ? b_other : a_other;
  return orx_combine_op(upper ? op_b : op_a, upper ? other : kept, upper ? kept : other);
}

/* Merges two reductions into one value per lane through local memory (§6): each lane writes both
 * a and b (two slots per lane) and reads back the one its partner across `mask` keeps. */
ORX_INLINE A orx_lm_merge_ops(A a, A b, uint mask, int op_a, int op_b,
                              ORX_LOCAL_PTR A *scratch) {
  const uint lid = (uint)get_local_id(0);
  const uint upper = lid & mask;
  scratch[lid] = a;
  scratch[lid + ORX_WG_SIZE] = b;
  barrier(CLK_LOCAL_MEM_FENCE);
  /* The partner's a (lower lanes) or b (upper lanes): the same value for both outputs. */
  const A other = scratch[(lid ^ mask) + (upper ? ORX_WG_SIZE : 0u)];
  barrier(CLK_LOCAL_MEM_FENCE);
  return orx_merge_pick(a, b, other, other, upper, op_a, op_b);
}

/* Tree in local memory over the lanes that carry the same reduction: at each level lane l < stride
 * takes lane l + stride's value with the lane's operator `op`. Stops once lanes [0, keep) hold
 * `keep` complete results. */
ORX_INLINE A orx_lm_tree_op(A x, uint keep, int op, ORX_LOCAL_PTR A *scratch) {
  const uint lid = (uint)get_local_id(0);
  for (uint stride = ORX_WG_SIZE / 2; stride >= keep && stride > 0; stride >>= 1) {
    scratch[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      x = orx_combine_op(op, x, scratch[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return x;
}

/* ---- SUBGROUP path --------------------------------------------------------------------------- */

#if ORX_SG_HAS_SHUFFLE
/* §2 merge: two shuffle-xors and a predicated select; lanes with `mask` clear continue reduction
 * a (operator op_a), the others reduction b (op_b). */
ORX_INLINE A orx_sg_merge_ops(A a, A b, uint mask, int op_a, int op_b) {
  const A a_other = orx_sg_shuffle_xor(a, mask);
  const A b_other = orx_sg_shuffle_xor(b, mask);
  return orx_merge_pick(a, b, a_other, b_other, orx_sg_lane() & mask, op_a, op_b);
}
#endif

/* ---- The kernel's operator (ORX_OP_ID) ------------------------------------------------------ */

ORX_INLINE A orx_lm_merge(A a, A b, uint mask, ORX_LOCAL_PTR A *scratch) {
  return orx_lm_merge_ops(a, b, mask, ORX_OP_ID, ORX_OP_ID, scratch);
}
ORX_INLINE A orx_lm_tree(A x, uint keep, ORX_LOCAL_PTR A *scratch) {
  return orx_lm_tree_op(x, keep, ORX_OP_ID, scratch);
}
#if ORX_SG_HAS_SHUFFLE
ORX_INLINE A orx_sg_merge(A a, A b, uint mask) {
  return orx_sg_merge_ops(a, b, mask, ORX_OP_ID, ORX_OP_ID);
}

/* One butterfly exchange across `mask`; the lower lane's value goes first. The operands are
 * ordered with selects and combined once: PoCL 5.0 miscompiles a select between two inlined
 * combines around its barrier-based shuffles (it overwrites the stack of the work-group
 * function), and one combine is less code anyway. */
ORX_INLINE A orx_sg_exchange(A x, uint mask) {
  const A other = orx_sg_shuffle_xor(x, mask);
  const int upper = (orx_sg_lane() & mask) != 0;
  return orx_combine(upper ? other : x, upper ? x : other);
}

/* Reduction over the whole subgroup; every lane gets the same bits. */
ORX_INLINE A orx_sg_reduce(A x) {
  for (uint mask = 1; mask < orx_sg_size(); mask <<= 1)
    x = orx_sg_exchange(x, mask);
  return x;
}
#elif ORX_SG_HAS_REDUCE
ORX_INLINE A orx_sg_reduce(A x) { return orx_sg_reduce_builtin(x); }
#endif

#if ORX_SG_HAS_SHUFFLE || ORX_SG_HAS_REDUCE
/* Combines the subgroups' results (x, valid in each subgroup's lane 0) into work-item 0: each
 * lane combines a contiguous run of them, in order, and one more subgroup reduction the lanes.
 * Every subgroup runs the final reduction so that the call stays uniform over the work-group. */
ORX_INLINE A orx_wg_combine_subgroups(A x, ORX_LOCAL_PTR A *scratch) {
  const uint count = orx_sg_count();
  if (count == 1)
    return x;
  const uint lane = orx_sg_lane();
  if (lane == 0)
    scratch[orx_sg_id()] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong begin, end;
  orx_chunk_of(count, lane, orx_sg_size(), &begin, &end);
  A y = ORX_IDENTITY;
  for (ulong i = begin; i < end; i++)
    y = orx_combine(y, scratch[i]);
  barrier(CLK_LOCAL_MEM_FENCE);
  return orx_sg_reduce(y);
}
#endif

#if ORX_ORDERED
/* Tree in local memory that keeps index order: at the level of `stride`, lane l (a multiple of
 * 2 * stride) takes lane l + stride's value, which covers the lanes right after its own. */
ORX_INLINE A orx_lm_tree_ordered(A x, ORX_LOCAL_PTR A *scratch) {
  const uint lid = (uint)get_local_id(0);
  for (uint stride = 1; stride < ORX_WG_SIZE; stride <<= 1) {
    scratch[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid % (2 * stride) == 0)
      x = orx_combine(x, scratch[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return x;
}
#endif

/* ---- The work-group reduction both paths share -------------------------------------------- */

/* Reduces the pairs (a, b) of all work-items of the group; the result is valid in work-item 0.
 * With ORX_ORDERED, work-item w's a and b (in that order) cover the indices right before work-item
 * w + 1's, and the result is their combination in index order: a subgroup butterfly (each
 * exchange puts the lower lane first) or the ordered tree. */
ORX_INLINE A orx_wg_reduce2(A a, A b, ORX_LOCAL_PTR A *scratch) {
#if ORX_ORDERED && ORX_SG_HAS_SHUFFLE
  return orx_wg_combine_subgroups(orx_sg_reduce(orx_combine(a, b)), scratch);
#elif ORX_ORDERED
  return orx_lm_tree_ordered(orx_combine(a, b), scratch);
#elif ORX_SG_HAS_SHUFFLE
  const uint size = orx_sg_size();
  A x;
  if (size > 1) {
    x = orx_sg_merge(a, b, 1);
    for (uint mask = 2; mask < size; mask <<= 1)
      x = orx_sg_exchange(x, mask);
    x = orx_sg_exchange(x, 1); /* lane 0: reduction a, then reduction b */
  } else {
    x = orx_combine(a, b);
  }
  return orx_wg_combine_subgroups(x, scratch);
#elif ORX_SG_HAS_REDUCE
  return orx_wg_combine_subgroups(orx_sg_reduce(orx_combine(a, b)), scratch);
#else
  return orx_lm_tree(orx_lm_merge(a, b, 1, scratch), 1, scratch);
#endif
}

#endif /* ORX_WORKGROUP_CL */
