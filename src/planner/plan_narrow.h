/* =================================================================================================
 * plan_narrow.h: 16-bit elements (f16, bf16) in the plan of the f32 kernel they are read into
 * (plan_narrow.c; docs/design/half-and-pairs.md).
 * ============================================================================================== */
#ifndef ORX_PLAN_NARROW_H
#define ORX_PLAN_NARROW_H

#include "planner/planner.h"

/* Marks a made plan's stages that read 16-bit elements or write results of them; other types
 * and the kernels that read no element as a value are left as they are. */
void orx_plan_narrow(const orx_target *target, const orx_request *request, orx_plan *plan);

/* How the plan's kernel loads vectors of `narrow` elements (ORX_NARROW_SPLIT): split on CPU
 * devices (bf16: where they vectorize across work-items), in lanes elsewhere (host plans:
 * neither); OCL_REDUCE_POLICY's narrow=lanes|split forces either. */
void orx_plan_narrow_split(const orx_target *target, const orx_request *request,
                           ocl_reduce_type narrow, orx_plan *plan);

/* The whole-array policy of a stage that reads 16-bit elements with a built-in scalar operator
 * (SUM, PROD, MIN, MAX): on OpenCL GPUs, loads of 16 bytes of elements, not the f32 policy's
 * count of them; unchanged elsewhere (axes' columns included) and where OCL_REDUCE_POLICY sets
 * vec. */
void orx_fit_narrow(const orx_target *target, const orx_request *request, orx_policy *policy);

#endif /* ORX_PLAN_NARROW_H */
