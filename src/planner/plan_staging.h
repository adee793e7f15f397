/* =================================================================================================
 * plan_staging.h: how host memory crosses the bus to and from the device (plan_staging.c): by the
 * backend's blocking copy, from the caller's own pinned memory, or through the context's pinned
 * pieces with host threads copying alongside (exec/staging.c runs the plan).
 * ============================================================================================== */
#ifndef ORX_PLAN_STAGING_H
#define ORX_PLAN_STAGING_H

#include "planner/planner.h"

typedef enum orx_copy_mode {
  ORX_COPY_BLOCKING, /* the backend's blocking copy (the driver bounces pageable memory itself) */
  ORX_COPY_DIRECT,   /* enqueued copies from or to the caller's own pinned memory */
  ORX_COPY_BOUNCE    /* through the context's pinned pieces, host copies overlapping the bus's */
} orx_copy_mode;
typedef struct orx_copy_plan {
  orx_copy_mode mode;
  size_t piece;     /* BOUNCE: bytes of one pinned piece */
  size_t chunk;     /* BOUNCE: bytes moved through a piece at a time (at most piece) */
  unsigned threads; /* BOUNCE: threads that copy each piece between caller and pinned memory */
} orx_copy_plan;
/* How `bytes` of host memory (`pinned`: page-locked memory the backend knows) move to or from
 * the device, on a host of `host_cores` cores. */
orx_copy_plan orx_plan_copy(const orx_target *target, size_t bytes, int pinned,
                            unsigned host_cores);
/* Whether a call's host memory is viewed where it lies (the backend's view_host_memory: CPU
 * devices) rather than copied into device memory. */
int orx_plan_views_host(const orx_target *target);
#endif /* ORX_PLAN_STAGING_H */
