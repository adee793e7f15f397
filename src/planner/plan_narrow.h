/* =================================================================================================
 * plan_narrow.h: 16-bit elements (f16, bf16) in the plan of the f32 kernel they are read into
 * (plan_narrow.c; docs/design/half-and-pairs.md).
 * ============================================================================================== */
#ifndef ORX_PLAN_NARROW_H
#define ORX_PLAN_NARROW_H

#include "planner/planner.h"

/* Marks a made plan's stages that read 16-bit elements or write results of them; other types
 * and the kernels that read no element as a value are left as they are. */
void orx_plan_narrow(const orx_request *request, orx_plan *plan);

#endif /* ORX_PLAN_NARROW_H */
