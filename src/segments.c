/* =================================================================================================
 * segments.c: segmented reductions, ocl_reduce_segments (equal lengths) and
 * ocl_reduce_segments_offsets (CSR offsets). Checks the arguments, picks how work-items share
 * segments (orx_plan_segments), and runs cl/reduce_segments.cl, or cl/reduce_all.cl per segment
 * for a few huge ones, over batches of whole segments:
 *   - host input is uploaded through the staging buffer, as many whole segments at a time as fit
 *     (a single segment that does not fit is reduced like ocl_reduce's host input);
 *   - results bound for host memory go through a device scratch buffer of bounded size.
 * Device input with device results is one batch: one launch.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "backend.h"

typedef struct seg_call {
  const char *function;
  ocl_reduce_op op;
  ocl_reduce_type type;
  size_t elem;
  size_t count;
  size_t length;                /* equal lengths */
  int by_offsets;
  const uint64_t *host_offsets; /* offsets in host memory (or read back for LAUNCH) */
  orx_io offsets;               /* offsets in device memory: offsets.mem set */
  orx_io in, out;
  uint64_t elements;            /* elements the segments span */
  uint64_t reach;               /* elements of the input up to the end of the last segment */
} seg_call;

/* Where segment s starts, counted from the input's first element (host offsets or equal lengths). */
static uint64_t segment_begin(const seg_call *c, size_t s) {
  return c->by_offsets ? c->host_offsets[s] : (uint64_t)s * c->length;
}

/* ---- Checks ------------------------------------------------------------------------------------ */

static ocl_reduce_status check_host_offsets(ocl_reduce_context *ctx, const seg_call *c) {
  const uint64_t *o = c->host_offsets;
  for (size_t i = 0; i < c->count; i++)
    if (o[i] > o[i + 1])
      return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_OFFSETS,
                      "%s: offsets[%zu] = %llu is less than offsets[%zu] = %llu", c->function,
                      i + 1, (unsigned long long)o[i + 1], i, (unsigned long long)o[i]);
  if (o[c->count] > c->in.capacity)
    return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_OFFSETS,
                    "%s: offsets[%zu] = %llu reaches beyond the input buffer's %zu elements",
                    c->function, c->count, (unsigned long long)o[c->count], c->in.capacity);
  return OCL_REDUCE_OK;
}

