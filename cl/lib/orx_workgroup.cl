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
 * The exchanges are the collectives' (ocl_reduce_collectives.inc), instantiated here for the
 * kernel's accumulator A under the names orx_...: orx_sg_exchange, orx_mr_merge,
 * orx_multireduce_at, orx_wg_combine_subgroups, ...
 *
 * Requires: one-dimensional work-groups of ORX_WG_SIZE (a power of two) work-items, a multiple of
 * the subgroup size, and `scratch` of 2 * ORX_WG_SIZE accumulators (A) in local memory.
 * ============================================================================================== */
#ifndef ORX_WORKGROUP_CL
#define ORX_WORKGROUP_CL

#include "lib/orx_ops.cl"
#include "lib/orx_subgroup.cl"

#if ORX_SG_IMPL == ORX_SG_INTEL && ORX_TYPE_BYTES == 8 && !ORX_IS_FLOAT && !ORX_STATE
#pragma OPENCL EXTENSION cl_intel_subgroups_long : enable
#endif

/* ---- The collectives for the kernel's accumulator ------------------------------------------ */

#define ORX_COLL_NAME(name) orx_##name
#define ORX_COLL_T A
#define ORX_COLL_COMBINE(a, b) orx_combine(a, b)
#define ORX_COLL_COMBINE_OP(op, a, b) orx_combine_op(op, a, b)
#define ORX_COLL_IDENTITY ORX_IDENTITY
#define ORX_COLL_SLOT_OP(r) orx_slot_op(r)
/* Scalars shuffle as themselves where the implementation shuffles typed values; states, and
 * everything on NVIDIA's OpenCL, as 32-bit words. */
#if ORX_SG_HAS_VALUE_SHUFFLE && !ORX_STATE
#define ORX_COLL_SHUFFLE_XOR(x, mask) orx_sg_shuffle_xor_value(x, mask)
#endif
/* The reduce built-ins exist for add, min and max; the host asks for one only where its
 * semantics are the operator's (ORX_OPF_SG_BUILTIN in the contract). */
#if ORX_SG_IMPL == ORX_SG_BUILTIN && ORX_SG_BUILTIN_REDUCE
#define ORX_SG_HAS_REDUCE 1
#if ORX_OP_ID == ORX_OP_SUM
#define ORX_COLL_SG_REDUCE(x) sub_group_reduce_add(x)
#elif ORX_OP_ID == ORX_OP_MIN
#define ORX_COLL_SG_REDUCE(x) sub_group_reduce_min(x)
#elif ORX_OP_ID == ORX_OP_MAX
#define ORX_COLL_SG_REDUCE(x) sub_group_reduce_max(x)
#else
#error "ORX_SG_BUILTIN_REDUCE is set for an operator without a sub_group_reduce built-in"
#endif
#else
#define ORX_SG_HAS_REDUCE 0
#endif
#include "ocl_reduce_collectives.inc"

/* SUM_REPRODUCIBLE's own work-group reduction, where it has one (ORX_STATE_GROUP_REDUCE). */
#include "lib/orx_repro_group.cl"

/* ---- The kernel's operator (ORX_OP_ID) ------------------------------------------------------ */

/* Tree in local memory over the lanes that carry the same reduction: at each level lane l < stride
 * takes lane l + stride's value with the lane's operator `op`. Stops once lanes [0, keep) hold
 * `keep` complete results. Commutative operators only. */
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
#endif

/* ---- The work-group reduction both paths share -------------------------------------------- */

/* Reduces the pairs (a, b) of all work-items of the group; the result is valid in work-item 0.
 * With ORX_ORDERED, work-item w's a and b (in that order) cover the indices right before work-item
 * w + 1's, and the result is their combination in index order: a subgroup butterfly (each
 * exchange puts the lower lane first) or the ordered tree. */
ORX_INLINE A orx_wg_reduce2(A a, A b, ORX_LOCAL_PTR A *scratch) {
#if ORX_ORDERED
  return orx_workgroup_reduce(orx_combine(a, b), scratch);
#elif defined(ORX_STATE_GROUP_REDUCE) /* the operator's own (lib/orx_repro_group.cl) */
  return ORX_STATE_GROUP_REDUCE(orx_combine(a, b), scratch);
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
