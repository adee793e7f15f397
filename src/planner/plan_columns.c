/* =================================================================================================
 * plan_columns.c: how an axes reduction of the COLUMNS form (plan_axes.h) runs in place
 * (kernels/axes_columns.cl): the kept positions a work-item takes, and how many chunks the
 * reduced positions are cut into when the kept positions alone leave the device idle.
 *
 * The policy is the whole-array one of the same type and operator (its work-group size and grid:
 * the work-items that fill the device); only the shape of a work-item's work differs, and on CPU
 * devices the groups, a work-item each (orx_plan_columns).
 * ============================================================================================== */
#include "planner/plan_axes.h"

/* A chunk shorter than this is not worth a partial state (its write and read back cost about
 * one more element each). */
#define ORX_COLUMNS_MIN_CHUNK 64
/* CPUs: the bytes of elements (or states) a work-item's run of kept positions covers, so that
 * each step reads a whole page of one row (sequential lines that the prefetcher, which stops at
 * a 4 KiB page, follows to its end) into accumulators that stay in L1. A kilobyte, as first
 * chosen, read 16 lines of a page and jumped a row: f32 SUM from a buffer, this 2-core machine,
 * medians of 20 (`ocl-reduce bench --shape S --axes A`), 1 KiB -> 4 KiB (16 KiB: between):
 * PoCL 3.1 [2048, 16384] {0} 22.1 -> 12.2 ms (0.87 -> 1.37x an OpenMP loop), [256, 16384] {0}
 * 2.7 -> 1.6 ms, [64, 256, 1024] {0} 10.9 -> 6.0, [64, 64, 1024] {1} 3.4 -> 2.2; Intel's
 * runtime [2048, 16384] {0} 28.5 -> 22.3, [64, 256, 1024] {0} 14.6 -> 10.2. PoCL 5 on a
 * 16-core host had 1 KiB runs at 0.51x OpenMP for [2^11, 2^14] {0} (docs/perf/h200-axes.txt,
 * run G), and longer runs were slower there too (run L, col_run=N, f32 SUM of 2^25, one call,
 * pages against 8/16/32 KiB): the window's {0} 511-581 us against 775/611/680-691,
 * [2^11, 2^14] {0} 1892-2099 against 2018/2236/2408-2569. On GPUs a run is one position (a
 * warp's lanes, on neighbouring positions, are what makes its loads coalesce), or one vector of
 * the whole-array policy (16 bytes) where a scalar built-in reads a contiguous kept axis whose
 * columns are too short to cut into chunks: a lane's few loads had better be wide. H200, f32
 * sums of 2^28 (bench_axes, same runs; docs/perf/h200-axes.txt): [2^4, 2^24] along axis 0 took
 * 389-403 us a position per lane, 340-342 us a vector per lane, and 283-287 us (0.86-0.90x our
 * whole-array rate, was 0.76-0.78) once the run is stored as one vector too (axes_columns.cl;
 * run L); the longer columns were slower by vectors (the window of [2^13, 2^13]: 87 us against
 * 103, [2^14, 2^14]: 265 against 268-272). */
#define ORX_COLUMNS_CPU_RUN_BYTES 4096