/* Offsets in device memory: checked by a kernel; also reports the first and last offset. */
static ocl_reduce_status check_device_offsets(ocl_reduce_context *ctx, seg_call *c) {
  const orx_variant variant =
      orx_variant_of(ORX_KERNEL_CHECK_OFFSETS, OCL_REDUCE_SUM, OCL_REDUCE_U64);
  const orx_built *built = NULL;
  ORX_FORWARD(orx_program_get(ctx, &variant, &built));
  ORX_FORWARD(orx_ensure_mem(ctx, &ctx->offsets_report, &ctx->offsets_report_bytes,
                             3 * sizeof(uint64_t)));
  uint64_t report[3] = {0, 0, 0};
  ORX_FORWARD(ctx->ops->write(ctx, ctx->backend, ctx->offsets_report, 0, report, sizeof report));
  const orx_arg args[] = {
      {ORX_ARG_MEM, c->offsets.mem, 0},
      {ORX_ARG_U64, NULL, c->offsets.offset},
      {ORX_ARG_U64, NULL, c->count},
      {ORX_ARG_U64, NULL, c->in.capacity},
      {ORX_ARG_MEM, ctx->offsets_report, 0},
  };
  const size_t wg = built->policy.wg_size;
  size_t groups = (c->count + 1) / wg + 1;
  if (groups > built->policy.max_groups)
    groups = built->policy.max_groups;
  ORX_FORWARD(orx_launch(ctx, built, groups, args, ORX_ARRAY_SIZE(args)));
  ORX_FORWARD(ctx->ops->read(ctx, ctx->backend, ctx->offsets_report, 0, report, sizeof report));
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
static ocl_reduce_status check_disjoint(ocl_reduce_context *ctx, const seg_call *c) {
  ORX_FORWARD(orx_check_disjoint(ctx, c->function, "the input", &c->in, (size_t)c->reach * c->elem,
                                 &c->out, c->count * c->elem, c->elem, c->elem));
  return orx_check_disjoint(ctx, c->function, "the offsets", &c->offsets,
                            (c->count + 1) * sizeof(uint64_t), &c->out, c->count * c->elem,
                            c->elem, sizeof(uint64_t));
}

/* ---- Running ------------------------------------------------------------------------------------ */

typedef struct seg_run {
  orx_seg_plan plan;
  const orx_built *segments; /* cl/reduce_segments.cl (not for LAUNCH) */
  const orx_built *all;      /* cl/reduce_all.cl: LAUNCH, and host segments too big to stage;
                                built when first needed */
  size_t in_limit;           /* host input: elements per upload */
} seg_run;

static ocl_reduce_status need_reduce_all(ocl_reduce_context *ctx, const seg_call *c, seg_run *r) {
  if (r->all)
    return OCL_REDUCE_OK;
  const orx_variant variant =
      orx_variant_of(ORX_KERNEL_REDUCE_ALL, c->op, orx_compute_type(c->op, c->type));
  ORX_FORWARD(orx_program_get(ctx, &variant, &r->all));
  return orx_ensure_scratch(ctx, &r->all->policy, 1);
}

/* The end of the batch that starts at segment a: whole segments, within the staging limit for
 * host input (at least one segment) and within max_segments. */
static size_t batch_end(const seg_call *c, const seg_run *r, size_t a, size_t max_segments) {
  size_t b = c->count - a < max_segments ? c->count : a + max_segments;
  if (c->in.mem)
    return b;
  const uint64_t first = segment_begin(c, a);
  if (segment_begin(c, b) - first <= r->in_limit)
    return b;
  /* The last segment end within the limit (segment_begin does not decrease). */
  size_t lo = a + 1, hi = b;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    if (segment_begin(c, mid) - first <= r->in_limit)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* Launches the kernels for segments [a, b), which start at element in_offset + (segment_begin(s)
 * - base) of in_mem, with result s at element out_index + (s - a) of out_mem. */
static ocl_reduce_status launch_batch(ocl_reduce_context *ctx, const seg_call *c,
                                      const seg_run *r, size_t a, size_t b, uint64_t base,
                                      orx_mem *in_mem, size_t in_offset, orx_mem *out_mem,
                                      size_t out_index) {
  if (r->plan.mode == ORX_SEG_LAUNCH) {
    for (size_t s = a; s < b; s++) {
      const uint64_t begin = segment_begin(c, s) - base;
      const uint64_t n = segment_begin(c, s + 1) - segment_begin(c, s);
      ORX_FORWARD(orx_launch_reduce_all(ctx, r->all, in_mem, in_offset + (size_t)begin,
                                        (size_t)n, out_mem, out_index + (s - a)));
    }
    return OCL_REDUCE_OK;
  }
  const size_t n_seg = b - a;
  orx_mem *offsets_mem = ctx->partials; /* any buffer: unread with equal lengths */
  size_t offsets_index = 0;
  if (c->offsets.mem) {
    offsets_mem = c->offsets.mem;
    offsets_index = c->offsets.offset + a;
  } else if (c->by_offsets) {
    ORX_FORWARD(orx_ensure_mem(ctx, &ctx->segment_offsets, &ctx->segment_offsets_bytes,
                               (n_seg + 1) * sizeof(uint64_t)));
    ORX_FORWARD(orx_device_write(ctx, ctx->segment_offsets, 0, c->host_offsets + a,
                                 (n_seg + 1) * sizeof(uint64_t)));
    offsets_mem = ctx->segment_offsets;
  }
  const orx_policy *policy = &r->segments->policy;
  const size_t misaligned = ctx->ops->misalignment ? ctx->ops->misalignment(in_mem) / c->elem : 0;
  const orx_arg args[] = {
      {ORX_ARG_MEM, in_mem, 0},
      {ORX_ARG_U64, NULL, in_offset},
      {ORX_ARG_U64, NULL, (misaligned + in_offset) % policy->vec},
      {ORX_ARG_U64, NULL, n_seg},
      {ORX_ARG_U64, NULL, c->length},
      {ORX_ARG_MEM, offsets_mem, 0},
      {ORX_ARG_U64, NULL, offsets_index},
      {ORX_ARG_U64, NULL, base},
      {ORX_ARG_MEM, out_mem, 0},
      {ORX_ARG_U64, NULL, out_index},
  };
  return orx_launch(ctx, r->segments, orx_segment_groups(policy, &r->plan, n_seg, c->length),
                    args, ORX_ARRAY_SIZE(args));
}

/* Segments [a, b): the input in place or uploaded, results to device memory, then to the host. */
static ocl_reduce_status run_batch(ocl_reduce_context *ctx, const seg_call *c, seg_run *r,
                                   size_t a, size_t b) {
  const size_t n_seg = b - a;
  /* Offsets index the whole input; a batch sees its segments relative to `base`. */
  const uint64_t base = c->by_offsets && c->in.mem ? 0 : segment_begin(c, a);

  orx_mem *out_mem = c->out.mem;
  size_t out_index = c->out.offset + a;
  if (c->out.host_out) {
    ORX_FORWARD(orx_ensure_mem(ctx, &ctx->segment_results, &ctx->segment_results_bytes,
                               n_seg * c->elem));
    out_mem = ctx->segment_results;
    out_index = 0;
  }

  if (c->in.mem) {
    ORX_FORWARD(launch_batch(ctx, c, r, a, b, base, c->in.mem, c->in.offset + (size_t)base,
                             out_mem, out_index));
  } else {
    const size_t n = (size_t)(segment_begin(c, b) - base);
    const char *src = n ? (const char *)c->in.host + (size_t)base * c->elem : NULL;
    if (n > r->in_limit) { /* one segment, too big to stage whole */
      ORX_FORWARD(need_reduce_all(ctx, c, r));
      ORX_FORWARD(orx_reduce_host_into(ctx, r->all, src, n, out_mem, out_index));
    } else {
      ORX_FORWARD(orx_ensure_mem(ctx, &ctx->staging, &ctx->staging_bytes,
                                 (n ? n : 1) * c->elem));
      if (n)
        ORX_FORWARD(orx_device_write(ctx, ctx->staging, 0, src, n * c->elem));
      ORX_FORWARD(launch_batch(ctx, c, r, a, b, base, ctx->staging, 0, out_mem, out_index));
    }
  }

  if (c->out.host_out)
    return ctx->ops->read(ctx, ctx->backend, ctx->segment_results, 0,
                          (char *)c->out.host_out + a * c->elem, n_seg * c->elem);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status run(ocl_reduce_context *ctx, seg_call *c) {
  orx_call_begin(ctx);
  if (c->offsets.mem)
    ORX_FORWARD(check_device_offsets(ctx, c));
  ORX_FORWARD(check_disjoint(ctx, c));
  const ocl_reduce_type compute = orx_compute_type(c->op, c->type);
  orx_variant variant = orx_variant_of(ORX_KERNEL_SEGMENTS, c->op, compute);
  variant.seg_offsets = c->by_offsets;
  orx_policy policy;
  orx_variant_policy(ctx, &variant, &policy);

  seg_run r;
  memset(&r, 0, sizeof r);
  /* Equal lengths of whole vectors from an aligned start: every segment starts aligned (host
   * input is staged at the start of an allocation). */
  const size_t misaligned =
      c->in.mem && ctx->ops->misalignment ? ctx->ops->misalignment(c->in.mem) / c->elem : 0;
  const int aligned = !c->by_offsets && c->length % policy.vec == 0 &&
                      (!c->in.mem || (misaligned + c->in.offset) % policy.vec == 0);
  const orx_seg_shape shape = {c->count, c->elements, c->by_offsets ? 0 : c->length, c->elem,
                               aligned};
  orx_plan_segments(&ctx->caps, &policy, ctx->policy_override.seg_mode, &shape, &r.plan);
  const unsigned slots = ctx->policy_override.seg_slots;
  if (r.plan.mode == ORX_SEG_MR && slots)
    r.plan.slots = slots < r.plan.width ? slots : r.plan.width;
  ORX_FORWARD(orx_ensure_scratch(ctx, &policy, 1));
  if (r.plan.mode == ORX_SEG_LAUNCH) {
    ORX_FORWARD(need_reduce_all(ctx, c, &r));
  } else {
    variant.seg = r.plan;
    ORX_FORWARD(orx_program_get(ctx, &variant, &r.segments));
  }
  r.in_limit = orx_staging_piece(ctx, c->type, policy.vec);

  /* One launch per segment needs the offsets on the host. */
  uint64_t *read_back = NULL;
  if (r.plan.mode == ORX_SEG_LAUNCH && c->offsets.mem) {
    read_back = malloc((c->count + 1) * sizeof *read_back);
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
    max_segments = ORX_STAGING_BYTES / c->elem;
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

/* ---- Public entry points ----------------------------------------------------------------------- */

/* The checks both entry points share: sets up *c from the common arguments and fills c->out. */
static ocl_reduce_status check_common(ocl_reduce_context *ctx, seg_call *c, const char *function,
                                      ocl_reduce_op op, ocl_reduce_type type, size_t count,
                                      const ocl_reduce_output *results) {
  memset(c, 0, sizeof *c);
  c->function = function;
  c->op = op;
  c->type = type;
  c->count = count;
  ORX_FORWARD(orx_check_op_type(ctx, c->function, c->op, c->type));
  c->elem = ocl_reduce_type_size(c->type);
  return orx_resolve_output(ctx, c->function, "results", results, c->type, c->count, &c->out);
}

ocl_reduce_status ocl_reduce_segments(ocl_reduce_context *ctx, ocl_reduce_op op,
                                      ocl_reduce_type type, ocl_reduce_input input,
                                      size_t segment_count, size_t segment_length,
                                      ocl_reduce_output results) {
  static const char function[] = "ocl_reduce_segments";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  seg_call c;
  ORX_FORWARD(check_common(ctx, &c, function, op, type, segment_count, &results));
  c.length = segment_length;
  ORX_CHECK_ARG(ctx, segment_length == 0 || segment_count <= SIZE_MAX / segment_length,
                "%s: segment_count (%zu) x segment_length (%zu) overflows size_t", function,
                segment_count, segment_length);
  const size_t elements = segment_count * segment_length;
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, type, elements, &c.in));
  c.elements = c.reach = elements;
  return segment_count ? run(ctx, &c) : OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_segments_offsets(ocl_reduce_context *ctx, ocl_reduce_op op,
                                              ocl_reduce_type type, ocl_reduce_input input,
                                              size_t segment_count, ocl_reduce_input offsets,
                                              ocl_reduce_output results) {
  static const char function[] = "ocl_reduce_segments_offsets";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  seg_call c;
  ORX_FORWARD(check_common(ctx, &c, function, op, type, segment_count, &results));
  c.by_offsets = 1;
  ORX_CHECK_ARG(ctx, segment_count < SIZE_MAX, "%s: segment_count is SIZE_MAX", function);
  orx_io offsets_io;
  ORX_FORWARD(orx_resolve_input(ctx, function, "offsets", &offsets, OCL_REDUCE_U64,
                                segment_count + 1, &offsets_io));
  /* How far the input must reach is known once the offsets are. */
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, type, 0, &c.in));
  if (offsets_io.mem) {
    ORX_CHECK_ARG(ctx, c.in.mem,
                  "%s: offsets in a device buffer need the input in a device buffer too",
                  function);
    c.offsets = offsets_io;
  } else {
    c.host_offsets = offsets_io.host;
    ORX_FORWARD(check_host_offsets(ctx, &c));
    c.elements = c.host_offsets[segment_count] - c.host_offsets[0];
    c.reach = c.host_offsets[segment_count];
    ORX_CHECK_ARG(ctx, c.in.host || c.in.mem || c.elements == 0,
                  "%s: input is NULL and the segments span %llu elements", function,
                  (unsigned long long)c.elements);
  }
  return segment_count ? run(ctx, &c) : OCL_REDUCE_OK;
}
