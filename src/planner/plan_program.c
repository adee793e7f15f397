/* =================================================================================================
 * plan_program.c: the defines an application's program is built with (planner.h), so that the
 * collectives it includes take the same subgroup implementation as the library's own kernels on
 * the context's device.
 * ============================================================================================== */
#include "planner/planner.h"

static int fixed_warps(const orx_target *target) {
  return orx_subgroup_impl_warps(target->subgroup_impl);
}

void orx_plan_program(const orx_target *target, unsigned wg_size,
                      int64_t defines[ORX_DEFINE_COUNT]) {
  for (int d = 0; d < ORX_DEFINE_COUNT; d++)
    defines[d] = ORX_DEFINE_UNSET;
  defines[ORX_DEFINE_WG_SIZE] = wg_size;
  /* Where subgroups are work-group barriers (PoCL's CPU device), a subgroup is the work-group and
   * exchanges go through local memory: with PoCL 5.0's shuffles, a program of several
   * collectives hung at its first launch on the H200 (khr and intel alike; as for windows and
   * segments, PoCL's shuffles are not worth their risk there). */
  defines[ORX_DEFINE_SG_IMPL] =
      target->caps->emulated_subgroups ? OCL_REDUCE_SUBGROUP_NONE : target->subgroup_impl;
  if (fixed_warps(target))
    defines[ORX_DEFINE_SG_SIZE] = target->caps->warp_size;
  /* The multireduction keeps its q values in registers only when its loops unroll; not on CPUs,
   * as for the library's kernels (see orx_select_policy). */
  defines[ORX_DEFINE_UNROLL_SLOTS] = target->caps->type != OCL_REDUCE_DEVICE_CPU;
}

const char *orx_program_wg_problem(const orx_target *target, unsigned wg_size) {
  if (wg_size == 0 || (wg_size & (wg_size - 1)) != 0)
    return "is not a power of two";
  if (wg_size > target->caps->max_work_group_size)
    return "exceeds the device's largest work-group";
  if (fixed_warps(target) && wg_size % target->caps->warp_size != 0)
    return "is not a multiple of the warp size";
  return NULL;
}
