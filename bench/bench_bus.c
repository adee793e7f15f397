/* =================================================================================================
 * bench_bus.c: host memory crossing the bus (src/exec/staging.c) against the bus itself. On the
 * device ocl_reduce picks (OCL_REDUCE_DEVICE, OCL_REDUCE_BACKEND), for each size:
 *
 *   pinned H2D, D2H     the driver's own copy between page-locked memory and device memory
 *                       (CUDA: cuMemHostAlloc; OpenCL: a mapped CL_MEM_ALLOC_HOST_PTR buffer),
 *                       the rate every row is held against
 *   buffer_write/read   ocl_reduce_buffer_write and _read of malloc'd memory
 *   sum f32             ocl_reduce of malloc'd memory, end to end
 *   sum f32, pinned     the same from ocl_reduce_host_alloc memory (copied directly)
 *   segments of 32      f32 sums of segments of 32 from a buffer into malloc'd memory: the
 *                       results' bytes over the call's time
 *
 * each with the library's staging (the planner's choice) and with the blocking copies of before
 * (OCL_REDUCE_POLICY=staging=off), in the same run. Medians of 7 calls after one warm-up. Not
 * installed; scripts/h200/bench.sh --bus runs it.
 * Usage: bench_bus [MiB ...]   (default 4 64 256 1024)
 * ============================================================================================== */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_common.h"

enum { CALLS = 7 };

/* ---- The driver's pinned copies ------------------------------------------------------------ */

/* CUDA through the driver library the process already loaded (the context's), by name. */
static double cuda_pinned(const ocl_reduce_context_info *info, size_t bytes, int to_device) {
  void *cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!cu)
    return 0;
  int (*push)(void *) = (int (*)(void *))dlsym(cu, "cuCtxPushCurrent_v2");
  int (*pop)(void **) = (int (*)(void **))dlsym(cu, "cuCtxPopCurrent_v2");
  int (*alloc)(uint64_t *, size_t) = (int (*)(uint64_t *, size_t))dlsym(cu, "cuMemAlloc_v2");
  int (*free_dev)(uint64_t) = (int (*)(uint64_t))dlsym(cu, "cuMemFree_v2");
  int (*host_alloc)(void **, size_t, unsigned) =
      (int (*)(void **, size_t, unsigned))dlsym(cu, "cuMemHostAlloc");
  int (*free_host)(void *) = (int (*)(void *))dlsym(cu, "cuMemFreeHost");
  int (*htod)(uint64_t, const void *, size_t) =
      (int (*)(uint64_t, const void *, size_t))dlsym(cu, "cuMemcpyHtoD_v2");
  int (*dtoh)(void *, uint64_t, size_t) =
      (int (*)(void *, uint64_t, size_t))dlsym(cu, "cuMemcpyDtoH_v2");
  double median = 0;
  void *ignored = NULL, *host = NULL;
  uint64_t device = 0;
  if (push && pop && alloc && free_dev && host_alloc && free_host && htod && dtoh &&
      push(info->native_context) == 0) {
    if (alloc(&device, bytes) == 0 && host_alloc(&host, bytes, 1) == 0) {
      memset(host, 1, bytes);
      double t[CALLS];
      for (int r = -1; r < CALLS; r++) {
        const double t0 = tool_now();
        const int e = to_device ? htod(device, host, bytes) : dtoh(host, device, bytes);
        if (e == 0 && r >= 0)
          t[r] = tool_now() - t0;
      }
      median = tool_median(t, CALLS);
    }
    if (host)
      free_host(host);
    if (device)
      free_dev(device);
    pop(&ignored);
  }
  dlclose(cu);
  return median;
}

static double opencl_pinned(const ocl_reduce_context_info *info, size_t bytes, int to_device) {
  cl_context context = info->native_context;
  cl_command_queue queue = info->native_queue;
  cl_int e = CL_SUCCESS;
  cl_mem device = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &e);
  cl_mem pinned =
      e == CL_SUCCESS ? clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e) : NULL;
  void *host = e == CL_SUCCESS
                   ? clEnqueueMapBuffer(queue, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                        bytes, 0, NULL, NULL, &e)
                   : NULL;
  double median = 0, t[CALLS];
  if (e == CL_SUCCESS) {
    memset(host, 1, bytes);
    for (int r = -1; r < CALLS && e == CL_SUCCESS; r++) {
      const double t0 = tool_now();
      e = to_device ? clEnqueueWriteBuffer(queue, device, CL_TRUE, 0, bytes, host, 0, NULL, NULL)
                    : clEnqueueReadBuffer(queue, device, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
      if (r >= 0)
        t[r] = tool_now() - t0;
    }
    if (e == CL_SUCCESS)
      median = tool_median(t, CALLS);
    clEnqueueUnmapMemObject(queue, pinned, host, 0, NULL, NULL);
    clFinish(queue);
  }
  if (pinned)
    clReleaseMemObject(pinned);
  if (device)
    clReleaseMemObject(device);
  return median;
}

/* ---- The library's calls ------------------------------------------------------------------- */

typedef enum { WRITE, READ, SUM, SUM_PINNED, SEGMENTS, ROWS } row;
static const char *const row_names[ROWS] = {"buffer_write", "buffer_read", "sum f32",
                                            "sum f32, pinned memory", "segments of 32 (results)"};

