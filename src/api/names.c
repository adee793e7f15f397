/* =================================================================================================
 * names.c: the public names of statuses (from OCL_REDUCE_STATUS_MAP in the public header), types
 * and operators (from the contract, src/core/ids.c), result sizes, and ocl_reduce_last_error.
 * ============================================================================================== */
#include "core/errors.h"
#include "core/ids.h"

const char *ocl_reduce_status_name(ocl_reduce_status status) {
  switch (status) {
#define ORX_STATUS_NAME(name, code, text)                                                          \
  case OCL_REDUCE_##name:                                                                          \
    return "OCL_REDUCE_" #name;
    OCL_REDUCE_STATUS_MAP(ORX_STATUS_NAME)
#undef ORX_STATUS_NAME
  }
  return "OCL_REDUCE_UNKNOWN_STATUS";
}

const char *ocl_reduce_status_string(ocl_reduce_status status) {
  switch (status) {
#define ORX_STATUS_TEXT(name, code, text)                                                          \
  case OCL_REDUCE_##name:                                                                          \
    return text;
    OCL_REDUCE_STATUS_MAP(ORX_STATUS_TEXT)
#undef ORX_STATUS_TEXT
  }
  return "unknown status";
}

const char *ocl_reduce_last_error(const ocl_reduce_context *ctx) { return orx_error_text(ctx); }

size_t ocl_reduce_type_size(ocl_reduce_type type) { return orx_type_size(type); }

const char *ocl_reduce_type_name(ocl_reduce_type type) { return orx_type_name(type); }

const char *ocl_reduce_op_name(ocl_reduce_op op) { return orx_op_name(op); }

size_t ocl_reduce_result_size(ocl_reduce_op op, ocl_reduce_type type) {
  if (!orx_op_valid(op) || !orx_type_valid(type) || orx_op_type_refusal(op, type))
    return 0;
  return orx_state_facts_of(op, type).result_bytes;
}
