/* =================================================================================================
 * bench_floor.c: the floor of one call on an OpenCL implementation, in its steady state: a plain
 * program (no library) that enqueues a kernel of one work-item writing 8 bytes and reads them back,
 * over and over. No reduction through that implementation can return its result sooner, so this
 * is what ocl_reduce's end-to-end times are held against. Each way of waiting is measured, since
 * implementations differ in which returns first:
 *
 *   blocking read       clEnqueueNDRangeKernel, clEnqueueReadBuffer(CL_TRUE)
 *   read + poll         the read without blocking, clFlush, then clGetEventInfo until complete
 *   finish + read       clFinish after the kernel, then the blocking read
 *   2 kernels + read    two launches, then the blocking read (a two-pass reduction's shape)
 *   kernel (events)     the kernel's own time from its profiling events (END - START), on a
 *                       second queue with profiling
 *
 * The device is the one ocl_reduce picks on the OpenCL backend (OCL_REDUCE_DEVICE). Medians of
 * CALLS calls after a warm-up. Not installed; scripts/h200/bench.sh --calls runs it.
 * Usage: bench_floor [CALLS]
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "tool_common.h"

enum { WAYS = 5, MAX_CALLS = 100000 };
static const char *const way_names[WAYS] = {"blocking read", "read + poll", "finish + read",
                                            "2 kernels + read", "kernel (events)"};

typedef struct floor_state {
  cl_command_queue queue, profiled;
  cl_kernel kernel;
  cl_mem out;
} floor_state;

/* One call the way `way` waits; returns the seconds (the kernel's own time for the last way). */
static double one_call(const floor_state *f, int way, cl_int *code) {
  const size_t one = 1;
  cl_ulong value = 0;
  cl_event event = NULL;
  const double t0 = tool_now();
  cl_command_queue queue = way == 4 ? f->profiled : f->queue;
  *code = clEnqueueNDRangeKernel(queue, f->kernel, 1, NULL, &one, &one, 0, NULL,
                                 way == 4 ? &event : NULL);
  if (*code == CL_SUCCESS && way == 3)
    *code = clEnqueueNDRangeKernel(queue, f->kernel, 1, NULL, &one, &one, 0, NULL, NULL);
  if (*code == CL_SUCCESS && way == 2)
    *code = clFinish(queue);
  if (*code == CL_SUCCESS && way == 1) {
    *code = clEnqueueReadBuffer(queue, f->out, CL_FALSE, 0, sizeof value, &value, 0, NULL, &event);
    cl_int state = CL_QUEUED;
    if (*code == CL_SUCCESS)
      *code = clFlush(queue);
    while (*code == CL_SUCCESS && state > CL_COMPLETE)
      *code = clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
  } else if (*code == CL_SUCCESS) {
    *code = clEnqueueReadBuffer(queue, f->out, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL);
  }
  double seconds = tool_now() - t0;
  if (*code == CL_SUCCESS && way == 4) {
    cl_ulong start = 0, end = 0;
    *code = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (*code == CL_SUCCESS)
      *code = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    seconds = 1e-9 * (double)(end - start);
  }
  if (event)
    clReleaseEvent(event);
  if (*code == CL_SUCCESS && value != 42)
    *code = CL_INVALID_VALUE; /* the read did not bring the kernel's value */
  return seconds;
}

static int measure(const floor_state *f, int calls) {
  static double times[MAX_CALLS];
  for (int way = 0; way < WAYS; way++) {
    cl_int code = CL_SUCCESS;
    for (int i = -calls / 10 - 1; i < calls && code == CL_SUCCESS; i++) {
      const double t = one_call(f, way, &code);
      if (i >= 0)
        times[i] = t;
    }
    if (code != CL_SUCCESS) {
      fprintf(stderr, "bench_floor: %s: OpenCL error %d\n", way_names[way], (int)code);
      return 0;
    }
    printf("  %-18s %8.1f us\n", way_names[way], 1e6 * tool_median(times, (size_t)calls));
  }
  return 1;
}

int main(int argc, char **argv) {
  int calls = 2000;
  if (argc > 2 || (argc == 2 && !tool_parse_int(argv[1], 1, MAX_CALLS, &calls))) {
    fprintf(stderr, "usage: bench_floor [CALLS (1 ... %d, default 2000)]\n", MAX_CALLS);
    return 2;
  }
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_context_info info;
  const ocl_reduce_status st = tool_opencl_context(&ctx, &info);
  if (st != OCL_REDUCE_OK)
    return tool_fail("bench_floor", st, NULL);
  cl_context context = info.native_context;
  cl_device_id device = info.native_device;
  static const char source[] = "__kernel void one(__global ulong *out) { out[0] = 42; }\n";
  const char *text = source;
  floor_state f;
  memset(&f, 0, sizeof f);
  cl_int code = CL_SUCCESS;
  const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  f.queue = clCreateCommandQueueWithProperties(context, device, NULL, &code);
  if (code == CL_SUCCESS)
    f.profiled = clCreateCommandQueueWithProperties(context, device, profiling, &code);
  cl_program program = NULL;
  if (code == CL_SUCCESS)
    program = clCreateProgramWithSource(context, 1, &text, NULL, &code);
  if (code == CL_SUCCESS)
    code = clBuildProgram(program, 1, &device, "", NULL, NULL);
  if (code == CL_SUCCESS)
    f.kernel = clCreateKernel(program, "one", &code);
  if (code == CL_SUCCESS)
    f.out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_ulong), NULL, &code);
  if (code == CL_SUCCESS)
    code = clSetKernelArg(f.kernel, 0, sizeof f.out, &f.out);
  int ok = code == CL_SUCCESS;
  if (!ok)
    fprintf(stderr, "bench_floor: OpenCL error %d setting up\n", (int)code);
  if (ok) {
    printf("%s / %s: one call's floor, medians of %d\n", info.platform_name, info.device_name,
           calls);
    ok = measure(&f, calls);
  }
  if (f.out)
    clReleaseMemObject(f.out);
  if (f.kernel)
    clReleaseKernel(f.kernel);
  if (program)
    clReleaseProgram(program);
  if (f.profiled)
    clReleaseCommandQueue(f.profiled);
  if (f.queue)
    clReleaseCommandQueue(f.queue);
  ocl_reduce_context_destroy(ctx);
  return ok ? 0 : 1;
}
