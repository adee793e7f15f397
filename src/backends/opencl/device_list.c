/* =================================================================================================
 * device_list.c: the OpenCL backend's listing of devices: every device of every platform through
 * the Khronos ICD loader, in the order `P:D` indices count them, under one process-wide lock.
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* setenv, strdup in strict C11 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/device_pick.h"
#include "backends/opencl/opencl.h"

void orx_cl_device_list_free(orx_cl_device_list *list) {
  free(list->entries);
  free(list->platforms);
  free(list->devices);
  free(list->names);
  memset(list, 0, sizeof *list);
}

ocl_reduce_device_type orx_cl_device_type_of(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU)
    return OCL_REDUCE_DEVICE_GPU;
  if (type & CL_DEVICE_TYPE_CPU)
    return OCL_REDUCE_DEVICE_CPU;
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return OCL_REDUCE_DEVICE_ACCELERATOR;
  return OCL_REDUCE_DEVICE_OTHER;
}

/* Room for `more` devices in every array of the list; 0 when out of host memory (what grew
 * stays the list's, freed with it). */
static int list_grow(orx_cl_device_list *list, size_t more) {
  const size_t total = list->count + more;
  orx_device_entry *entries = orx_realloc(list->entries, total * sizeof *entries);
  if (entries)
    list->entries = entries;
  cl_platform_id *platforms = orx_realloc(list->platforms, total * sizeof *platforms);
  if (platforms)
    list->platforms = platforms;
  cl_device_id *devices = orx_realloc(list->devices, total * sizeof *devices);
  if (devices)
    list->devices = devices;
  char(*names)[2][256] = orx_realloc(list->names, total * sizeof *names);
  if (names)
    list->names = names;
  return entries && platforms && devices && names;
}

/* Appends platform p's devices (none where it has none: not an error, but worth a debug line). */
static ocl_reduce_status list_platform(ocl_reduce_context *ctx, cl_platform_id platform,
                                       cl_uint p, orx_cl_device_list *list) {
  cl_uint ndev = 0;
  const cl_int found = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &ndev);
  if (found != CL_SUCCESS || ndev == 0) {
    char name[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
    name[sizeof name - 1] = '\0';
    orx_log("platform %u (%s): no devices (clGetDeviceIDs returned %s)", p, name,
            orx_cl_error_name(found));
    return OCL_REDUCE_OK;
  }
  cl_device_id *devs = orx_calloc(ndev, sizeof *devs);
  if (!devs || !list_grow(list, ndev)) {
    free(devs);
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  }
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, ndev, devs, NULL) != CL_SUCCESS)
    ndev = 0;
  for (cl_uint d = 0; d < ndev; d++) {
    size_t i = list->count++;
    cl_device_type type = 0;
    clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
    list->names[i][0][0] = list->names[i][1][0] = '\0';
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, 256, list->names[i][0], NULL);
    clGetDeviceInfo(devs[d], CL_DEVICE_NAME, 256, list->names[i][1], NULL);
    list->names[i][0][255] = list->names[i][1][255] = '\0';
    list->platforms[i] = platform;
    list->devices[i] = devs[d];
    list->entries[i].platform_index = p;
    list->entries[i].device_index = d;
    list->entries[i].type = orx_cl_device_type_of(type);
  }
  free(devs);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status device_list_read(ocl_reduce_context *ctx, orx_cl_device_list *list) {
  memset(list, 0, sizeof *list);
  cl_uint nplat = 0;
  cl_int code = clGetPlatformIDs(0, NULL, &nplat);
  if (code == CL_PLATFORM_NOT_FOUND_KHR || (code == CL_SUCCESS && nplat == 0))
    return orx_fail(ctx, OCL_REDUCE_ERROR_NO_PLATFORM,
                    "clGetPlatformIDs found no OpenCL platform; install an ICD (for example "
                    "pocl-opencl-icd) or set OCL_ICD_VENDORS");
  CL_CHECK(ctx, "clGetPlatformIDs", code);
  cl_platform_id *plats = orx_calloc(nplat, sizeof *plats);
  if (!plats)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  code = clGetPlatformIDs(nplat, plats, NULL);
  if (code != CL_SUCCESS) {
    free(plats);
    return orx_cl_fail(ctx, "clGetPlatformIDs", code);
  }
  ocl_reduce_status status = OCL_REDUCE_OK;
  for (cl_uint p = 0; p < nplat && status == OCL_REDUCE_OK; p++)
    status = list_platform(ctx, plats[p], p, list);
  free(plats);
  /* Point the entries at the names only now: the arrays may have moved while they grew. */
  for (size_t i = 0; i < list->count; i++) {
    list->entries[i].platform_name = list->names[i][0];
    list->entries[i].device_name = list->names[i][1];
  }
  if (status == OCL_REDUCE_OK && list->count == 0)
    status = orx_fail(ctx, OCL_REDUCE_ERROR_NO_DEVICE, "the OpenCL platforms have no devices");
  if (status != OCL_REDUCE_OK)
    orx_cl_device_list_free(list);
  return status;
}