orx_axes_route orx_plan_axes_route(const orx_target *target, const orx_axes_layout *l,
                                   int from_host, int splittable) {
  if (l->form == ORX_AXES_EMPTY || l->form == ORX_AXES_WHOLE)
    return ORX_AXES_IN_PLACE;
  if (l->form == ORX_AXES_ROWS)
    return !from_host || l->kept.strides[0] == l->length ? ORX_AXES_IN_PLACE : ORX_AXES_GATHER;
  const int split = l->split.possible && splittable;
  if (from_host)
    return ORX_AXES_GATHER;
  switch (target->forced.axes_route) {
  case ORX_AXES_FORCE_GATHER: return ORX_AXES_GATHER;
  case ORX_AXES_FORCE_IN_PLACE: return ORX_AXES_IN_PLACE;
  case ORX_AXES_FORCE_SPLIT: if (split) return ORX_AXES_SPLIT; break;
  default: break;
  }
  /* GPUs read columns in place (coalesced along the kept axis) and split or gather the rest: a
   * work-item along its own row would read alone. H200, f32 [256, 1024, 1024] reducing {0, 2}:
   * gathered 3.2 ms, 0.075x our whole-array rate; in two passes 262-267 us, 0.90-0.95x
   * (docs/perf/h200-axes.txt, runs D and E). CPUs read every view in place: a work-item's
   * straight runs are sequential lines, and the gather (a division per axis per element) is the
   * slower by far. f32 from a buffer, medians of 20 (bench_axes through `ocl-reduce bench`), a
   * 2-core machine, in place against gathered: PoCL [2^8, 2^14] {0} 2.6 ms against 38 ms,
   * [2^20, 2^4] {0} 5.3 against 214, [64, 64, 1024] {1} 3.3 against 42, {0, 2} 2.3 against 66;
   * Intel's runtime alike. */
  if (l->form == ORX_AXES_COLUMNS || target->caps->type == OCL_REDUCE_DEVICE_CPU)
    return ORX_AXES_IN_PLACE;
  return split ? ORX_AXES_SPLIT : ORX_AXES_GATHER;
}

/* The work-items that fill the device: the whole-array grid. */
static uint64_t grid_items(const orx_plan *plan) {
  return (uint64_t)plan->policy.max_groups * plan->policy.wg_size;
}

/* The most parts `length` reduced positions are cut into: chunks of ORX_COLUMNS_MIN_CHUNK. */
static uint64_t most_parts(uint64_t length) {
  return (length + ORX_COLUMNS_MIN_CHUNK - 1) / ORX_COLUMNS_MIN_CHUNK;
}

/* The longest run up to `most` kept positions, a power of two that divides the contiguous kept
 * run: a run never crosses its end. */
static uint64_t run_dividing(uint64_t most, uint64_t kept_run) {
  uint64_t run = 1;
  while (run * 2 <= most && kept_run % (run * 2) == 0)
    run *= 2;
  return run;
}

/* The runs a work-item loads before it absorbs them. GPUs: 16, at most 128 bytes, loaded into
 * registers first (the loop the compiler unrolled kept 8 scalar loads in flight; a work-item
 * walks its column alone, so reads in flight per SM, not occupancy, set the rate). H200, CUDA,
 * f32 SUM of 2^28, bench_axes, one call, medians of 3 (docs/perf/h200-axes.txt run H): the
 * unrolled loop [2^14, 2^14] along axis 0 310 us (0.78x our whole-array rate; Nsight Compute:
 * 64 registers, DRAM at 75 % of its peak), batches of 4 412 us, of 8 266 us (48 registers,
 * DRAM 90 %), of 16 259 us (0.93x); f64 521 / 580 / 570 / 491 us. Batches of 32 (col_steps=32,
 * run L) gained where a warp reads two parts' short rows ([2^24, 2^4] along axis 0 302-304 ->
 * 285-289 us) and lost on the square (265 -> 286) and f64 (503-506 -> 531-533): not taken, one
 * backend measured. CPU devices: one, their run is a page of a row already. */
static unsigned columns_steps(const orx_target *target, const orx_request *request,
                              uint64_t run) {
  if (target->forced.col_steps)
    return target->forced.col_steps;
  if (target->caps->type == OCL_REDUCE_DEVICE_CPU)
    return 1;
  const size_t elem = orx_request_element_bytes(request); /* a batch holds elements */
  unsigned steps = 16;
  while (steps > 1 && steps * run * elem > 128)
    steps /= 2;
  return steps;
}

