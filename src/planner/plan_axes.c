/* =================================================================================================
 * plan_axes.c: the layout of an axes reduction (plan_axes.h), its two passes, and the launches of
 * a view read in place.
 * ============================================================================================== */
#include "planner/plan_axes.h"

#include <string.h>

/* a * b into *product; 1 when it overflows. */
static int product_overflows(uint64_t a, uint64_t b, uint64_t *product) {
  if (a != 0 && b > UINT64_MAX / a)
    return 1;
  *product = a * b;
  return 0;
}

/* Appends an axis inside the last of `dims`, merged into it when the two are a row-major block
 * (the outer stride is the inner extent times the inner stride; a stride of 0 repeats). The
 * merged extent is a product of extents that the caller has checked. */
static void append(orx_axes_dims *dims, uint64_t extent, uint64_t stride) {
  if (dims->rank > 0) {
    const unsigned last = dims->rank - 1;
    const uint64_t outer = dims->strides[last];
    const int block = stride == 0 ? outer == 0 : outer % stride == 0 && outer / stride == extent;
    if (block) {
      dims->extents[last] *= extent;
      dims->strides[last] = stride;
      return;
    }
  }
  dims->extents[dims->rank] = extent;
  dims->strides[dims->rank] = stride;
  dims->rank++;
}

/* The largest position + 1 of a view with no extent 0; 0 when it overflows. */
static uint64_t reach_of(unsigned rank, const uint64_t *extents, const uint64_t *strides) {
  uint64_t last = 0;
  for (unsigned k = 0; k < rank; k++) {
    uint64_t step;
    if (product_overflows(extents[k] - 1, strides[k], &step) || step > UINT64_MAX - 1 - last)
      return 0;
    last += step;
  }
  return last + 1;
}

static orx_axes_form form_of(const orx_axes_layout *l) {
  if (l->results == 0 || l->length == 0)
    return ORX_AXES_EMPTY;
  /* The reduced positions of a result are one contiguous run (or a single element). */
  const int run = l->reduced.rank == 0 || (l->reduced.rank == 1 && l->reduced.strides[0] == 1);
  if (run && l->kept.rank == 0)
    return ORX_AXES_WHOLE;
  if (run && l->kept.rank == 1 && l->kept.strides[0] > 0)
    return ORX_AXES_ROWS;
  /* Neighbouring kept positions closer than neighbouring reduced ones: work-items on kept
   * positions read neighbouring elements. */
  if (l->kept.rank > 0 && l->reduced.rank > 0 &&
      l->kept.strides[l->kept.rank - 1] < l->reduced.strides[l->reduced.rank - 1])
    return ORX_AXES_COLUMNS;
  return ORX_AXES_GENERAL;
}

static orx_axes_problem layout_core(unsigned rank, const uint64_t *extents,
                                    const uint64_t *strides, uint32_t axes,
                                    orx_axes_layout *layout) {
  memset(layout, 0, sizeof *layout);
  if (rank < 1 || rank > ORX_AXES_MAX_RANK)
    return ORX_AXES_BAD_RANK;
  if (axes == 0)
    return ORX_AXES_NO_AXIS;
  if (rank < 32 && (axes >> rank) != 0)
    return ORX_AXES_AXIS_PAST;
  layout->results = layout->length = 1;
  int empty = 0;
  for (unsigned k = 0; k < rank; k++) {
    uint64_t *count = (axes >> k) & 1u ? &layout->length : &layout->results;
    if (product_overflows(*count, extents[k], count))
      return ORX_AXES_TOO_MANY;
    empty |= extents[k] == 0;
  }
  if (empty) /* no element: nothing to merge (merged extents could overflow past a 0) */
    return ORX_AXES_OK;
  for (unsigned k = 0; k < rank; k++)
    if (extents[k] > 1)
      append((axes >> k) & 1u ? &layout->reduced : &layout->kept, extents[k], strides[k]);
  if (!(layout->reach = reach_of(rank, extents, strides)))
    return ORX_AXES_REACH_PAST;
  layout->form = form_of(layout);
  return ORX_AXES_OK;
}

/* The two passes of a GENERAL view (orx_axes_split), where its innermost reduced axis k is
 * contiguous, the rows along it are one kept axis apart (every other axis merges into one), and
 * what is left of the rows' results are columns. */
