/* =================================================================================================
 * plan_group.h: how groups of devices share a call (plan_group.c): the least part worth a device,
 * the seams windows stage, and the cut of a call into one part per device.
 * ============================================================================================== */
#ifndef ORX_PLAN_GROUP_H
#define ORX_PLAN_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "planner/planner.h"

/* The least bytes of input a device of a group takes (forced: part_kib). */
uint64_t orx_group_min_part_bytes(const orx_policy_override *forced);
/* The most bytes of seam elements that windows over a group buffer stage through the group's
 * page-locked and device memory (forced: seam_kib); larger seams are read and uploaded blocking. */
uint64_t orx_group_seam_staged_bytes(const orx_policy_override *forced);
/* Cuts `units` (elements, or whole segments: unit_bytes each) into one contiguous part per
 * device, parts[d] units for device d in order, by the weights (>= 0, not all 0): no part but
 * the only one is below min_part_bytes; devices with the smallest weights drop out first. */
void orx_plan_group_parts(const double *weights, size_t devices, uint64_t units,
                          uint64_t unit_bytes, uint64_t min_part_bytes, uint64_t *parts);

#endif /* ORX_PLAN_GROUP_H */
