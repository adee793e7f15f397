/* =================================================================================================
 * buffer.c: device-resident data. A buffer is device memory the library allocated or an
 * application's native allocation it wraps; either way it is reduced in place.
 * ============================================================================================== */
#include <stdlib.h>

#include "base/handles.h"
#include "exec/context.h"
#include "exec/entry.h"
#include "exec/spread_buffer.h"

static ocl_reduce_status new_buffer(ocl_reduce_context *ctx, orx_mem *mem, size_t bytes,
                                    ocl_reduce_buffer **out) {
  ocl_reduce_buffer *buf = orx_handle_new(ORX_HANDLE_BUFFER, sizeof *buf);
  if (!buf) {
    ctx->ops->release_mem(mem);
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  }
  buf->ctx = ctx;
  buf->mem = mem;
  buf->bytes = bytes;
  orx_context_retain(ctx);
  *out = buf;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_buffer_create(ocl_reduce_context *ctx, size_t bytes,
                                           ocl_reduce_buffer **out) {
  ORX_ENTER(ctx, "ocl_reduce_buffer_create");
  ORX_CHECK_ARG(ctx, out, "ocl_reduce_buffer_create: out is NULL");
  *out = NULL;
  ORX_CHECK_ARG(ctx, bytes > 0, "ocl_reduce_buffer_create: bytes is 0");
  if (ctx->caps.max_alloc_bytes && bytes > ctx->caps.max_alloc_bytes)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY,
                    "ocl_reduce_buffer_create: %zu bytes exceed the device's largest allocation "
                    "(%llu bytes)",
                    bytes, (unsigned long long)ctx->caps.max_alloc_bytes);
  orx_mem *mem = NULL;
  ORX_FORWARD(orx_device_alloc(ctx, bytes, &mem));
  return new_buffer(ctx, mem, bytes, out);
}

ocl_reduce_status ocl_reduce_buffer_wrap_opencl(ocl_reduce_context *ctx, void *cl_mem,
                                                ocl_reduce_buffer **out) {
  ORX_ENTER(ctx, "ocl_reduce_buffer_wrap_opencl");
  ORX_CHECK_ARG(ctx, out, "ocl_reduce_buffer_wrap_opencl: out is NULL");
  *out = NULL;
  ORX_CHECK_ARG(ctx, cl_mem, "ocl_reduce_buffer_wrap_opencl: cl_mem is NULL");
  ORX_CHECK_ARG(ctx, ctx->backend_row->kind == OCL_REDUCE_BACKEND_OPENCL,
                "ocl_reduce_buffer_wrap_opencl: the context's backend is %s, not opencl",
                ctx->backend_row->keyword);
  orx_mem *mem = NULL;
  size_t bytes = 0;
  ORX_FORWARD(ctx->ops->wrap(ctx, ctx->backend, cl_mem, &mem, &bytes));
  return new_buffer(ctx, mem, bytes, out);
}

ocl_reduce_status ocl_reduce_buffer_wrap_cuda(ocl_reduce_context *ctx, uint64_t device_pointer,
                                              size_t bytes, ocl_reduce_buffer **out) {
  ORX_ENTER(ctx, "ocl_reduce_buffer_wrap_cuda");
  ORX_CHECK_ARG(ctx, out, "ocl_reduce_buffer_wrap_cuda: out is NULL");
  *out = NULL;
  ORX_CHECK_ARG(ctx, device_pointer, "ocl_reduce_buffer_wrap_cuda: device_pointer is 0");
  ORX_CHECK_ARG(ctx, bytes > 0, "ocl_reduce_buffer_wrap_cuda: bytes is 0");
  ORX_CHECK_ARG(ctx, ctx->backend_row->kind == OCL_REDUCE_BACKEND_CUDA,
                "ocl_reduce_buffer_wrap_cuda: the context's backend is %s, not cuda",
                ctx->backend_row->keyword);
  orx_cuda_span span = {device_pointer, bytes};
  orx_mem *mem = NULL;
  size_t wrapped = 0;
  ORX_FORWARD(ctx->ops->wrap(ctx, ctx->backend, &span, &mem, &wrapped));
  return new_buffer(ctx, mem, wrapped, out);
}

void ocl_reduce_buffer_destroy(ocl_reduce_buffer *buf) {
  /* A second destroy, or no buffer: harmless, only its state read. */
  if (!orx_handle_kill(buf, ORX_HANDLE_BUFFER, 0))
    return;
  if (buf->spread_ops) {
    buf->spread_ops->destroy(buf->spread);
  } else {
    /* Under the context's lock: a call of another thread that found buf live first is done. */
    ocl_reduce_context *owner = buf->ctx;
    orx_lock_take(&owner->handle.lock);
    owner->ops->release_mem(buf->mem);
    orx_lock_give(&owner->handle.lock);
    orx_context_release(owner); /* buf's reference */
  }
  orx_handle_free(buf, ORX_HANDLE_BUFFER);
}

