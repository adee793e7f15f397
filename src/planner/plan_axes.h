/* =================================================================================================
 * plan_axes.h: the layout of an axes reduction (ocl_reduce_axes), from the shape alone
 * (plan_axes.c): the axes that change nothing dropped, neighbours that are one run merged, and
 * the form the call takes.
 *
 * An axis of extent 1 adds nothing to a position, an order or an index, so it goes. Two kept
 * axes next to each other among the kept ones are one axis when the outer one's stride is the
 * inner one's extent times its stride (a row-major block): the kept positions' row-major order,
 * which orders the results, is unchanged; the same holds for the reduced axes, whose row-major
 * order is the fold's order and ARGMIN's index. What remains decides the form:
 *   EMPTY     no result, or no element on a reduced axis (every result is the identity);
 *   WHOLE     every axis reduced, one contiguous run: a whole-array reduction;
 *   ROWS      one kept axis over one contiguous reduced run, rows back to back (stride = length):
 *             equal segments;
 *   GENERAL   anything else (strided rows, outer reduced axes, several of either).
 * ============================================================================================== */
#ifndef ORX_PLAN_AXES_H
#define ORX_PLAN_AXES_H

#include <stdint.h>

#define ORX_AXES_MAX_RANK 8 /* OCL_REDUCE_MAX_RANK */

typedef enum orx_axes_form {
  ORX_AXES_EMPTY,
  ORX_AXES_WHOLE,
  ORX_AXES_ROWS,
  ORX_AXES_GENERAL
} orx_axes_form;

/* Axes in their order, outermost first. */
typedef struct orx_axes_dims {
  unsigned rank;
  uint64_t extents[ORX_AXES_MAX_RANK], strides[ORX_AXES_MAX_RANK];
} orx_axes_dims;

typedef struct orx_axes_layout {
  orx_axes_form form;
  orx_axes_dims kept, reduced; /* after dropping and merging */
  uint64_t results;            /* kept positions: the product of the kept extents */
  uint64_t length;             /* reduced positions per result: the product of the reduced ones */
  uint64_t reach;              /* elements the input must hold: the largest position + 1 (0 when
                                  the view has no element) */
} orx_axes_layout;

/* Why a shape has no layout. */
typedef enum orx_axes_problem {
  ORX_AXES_OK,
  ORX_AXES_BAD_RANK,     /* rank outside 1 .. ORX_AXES_MAX_RANK */
  ORX_AXES_NO_AXIS,      /* axes == 0 */
  ORX_AXES_AXIS_PAST,    /* a bit at or above rank */
  ORX_AXES_TOO_MANY,     /* the results, or a result's elements, overflow 64 bits */
  ORX_AXES_REACH_PAST    /* the largest position overflows 64 bits */
} orx_axes_problem;

/* The layout of `rank` axes (extents, strides) reducing the axes whose bits are set. */
orx_axes_problem orx_axes_layout_of(unsigned rank, const uint64_t *extents,
                                    const uint64_t *strides, uint32_t axes,
                                    orx_axes_layout *layout);

#endif /* ORX_PLAN_AXES_H */
