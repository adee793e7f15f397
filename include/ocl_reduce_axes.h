/*
 * ocl_reduce_axes.h: reductions over any axes of a strided N-d array (rows, columns, tensor
 * dimensions), included by ocl_reduce.h (docs/API.md, "Axes").
 */
#ifndef OCL_REDUCE_AXES_H
#define OCL_REDUCE_AXES_H

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OCL_REDUCE_MAX_RANK 8

/* An N-d view of an array: the element at position (i0, ..., i(rank-1)) is element
 * sum(ik * strides[k]) of the input, counted from its start (the host pointer, or the buffer's
 * element offset). Axis 0 is the outermost. A stride of 0 repeats an element along its axis;
 * views may overlap themselves. */
typedef struct ocl_reduce_shape {
  size_t struct_size;                    /* OCL_REDUCE_SHAPE_INIT */
  unsigned rank;                         /* 1 .. OCL_REDUCE_MAX_RANK */
  uint64_t extents[OCL_REDUCE_MAX_RANK]; /* elements along each axis */
  uint64_t strides[OCL_REDUCE_MAX_RANK]; /* elements between neighbours along each axis */
} ocl_reduce_shape;
#define OCL_REDUCE_SHAPE_INIT OCL_REDUCE_STRUCT_INIT_(ocl_reduce_shape)

/* Sets *shape to `rank` extents with row-major strides (the last axis contiguous).
 * INVALID_ARGUMENT for a rank outside 1 .. OCL_REDUCE_MAX_RANK, NULL pointers, or strides that
 * overflow 64 bits; *shape is untouched then. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_shape_dense(unsigned rank, const uint64_t *extents,
                                                        ocl_reduce_shape *shape);

/* Reduces the axes whose bits are set in `axes` (bit k: axis k; at least one, none at or above
 * rank): one result per position of the kept axes, dense, in row-major order of the kept axes
 * (one result when every axis is reduced), each of the size ocl_reduce_into gives it. Every
 * operator and type; order-preserving operators fold in row-major order of the reduced axes, and
 * ARGMIN/ARGMAX give the row-major position within them. An extent of 0 on a reduced axis gives
 * identities, on a kept one no result. The input must hold the largest position reached. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_axes(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                 ocl_reduce_type type, ocl_reduce_input input,
                                                 const ocl_reduce_shape *shape, uint32_t axes,
                                                 ocl_reduce_output output);

/* How ocl_reduce_axes would run this view, from host memory (from_host nonzero) or a buffer, in
 * one line: its form (whole array, rows, read in place, two passes, or gathered and why) and the
 * plan of each launch, as ocl_reduce_describe_plan gives it. The same checks as ocl_reduce_axes
 * on op, type, shape and axes; nothing runs. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_describe_axes(ocl_reduce_context *ctx,
                                                          ocl_reduce_op op, ocl_reduce_type type,
                                                          const ocl_reduce_shape *shape,
                                                          uint32_t axes, int from_host,
                                                          char *text, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* OCL_REDUCE_AXES_H */
