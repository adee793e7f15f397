/* =================================================================================================
 * run_windows.c: sliding-window reductions once their arguments are checked (run.h). The planner
 * picks the algorithm (kernels/windows.cl); this runs it over batches of windows:
 *   - host input is uploaded in pieces that overlap by window - 1 elements (a piece holds the
 *     staging buffer's worth, or 2 * window elements where a window is longer than half of it);
 *   - results bound for host memory go through a device scratch buffer of bounded size.
 * Device input with device results is one batch: one launch. Blocks are counted from the call's
 * first element, so the batches do not change the results' bits.
 * ============================================================================================== */
#include <string.h>

#include "exec/epoch_scratch.h"
#include "exec/launch.h"
#include "exec/run.h"
#include "planner/plan_windows.h"

/* Scratch SERIAL's suffixes may take: a block of `window` states per work-item; fewer work-groups
 * where blocks are that large. */
#define ORX_WIN_SUFFIX_BYTES ((size_t)64 << 20)
/* Launches of LONG in one pass before its scratch is zeroed again: a tag is the epoch, in 32
 * bits, never 0 (zeroed words). */
#define ORX_WIN_EPOCHS 0xfffffff0u

static orx_request request_of(const orx_win_call *c) {
  orx_request request;
  memset(&request, 0, sizeof request);
  request.entry = ORX_ENTRY_WINDOWS;
  request.type = c->type;
  request.op = c->op;
  request.windows.count = c->count;
  request.windows.window = c->window;
  request.windows.first_index = c->first_index;
  return request;
}

/* Windows [a, b): their elements from element in_offset of in_mem, their results from element
 * out_index of out_mem. */
static ocl_reduce_status launch_windows(ocl_reduce_context *ctx, const orx_win_call *c,
                                        const orx_prepared *k, size_t a, size_t b,
                                        orx_mem *in_mem, size_t in_offset, orx_mem *out_mem,
                                        size_t out_index) {
  const orx_plan *plan = &k->plan;
  const size_t n_out = b - a;
  orx_mem *suffixes = ctx->scratch[ORX_SCRATCH_PARTIALS].mem; /* any buffer: unread */
  /* SERIAL: a block of `window` states per work-item, within the bound. */
  const size_t per_block = c->window * plan->op.state_bytes;
  const size_t blocks = ORX_WIN_SUFFIX_BYTES / per_block ? ORX_WIN_SUFFIX_BYTES / per_block : 1;
  const size_t groups = orx_win_groups(plan, n_out, c->window, blocks);
  const uint64_t states = orx_win_scratch_states(plan, n_out, c->window, groups);
  const int one_pass = plan->defines[ORX_DEFINE_WIN_ONE_PASS] == 1;
  uint32_t epoch = 0;
  if (one_pass) /* tickets and tagged words (kernels/windows.cl) */
    ORX_FORWARD(orx_epoch_scratch(ctx, ORX_SCRATCH_WINDOW_TILES,
                                  (size_t)states * plan->op.state_bytes, ORX_WIN_EPOCHS,
                                  &ctx->window_tiles, &suffixes, &epoch));
  else if (states)
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_WINDOW_SUFFIXES,
                                (size_t)states * plan->op.state_bytes, &suffixes));
  const orx_arg args[] = {
      {ORX_ARG_MEM, in_mem, 0},       {ORX_ARG_U64, NULL, in_offset},
      {ORX_ARG_U64, NULL, n_out},     {ORX_ARG_U64, NULL, c->window},
      {ORX_ARG_U64, NULL, c->first_index + a}, {ORX_ARG_MEM, out_mem, 0},
      {ORX_ARG_U64, NULL, out_index}, {ORX_ARG_MEM, suffixes, 0},
      {ORX_ARG_U32, NULL, epoch},
  };
  if (plan->win.algo == ORX_WIN_LONG && !one_pass) {
    /* LONG's first launch: the tiles' totals into scratch (kernels/windows.cl), its work-groups
     * striding over them as the second's do over the tiles of results. */
    orx_prepared totals = {.plan = k->plan};
    totals.plan.defines[ORX_DEFINE_WIN_TOTALS] = 1;
    ORX_FORWARD(orx_program_get(ctx, &totals.plan, &totals.built));
    ORX_FORWARD(orx_launch(ctx, &totals, groups, args, ORX_ARRAY_SIZE(args)));
  }
  return orx_launch(ctx, k, groups, args, ORX_ARRAY_SIZE(args));
}

