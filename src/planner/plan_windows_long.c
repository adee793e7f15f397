/* =================================================================================================
 * plan_windows_long.c: LONG's shape (windows longer than a tile, lib/orx_window_long.cl): its tile
 * within local memory, in one launch or two, and its runs. The measurements behind each choice
 * are next to it. Pure functions of their arguments.
 * ============================================================================================== */
#include "planner/plan_windows.h"

/* Local memory of a LONG work-group: a BLOCKS tile's, a state per work-item and M
 * (lib/orx_window_long.cl, orx_win_long_local), within CUDA's 48 KiB of static shared memory. */
#define ORX_WIN_LONG_LOCAL_BYTES 48640u
static uint64_t long_bytes(unsigned wg, unsigned run, unsigned state) {
  return orx_win_tile_bytes(wg, run, state) + (uint64_t)(wg + 1) * state;
}

/* The local memory a LONG work-group may take. */
static uint64_t long_local(const orx_caps *caps) {
  return caps->local_mem_bytes < ORX_WIN_LONG_LOCAL_BYTES ? caps->local_mem_bytes
                                                          : ORX_WIN_LONG_LOCAL_BYTES;
}

/* LONG's tile (lib/orx_window_long.cl): the plan's halved, its run first, then its work-group,
 * until it is shorter than the window and fits local memory; 0 where no tile of at least a warp's
 * work-items is (then the planner takes BLOCKS where half the plan's tile holds the window, else
 * SERIAL). Windows of 4098 and longer keep GPUs' tiles of 4096 (runs of 16, in work-groups of
 * 256), but where orx_win_long_fit_runs doubles them. */
int orx_win_long_fit_tile(const orx_target *target, uint64_t window, unsigned state, orx_policy *p,
                          unsigned *run) {
  const orx_caps *caps = target->caps;
  const uint64_t local = long_local(caps);
  unsigned least = 32, wg = p->wg_size, r = *run;
  if (orx_subgroup_impl_warps(p->subgroup_impl) && caps->warp_size > least)
    least = caps->warp_size;
  while ((uint64_t)wg * r >= window || long_bytes(wg, r, state) > local) {
    if (r > 1)
      r /= 2;
    else if (!target->forced.wg_size && wg / 2 >= least)
      wg /= 2;
    else
      return 0;
  }
  p->wg_size = wg;
  *run = r;
  return 1;
}

/* LONG in one launch: at most this many rounds of a warp's totals awaited (await_m). */
#define ORX_WIN_LONG_AWAIT_ROUNDS 8u

/* The tiles between a LONG result's two tiles whose totals it combines (D - 1). */
static uint64_t long_tiles_awaited(const orx_plan *plan, uint64_t window) {
  return (window - 1) / orx_win_tile(plan) - 1; /* D >= 1 */
}

/* The rounds subgroup 0 may await in one launch for the plan's state, 0 for none. One launch keeps
 * both tile scans' runs live across the await (orx_win_long_await_m). Where the state is wider
 * than 4 bytes and its combine more than an arithmetic or bitwise operation, the registers no
 * longer fit four work-groups per SM: f64 MIN (on i64 order keys) took 101 registers on NVIDIA's
 * OpenCL against SUM's 64 (ptxas on its PTX; through CUDA, capped at 64, 24 bytes spilled). H100,
 * 2^25 elements, one launch against two, windows of 4098 / 20000 / 70000 / 300000, both backends
 * (docs/perf/h100-windows-long-states.txt): f64 SUM 1.16-1.27x up to 70000, i64 SUM 1.16-1.25x
 * through CUDA and 1.02-1.08x through NVIDIA's OpenCL; at 266241 and 300000 1.02-1.06x but i64
 * through NVIDIA's OpenCL 0.88-0.89x; f64 PROD 1.11-1.26x; i64 AND, OR and XOR 1.08-1.26x through
 * CUDA, 0.99-1.12x through NVIDIA's OpenCL; i64 PROD 1.11-1.24x through CUDA, 0.81-0.85x through
 * NVIDIA's OpenCL; but f64 MIN and MAX 1.05 / 1.03 / 0.99 / 0.89-0.91x through CUDA and 0.66-0.73x
 * through NVIDIA's OpenCL, i64 MIN and MAX 0.83-1.07x, ARGMAX 0.77-1.02x, MINMAX 0.84-1.09x (f32
 * through NVIDIA's OpenCL 1.06-1.09x, what this gives up). So wider states take one launch for the
 * 8-byte built-in scalar operators but MIN and MAX, awaiting a round per 8 bytes of the 4-byte
 * states' rounds: 4, windows up to 130 tiles of 2048. */
