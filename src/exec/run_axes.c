/* =================================================================================================
 * run_axes.c: an axes reduction, once checked (run.h), by the form of its layout
 * (planner/plan_axes.h) and the way the planner reads it (orx_plan_axes_route): identities, a
 * whole-array reduction, equal segments in place (with a pitch for a buffer's rows apart), a
 * buffer's view read in place by kernels/axes_columns.cl (columns; on CPU devices any view), two
 * passes (rows along the innermost reduced axis, then columns of their results), or any other
 * view gathered into the order equal segments read (results row-major over the kept axes, each
 * one's elements row-major over the reduced axes), on the host for host memory and by
 * kernels/gather.cl for a buffer, then reduced as equal segments. A gathered view costs a copy
 * (and memory for it: a repeated axis is copied out in full). Also the shape's checks, which
 * ocl_reduce_axes and ocl_reduce_group_axes share, and the host's gather, which groups use too.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "exec/context.h"
#include "exec/launch.h"
#include "exec/memory.h"
#include "exec/run.h"

/* The layout of a checked shape, or INVALID_ARGUMENT naming what is wrong. */
ocl_reduce_status orx_axes_layout_checked(ocl_reduce_context *ctx, const char *function,
                                          const ocl_reduce_shape *shape, uint32_t axes,
                                          orx_axes_layout *layout) {
  ORX_CHECK_ARG(ctx, shape, "%s: shape is NULL", function);
  ORX_CHECK_ARG(ctx, shape->struct_size >= sizeof(ocl_reduce_shape),
                "%s: shape->struct_size is %zu, below %zu (use OCL_REDUCE_SHAPE_INIT)", function,
                shape->struct_size, sizeof(ocl_reduce_shape));
  switch (orx_axes_layout_of(shape->rank, shape->extents, shape->strides, axes, layout)) {
  case ORX_AXES_OK: return OCL_REDUCE_OK;
  case ORX_AXES_BAD_RANK:
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: shape->rank is %u, not 1 .. %d",
                    function, shape->rank, OCL_REDUCE_MAX_RANK);
  case ORX_AXES_NO_AXIS:
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: axes is 0: no axis to reduce",
                    function);
  case ORX_AXES_AXIS_PAST:
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: axes is 0x%x, with a bit at or above shape->rank (%u)", function, axes,
                    shape->rank);
  case ORX_AXES_TOO_MANY:
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: shape->extents: the results, or the elements of one, overflow 64 bits",
                    function);
  default:
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: shape: the largest position reached overflows 64 bits", function);
  }
}

/* count equal segments of `length` elements of `in`, `pitch` apart (count > 0; length may be 0:
 * identities). */
static ocl_reduce_status rows(ocl_reduce_context *ctx, const char *function,
                              const orx_op_call *call, const orx_io *in, size_t count,
                              size_t length, size_t pitch, const orx_io *out) {
  orx_seg_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  c.op = call->op;
  c.type = call->type;
  c.elem = call->elem;
  c.result_bytes = call->result_bytes;
  c.count = count;
  c.length = length;
  c.pitch = pitch;
  c.in = *in;
  c.out = *out;
  c.elements = (uint64_t)count * length;
  c.reach = (uint64_t)(count - 1) * pitch + length;
  return orx_run_segments(ctx, &c);
}

/* Advances a row-major position over `dims` by one, and `at`, its element offset; 1 when it
 * wrapped to zero. (Unsigned arithmetic: the offset comes back exactly.) */
static int next_position(const orx_axes_dims *dims, uint64_t *index, uint64_t *at) {
  for (unsigned k = dims->rank; k-- > 0;) {
    *at += dims->strides[k];
    if (++index[k] < dims->extents[k])
      return 0;
    *at -= dims->strides[k] * dims->extents[k];
    index[k] = 0;
  }
  return 1;
}

void orx_axes_gather_host(const orx_axes_layout *l, const unsigned char *base, size_t elem,
                          unsigned char *to) {
  uint64_t kept_index[ORX_AXES_MAX_RANK] = {0}, kept_at = 0;
  do {
    uint64_t reduced_index[ORX_AXES_MAX_RANK] = {0}, at = kept_at;
    do {
      memcpy(to, base + at * elem, elem);
      to += elem;
    } while (!next_position(&l->reduced, reduced_index, &at));
  } while (!next_position(&l->kept, kept_index, &kept_at));
}

/* The axes as kernels/gather.cl and kernels/axes_columns.cl read them, into dims: the ranks,
 * then the kept extents and strides, then the reduced ones; the ulongs written. */
