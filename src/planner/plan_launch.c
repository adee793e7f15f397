/* =================================================================================================
 * plan_launch.c: the launch shape of a made plan (planner.h): its groups for a count, whether the
 * finish takes a second launch, the segments of a staged round, the host memory staged at once.
 * ============================================================================================== */
#include "planner/planner.h"

int orx_plan_finish_launch(const orx_plan *plan, size_t groups) {
  return plan->defines[ORX_DEFINE_FINISH_LAUNCH] == 1 && groups > 1;
}

size_t orx_plan_groups(const orx_plan *plan, size_t count, uint64_t length) {
  const orx_policy *p = &plan->policy;
  switch (plan->kernel) {
  case ORX_KERNEL_REDUCE_ALL:
  case ORX_KERNEL_REDUCE_MULTI:
    return orx_policy_groups(p, count);
  case ORX_KERNEL_CHECK_OFFSETS:
  case ORX_KERNEL_GATHER:
  case ORX_KERNEL_AXES_COLUMNS: /* count: work-items (orx_plan_columns_items) */ {
    const size_t groups = count ? (count + p->wg_size - 1) / p->wg_size : 1;
    return groups < p->max_groups ? groups : p->max_groups;
  }
  default:
    return orx_segment_groups(p, &plan->seg, count, length);
  }
}

uint64_t orx_plan_per_round(const orx_plan *plan, uint64_t length) {
  return plan->kernel == ORX_KERNEL_SEGMENTS_STAGED
             ? orx_stage_segments(&plan->policy, &plan->seg, length)
             : 0;
}

size_t orx_plan_staging_piece(const orx_caps *caps, const orx_plan *plan) {
  /* Whole vectors, no more than the staging limit or the device's largest buffer. */
  const size_t size = orx_plan_element_bytes(plan);
  size_t limit = ORX_STAGING_BYTES;
  if (caps->max_alloc_bytes && limit > caps->max_alloc_bytes)
    limit = (size_t)caps->max_alloc_bytes;
  const size_t quantum = (size_t)plan->policy.vec * size;
  const size_t piece = limit / quantum * quantum / size;
  return piece ? piece : 1;
}
