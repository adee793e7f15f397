/* =================================================================================================
 * backend.c: the OpenCL implementation of the backend table (backend.h): memory, launches and
 * events on the device devices.c opened (programs are programs.c's, copies copies.c's).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/opencl.h"

/* ---- Memory ------------------------------------------------------------------------------------
 */

static void cl_release_mem(orx_mem *mem) {
  if (!mem)
    return;
  if (mem->mapped)
    clEnqueueUnmapMemObject(mem->queue, mem->mem, mem->mapped, 0, NULL, NULL);
  if (mem->queue)
    clReleaseCommandQueue(mem->queue);
  if (mem->mem)
    clReleaseMemObject(mem->mem);
  if (mem->svm)
    clSVMFree(mem->context, mem->svm);
  free(mem);
}

static ocl_reduce_status cl_alloc_host_visible(ocl_reduce_context *ctx, orx_backend *be,
                                               size_t bytes, orx_mem **out, void **host) {
  if (!be->has_fine_grain_svm)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INTERNAL, "the device has no fine-grained SVM");
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  m->svm = clSVMAlloc(be->context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, bytes, 0);
  if (!m->svm) {
    free(m);
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY,
                    "clSVMAlloc(%zu bytes, fine grain) failed", bytes);
  }
  m->context = be->context;
  *out = m;
  *host = m->svm;
  return OCL_REDUCE_OK;
}

/* Waits for the latest launch when nothing was enqueued after it: the queue is in order, so
 * everything before it is done too. On PoCL, waiting for the event returns sooner than clFinish
 * (1.5 against 1.7-2.1 ms for a 64 MiB sum on 2 cores). Else the whole queue. */
static ocl_reduce_status cl_finish(ocl_reduce_context *ctx, orx_backend *be) {
  if (!be->last_kernel) {
    CL_CHECK(ctx, "clFinish", clFinish(be->queue));
    return OCL_REDUCE_OK;
  }
  cl_int code = orx_cl_wait_for(be, be->last_kernel);
  clReleaseEvent(be->last_kernel);
  be->last_kernel = NULL;
  if (code != CL_SUCCESS)
    return orx_cl_fail(ctx, "clWaitForEvents", code);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cl_enqueue_wait(ocl_reduce_context *ctx, orx_backend *be,
                                         void *const *events, size_t count) {
  if (count == 0)
    return OCL_REDUCE_OK;
  CL_CHECK(ctx, "clEnqueueBarrierWithWaitList",
           clEnqueueBarrierWithWaitList(be->queue, (cl_uint)count, (const cl_event *)events,
                                        NULL));
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cl_enqueue_marker(ocl_reduce_context *ctx, orx_backend *be,
                                           void **event) {
  cl_event marker = NULL;
  CL_CHECK(ctx, "clEnqueueMarkerWithWaitList",
           clEnqueueMarkerWithWaitList(be->queue, 0, NULL, &marker));
  const cl_int code = clFlush(be->queue); /* the application may wait on another thread */
  if (code != CL_SUCCESS) {
    clReleaseEvent(marker);
    return orx_cl_fail(ctx, "clFlush", code);
  }
  *event = marker;
  return OCL_REDUCE_OK;
}

static const void *cl_host_storage(const orx_mem *mem) { return mem->host_storage; }

static void cl_mem_native(const orx_mem *mem, void **handle, uint64_t *address) {
  *handle = mem->mem;
  *address = 0;
}

static ocl_reduce_status cl_alloc(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                  orx_mem **out) {
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  cl_int code = CL_SUCCESS;
  void *storage = NULL;
  if (be->host_memory_device)
    m->mem = orx_cl_create_host_backed(be, bytes, &storage, &code);
  else
    m->mem = clCreateBuffer(be->context, CL_MEM_READ_WRITE, bytes, NULL, &code);
  if (code != CL_SUCCESS) {
    free(m);
    return orx_fail(ctx,
                    code == CL_OUT_OF_HOST_MEMORY ? OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY
                                                  : OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY,
                    "clCreateBuffer(%zu bytes) returned %s (%d)", bytes, orx_cl_error_name(code),
                    (int)code);
  }
  m->host_storage = be->in_place != ORX_CL_IN_PLACE_NONE ? storage : NULL;
  *out = m;
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cl_wrap(ocl_reduce_context *ctx, orx_backend *be, void *native,
                                 orx_mem **out, size_t *bytes) {
  cl_mem mem = (cl_mem)native;
  cl_context owner = NULL;
  CL_CHECK(ctx, "clGetMemObjectInfo(CL_MEM_CONTEXT)",
           clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof owner, &owner, NULL));
  if (owner != be->context)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "cl_mem: the buffer belongs to another cl_context than the ocl_reduce "
                    "context's (create the context with ocl_reduce_context_create_opencl)");
  CL_CHECK(ctx, "clGetMemObjectInfo(CL_MEM_SIZE)",
           clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof *bytes, bytes, NULL));
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  const cl_int retained = clRetainMemObject(mem);
  if (retained != CL_SUCCESS) {
    free(m);
    return orx_cl_fail(ctx, "clRetainMemObject", retained);
  }
  m->mem = mem;
  *out = m;
  return OCL_REDUCE_OK;
}

