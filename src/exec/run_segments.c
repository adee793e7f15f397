/* =================================================================================================
 * run_segments.c: segmented reductions once their arguments are checked (run.h). The planner
 * picks the strategy (one kernel file each, or a whole-array launch per segment for a few huge
 * ones); this runs it over batches of whole segments:
 *   - host input is uploaded through the staging buffer, as many whole segments at a time as fit
 *     (a single segment that does not fit is reduced like ocl_reduce's host input);
 *   - results bound for host memory go through a device scratch buffer of bounded size, or on
 *     CPU devices are written where they lie (segment_views.c).
 * Device input with device results is one batch: one launch.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "exec/device_views.h"
#include "exec/launch.h"
#include "exec/run.h"
#include "planner/plan_host.h"

/* Elements from one equal segment's start to the next's. */
static uint64_t pitch_of(const orx_seg_call *c) {
  return c->pitch ? c->pitch : c->length;
}

/* Where segment s starts, and where it ends, counted from the input's first element (host
 * offsets or equal lengths). */
static uint64_t segment_begin(const orx_seg_call *c, size_t s) {
  return c->by_offsets ? c->host_offsets[s] : (uint64_t)s * pitch_of(c);
}
static uint64_t segment_end(const orx_seg_call *c, size_t s) {
  return c->by_offsets ? c->host_offsets[s + 1] : segment_begin(c, s) + c->length;
}

/* ---- Checks ------------------------------------------------------------------------------ */

/* Offsets in device memory: checked by a kernel; also reports the first and last offset. */
static ocl_reduce_status check_device_offsets(ocl_reduce_context *ctx, orx_seg_call *c) {
  orx_prepared k;
  ORX_FORWARD(orx_prepare_utility(ctx, ORX_ENTRY_CHECK_OFFSETS, OCL_REDUCE_U64, &k));
  orx_mem *report_mem = NULL;
  ORX_FORWARD(
      orx_scratch_get(ctx, ORX_SCRATCH_OFFSETS_REPORT, 3 * sizeof(uint64_t), &report_mem));
  uint64_t report[3] = {0, 0, 0};
  ORX_FORWARD(ctx->ops->write(ctx, ctx->backend, report_mem, 0, report, sizeof report));
  const orx_arg args[] = {
      {ORX_ARG_MEM, c->offsets.mem, 0},
      {ORX_ARG_U64, NULL, c->offsets.offset},
      {ORX_ARG_U64, NULL, c->count},
      {ORX_ARG_U64, NULL, c->in.capacity},
      {ORX_ARG_MEM, report_mem, 0},
  };
  ORX_FORWARD(orx_launch(ctx, &k, orx_plan_groups(&k.plan, c->count, 0), args,
                         ORX_ARRAY_SIZE(args)));
  ORX_FORWARD(ctx->ops->read(ctx, ctx->backend, report_mem, 0, report, sizeof report));
  if (report[0])
    return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_OFFSETS,
                    "%s: the offsets decrease somewhere, or reach beyond the input buffer's %zu "
                    "elements (checked on the device)",
                    c->function, c->in.capacity);
  c->elements = report[2] - report[1];
  c->reach = report[2];
  return OCL_REDUCE_OK;
}

/* Results in a device buffer must not overwrite what the kernels read. */
static ocl_reduce_status check_disjoint(ocl_reduce_context *ctx, const orx_seg_call *c) {
  const size_t out_bytes = c->count * c->result_bytes;
  ORX_FORWARD(orx_check_disjoint(ctx, c->function, c->pair ? "a" : "the input", &c->in,
                                 (size_t)c->reach * c->elem, &c->out, out_bytes, c->result_bytes,
                                 c->elem));
  if (c->pair)
    ORX_FORWARD(orx_check_disjoint(ctx, c->function, "b", &c->b, (size_t)c->reach * c->elem,
                                   &c->out, out_bytes, c->result_bytes, c->elem));
  return orx_check_disjoint(ctx, c->function, "the offsets", &c->offsets,
                            (c->count + 1) * sizeof(uint64_t), &c->out, out_bytes,
                            c->result_bytes, sizeof(uint64_t));
}

ocl_reduce_status orx_seg_call_init(ocl_reduce_context *ctx, orx_seg_call *c, const char *function,
                                   ocl_reduce_op op, ocl_reduce_type type) {
  memset(c, 0, sizeof *c);
  c->function = function;
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  c->type = call.type;
  c->op = call.op;
  c->elem = call.elem;
  c->result_bytes = call.result_bytes;
  return OCL_REDUCE_OK;
}

/* ---- Running ----------------------------------------------------------------------------- */

