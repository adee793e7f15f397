/* =================================================================================================
 * bench_copy.c: the copy bandwidth a reduction's throughput is compared with. A reduction reads its
 * input once; a copy reads and writes, and the bytes of both count. GPUs: clEnqueueCopyBuffer
 * timed with events on the context's own device. CPU devices: an OpenMP copy between buffers on
 * huge pages, since there the CPU's memory system is the device (PoCL's copy command may run on
 * one thread). The CUDA backend: cudaMemcpy device to device, from the CUB contender's file.
 * ============================================================================================== */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "omp_baseline.h"
#include "tool_common.h"

static double opencl_copy_bandwidth(const ocl_reduce_context_info *info, size_t bytes) {
  cl_context context = (cl_context)info->native_context;
  cl_device_id device = (cl_device_id)info->native_device;
  cl_int err = CL_SUCCESS;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, props, &err);
  if (err != CL_SUCCESS)
    return 0;
  cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem b = err == CL_SUCCESS ? clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err)
                               : NULL;
  double seconds[12];
  int count = 0;
  if (err == CL_SUCCESS) {
    const char zero = 0;
    clEnqueueFillBuffer(queue, a, &zero, 1, 0, bytes, 0, NULL, NULL);
    for (int r = -2; r < 12 && err == CL_SUCCESS; r++) {
      cl_event ev = NULL;
      err = clEnqueueCopyBuffer(queue, a, b, 0, 0, bytes, 0, NULL, &ev);
      cl_ulong start = 0, end = 0;
      if (err == CL_SUCCESS)
        err = clWaitForEvents(1, &ev);
      if (err == CL_SUCCESS) {
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
        if (r >= 0 && end > start)
          seconds[count++] = 1e-9 * (double)(end - start);
      }
      if (ev)
        clReleaseEvent(ev);
    }
  }
  if (a)
    clReleaseMemObject(a);
  if (b)
    clReleaseMemObject(b);
  clReleaseCommandQueue(queue);
  return count ? 2.0 * (double)bytes / tool_median(seconds, (size_t)count) * 1e-9 : 0;
}

double bench_copy_bandwidth(ocl_reduce_context *ctx) {
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  if (ocl_reduce_context_query(ctx, &info) != OCL_REDUCE_OK)
    return 0;
  size_t bytes = (size_t)256 << 20;
  if (info.max_alloc_bytes && bytes > info.max_alloc_bytes / 2)
    bytes = (size_t)(info.max_alloc_bytes / 2);
  if (info.device_type == OCL_REDUCE_DEVICE_CPU)
    return omp_copy_bandwidth(bytes);
  if (info.backend == OCL_REDUCE_BACKEND_OPENCL)
    return opencl_copy_bandwidth(&info, bytes);
  return cuda_copy_bandwidth(bytes);
}
