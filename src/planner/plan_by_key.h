/* =================================================================================================
 * plan_by_key.h: the plans of reduce by key (plan_by_key.c): which calls take the one-pass kernel
 * (kernels/by_key.cl), its tiles, grid and scratch.
 * ============================================================================================== */
#ifndef ORX_PLAN_BY_KEY_H
#define ORX_PLAN_BY_KEY_H

#include "planner/planner.h"

/* Whether a by-key request (entry BY_KEY: its operator, type and key_bytes) runs in one pass on
 * the device: built-in operators on devices that order work-groups; by_key=runs forces the runs
 * found on the host (run_by_key.c), which the other calls take. */
int orx_plan_by_key_pass(const orx_target *target, const orx_request *request);
/* The one-pass plan (plan->policy, type and operator set), with its defines. */
void orx_plan_by_key(const orx_target *target, const orx_request *request, orx_plan *plan);
/* Elements of a tile (a work-group's). */
uint64_t orx_by_key_tile(const orx_plan *plan);
/* The kernel's scratch (kernels/by_key.cl) under plan: its bytes for `tiles` tiles, and the
 * tiles `bytes` hold. A tile's words move with the plan's summary size, but every word carries
 * its launch's epoch, so a word of an earlier launch never reads as published: the host zeroes a
 * scratch once, when it is allocated (and when the launches' epochs run out). */
size_t orx_by_key_scratch_bytes(const orx_plan *plan, uint64_t tiles);
uint64_t orx_by_key_scratch_tiles(const orx_plan *plan, size_t bytes);

#endif /* ORX_PLAN_BY_KEY_H */
