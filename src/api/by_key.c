/* =================================================================================================
 * by_key.c: ocl_reduce_by_key, the runs of equal keys: every argument checked before anything
 * runs (the outputs' sizes once the runs are known, by run_by_key.c), then the run.
 * ============================================================================================== */
#include <string.h>

#include "exec/context.h"
#include "exec/entry.h"
#include "exec/run.h"

/* Bytes of a key of key_type: 4 or 8, the integer types; floats are refused by name. */
static ocl_reduce_status key_bytes_of(ocl_reduce_context *ctx, const char *function,
                                      ocl_reduce_type key_type, size_t *bytes) {
  switch (key_type) {
  case OCL_REDUCE_I32:
  case OCL_REDUCE_U32: *bytes = 4; return OCL_REDUCE_OK;
  case OCL_REDUCE_I64:
  case OCL_REDUCE_U64: *bytes = 8; return OCL_REDUCE_OK;
  case OCL_REDUCE_F32:
  case OCL_REDUCE_F64:
  case OCL_REDUCE_F16:
  case OCL_REDUCE_BF16:
    return orx_fail(ctx, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: key_type %s: keys are i32, u32, i64 or u64 (compared as bits)", function,
                    ocl_reduce_type_name(key_type));
  }
  return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: key_type %d is not a type",
                  function, (int)key_type);
}

ocl_reduce_status ocl_reduce_by_key(ocl_reduce_context *ctx, ocl_reduce_op op,
                                    ocl_reduce_type type, ocl_reduce_type key_type,
                                    ocl_reduce_input keys, ocl_reduce_input values, size_t count,
                                    ocl_reduce_output keys_out, ocl_reduce_output results_out,
                                    uint64_t *run_count) {
  static const char function[] = "ocl_reduce_by_key";
  ORX_ENTER(ctx, function);
  orx_seg_call c;
  ORX_FORWARD(orx_seg_call_init(ctx, &c, function, op, type));
  orx_key_call k;
  memset(&k, 0, sizeof k);
  ORX_FORWARD(key_bytes_of(ctx, function, key_type, &k.key_bytes));
  ORX_CHECK_ARG(ctx, run_count, "%s: run_count is NULL", function);
  ORX_FORWARD(orx_resolve_input(ctx, function, "keys", &keys, k.key_bytes, count, &k.keys));
  ORX_FORWARD(orx_resolve_input(ctx, function, "values", &values, c.elem, count, &c.in));
  ORX_FORWARD(
      orx_resolve_output(ctx, function, "keys_out", &keys_out, k.key_bytes, 0, &k.keys_out));
  ORX_FORWARD(
      orx_resolve_output(ctx, function, "results_out", &results_out, c.result_bytes, 0, &c.out));
  c.elements = count;
  return orx_run_by_key(ctx, &k, &c, run_count);
}
