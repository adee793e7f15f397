/* =================================================================================================
 * pairs.c: the pair operators' entry points, ocl_reduce_pairs (whole arrays) and
 * ocl_reduce_pairs_segments (equal segments): the operator and both inputs checked alike, each
 * with its own offset, the output checked against both, before anything runs; then the runs
 * (run_pairs.c, run_segments.c); and a group's parts of them (pair_parts.h).
 * ============================================================================================== */
#include <string.h>

#include "exec/context.h"
#include "exec/entry.h"
#include "exec/run.h"
#include "api/pair_parts.h"

/* Both inputs for `needed` elements each, and the output's `out_bytes` apart from both (the
 * inputs may share memory: they are only read). */
static ocl_reduce_status resolve_inputs(ocl_reduce_context *ctx, const char *function,
                                        const orx_pair_call *call, const ocl_reduce_input *a,
                                        const ocl_reduce_input *b, size_t needed,
                                        const orx_io *out, size_t out_bytes, orx_io *in_a,
                                        orx_io *in_b) {
  ORX_FORWARD(orx_resolve_input(ctx, function, "a", a, call->elem, needed, in_a));
  ORX_FORWARD(orx_resolve_input(ctx, function, "b", b, call->elem, needed, in_b));
  const size_t bytes = needed * call->elem, result = call->sum.result_bytes;
  ORX_FORWARD(orx_check_disjoint(ctx, function, "a", in_a, bytes, out, out_bytes, result,
                                 call->elem));
  return orx_check_disjoint(ctx, function, "b", in_b, bytes, out, out_bytes, result, call->elem);
}

/* Whole arrays: to the result, or (to_state) to one state of pairs whose first is `first`. */
static ocl_reduce_status pairs_entry(ocl_reduce_context *ctx, const char *function,
                                     ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input a,
                                     ocl_reduce_input b, size_t count, uint64_t first,
                                     int to_state, ocl_reduce_output output) {
  ORX_ENTER(ctx, function);
  orx_pair_call call;
  ORX_FORWARD(orx_resolve_pair(ctx, function, op, type, &call));
  const size_t bytes = to_state ? call.sum.state_bytes : call.sum.result_bytes;
  orx_io out, in_a, in_b;
  ORX_FORWARD(orx_resolve_output(ctx, function, to_state ? "state" : "output", &output, bytes, 1,
                                 &out));
  ORX_FORWARD(resolve_inputs(ctx, function, &call, &a, &b, count, &out, bytes, &in_a, &in_b));
  return orx_run_pairs(ctx, &call, &in_a, &in_b, count, first, to_state, &out);
}

ocl_reduce_status ocl_reduce_pairs(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                   ocl_reduce_input a, ocl_reduce_input b, size_t count,
                                   ocl_reduce_output output) {
  return pairs_entry(ctx, "ocl_reduce_pairs", op, type, a, b, count, 0, 0, output);
}

ocl_reduce_status orx_pairs_state(ocl_reduce_context *ctx, const char *function,
                                  ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input a,
                                  ocl_reduce_input b, size_t count, uint64_t first,
                                  ocl_reduce_output state) {
  return pairs_entry(ctx, function, op, type, a, b, count, first, 1, state);
}

ocl_reduce_status orx_pairs_final(ocl_reduce_context *ctx, const char *function,
                                  ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input states,
                                  size_t count, ocl_reduce_output result) {
  ORX_ENTER(ctx, function);
  orx_pair_call call;
  ORX_FORWARD(orx_resolve_pair(ctx, function, op, type, &call));
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "result", &result, call.sum.result_bytes, 1,
                                 &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "states", &states, call.sum.state_bytes, count,
                                &in));
  return orx_run_call(ctx, &call.sum, ORX_STAGE_FINAL, &in, count, 0, &out);
}

ocl_reduce_status ocl_reduce_pairs_segments(ocl_reduce_context *ctx, ocl_reduce_op op,
                                            ocl_reduce_type type, ocl_reduce_input a,
                                            ocl_reduce_input b, size_t segment_count,
                                            size_t segment_length, ocl_reduce_output output) {
  static const char function[] = "ocl_reduce_pairs_segments";
  ORX_ENTER(ctx, function);
  orx_pair_call call;
  ORX_FORWARD(orx_resolve_pair(ctx, function, op, type, &call));
  orx_seg_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  c.pair = &call;
  c.op = call.sum.op;
  c.type = call.sum.type;
  c.elem = call.elem;
  c.result_bytes = call.sum.result_bytes;
  c.count = segment_count;
  c.length = segment_length;
  ORX_FORWARD(orx_resolve_output(ctx, function, "output", &output, c.result_bytes,
                                 segment_count, &c.out));
  ORX_CHECK_ARG(ctx, segment_length == 0 || segment_count <= SIZE_MAX / segment_length,
                "%s: segment_count (%zu) x segment_length (%zu) overflows size_t", function,
                segment_count, segment_length);
  const size_t elements = segment_count * segment_length;
  ORX_FORWARD(resolve_inputs(ctx, function, &call, &a, &b, elements, &c.out,
                             segment_count * c.result_bytes, &c.in, &c.b));
  c.elements = c.reach = elements;
  return segment_count ? orx_run_segments(ctx, &c) : OCL_REDUCE_OK;
}
