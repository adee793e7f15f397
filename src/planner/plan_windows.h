/* =================================================================================================
 * plan_windows.h: the plans of sliding windows (plan_windows.c): the algorithm per device and
 * window, its tiles, grid and scratch.
 * ============================================================================================== */
#ifndef ORX_PLAN_WINDOWS_H
#define ORX_PLAN_WINDOWS_H

#include "planner/planner.h"

/* The plan of a window request (plan->policy, type and operator set; forced: an ORX_WIN_ id or
 * -1; a forced BLOCKS whose window does not fit half a tile becomes LONG), with its defines. */
void orx_plan_windows(const orx_target *target, const orx_request *request, orx_plan *plan);
/* Elements of a BLOCKS or LONG tile, and results per BLOCKS tile for `window` (where the next
 * tile starts: batches of one call start there too). */
uint64_t orx_win_tile(const orx_plan *plan);
uint64_t orx_win_per_tile(const orx_plan *plan, uint64_t window);
/* Work-groups for n_out windows of `window` elements. SERIAL keeps `window` states of scratch
 * per work-item: at most `scratch` work-groups' worth. */
size_t orx_win_groups(const orx_plan *plan, uint64_t n_out, uint64_t window, size_t scratch);
/* Scratch states of a launch of `groups` work-groups (zero but for LONG: a total per tile, and
 * SERIAL: `window` per work-item). */
uint64_t orx_win_scratch_states(const orx_plan *plan, uint64_t n_out, uint64_t window,
                                size_t groups);

#endif /* ORX_PLAN_WINDOWS_H */
