/* =================================================================================================
 * copies.c: the CUDA backend's copies between host and device memory (backend.h): blocking ones,
 * and the pinned memory, enqueued copies and markers that exec/staging.c pipelines.
 * ============================================================================================== */
#include "backends/cuda/cuda.h"

#include <stdlib.h>

/* Enqueues one copy, then waits for the stream when `wait`. */
static ocl_reduce_status copy(ocl_reduce_context *ctx, orx_backend *be, CUdeviceptr device,
                              void *host, const void *from_host, size_t bytes, int wait) {
  ORX_FORWARD(orx_cu_enter(ctx, be));
  CUresult r = from_host ? orx_cu.MemcpyHtoDAsync(device, from_host, bytes, be->stream)
                         : orx_cu.MemcpyDtoHAsync(host, device, bytes, be->stream);
  if (r == CUDA_SUCCESS && wait)
    r = orx_cu.StreamSynchronize(be->stream);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_cu_fail(ctx, from_host ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoHAsync", r);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_cu_write(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                               size_t offset, const void *src, size_t bytes) {
  return copy(ctx, be, dst->ptr + offset, NULL, src, bytes, 1);
}

ocl_reduce_status orx_cu_read(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                              size_t offset, void *dst, size_t bytes) {
  return copy(ctx, be, src->ptr + offset, dst, NULL, bytes, 1);
}

ocl_reduce_status orx_cu_write_async(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                                     size_t offset, const void *src, size_t bytes) {
  return copy(ctx, be, dst->ptr + offset, NULL, src, bytes, 0);
}

ocl_reduce_status orx_cu_read_async(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                                    size_t offset, void *dst, size_t bytes) {
  return copy(ctx, be, src->ptr + offset, dst, NULL, bytes, 0);
}

ocl_reduce_status orx_cu_copy(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                              size_t src_offset, orx_mem *dst, size_t dst_offset, size_t bytes) {
  ORX_FORWARD(orx_cu_enter(ctx, be));
  const CUresult r =
      orx_cu.MemcpyDtoDAsync(dst->ptr + dst_offset, src->ptr + src_offset, bytes, be->stream);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_cu_fail(ctx, "cuMemcpyDtoDAsync", r);
  return OCL_REDUCE_OK;
}

/* Portable: the memory stays page-locked for every context of the process, so that a group's
 * devices can all copy from it. Not mapped: staging is copied, never read by kernels. */
ocl_reduce_status orx_cu_alloc_pinned(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                      orx_mem **out, void **host) {
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  ocl_reduce_status status = orx_cu_enter(ctx, be);
  if (status == OCL_REDUCE_OK) {
    CUresult r = orx_cu.MemHostAlloc(&m->host, bytes, CU_MEMHOSTALLOC_PORTABLE);
    orx_cu_leave();
    if (r != CUDA_SUCCESS)
      status =
          orx_fail(ctx,
                   r == CUDA_ERROR_OUT_OF_MEMORY ? OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY
                                                 : OCL_REDUCE_ERROR_BACKEND,
                   "cuMemHostAlloc(%zu bytes) returned %s (%d)", bytes, orx_cu_name(r), (int)r);
  }
  if (status != OCL_REDUCE_OK) {
    free(m);
    return status;
  }
  *out = m;
  *host = m->host;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_cu_wait_marker(ocl_reduce_context *ctx, orx_backend *be, void *event) {
  ORX_FORWARD(orx_cu_enter(ctx, be));
  CUresult r = orx_cu.EventSynchronize((CUevent)event);
  orx_cu.EventDestroy((CUevent)event);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_cu_fail(ctx, "cuEventSynchronize", r);
  return OCL_REDUCE_OK;
}

/* The driver knows page-locked host memory by its address: cuMemHostAlloc's, and what
 * cuMemHostRegister registered, under unified addressing (every 64-bit platform CUDA 13 runs
 * on). Pageable memory is an invalid value to it. */
int orx_cu_host_is_pinned(orx_backend *be, const void *host, size_t bytes) {
  if (orx_cu.CtxPushCurrent(be->context) != CUDA_SUCCESS)
    return 0;
  unsigned type = 0;
  CUdeviceptr base = 0;
  size_t size = 0;
  const CUdeviceptr at = (CUdeviceptr)(uintptr_t)host;
  CUresult r = orx_cu.PointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, at);
  if (r == CUDA_SUCCESS && type == CU_MEMORYTYPE_HOST)
    r = orx_cu.MemGetAddressRange(&base, &size, at);
  orx_cu_leave();
  return r == CUDA_SUCCESS && type == CU_MEMORYTYPE_HOST && at >= base && bytes <= size &&
         at - base <= size - bytes;
}
