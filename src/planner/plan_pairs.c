/* =================================================================================================
 * plan_pairs.c: pair operators in the plan of SUM over their values (plan_pairs.h). The kernel
 * reads vector v of both inputs at once, so both must reach a vector boundary at the same
 * element; inputs whose offsets differ by other than a multiple of the vector take narrower
 * vectors (down to one element), not a copy.
 * ============================================================================================== */
#include "planner/planner.h"

void orx_fit_pairs(const orx_request *request, orx_policy *p) {
  if (!request->pair.on)
    return;
  while (p->vec > 1 && request->pair.skew % p->vec != 0)
    p->vec /= 2;
}

void orx_plan_pairs(const orx_request *request, orx_plan *plan) {
  if (!request->pair.on)
    return;
  plan->defines[ORX_DEFINE_PAIR_OP] = request->pair.op;
  plan->defines[ORX_DEFINE_PAIR_TYPE_ID] = request->pair.type;
}
