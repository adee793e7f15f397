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
 *   COLUMNS   the innermost kept axis's stride below the innermost reduced axis's (column sums,
 *             outer reduced axes): read in place, a work-item per kept position
 *             (kernels/axes_columns.cl; plan_columns.c);
 *   GENERAL   anything else (strided rows, several reduced runs apart): gathered into the rows'
 *             order, then equal segments.
 * ============================================================================================== */
#ifndef ORX_PLAN_AXES_H
#define ORX_PLAN_AXES_H

#include <stdint.h>

#include "orx_contract.h"
#include "planner/planner.h"

#define ORX_AXES_MAX_RANK ORX_MAX_RANK /* OCL_REDUCE_MAX_RANK */

typedef enum orx_axes_form {
  ORX_AXES_EMPTY,
  ORX_AXES_WHOLE,
  ORX_AXES_ROWS,
  ORX_AXES_COLUMNS,
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

/* ---- The COLUMNS form's plan (plan_columns.c) ------------------------------------------- */
/* Whether a buffer's view of the COLUMNS form is read in place (else gathered, as GENERAL). */
int orx_plan_columns_in_place(const orx_target *target);
/* A plan made as a whole-array request of the same stage becomes the columns' (request->entry
 * COLUMNS, request->kept_run set): the kernel, and the kept positions a work-item takes. */
void orx_plan_columns(const orx_target *target, const orx_request *request, orx_plan *plan);
/* The chunks the reduced positions are cut into (each folded to a partial state) for `results`
 * kept positions of `length` reduced ones each; 1: no partials. A function of the plan and the
 * sizes only, so that a device gives the same bits every run. */
uint64_t orx_plan_columns_parts(const orx_plan *plan, uint64_t results, uint64_t length);
/* Work-items the launch takes: one per run of kept positions and part. */
uint64_t orx_plan_columns_items(const orx_plan *plan, uint64_t results, uint64_t parts);
/* Kept positions a work-item takes (ORX_COL_RUN). */
unsigned orx_plan_columns_run(const orx_plan *plan);

#endif /* ORX_PLAN_AXES_H */
