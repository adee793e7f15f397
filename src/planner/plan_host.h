/* =================================================================================================
 * plan_host.h: which requests take the host plan on CPU devices (plan_host.c, host_plan.h), and
 * its policy.
 * ============================================================================================== */
#ifndef ORX_PLAN_HOST_H
#define ORX_PLAN_HOST_H

#include "planner/planner.h"

/* What a whole-array request reads, and where its result goes, for the host plan's crossovers
 * (planner/host_plan.h). */
typedef enum orx_host_source {
  ORX_HOST_SOURCE_MEMORY = 0, /* host memory */
  ORX_HOST_SOURCE_BUFFER = 1, /* a buffer in the device's memory, its result into a buffer */
  ORX_HOST_SOURCE_BUFFER_READ = 2 /* a buffer, its result into host memory: the host reads it */
} orx_host_source;
/* plan_host.c: whether a whole-array request of `count` elements takes the host plan
 * (planner/host_plan.h): on CPU devices, built-in operators, host memory of any size, or a buffer
 * in the device's memory up to the operator's crossover for `source` (no copy to save), unless
 * OCL_REDUCE_POLICY says host=off (or host_kib=N sets one crossover for all). Its policy, the
 * same on every device. */
int orx_plan_takes_host(const orx_target *target, const orx_request *request, size_t count,
                        orx_host_source source);
/* ... and whether equal segments of `length` elements (pairs, or one input from `source`; the
 * whole-array request; device_in_place: the device's plan of them reads host memory where it
 * lies, exec/segment_views.c, as it always reads a buffer) into host memory run on the host,
 * each segment a whole array of that plan (not host=off, not host=device). */
int orx_plan_takes_host_segments(const orx_target *target, const orx_request *request,
                                 int device_in_place, size_t length, orx_host_source source);
/* The host plan's policy for a request of elements of elem bytes. */
void orx_host_policy(const orx_request *request, size_t elem, orx_policy *out);

#endif /* ORX_PLAN_HOST_H */
