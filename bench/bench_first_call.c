/* =================================================================================================
 * bench_first_call.c: the first reduction of a new process, from ocl_reduce_context_create to
 * the result in host memory, measured in fresh processes (this program runs itself), with the
 * program cache (OCL_REDUCE_CACHE_DIR) cold, off and warm:
 *
 *   cold       the library's cache empty, and PoCL's kernel cache too (POCL_CACHE_DIR points at
 *              an empty directory; other implementations keep their own caches as they are)
 *   off        OCL_REDUCE_CACHE_DIR=off: every process compiles (the implementation's own
 *              caches warm, as on a machine in use)
 *   warm       the library's cache filled by an earlier process
 *
 * and, for an OpenCL device, the implementation's floor: a plain OpenCL program (no library) that
 * takes the same device (clGetPlatformIDs ... clCreateCommandQueue), then builds a one-line kernel,
 * runs it and reads 4 bytes back: no first call through OpenCL can be faster than its setup.
 *
 * Each process reduces COUNT f32 elements of host memory with SUM (so the planner's program for
 * it is the one loaded) and prints the time of the create and of the call. The device is the one
 * OCL_REDUCE_DEVICE / OCL_REDUCE_BACKEND name. Not installed; scripts/h200/ runs it.
 * Usage: bench_first_call [RUNS [COUNT]]
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "tool_common.h"

/* The child: one first call; prints "create_ms call_ms from_disk" on stdout. */
static int first_call(size_t count) {
  float *data = malloc(count * sizeof *data);
  if (!data)
    return 1;
  for (size_t i = 0; i < count; i++)
    data[i] = (float)(i % 17);
  const double t0 = tool_now();
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  const double t1 = tool_now();
  float sum = 0;
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, data, count, &sum, sizeof sum);
  const double t2 = tool_now();
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_context_query(ctx, &info);
  if (s != OCL_REDUCE_OK) {
    fprintf(stderr, "bench_first_call: %s: %s\n", ocl_reduce_status_name(s),
            ocl_reduce_last_error(ctx));
    ocl_reduce_context_destroy(ctx);
    free(data);
    return 1;
  }
  printf("%.3f %.3f %llu %s / %s\n", 1e3 * (t1 - t0), 1e3 * (t2 - t1),
         (unsigned long long)info.programs_from_disk, info.platform_name, info.device_name);
  ocl_reduce_context_destroy(ctx);
  free(data);
  return 0;
}

/* The child for the floor: the OpenCL device whose platform and device names are `names`
 * ("platform / device"); prints "setup_ms kernel_ms" (setup: up to a queue; kernel: building a
 * one-line kernel from source, running it, reading its result). */
static int floor_call(const char *names) {
  const double t0 = tool_now();
  cl_platform_id platforms[16];
  cl_uint platform_count = 0;
  if (clGetPlatformIDs(16, platforms, &platform_count) != CL_SUCCESS)
    return 1;
  cl_device_id device = NULL;
  cl_platform_id platform = NULL;
  for (cl_uint p = 0; p < platform_count && !device; p++) {
    cl_device_id devices[16];
    cl_uint count = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &count) != CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < count && !device; d++) {
      char platform_name[256] = "", device_name[256] = "", both[600];
      clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL);
      clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof device_name, device_name, NULL);
      snprintf(both, sizeof both, "%s / %s", platform_name, device_name);
      if (!strcmp(both, names))
        device = devices[d], platform = platforms[p];
    }
  }
  if (!device)
    return 1;
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              (cl_context_properties)platform, 0};
  cl_int code = CL_SUCCESS;
  cl_context context = clCreateContext(properties, 1, &device, NULL, NULL, &code);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &code);
  const double t1 = tool_now();
  const char *source = "__kernel void seven(__global int *out) { out[0] = 7; }";
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &code);
  code |= clBuildProgram(program, 1, &device, "", NULL, NULL);
  cl_kernel kernel = clCreateKernel(program, "seven", &code);
  cl_mem result = clCreateBuffer(context, CL_MEM_READ_WRITE, 4, NULL, &code);
  code |= clSetKernelArg(kernel, 0, sizeof result, &result);
  const size_t one = 1;
  code |= clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, 0, NULL, NULL);
  int seven = 0;
  code |= clEnqueueReadBuffer(queue, result, CL_TRUE, 0, sizeof seven, &seven, 0, NULL, NULL);
  const double t2 = tool_now();
  if (code != CL_SUCCESS || seven != 7)
    return 1;
  printf("%.3f %.3f\n", 1e3 * (t1 - t0), 1e3 * (t2 - t1));
  clReleaseMemObject(result);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}

/* Runs this program as a child with `cache` and `pocl_cache` in its environment; reads its
 * line. Returns 0 when it failed. */
