/* =================================================================================================
 * describe.c: the plan a call would run, in words (describe.h).
 * ============================================================================================== */
#include "exec/describe.h"

#include <string.h>

#include "base/util.h"
#include "exec/context.h"
#include "exec/run.h"
#include "planner/plan_host.h"

/* The request of count elements (pairs) in equal segments `pitch` apart (0: back to back). */
static orx_request segments_request(const ocl_reduce_context *ctx, const orx_op_call *call,
                                    const orx_pair_call *pair, size_t count,
                                    size_t segment_length, size_t pitch) {
  orx_seg_call c;
  memset(&c, 0, sizeof c);
  c.pair = pair;
  c.op = call->op;
  c.type = call->type;
  c.elem = pair ? pair->elem : call->elem;
  c.count = count / segment_length;
  c.length = segment_length;
  c.pitch = pitch;
  c.elements = (uint64_t)c.count * segment_length;
  return orx_seg_request(ctx, &c);
}

/* Who runs a host plan from host memory, after its description; `also` follows it. */
static void append_host_runner(const ocl_reduce_context *ctx, const orx_plan *plan,
                               const char *also, char *text, size_t capacity) {
  orx_append(text, capacity, "; from host memory: %s%s",
             ctx->target.forced.host == ORX_HOST_DEVICE ? "the device runs it (host=device)"
             : orx_host_can_run(plan)                   ? "the calling thread runs it"
                                      : "the device runs it (no host kernel for its text)",
             also);
}

/* A whole-array plan (segment_length 0) or one of equal segments `pitch` apart (0: back to
 * back), of `whole` (one input, or pairs), and who runs it from host memory: on CPU devices the
 * host, a whole array through the host plan, equal segments back to back each as a whole array of
 * it (run_array.c, run_pairs.c, run_segments.c). */
static void describe_plan_of(const ocl_reduce_context *ctx, const orx_op_call *call,
                             const orx_pair_call *pair, const orx_request *whole, size_t count,
                             size_t segment_length, size_t pitch, int from_host, char *text,
                             size_t capacity) {
  const int back_to_back = pitch == 0 || pitch == segment_length;
  const orx_request segments =
      segment_length ? segments_request(ctx, call, pair, count, segment_length, pitch) : *whole;
  orx_plan device;
  const int in_place = segment_length && !pair && orx_seg_reads_in_place(ctx, &segments, &device);
  const int on_host =
      from_host &&
      (segment_length
           ? back_to_back && orx_plan_takes_host_segments(&ctx->target, whole, in_place,
                                                          segment_length, ORX_HOST_SOURCE_MEMORY)
           : orx_plan_takes_host(&ctx->target, whole, count, ORX_HOST_SOURCE_MEMORY));
  orx_request request = *whole;
  if (on_host)
    request.host = 1;
  else if (segment_length)
    request = segments;
  orx_plan plan;
  orx_plan_make(&ctx->target, &request, &plan);
  orx_plan_describe(&plan, on_host && segment_length ? segment_length : count,
                    on_host ? 0 : segment_length, text, capacity);
  if (on_host)
    append_host_runner(ctx, &plan, segment_length ? ", each segment as a whole array" : "", text,
                       capacity);
}

static void describe_call(const ocl_reduce_context *ctx, const orx_op_call *call, size_t count,
                          size_t segment_length, size_t pitch, int from_host, char *text,
                          size_t capacity) {
  const orx_request whole = orx_op_request(call);
  describe_plan_of(ctx, call, NULL, &whole, count, segment_length, pitch, from_host, text,
                   capacity);
}

void orx_describe_request(const ocl_reduce_context *ctx, const orx_op_call *call, size_t count,
                          size_t segment_length, char *text, size_t capacity) {
  describe_call(ctx, call, count, segment_length, 0, 1, text, capacity);
}

void orx_describe_pairs(const ocl_reduce_context *ctx, const orx_pair_call *call, size_t count,
                        size_t segment_length, char *text, size_t capacity) {
  const orx_io host = {0};
  orx_request whole = orx_op_request(&call->sum);
  whole.pair = orx_pair_request_of(ctx, call, &host, &host);
  describe_plan_of(ctx, &call->sum, call, &whole, count, segment_length, 0, 1, text, capacity);
}