typedef struct seg_run {
  orx_plan plan;
  orx_prepared segments; /* the strategy's kernel (not LAUNCH) */
  orx_prepared all;      /* reduce_all.cl: LAUNCH, and host segments too big to stage; prepared
                            when first needed (all.built set) */
  size_t in_limit;       /* host input: elements per upload */
} seg_run;

/* The whole-array request with the call's operator (and inputs). */
static orx_request reduce_request_of(const ocl_reduce_context *ctx, const orx_seg_call *c) {
  orx_request request = orx_reduce_request(ORX_OP_SUM, c->type);
  request.op = c->op;
  if (c->pair)
    request.pair = orx_pair_request_of(ctx, c->pair, &c->in, &c->b);
  return request;
}

static ocl_reduce_status need_reduce_all(ocl_reduce_context *ctx, const orx_seg_call *c,
                                         seg_run *r) {
  if (r->all.built)
    return OCL_REDUCE_OK;
  const orx_request request = reduce_request_of(ctx, c);
  return orx_prepare(ctx, &request, &r->all);
}

/* An input's elements from a batch's first, as its launch reads them: its buffer, or the
 * staging buffer where host input went up (a pair operator's b at `half`). */
typedef struct seg_input {
  orx_mem *mem;
  size_t offset;
} seg_input;

/* The end of the batch that starts at segment a: whole segments, within the staging limit for
 * host input (at least one segment) and within max_segments. */
static size_t batch_end(const orx_seg_call *c, const seg_run *r, size_t a, size_t max_segments) {
  size_t b = c->count - a < max_segments ? c->count : a + max_segments;
  if (c->in.mem && (!c->pair || c->b.mem))
    return b;
  const uint64_t first = segment_begin(c, a);
  if (segment_end(c, b - 1) - first <= r->in_limit)
    return b;
  /* The last segment end within the limit (host input's segment ends do not decrease). */
  size_t lo = a + 1, hi = b;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    if (segment_end(c, mid - 1) - first <= r->in_limit)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* Launches the kernels for segments [a, b), which start at element in.offset +
 * (segment_begin(s) - base) of in.mem (and of second.mem for pairs), with result s at element
 * out_index + (s - a) of out_mem. */
static ocl_reduce_status launch_batch(ocl_reduce_context *ctx, const orx_seg_call *c,
                                      const seg_run *r, size_t a, size_t b, uint64_t base,
                                      seg_input in, seg_input second, orx_mem *out_mem,
                                      size_t out_index) {
  if (r->plan.seg.mode == ORX_SEG_LAUNCH) {
    for (size_t s = a; s < b; s++) {
      const size_t begin = (size_t)(segment_begin(c, s) - base);
      const size_t n = (size_t)(segment_end(c, s) - segment_begin(c, s));
      if (c->pair)
        ORX_FORWARD(orx_launch_pairs(ctx, &r->all, in.mem, in.offset + begin, second.mem,
                                     second.offset + begin, n, 0, out_mem, out_index + (s - a)));
      else
        ORX_FORWARD(orx_launch_array(ctx, &r->all, in.mem, in.offset + begin, n, 0, out_mem,
                                     out_index + (s - a), 1));
    }
    return OCL_REDUCE_OK;
  }
  const size_t n_seg = b - a;
  orx_mem *offsets_mem = ctx->scratch[ORX_SCRATCH_PARTIALS].mem; /* any: unread, equal lengths */
  size_t offsets_index = 0;
  if (c->offsets.mem) {
    offsets_mem = c->offsets.mem;
    offsets_index = c->offsets.offset + a;
  } else if (c->by_offsets) {
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_SEGMENT_OFFSETS, (n_seg + 1) * sizeof(uint64_t),
                                &offsets_mem));
    ORX_FORWARD(
        orx_upload(ctx, offsets_mem, 0, c->host_offsets + a, (n_seg + 1) * sizeof(uint64_t)));
  }
  const orx_plan *plan = &r->segments.plan;
  const size_t misaligned = ctx->ops->misalignment ? ctx->ops->misalignment(in.mem) / c->elem : 0;
  const orx_arg args[] = {
      {ORX_ARG_MEM, in.mem, 0},
      {ORX_ARG_MEM, second.mem, 0}, /* ORX_IN_PARAMS: b and its offset for pairs only */
      {ORX_ARG_U64, NULL, second.offset},
      {ORX_ARG_U64, NULL, in.offset},
      {ORX_ARG_U64, NULL, (misaligned + in.offset) % plan->policy.vec},
      {ORX_ARG_U64, NULL, n_seg},
      {ORX_ARG_U64, NULL, c->length},
      {ORX_ARG_U64, NULL, pitch_of(c)},
      {ORX_ARG_MEM, offsets_mem, 0},
      {ORX_ARG_U64, NULL, offsets_index},
      {ORX_ARG_U64, NULL, base},
      {ORX_ARG_MEM, out_mem, 0},
      {ORX_ARG_U64, NULL, out_index},
      {ORX_ARG_U64, NULL, orx_plan_per_round(plan, c->length)},
  };
  return orx_launch_inputs(ctx, &r->segments, orx_plan_groups(plan, n_seg, c->length), args,
                           ORX_ARRAY_SIZE(args), c->pair != NULL);
}

