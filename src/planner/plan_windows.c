/* =================================================================================================
 * plan_windows.c: how a sliding-window call runs (planner.h): the algorithm of kernels/windows.cl,
 * its tile or lane groups (LONG's: plan_windows_long.c), its grid and its defines. The
 * measurements behind each choice are next to it. Pure functions of their arguments.
 * ============================================================================================== */
#include <string.h>

#include "planner/planner.h"
#include "planner/plan_windows.h"

/* CUDA's static shared memory ends at 48 KiB: the BLOCKS tile with its run summaries stays in
 * 40. */
#define ORX_WIN_LOCAL_BYTES 40960u
/* Lanes per set of windows for SHUFFLE and MR: a warp (the paper's 32). */
#define ORX_WIN_LANES 32u
/* A grid bigger than this strides over the rest. */
#define ORX_WIN_MAX_GROUPS ((size_t)1 << 20)

/* Windows longer than this take runs of 32 four-byte states on GPUs, tiles of 8192 rather than
 * 4096, which read the window - 1 elements a tile shares with the next half as often (at 1000,
 * 12 % of what a tile reads rather than 24 %). H200, f32, 2^26, device us, runs of 16 / 32, two
 * rounds: NVIDIA's OpenCL window 1000 sum 217.2, 217.6 / 194.9, 196.2, min 236.2, 238.9 / 210.1,
 * 211.6; CUDA sum 223.8, 224.2 / 225.6, 225.6, min 241.9, 244.0 / 238.4, 240.6
 * (docs/perf/h200-windows-finish.txt). Windows of 32 keep runs of 16 (runs of 32 in work-groups
 * of 128 were slower there: docs/perf/h200-windows-tile-shapes.txt). Windows of 2050-4097, which
 * a tile of 4096 does not take, ran a work-group per block (LONG's form before 2026-12-05) at 0.06
 * of the whole-array sum's rate; in tiles of 8192 (SPANS, BLOCKS past 4034) 0.31-0.47 (H100,
 * windows of 3000 and 4000: docs/perf/h100-windows-spans.txt). */
#define ORX_WIN_LONG_RUNS_FROM 256

/* Runs of 64 bytes of states (16 f32), or of 32 four-byte states for long windows on GPUs, up to
 * the longest that a tile of them takes (tile_run takes the tile's size before the planner fits
 * it to local memory). */
static unsigned tile_run(const orx_caps *caps, uint64_t window, unsigned wg, unsigned state) {
  const unsigned run = state >= 64 ? 1 : 64 / state;
  if (caps->type != OCL_REDUCE_DEVICE_CPU && window > ORX_WIN_LONG_RUNS_FROM && state <= 4 &&
      window <= (uint64_t)wg * 32 / 2 + 1)
    return 32;
  return run;
}

/* Windows up to this long fold directly: the fold reads each element `window` times from cache,
 * the scans combine about five times per result and pass through local memory six times. H200,
 * CUDA, f32 2^26 sums: window 3 folded 138 us against 219 ms a work-group per block; window 32
 * folded 350 us, in tiles 211 us (docs/perf/HISTORY.md). */
#define ORX_WIN_DIRECT_MAX 4
/* The most totals of runs SPANS combines per element (windows_algo). */
#define ORX_WIN_SPANS_TOTALS_PER_ELEMENT 4
/* SERIAL's work-group size on CPU devices that run work-items in vector lanes (below). */
#define ORX_WIN_SERIAL_LANES_WG 8u

/* Whether windows this long fold directly (windows_algo's choice for built-in operators). */
static int folds_directly(const orx_target *target, uint64_t window) {
  const int forced = target->forced.win_algo;
  return forced == ORX_WIN_DIRECT || (forced < 0 && window <= ORX_WIN_DIRECT_MAX);
}

