/* =================================================================================================
 * spread_buffer.c: buffers whose data lies on several devices (spread_buffer.h).
 * ============================================================================================== */
#include "exec/spread_buffer.h"

#include <stdlib.h>

#include "exec/context.h"

ocl_reduce_buffer *orx_spread_buffer_new(size_t bytes, const orx_spread_ops *ops, void *spread) {
  ocl_reduce_buffer *buf = orx_handle_new(ORX_HANDLE_BUFFER, sizeof *buf);
  if (!buf)
    return NULL;
  buf->bytes = bytes;
  buf->spread_ops = ops;
  buf->spread = spread;
  return buf;
}

void *orx_spread_of(const ocl_reduce_buffer *buffer) {
  /* A destroyed buffer is not read: the call that passed it fails on it later, by name. */
  return orx_handle_live(buffer, ORX_HANDLE_BUFFER, 0) && buffer->spread_ops ? buffer->spread
                                                                              : NULL;
}