/* One input of a batch of n elements from `base`: in place, or uploaded to `at` elements into
 * the staging buffer. */
static ocl_reduce_status batch_input(ocl_reduce_context *ctx, const orx_seg_call *c,
                                     const orx_io *io, uint64_t base, size_t n, orx_mem *staging,
                                     size_t at, seg_input *out) {
  if (io->mem) {
    *out = (seg_input){io->mem, io->offset + (size_t)base};
    return OCL_REDUCE_OK;
  }
  *out = (seg_input){staging, at};
  if (!n)
    return OCL_REDUCE_OK;
  return orx_upload(ctx, staging, at * c->elem, (const char *)io->host + (size_t)base * c->elem,
                    n * c->elem);
}

/* Segments [a, b): the input in place or uploaded, results to device memory, then to the host. */
static ocl_reduce_status run_batch(ocl_reduce_context *ctx, const orx_seg_call *c, seg_run *r,
                                   size_t a, size_t b) {
  const size_t n_seg = b - a;
  /* Offsets index the whole input; a batch sees its segments relative to `base`. */
  const uint64_t base = c->by_offsets && c->in.mem ? 0 : segment_begin(c, a);

  orx_mem *out_mem = c->out.mem;
  size_t out_index = c->out.offset + a;
  if (c->out.host_out) {
    ORX_FORWARD(
        orx_scratch_get(ctx, ORX_SCRATCH_SEGMENT_RESULTS, n_seg * c->result_bytes, &out_mem));
    out_index = 0;
  }

  const int staged = !c->in.mem || (c->pair && !c->b.mem);
  /* Elements the batch spans, for staging (device offsets are not on the host). */
  const size_t n = staged ? (size_t)(segment_end(c, b - 1) - base) : 0;
  if (staged && n > r->in_limit) { /* one segment, too big to stage whole */
    if (c->pair) {
      const orx_io a_part = orx_io_from(&c->in, (size_t)base, c->elem);
      const orx_io b_part = orx_io_from(&c->b, (size_t)base, c->elem);
      ORX_FORWARD(orx_pairs_into(ctx, c->pair, &a_part, &b_part, n, 0, 0, out_mem, out_index));
    } else {
      const orx_request request = reduce_request_of(ctx, c);
      const char *src = (const char *)c->in.host + (size_t)base * c->elem;
      ORX_FORWARD(orx_reduce_host_into(ctx, &request, src, n, 0, out_mem, out_index));
    }
  } else {
    /* Staged: a's elements at 0, a pair's b's in a second half on a boundary of every vector
     * width. A pair's staged input lies as far past such a boundary as the batch's first
     * element does from the call's (`shift`), so that the two inputs stay as far apart as
     * orx_pair_request_of planned for when the other is in place. */
    const size_t span = ORX_PAIR_SKEW_SPAN, shift = c->pair ? (size_t)(base % span) : 0;
    const size_t half = (n + shift + span - 1) / span * span;
    orx_mem *staging = NULL;
    if (staged)
      ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_STAGING,
                                  (c->pair ? 2 * half + 1 : n ? n : 1) * c->elem, &staging));
    seg_input in = {NULL, 0}, second = {NULL, 0};
    ORX_FORWARD(batch_input(ctx, c, &c->in, base, n, staging, shift, &in));
    if (c->pair)
      ORX_FORWARD(batch_input(ctx, c, &c->b, base, n, staging, half + shift, &second));
    ORX_FORWARD(launch_batch(ctx, c, r, a, b, base, in, second, out_mem, out_index));
  }

  if (c->out.host_out)
    return orx_download(ctx, out_mem, 0, (char *)c->out.host_out + a * c->result_bytes,
                        n_seg * c->result_bytes);
  return OCL_REDUCE_OK;
}

