/* =================================================================================================
 * registry.h: the backends the public API names, one row each (registry.c): its public kind, the
 * word that names it, and its table of functions where this library was built with it. Names,
 * keywords (OCL_REDUCE_BACKEND) and the range of the public enum come from these rows alone.
 * ============================================================================================== */
#ifndef ORX_REGISTRY_H
#define ORX_REGISTRY_H

#include <stddef.h>

#include "backends/backend.h"

typedef struct orx_backend_row {
  ocl_reduce_backend kind;
  const char *keyword;        /* OCL_REDUCE_BACKEND's word, context_info's backend_name: "cuda" */
  const char *title;          /* in messages: "CUDA" */
  const orx_backend_ops *ops; /* NULL where this build lacks it (its headers were missing) */
} orx_backend_row;

/* Every row, in order of preference: the first is what OCL_REDUCE_BACKEND=auto opens first. */
size_t orx_backend_row_count(void);
const orx_backend_row *orx_backend_row_at(size_t index);
/* The row of a public kind; NULL for DEFAULT, AUTO and values that name no backend. */
const orx_backend_row *orx_backend_row_of(ocl_reduce_backend kind);
/* The row whose table is ops (a context's). */
const orx_backend_row *orx_backend_row_of_ops(const orx_backend_ops *ops);
/* The first slot backend.h requires that ops leaves NULL ("launch"; a set of optional slots
 * filled in part: "alloc_pinned"), or NULL when the table is complete. A context is not opened
 * on an incomplete table, and the planner's tests check every built row. */
const char *orx_backend_missing_slot(const orx_backend_ops *ops);

#endif /* ORX_REGISTRY_H */
