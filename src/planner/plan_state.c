/* =================================================================================================
 * plan_state.c: how the kernels of a state operator (a structured built-in or a user's operator,
 * ORX_STATE) are shaped: loads and accumulator chains per work-item, work-group size against
 * local memory, and where states combine. The measurements behind each choice are next to it.
 * ============================================================================================== */
#include "planner/plan_state.h"

/* GPUs, the loads in flight and chains by operator. H200, f32 2^28, device us (our f32 sum: 245-248
 * in the same runs), CUDA / NVIDIA OpenCL: ARGMIN with 4 loads in flight and 1 chain 293.5 / 268.1,
 * 2 chains 271.5 / 266.0, 8 loads and 2 chains 264.3 / 264.1; SUM_COMPENSATED 1 chain 286.4 /
 * 255.5, 2 chains 254.2 / -, 8 loads and 2 chains 251.7 / 247.1; MEAN_VAR 1 chain 257.3 / 277.1, 2
 * chains 271.2 / -, 2 loads 1 chain - / 265.5, 8 loads and 2 chains 266.8 / 357.8; MINMAX
 * (integer-key lanes) 1 chain 252.1 / 246.6. The short compare-and-select steps want more loads and
 * a second chain; Welford's longer step the registers, and on the grid-stride loop (NVIDIA OpenCL)
 * fewer loads. Issuing the next loads before absorbing the last (prefetch, a second run): ARGMIN
 * 262.1 -> 254.8 / 261.7 -> 255.1 (CUB's ArgMin 248.0 / 247.2), MEAN_VAR 254.2 -> 260.8 / 261.7 ->
 * 254.0, SUM_COMPENSATED 249.1 -> 248.4 / 241.6 -> 243.2 (the f32 sum 242.2 / 242.8): ARGMIN's wait
 * on loads (Nsight Compute: 57 % of its stalls) and Welford's on the grid-stride loop are covered
 * by the next loads. */
static void gpu_state_loads(const orx_target *target, const orx_operator *op, orx_policy *p) {
  const orx_caps *caps = target->caps;
  if (op->id == ORX_OP_ARGMIN || op->id == ORX_OP_ARGMAX) {
    p->unroll = 8;
    p->chains = 2;
    p->prefetch = 1;
  } else if (op->id == ORX_OP_SUM_COMPENSATED) {
    p->unroll = 8;
    p->chains = 2;
  } else if (op->id == ORX_OP_MEAN_VAR && p->stream == ORX_STREAM_STRIDED) {
    p->unroll = 2;
    p->prefetch = 1;
  } else if (op->id == ORX_OP_SUM_REPRODUCIBLE && caps->has_cuda_shuffle && p->vec == 4) {
    /* The CUDA backend, f32: 4-element vectors, 4 loads in flight. H200, device us, 2^24 /
     * 2^26 / 2^28 (the f32 sum 24.7-25.9 / 70.8-71.8 / 246.5-246.8 in the same runs): 4
     * elements and 4 loads 31.6-32.4 / 78.3-79.7 / 257.8-259.3 (0.78 / 0.90 / 0.955x); and 8
     * loads 41.1-41.5 / 101.8-103.2 / 329.8-330.3; and 2 loads 35.5-35.6 / 93.1-95.0 / 320.2-321.0;
     * and 3 loads 32.6 / 80.8 / 266.1; with prefetch, 2 chains, or work-groups of 128 or 512,
     * 6-26 % slower; 2 elements and 8 loads (the plan before) 34.5-34.8 / 83.0-84.6 / 281.6-282.9;
     * NVIDIA's OpenCL (4 elements, 8 loads) 30.6-31.5 / 76.0-76.7 / 254.7-256.0. Through NVRTC, 4
     * elements ran at half that speed until the loop over the loads was unrolled by force
     * (lib/orx_cuda_prelude.cl: it kept the loads in an array on the stack). */
    p->unroll = 4;
  }
}

/* State operators: the accumulator is a state of op->state_bytes, and local memory holds two per
 * work-item (lib/orx_workgroup.cl), so large states take smaller work-groups (never below
 * `lanes`). A FINAL stage reads states one at a time. Where subgroups are work-group barriers,
 * shuffling a state word by word costs a barrier per word, so states combine through local
 * memory there. */