/* The median seconds of one row on ctx, and the bytes that crossed the bus. */
static double time_row(ocl_reduce_context *ctx, row which, size_t bytes, void *host,
                       ocl_reduce_buffer *buf, size_t *moved) {
  const size_t n = bytes / sizeof(float);
  void *pinned = NULL;
  if (which == SUM_PINNED) {
    if (ocl_reduce_host_alloc(ctx, bytes, &pinned) != OCL_REDUCE_OK)
      return 0;
    memcpy(pinned, host, bytes);
  }
  *moved = which == SEGMENTS ? bytes / 32 : bytes;
  float sum = 0;
  double t[CALLS];
  ocl_reduce_status st = OCL_REDUCE_OK;
  for (int r = -1; r < CALLS && st == OCL_REDUCE_OK; r++) {
    const double t0 = tool_now();
    switch (which) {
    case WRITE: st = ocl_reduce_buffer_write(buf, 0, host, bytes); break;
    case READ: st = ocl_reduce_buffer_read(buf, 0, host, bytes); break;
    case SUM:
      st = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, host, n, &sum, sizeof sum);
      break;
    case SUM_PINNED:
      st = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, pinned, n, &sum, sizeof sum);
      break;
    default:
      st = ocl_reduce_segments(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(buf, 0),
                               n / 32, 32, ocl_reduce_host_output(host, bytes / 32));
    }
    if (r >= 0)
      t[r] = tool_now() - t0;
  }
  ocl_reduce_host_free(ctx, pinned);
  if (st != OCL_REDUCE_OK) {
    fprintf(stderr, "bench_bus: %s: %s\n", row_names[which], ocl_reduce_last_error(ctx));
    return 0;
  }
  return tool_median(t, CALLS);
}

static ocl_reduce_context *context_with(const char *policy) {
  if (policy)
    setenv("OCL_REDUCE_POLICY", policy, 1);
  ocl_reduce_context *ctx = NULL;
  const ocl_reduce_status st = ocl_reduce_context_create(NULL, &ctx);
  unsetenv("OCL_REDUCE_POLICY");
  if (st != OCL_REDUCE_OK)
    fprintf(stderr, "bench_bus: %s\n", ocl_reduce_last_error(NULL));
  return ctx;
}

int main(int argc, char **argv) {
  ocl_reduce_context *staged = context_with(NULL), *blocking = context_with("staging=off");
  if (!staged || !blocking)
    return 1;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(staged, &info);
  printf("device  %s (%s)\nrows    GB/s of the bytes that cross the bus; x pinned = that over the "
         "driver's pinned copy the same way, measured in this run\n",
         info.device_name, info.backend_name);
  static const char *const defaults[] = {"4", "64", "256", "1024"};
  const int sizes = argc > 1 ? argc - 1 : 4;
  for (int s = 0; s < sizes; s++) {
    const size_t bytes = (size_t)strtoul(argc > 1 ? argv[1 + s] : defaults[s], NULL, 10) << 20;
    float *host = malloc(bytes);
    ocl_reduce_buffer *buf[2] = {NULL, NULL};
    if (!host || ocl_reduce_buffer_create(staged, bytes, &buf[0]) != OCL_REDUCE_OK ||
        ocl_reduce_buffer_create(blocking, bytes, &buf[1]) != OCL_REDUCE_OK) {
      fprintf(stderr, "bench_bus: no room for %zu MiB\n", bytes >> 20);
      return 1;
    }
    for (size_t i = 0; i < bytes / sizeof(float); i++)
      host[i] = (float)(i % 7);
    double bus[2];
    for (int to_device = 0; to_device < 2; to_device++)
      bus[to_device] = info.backend == OCL_REDUCE_BACKEND_CUDA
                           ? cuda_pinned(&info, bytes, to_device)
                           : opencl_pinned(&info, bytes, to_device);
    printf("\n%zu MiB: pinned H2D %.1f GB/s, D2H %.1f GB/s\n", bytes >> 20,
           bus[1] > 0 ? bytes / bus[1] * 1e-9 : 0, bus[0] > 0 ? bytes / bus[0] * 1e-9 : 0);
    printf("  %-28s %10s %9s %10s %9s %9s\n", "row", "staged us", "x pinned", "before us",
           "x pinned", "speed-up");
    for (int w = 0; w < ROWS; w++) {
      size_t moved = 0;
      const double a = time_row(staged, (row)w, bytes, host, buf[0], &moved);
      const double b = time_row(blocking, (row)w, bytes, host, buf[1], &moved);
      const double pinned = bus[w != READ && w != SEGMENTS] * (double)moved / (double)bytes;
      printf("  %-28s %10.1f %9.2f %10.1f %9.2f %8.2fx\n", row_names[w], 1e6 * a,
             a > 0 ? pinned / a : 0, 1e6 * b, b > 0 ? pinned / b : 0, a > 0 ? b / a : 0);
    }
    ocl_reduce_buffer_destroy(buf[0]);
    ocl_reduce_buffer_destroy(buf[1]);
    free(host);
  }
  ocl_reduce_context_destroy(staged);
  ocl_reduce_context_destroy(blocking);
  return 0;
}
