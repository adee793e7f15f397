/* =================================================================================================
 * run_pairs.c: a pair operator over two whole arrays (run.h), once checked, to its result or (a
 * group's parts) to one state. Both inputs in device memory: one launch. Host memory goes up
 * through the staging buffer, each host input in its own half, piece by piece: each piece's state
 * into a chunk slot, then one launch over the slots, as run_array.c's host input goes. On CPU
 * devices, inputs the host can read (host memory, the device's buffers) take the host plan on the
 * calling thread instead.
 * ============================================================================================== */
#include <string.h>

#include "exec/launch.h"
#include "exec/run.h"
#include "planner/plan_host.h"

/* One input's elements [at, at + n) as a launch reads them: its own buffer, or the piece of host
 * memory uploaded to `half` elements into the staging buffer. */
typedef struct pair_side {
  orx_mem *mem;
  size_t offset;
} pair_side;

static ocl_reduce_status side_piece(ocl_reduce_context *ctx, const orx_io *io, size_t elem,
                                    orx_mem *staging, size_t half, size_t at, size_t n,
                                    pair_side *side) {
  if (io->mem) {
    *side = (pair_side){io->mem, io->offset + at};
    return OCL_REDUCE_OK;
  }
  *side = (pair_side){staging, half};
  return orx_upload(ctx, staging, half * elem, (const char *)io->host + at * elem, n * elem);
}

orx_pair_request orx_pair_request_of(const ocl_reduce_context *ctx, const orx_pair_call *call,
                                     const orx_io *a, const orx_io *b) {
  orx_pair_request pair;
  pair.on = 1;
  pair.op = call->pair;
  pair.type = call->type;
  /* Host inputs sit at vector boundaries of the staging buffer; pieces start on them. */
  pair.skew = orx_pair_skew(ctx, a->mem, a->mem ? a->offset : 0, b->mem, b->mem ? b->offset : 0,
                            call->elem);
  return pair;
}

const void *orx_host_view(const ocl_reduce_context *ctx, const orx_io *io, size_t elem) {
  if (!io->mem)
    return io->host;
  const void *storage = ctx->ops->host_storage ? ctx->ops->host_storage(io->mem) : NULL;
  return storage ? (const char *)storage + io->offset * elem : NULL;
}

/* The request of a call's pairs: on CPU devices, pairs the host can read take the host plan
 * (plan_host.c), as one input's do, which the calling thread runs in place (run_pairs) where the
 * device's own plan would first copy host memory up; buffers only where both lie alike from a
 * vector boundary (skew 0: the host plan's vectors, where a device runs it, host=device). */
static orx_request pairs_request(const ocl_reduce_context *ctx, const orx_pair_call *call,
                                 const orx_io *a, const orx_io *b, size_t count, int to_state) {
  orx_request request = orx_op_request(&call->sum);
  request.stage = to_state ? ORX_STAGE_PARTIAL : ORX_STAGE_WHOLE;
  request.pair = orx_pair_request_of(ctx, call, a, b);
  request.host = orx_host_view(ctx, a, call->elem) && orx_host_view(ctx, b, call->elem) &&
                 request.pair.skew == 0 &&
                 orx_plan_takes_host(&ctx->target, &request, count,
                                     a->mem || b->mem ? ORX_HOST_SOURCE_BUFFER
                                                      : ORX_HOST_SOURCE_MEMORY);
  return request;
}