/* Enumeration is serialized: with PoCL 3.1, 8 threads calling clGetPlatformIDs and
 * clGetDeviceIDs as a process's first OpenCL calls leave most of them with no device and now and
 * then crash inside PoCL (tests/test_threads.c); the library is safe where an implementation is
 * not. A lock, not a list read once and kept: every listing is the implementations' current
 * answer. */
static pthread_mutex_t enumeration = PTHREAD_MUTEX_INITIALIZER;

/* ocl-icd 2.3.2 (Ubuntu 24.04) cuts OCL_ICD_FILENAMES ("pocl.so:nvidia.so") to its first entry,
 * in place in the process's environment, when it loads the implementations: every process the
 * application starts afterwards sees the first implementation only (NVIDIA's OpenCL vanished
 * from re-executed tests on the H200 machine; 2.3.1 leaves the variable alone). The variable is
 * put back as the application set it, under the enumeration lock. (mpiexec loads OpenCL itself,
 * through hwloc, and cuts it for its ranks: docs/GUIDE.md, "Many hosts: MPI".) */
ocl_reduce_status orx_cl_device_list_load(ocl_reduce_context *ctx, orx_cl_device_list *list) {
  pthread_mutex_lock(&enumeration);
  const char *given = getenv("OCL_ICD_FILENAMES");
  char *kept = given ? orx_strdup(given) : NULL;
  if (given && !kept) {
    pthread_mutex_unlock(&enumeration);
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  }
  const ocl_reduce_status status = device_list_read(ctx, list);
  const char *now = getenv("OCL_ICD_FILENAMES");
  if (kept && (!now || strcmp(now, kept) != 0)) {
    orx_log("OCL_ICD_FILENAMES: the ICD loader cut it to '%s'; put back as '%s'", now ? now : "",
            kept);
    setenv("OCL_ICD_FILENAMES", kept, 1);
  }
  free(kept);
  pthread_mutex_unlock(&enumeration);
  return status;
}

ocl_reduce_status orx_cl_list_devices(ocl_reduce_context *ctx, ocl_reduce_device_desc *out,
                                      size_t capacity, size_t *count) {
  orx_cl_device_list list;
  ocl_reduce_status status = orx_cl_device_list_load(ctx, &list);
  if (status == OCL_REDUCE_ERROR_NO_PLATFORM || status == OCL_REDUCE_ERROR_NO_DEVICE) {
    *count = 0;
    return OCL_REDUCE_OK;
  }
  ORX_FORWARD(status);
  for (size_t i = 0; i < list.count && i < capacity; i++) {
    ocl_reduce_device_desc *d = &out[i];
    memset(d, 0, sizeof *d);
    d->backend = OCL_REDUCE_BACKEND_OPENCL;
    d->platform_index = list.entries[i].platform_index;
    d->device_index = list.entries[i].device_index;
    orx_format_selector(NULL, d->platform_index, d->device_index, d->selector,
                        sizeof d->selector);
    orx_strlcpy(d->platform_name, list.entries[i].platform_name, sizeof d->platform_name);
    orx_strlcpy(d->device_name, list.entries[i].device_name, sizeof d->device_name);
    d->device_type = list.entries[i].type;
  }
  *count = list.count;
  orx_cl_device_list_free(&list);
  return OCL_REDUCE_OK;
}
