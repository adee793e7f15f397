/* =================================================================================================
 * multi.c: ocl_reduce_multi, several operators over the same array: argument checks, then one
 * pass for scalar built-in operators (run_array.c's multi-operator kernel), or one reduction per
 * operator where any other operator is among them.
 * ============================================================================================== */
#include <stdio.h>
#include <string.h>

#include "exec/context.h"
#include "exec/entry.h"
#include "exec/run.h"

static const char function[] = "ocl_reduce_multi";

/* Whether the operators share one pass: scalar built-ins as the context runs them (a state
 * operator, user operators and SUM under OCL_REDUCE_CROSS_DEVICE included, has no slot in the
 * multi-operator kernel), their ids into `ids`. 16-bit elements too where the results go to host
 * memory (run_array.c narrows MIN's and MAX's f32 there) or none of them is an element (SUM and
 * PROD: f32 slots, as the kernel stores them); into a buffer MIN and MAX of them run one pass
 * each, which stores 16-bit elements. */
static int one_pass(const orx_op_call *calls, size_t op_count, const orx_io *out,
                    orx_op_id *ids) {
  for (size_t k = 0; k < op_count; k++) {
    if (calls[k].builtin < 0 || orx_operator_is_state(&calls[k].op))
      return 0;
    if (orx_type_is_narrow(calls[k].type) && !out->host_out &&
        orx_result_is_element((orx_op_id)calls[k].builtin))
      return 0;
    ids[k] = calls[k].builtin;
  }
  return 1;
}

/* Result k at k * slot bytes of the output, one reduction each. A buffer receives each result in
 * place where slot is a multiple of its size; otherwise through host memory (that call waits). */
static ocl_reduce_status one_by_one(ocl_reduce_context *ctx, const orx_op_call *calls,
                                    size_t op_count, size_t slot, const orx_io *in, size_t count,
                                    const orx_io *out) {
  for (size_t k = 0; k < op_count; k++) {
    const size_t size = calls[k].result_bytes;
    orx_io target = *out;
    unsigned char value[ORX_RESULT_SLOT_BYTES];
    const size_t byte = (out->offset + k) * slot;
    if (out->host_out)
      target.host_out = (unsigned char *)out->host_out + k * slot;
    else if (byte % size == 0)
      target.offset = byte / size;
    else
      target = (orx_io){NULL, value, NULL, 0, 1};
    ORX_FORWARD(orx_run_call(ctx, &calls[k], ORX_STAGE_WHOLE, in, count, 0, &target));
    if (!out->host_out && byte % size != 0)
      ORX_FORWARD(orx_device_write(ctx, out->mem, byte, value, size));
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_multi(ocl_reduce_context *ctx, const ocl_reduce_op *ops,
                                   size_t op_count, ocl_reduce_type type, ocl_reduce_input input,
                                   size_t count, ocl_reduce_output results) {
  ORX_ENTER(ctx, function);
  ORX_CHECK_ARG(ctx, ops, "%s: ops is NULL", function);
  ORX_CHECK_ARG(ctx, op_count >= 1 && op_count <= OCL_REDUCE_MULTI_MAX_OPS,
                "%s: op_count is %zu, not 1 .. %d", function, op_count, OCL_REDUCE_MULTI_MAX_OPS);
  orx_op_call calls[OCL_REDUCE_MULTI_MAX_OPS];
  size_t slot = 0;
  for (size_t k = 0; k < op_count; k++) {
    char name[64];
    snprintf(name, sizeof name, "%s: ops[%zu]", function, k);
    ORX_FORWARD(orx_resolve_op(ctx, name, ops[k], type, &calls[k]));
    ORX_CHECK_ARG(ctx, calls[k].elem == calls[0].elem && calls[k].type == calls[0].type,
                  "%s: ops[%zu] (%s) reduces elements of another type than ops[0] (%s)", function,
                  k, calls[k].name, calls[0].name);
    if (calls[k].result_bytes > slot)
      slot = calls[k].result_bytes;
  }
  const size_t elem = calls[0].elem;
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "results", &results, slot, op_count, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, elem, count, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &in, count * elem, &out,
                                 op_count * slot, slot, elem));
  orx_op_id ids[OCL_REDUCE_MULTI_MAX_OPS];
  if (count > 0 && one_pass(calls, op_count, &out, ids))
    return orx_run_multi(ctx, ids, op_count, calls[0].type, &in, count, &out);
  return one_by_one(ctx, calls, op_count, slot, &in, count, &out);
}