void orx_fit_state(const orx_target *target, const orx_operator *op, orx_stage stage,
                   unsigned lanes, orx_policy *p) {
  const orx_caps *caps = target->caps;
  /* A user operator's elements of its own type have no vector type: one per load, with as many
   * loads in flight per work-item as the vector policy has (up to 16). Elements of a scalar type
   * load as vectors, as for built-in operators. */
  if (op->id == ORX_OP_CUSTOM && op->element_type == ORX_CUSTOM) {
    const unsigned loads = p->vec * p->unroll;
    p->unroll = loads < 16 ? loads : 16;
    p->vec = 1;
  }
  if (orx_stage_reads_states(stage))
    p->vec = 1;
  /* Vectors of elements: few chains of ORX_VEC lanes, into which the loads in flight go; the
   * lanes are independent chains already, and a chain per load multiplied the registers (ptxas,
   * sm_90, f32: ARGMIN 80 registers with 4 chains, 40 with one; MEAN_VAR 124 and 56). */
  if (p->vec > 1 && !target->forced.chains)
    p->chains = 1;
  if (p->vec > 1 && caps->type != OCL_REDUCE_DEVICE_CPU && !target->forced.chains &&
      !target->forced.unroll && target->forced.prefetch < 0)
    gpu_state_loads(target, op, p);
  /* CPUs, ARGMIN/ARGMAX: one element per load into one state, as a C loop keeps it, with the
   * skip of elements behind the state (lib/orx_state_ops.cl) a predictable branch. PoCL 3.1, 2
   * cores, f32 2^24, device ms against OpenMP's loop in the same run: 16 lanes (16-element
   * loads) 41.2 against 9.7; 4 lanes 30.6; one 20.8 against 14.1 (argmax 14.6 against 10.4);
   * one without the skip 29.1 against 10.3; one lane with 2 loads in flight 43.1. */
  if (caps->type == OCL_REDUCE_DEVICE_CPU && !orx_stage_reads_states(stage) &&
      (op->id == ORX_OP_ARGMIN || op->id == ORX_OP_ARGMAX) && !target->forced.vec &&
      !target->forced.unroll) {
    p->vec = 1;
    p->unroll = 1;
  }
  if (caps->emulated_subgroups)
    p->subgroup_impl = OCL_REDUCE_SUBGROUP_NONE;
  while (p->wg_size > lanes && p->wg_size > 1 &&
         (uint64_t)2 * p->wg_size * op->state_bytes + 64 > caps->local_mem_bytes)
    p->wg_size /= 2;
  p->items_per_group = (size_t)p->wg_size * p->vec * p->unroll;
}

/* SUM_REPRODUCIBLE's work-group combine: two reductions (the top bin, then the folds as integers:
 * lib/orx_repro_group.cl) where subgroups shuffle, a tree otherwise. On an H100 through CUDA
 * 1.03-1.27x faster up to 2^26 (docs/perf/h100-repro-group-split.txt). NVIDIA's OpenCL compiles
 * it into 74 (f32) and 80 (f64) registers against the tree's 64, so that 3 groups of 256 fit an
 * SM: its whole arrays take it with 3 groups per SM planned (orx_plan_state_groups), its
 * segments keep the tree (their grids were not measured with it). H100, 2026-12-07, device us,
 * two rounds, the tree at 4 per SM / the split at 3 (the f32 sum 30.9-32.0 and 347.8 at 2^24 and
 * 2^28): f32 2^22 18.5-18.6 / 14.8-16.3 (2 per SM up to 2^22: 15.6-16.2), 2^24 37.1-38.0 /
 * 33.0-33.7, 2^26 101.4-102.0 / 96.6-98.0, 2^28 354.6-354.7 / 351.8-354.3; f64 2^24 57.7-58.3 /
 * 55.1-56.2, 2^28 692.3-692.8 / 687.2-689.9 (the tree at 3 per SM: f32 2^24 36.7-36.9, 2^28
 * 354.3-355.1; docs/perf/h100-repro-split-nv-opencl.txt). */