/* What CPU devices do differently. */
static void columns_on_cpus(const orx_target *target, orx_plan *plan) {
  /* PoCL's work-items absorb a run best straight from memory (its compiler vectorizes a
   * work-item's loop over the run); Intel's runtime, which runs work-items side by side in
   * vector lanes, was up to 1.6x slower that way. PoCL 5, the H200 machine's 16 cores, f32 SUM
   * of 2^25 (bench_axes 3 "{0}" 3, one call, docs/perf/h200-axes.txt run J), the previous main
   * against straight loads (and short runs unrolled, axes_columns.cl): [2^11, 2^14] {0} 4.1-4.2
   * -> 3.0-3.5 ms, the window {0} 1.35-1.45 -> 1.17, [256, 1024, 1024] {1} 3.5-3.8 -> 3.0-3.1,
   * [2^24, 2^4] {0} 2.2-2.4 -> 1.6-1.8; this 2-core machine (PoCL 3.1, `ocl-reduce bench --shape
   * S --axes A`, two rounds) [2048, 16384] {0} 6.2-6.4 -> 4.6-4.7, [64, 64, 1024] {1} 0.41-0.50
   * -> 0.16-0.26, [2^22, 16] {0} 11.3-11.4 -> 6.3-7.1 ms. */
  if (target->caps->work_items_in_turn)
    plan->defines[ORX_DEFINE_COL_DIRECT] = 1;
  /* CPU devices: a work-item per group, as many groups as the whole-array grid has work-items.
   * A CPU device runs its groups on its cores (a group's work-items on one), so groups of 16
   * left cores idle or unevenly loaded where the runs and parts are few: [2^11, 2^14] {0} cut
   * into 32 parts of 16 runs is 32 groups for 16 cores. PoCL 5, the H200 machine's 16 cores,
   * f32 SUM of 2^25, bench_axes 3 "{0}" 3, one call (docs/perf/h200-axes.txt run J), groups of
   * 16 against groups of 1 (OCL_REDUCE_POLICY=wg=1,groups=1024): [2^11, 2^14] {0} 3.0-3.5 ->
   * 1.8-2.0 ms (0.41-0.56 -> 0.81-0.86x an OpenMP loop), rows 2^14 + 64 apart 2.8-3.7 -> 1.8-2.0,
   * the window {0} 1.17 -> 0.54-0.78, f64 4.0-4.2 -> 3.3-3.4, [256, 1024, 1024] {1} 3.0-3.1 ->
   * 1.9; level within the noise where the runs were many ([2^4, 2^24] {0} 2.5-2.7 -> 2.7-3.4,
   * the tensor's {0} 1.9-2.0 -> 2.1-2.4, [2^24, 2^4] {0} 1.6-1.8 -> 1.5-1.8). */
  plan->policy.max_groups = (unsigned)grid_items(plan);
  plan->policy.wg_size = 1;
  plan->defines[ORX_DEFINE_WG_SIZE] = 1;
}

/* Bytes of one accumulator: a state, or an element at least. */
static size_t accumulator_bytes(const orx_request *request, const orx_plan *plan) {
  const size_t elem = orx_request_element_bytes(request);
  return plan->op.state_bytes > elem ? plan->op.state_bytes : elem;
}

/* The kept positions a work-item takes: a vector of the whole-array policy where tall columns
 * load rows (scalar built-ins over a contiguous kept axis it divides), else as below. */
static uint64_t columns_run(const orx_target *target, const orx_request *request,
                            const orx_plan *plan, int tall) {
  const int vector = !orx_operator_is_state(&plan->op) && request->kept_run % plan->policy.vec == 0;
  uint64_t run = 1;
  if (tall) {
    run = vector ? plan->policy.vec : 1;
  } else if (target->caps->type == OCL_REDUCE_DEVICE_CPU) {
    run = run_dividing(ORX_COLUMNS_CPU_RUN_BYTES / accumulator_bytes(request, plan),
                       request->kept_run);
    /* Not halved where the runs leave cores without groups: PoCL 5 on a 16-core host gained
     * on some views ([2^11, 2^14] {0} 0.37 -> 0.63x an OpenMP loop) and lost on others (the
     * tensor's {1} 0.76 -> 0.64x; docs/perf/h200-axes.txt, run I, a noisy host), and here
     * (2 cores) PoCL [256, 16384] {0} took 2.0-2.4 ms against 1.5-1.8 with pages, [64, 64,
     * 1024] {1} 2.0-2.1 against 1.2-1.8. */
  } else if (vector && request->shape.length < ORX_COLUMNS_MIN_CHUNK) {
    run = plan->policy.vec;
  }
  if (target->forced.col_run)
    run = run_dividing(target->forced.col_run, request->kept_run);
  return run;
}