/* ARGMIN and ARGMAX of 4-byte elements in 64-bit states, the value's key and a 32-bit index
 * (ORX_STATE_PACKED, lib/orx_state_packed.cl), where every index of the call fits and windows
 * are scanned: tiles twice as long in local memory as ocl_reduce_arg's 16 bytes allow, and a
 * combine in one compare. H100, f32 2^26, with 16-byte states: windows of 32 0.124-0.130 of the
 * whole-array sum's rate (copying 4 bytes in and 16 out: 0.2), of 1000 (across tiles of 512, in
 * two launches) 0.033-0.034. Packed, in the same run (bench_windows, BENCH_WINDOWS_ALT=keys=1,
 * every result checked): ARGMIN and ARGMAX windows of 32 1.59-1.63x (0.21 of the sum's rate, at
 * the copy limit), of 1000 3.24-3.39x, of 4098-20000 2.40-2.79x, both backends
 * (docs/perf/h100-windows-state-keys.txt). On GPUs then, and on CPUs where keys=1 forces it: CPU
 * devices scan a work-item's blocks in turn (SERIAL), and ran f32 ARGMAX packed at 0.7-0.9x of
 * 16-byte states of keys (this 2-core machine, 2^22, windows of 32 and 1000, Intel's CPU runtime
 * and PoCL 3.1). */
static int arg_packed(const orx_target *target, const orx_request *request) {
  const orx_win_shape *w = &request->windows;
  const ocl_reduce_type type = request->type;
  const int arg = request->op.id == ORX_OP_ARGMIN || request->op.id == ORX_OP_ARGMAX;
  const int four = type == OCL_REDUCE_F32 || type == OCL_REDUCE_I32 || type == OCL_REDUCE_U32;
  const int keys = target->forced.float_keys;
  const int gpu = target->caps->type != OCL_REDUCE_DEVICE_CPU;
  return arg && four && (keys > 0 || (keys < 0 && gpu)) && !folds_directly(target, w->window) &&
         w->first_index < UINT32_MAX && w->count <= UINT32_MAX - w->first_index;
}

uint64_t orx_win_per_tile(const orx_plan *plan, uint64_t window) {
  /* SPANS: whole runs, the last window ending in the tile wherever the launch starts in its run
   * (lib/orx_window_spans.cl). */
  if (plan->win.algo == ORX_WIN_SPANS)
    return (orx_win_tile(plan) - window - plan->win.run + 2) / plan->win.run * plan->win.run;
  const uint64_t results = orx_win_tile(plan) - window + 1;
  /* In words, and for windows of whole runs, tiles start on whole runs (kernels/windows.cl). */
  const int64_t *d = plan->defines;
  return d[ORX_DEFINE_WIN_WORDS] == 1 || d[ORX_DEFINE_WIN_WHOLE_RUNS] == 1
             ? results / plan->win.run * plan->win.run
             : results;
}

/* Whether BLOCKS tiles read each work-item's run in 16-byte words (ORX_WIN_WORDS) rather than
 * through local memory: elements of 4 or 8 bytes, a run a whole number of words. Through CUDA.
 * H200, f32, 2^26, device us, local memory against words: CUDA window 32 sum 184 / 169, min 236 /
 * 204, window 1000 sum 245 / 237, min 284 / 278; NVIDIA's OpenCL lost (window 32 sum 181 / 210,
 * window 1000 sum 245 / 292), and results stored in words lost on both (window 32 sum 339 and
 * 264 us with loads and stores in words; docs/perf/h200-windows-words.txt). */
static int blocks_in_words(const orx_target *target, const orx_request *request,
                           const orx_plan *plan) {
  const unsigned elem = (unsigned)orx_type_size(request->type);
  if (plan->win.algo != ORX_WIN_BLOCKS || orx_operator_is_state(&request->op) ||
      orx_type_is_narrow(request->type) || plan->win.run * elem % 16)
    return 0;
  if (target->forced.win_words >= 0)
    return target->forced.win_words;
  return target->caps->has_cuda_shuffle;
}

