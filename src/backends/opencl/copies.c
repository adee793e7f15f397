/* =================================================================================================
 * copies.c: the OpenCL backend's copies between host and device memory (backend.h): blocking
 * ones, the pinned memory, enqueued copies and markers that exec/staging.c pipelines, and the map
 * that brings what a device wrote into host memory it views (host_backed.c).
 * ============================================================================================== */
#include <stdlib.h>

#include "backends/opencl/opencl.h"

ocl_reduce_status orx_cl_write(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                               size_t offset, const void *src, size_t bytes) {
  CL_CHECK(ctx, "clEnqueueWriteBuffer",
           clEnqueueWriteBuffer(be->queue, dst->mem, CL_TRUE, offset, bytes, src, 0, NULL, NULL));
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_cl_read(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                              size_t offset, void *dst, size_t bytes) {
  cl_event event = NULL;
  CL_CHECK(ctx, "clEnqueueReadBuffer",
           clEnqueueReadBuffer(be->queue, src->mem, be->poll_events ? CL_FALSE : CL_TRUE, offset,
                               bytes, dst, 0, NULL, be->poll_events ? &event : NULL));
  cl_int code = be->poll_events ? orx_cl_wait_for(be, event) : CL_SUCCESS;
  if (event)
    clReleaseEvent(event);
  if (code != CL_SUCCESS)
    return orx_cl_fail(ctx, "clEnqueueReadBuffer (wait)", code);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_cl_copy(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                              size_t src_offset, orx_mem *dst, size_t dst_offset, size_t bytes) {
  CL_CHECK(ctx, "clEnqueueCopyBuffer",
           clEnqueueCopyBuffer(be->queue, src->mem, dst->mem, src_offset, dst_offset, bytes, 0,
                               NULL, NULL));
  orx_cl_after_last_kernel(be);
  return OCL_REDUCE_OK;
}

void orx_cl_after_last_kernel(orx_backend *be) {
  if (be->last_kernel)
    clReleaseEvent(be->last_kernel);
  be->last_kernel = NULL;
}

/* Enqueued copies are flushed at once: the pipeline fills the next piece on the host meanwhile,
 * and an implementation may hold unflushed commands back. */
ocl_reduce_status orx_cl_write_async(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                                     size_t offset, const void *src, size_t bytes) {
  CL_CHECK(ctx, "clEnqueueWriteBuffer",
           clEnqueueWriteBuffer(be->queue, dst->mem, CL_FALSE, offset, bytes, src, 0, NULL, NULL));
  orx_cl_after_last_kernel(be);
  CL_CHECK(ctx, "clFlush", clFlush(be->queue));
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_cl_read_async(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                                    size_t offset, void *dst, size_t bytes) {
  CL_CHECK(ctx, "clEnqueueReadBuffer",
           clEnqueueReadBuffer(be->queue, src->mem, CL_FALSE, offset, bytes, dst, 0, NULL, NULL));
  orx_cl_after_last_kernel(be);
  CL_CHECK(ctx, "clFlush", clFlush(be->queue));
  return OCL_REDUCE_OK;
}

/* OpenCL's pinned memory is the host memory of a CL_MEM_ALLOC_HOST_PTR buffer, mapped: NVIDIA's
 * implementation allocates it page-locked and copies from it at the bus's speed (its OpenCL
 * best-practices guide); elsewhere it is host memory like any other. It stays mapped until
 * release_mem unmaps it. */
ocl_reduce_status orx_cl_alloc_pinned(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                      orx_mem **out, void **host) {
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  cl_int code = CL_SUCCESS;
  m->mem =
      clCreateBuffer(be->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &code);
  const char *call = "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)";
  if (code == CL_SUCCESS) {
    call = "clEnqueueMapBuffer";
    m->mapped = clEnqueueMapBuffer(be->queue, m->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
                                   0, NULL, NULL, &code);
  }
  if (code == CL_SUCCESS) {
    m->queue = be->queue;
    clRetainCommandQueue(m->queue);
    *out = m;
    *host = m->mapped;
    return OCL_REDUCE_OK;
  }
  if (m->mem)
    clReleaseMemObject(m->mem);
  free(m);
  return orx_cl_fail(ctx, call, code);
}

ocl_reduce_status orx_cl_wait_marker(ocl_reduce_context *ctx, orx_backend *be, void *event) {
  const cl_int code = orx_cl_wait_for(be, (cl_event)event);
  clReleaseEvent((cl_event)event);
  if (code != CL_SUCCESS)
    return orx_cl_fail(ctx, "clWaitForEvents", code);
  return OCL_REDUCE_OK;
}
