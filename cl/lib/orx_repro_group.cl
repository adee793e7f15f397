/* =================================================================================================
 * orx_repro_group.cl: SUM_REPRODUCIBLE's states (lib/orx_repro.cl) of a work-group, combined in
 * two steps rather than as a tree of states: the group's top bin (the largest) and flags, then
 * every state raised to that bin once and the folds summed as integers. The same state as any
 * tree of combines: raising drops whole folds and moves the rest (a linear map of the folds),
 * raising by r then s is raising by r + s, and integer sums do not depend on order.
 * A tree exchanges 40 bytes and raises both sides at each of its levels, with every warp of a
 * one-wave grid in that tail at once: on an H100, f32 of 2^24 through CUDA, the work-group's
 * tree and the last group's took 3.4-3.9 us each of the 6.6 us the reproducible sum cost beyond
 * the plain sum; with this, 1.08-1.14x faster (docs/perf/h100-repro-group-split.txt).
 * Where subgroups shuffle and the planner asks (ORX_STATE_GROUP_SPLIT, plan_state.c): NVIDIA's
 * OpenCL compiler gives the kernel 74 (f32) and 80 (f64) registers for it, against 64 for the
 * tree, and ignores a register cap (-cl-nv-maxrregcount, measured; OpenCL C has no launch
 * bounds), so there whole arrays take it with three groups per SM planned, and segments keep the
 * tree. Without shuffles, the tree in local memory (lib/orx_workgroup.cl), which this would
 * double in barriers. Every work-item of the group calls it; the result is valid in work-item 0.
 *
 * Included by lib/orx_workgroup.cl (after lib/orx_subgroup.cl), not by orx_repro.cl: a program
 * whose text names no subgroup define is one program on every path (exec/program.c).
 * ============================================================================================== */
#ifndef ORX_REPRO_GROUP_CL
#define ORX_REPRO_GROUP_CL

#if ORX_STATE && ORX_OP_ID == ORX_OP_SUM_REPRODUCIBLE && ORX_SG_HAS_SHUFFLE &&                    \
    ORX_STATE_GROUP_SPLIT
ORX_INLINE long orx_rp_shuffle_xor_long(long v, uint mask) {
  const uint low = orx_sg_shuffle_xor_u32((uint)v, mask);
  const uint high = orx_sg_shuffle_xor_u32((uint)((ulong)v >> 32), mask);
  return (long)((ulong)high << 32 | (ulong)low);
}
ORX_INLINE orx_state orx_rp_group_reduce(orx_state x, ORX_LOCAL_PTR orx_state *scratch) {
  /* The subgroups' count from the group's size: a constant where subgroups are warps. */
  const uint size = orx_sg_size(), lane = orx_sg_lane(), count = ORX_WG_SIZE / size;
  /* scratch as words: each subgroup's bin and flags, then its folds (no barrier between). */
  ORX_LOCAL_PTR int *tops = (ORX_LOCAL_PTR int *)scratch;
  ORX_LOCAL_PTR long *folds = (ORX_LOCAL_PTR long *)scratch + count;
  int bin = x.bin, flags = x.flags;
  for (uint mask = 1; mask < size; mask <<= 1) {
    const int other = (int)orx_sg_shuffle_xor_u32((uint)bin, mask);
    flags |= (int)orx_sg_shuffle_xor_u32((uint)flags, mask);
    bin = other > bin ? other : bin;
  }
  if (count > 1) { /* every work-item takes every subgroup's */
    if (lane == 0) {
      tops[2 * orx_sg_id()] = bin;
      tops[2 * orx_sg_id() + 1] = flags;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < count; i++) {
      bin = tops[2 * i] > bin ? tops[2 * i] : bin;
      flags |= tops[2 * i + 1];
    }
  }
  orx_rp_raise(&x, bin);
  x.flags = flags;
  for (uint mask = 1; mask < size; mask <<= 1)
    for (int j = 0; j < ORX_RP_K; j++)
      x.units[j] += orx_rp_shuffle_xor_long(x.units[j], mask);
  if (count > 1) { /* work-item 0 adds the other subgroups' folds */
    if (lane == 0)
      for (int j = 0; j < ORX_RP_K; j++)
        folds[orx_sg_id() * ORX_RP_K + j] = x.units[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
      for (uint i = 1; i < count; i++)
        for (int j = 0; j < ORX_RP_K; j++)
          x.units[j] += folds[i * ORX_RP_K + j];
    barrier(CLK_LOCAL_MEM_FENCE); /* scratch is the caller's again */
  }
  return x;
}
#define ORX_STATE_GROUP_REDUCE orx_rp_group_reduce
#endif

#endif /* ORX_REPRO_GROUP_CL */