size_t ocl_reduce_buffer_size(const ocl_reduce_buffer *buf) {
  /* Set before the buffer was published live, never changed: no lock needed to read it. */
  return orx_handle_live(buf, ORX_HANDLE_BUFFER, 0) ? buf->bytes : 0;
}

static ocl_reduce_status buffer_native(const ocl_reduce_buffer *buf, void **cl_mem,
                                       uint64_t *device_pointer) {
  ORX_CHECK_ARG(NULL, !buf->spread_ops,
                "ocl_reduce_buffer_native: buf is a group's buffer, whose parts live on several "
                "devices");
  void *handle = NULL;
  uint64_t address = 0;
  buf->ctx->ops->mem_native(buf->mem, &handle, &address);
  if (cl_mem)
    *cl_mem = handle;
  if (device_pointer)
    *device_pointer = address;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_buffer_native(const ocl_reduce_buffer *buf, void **cl_mem,
                                           uint64_t *device_pointer) {
  ORX_CHECK_ARG(NULL, buf, "ocl_reduce_buffer_native: buf is NULL");
  ocl_reduce_context *owner = NULL;
  ORX_FORWARD(orx_buffer_enter(buf, "ocl_reduce_buffer_native", &owner));
  const ocl_reduce_status status = buffer_native(buf, cl_mem, device_pointer);
  orx_buffer_leave(owner);
  return status;
}

/* Checks shared by read and write: a buffer, and the range inside it. Failures are recorded on the
 * buffer's context (a group's buffer has none: the thread's). */
static ocl_reduce_status check_copy(const char *function, const ocl_reduce_buffer *buf,
                                    size_t offset, const void *host, size_t bytes) {
  ORX_CHECK_ARG(NULL, buf, "%s: buf is NULL", function);
  ORX_CHECK_ARG(buf->ctx, host || bytes == 0, "%s: the host pointer is NULL and bytes is %zu",
                function, bytes);
  if (offset > buf->bytes || bytes > buf->bytes - offset)
    return orx_fail(buf->ctx, OCL_REDUCE_ERROR_OUT_OF_RANGE,
                    "%s: bytes [%zu, %zu + %zu) reach beyond the buffer's %zu bytes", function,
                    offset, offset, bytes, buf->bytes);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status buffer_write(ocl_reduce_buffer *buf, size_t offset, const void *src,
                                      size_t bytes) {
  ORX_FORWARD(check_copy("ocl_reduce_buffer_write", buf, offset, src, bytes));
  if (bytes == 0)
    return OCL_REDUCE_OK;
  if (buf->spread_ops)
    return buf->spread_ops->write(buf->spread, offset, src, bytes);
  /* Written when it returns, as before staging: the application may read the buffer through
   * its own native queue next. */
  return orx_uploads_done(buf->ctx, orx_upload(buf->ctx, buf->mem, offset, src, bytes));
}

static ocl_reduce_status buffer_read(const ocl_reduce_buffer *buf, size_t offset, void *dst,
                                     size_t bytes) {
  ORX_FORWARD(check_copy("ocl_reduce_buffer_read", buf, offset, dst, bytes));
  if (bytes == 0)
    return OCL_REDUCE_OK;
  if (buf->spread_ops)
    return buf->spread_ops->read(buf->spread, offset, dst, bytes);
  return orx_download(buf->ctx, buf->mem, offset, dst, bytes);
}

ocl_reduce_status ocl_reduce_buffer_write(ocl_reduce_buffer *buf, size_t offset, const void *src,
                                          size_t bytes) {
  ORX_CHECK_ARG(NULL, buf, "ocl_reduce_buffer_write: buf is NULL");
  ocl_reduce_context *owner = NULL;
  ORX_FORWARD(orx_buffer_enter(buf, "ocl_reduce_buffer_write", &owner));
  const ocl_reduce_status status = buffer_write(buf, offset, src, bytes);
  orx_buffer_leave(owner);
  return status;
}

ocl_reduce_status ocl_reduce_buffer_read(const ocl_reduce_buffer *buf, size_t offset, void *dst,
                                         size_t bytes) {
  ORX_CHECK_ARG(NULL, buf, "ocl_reduce_buffer_read: buf is NULL");
  ocl_reduce_context *owner = NULL;
  ORX_FORWARD(orx_buffer_enter(buf, "ocl_reduce_buffer_read", &owner));
  const ocl_reduce_status status = buffer_read(buf, offset, dst, bytes);
  orx_buffer_leave(owner);
  return status;
}
