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
static inline uint64_t orx_win_tile(const orx_plan *plan) {
  return (uint64_t)plan->policy.wg_size * plan->win.run;
}
uint64_t orx_win_per_tile(const orx_plan *plan, uint64_t window);
/* Work-groups for n_out windows of `window` elements. SERIAL keeps `window` states of scratch
 * per work-item: at most `scratch` work-groups' worth. */
size_t orx_win_groups(const orx_plan *plan, uint64_t n_out, uint64_t window, size_t scratch);
/* Scratch states of a launch of `groups` work-groups (zero but for LONG: a total per tile, and
 * SERIAL: `window` per work-item). */
uint64_t orx_win_scratch_states(const orx_plan *plan, uint64_t n_out, uint64_t window,
                                size_t groups);

/* Within the planner. The bytes of a state of the plan's operator (before the planner fills in
 * plan->op.state_bytes for built-in scalar operators: one element of the compute type). */
static inline unsigned orx_win_state_bytes(const orx_plan *plan) {
  return plan->op.state_bytes ? plan->op.state_bytes : (unsigned)orx_type_size(plan->type);
}
/* Local memory of a BLOCKS work-group of `wg` runs of `run` states: the stage
 * (a padding slot per run), four summary buffers and their flags (lib/orx_window_scan.cl,
 * orx_win_local). */
static inline uint64_t orx_win_tile_bytes(unsigned wg, unsigned run, unsigned state) {
  return (uint64_t)wg * (run + 1) * state + 4ull * wg * state + 4ull * wg + 64;
}
/* LONG's shape (plan_windows_long.c): its tile, shorter than the window and within local memory
 * (0 where none of at least a warp's work-items is); whether it runs in one launch; its runs of
 * 32 where those pay. */
int orx_win_long_fit_tile(const orx_target *target, uint64_t window, unsigned state, orx_policy *p,
                          unsigned *run);
int orx_win_long_one_pass(const orx_target *target, const orx_plan *plan, uint64_t window);
void orx_win_long_fit_runs(const orx_target *target, uint64_t window, unsigned state,
                           orx_plan *plan);

#endif /* ORX_PLAN_WINDOWS_H */
