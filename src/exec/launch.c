/* =================================================================================================
 * launch.c: plans with their programs and scratch, launches, host input in pieces, and results
 * (launch.h).
 *
 * Host input is uploaded in pieces of bounded size (one staging buffer, reused), each piece is
 * reduced into a slot of the chunk results, and one more launch reduces those slots; so inputs
 * larger than the device's largest allocation work, and the piece sizes, hence the results' bits,
 * depend only on the count.
 * ============================================================================================== */
#include "exec/launch.h"

#include <string.h>

ocl_reduce_status orx_prepare_plan(ocl_reduce_context *ctx, const orx_plan *plan,
                                   orx_prepared *out) {
  out->plan = *plan;
  ORX_FORWARD(orx_program_get(ctx, plan, &out->built));
  if (plan->kernel == ORX_KERNEL_CHECK_OFFSETS || plan->kernel == ORX_KERNEL_GATHER)
    return OCL_REDUCE_OK; /* no partials, results or counter */
  orx_mem *mem = NULL;
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_PARTIALS, plan->partials_bytes, &mem));
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_RESULTS, ORX_RESULT_SLOT_BYTES, &mem));
  return orx_scratch_get(ctx, ORX_SCRATCH_COUNTER, sizeof(uint32_t), &mem);
}

ocl_reduce_status orx_prepare(ocl_reduce_context *ctx, const orx_request *request,
                              orx_prepared *out) {
  orx_plan plan;
  orx_plan_make(&ctx->target, request, &plan);
  return orx_prepare_plan(ctx, &plan, out);
}

ocl_reduce_status orx_prepare_utility(ocl_reduce_context *ctx, orx_entry entry,
                                      ocl_reduce_type type, orx_prepared *out) {
  orx_request request;
  memset(&request, 0, sizeof request);
  request.entry = entry;
  request.type = type;
  return orx_prepare(ctx, &request, out);
}

void orx_call_begin(ocl_reduce_context *ctx) {
  ctx->last_kernel_ns = 0;
  ctx->has_kernel_time = 0;
}