static int run_child(const char *self, const char *cache, const char *pocl_cache, size_t count,
                     double *create_ms, double *call_ms, int *from_disk, char *device,
                     size_t device_size) {
  char command[4096];
  snprintf(command, sizeof command, "OCL_REDUCE_CACHE_DIR='%s'%s%s%s '%s' --child %zu", cache,
           pocl_cache ? " POCL_CACHE_DIR='" : "", pocl_cache ? pocl_cache : "",
           pocl_cache ? "'" : "", self, count);
  FILE *p = popen(command, "r");
  if (!p)
    return 0;
  char line[1024] = "";
  const int got = fgets(line, sizeof line, p) != NULL;
  const int status = pclose(p);
  unsigned long long loaded = 0;
  int used = 0;
  if (!got || status != 0 ||
      sscanf(line, "%lf %lf %llu %n", create_ms, call_ms, &loaded, &used) < 3)
    return 0;
  *from_disk = (int)loaded;
  snprintf(device, device_size, "%s", line + used);
  device[strcspn(device, "\n")] = '\0';
  return 1;
}

static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--child"))
    return first_call(strtoull(argv[2], NULL, 10));
  if (argc == 3 && !strcmp(argv[1], "--floor"))
    return floor_call(argv[2]);
  int runs = argc > 1 ? atoi(argv[1]) : 7;
  const size_t count = argc > 2 ? strtoull(argv[2], NULL, 10) : (size_t)1 << 20;
  if (runs < 1 || count < 1) {
    fprintf(stderr, "usage: bench_first_call [RUNS [COUNT]]\n");
    return 2;
  }
  runs = runs > 64 ? 64 : runs;
  char self[1024];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0)
    return 1;
  self[length] = '\0';
  char root[] = "/tmp/ocl_reduce_first_call.XXXXXX";
  if (!mkdtemp(root))
    return 1;
  static const char *const modes[] = {"cold", "off", "warm"};
  char device[512] = "";
  printf("first reduction of a new process: ocl_reduce_context_create to the result in host "
         "memory, %zu f32 elements from host memory; medians of %d processes (min-max)\n",
         count, runs);
  int failed = 0;
  for (int m = 0; m < 3 && !failed; m++) {
    double create[64], call[64], total[64];
    int loaded = 0;
    for (int r = 0; r < runs && !failed; r++) {
      char cache[1100], pocl[1100], command[2400];
      /* cold: fresh directories every run; warm: one directory filled by a first process. */
      snprintf(cache, sizeof cache, "%s/%s-%d", root, modes[m], m == 0 ? r : 0);
      snprintf(pocl, sizeof pocl, "%s/pocl-%d", root, r);
      int from_disk = 0;
      double create_ms = 0, call_ms = 0;
      if (m == 2 && r == 0 &&
          !run_child(self, cache, NULL, count, &create_ms, &call_ms, &from_disk, device,
                     sizeof device))
        failed = 1;
      if (!failed &&
          !run_child(self, m == 1 ? "off" : cache, m == 0 ? pocl : NULL, count, &create_ms,
                     &call_ms, &from_disk, device, sizeof device))
        failed = 1;
      create[r] = create_ms;
      call[r] = call_ms;
      total[r] = create_ms + call_ms;
      loaded += from_disk > 0;
      snprintf(command, sizeof command, "rm -rf '%s'", pocl);
      if (system(command) != 0)
        failed = 1;
    }
    if (failed)
      break;
    qsort(create, (size_t)runs, sizeof *create, compare);
    qsort(call, (size_t)runs, sizeof *call, compare);
    qsort(total, (size_t)runs, sizeof *total, compare);
    if (m == 0)
      printf("device %s\n%-6s %24s %24s %24s  processes that loaded from the cache\n", device,
             "cache", "create ms", "first call ms", "total ms");
    printf("%-6s %8.2f (%6.2f-%7.2f) %8.2f (%6.2f-%7.2f) %8.2f (%6.2f-%7.2f)  %d of %d\n",
           modes[m], create[runs / 2], create[0], create[runs - 1], call[runs / 2], call[0],
           call[runs - 1], total[runs / 2], total[0], total[runs - 1], loaded, runs);
  }
  /* The floor, where the device is an OpenCL one ("CUDA / ..." is not). */
  double setup[64], kernel[64];
  int floors = 0;
  for (int r = 0; r < runs && !failed && strncmp(device, "CUDA / ", 7) != 0; r++) {
    char command[2000];
    snprintf(command, sizeof command, "'%s' --floor '%s'", self, device);
    FILE *p = popen(command, "r");
    if (p && fscanf(p, "%lf %lf", &setup[floors], &kernel[floors]) == 2)
      floors++;
    if (p)
      pclose(p);
  }
  if (floors) {
    qsort(setup, (size_t)floors, sizeof *setup, compare);
    qsort(kernel, (size_t)floors, sizeof *kernel, compare);
    printf("floor  %8.2f (%6.2f-%7.2f) %8.2f (%6.2f-%7.2f)  a plain OpenCL program: setup to "
           "a queue, then a one-line kernel built, run and read\n",
           setup[floors / 2], setup[0], setup[floors - 1], kernel[floors / 2], kernel[0],
           kernel[floors - 1]);
  }
  char command[1100];
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  if (system(command) != 0 || failed) {
    fprintf(stderr, "bench_first_call: a child process failed\n");
    return 1;
  }
  return 0;
}
