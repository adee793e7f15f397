/* =================================================================================================
 * reduce_multi.cl: one pass over an array that reduces it with ORX_SLOTS operators at once
 * (operator slots, lib/orx_ops.cl), for example sum, min and max together. Result k goes to
 * out[out_index + k * out_stride]. K below is ORX_SLOTS, Q is ORX_MR_Q (K rounded up to a power of
 * two).
 *
 *   1. Each work-item streams its share once, with K accumulators (orx_span_share_ops).
 *   2. The work-group combines them. GPUs: the multireduction (lib/orx_multireduce.cl): lanes in
 *      groups of Q merge the K reductions while they
 *      exchange, Q - 1 merges instead of K log2(Q) exchanges, and lane l of each group ends with
 *      reduction l mod Q; a tree over the groups of lanes (orx_lm_tree_op) leaves result k in
 *      work-item k. CPUs (ORX_FINISH_SERIAL): the work-items' values go to local memory and
 *      work-item 0 combines them in order, one barrier instead of a merge's two per level.
 *   3. As in reduce_all.cl: one group writes the results; otherwise each group writes K partials
 *      (partials[k * groups + group]) and the last group to finish (lib/orx_finish.cl) combines
 *      them, serially on CPUs, else with all its work-items; or, with ORX_FINISH_LAUNCH, one
 *      group of this kernel built with ORX_FINISH_ONLY does.
 *
 * The combine order is fixed, so results are deterministic. Where one work-item combines for every
 * operator, the loop over operators is unrolled, so that each combine has a constant operator.
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE (a multiple of ORX_MR_Q), at most as many groups as
 * partials has room for K of. `in` + `offset` + `head` must be aligned to ORX_VEC elements.
 * ============================================================================================== */
#include "lib/orx_finish.cl"
#include "lib/orx_multireduce.cl"
#include "lib/orx_stream.cl"

#if ORX_STATE
#error "reduce_multi.cl applies scalar operators only (ORX_STATE 0)"
#endif

/* The results of the `groups` partials of every operator at `done` (partials[k * groups + g]),
 * to out (every work-item calls it). They were written by other work-groups of this launch or by
 * the launch before. */
ORX_INLINE void orx_partials_results(ORX_GLOBAL_PTR volatile const T *done, uint groups,
                                     ORX_GLOBAL_PTR T *out, ulong out_stride,
                                     ORX_LOCAL_PTR T *scratch) {
  const uint lid = (uint)get_local_id(0);
#if ORX_FINISH_SERIAL
  /* Work-item 0 combines the partials in group order. */
  (void)scratch;
  if (lid == 0) {
#pragma unroll
    for (uint k = 0; k < ORX_SLOTS; k++) {
      T acc = done[(ulong)k * groups];
      for (uint g = 1; g < groups; g++)
        acc = orx_combine_op(orx_slot_op(k), acc, done[(ulong)k * groups + g]);
      out[k * out_stride] = acc;
    }
  }
#else
  /* Work-items k, k + Q, k + 2Q, ... take operator k's partials in turn, then a tree. */
  const uint k = lid % ORX_MR_Q;
  T y = orx_slot_identity(k);
  if (k < ORX_SLOTS)
    for (uint g = lid / ORX_MR_Q; g < groups; g += ORX_WG_SIZE / ORX_MR_Q)
      y = orx_combine_op(orx_slot_op(k), y, done[(ulong)k * groups + g]);
  y = orx_lm_tree_op(y, ORX_MR_Q, orx_slot_op(k), scratch);
  if (lid < ORX_SLOTS)
    out[lid * out_stride] = y;
#endif
  barrier(CLK_GLOBAL_MEM_FENCE); /* the stores' region not the last: reduce_all.cl */
}

__kernel ORX_KERNEL_ATTR void orx_reduce_multi(__global const ORX_ELEM_T *ORX_RESTRICT in,
                                               ulong offset, ulong n, ulong head, ulong first,
                                               __global T *partials, __global uint *counter,
                                               __global T *out, ulong out_index, ulong out_stride) {
#if !ORX_FINISH_LAUNCH && !ORX_FINISH_ONLY
  __local uint is_last_group;
#endif
#if ORX_FINISH_SERIAL
  __local T gathered[ORX_SLOTS * ORX_WG_SIZE];
  ORX_LOCAL_PTR T *scratch = gathered; /* unused by the serial finish */
#else
  __local T scratch[2 * ORX_WG_SIZE];
#endif
  (void)first; /* scalar operators take no index */
  const uint lid = (uint)get_local_id(0);
  const uint groups = (uint)get_num_groups(0);
  const uint group = (uint)get_group_id(0);
#if ORX_FINISH_ONLY
  /* A finish by launch's second launch: one group over the first launch's n partials of each
   * operator. */
  (void)in, (void)offset, (void)head, (void)counter, (void)groups, (void)group;
  orx_partials_results(partials, (uint)n, out + out_index, out_stride, scratch);
#else

  /* 1. This work-item's share, every operator at once; the padding reductions stay at their
   * identity. */
  T v[ORX_MR_Q];
  ORX_STREAM_STAGE(stage);
  orx_span_share_ops(in + offset, n, head, get_global_id(0), get_global_size(0), stage, v);
#pragma unroll
  for (uint r = ORX_SLOTS; r < ORX_MR_Q; r++)
    v[r] = orx_slot_identity(r);

#if ORX_FINISH_SERIAL
  /* 2. Work-item 0 combines the group in work-item order, operator by operator. */
#pragma unroll
  for (uint k = 0; k < ORX_SLOTS; k++)
    gathered[k * ORX_WG_SIZE + lid] = v[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
#pragma unroll
    for (uint k = 0; k < ORX_SLOTS; k++) {
      T acc = gathered[k * ORX_WG_SIZE];
      for (uint i = 1; i < ORX_WG_SIZE; i++)
        acc = orx_combine_op(orx_slot_op(k), acc, gathered[k * ORX_WG_SIZE + i]);
      if (groups == 1)
        out[out_index + k * out_stride] = acc;
      else
        partials[(ulong)k * groups + group] = acc;
    }
  }
  if (groups == 1)
    return;
#if !ORX_FINISH_LAUNCH
  if (!orx_last_group(counter, 1, (uint)get_num_groups(0), &is_last_group))
    return;
  orx_partials_results(partials, groups, out + out_index, out_stride, scratch);
#endif
#else
  const uint k = lid % ORX_MR_Q; /* the reduction this work-item ends up with */

  /* 2. Reduction k of the whole group, in work-item k. */
  T x = orx_mr_reduce(v, k, orx_mr_can_shuffle(), scratch);
  x = orx_lm_tree_op(x, ORX_MR_Q, orx_slot_op(k), scratch);
  if (groups == 1) {
    if (lid < ORX_SLOTS)
      out[out_index + lid * out_stride] = x;
    return;
  }

  /* 3. Publish the partials; the last group to arrive finishes. */
  if (lid < ORX_SLOTS)
    partials[(ulong)lid * groups + group] = x;
#if !ORX_FINISH_LAUNCH
  if (!orx_last_group(counter, ORX_SLOTS, (uint)get_num_groups(0), &is_last_group))
    return;
  orx_partials_results(partials, groups, out + out_index, out_stride, scratch);
#endif
#endif
#endif /* ORX_FINISH_ONLY */
}
