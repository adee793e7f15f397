/* =================================================================================================
 * plan_request.c: what the planner is asked (planner.h): operators as plans carry them, built-in
 * or a user's, and the whole-array requests the other entries start from.
 * ============================================================================================== */
#include <string.h>

#include "planner/planner.h"

orx_operator orx_builtin_operator(orx_op_id op, ocl_reduce_type type) {
  orx_operator o;
  memset(&o, 0, sizeof o);
  o.id = op;
  /* 16-bit elements: f32 states, and results of their own size (ids.c). */
  if ((orx_op_flags(op) & ORX_OPF_STATE) || orx_type_is_narrow(type)) {
    const orx_state_facts f = orx_state_facts_of(op, type);
    o.state_bytes = f.state_bytes;
    o.state_align = f.state_align;
    o.result_bytes = f.result_bytes;
  }
  return o;
}

int orx_operator_is_state(const orx_operator *op) {
  return op->id == ORX_OP_CUSTOM || (orx_op_flags((orx_op_id)op->id) & ORX_OPF_STATE);
}

orx_request orx_reduce_request(orx_op_id op, ocl_reduce_type type) {
  orx_request r;
  memset(&r, 0, sizeof r);
  r.entry = ORX_ENTRY_REDUCE;
  r.type = type;
  r.op = orx_builtin_operator(op, type);
  return r;
}

orx_request orx_custom_request(const orx_operator *op) {
  orx_request r;
  memset(&r, 0, sizeof r);
  r.entry = ORX_ENTRY_REDUCE;
  r.type = (ocl_reduce_type)op->element_type;
  r.op = *op;
  return r;
}

int orx_stage_reads_states(orx_stage stage) {
  return stage == ORX_STAGE_FINAL || stage == ORX_STAGE_MERGE;
}

int orx_stage_writes_states(orx_stage stage) {
  return stage == ORX_STAGE_PARTIAL || stage == ORX_STAGE_MERGE;
}

size_t orx_request_element_bytes(const orx_request *request) {
  if (request->pair.on && request->pair.op != ORX_PAIR_USER) /* a user's: op.element_bytes */
    return orx_type_size(request->pair.type);
  return request->op.element_bytes ? request->op.element_bytes : orx_type_size(request->type);
}