/* Float MIN and MAX as integer MIN and MAX of the floats' order keys (ORX_ELEM_KEYS,
 * lib/orx_order_keys.cl): every algorithm combines an element several times (the scans about
 * five), and IEEE 754 minimum and maximum take two NaN tests, two compares and a select per
 * combine in floating point. H200, CUDA, f32, 2^26, BLOCKS at window 32: MIN ran 2.3x the
 * instructions of SUM (ncu), 367 us against 186. Float ARGMIN, ARGMAX and MINMAX keep their
 * states' values as the keys on CPU devices (ORX_STATE_KEYS, lib/orx_state_keys.cl) for the same
 * reason: this 2-core machine, 2^22, windows of 32-4098, against float states (noisy), Intel's CPU
 * runtime f32 ARGMAX and MINMAX 1.18-1.64x, f64 1.22-1.73x; PoCL 3.1 f32 MINMAX 1.16-1.49x, f32
 * ARGMAX level (0.92-1.16x), f64 1.16-1.78x (docs/perf/cpu-windows-state-keys.txt). Not where
 * windows fold directly, a combine per element and window: Intel's runtime ran ARGMAX keys at
 * 0.79-0.85x there (windows of 2-4; PoCL 3.1 level). On GPUs too: H100, f32 2^26,
 * against float states in the same run (bench_windows, BENCH_WINDOWS_ALT=keys=1), MINMAX windows
 * of 32-20000 1.23-2.33x through CUDA, 1.34-2.12x through NVIDIA's OpenCL
 * (docs/perf/h100-windows-state-keys.txt; ARGMIN and ARGMAX there are packed, arg_packed). keys=0
 * keeps the floats. */
static void elements_as_keys(const orx_target *target, const orx_request *request,
                             orx_plan *plan) {
  const orx_op_id id = request->op.id;
  const int min_or_max = id == ORX_OP_MIN || id == ORX_OP_MAX;
  const int arg_or_minmax = id == ORX_OP_ARGMIN || id == ORX_OP_ARGMAX || id == ORX_OP_MINMAX;
  if (target->forced.float_keys == 0 ||
      (request->type != OCL_REDUCE_F32 && request->type != OCL_REDUCE_F64))
    return;
  if (min_or_max && !orx_operator_is_state(&request->op)) {
    plan->type = request->type == OCL_REDUCE_F32 ? OCL_REDUCE_I32 : OCL_REDUCE_I64;
    plan->defines[ORX_DEFINE_ELEM_KEYS] = 1;
  }
  if (arg_or_minmax && !folds_directly(target, request->windows.window) &&
      plan->defines[ORX_DEFINE_STATE_PACKED] != 1) /* packed states take keys of their own */
    plan->defines[ORX_DEFINE_STATE_KEYS] = 1;
}

/* SERIAL's work-items each scan their own blocks. Where a CPU device runs a group's work-items
 * side by side in vector lanes (Intel's CPU runtime; not work_items_in_turn), groups of 64
 * ran 1.5-4.2x slower than groups of 8; PoCL, which runs them one after another, keeps 64.
 * This 2-core machine, bench_windows speed 2^24 f32, device us, two rounds, groups of 64 / 8
 * (docs/perf/cpu-windows-serial-groups.txt): Intel's runtime windows of 32 sum 37911-37928 /
 * 9069-9102, min 38272-38960 / 17966-18659, max 38331-38399 / 17837-20865; of 1000 sum
 * 26728-27000 / 15771-16096, min 27180-27412 / 17973-18003, max 27082-27752 / 17677-17753;
 * PoCL 3.1 level within its noise (windows of 32 sum 9386-9394 / 9828-11863, of 1000 max
 * 18619 / 18511-18598). DIRECT keeps 64: Intel's runtime ran window 3 sums in 8 at 38917 us
 * against 5016 (with the barrier DIRECT then had); without it, groups of 32-128 ran alike on
 * every CPU implementation, and groups of 8 slower on PoCL 5 and on Intel's runtime (window 3
 * sums 19109-19228 us against 2907-3426; cpu-windows-direct-no-barrier.txt). */
static void fit_serial_groups(const orx_target *target, int algo, orx_policy *p) {
  const orx_caps *caps = target->caps;
  if (algo == ORX_WIN_SERIAL && caps->type == OCL_REDUCE_DEVICE_CPU && !caps->work_items_in_turn &&
      !target->forced.wg_size && p->wg_size > ORX_WIN_SERIAL_LANES_WG)
    p->wg_size = ORX_WIN_SERIAL_LANES_WG;
}