static int state_group_split(const orx_plan *plan) {
  const ocl_reduce_subgroup_impl impl = plan->policy.subgroup_impl;
  const int shuffles = orx_subgroup_impl_shuffles(impl);
  /* The kernels whose work-groups reduce states whole (lib/orx_workgroup.cl, orx_wg_reduce2). */
  const int whole = plan->kernel == ORX_KERNEL_REDUCE_ALL,
            segments = plan->kernel == ORX_KERNEL_SEGMENTS_GROUP;
  return plan->op.id == ORX_OP_SUM_REPRODUCIBLE && shuffles &&
         (whole || (segments && impl != OCL_REDUCE_SUBGROUP_NV_PTX));
}

void orx_state_defines(orx_plan *plan) {
  if (orx_operator_is_state(&plan->op))
    plan->defines[ORX_DEFINE_STATE] = 1;
  if (state_group_split(plan))
    plan->defines[ORX_DEFINE_STATE_GROUP_SPLIT] = 1;
}

/* GPUs, the whole-array launch of ARGMIN/ARGMAX, MEAN_VAR and the reproducible sum: as many
 * groups as stay resident at once, one wave. Their registers leave fewer groups per compute unit
 * than the 8 of the scalar policy (Nsight Compute, H200 through CUDA, 2^24: ARGMIN f32 107
 * registers, 2 groups of 256 per SM; the reproducible sum 52, 4 per SM), and with the tiled layout
 * a second wave of groups starts its shares late. H200, device us against CCCL 3.5's CUB in the
 * same run, CUDA / NVIDIA OpenCL: ARGMIN f32 with 2 groups per SM, 2^22 15.1 / 15.0 (CUB 15.2
 * / 14.6), 2^24 29.3 / 28.1 (30.4 / 29.7), 2^26 73.9 / 70.8 (76.3 / 74.4), 2^28 254.1 / 250.7
 * (254.7 / 252.0), against 8 per SM 18.6, 36.8, 89.5, 260.5 through CUDA; f64 with 2 per SM,
 * 2^22 15.8 / 16.1 (CUB 19.0), 2^24 42.7 / 42.0 (46.2), 2^26 129.6 / 130.4 (134.8), against 4 per
 * SM 19.6 / 18.9, 48.0 / 46.5, 133.6 / 132.5 (fewer loads, unroll=4, were slower at 2^20, 13.6
 * against 11.9); the reproducible f32 sum with 4 per SM, 2^24 35.6 / 31.2 against 39.4 / 36.6,
 * 2^26 84.2 / 75.8 against 91.7 / 81.7, 2^28 282.5 / 254.8 against 285.0 / 258.5 (2 per SM: 2^22
 * faster, 17.7 against 20.0, 2^24 and up slower). The reproducible sum takes 2 per SM up to 2^22
 * elements and 4 above, f64 as f32 (f16 and bf16, read into the f32 kernel, take its grid: their
 * speed not measured).
 * 2026-12-04, device us, one run, CUDA / NVIDIA OpenCL (f64 had the scalar policy's 8 per SM, two
 * waves): f32 2^22 with 2 per SM 17.4-18.2 / 17.2-17.4 against 20.2-21.3 / 20.2-20.4 with 4; with
 * 3 per SM 2^24 30.7-32.7 / 30.6-31.9 against 31.5-32.9 / 32.5-33.3, but 2^28 262.5 / 266
 * against 255; f64 with 4 per SM 2^22 22.9 / 22.2, 2^24 47.7 / 46.3, 2^26 138.0 / 135.7, 2^28
 * 498.6 / 497.0 against 8 per SM 28.3 / 28.2, 51.6 / 51.8, 142.2 / 140.3, 498.5 / 495.9, and 2 per
 * SM at 2^22 21.5 (CUDA). MEAN_VAR, 4 per SM (f32 through CUDA: 56
 * registers, 4 groups of 256 resident per SM, so 8 per SM ran in two waves; Nsight Compute, H100):
 * H100, device GB/s against the previous 8 per SM in the same run (compare.sh, two rounds), CUDA /
 * NVIDIA OpenCL: f32 2^24 1.094 / 1.146x, 2^28 1.006 / 1.010x; f64 2^20 1.065 / 1.354x, 2^24
 * 1.042 / 1.101x, 2^28 1.085 / 1.003x.
 * Up to 2^22 elements ARGMIN/ARGMAX f32 take one group per SM: H100, CUDA / NVIDIA OpenCL, argmin
 * f32 2^22 14.9 / 14.8 us against 16.0 / 15.8 with two (CUB 16.0), argmax 15.7 / 15.2 against
 * 16.7 / 16.1 (CUB 17.9); at 2^24 35.2 / 32.9 against 35.2 / 33.9, at 2^26 and 2^28 slower
 * (101.5 against 99.3, 371.3 against 360.7 through CUDA), and f64 no faster at any size. */