#define ORX_DIMS_WORDS ORX_AXES_DIMS_WORDS
static size_t dims_words(const orx_axes_dims *kept, const orx_axes_dims *reduced, uint64_t *dims) {
  size_t n = 0;
  dims[n++] = kept->rank;
  dims[n++] = reduced->rank;
  const orx_axes_dims *both[2] = {kept, reduced};
  for (int d = 0; d < 2; d++) {
    memcpy(dims + n, both[d]->extents, both[d]->rank * sizeof *dims);
    memcpy(dims + n + both[d]->rank, both[d]->strides, both[d]->rank * sizeof *dims);
    n += 2 * both[d]->rank;
  }
  return n;
}

/* `words` ulongs of axes into the context's dims buffer. The copy is a blocking write, which waits
 * for the work enqueued before it; so a buffer that already holds them (the last view's axes
 * again: the same shape called again) is not written, and such a call whose output is a buffer
 * returns without waiting for the device. */
static ocl_reduce_status upload_dims(ocl_reduce_context *ctx, const uint64_t *dims, size_t words,
                                     orx_mem **mem) {
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_AXES_DIMS, words * sizeof *dims, mem));
  orx_axes_dims_held *held = &ctx->axes_dims;
  const uint64_t serial = ctx->scratch[ORX_SCRATCH_AXES_DIMS].serial;
  if (held->serial == serial && held->words == words &&
      !memcmp(held->words_held, dims, words * sizeof *dims))
    return OCL_REDUCE_OK;
  held->serial = 0; /* unknown until the write succeeds */
  ORX_FORWARD(orx_device_write(ctx, *mem, 0, dims, words * sizeof *dims));
  memcpy(held->words_held, dims, words * sizeof *dims);
  held->words = words;
  held->serial = serial;
  return OCL_REDUCE_OK;
}

/* The view of a buffer gathered into `dense` (results x length elements) by a kernel. */
static ocl_reduce_status device_gather(ocl_reduce_context *ctx, const orx_op_call *call,
                                       const orx_axes_layout *l, const orx_io *in,
                                       orx_mem *dense) {
  uint64_t dims[ORX_DIMS_WORDS];
  const size_t words = dims_words(&l->kept, &l->reduced, dims);
  orx_prepared k;
  ORX_FORWARD(orx_prepare_utility(ctx, ORX_ENTRY_GATHER, OCL_REDUCE_U32, &k));
  orx_mem *dims_mem = NULL;
  ORX_FORWARD(upload_dims(ctx, dims, words, &dims_mem));
  const orx_arg args[] = {
      {ORX_ARG_MEM, in->mem, 0},      {ORX_ARG_U64, NULL, in->offset},
      {ORX_ARG_MEM, dense, 0},        {ORX_ARG_U64, NULL, l->results},
      {ORX_ARG_U64, NULL, l->length}, {ORX_ARG_U64, NULL, call->elem},
      {ORX_ARG_MEM, dims_mem, 0},
  };
  return orx_launch(ctx, &k, orx_plan_groups(&k.plan, (size_t)(l->results * l->length), 0), args,
                    ORX_ARRAY_SIZE(args));
}

/* ---- Columns in place (kernels/axes_columns.cl) -------------------------------------------- */

/* Whether `run` elements of `elem` bytes at element `index` of `mem` start on a vector boundary:
 * the allocation's and the index. */
static int run_aligned(const ocl_reduce_context *ctx, const orx_mem *mem, size_t index,
                       unsigned run, size_t elem) {
  return run > 1 && index % run == 0 &&
         !(ctx->ops->misalignment && ctx->ops->misalignment(mem) % (run * elem));
}

/* Whether every run of `run` kept positions of the view starts on a vector boundary: the first,
 * and every stride but the contiguous kept axis's a multiple of the run. */
static int runs_aligned(const ocl_reduce_context *ctx, const orx_axes_layout *l,
                        const orx_io *in, unsigned run, size_t elem) {
  if (!run_aligned(ctx, in->mem, in->offset, run, elem))
    return 0;
  for (unsigned k = 0; k < l->reduced.rank; k++)
    if (l->reduced.strides[k] % run)
      return 0;
  for (unsigned k = 0; k + 1 < l->kept.rank; k++)
    if (l->kept.strides[k] % run)
      return 0;
  return 1;
}

/* Where a launch's data lie: `in` (elements or states) from in_offset, results or partials at
 * out_index, the axes at dims_index of dims; and, for a launch that finishes itself, its
 * partials (from 0) and its blocks' counters. */
typedef struct column_memory {
  orx_mem *in, *out, *dims, *partials, *counters;
  size_t in_offset, out_index, dims_index;
} column_memory;

