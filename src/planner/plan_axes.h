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
 *   ROWS      one kept axis over one contiguous reduced run: equal segments, rows back to back
 *             (the kept stride is the length), or a buffer's rows apart or overlapping (a pitch);
 *   COLUMNS   the innermost kept axis's stride below the innermost reduced axis's (column sums,
 *             outer reduced axes): read in place, a work-item per kept position
 *             (kernels/axes_columns.cl; plan_columns.c);
 *   GENERAL   anything else (several reduced runs apart, kept axes between them): read in place
 *             on CPU devices; on GPUs in two passes where the innermost reduced axis is
 *             contiguous (rows, then columns: orx_axes_split), else gathered into the rows'
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

/* A GENERAL view in two passes: the rows along its innermost reduced axis (contiguous) first,
 * as equal segments, into a dense array of their results (row-major over every other axis);
 * then that array's COLUMNS (its kept positions inside its reduced ones). For the tensor
 * [256, 1024, 1024] reducing {0, 2}: 2^18 rows of 1024, then the column sums of [256, 1024]. */
typedef struct orx_axes_split {
  int possible;
  uint64_t rows, length, pitch;  /* the first pass: rows, their length, their starts' distance */
  orx_axes_dims kept, reduced;   /* the second pass's view of the rows' results */
} orx_axes_split;

typedef struct orx_axes_layout {
  orx_axes_form form;
  orx_axes_dims kept, reduced; /* after dropping and merging */
  uint64_t results;            /* kept positions: the product of the kept extents */
  uint64_t length;             /* reduced positions per result: the product of the reduced ones */
  uint64_t reach;              /* elements the input must hold: the largest position + 1 (0 when
                                  the view has no element) */
  orx_axes_split split;        /* GENERAL: whether, and how, it goes in two passes */
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

/* The second pass of a split view: the rows' results (a dense array) as columns. */
orx_axes_layout orx_axes_split_rest(const orx_axes_layout *l);

/* The layout of `rank` axes (extents, strides) reducing the axes whose bits are set. */
orx_axes_problem orx_axes_layout_of(unsigned rank, const uint64_t *extents,
                                    const uint64_t *strides, uint32_t axes,
                                    orx_axes_layout *layout);

/* The ulongs that hold a view's axes as kernels/gather.cl and kernels/axes_columns.cl read them:
 * the two ranks, then the kept extents and strides, then the reduced ones. */
#define ORX_AXES_DIMS_WORDS (2 + 4 * ORX_AXES_MAX_RANK)

/* ---- The COLUMNS form's plan (plan_columns.c) ------------------------------------------- */
/* How a view is read (plan_columns.c):
 *   IN_PLACE  WHOLE and ROWS by the whole-array and segments' kernels (rows apart from a buffer
 *             only), COLUMNS (and GENERAL on CPU devices) from a buffer by kernels/axes_columns.cl;
 *   SPLIT     GENERAL from a buffer on GPUs, in two passes (orx_axes_split), for operators whose
 *             results are their elements' type and fold like elements (scalar built-ins:
 *             `splittable`);
 *   GATHER    anything else: copied into the rows' order, then equal segments. Host memory other
 *             than whole or rows back to back is gathered (its view may be sparse in what it
 *             reaches). OCL_REDUCE_POLICY's axes=gather|columns|split forces a way for views of
 *             buffers that are neither whole nor rows, where it applies. */
typedef enum orx_axes_route { ORX_AXES_IN_PLACE, ORX_AXES_SPLIT, ORX_AXES_GATHER } orx_axes_route;
orx_axes_route orx_plan_axes_route(const orx_target *target, const orx_axes_layout *l,
                                   int from_host, int splittable);
/* A plan made as a whole-array request of the same stage becomes the columns' (request->entry
 * COLUMNS, request->kept_run set): the kernel, and the kept positions a work-item takes. */
void orx_plan_columns(const orx_target *target, const orx_request *request, orx_plan *plan);
/* The chunks the reduced positions are cut into (each folded to a partial state) for `results`
 * kept positions of `length` reduced ones each; 1: no partials. A function of the plan and the
 * sizes only, so that a device gives the same bits every run. */
uint64_t orx_plan_columns_parts(const orx_plan *plan, uint64_t results, uint64_t length);
/* Work-items the launch takes: one per run of kept positions and part. */
uint64_t orx_plan_columns_items(const orx_plan *plan, uint64_t results, uint64_t parts);
/* The blocks of ORX_WG_SIZE runs whose parts count on a counter each (ORX_COL_FINISH), or 0
 * where the launch does not finish itself. */
uint64_t orx_plan_columns_blocks(const orx_plan *plan, uint64_t results);
/* Kept positions a work-item takes (ORX_COL_RUN). */
unsigned orx_plan_columns_run(const orx_plan *plan);

/* The launches of a view read in place: the view to partial states (or results), then partials
 * to fewer until one part is left; or one launch that folds its own partials (ORX_COL_FINISH).
 * Partials of `parts` chunks shrink at least 64-fold a launch (plan_columns.c), so 64-bit
 * counts need at most 11 launches beyond the first. */
#define ORX_COLUMN_LEVELS 12
typedef struct orx_column_level {
  orx_stage stage;
  int flat;        /* the request's columns_flat: its view has at most one kept axis and one
                      reduced axis (partials always), and it is not cut into parts */
  uint64_t parts;  /* chunks this launch cuts its reduced positions into */
  uint64_t length; /* its reduced positions: the view's, then the last level's parts */
} orx_column_level;
/* The columns' request from an operator's whole-array request (entry, kept run), and its
 * levels into `levels` (ORX_COLUMN_LEVELS); returns how many. request->stage and shape.length
 * are left as the last level's. */
size_t orx_plan_column_levels(const orx_target *target, const orx_axes_layout *l,
                              orx_request *request, orx_column_level *levels);

#endif /* ORX_PLAN_AXES_H */