static unsigned wide_state_rounds(const orx_plan *plan) {
  const unsigned state = orx_win_state_bytes(plan);
  if (state <= 4)
    return ORX_WIN_LONG_AWAIT_ROUNDS;
  const int selects = plan->op.id == ORX_OP_MIN || plan->op.id == ORX_OP_MAX;
  return state == 8 && !orx_operator_is_state(&plan->op) && !selects
             ? ORX_WIN_LONG_AWAIT_ROUNDS * 4 / state
             : 0;
}

/* LONG in one launch (ORX_WIN_ONE_PASS, lib/orx_window_long.cl) rather than after a launch of the
 * tiles' totals, which reads the whole input once more: where work-groups order their writes for
 * each other (the tiles publish their totals) and subgroups shuffle (subgroup 0 folds the awaited
 * totals), on GPUs; on NVIDIA's while subgroup 0 awaits ORX_WIN_LONG_AWAIT_ROUNDS rounds of a
 * warp's totals at most (windows of up to 1056768 elements in tiles of 4096; wider states fewer or
 * none, wide_state_rounds), elsewhere one total (unmeasured); win_pass=0|1 forces either where
 * both hold. H100, f32 2^26, two rounds, fraction of the whole-array sum's rate, CUDA then
 * NVIDIA's OpenCL, one launch against two (2026-12-06, docs/perf/h100-windows-long-await.txt):
 * 300000 (D = 73) 0.355-0.368 and 0.350-0.363 against 0.28-0.31; a million (D = 244) 0.315-0.325
 * against 0.302-0.307 and 0.307-0.323 against 0.283-0.289; 4 million (D = 976) 0.184-0.187 and
 * 0.183-0.191, where two launches hold about 0.3. Shorter windows took one launch already:
 * 4098-8192 0.386-0.401 against 0.312-0.317 and 0.388-0.396 against 0.296-0.302, 20000 0.364-0.378
 * against 0.302-0.307 (docs/perf/h100-windows-two-scans.txt). */
int orx_win_long_one_pass(const orx_target *target, const orx_plan *plan, uint64_t window) {
  const ocl_reduce_subgroup_impl impl = plan->policy.subgroup_impl;
  const int shuffles = orx_subgroup_impl_shuffles(impl);
  if (plan->win.algo != ORX_WIN_LONG || !shuffles ||
      target->caps->device_sync == ORX_SYNC_NONE || target->caps->device_sync == ORX_SYNC_HOST)
    return 0;
  if (target->forced.win_pass >= 0)
    return target->forced.win_pass;
  const unsigned warp = target->caps->warp_size;
  const unsigned rounds = wide_state_rounds(plan);
  return target->caps->type != OCL_REDUCE_DEVICE_CPU && rounds &&
         long_tiles_awaited(plan, window) <= (warp ? rounds * warp : 1);
}

/* LONG in runs of 32 (tiles of 8192 four-byte states) on GPUs where those await a warp's totals
 * at most and runs of 16 more (f32 windows of 139265 to 278528), on NVIDIA's, where it was
 * measured (others keep runs of 16); not where win_pass is forced. H100, f32 2^26, two rounds,
 * fraction of the whole-array sum's rate, runs of 16 in two launches against runs of 32 in one
 * (CUDA capped at two groups per SM: 127 registers; at three, 80 with 84 bytes of spill, about
 * the same), window 200000: CUDA 0.311-0.314 -> 0.379-0.386, NVIDIA's OpenCL 0.294-0.303 ->
 * 0.374-0.383. Where runs of 16 run in one launch too, runs of 32 gained a little (8193-10000
 * 1.02-1.12x) or lost (CUDA sums at 20000 0.97-0.98x), so those keep runs of 16; where neither
 * runs in one launch (a million) runs of 32 lost 0.90-0.99x (docs/perf/h100-windows-long-runs.txt).
 * Since subgroup 0 awaits in rounds, runs of 16 take one launch at 139265-278528 too; runs of 32
 * against them there (2026-12-06, both backends): 139265 sums 0.97-0.99x, MIN and MAX
 * 1.00-1.04x; 200000 0.99-1.07x; 278528 1.04-1.13x (docs/perf/h100-windows-long-states.txt). */
void orx_win_long_fit_runs(const orx_target *target, uint64_t window, unsigned state,
                           orx_plan *plan) {
  const unsigned wg = plan->policy.wg_size, warp = target->caps->warp_size;
  if (target->caps->type == OCL_REDUCE_DEVICE_CPU || !warp || target->forced.win_pass >= 0 ||
      plan->win.run != 16 || state > 4 || (uint64_t)wg * 32 >= window ||
      long_bytes(wg, 32, state) > long_local(target->caps) ||
      long_tiles_awaited(plan, window) <= warp)
    return;
  plan->win.run = 32;
  if (long_tiles_awaited(plan, window) > warp || !orx_win_long_one_pass(target, plan, window))
    plan->win.run = 16;
}
