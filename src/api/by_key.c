/* =================================================================================================
 * by_key.c: ocl_reduce_by_key, the runs of equal keys: every argument checked before anything
 * runs (the outputs' sizes once the runs are known, by run_by_key.c), then the run.
 * ============================================================================================== */
#include <string.h>

#include "exec/context.h"
#include "exec/entry.h"
#include "exec/run.h"

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
  ORX_FORWARD(orx_key_bytes(ctx, function, key_type, &k.key_bytes));
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