/* One launch; `aligned` as the kernel reads it (ORX_COL_ALIGNED_ bits). */
static ocl_reduce_status column_launch(ocl_reduce_context *ctx, const orx_prepared *k,
                                       const orx_axes_layout *l, const orx_column_level *level,
                                       const column_memory *m, int aligned) {
  const orx_arg args[] = {
      {ORX_ARG_MEM, m->in, 0},
      {ORX_ARG_U64, NULL, m->in_offset},
      {ORX_ARG_MEM, m->out, 0},
      {ORX_ARG_U64, NULL, m->out_index},
      {ORX_ARG_U64, NULL, l->results},
      {ORX_ARG_U64, NULL, level->length},
      {ORX_ARG_U64, NULL, level->parts},
      {ORX_ARG_MEM, m->dims, 0},
      {ORX_ARG_U64, NULL, m->dims_index},
      {ORX_ARG_U64, NULL, (uint64_t)aligned},
      {ORX_ARG_MEM, m->partials, 0},
      {ORX_ARG_MEM, m->counters, 0},
  };
  const uint64_t items = orx_plan_columns_items(&k->plan, l->results, level->parts);
  return orx_launch(ctx, k, orx_plan_groups(&k->plan, (size_t)items, 0), args,
                    ORX_ARRAY_SIZE(args));
}

/* The levels' axes into dims, as the kernel reads them: the view's at 0, level i's (partials:
 * `length` parts of `results` states each, part-major) at i * ORX_DIMS_WORDS. */
static void column_dims(const orx_axes_layout *l, const orx_column_level *levels, size_t n,
                        uint64_t *dims) {
  orx_axes_dims view = l->reduced;
  if (view.rank == 0) { /* one element a result: the kernel walks one axis at least */
    view.rank = 1;
    view.extents[0] = 1;
    view.strides[0] = 0;
  }
  dims_words(&l->kept, &view, dims);
  for (size_t i = 1; i < n; i++) {
    const orx_axes_dims kept = {1, {l->results}, {1}}, reduced = {1, {levels[i].length},
                                                                  {l->results}};
    dims_words(&kept, &reduced, dims + i * ORX_DIMS_WORDS);
  }
}

/* A buffer's view read in place: each level's launch, partials ping-ponging between two regions
 * of one scratch buffer (level i writes region i % 2; region 1 holds the largest odd level); or
 * one launch that folds its own partials (region 0) on its blocks' counters. */
static ocl_reduce_status columns(ocl_reduce_context *ctx, const orx_op_call *call,
                                 const orx_axes_layout *l, const orx_io *in, const orx_io *out) {
  orx_request request = orx_op_request(call);
  orx_column_level levels[ORX_COLUMN_LEVELS];
  const size_t n = orx_plan_column_levels(&ctx->target, l, &request, levels);
  uint64_t dims[ORX_COLUMN_LEVELS * ORX_DIMS_WORDS] = {0}; /* compared whole (upload_dims) */
  column_dims(l, levels, n, dims);
  orx_mem *dims_mem = NULL, *partials = NULL, *counters = NULL, *out_mem = out->mem;
  ORX_FORWARD(upload_dims(ctx, dims, n * ORX_DIMS_WORDS, &dims_mem));
  size_t out_index = out->offset;
  const size_t results = (size_t)l->results;
  if (out->host_out) {
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_SEGMENT_RESULTS, results * call->result_bytes,
                                &out_mem));
    out_index = 0;
  }
  const size_t region[2] = {0, (size_t)levels[0].parts * results};
  for (size_t i = 0; i < n; i++) {
    orx_prepared k;
    request.stage = levels[i].stage;
    request.shape.length = levels[i].length;
    request.columns_flat = levels[i].flat;
    ORX_FORWARD(orx_prepare(ctx, &request, &k));
    if (i == 0) { /* every launch takes both (unread where there are no partials) */
      const size_t states = (size_t)(levels[0].parts + (n > 2 ? levels[1].parts : 0)) * results;
      ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_AXES_VIEW,
                                  levels[0].parts > 1 ? states * k.plan.op.state_bytes : 0,
                                  &partials));
      const size_t blocks = (size_t)orx_plan_columns_blocks(&k.plan, l->results);
      ORX_FORWARD(
          orx_scratch_get(ctx, ORX_SCRATCH_COLUMN_COUNTERS, blocks * sizeof(uint32_t), &counters));
    }
    const column_memory m = {
        i == 0 ? in->mem : partials,
        i + 1 == n ? out_mem : partials,
        dims_mem,
        partials,
        counters,
        i == 0 ? in->offset : region[(i - 1) % 2],
        i + 1 == n ? out_index : region[i % 2],
        i * ORX_DIMS_WORDS,
    };
    const unsigned run = orx_plan_columns_run(&k.plan);
    /* The partials' runs are aligned (the scratch buffer's, at multiples of `results`, which
     * the run divides); the view's and the results' are checked. */
    const int reads_aligned = i == 0 ? runs_aligned(ctx, l, in, run, call->elem) : run > 1;
    const int writes_aligned =
        i + 1 < n ? run > 1 : run_aligned(ctx, out_mem, out_index, run, call->result_bytes);
    const int aligned = (reads_aligned ? ORX_COL_ALIGNED_IN : 0) |
                        (writes_aligned ? ORX_COL_ALIGNED_OUT : 0);
    ORX_FORWARD(column_launch(ctx, &k, l, &levels[i], &m, aligned));
  }
  if (out->host_out)
    return orx_download(ctx, out_mem, 0, out->host_out, results * call->result_bytes);
  return OCL_REDUCE_OK;
}