/* The call's batches, once checked. */
static ocl_reduce_status run_batches(ocl_reduce_context *ctx, orx_seg_call *c) {
  seg_run r;
  memset(&r, 0, sizeof r);
  const orx_request request = orx_seg_request(ctx, c);
  orx_plan_make(&ctx->target, &request, &r.plan);
  if (r.plan.seg.mode == ORX_SEG_LAUNCH)
    ORX_FORWARD(need_reduce_all(ctx, c, &r));
  else
    ORX_FORWARD(orx_prepare_plan(ctx, &r.plan, &r.segments));
  r.in_limit = orx_plan_staging_piece(&ctx->caps, &r.plan);
  if (c->pair) /* two inputs may share the staging buffer, each shifted by up to a span */
    r.in_limit = r.in_limit / 2 / ORX_PAIR_SKEW_SPAN * ORX_PAIR_SKEW_SPAN - ORX_PAIR_SKEW_SPAN;

  /* One launch per segment needs the offsets on the host. */
  uint64_t *read_back = NULL;
  if (r.plan.seg.mode == ORX_SEG_LAUNCH && c->offsets.mem) {
    read_back = orx_malloc((c->count + 1) * sizeof *read_back);
    if (!read_back)
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    ocl_reduce_status s =
        ctx->ops->read(ctx, ctx->backend, c->offsets.mem, c->offsets.offset * sizeof(uint64_t),
                       read_back, (c->count + 1) * sizeof(uint64_t));
    if (s != OCL_REDUCE_OK) {
      free(read_back);
      return s;
    }
    c->host_offsets = read_back;
  }

  /* Batches: results bound for the host and offsets uploaded from it go through scratch buffers
   * of bounded size. */
  size_t max_segments = SIZE_MAX;
  if (c->out.host_out)
    max_segments = ORX_STAGING_BYTES / c->result_bytes;
  if (c->by_offsets && !c->offsets.mem && max_segments > ORX_STAGING_BYTES / sizeof(uint64_t) - 1)
    max_segments = ORX_STAGING_BYTES / sizeof(uint64_t) - 1;
  ocl_reduce_status status = OCL_REDUCE_OK;
  for (size_t a = 0; a < c->count && status == OCL_REDUCE_OK;) {
    const size_t b = batch_end(c, &r, a, max_segments);
    status = run_batch(ctx, c, &r, a, b);
    a = b;
  }
  free(read_back);
  return status;
}

static ocl_reduce_status run_segments(ocl_reduce_context *ctx, orx_seg_call *c) {
  if (c->offsets.mem && !c->offsets_own)
    ORX_FORWARD(check_device_offsets(ctx, c));
  ORX_FORWARD(check_disjoint(ctx, c));
  orx_device_views views;
  memset(&views, 0, sizeof views);
  orx_seg_call results_viewed, input_viewed;
  ocl_reduce_status status = orx_seg_view_results(ctx, &views, &c, &results_viewed);
  if (status == OCL_REDUCE_OK)
    status = orx_seg_view_input(ctx, &views, &c, &input_viewed);
  if (status == OCL_REDUCE_OK)
    status = run_batches(ctx, c);
  return orx_device_views_end(ctx, &views, status);
}

/* CPU devices: equal segments (of one input or of pairs) the host can read, into host memory, on
 * the calling thread and the host plan's threads (plan_host.c); *done where it ran them. */
static ocl_reduce_status run_on_host(ocl_reduce_context *ctx, const orx_seg_call *c, int *done) {
  *done = 0;
  if (c->by_offsets || pitch_of(c) != c->length || !c->out.host_out)
    return OCL_REDUCE_OK;
  const void *a = orx_host_view(ctx, &c->in, c->elem);
  const void *b = c->pair ? orx_host_view(ctx, &c->b, c->elem) : NULL;
  if (!a || (c->pair && !b))
    return OCL_REDUCE_OK; /* before the in-place question, which plans the device's segments */
  orx_request request = reduce_request_of(ctx, c);
  const orx_host_source source = c->in.mem || (c->pair && c->b.mem) ? ORX_HOST_SOURCE_BUFFER_READ
                                                                     : ORX_HOST_SOURCE_MEMORY;
  const orx_request segments = orx_seg_request(ctx, c);
  orx_plan device;
  const int in_place = source == ORX_HOST_SOURCE_MEMORY && !c->pair &&
                       orx_seg_reads_in_place(ctx, &segments, &device);
  if (!orx_plan_takes_host_segments(&ctx->target, &request, in_place, c->length, source))
    return OCL_REDUCE_OK;
  ORX_FORWARD(check_disjoint(ctx, c));
  request.host = 1;
  orx_plan plan;
  orx_plan_make(&ctx->target, &request, &plan);
  if (c->in.mem || (c->pair && c->b.mem)) /* the buffers once the work enqueued before wrote them */
    ORX_FORWARD(ctx->ops->finish(ctx, ctx->backend));
  *done = orx_host_run_segments(ctx, &plan, a, b, c->count, c->length, c->out.host_out);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_run_segments_within(ocl_reduce_context *ctx, orx_seg_call *c) {
  int done = 0;
  ORX_FORWARD(run_on_host(ctx, c, &done));
  return done ? OCL_REDUCE_OK : orx_uploads_done(ctx, run_segments(ctx, c));
}

ocl_reduce_status orx_run_segments(ocl_reduce_context *ctx, orx_seg_call *c) {
  orx_call_begin(ctx);
  return orx_run_segments_within(ctx, c);
}