static void split_of(unsigned rank, const uint64_t *extents, const uint64_t *strides,
                     uint32_t axes, orx_axes_split *split) {
  unsigned k = rank;
  while (k-- > 0 && !(((axes >> k) & 1u) && extents[k] > 1))
    ;
  orx_axes_layout rows, rest;
  if (k >= rank || strides[k] != 1 || layout_core(rank, extents, strides, 1u << k, &rows) ||
      rows.form != ORX_AXES_ROWS)
    return;
  /* The rows' results, dense and row-major over every axis but k. */
  uint64_t left[ORX_AXES_MAX_RANK], dense[ORX_AXES_MAX_RANK], stride = 1;
  uint32_t left_axes = 0;
  unsigned n = 0;
  for (unsigned j = 0; j < rank; j++)
    if (j != k) {
      left_axes |= ((axes >> j) & 1u) << n;
      left[n++] = extents[j];
    }
  for (unsigned j = n; j-- > 0;) {
    dense[j] = stride;
    stride *= left[j]; /* at most the view's results x lengths, which fit (checked) */
  }
  if (!left_axes || layout_core(n, left, dense, left_axes, &rest) ||
      rest.form != ORX_AXES_COLUMNS)
    return;
  split->possible = 1;
  split->rows = rows.results;
  split->length = rows.length;
  split->pitch = rows.kept.strides[0];
  split->kept = rest.kept;
  split->reduced = rest.reduced;
}

orx_axes_problem orx_axes_layout_of(unsigned rank, const uint64_t *extents,
                                    const uint64_t *strides, uint32_t axes,
                                    orx_axes_layout *layout) {
  const orx_axes_problem problem = layout_core(rank, extents, strides, axes, layout);
  if (problem == ORX_AXES_OK && layout->form == ORX_AXES_GENERAL)
    split_of(rank, extents, strides, axes, &layout->split);
  return problem;
}

orx_axes_layout orx_axes_split_rest(const orx_axes_layout *l) {
  orx_axes_layout rest;
  memset(&rest, 0, sizeof rest);
  rest.form = ORX_AXES_COLUMNS;
  rest.kept = l->split.kept;
  rest.reduced = l->split.reduced;
  rest.results = l->results;
  rest.length = l->length / l->split.length;
  rest.reach = l->split.rows;
  return rest;
}

/* Here, not in plan_columns.c: it plans (orx_plan_make), and the planner calls plan_columns.c. */
size_t orx_plan_column_levels(const orx_target *target, const orx_axes_layout *l,
                              orx_request *request, orx_column_level *levels) {
  const unsigned kept = l->kept.rank; /* 0: every axis reduced (one result) */
  request->entry = ORX_ENTRY_COLUMNS;
  request->kept_run = kept && l->kept.strides[kept - 1] == 1 ? l->kept.extents[kept - 1] : 1;
  request->shape.count = (size_t)l->results;
  uint64_t length = l->length;
  for (size_t n = 0;; n++) {
    orx_plan plan;
    request->stage = n == 0 ? ORX_STAGE_WHOLE : ORX_STAGE_FINAL;
    request->shape.length = length;
    const int flat = n > 0 || (kept <= 1 && l->reduced.rank <= 1);
    request->columns_flat = flat;
    orx_plan_make(target, request, &plan);
    uint64_t parts = orx_plan_columns_parts(&plan, l->results, length);
    if (n + 1 == ORX_COLUMN_LEVELS) /* never reached (see plan_axes.h); the last level folds all */
      parts = 1;
    /* A launch that finishes itself (plan_columns.c) is the only one. */
    const int finish = plan.defines[ORX_DEFINE_COL_FINISH] == 1;
    levels[n].stage = n == 0 ? (parts > 1 && !finish ? ORX_STAGE_PARTIAL : ORX_STAGE_WHOLE)
                             : (parts > 1 ? ORX_STAGE_MERGE : ORX_STAGE_FINAL);
    /* The straight loop only where a work-item folds whole columns (plan_columns.c), unless
     * forced either way (OCL_REDUCE_POLICY=col_flat); tall columns stay tall. */
    const int forced = target->forced.col_flat, tall = plan.defines[ORX_DEFINE_COL_TALL] == 1;
    levels[n].flat = flat && (tall || (forced < 0 ? parts == 1 : forced));
    request->columns_flat = levels[n].flat;
    levels[n].parts = parts;
    levels[n].length = length;
    if (parts == 1 || finish)
      return n + 1;
    length = parts;
  }
}