/* The launches of columns read in place, then the first one's plan. */
static void describe_columns(const ocl_reduce_context *ctx, const orx_op_call *call,
                             const orx_axes_layout *l, char *text, size_t capacity) {
  orx_request request = orx_op_request(call);
  orx_column_level levels[ORX_COLUMN_LEVELS];
  const size_t n = orx_plan_column_levels(&ctx->target, l, &request, levels);
  request.stage = levels[0].stage;
  request.shape.length = levels[0].length;
  request.columns_flat = levels[0].flat;
  orx_plan plan;
  orx_plan_make(&ctx->target, &request, &plan);
  if (l->form == ORX_AXES_COLUMNS) /* COLUMNS has a kept and a reduced axis at least */
    orx_append(text, capacity, "columns in place (the innermost kept axis, stride %llu, lies "
               "inside the innermost reduced one, stride %llu)",
               (unsigned long long)l->kept.strides[l->kept.rank - 1],
               (unsigned long long)l->reduced.strides[l->reduced.rank - 1]);
  else /* GENERAL: CPU devices (or OCL_REDUCE_POLICY=axes=columns anywhere) */
    orx_append(text, capacity, "in place (a CPU device: each work-item walks the reduced "
               "positions of its own)");
  const unsigned run = orx_plan_columns_run(&plan);
  if (plan.defines[ORX_DEFINE_COL_TALL] == 1) /* plan_columns.c */
    orx_append(text, capacity,
               ": tall, a work-group per part reading %llu row(s) side by side "
               "(a run of %u kept position(s) per work-item, loading %lld run(s) at a time), "
               "the rows dealt to the parts in turn and combined in the group",
               (unsigned long long)(plan.policy.wg_size / ((l->results + run - 1) / run)), run,
               (long long)plan.defines[ORX_DEFINE_COL_STEPS]);
  else
    orx_append(text, capacity,
               ": a work-item per run of %u kept position(s)%s, loading %lld "
               "run(s) at a time",
               run, levels[0].parts > 1 ? " and part" : "",
               (long long)plan.defines[ORX_DEFINE_COL_STEPS]);
  if (plan.defines[ORX_DEFINE_COL_FINISH] == 1)
    orx_append(text, capacity,
               "; the reduced positions cut into %llu parts, the last of a "
               "block's parts to finish folding their partial states (one launch)",
               (unsigned long long)levels[0].parts);
  else if (n > 1)
    orx_append(text, capacity, "; the reduced positions cut into %llu parts, then %zu "
               "launch(es) over their partial states", (unsigned long long)levels[0].parts, n - 1);
  char launch[512];
  orx_plan_describe(&plan, (size_t)orx_plan_columns_items(&plan, l->results, levels[0].parts), 0,
                    launch, sizeof launch);
  orx_append(text, capacity, "; %s", launch);
}

/* Why a view is gathered. */
static const char *gather_reason(const ocl_reduce_context *ctx, const orx_axes_layout *l,
                                 int from_host) {
  if (from_host)
    return "host memory, whose view may be sparse in what it reaches";
  if (ctx->target.forced.axes_route == ORX_AXES_FORCE_GATHER)
    return "as OCL_REDUCE_POLICY says (axes=gather)";
  return l->split.possible ? "no two passes for this operator: its results are not its elements"
                           : "its reduced positions are not one run a row, and its kept ones lie "
                             "outside them: on a GPU a work-item would read alone";
}

/* Rows along the innermost reduced axis, then the rest as columns. */
static void describe_split(const ocl_reduce_context *ctx, const orx_op_call *call,
                           const orx_axes_layout *l, char *text, size_t capacity) {
  const orx_axes_split *sp = &l->split;
  char plan[1024];
  describe_call(ctx, call, (size_t)(sp->rows * sp->length), (size_t)sp->length, (size_t)sp->pitch,
                0, plan, sizeof plan);
  orx_append(text, capacity, "two passes: rows along the innermost reduced axis, %llu of %llu "
             "elements, %llu apart, as equal segments (%s); then ", (unsigned long long)sp->rows,
             (unsigned long long)sp->length, (unsigned long long)sp->pitch, plan);
  const orx_axes_layout rest = orx_axes_split_rest(l);
  describe_columns(ctx, call, &rest, text, capacity);
}

void orx_describe_axes(const ocl_reduce_context *ctx, const orx_op_call *call,
                       const orx_axes_layout *l, int from_host, char *text, size_t capacity) {
  const unsigned long long results = l->results, length = l->length;
  char plan[1024];
  text[0] = '\0';
  switch (l->form) {
  case ORX_AXES_EMPTY:
    orx_append(text, capacity, results ? "identities: %llu results, each of no element"
                                       : "nothing: no kept position (%llu results)", results);
    return;
  case ORX_AXES_WHOLE:
    describe_call(ctx, call, (size_t)length, 0, 0, from_host, plan, sizeof plan);
    orx_append(text, capacity, "whole array: every axis reduced, %llu contiguous elements; %s",
               length, plan);
    return;
  default:
    break;
  }
  const orx_axes_route route =
      orx_plan_axes_route(&ctx->target, l, from_host, orx_axes_splittable(call));
  if (route == ORX_AXES_IN_PLACE && l->form == ORX_AXES_ROWS) {
    describe_call(ctx, call, (size_t)(results * length), (size_t)length,
                  (size_t)l->kept.strides[0], from_host, plan, sizeof plan);
    if (l->kept.strides[0] == length)
      orx_append(text, capacity, "rows: %llu of %llu contiguous elements, back to back, as "
                 "equal segments; %s", results, length, plan);
    else
      orx_append(text, capacity, "rows: %llu of %llu contiguous elements, %llu apart, as equal "
                 "segments with a pitch; %s", results, length,
                 (unsigned long long)l->kept.strides[0], plan);
  } else if (route == ORX_AXES_IN_PLACE) {
    describe_columns(ctx, call, l, text, capacity);
  } else if (route == ORX_AXES_SPLIT) {
    describe_split(ctx, call, l, text, capacity);
  } else {
    describe_call(ctx, call, (size_t)(results * length), (size_t)length, 0, 0, plan,
                  sizeof plan);
    orx_append(text, capacity, "gathered (%s): a copy of %llu x %llu elements %s, then equal "
               "segments; %s", gather_reason(ctx, l, from_host), results, length,
               from_host ? "on the calling thread" : "by kernels/gather.cl", plan);
  }
}