ocl_reduce_status orx_launch(ocl_reduce_context *ctx, const orx_prepared *k, size_t groups,
                             const orx_arg *args, size_t nargs) {
  uint64_t ns = 0;
  ORX_FORWARD(ctx->ops->launch(ctx, ctx->backend, k->built->program, groups,
                               k->plan.policy.wg_size, args, nargs, ctx->profiling ? &ns : NULL));
  if (ctx->profiling) {
    ctx->last_kernel_ns += ns;
    ctx->has_kernel_time = 1;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_launch_inputs(ocl_reduce_context *ctx, const orx_prepared *k,
                                    size_t groups, const orx_arg *args, size_t nargs,
                                    int two_inputs) {
  if (two_inputs)
    return orx_launch(ctx, k, groups, args, nargs);
  orx_arg one[ORX_LAUNCH_MAX_ARGS];
  one[0] = args[0];
  memcpy(one + 1, args + 3, (nargs - 3) * sizeof *args);
  return orx_launch(ctx, k, groups, one, nargs - 2);
}

size_t orx_vector_head(const ocl_reduce_context *ctx, const orx_mem *mem, size_t offset,
                       unsigned vec, size_t elem) {
  /* Allocations start aligned to whole vectors, wrapped CUDA pointers at some element boundary
   * (checked when the input is resolved). */
  const size_t misaligned = ctx->ops->misalignment ? ctx->ops->misalignment(mem) / elem : 0;
  return (vec - (misaligned + offset) % vec) % vec;
}

/* Element `offset` of mem, counted from an element on a vector boundary of every width. */
static size_t aligned_position(const ocl_reduce_context *ctx, const orx_mem *mem, size_t offset,
                               size_t elem) {
  const size_t misaligned =
      mem && ctx->ops->misalignment ? ctx->ops->misalignment(mem) / elem : 0;
  return (misaligned + offset) % ORX_PAIR_SKEW_SPAN;
}

unsigned orx_pair_skew(const ocl_reduce_context *ctx, const orx_mem *a, size_t a_offset,
                       const orx_mem *b, size_t b_offset, size_t elem) {
  const size_t at_a = aligned_position(ctx, a, a_offset, elem);
  const size_t at_b = aligned_position(ctx, b, b_offset, elem);
  return (unsigned)((at_b + ORX_PAIR_SKEW_SPAN - at_a) % ORX_PAIR_SKEW_SPAN);
}

/* The whole-array kernel's launch over one input, or with `b` two (a pair operator's: b's
 * elements from b_offset, laid out as in's, plan_pairs.c). */
static ocl_reduce_status launch_array(ocl_reduce_context *ctx, const orx_prepared *k,
                                      orx_mem *in, size_t offset, orx_mem *b, size_t b_offset,
                                      size_t count, uint64_t first, orx_mem *out,
                                      size_t out_index, size_t out_stride) {
  const orx_policy *policy = &k->plan.policy;
  const size_t elem = orx_plan_element_bytes(&k->plan);
  size_t head = orx_vector_head(ctx, in, offset, policy->vec, elem);
  if (head > count)
    head = count;
  const size_t groups = orx_plan_groups(&k->plan, count, 0);
  orx_mem *partials = ctx->scratch[ORX_SCRATCH_PARTIALS].mem;
  orx_mem *counter = ctx->scratch[ORX_SCRATCH_COUNTER].mem;
  const orx_arg args[] = {
      {ORX_ARG_MEM, in, 0},
      {ORX_ARG_MEM, b, 0}, /* ORX_IN_PARAMS: b and b_offset with two inputs only */
      {ORX_ARG_U64, NULL, b_offset},
      {ORX_ARG_U64, NULL, offset},
      {ORX_ARG_U64, NULL, count},
      {ORX_ARG_U64, NULL, head},
      {ORX_ARG_U64, NULL, first},
      {ORX_ARG_MEM, partials, 0},
      {ORX_ARG_MEM, counter, 0},
      {ORX_ARG_MEM, out, 0},
      {ORX_ARG_U64, NULL, out_index},
      {ORX_ARG_U64, NULL, out_stride},
  };
  ORX_FORWARD(orx_launch_inputs(ctx, k, groups, args, ORX_ARRAY_SIZE(args), b != NULL));
  if (!orx_plan_finish_launch(&k->plan, groups))
    return OCL_REDUCE_OK;
  /* The groups wrote their partials (ORX_FINISH_LAUNCH); one group of the kernel built to finish
   * (ORX_FINISH_ONLY) combines them into out. It reads no input: the one-input kernel, which for
   * a user pair operator (no map for one element, lib/orx_state.cl) takes states as elements. */
  orx_prepared finisher = {.plan = k->plan};
  finisher.plan.defines[ORX_DEFINE_FINISH_ONLY] = 1;
  if (k->plan.defines[ORX_DEFINE_PAIR_OP] == ORX_PAIR_USER)
    finisher.plan.defines[ORX_DEFINE_INPUT_STATES] = 1;
  finisher.plan.defines[ORX_DEFINE_PAIR_OP] = ORX_DEFINE_UNSET;
  finisher.plan.defines[ORX_DEFINE_PAIR_TYPE_ID] = ORX_DEFINE_UNSET;
  ORX_FORWARD(orx_program_get(ctx, &finisher.plan, &finisher.built));
  const orx_arg finish[] = {
      {ORX_ARG_MEM, partials, 0},
      {ORX_ARG_U64, NULL, 0},
      {ORX_ARG_U64, NULL, groups},
      {ORX_ARG_U64, NULL, 0},
      {ORX_ARG_U64, NULL, 0},
      {ORX_ARG_MEM, partials, 0},
      {ORX_ARG_MEM, counter, 0},
      {ORX_ARG_MEM, out, 0},
      {ORX_ARG_U64, NULL, out_index},
      {ORX_ARG_U64, NULL, out_stride},
  };
  return orx_launch(ctx, &finisher, 1, finish, ORX_ARRAY_SIZE(finish));
}

ocl_reduce_status orx_launch_array(ocl_reduce_context *ctx, const orx_prepared *k, orx_mem *in,
                                   size_t offset, size_t count, uint64_t first, orx_mem *out,
                                   size_t out_index, size_t out_stride) {
  return launch_array(ctx, k, in, offset, NULL, 0, count, first, out, out_index, out_stride);
}

ocl_reduce_status orx_launch_pairs(ocl_reduce_context *ctx, const orx_prepared *k, orx_mem *a,
                                   size_t a_offset, orx_mem *b, size_t b_offset, size_t count,
                                   uint64_t first, orx_mem *out, size_t out_index) {
  return launch_array(ctx, k, a, a_offset, b, b_offset, count, first, out, out_index, 1);
}

ocl_reduce_status orx_reduce_host_into(ocl_reduce_context *ctx, const orx_request *request,
                                       const void *host, size_t count, uint64_t first,
                                       orx_mem *out, size_t out_index) {
  /* The pieces read what the request reads and leave states; the last launch combines those
   * states into what the request writes. */
  orx_request partial = *request, final = *request;
  partial.stage = orx_stage_reads_states(request->stage) ? ORX_STAGE_MERGE : ORX_STAGE_PARTIAL;
  final.stage = orx_stage_writes_states(request->stage) ? ORX_STAGE_MERGE : ORX_STAGE_FINAL;
  orx_prepared k;
  ORX_FORWARD(orx_prepare(ctx, request, &k));
  const size_t size = orx_plan_element_bytes(&k.plan);
  size_t piece = orx_plan_staging_piece(&ctx->caps, &k.plan);
  if (piece > count)
    piece = count ? count : 1;
  orx_mem *staging = NULL, *chunk_results = NULL;
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_STAGING, piece * size, &staging));
  const char *bytes = host;
  if (count <= piece) {
    if (count)
      ORX_FORWARD(orx_upload(ctx, staging, 0, bytes, count * size));
    return orx_launch_array(ctx, &k, staging, 0, count, first, out, out_index, 1);
  }
  /* Pieces: each one's state (for scalar operators, its result) into a chunk slot, then the
   * slots reduced as states. Scalar operators plan the same kernel for every stage. */
  const size_t pieces = count / piece + (count % piece != 0);
  ORX_FORWARD(orx_prepare(ctx, &partial, &k));
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_CHUNK_RESULTS, pieces * k.plan.op.state_bytes,
                              &chunk_results));
  for (size_t p = 0; p < pieces; p++) {
    const size_t at = p * piece;
    const size_t n = count - at < piece ? count - at : piece;
    ORX_FORWARD(orx_upload(ctx, staging, 0, bytes + at * size, n * size));
    ORX_FORWARD(orx_launch_array(ctx, &k, staging, 0, n, first + at, chunk_results, p, 1));
  }
  ORX_FORWARD(orx_prepare(ctx, &final, &k));
  return orx_launch_array(ctx, &k, chunk_results, 0, pieces, 0, out, out_index, 1);
}

ocl_reduce_status orx_read_results(ocl_reduce_context *ctx, void *dst, size_t bytes) {
  const void *host = orx_scratch_host(ctx, ORX_SCRATCH_RESULTS);
  if (host) {
    ORX_FORWARD(ctx->ops->finish(ctx, ctx->backend));
    memcpy(dst, host, bytes);
    return OCL_REDUCE_OK;
  }
  return ctx->ops->read(ctx, ctx->backend, ctx->scratch[ORX_SCRATCH_RESULTS].mem, 0, dst, bytes);
}