/* The kernel's defines for the algorithm plan->win.algo. */
static void windows_defines(const orx_target *target, const orx_request *request,
                            orx_plan *plan) {
  const int algo = plan->win.algo;
  int64_t *d = plan->defines;
  d[ORX_DEFINE_WIN_ALGO] = algo;
  if (algo == ORX_WIN_DIRECT || algo == ORX_WIN_BLOCKS || algo == ORX_WIN_LONG ||
      algo == ORX_WIN_SPANS)
    d[ORX_DEFINE_WIN_RUN] = plan->win.run;
  d[ORX_DEFINE_WIN_WORDS] = blocks_in_words(target, request, plan);
  /* Windows of whole runs scan runs with no block start inside: H200, f32 2^26, windows of 32
   * 1.03-1.05x (sums) and 1.10-1.19x (MIN, MAX) on both backends
   * (docs/perf/h200-windows-whole-runs.txt). Other windows keep their text. */
  if (algo == ORX_WIN_BLOCKS && request->windows.window % plan->win.run == 0)
    d[ORX_DEFINE_WIN_WHOLE_RUNS] = 1;
  /* SPANS in runs of 32 through CUDA: registers capped for four work-groups per SM (64, 80
   * without; a few bytes spill). H100, f32 2^26: windows of 2000 sum 0.449-0.458 -> 0.492 of the
   * whole-array sum's rate, the others level (docs/perf/h100-windows-spans.txt). */
  const unsigned forced_groups = target->forced.min_groups, most = 2048 / plan->policy.wg_size;
  if (algo == ORX_WIN_SPANS && plan->win.run == 32 && target->caps->has_cuda_shuffle)
    d[ORX_DEFINE_MIN_GROUPS_PER_CU] = 4;
  /* LONG through CUDA likewise: in two launches for five groups per SM (two tile scans,
   * 2026-12-05: 64 registers for four, no spill). H100, f32 2^26, two rounds, windows of 4098,
   * 20000 and 100000: 0.282-0.306 of the whole-array sum's rate for four groups, 0.290-0.316 for
   * five, 0.286-0.304 for six, 0.231-0.257 for seven. In one launch for four: at five (48
   * registers) ptxas spills 40 bytes, at four none (63). H100, two rounds against five: window
   * 4097 sum 0.438-0.439 against 0.422, min and max 0.422-0.428 against 0.416-0.420; 4098-8192
   * 0.385-0.407 against 0.379-0.395; 20000-135169 level to 1.02x; 139265 0.99-1.00x
   * (docs/perf/h100-windows-two-scans.txt, G). In runs of 32 (orx_win_long_fit_runs) for two: 127
   * registers, no spill. */
  const int one_pass = orx_win_long_one_pass(target, plan, request->windows.window);
  if (algo == ORX_WIN_LONG && target->caps->has_cuda_shuffle)
    d[ORX_DEFINE_MIN_GROUPS_PER_CU] = !one_pass ? 5 : plan->win.run == 32 ? 2 : 4;
  if (target->caps->has_cuda_shuffle && forced_groups) /* min_groups caps it, as for segments */
    d[ORX_DEFINE_MIN_GROUPS_PER_CU] = forced_groups < most ? forced_groups : most;
  if (algo == ORX_WIN_SHUFFLE || algo == ORX_WIN_MR)
    d[ORX_DEFINE_MR_Q] = d[ORX_DEFINE_MR_LANES] = plan->win.lanes;
  if (one_pass) {
    d[ORX_DEFINE_WIN_ONE_PASS] = 1;
    d[ORX_DEFINE_SYNC] = target->caps->device_sync;
  }
  elements_as_keys(target, request, plan);
}

/* The algorithm, once the tile is known: on GPUs SPANS where it applies, else BLOCKS, and LONG
 * for windows longer than half a tile. SPANS combines the totals of window / run runs per run, so
 * the planner takes it while that is at most ORX_WIN_SPANS_TOTALS_PER_ELEMENT per element (f64's
 * runs of 8 up to windows of 256). H100, f32 2^26, against BLOCKS, device time as a fraction of
 * the whole-array sum's (docs/perf/h100-windows-spans.txt): windows of 257 0.454-0.477 ->
 * 0.481-0.496, 1000 0.417-0.442 -> 0.477-0.497, 2000 0.360-0.408 -> 0.447-0.497; 100 level. */
