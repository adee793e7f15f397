/* =================================================================================================
 * plan_narrow.c: 16-bit elements (f16, bf16) in the plan of the f32 kernel they are read into
 * (docs/design/half-and-pairs.md): read narrow where a stage reads elements, MIN and MAX stored
 * narrow where it writes results of elements (MIN, MAX, ARGMIN, ARGMAX, MINMAX: lib/orx_types.cl,
 * lib/orx_ops.cl, lib/orx_state_ops.cl); states stay f32.
 * ============================================================================================== */
#include "planner/plan_narrow.h"

/* Vectors of 16-bit elements split on CPU devices, f16 into vload_halfN everywhere, bf16 into its
 * 32-bit words where the implementation vectorizes across work-items (Intel's; PoCL runs them in
 * turn, caps.work_items_in_turn); one load of their lanes elsewhere (lib/orx_types.cl holds the
 * measurements). 2 cores, 2^24 elements, f32 SUM and MAX, device us, in one run each, split
 * against lanes: Intel's CPU runtime f16 1871-1946 against 13372-13953 (OpenMP 2.9-3.2 ms), bf16
 * 3428-3727 against 15105-15301 (OpenMP 1.0-1.8 ms), and a segments program of either built in
 * 0.8 s against 7-8 s (test_segments' 16-bit sweeps 184 s -> 70 s); PoCL 3.1, noisy (fastest
 * calls): f16 1221-1656 against 1215-1641, bf16 1160-1670 against 707-1137, so bf16 keeps its
 * lanes there. GPUs keep the lanes (NVIDIA's OpenCL measured them). */
void orx_plan_narrow_split(const orx_target *target, const orx_request *request,
                           ocl_reduce_type narrow, orx_plan *plan) {
  if (request->host)
    return; /* the host's kernels read element by element (src/host/host_prelude.h) */
  const orx_caps *caps = target->caps;
  const int split = target->forced.narrow_split >= 0
                        ? target->forced.narrow_split
                        : caps->type == OCL_REDUCE_DEVICE_CPU &&
                              (narrow == OCL_REDUCE_F16 || !caps->work_items_in_turn);
  plan->defines[ORX_DEFINE_NARROW_SPLIT] = split;
}

void orx_plan_narrow(const orx_target *target, const orx_request *request, orx_plan *plan) {
  if (!orx_type_is_narrow(request->type) || plan->kernel == ORX_KERNEL_GATHER ||
      plan->kernel == ORX_KERNEL_CHECK_OFFSETS)
    return; /* the gather and the offsets check read no element as a value */
  if (!orx_stage_reads_states(request->stage)) {
    plan->defines[ORX_DEFINE_ELEM_TYPE_ID] = request->type;
    orx_plan_narrow_split(target, request, request->type, plan);
  }
  if (!orx_stage_writes_states(request->stage) && orx_result_is_element(request->op.id))
    plan->defines[ORX_DEFINE_RESULT_NARROW] = request->type;
}

/* 16-bit elements take the f32 kernel's policy, whose vectors of 4 read 8 bytes of them a load
 * on GPUs; NVIDIA's OpenCL then streamed them at 0.87x its f32 rate over the bytes read, and
 * vectors of 8 (16 bytes, as f32 loads) reach it. H200, sums of 2^28 against CUB summing the
 * same data into f32, one run, device us (docs/perf/h200-half-step3.txt): f16 141.8 -> 128.2
 * (CUB 143.2), bf16 141.6 -> 127.4 (142.4), our f32 sum 246.2 (0.87 -> 0.96x its rate); more
 * groups or a longer unroll left it at 136-143. CUDA's prelude has vectors of 4 at most, and
 * CPU devices read 64 bytes of f32 a load already. */
void orx_fit_narrow(const orx_target *target, const orx_request *request, orx_policy *policy) {
  const unsigned id = (unsigned)request->op.id;
  const int scalar_builtin = !orx_operator_is_state(&request->op) && !request->op.ordered &&
                             (id == ORX_OP_SUM || id == ORX_OP_PROD || id == ORX_OP_MIN ||
                              id == ORX_OP_MAX);
  if (!orx_type_is_narrow(request->type) || !scalar_builtin || request->pair.on ||
      request->entry != ORX_ENTRY_REDUCE || /* columns choose their runs by the vector */
      orx_stage_reads_states(request->stage) || target->forced.vec ||
      target->caps->type == OCL_REDUCE_DEVICE_CPU || target->caps->has_cuda_shuffle)
    return;
  const unsigned bytes = (unsigned)orx_type_size(request->type);
  unsigned vec = policy->vec;
  while (vec * bytes < 16 && (target->caps->base_align_bytes == 0 ||
                              2 * vec * bytes <= target->caps->base_align_bytes))
    vec *= 2;
  policy->vec = vec;
  policy->items_per_group = (size_t)policy->wg_size * policy->vec * policy->unroll;
}