/* Any other view: gathered, then equal segments. */
static ocl_reduce_status gathered_rows(ocl_reduce_context *ctx, const char *function,
                                       const orx_op_call *call, const orx_axes_layout *l,
                                       const orx_io *in, const orx_io *out) {
  const size_t elem = call->elem, count = (size_t)l->results, length = (size_t)l->length;
  ORX_CHECK_ARG(ctx, count <= SIZE_MAX / length && count * length <= SIZE_MAX / elem,
                "%s: the gathered view (%zu x %zu elements) overflows size_t", function, count,
                length);
  const size_t bytes = count * length * elem;
  orx_io dense = {NULL, NULL, NULL, 0, count * length};
  unsigned char *host = NULL;
  ocl_reduce_status status = OCL_REDUCE_OK;
  if (in->host) {
    if (!(host = malloc(bytes)))
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY,
                      "%s: out of host memory for the gathered view (%zu bytes)", function, bytes);
    orx_axes_gather_host(l, in->host, elem, host);
    dense.host = host;
  } else {
    /* A scratch slot: kept for the next call, as the segments' own are. */
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_AXES_VIEW, bytes, &dense.mem));
    status = device_gather(ctx, call, l, in, dense.mem);
  }
  if (status == OCL_REDUCE_OK) {
    /* The segments count their own kernel time from zero: the gather's is added back. */
    const uint64_t gather_ns = ctx->last_kernel_ns;
    status = rows(ctx, function, call, &dense, count, length, length, out);
    ctx->last_kernel_ns += gather_ns;
  }
  free(host);
  return status;
}

/* ---- Two passes (plan_axes.h, orx_axes_split) ------------------------------------------- */

int orx_axes_splittable(const orx_op_call *call) {
  /* Pass two folds pass one's results as elements: SUM through XOR (ORX_OP_SUM .. ORX_OP_XOR),
   * whose results are their elements' type. */
  return call->builtin >= ORX_OP_SUM && call->builtin <= ORX_OP_XOR &&
         call->result_bytes == call->elem;
}

/* The rows along the innermost reduced axis into a scratch array, then its columns in place. */
static ocl_reduce_status split(ocl_reduce_context *ctx, const char *function,
                               const orx_op_call *call, const orx_axes_layout *l,
                               const orx_io *in, const orx_io *out) {
  const orx_axes_split *sp = &l->split;
  const size_t rows_count = (size_t)sp->rows;
  orx_io results = {NULL, NULL, NULL, 0, rows_count};
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_AXES_ROWS, rows_count * call->result_bytes,
                              &results.mem));
  ORX_FORWARD(rows(ctx, function, call, in, rows_count, (size_t)sp->length, (size_t)sp->pitch,
                   &results));
  const orx_axes_layout rest = orx_axes_split_rest(l);
  return columns(ctx, call, &rest, &results, out); /* its launches add to the rows' time */
}

ocl_reduce_status orx_run_axes(ocl_reduce_context *ctx, const char *function,
                               const orx_op_call *call, const orx_axes_layout *l,
                               const orx_io *in, const orx_io *out) {
  orx_call_begin(ctx); /* the kernel time of this call alone (ocl_reduce_last_kernel_ns) */
  switch (l->form) {
  case ORX_AXES_EMPTY:
    return l->results ? rows(ctx, function, call, in, (size_t)l->results, 0, 0, out)
                      : OCL_REDUCE_OK;
  case ORX_AXES_WHOLE:
    return orx_run_call(ctx, call, ORX_STAGE_WHOLE, in, (size_t)l->length, 0, out);
  default:
    break;
  }
  switch (orx_plan_axes_route(&ctx->target, l, in->mem == NULL, orx_axes_splittable(call))) {
  case ORX_AXES_IN_PLACE:
    return l->form == ORX_AXES_ROWS ? rows(ctx, function, call, in, (size_t)l->results,
                                           (size_t)l->length, (size_t)l->kept.strides[0], out)
                                    : columns(ctx, call, l, in, out);
  case ORX_AXES_SPLIT: return split(ctx, function, call, l, in, out);
  default: return gathered_rows(ctx, function, call, l, in, out);
  }
}