/* Runs of `run` kept positions in a row of `results`. */
static uint64_t runs_of(uint64_t results, uint64_t run) { return (results + run - 1) / run; }

/* GPUs: columns not cut into parts (at least as many runs as the whole-array grid has
 * work-items, which then loop over them) take half its groups, four of 256 work-items per SM
 * (1056 on an H200): resident together whatever the kernel's registers (48-64: five such groups
 * per SM at most), where the whole grid left a second wave of groups to start while the first
 * looped. H200, f32 SUM along axis 0, bench_axes 3, main against this in one call, three rounds
 * (docs/perf/h200-axes.txt run O): [256, 1024, 1024] CUDA 270.6-274.1 -> 253.9-258.4 us (0.91
 * -> 0.97-0.98x our whole-array rate), NVIDIA's OpenCL 266.9-267.8 -> 256.4-259.6; [2^4, 2^24]
 * level (274.5 / 273.9, 270.4 / 273.1). Columns cut into parts keep the grid: with half of it
 * their parts halve too (OCL_REDUCE_POLICY=groups=528: [2^14, 2^14] 264 -> 353 us, the window
 * 79 -> 91). Not where OCL_REDUCE_POLICY sets groups=N. */
static void columns_one_wave(const orx_target *target, const orx_request *request, orx_plan *plan) {
  const uint64_t runs = runs_of(request->shape.count, orx_plan_columns_run(plan));
  if (!target->forced.max_groups && runs >= grid_items(plan) && plan->policy.max_groups >= 2)
    plan->policy.max_groups /= 2;
}

/* Whether a view's columns are tall (axes_columns.cl, ORX_COL_TALL): a 2-D view (request->
 * columns_flat) whose contiguous kept axis holds at most a quarter of a work-group's runs, so
 * that a group reads four rows or more side by side, as the whole-array kernels read, and its
 * rows combine into one partial per part. GPUs only (CPU devices keep a work-item per page of a
 * row); not for order-preserving operators (rows are dealt to parts); a power of two of runs (a
 * fixed tree over whole rows); the group's accumulators fit local memory. H200, f32 SUM of
 * [2^24, 2^4] along axis 0 (bench/column_limits.cu, one call): a hand-written kernel of this
 * layout, 1056 groups, then its last group over the partials, took 248.9 us (0.99x its
 * whole-array sum), where a work-item per column and part, as below, took 290-296 us through
 * CUDA (0.82-0.83x our whole-array rate). Forced either way by OCL_REDUCE_POLICY=col_tall
 * (on CPU devices too, with their policy's groups: how the tests reach it there). */
static int columns_tall(const orx_target *target, const orx_request *request,
                        const orx_plan *plan) {
  const int forced = target->forced.col_tall;
  if (forced == 0 || !request->columns_flat || plan->op.ordered ||
      request->kept_run != request->shape.count)
    return 0;
  const uint64_t runs = runs_of(request->shape.count, columns_run(target, request, plan, 1));
  const uint64_t wg = plan->policy.wg_size;
  if ((runs & (runs - 1)) != 0 || runs > wg ||
      wg * (uint64_t)plan->policy.vec * accumulator_bytes(request, plan) + 64 >
          target->caps->local_mem_bytes)
    return 0;
  return forced == 1 || (target->caps->type != OCL_REDUCE_DEVICE_CPU && runs * 4 <= wg);
}

static int plan_is_tall(const orx_plan *plan) { return plan->defines[ORX_DEFINE_COL_TALL] == 1; }

