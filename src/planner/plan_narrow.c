/* =================================================================================================
 * plan_narrow.c: 16-bit elements (f16, bf16) in the plan of the f32 kernel they are read into
 * (docs/design/half-and-pairs.md): read narrow where a stage reads elements, MIN and MAX stored
 * narrow where it writes results of elements (MIN, MAX, ARGMIN, ARGMAX, MINMAX: lib/orx_types.cl,
 * lib/orx_ops.cl, lib/orx_state_ops.cl); states stay f32.
 * ============================================================================================== */
#include "planner/plan_narrow.h"

void orx_plan_narrow(const orx_request *request, orx_plan *plan) {
  if (!orx_type_is_narrow(request->type) || plan->kernel == ORX_KERNEL_GATHER ||
      plan->kernel == ORX_KERNEL_CHECK_OFFSETS)
    return; /* the gather and the offsets check read no element as a value */
  if (!orx_stage_reads_states(request->stage))
    plan->defines[ORX_DEFINE_ELEM_TYPE_ID] = request->type;
  if (!orx_stage_writes_states(request->stage) && orx_result_is_element(request->op.id))
    plan->defines[ORX_DEFINE_RESULT_NARROW] = request->type;
}
