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

/* The whole-array policy of a stage that reads 16-bit elements with a built-in scalar operator
 * (SUM, PROD, MIN, MAX): on OpenCL GPUs, loads of 16 bytes of elements, not the f32 policy's
 * count of them; unchanged elsewhere (axes' columns included) and where OCL_REDUCE_POLICY sets
 * vec. */
void orx_fit_narrow(const orx_target *target, const orx_request *request, orx_policy *policy);

#endif /* ORX_PLAN_NARROW_H */
