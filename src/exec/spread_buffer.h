/* =================================================================================================
 * spread_buffer.h: buffers whose data lies on several devices (a group's: src/group/), as
 * ocl_reduce_buffer values, so that every call describes memory one way. Execution knows only their
 * size and the operations their maker gives (spread_buffer.c); the API's buffer calls go through
 * those, and one-context calls refuse such a buffer.
 * ============================================================================================== */
#ifndef ORX_SPREAD_BUFFER_H
#define ORX_SPREAD_BUFFER_H

#include <stddef.h>

#include "ocl_reduce.h"

typedef struct orx_spread_ops {
  void (*destroy)(void *spread);
  /* Copies between host memory and bytes [offset, offset + bytes), already checked. */
  ocl_reduce_status (*write)(void *spread, size_t offset, const void *src, size_t bytes);
  ocl_reduce_status (*read)(const void *spread, size_t offset, void *dst, size_t bytes);
} orx_spread_ops;

/* A buffer of `bytes` over `spread` (NULL when out of host memory; `spread` is then the caller's to
 * free). */
ocl_reduce_buffer *orx_spread_buffer_new(size_t bytes, const orx_spread_ops *ops, void *spread);
/* The spread data of a buffer made so, else NULL. */
void *orx_spread_of(const ocl_reduce_buffer *buffer);

#endif /* ORX_SPREAD_BUFFER_H */
