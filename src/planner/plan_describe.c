/* =================================================================================================
 * plan_describe.c: a plan in words (planner.h, orx_plan_describe): its kernel file, its policy in
 * OCL_REDUCE_POLICY syntax, and what follows from it for the request's size, as `ocl-reduce info`
 * and ocl_reduce_describe_plan print it.
 * ============================================================================================== */
#include <stdio.h>

#include "planner/planner.h"
#include "planner/plan_windows.h"
#include "base/util.h"

/* ---- The plan in words ------------------------------------------------------------------- */

/* The policy in OCL_REDUCE_POLICY syntax: "reduce_all.cl: wg=256,vec=4,...". */
static void describe_policy(const orx_plan *plan, int whole, int segments, int windows,
                            char *text, size_t size) {
  const orx_policy *p = &plan->policy;
  orx_append(text, size, "%s: wg=%u,vec=%u,unroll=%u,", orx_kernel_file(plan->kernel),
             p->wg_size, p->vec, p->unroll);
  if (orx_policy_chains(p) < p->unroll)
    orx_append(text, size, "chains=%u,", orx_policy_chains(p));
  if (p->prefetch)
    orx_append(text, size, "prefetch=1,");
  orx_append(text, size, "groups=%u,stream=%s,finish=%s", p->max_groups,
             orx_stream_name(p->stream),
             whole && plan->defines[ORX_DEFINE_FINISH_LAUNCH] == 1 ? "launch"
             : p->finish_serial                                    ? "serial"
                                                                   : "group");
  if (segments)
    orx_append(text, size, ",seg=%s", orx_seg_mode_name(plan->seg.mode));
  if (segments && plan->seg.mode == ORX_SEG_MR)
    orx_append(text, size, ",slots=%u", plan->seg.slots);
  if (windows)
    orx_append(text, size, ",win=%s", orx_win_algo_name(plan->win.algo));
  if (plan->defines[ORX_DEFINE_FLOAT_KEYS] > 0)
    orx_append(text, size, ",keys=%d", (int)plan->defines[ORX_DEFINE_FLOAT_KEYS]);
  /* windows: their elements read as keys, or their states' values kept as keys (packed with
   * 32-bit indices, lib/orx_state_packed.cl) */
  if (plan->defines[ORX_DEFINE_ELEM_KEYS] > 0 || plan->defines[ORX_DEFINE_STATE_KEYS] > 0)
    orx_append(text, size, ",keys=1");
  if (plan->defines[ORX_DEFINE_STATE_PACKED] > 0)
    orx_append(text, size, ",keys=packed");
  if (plan->defines[ORX_DEFINE_MIN_GROUPS_PER_CU] > 0)
    orx_append(text, size, ",min_groups=%u", (unsigned)plan->defines[ORX_DEFINE_MIN_GROUPS_PER_CU]);
}

/* How the work-items combine: "; combine: shuffles (khr)". */
static void describe_combine(const orx_plan *plan, char *text, size_t size) {
  const orx_policy *p = &plan->policy;
  const int64_t builtin = plan->defines[ORX_DEFINE_SG_BUILTIN_REDUCE];
  orx_append(text, size, "; combine: %s",
         p->subgroup_impl == OCL_REDUCE_SUBGROUP_NONE ? "local memory"
         : p->subgroup_impl != OCL_REDUCE_SUBGROUP_BUILTIN ? "shuffles"
         : builtin == 1 ? "sub_group_reduce built-in"
                        : "local memory (no built-in for the operator)");
  if (p->subgroup_impl != OCL_REDUCE_SUBGROUP_NONE)
    orx_append(text, size, " (%s)", orx_subgroup_impl_name(p->subgroup_impl));
}

void orx_plan_describe(const orx_plan *plan, size_t count, uint64_t length, char *text,
                       size_t size) {
  const orx_policy *p = &plan->policy;
  const int windows = plan->kernel == ORX_KERNEL_WINDOWS; /* length: the window */
  const int segments = plan->kernel != ORX_KERNEL_REDUCE_MULTI && !windows && length > 0;
  const int whole = plan->kernel == ORX_KERNEL_REDUCE_ALL;
  text[0] = '\0';
  describe_policy(plan, whole, segments, windows, text, size);
  if (plan->defines[ORX_DEFINE_ORDERED] == 1)
    orx_append(text, size, "; in index order (not commutative)");
  describe_combine(plan, text, size);
  if (segments && plan->seg.mode == ORX_SEG_MR)
    orx_append(text, size, "; %u lanes per lane group, %s loads, %u set(s) per round",
               plan->seg.width, orx_seg_load_name(plan->seg.load), orx_seg_batch(&plan->seg));
  if (segments && plan->seg.vector_runs)
    orx_append(text, size, "; runs of %u segments folded together", p->vec);
  if (segments && plan->seg.mode == ORX_SEG_STAGED)
    orx_append(text, size, "; stage of %u elements, %llu segments per tile", plan->seg.stage,
           (unsigned long long)orx_plan_per_round(plan, length));
  if (windows && (plan->win.algo == ORX_WIN_BLOCKS || plan->win.algo == ORX_WIN_LONG ||
                  plan->win.algo == ORX_WIN_SPANS))
    orx_append(text, size, "; tiles of %llu elements in runs of %u",
               (unsigned long long)orx_win_tile(plan), plan->win.run);
  if (windows && (plan->win.algo == ORX_WIN_SHUFFLE || plan->win.algo == ORX_WIN_MR))
    orx_append(text, size, "; sets of %u windows", plan->win.lanes);
  if (windows) {
    if (length && length <= count)
      orx_append(text, size, "; %zu work-groups",
                 orx_win_groups(plan, count - length + 1, length, (size_t)1 << 20));
    if (plan->win.algo == ORX_WIN_LONG)
      orx_append(text, size, plan->defines[ORX_DEFINE_WIN_ONE_PASS] == 1
                                 ? " in one launch, each awaiting the tiles after its own"
                                 : ", after a launch for the tiles' totals");
  } else if (segments && plan->seg.mode == ORX_SEG_LAUNCH)
    orx_append(text, size, "; a whole-array launch per segment");
  else
    orx_append(text, size, "; %zu work-groups",
           orx_plan_groups(plan, segments ? count / length : count, length));
  if (whole && orx_plan_finish_launch(plan, orx_plan_groups(plan, count, 0)))
    orx_append(text, size, ", then one more over their partials");
}