/* ---- Launch ------------------------------------------------------------------------------------
 */

static ocl_reduce_status cl_launch(ocl_reduce_context *ctx, orx_backend *be, orx_program *program,
                                   size_t groups, unsigned wg_size, const orx_arg *args,
                                   size_t nargs, uint64_t *kernel_ns) {
  for (size_t i = 0; i < nargs; i++) {
    cl_int code;
    if (args[i].kind == ORX_ARG_MEM && args[i].mem->svm) {
      code = clSetKernelArgSVMPointer(program->kernel, (cl_uint)i, args[i].mem->svm);
    } else if (args[i].kind == ORX_ARG_MEM) {
      code = clSetKernelArg(program->kernel, (cl_uint)i, sizeof(cl_mem), &args[i].mem->mem);
    } else if (args[i].kind == ORX_ARG_U64) {
      cl_ulong v = args[i].value;
      code = clSetKernelArg(program->kernel, (cl_uint)i, sizeof v, &v);
    } else {
      cl_uint v = (cl_uint)args[i].value;
      code = clSetKernelArg(program->kernel, (cl_uint)i, sizeof v, &v);
    }
    if (code != CL_SUCCESS)
      return orx_cl_fail(ctx, "clSetKernelArg", code);
  }
  size_t local = wg_size, global = groups * (size_t)wg_size;
  /* The launch's event, only where something waits on it: profiling, polling, and cl_finish on
   * CPU devices. A GPU that blocks in its reads has no use for one. */
  const int keep = kernel_ns || be->poll_events || be->host_memory_device;
  cl_event event = NULL;
  CL_CHECK(ctx, "clEnqueueNDRangeKernel",
           clEnqueueNDRangeKernel(be->queue, program->kernel, 1, NULL, &global, &local, 0, NULL,
                                  keep ? &event : NULL));
  if (be->last_kernel)
    clReleaseEvent(be->last_kernel);
  be->last_kernel = event;
  if (!kernel_ns)
    return OCL_REDUCE_OK;
  cl_ulong start = 0, end = 0;
  cl_int code = orx_cl_wait_for(be, event);
  if (code == CL_SUCCESS)
    code = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  if (code == CL_SUCCESS)
    code = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  if (code != CL_SUCCESS)
    return orx_cl_fail(ctx, "clGetEventProfilingInfo", code);
  *kernel_ns = end - start;
  return OCL_REDUCE_OK;
}

static void cl_set_polling(orx_backend *be, int poll) { be->poll_events = poll; }

static void cl_native(orx_backend *be, void **context, void **device, void **queue) {
  *context = be->context;
  *device = be->device;
  *queue = be->queue;
}

const orx_backend_ops orx_opencl_backend = {
    .list_devices = orx_cl_list_devices,
    .open = orx_cl_open,
    .close = orx_cl_close,
    .build = orx_cl_build,
    .enqueue_wait = cl_enqueue_wait,
    .enqueue_marker = cl_enqueue_marker,
    .build_binary = orx_cl_build_binary,
    .program_binary = orx_cl_program_binary,
    .release_program = orx_cl_release_program,
    .program_native = orx_cl_program_native,
    .alloc = cl_alloc,
    .wrap = cl_wrap,
    .mem_native = cl_mem_native,
    .release_mem = cl_release_mem,
    .host_storage = cl_host_storage,
    .view_host_memory = orx_cl_view_host_memory,
    .alloc_host_visible = cl_alloc_host_visible,
    .finish = cl_finish,
    .write = orx_cl_write,
    .read = orx_cl_read,
    .copy = orx_cl_copy,
    .alloc_pinned = orx_cl_alloc_pinned,
    .write_async = orx_cl_write_async,
    .read_async = orx_cl_read_async,
    .wait_marker = orx_cl_wait_marker,
    .launch = cl_launch,
    .native = cl_native,
    .set_polling = cl_set_polling,
};