static ocl_reduce_status run_windows(ocl_reduce_context *ctx, const orx_win_call *c) {
  const orx_request request = request_of(c);
  orx_prepared k;
  ORX_FORWARD(orx_prepare(ctx, &request, &k));
  const size_t n_out = c->count - c->window + 1;
  size_t per_batch = n_out;
  if (c->out.host_out && per_batch > ORX_STAGING_BYTES / c->result_bytes)
    per_batch = ORX_STAGING_BYTES / c->result_bytes;
  if (!c->in.mem) {
    size_t piece = orx_plan_staging_piece(&ctx->caps, &k.plan);
    if (piece / 2 < c->window)
      piece = c->count < 2 * c->window ? c->count : 2 * c->window;
    if (per_batch > piece - (c->window - 1))
      per_batch = piece - (c->window - 1);
  }
  /* Batches start where a tile (BLOCKS) or a block (SERIAL) of the single launch that device
   * input and results take would start, so that they combine in the same order. SPANS and LONG
   * count their runs and tiles from the call's first element, so any batch would do; whole tiles
   * keep their launches' tiles full. A call that one batch holds stays one launch: rounded down,
   * its last part tile would take a second launch of a group or two, which for LONG walks every
   * tile its windows span (H100, 2^26 f32 in windows of 98306: 49 us beside the first's 240). */
  const int algo = k.plan.win.algo;
  size_t unit = 1;
  if (algo == ORX_WIN_BLOCKS || algo == ORX_WIN_SPANS)
    unit = (size_t)orx_win_per_tile(&k.plan, c->window);
  else if (algo == ORX_WIN_LONG)
    unit = (size_t)orx_win_tile(&k.plan);
  else if (algo == ORX_WIN_SERIAL)
    unit = c->window;
  if (per_batch < n_out)
    per_batch = per_batch >= unit ? per_batch / unit * unit : unit;
  for (size_t a = 0; a < n_out;) {
    const size_t b = n_out - a < per_batch ? n_out : a + per_batch;
    orx_mem *out_mem = c->out.mem;
    size_t out_index = c->out.offset + a;
    if (c->out.host_out) {
      ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_SEGMENT_RESULTS, (b - a) * c->result_bytes,
                                  &out_mem));
      out_index = 0;
    }
    if (c->in.mem) {
      ORX_FORWARD(launch_windows(ctx, c, &k, a, b, c->in.mem, c->in.offset + a, out_mem,
                                 out_index));
    } else {
      const size_t n_in = b - a + c->window - 1;
      orx_mem *staging = NULL;
      ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_STAGING, n_in * c->elem, &staging));
      ORX_FORWARD(
          orx_upload(ctx, staging, 0, (const char *)c->in.host + a * c->elem, n_in * c->elem));
      ORX_FORWARD(launch_windows(ctx, c, &k, a, b, staging, 0, out_mem, out_index));
    }
    if (c->out.host_out)
      ORX_FORWARD(orx_download(ctx, out_mem, 0, (char *)c->out.host_out + a * c->result_bytes,
                               (b - a) * c->result_bytes));
    a = b;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_run_windows(ocl_reduce_context *ctx, const orx_win_call *c) {
  orx_call_begin(ctx);
  return orx_uploads_done(ctx, run_windows(ctx, c));
}

ocl_reduce_status orx_windows_checked(ocl_reduce_context *ctx, const char *function,
                                      ocl_reduce_op op, ocl_reduce_type type,
                                      const ocl_reduce_input *input, size_t count, size_t window,
                                      uint64_t first_index, const ocl_reduce_output *results) {
  orx_win_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  if (window == 0 || window > count)
    return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_WINDOW,
                    "%s: window = %zu, count = %zu: a window is 1 to count elements long",
                    function, window, count);
  c.type = call.type;
  c.op = call.op;
  c.elem = call.elem;
  c.result_bytes = call.result_bytes;
  c.count = count;
  c.window = window;
  c.first_index = first_index;
  ORX_FORWARD(orx_resolve_output(ctx, function, "results", results, c.result_bytes,
                                 count - window + 1, &c.out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", input, c.elem, count, &c.in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &c.in, count * c.elem, &c.out,
                                 (count - window + 1) * c.result_bytes, c.result_bytes, c.elem));
  return orx_run_windows(ctx, &c);
}