void orx_plan_state_groups(const orx_target *target, const orx_operator *op, size_t elem,
                           orx_stage stage, orx_policy *p) {
  const orx_caps *caps = target->caps;
  if (caps->type == OCL_REDUCE_DEVICE_CPU || target->forced.max_groups || op->ordered ||
      orx_stage_reads_states(stage) || !caps->compute_units)
    return;
  unsigned per_unit = 0;
  if (op->id == ORX_OP_ARGMIN || op->id == ORX_OP_ARGMAX)
    per_unit = 2;
  else if (op->id == ORX_OP_SUM_REPRODUCIBLE && p->subgroup_impl == OCL_REDUCE_SUBGROUP_NV_PTX)
    per_unit = 3; /* the split's registers (state_group_split) */
  else if (op->id == ORX_OP_SUM_REPRODUCIBLE || op->id == ORX_OP_MEAN_VAR)
    per_unit = 4;
  if (per_unit && (size_t)per_unit * caps->compute_units < p->max_groups)
    p->max_groups = per_unit * caps->compute_units;
  /* Up to 2^22 elements: f32 ARGMIN/ARGMAX one group per compute unit, the reproducible sum 2. */
  unsigned small_per_unit = 0;
  if ((op->id == ORX_OP_ARGMIN || op->id == ORX_OP_ARGMAX) && elem == 4)
    small_per_unit = 1;
  else if (op->id == ORX_OP_SUM_REPRODUCIBLE)
    small_per_unit = 2;
  if (small_per_unit && (size_t)small_per_unit * caps->compute_units < p->max_groups) {
    p->small_groups = small_per_unit * caps->compute_units;
    p->small_count = (size_t)1 << 22;
  }
}

/* Order-preserving operators (ORX_ORDERED): one element per load into one chain, and work-items
 * (or warps) that take contiguous runs in order. CPUs read their runs directly (CHUNK). A run per
 * work-item read directly leaves neighbouring work-items far apart on GPUs (H200, f32 sum of 2^26
 * through CUDA: 2.6 TB/s against the grid-stride loop's 3.9): warps read theirs as tiles that
 * the multireduction reduces (WARP_TILES, ORX_WARP_TILES of them at a time), other GPUs through
 * the local-memory stage (TRANSPOSED). A forced layout keeps its kind: chunk and transposed stay,
 * the other GPU layouts become the GPU's. The stage takes local memory beside the two states per
 * work-item. */
void orx_fit_ordered(const orx_target *target, const orx_operator *op, size_t elem,
                     orx_policy *p) {
  const orx_caps *caps = target->caps;
  const int forced = target->forced.stream;
  const int warps = orx_subgroup_impl_warps(p->subgroup_impl);
  p->vec = 1;
  p->chains = 1;
  if (forced == ORX_STREAM_CHUNK || (forced < 0 && caps->type == OCL_REDUCE_DEVICE_CPU))
    p->stream = ORX_STREAM_CHUNK;
  else if (warps && forced != ORX_STREAM_TRANSPOSED)
    p->stream = ORX_STREAM_WARP_TILES;
  else
    p->stream = ORX_STREAM_TRANSPOSED;
  const uint64_t row = p->stream == ORX_STREAM_TRANSPOSED ? ORX_STAGE_ROW_OF(elem) * elem : 0;
  while (p->wg_size > 1 &&
         (uint64_t)p->wg_size * (2 * op->state_bytes + row) + 64 > caps->local_mem_bytes)
    p->wg_size /= 2;
  p->items_per_group = (size_t)p->wg_size * p->unroll;
}