/* Whether the first launch finishes itself (axes_columns.cl, ORX_COL_FINISH): where its
 * partials would take one more launch of one part (64 parts at most: the same fold, so the same
 * bits), the device orders work-groups (lib/orx_finish.cl; not where OCL_REDUCE_POLICY says
 * finish=launch), and the view is small enough that the launch saved outweighs what the finish
 * costs the fold: its registers (ptxas, sm_90, f32: 60-64 against 48) leave a group fewer per SM
 * resident. H200, f32 SUM along axis 0, bench_axes 3, one call, this launch / a launch over the
 * partials (docs/perf/h200-axes.txt, run N): the [2^13, 2^13] window of a [2^13, 2^14] matrix
 * (256 MiB read, 33 parts) CUDA 78.3 / 86.5 us, NVIDIA's OpenCL 78.7 / 83.1; [2^14, 2^14]
 * (1 GiB, 17 parts) 278.5 / 264.2 and 286.0 / 280.9; f64 (2 GiB) 522.2 / 498.6 and 524.0 /
 * 525.1. So views of 512 MiB at most (between the two, not measured). Not on CPU devices,
 * where it was slower: PoCL 3.1, this 2-core machine, f32 SUM along axis 0 (`ocl-reduce bench
 * --shape S --axes 0`, the previous main's library against this one, three rounds, the fastest
 * of each, the host noisy): [256, 64, 1024] (2 parts) 2.02 -> 2.34 ms, [4096, 8192] (16 parts)
 * 4.36 -> 4.84 ms. Tall columns keep their launch over the parts' partials.
 * OCL_REDUCE_POLICY=col_finish=1 takes it wherever the device orders work-groups (how the
 * tests reach it on CPU devices), col_finish=0 nowhere. */
#define ORX_COLUMNS_FINISH_MAX_BYTES ((uint64_t)512 << 20)
static int columns_finish(const orx_target *target, const orx_request *request,
                          const orx_plan *plan) {
  const int forced = target->forced.col_finish;
  if (forced == 0 || request->stage != ORX_STAGE_WHOLE || plan->policy.finish_launch ||
      plan_is_tall(plan))
    return 0;
  const uint64_t results = request->shape.count, length = request->shape.length;
  const uint64_t parts = orx_plan_columns_parts(plan, results, length);
  if (parts < 2 || parts > ORX_COLUMNS_MIN_CHUNK)
    return 0;
  const size_t elem = orx_request_element_bytes(request);
  return forced == 1 || (target->caps->type != OCL_REDUCE_DEVICE_CPU &&
                         length <= ORX_COLUMNS_FINISH_MAX_BYTES / elem / (results ? results : 1));
}

void orx_plan_columns(const orx_target *target, const orx_request *request, orx_plan *plan) {
  plan->kernel = ORX_KERNEL_AXES_COLUMNS;
  /* No last group finishes: partials are reduced by further launches. */
  plan->defines[ORX_DEFINE_FINISH_LAUNCH] = ORX_DEFINE_UNSET;
  plan->defines[ORX_DEFINE_SYNC] = ORX_DEFINE_UNSET;
  const int tall = columns_tall(target, request, plan);
  const uint64_t run = columns_run(target, request, plan, tall);
  plan->defines[ORX_DEFINE_COL_RUN] = (int64_t)run;
  plan->defines[ORX_DEFINE_COL_STEPS] = (int64_t)columns_steps(target, request, run);
  /* One kept axis and one reduced axis (2-D views, a tensor's outer axis over its merged inner
   * ones, the last launch over partials) whose columns are not cut into parts: a position's
   * offset is one product and a work-item's positions one straight run, so the kernel keeps no
   * index per axis. H200, CUDA, f32 SUM of 2^28 (Nsight Compute; bench_axes, the same binary
   * with the straight loop on and off, two rounds each, docs/perf/h200-axes.txt run F): the
   * general kernel takes 64 registers for [2^4, 2^24] along axis 0, leaving 48 % of the SM's
   * warps resident and DRAM at 74 % of its peak (the whole array's: 91 %); the straight loop
   * takes 44 (56 %), 343 -> 327 us, and the tensor [256, 1024, 1024] along axis 0 268 -> 259 us.
   * Columns cut into parts ran slower straight: [2^14, 2^14] 315 -> 349 us, f64 532 -> 653,
   * [2^24, 2^4] 295 -> 310. Capping the general kernel's registers at 32 (min_groups=8) spilled:
   * 1.3x slower. */
  if (tall)
    plan->defines[ORX_DEFINE_COL_TALL] = 1;
  else if (request->columns_flat)
    plan->defines[ORX_DEFINE_COL_FLAT] = 1;
  if (target->caps->type == OCL_REDUCE_DEVICE_CPU && !tall)
    columns_on_cpus(target, plan);
  else if (!tall)
    columns_one_wave(target, request, plan);
  if (columns_finish(target, request, plan)) {
    plan->defines[ORX_DEFINE_COL_FINISH] = 1;
    plan->defines[ORX_DEFINE_SYNC] = plan->policy.sync;
  }
}

