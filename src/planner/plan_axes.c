/* =================================================================================================
 * plan_axes.c: the layout of an axes reduction (plan_axes.h).
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
  if (run && l->kept.rank == 1 && l->kept.strides[0] == l->length)
    return ORX_AXES_ROWS;
  /* Neighbouring kept positions closer than neighbouring reduced ones: work-items on kept
   * positions read neighbouring elements. */
  if (l->kept.rank > 0 && l->reduced.rank > 0 &&
      l->kept.strides[l->kept.rank - 1] < l->reduced.strides[l->reduced.rank - 1])
    return ORX_AXES_COLUMNS;
  return ORX_AXES_GENERAL;
}

orx_axes_problem orx_axes_layout_of(unsigned rank, const uint64_t *extents,
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