static int windows_algo(const orx_target *target, const orx_plan *plan, uint64_t window) {
  const uint64_t run = plan->win.run, half_tile = orx_win_tile(plan) / 2 + 1;
  int algo = target->forced.win_algo;
  if (algo < 0)
    algo = window <= ORX_WIN_DIRECT_MAX                               ? ORX_WIN_DIRECT
           : target->caps->type == OCL_REDUCE_DEVICE_CPU              ? ORX_WIN_SERIAL
           : window <= ORX_WIN_SPANS_TOTALS_PER_ELEMENT * run * run ? ORX_WIN_SPANS
                                                                      : ORX_WIN_BLOCKS;
  /* Lane groups spread a window's elements over their lanes (element i to lane i % lanes), so
   * an order-preserving operator folds each window in order instead when they are forced. */
  if ((algo == ORX_WIN_SHUFFLE || algo == ORX_WIN_MR) && plan->op.ordered)
    algo = ORX_WIN_DIRECT;
  /* SPANS takes windows longer than two runs, whose tiles give at least half a tile of results
   * (orx_win_per_tile), else BLOCKS. */
  if (algo == ORX_WIN_SPANS && !(window > 2 * run && window + 2 * run <= half_tile + 1))
    algo = ORX_WIN_BLOCKS;
  /* A BLOCKS tile gives tile - window + 1 results: at least half a tile, else a work-group per
   * block. */
  if (algo == ORX_WIN_BLOCKS && window > half_tile)
    algo = ORX_WIN_LONG;
  /* The longest window of runs of 32 (half a tile + 1: 4097 of 4 bytes) runs LONG's tiles of 4096
   * rather than BLOCKS: H100, f32 2^26, 0.241-0.243 of the whole-array sum's rate -> 0.325-0.327
   * through CUDA, 0.291-0.311 -> 0.319-0.320 through NVIDIA's OpenCL. Shorter windows would take
   * LONG's tiles of 2048, slower than BLOCKS and SPANS (window 4000: 0.224-0.262 against
   * 0.299-0.403; docs/perf/h100-windows-two-scans.txt). */
  if (target->forced.win_algo < 0 && algo == ORX_WIN_BLOCKS && run == 32 && window == half_tile)
    algo = ORX_WIN_LONG;
  return algo;
}

void orx_plan_windows(const orx_target *target, const orx_request *request, orx_plan *plan) {
  const orx_caps *caps = target->caps;
  orx_policy *p = &plan->policy;
  const uint64_t window = request->windows.window;
  if (arg_packed(target, request)) {
    plan->op.state_bytes = plan->op.state_align = 8;
    plan->defines[ORX_DEFINE_STATE_PACKED] = 1;
  }
  const unsigned state = orx_win_state_bytes(plan);
  /* Work-groups of 256 on GPUs (the BLOCKS tile: 4096 f32); 64 work-items of runs of 16 on CPUs,
   * where a work-group's loops over work-items are one core's. */
  if (!target->forced.wg_size)
    p->wg_size = caps->type == OCL_REDUCE_DEVICE_CPU ? 64 : 256;
  p->vec = p->unroll = p->chains = 1;
  /* The run (tile_run), shorter where local memory is short. */
  unsigned run = tile_run(caps, window, p->wg_size, state);
  const uint64_t local = caps->local_mem_bytes < ORX_WIN_LOCAL_BYTES ? caps->local_mem_bytes
                                                                     : ORX_WIN_LOCAL_BYTES;
  while (p->wg_size > 32 && orx_win_tile_bytes(p->wg_size, run, state) > local)
    p->wg_size /= 2;
  while (run > 1 && orx_win_tile_bytes(p->wg_size, run, state) > local)
    run /= 2;
  /* Warp shuffles need whole warps (a forced smaller work-group would leave lanes out). */
  if (orx_subgroup_impl_warps(p->subgroup_impl) && p->wg_size < caps->warp_size)
    p->wg_size = caps->warp_size;
  /* A fold per window on CPUs: one window per work-item, which PoCL vectorizes across them. */
  plan->win.run = caps->type == OCL_REDUCE_DEVICE_CPU && target->forced.win_algo < 0 &&
                          window <= ORX_WIN_DIRECT_MAX
                      ? 1
                      : run;
  plan->win.lanes = caps->warp_size ? caps->warp_size : ORX_WIN_LANES;
  if (plan->win.lanes > p->wg_size)
    plan->win.lanes = p->wg_size;

  /* Where subgroups are work-group barriers (PoCL's CPU device) the lane groups merge through
   * local memory: with shuffles, PoCL 5.0 gave wrong results for state operators (as for
   * segments, planner.c). */
  if (caps->emulated_subgroups)
    p->subgroup_impl = OCL_REDUCE_SUBGROUP_NONE;

  int algo = windows_algo(target, plan, window);
  if (algo == ORX_WIN_LONG && !orx_win_long_fit_tile(target, window, state, p, &plan->win.run))
    algo = window <= orx_win_tile(plan) / 2 + 1 ? ORX_WIN_BLOCKS : ORX_WIN_SERIAL;
  plan->win.algo = algo;
  if (algo == ORX_WIN_LONG)
    orx_win_long_fit_runs(target, window, state, plan);
  fit_serial_groups(target, algo, p);

  windows_defines(target, request, plan);
}

