/* =================================================================================================
 * run_axes.c: an axes reduction, once checked (run.h), by the form of its layout
 * (planner/plan_axes.h): identities, a whole-array reduction, equal segments in place, or any
 * other view gathered into the order equal segments read (results row-major over the kept axes,
 * each one's elements row-major over the reduced axes), on the host for host memory and by
 * kernels/gather.cl for a buffer, then reduced as equal segments. A gathered view costs a copy
 * (and memory for it: a repeated axis is copied out in full); kernels that read views in place
 * are the next step (issue 55).
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "exec/context.h"
#include "exec/launch.h"
#include "exec/memory.h"
#include "exec/run.h"

/* count equal segments of `length` elements of `in` (count > 0; length may be 0: identities). */
static ocl_reduce_status rows(ocl_reduce_context *ctx, const char *function,
                              const orx_op_call *call, const orx_io *in, size_t count,
                              size_t length, const orx_io *out) {
  orx_seg_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  c.op = call->op;
  c.type = call->type;
  c.elem = call->elem;
  c.result_bytes = call->result_bytes;
  c.count = count;
  c.length = length;
  c.in = *in;
  c.out = *out;
  c.elements = c.reach = (uint64_t)count * length;
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

static void host_gather(const orx_axes_layout *l, const unsigned char *base, size_t elem,
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

/* The view of a buffer gathered into `dense` (results x length elements) by a kernel. */
static ocl_reduce_status device_gather(ocl_reduce_context *ctx, const orx_op_call *call,
                                       const orx_axes_layout *l, const orx_io *in,
                                       orx_mem *dense) {
  uint64_t dims[2 + 4 * ORX_AXES_MAX_RANK];
  size_t n = 0;
  dims[n++] = l->kept.rank;
  dims[n++] = l->reduced.rank;
  const orx_axes_dims *both[2] = {&l->kept, &l->reduced};
  for (int d = 0; d < 2; d++) {
    memcpy(dims + n, both[d]->extents, both[d]->rank * sizeof *dims);
    memcpy(dims + n + both[d]->rank, both[d]->strides, both[d]->rank * sizeof *dims);
    n += 2 * both[d]->rank;
  }
  orx_prepared k;
  ORX_FORWARD(orx_prepare_utility(ctx, ORX_ENTRY_GATHER, OCL_REDUCE_U32, &k));
  orx_mem *dims_mem = NULL;
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_AXES_DIMS, sizeof dims, &dims_mem));
  ORX_FORWARD(ctx->ops->write(ctx, ctx->backend, dims_mem, 0, dims, n * sizeof *dims));
  const orx_arg args[] = {
      {ORX_ARG_MEM, in->mem, 0},      {ORX_ARG_U64, NULL, in->offset},
      {ORX_ARG_MEM, dense, 0},        {ORX_ARG_U64, NULL, l->results},
      {ORX_ARG_U64, NULL, l->length}, {ORX_ARG_U64, NULL, call->elem},
      {ORX_ARG_MEM, dims_mem, 0},
  };
  return orx_launch(ctx, &k, orx_plan_groups(&k.plan, (size_t)(l->results * l->length), 0), args,
                    ORX_ARRAY_SIZE(args));
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
    host_gather(l, in->host, elem, host);
    dense.host = host;
  } else {
    /* A scratch slot: kept for the next call, as the segments' own are. */
    ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_AXES_VIEW, bytes, &dense.mem));
    status = device_gather(ctx, call, l, in, dense.mem);
  }
  if (status == OCL_REDUCE_OK)
    status = rows(ctx, function, call, &dense, count, length, out);
  free(host);
  return status;
}

ocl_reduce_status orx_run_axes(ocl_reduce_context *ctx, const char *function,
                               const orx_op_call *call, const orx_axes_layout *l,
                               const orx_io *in, const orx_io *out) {
  switch (l->form) {
  case ORX_AXES_EMPTY:
    return l->results ? rows(ctx, function, call, in, (size_t)l->results, 0, out)
                      : OCL_REDUCE_OK;
  case ORX_AXES_WHOLE:
    return orx_run_call(ctx, call, ORX_STAGE_WHOLE, in, (size_t)l->length, 0, out);
  case ORX_AXES_ROWS:
    return rows(ctx, function, call, in, (size_t)l->results, (size_t)l->length, out);
  default: return gathered_rows(ctx, function, call, l, in, out);
  }
}