unsigned orx_plan_columns_run(const orx_plan *plan) {
  const int64_t run = plan->defines[ORX_DEFINE_COL_RUN];
  return run > 0 ? (unsigned)run : 1;
}

uint64_t orx_plan_columns_items(const orx_plan *plan, uint64_t results, uint64_t parts) {
  if (plan_is_tall(plan)) /* a group a part */
    return parts * plan->policy.wg_size;
  if (plan->defines[ORX_DEFINE_COL_FINISH] == 1) /* a group a tile */
    return orx_plan_columns_blocks(plan, results) * plan->policy.wg_size * parts;
  return runs_of(results, orx_plan_columns_run(plan)) * parts;
}

uint64_t orx_plan_columns_blocks(const orx_plan *plan, uint64_t results) {
  if (plan->defines[ORX_DEFINE_COL_FINISH] != 1)
    return 0;
  return runs_of(runs_of(results, orx_plan_columns_run(plan)), plan->policy.wg_size);
}

uint64_t orx_plan_columns_parts(const orx_plan *plan, uint64_t results, uint64_t length) {
  const uint64_t runs = runs_of(results, orx_plan_columns_run(plan));
  if (plan_is_tall(plan)) {
    /* Half the grid's groups (one wave of groups), each work-item ORX_COLUMNS_MIN_CHUNK rows
     * at least. H200, f32 SUM of [2^24, 2^4] along axis 0 (bench_axes, medians of 5, two
     * rounds, one call; groups forced through the policy's groups=N, which sets this grid):
     * CUDA 528 / 1056 / 2112 groups 263-264 / 264-265 / 266-267 us, NVIDIA's OpenCL 262-264 /
     * 281-286 / 259-260 (1056 groups of 256 are more than its registers leave resident: a
     * second wave for a few). */
    const uint64_t chunk = plan->policy.wg_size / runs * ORX_COLUMNS_MIN_CHUNK;
    const uint64_t parts = (length + chunk - 1) / chunk, most = plan->policy.max_groups / 2;
    return parts < 1 ? 1 : most < 1 ? 1 : parts < most ? parts : most;
  }
  /* As many parts as the grid's work-items hold whole, a power of two. Rounded up, as before,
   * [2^14, 2^14]'s 16384 runs took 17 parts on a grid of 270336 work-items: the last 8192
   * (part, run) pairs were a second round for 32 groups after the rest had finished. H200, f32
   * SUM along axis 0, bench_axes 3, the previous main's library and this one taking turns in one
   * call (docs/perf/h200-axes.txt run P): NVIDIA's OpenCL [2^14, 2^14] 282.3-282.5 -> 256.8-259.1
   * us (0.88-0.90 -> 0.97x our whole-array rate), its rows 2^14 + 64 apart 280.7-281.0 ->
   * 258.5-262.5, f64 525.8-525.9 -> 494.6-496.3, the [2^13, 2^13] window (33 -> 32 parts,
   * finishing in the launch) 76.2-77.8 -> 73.2-75.7; CUDA the window 77.1 -> 74.6, the rest
   * within 2 % (the square 261.2 -> 267.2, 262-264 at 16 parts in the call before). Below three
   * parts as before (one, or two where the runs fill half the grid: not measured). */
  const uint64_t wanted = grid_items(plan), most = most_parts(length);
  uint64_t parts = (wanted + runs - 1) / runs;
  if (parts > 2) {
    parts = 2;
    while (parts * 2 * runs <= wanted)
      parts *= 2;
  }
  if (parts > most)
    parts = most;
  return parts ? parts : 1;
}