ocl_reduce_status orx_pairs_into(ocl_reduce_context *ctx, const orx_pair_call *call,
                                 const orx_io *a, const orx_io *b, size_t count, uint64_t first,
                                 int to_state, orx_mem *results, size_t index) {
  orx_request request = pairs_request(ctx, call, a, b, count, to_state);
  orx_prepared k;
  ORX_FORWARD(orx_prepare(ctx, &request, &k));

  /* A piece fills at most half the staging buffer; b's half starts on a boundary of every
   * vector width, as a's does. */
  size_t piece = count, half = 0;
  orx_mem *staging = NULL;
  if (!a->mem || !b->mem) {
    const size_t most = orx_plan_staging_piece(&ctx->caps, &k.plan) / 2;
    const size_t whole = most / ORX_PAIR_SKEW_SPAN * ORX_PAIR_SKEW_SPAN;
    if (piece > whole)
      piece = whole;
    half = (piece + ORX_PAIR_SKEW_SPAN - 1) / ORX_PAIR_SKEW_SPAN * ORX_PAIR_SKEW_SPAN;
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_STAGING, 2 * half * call->elem, &staging));
  }
  const size_t pieces = count / piece + (count % piece != 0);
  orx_mem *slots = results;
  if (pieces > 1) {
    /* Each piece's state (a scalar sum's is its result), then one launch over the states. */
    request.stage = ORX_STAGE_PARTIAL;
    ORX_FORWARD(orx_prepare(ctx, &request, &k));
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_CHUNK_RESULTS, pieces * k.plan.op.state_bytes,
                                &slots));
  }
  for (size_t p = 0; p < pieces; p++) {
    const size_t at = p * piece, n = count - at < piece ? count - at : piece;
    pair_side sa, sb;
    ORX_FORWARD(side_piece(ctx, a, call->elem, staging, 0, at, n, &sa));
    ORX_FORWARD(side_piece(ctx, b, call->elem, staging, half, at, n, &sb));
    ORX_FORWARD(orx_launch_pairs(ctx, &k, sa.mem, sa.offset, sb.mem, sb.offset, n, first + at,
                                 slots, pieces > 1 ? p : index));
  }
  if (pieces > 1) { /* the pieces' states to the result, or to one state */
    orx_prepared sum;
    orx_request slots_sum = orx_op_request(&call->sum);
    slots_sum.stage = to_state ? ORX_STAGE_MERGE : ORX_STAGE_FINAL;
    ORX_FORWARD(orx_prepare(ctx, &slots_sum, &sum));
    ORX_FORWARD(orx_launch_array(ctx, &sum, slots, 0, pieces, 0, results, index, 1));
  }
  return OCL_REDUCE_OK;
}

static ocl_reduce_status run_pairs(ocl_reduce_context *ctx, const orx_pair_call *call,
                                   const orx_io *a, const orx_io *b, size_t count, uint64_t first,
                                   int to_state, const orx_io *out) {
  orx_call_begin(ctx);
  const orx_request request = pairs_request(ctx, call, a, b, count, to_state);
  if (request.host && out->host_out && ctx->target.forced.host != ORX_HOST_DEVICE) {
    orx_plan plan;
    orx_plan_make(&ctx->target, &request, &plan);
    if (a->mem || b->mem)
      ORX_FORWARD(ctx->ops->finish(ctx, ctx->backend));
    if (orx_host_run(ctx, &plan, orx_host_view(ctx, a, call->elem),
                     orx_host_view(ctx, b, call->elem), count, first, out->host_out))
      return OCL_REDUCE_OK;
  }
  orx_mem *results = out->mem;
  if (!results) /* host memory: through the result slot */
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_RESULTS, ORX_RESULT_SLOT_BYTES, &results));
  ORX_FORWARD(orx_pairs_into(ctx, call, a, b, count, first, to_state, results,
                             out->mem ? out->offset : 0));
  if (out->mem)
    return OCL_REDUCE_OK;
  const size_t bytes = to_state ? call->sum.state_bytes : call->sum.result_bytes;
  unsigned char value[ORX_RESULT_SLOT_BYTES];
  ORX_FORWARD(orx_read_results(ctx, value, bytes));
  memcpy(out->host_out, value, bytes);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_run_pairs(ocl_reduce_context *ctx, const orx_pair_call *call,
                                const orx_io *a, const orx_io *b, size_t count, uint64_t first,
                                int to_state, const orx_io *out) {
  /* SUM's identity, as ocl_reduce answers an empty input; a user operator's, as its states'
   * reduction (which has no map for its pair_map to stand in) gives it for none. */
  if (count == 0) {
    const int user = call->pair == ORX_PAIR_USER;
    const orx_stage stage = to_state ? (user ? ORX_STAGE_MERGE : ORX_STAGE_PARTIAL)
                                     : (user ? ORX_STAGE_FINAL : ORX_STAGE_WHOLE);
    return orx_run_call(ctx, &call->sum, stage, a, 0, 0, out);
  }
  return orx_uploads_done(ctx, run_pairs(ctx, call, a, b, count, first, to_state, out));
}
