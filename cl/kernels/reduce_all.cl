/* =================================================================================================
 * reduce_all.cl: one reduction over a whole array, in one launch for every input size (or two, 3.).
 *
 *   1. Each work-item accumulates its share of the aligned vectors (lib/orx_stream.cl) and at most
 *      one of the unaligned elements before and after them (the head before the first
 *      ORX_VEC-aligned element and the tail after the last whole vector).
 *   2. The work-group combines its work-items (lib/orx_workgroup.cl, subgroup or local path).
 *   3. A launch of one work-group writes its result to out[out_index] and is done. Otherwise each
 *      group writes a partial, and the last group to finish (lib/orx_finish.cl) combines the
 *      partials and writes out[out_index].
 *
 *      With ORX_FINISH_LAUNCH the groups only write their partials, and the host launches one
 *      group of this kernel built with ORX_FINISH_ONLY, which combines them: on devices without
 *      ordering between work-groups (lib/orx_finish.cl), or when forced (planner.c). The choice
 *      is compiled in: a test of a NULL counter at run time instead cost NVIDIA's OpenCL 8 % of
 *      the f32 sum of 2^28 on the H200.
 *
 * How the last group combines the partials (ORX_FINISH_SERIAL):
 *   0 (GPUs): all its work-items, through the work-group reduction again; there may be a thousand.
 *   1 (CPUs): its first work-item alone, in index order; there are a few per core. This also keeps
 *      the kernel at one work-group reduction: PoCL 3.1 miscompiles a second inlined copy of the
 *      barrier-containing reduction (wrong partials once work-groups run concurrently, or a crash
 *      in LLVM 15's inliner).
 *
 * The grid size depends only on the element count and the device, and every combine order is
 * fixed, so a given input gives the same bits on every run. Groups take contiguous shares in group
 * order and the partials combine in that order, so with ORX_ORDERED (lib/orx_stream.cl: runs per
 * work-item) the whole reduction keeps index order.
 *
 * The kernel's accumulator A is one value of the compute type or, for structured and user
 * operators, a state (lib/orx_ops.cl): then in[offset + i] enters as map(element, first + i), and
 * out receives the operator's result (or states, ORX_PARTIAL_OUT).
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups (the host keeps it within the
 * partials buffer). `in` + `offset` + `head` must be aligned to ORX_VEC elements (and so the
 * second input's, lib/orx_pairs.cl). *counter is zero
 * before the first launch. `out_stride` is the multi-operator kernel's (reduce_multi.cl), which
 * shares this signature; one result has no stride.
 * ============================================================================================== */
#include "lib/orx_finish.cl"
#include "lib/orx_stream.cl"
#include "lib/orx_workgroup.cl"

/* Combines the `groups` partials at `done` into *out (every work-item calls it). They were
 * written by other work-groups of this launch (read through volatile so that no stale cached copy
 * is used) or by the launch before. The combining work-item writes *out itself: PoCL 3.1 lost
 * that write when the serial result was returned to the kernel for it. */
ORX_INLINE void orx_finish_partials(ORX_GLOBAL_PTR volatile const A *done, uint groups,
                                    ORX_GLOBAL_PTR ORX_RESULT_T *out, ORX_LOCAL_PTR A *scratch) {
  const uint lid = (uint)get_local_id(0);
#if ORX_FINISH_SERIAL
  (void)scratch;
  if (lid == 0) {
    A acc = orx_read_volatile(done, 0);
    for (uint g = 1; g < groups; g++)
      acc = orx_combine(acc, orx_read_volatile(done, g));
    ORX_WRITE_RESULT(out, 0, acc);
  }
#else
#if ORX_ORDERED
  /* Each work-item a contiguous run of the partials, in order (lib/orx_split.cl). */
  ulong begin, end;
  orx_chunk_of(groups, lid, ORX_WG_SIZE, &begin, &end);
  A a = ORX_IDENTITY;
  for (ulong g = begin; g < end; g++)
    a = orx_combine(a, orx_read_volatile(done, g));
  const A result = orx_wg_reduce2(a, ORX_IDENTITY, scratch);
#else
  /* Coalesced reads, two partials at a time: the contiguous runs above cost the H200's f32 sum
   * of 2^28 4 % (a run's reads are dependent volatile loads). */
  A a = ORX_IDENTITY, b = ORX_IDENTITY;
  for (uint g = lid; g < groups; g += 2 * ORX_WG_SIZE) {
    a = orx_combine(a, orx_read_volatile(done, g));
    if (g + ORX_WG_SIZE < groups)
      b = orx_combine(b, orx_read_volatile(done, g + ORX_WG_SIZE));
  }
  const A result = orx_wg_reduce2(a, b, scratch);
#endif
  if (lid == 0)
    ORX_WRITE_RESULT(out, 0, result);
#endif
  /* The kernel's last region ends here, not after the stores: in a launch's last group (the
   * others have returned), PoCL 3.1 ran that region's work-items all as work-item 0, so every
   * one of them stored, its own value (ARGMIN and ARGMAX after a group finish: the identity of
   * the last; 16-bit results garbled). */
  barrier(CLK_GLOBAL_MEM_FENCE);
}

__kernel ORX_KERNEL_ATTR void orx_reduce_all(ORX_IN_PARAMS(in), ulong offset, ulong n, ulong head,
                                             ulong first, __global A *partials,
                                             __global uint *counter,
                                             __global ORX_RESULT_T *out, ulong out_index,
                                             ulong out_stride) {
  __local A scratch[2 * ORX_WG_SIZE];
#if !ORX_FINISH_LAUNCH && !ORX_FINISH_ONLY
  __local uint is_last_group;
#endif
#if !ORX_FINISH_ONLY
  ORX_STREAM_STAGE(stage);
#endif

  const uint lid = (uint)get_local_id(0);
  const ulong item = get_global_id(0);
  const ulong items = get_global_size(0);
  const uint groups = (uint)get_num_groups(0);
  ORX_IN base = ORX_IN_OPEN(in, offset);
  (void)out_stride;

#if ORX_FINISH_ONLY
  /* A finish by launch's second launch: one group over the first launch's n partials. */
  (void)base, (void)item, (void)items, (void)groups, (void)head, (void)first, (void)counter;
  orx_finish_partials(partials, (uint)n, out + out_index, scratch);
#else
  /* 1. Aligned vectors, then the few elements of the unaligned head and tail. */
  A a, b;
  orx_span_share(base, n, head, item, items, first, stage, &a, &b);

  /* 2. The work-group's result, in work-item 0. */
  A group_result = orx_wg_reduce2(a, b, scratch);
  if (groups == 1) {
    if (lid == 0)
      ORX_WRITE_RESULT(out, out_index, group_result);
    return;
  }

  /* 3. Publish the partial; the last group to arrive finishes. */
  if (lid == 0)
    partials[get_group_id(0)] = group_result;
#if ORX_FINISH_LAUNCH
  (void)counter;
#else
  if (!orx_last_group(counter, 1, (uint)get_num_groups(0), &is_last_group))
    return;
  orx_finish_partials(partials, groups, out + out_index, scratch);
#endif
#endif /* ORX_FINISH_ONLY */
}
