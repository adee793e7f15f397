/* =================================================================================================
 * run_array.c: one reduction over an array, and several operators over one array in one pass
 * (run.h). Device input is one launch. Host input goes up through the staging buffer; when it
 * takes more than one upload, each piece gets its partial results, and one more launch per
 * operator reduces them, so the results depend on nothing but the count.
 * ============================================================================================== */
#include <string.h>

#include "base/half.h"
#include "base/ids.h"
#include "exec/launch.h"
#include "exec/run.h"
#include "planner/plan_host.h"

static ocl_reduce_status run_reduce(ocl_reduce_context *ctx, const orx_request *request,
                                    const orx_io *in, size_t count, uint64_t first,
                                    const orx_io *out) {
  orx_call_begin(ctx);
  /* CPU devices: the host plan, on the calling thread (and its grid's threads) where it can. It
   * reads host memory, or a buffer's own host memory once the work enqueued before has finished
   * (a buffer of another device kind, or one the device keeps a copy of, has none). A buffer's
   * result into a buffer does not wait: the device runs the host plan then, up to a crossover of
   * its own (planner/host_plan.h). */
  const void *storage = in->mem && ctx->ops->host_storage ? ctx->ops->host_storage(in->mem) : NULL;
  const orx_host_source source = !in->mem        ? ORX_HOST_SOURCE_MEMORY
                                 : out->host_out ? ORX_HOST_SOURCE_BUFFER_READ
                                                 : ORX_HOST_SOURCE_BUFFER;
  orx_request planned = *request;
  planned.host = (!in->mem || storage) && orx_plan_takes_host(&ctx->target, request, count, source);
  if (planned.host && out->host_out && ctx->target.forced.host != ORX_HOST_DEVICE) {
    orx_plan plan;
    orx_plan_make(&ctx->target, &planned, &plan);
    if (storage)
      ORX_FORWARD(ctx->ops->finish(ctx, ctx->backend));
    const void *data =
        storage ? (const char *)storage + in->offset * orx_plan_element_bytes(&plan) : in->host;
    if (orx_host_run(ctx, &plan, data, NULL, count, first, out->host_out))
      return OCL_REDUCE_OK;
  }
  request = &planned;
  orx_prepared k;
  ORX_FORWARD(orx_prepare(ctx, request, &k));
  /* A buffer receives the result directly; host memory through the result slot. */
  orx_mem *results = out->mem ? out->mem : ctx->scratch[ORX_SCRATCH_RESULTS].mem;
  const size_t index = out->mem ? out->offset : 0;
  if (in->mem)
    ORX_FORWARD(orx_launch_array(ctx, &k, in->mem, in->offset, count, first, results, index, 1));
  else
    ORX_FORWARD(orx_reduce_host_into(ctx, request, in->host, count, first, results, index));
  if (out->mem)
    return OCL_REDUCE_OK;
  const size_t bytes =
      orx_stage_writes_states(request->stage) ? k.plan.op.state_bytes : k.plan.op.result_bytes;
  unsigned char value[ORX_RESULT_SLOT_BYTES];
  ORX_FORWARD(orx_read_results(ctx, value, bytes));
  memcpy(out->host_out, value, bytes);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_run_reduce(ocl_reduce_context *ctx, const orx_request *request,
                                 const orx_io *in, size_t count, uint64_t first,
                                 const orx_io *out) {
  return orx_uploads_done(ctx, run_reduce(ctx, request, in, count, first, out));
}

ocl_reduce_status orx_run_call(ocl_reduce_context *ctx, const orx_op_call *call, orx_stage stage,
                               const orx_io *in, size_t count, uint64_t first, const orx_io *out) {
  orx_request request = orx_op_request(call);
  request.stage = stage;
  if (count == 0 && !orx_operator_is_state(&request.op)) {
    /* A scalar operator's state is its result, one element: the contract's identity bits. */
    /* 16-bit elements: a state is an f32, a MIN or MAX result a 16-bit element (ids.c). */
    const int state = orx_stage_writes_states(stage);
    const size_t bytes = state ? call->state_bytes : call->result_bytes;
    unsigned char identity[ORX_RESULT_SLOT_BYTES];
    orx_write_identity(call->builtin,
                       state ? orx_compute_type(call->builtin, call->type) : call->type, identity);
    if (out->host_out) {
      memcpy(out->host_out, identity, bytes);
      return OCL_REDUCE_OK;
    }
    return orx_device_write(ctx, out->mem, out->offset * bytes, identity, bytes);
  }
  return orx_run_reduce(ctx, &request, in, count, first, out);
}

/* Host input in pieces: each operator's partial per piece into the chunk results (operator k's
 * at [k * pieces, (k + 1) * pieces)), then one whole-array reduction per operator. */
static ocl_reduce_status reduce_host_pieces(ocl_reduce_context *ctx, const orx_prepared *k,
                                            const orx_op_id *ops, size_t op_count,
                                            ocl_reduce_type type, const void *host, size_t count,
                                            size_t piece, orx_mem *out, size_t out_index) {
  const size_t size = orx_type_size(type);
  const size_t pieces = count / piece + (count % piece != 0);
  orx_mem *chunk_results = NULL;
  ORX_FORWARD(
      orx_scratch_get(ctx, ORX_SCRATCH_CHUNK_RESULTS, pieces * op_count * 8, &chunk_results));
  orx_mem *staging = ctx->scratch[ORX_SCRATCH_STAGING].mem;
  const char *bytes = host;
  for (size_t p = 0; p < pieces; p++) {
    const size_t first = p * piece;
    const size_t n = count - first < piece ? count - first : piece;
    ORX_FORWARD(orx_upload(ctx, staging, 0, bytes + first * size, n * size));
    ORX_FORWARD(orx_launch_array(ctx, k, staging, 0, n, 0, chunk_results, p, pieces));
  }
  /* The pieces' results are of the kernel's type: f32 for 16-bit elements. */
  const ocl_reduce_type results_type = orx_type_is_narrow(type) ? OCL_REDUCE_F32 : type;
  for (size_t j = 0; j < op_count; j++) {
    const orx_request request = orx_reduce_request(ops[j], results_type);
    orx_prepared all;
    ORX_FORWARD(orx_prepare(ctx, &request, &all));
    ORX_FORWARD(orx_launch_array(ctx, &all, chunk_results, j * pieces, pieces, 0, out,
                                 out_index + j, 1));
  }
  return OCL_REDUCE_OK;
}

/* The multi-operator kernel's results (op_count of result_size bytes in the results slot) into
 * host memory at ocl_reduce_multi's slots. 16-bit elements: f32 slots, MIN's and MAX's back to
 * elements (exact: each is an element's value), at slots of the largest result. */
static ocl_reduce_status multi_results_to_host(ocl_reduce_context *ctx, const orx_op_id *ops,
                                               size_t op_count, ocl_reduce_type type,
                                               size_t result_size, void *host_out) {
  unsigned char values[ORX_RESULT_SLOT_BYTES];
  ORX_FORWARD(orx_read_results(ctx, values, op_count * result_size));
  if (!orx_type_is_narrow(type)) {
    memcpy(host_out, values, op_count * result_size);
    return OCL_REDUCE_OK;
  }
  size_t slot = 0;
  for (size_t j = 0; j < op_count; j++)
    if (orx_state_facts_of(ops[j], type).result_bytes > slot)
      slot = orx_state_facts_of(ops[j], type).result_bytes;
  for (size_t j = 0; j < op_count; j++) {
    float f;
    memcpy(&f, values + j * sizeof f, sizeof f);
    unsigned char *to = (unsigned char *)host_out + j * slot;
    if (orx_result_is_element(ops[j])) {
      const uint16_t bits = orx_half_from_f32(type, f);
      memcpy(to, &bits, sizeof bits);
    } else {
      memcpy(to, &f, sizeof f);
    }
  }
  return OCL_REDUCE_OK;
}

static ocl_reduce_status run_multi(ocl_reduce_context *ctx, const orx_op_id *ops, size_t op_count,
                                   ocl_reduce_type type, const orx_io *in, size_t count,
                                   const orx_io *out) {
  orx_call_begin(ctx);
  orx_request request;
  memset(&request, 0, sizeof request);
  request.entry = ORX_ENTRY_MULTI;
  request.type = type;
  request.ops = ops;
  request.op_count = (unsigned)op_count;
  orx_prepared k;
  ORX_FORWARD(orx_prepare(ctx, &request, &k));

  const size_t size = orx_type_size(type);
  const size_t result_size = orx_type_size(k.plan.type); /* a slot's, as the kernel stores it */
  orx_mem *out_mem = out->host_out ? ctx->scratch[ORX_SCRATCH_RESULTS].mem : out->mem;
  const size_t out_index = out->host_out ? 0 : out->offset;
  if (in->mem) {
    ORX_FORWARD(
        orx_launch_array(ctx, &k, in->mem, in->offset, count, 0, out_mem, out_index, 1));
  } else {
    size_t piece = orx_plan_staging_piece(&ctx->caps, &k.plan);
    if (piece > count)
      piece = count;
    orx_mem *staging = NULL;
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_STAGING, piece * size, &staging));
    if (piece == count) {
      ORX_FORWARD(orx_upload(ctx, staging, 0, in->host, count * size));
      ORX_FORWARD(orx_launch_array(ctx, &k, staging, 0, count, 0, out_mem, out_index, 1));
    } else {
      ORX_FORWARD(reduce_host_pieces(ctx, &k, ops, op_count, type, in->host, count, piece,
                                     out_mem, out_index));
    }
  }
  if (!out->host_out)
    return OCL_REDUCE_OK;
  return multi_results_to_host(ctx, ops, op_count, type, result_size, out->host_out);
}

ocl_reduce_status orx_run_multi(ocl_reduce_context *ctx, const orx_op_id *ops, size_t op_count,
                                ocl_reduce_type type, const orx_io *in, size_t count,
                                const orx_io *out) {
  return orx_uploads_done(ctx, run_multi(ctx, ops, op_count, type, in, count, out));
}
