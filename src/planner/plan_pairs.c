/* =================================================================================================
 * plan_pairs.c: pair operators in the plan of SUM over their values, and user pair operators in
 * their own plan with pairs for elements (plan_pairs.h). The kernel reads vector v of both inputs
 * at once, so both must reach a vector boundary at the same element; inputs whose offsets differ
 * by other than a multiple of the vector take narrower vectors (down to one element), not a copy.
 * Whole arrays on GPUs keep more loads in flight; segments by the multireduction more registers.
 * ============================================================================================== */
#include "planner/plan_narrow.h"
#include "planner/plan_state.h"
#include "planner/planner.h"

void orx_fit_pairs(const orx_target *target, const orx_request *request, orx_policy *p) {
  if (!request->pair.on)
    return;
  while (p->vec > 1 && request->pair.skew % p->vec != 0) /* even where vec is forced */
    p->vec /= 2;
  /* GPUs: twice the loads in flight (a load of each input per vector), in the chains of one.
   * H200, 2^28 pairs, device time, one run (docs/perf/h200-pairs-step4.txt), CUDA / NVIDIA's
   * OpenCL: f32 dot 506.1 / 506.5 us with the sum's 4 loads in 4 chains, 478.7 / 479.9 with 8
   * in 8, 479.4 / 479.4 with 8 in 4 (cuBLAS Sdot's anchor: 500 us); f16 dot 296.4 / 296.9,
   * 291.4 / 292.0 and 247.8 / 247.7 (0.99x our f32 sum's rate over the same bytes; 16 loads:
   * 300.9 / 301.2). */
  if (target->caps->type == OCL_REDUCE_DEVICE_CPU || request->entry != ORX_ENTRY_REDUCE ||
      request->pair.op == ORX_PAIR_USER) /* its states' chains are orx_fit_state's choice */
    return;
  if (!target->forced.unroll && !target->forced.chains && p->unroll <= 4) {
    p->chains = p->unroll;
    p->unroll *= 2;
  }
  p->items_per_group = (size_t)p->wg_size * p->vec * p->unroll;
}

void orx_plan_pairs(const orx_target *target, const orx_request *request, orx_plan *plan) {
  if (!request->pair.on)
    return;
  int64_t *d = plan->defines;
  d[ORX_DEFINE_PAIR_OP] = request->pair.op;
  d[ORX_DEFINE_PAIR_TYPE_ID] = request->pair.type;
  if (orx_type_is_narrow(request->pair.type))
    orx_plan_narrow_split(target, request, request->pair.type, plan);
  /* CUDA's multireduction of equal segments caps its registers for 1024 or 768 work-items per SM
   * (plan_segments.c, mr_items_per_cu); a pair's lanes hold the loads of both inputs, which that
   * cap made spill: 512 (128 registers). H200, f32 dot products of 2^28 pairs through CUDA, device
   * us, the single input's cap (1024; 768 where loads are few) / 768 / 512 work-items, segments
   * of 128: 583.8 / 584.7 / 489.8; 256: 546.2 / 545.2 / 481.2; 512: 539.3 / 539.9 / 477.1; 1000:
   * 556.2 / 558.8 / 494.4; 2000: 532.0 / 541.8 / 494.1; 4096: 511.2 / 509.3 / 481.7, our f32 sum
   * of 2^28 243-246 (at 512: 0.99-1.03x its rate over the bytes read). Shorter segments are
   * staged, with no cap. docs/perf/h200-pairs-step5.txt. */
  const unsigned capped = 512 / plan->policy.wg_size;
  if (plan->kernel == ORX_KERNEL_SEGMENTS_MR && !target->forced.min_groups && capped >= 2 &&
      d[ORX_DEFINE_MIN_GROUPS_PER_CU] != ORX_DEFINE_UNSET &&
      d[ORX_DEFINE_MIN_GROUPS_PER_CU] > capped)
    d[ORX_DEFINE_MIN_GROUPS_PER_CU] = capped;
}

unsigned orx_pair_segments_wg(const orx_target *target, const orx_request *request,
                              const orx_plan *plan) {
  /* NVIDIA's OpenCL has no register cap to lift (CUDA's: orx_plan_pairs), and its
   * compiler gives the pairs' multireduction more registers in work-groups of 128: H200, f32 dot
   * products of 2^28 pairs, NVIDIA's OpenCL, device us, work-groups of 256 / 128 (forced):
   * segments of 512 515.3 / 498.1; 1000 546.6 / 521.7; 2000 561.7 / 530.3, our f32 sum of 2^28
   * 248.8 (docs/perf/h200-pairs-step5.txt). */
  const orx_caps *caps = target->caps;
  if (!request->pair.on || plan->seg.mode != ORX_SEG_MR || caps->has_cuda_shuffle ||
      !caps->warp_size || target->forced.wg_size || plan->policy.wg_size <= 128)
    return 0;
  return 128;
}
