/* =================================================================================================
 * axes.c: ocl_reduce_shape_dense and ocl_reduce_axes: the shape and every argument checked before
 * anything runs (the layout: planner/plan_axes.h), then the run (exec/run_axes.c).
 * ============================================================================================== */
#include "exec/context.h"
#include "exec/describe.h"
#include "exec/entry.h"
#include "exec/run.h"
#include "planner/plan_axes.h"

_Static_assert(OCL_REDUCE_MAX_RANK == ORX_AXES_MAX_RANK, "one rank limit");

ocl_reduce_status ocl_reduce_shape_dense(unsigned rank, const uint64_t *extents,
                                         ocl_reduce_shape *shape) {
  static const char function[] = "ocl_reduce_shape_dense";
  orx_call_named(function);
  ORX_CHECK_ARG(NULL, shape, "%s: shape is NULL", function);
  ORX_CHECK_ARG(NULL, rank >= 1 && rank <= OCL_REDUCE_MAX_RANK,
                "%s: rank is %u, not 1 .. %d", function, rank, OCL_REDUCE_MAX_RANK);
  ORX_CHECK_ARG(NULL, extents, "%s: extents is NULL", function);
  ocl_reduce_shape dense = OCL_REDUCE_SHAPE_INIT;
  dense.rank = rank;
  uint64_t stride = 1;
  for (unsigned k = rank; k-- > 0;) {
    dense.extents[k] = extents[k];
    dense.strides[k] = stride;
    ORX_CHECK_ARG(NULL, k == 0 || extents[k] == 0 || stride <= UINT64_MAX / extents[k],
                  "%s: the stride of axis %u overflows 64 bits", function, k - 1);
    stride *= extents[k];
  }
  *shape = dense;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_axes(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                                  ocl_reduce_input input, const ocl_reduce_shape *shape,
                                  uint32_t axes, ocl_reduce_output output) {
  static const char function[] = "ocl_reduce_axes";
  ORX_ENTER(ctx, function);
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  orx_axes_layout l;
  ORX_FORWARD(orx_axes_layout_checked(ctx, function, shape, axes, &l));
  ORX_CHECK_ARG(ctx, l.results <= SIZE_MAX && l.reach <= SIZE_MAX && l.length <= SIZE_MAX,
                "%s: shape: more elements than size_t counts", function);
  ORX_FORWARD(orx_check_index_base(ctx, function, op, (size_t)l.length, 0));
  orx_io in, out;
  ORX_FORWARD(orx_resolve_output(ctx, function, "output", &output, call.result_bytes,
                                 (size_t)l.results, &out));
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, call.elem, (size_t)l.reach, &in));
  ORX_FORWARD(orx_check_disjoint(ctx, function, "the input", &in, (size_t)l.reach * call.elem,
                                 &out, (size_t)l.results * call.result_bytes, call.result_bytes,
                                 call.elem));
  return orx_run_axes(ctx, function, &call, &l, &in, &out);
}

ocl_reduce_status ocl_reduce_describe_axes(ocl_reduce_context *ctx, ocl_reduce_op op,
                                           ocl_reduce_type type, const ocl_reduce_shape *shape,
                                           uint32_t axes, int from_host, char *text,
                                           size_t capacity) {
  static const char function[] = "ocl_reduce_describe_axes";
  ORX_ENTER(ctx, function);
  ORX_CHECK_ARG(ctx, text && capacity > 0, "%s: text is NULL or capacity is 0", function);
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  orx_axes_layout l;
  ORX_FORWARD(orx_axes_layout_checked(ctx, function, shape, axes, &l));
  orx_describe_axes(ctx, &call, &l, from_host != 0, text, capacity);
  return OCL_REDUCE_OK;
}
