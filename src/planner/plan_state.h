/* =================================================================================================
 * plan_state.h: the plans of state operators (structured built-ins, users' operators) and of
 * order-preserving ones (plan_state.c): their loads, work-groups, grids and how groups combine.
 * ============================================================================================== */
#ifndef ORX_PLAN_STATE_H
#define ORX_PLAN_STATE_H

#include "planner/planner.h"

/* A state operator's policy for `stage`: fewer loads or accumulators per work-item, or smaller
 * work-groups, where its state needs them; never below `lanes` work-items. */
void orx_fit_state(const orx_target *target, const orx_operator *op, orx_stage stage,
                   unsigned lanes, orx_policy *p);

/* A state operator's defines, once the plan's kernel and policy are set: ORX_STATE, and
 * ORX_STATE_GROUP_SPLIT where its work-groups combine SUM_REPRODUCIBLE's states as two reductions
 * rather than a tree. */
void orx_state_defines(orx_plan *plan);

/* A state operator's whole-array grid on GPUs: one wave of the groups that stay resident, for the
 * operators whose registers leave fewer of them. */
void orx_plan_state_groups(const orx_target *target, const orx_operator *op, size_t elem,
                           orx_stage stage, orx_policy *p);

/* An order-preserving operator's policy: runs of elements per work-item or warp;
 * ORX_STREAM_WARP_TILES reads ORX_WARP_TILES tiles of a warp's width at a time. */
#define ORX_WARP_TILES 8
void orx_fit_ordered(const orx_target *target, const orx_operator *op, size_t elem,
                     orx_policy *p);

#endif /* ORX_PLAN_STATE_H */