uint64_t orx_win_scratch_states(const orx_plan *plan, uint64_t n_out, uint64_t window,
                                size_t groups) {
  /* LONG: a total and a head per tile of the launch's n_out + window - 1 elements, which may
   * start and end inside tiles; in one pass, each as 8-byte words of 32 bits of it, after the
   * ticket's word (lib/orx_window_long.cl). */
  const uint64_t tiles = (n_out + window - 2) / orx_win_tile(plan) + 2;
  if (plan->win.algo == ORX_WIN_LONG && plan->defines[ORX_DEFINE_WIN_ONE_PASS] == 1) {
    const uint64_t state = plan->op.state_bytes, words = (state + 3) / 4;
    return ((1 + 2 * tiles * words) * 8 + state - 1) / state;
  }
  return plan->win.algo == ORX_WIN_LONG ? 2 * tiles
         : plan->win.algo == ORX_WIN_SERIAL ? window * plan->policy.wg_size * groups
                                            : 0;
}

size_t orx_win_groups(const orx_plan *plan, uint64_t n_out, uint64_t window, size_t scratch) {
  const unsigned wg = plan->policy.wg_size;
  uint64_t groups;
  switch (plan->win.algo) {
  case ORX_WIN_SHUFFLE:
  case ORX_WIN_MR: {
    const uint64_t sets = (n_out + plan->win.lanes - 1) / plan->win.lanes;
    const uint64_t sets_per_group = wg / plan->win.lanes;
    groups = (sets + sets_per_group - 1) / sets_per_group;
    break;
  }
  case ORX_WIN_BLOCKS:
  case ORX_WIN_SPANS: {
    const uint64_t per_tile = orx_win_per_tile(plan, window);
    groups = (n_out + per_tile - 1) / per_tile;
    break;
  }
  case ORX_WIN_LONG:
    /* A tile of results per work-group (the first may start before the launch). */
    groups = (n_out - 1) / orx_win_tile(plan) + 2;
    break;
  case ORX_WIN_SERIAL:
    /* Contiguous ranges of blocks per work-item: a few work-groups per core (the policy's). */
    groups = (n_out / window + 2 + wg - 1) / wg;
    if (groups > plan->policy.max_groups)
      groups = plan->policy.max_groups;
    if (groups > scratch / wg)
      groups = scratch / wg;
    break;
  default: /* DIRECT */
    groups = (n_out + orx_win_tile(plan) - 1) / orx_win_tile(plan);
  }
  if (groups > ORX_WIN_MAX_GROUPS)
    groups = ORX_WIN_MAX_GROUPS;
  return groups ? (size_t)groups : 1;
}
