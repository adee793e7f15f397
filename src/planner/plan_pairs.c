/* =================================================================================================
 * plan_pairs.c: pair operators in the plan of SUM over their values (plan_pairs.h). The kernel
 * reads vector v of both inputs at once, so both must reach a vector boundary at the same
 * element; inputs whose offsets differ by other than a multiple of the vector take narrower
 * vectors (down to one element), not a copy. Whole arrays on GPUs keep more loads in flight.
 * ============================================================================================== */
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
  if (target->caps->type == OCL_REDUCE_DEVICE_CPU || request->entry != ORX_ENTRY_REDUCE)
    return;
  if (!target->forced.unroll && !target->forced.chains && p->unroll <= 4) {
    p->chains = p->unroll;
    p->unroll *= 2;
  }
  p->items_per_group = (size_t)p->wg_size * p->vec * p->unroll;
}

void orx_plan_pairs(const orx_request *request, orx_plan *plan) {
  if (!request->pair.on)
    return;
  plan->defines[ORX_DEFINE_PAIR_OP] = request->pair.op;
  plan->defines[ORX_DEFINE_PAIR_TYPE_ID] = request->pair.type;
}
