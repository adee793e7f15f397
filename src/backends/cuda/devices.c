/* =================================================================================================
 * devices.c: the CUDA backend's devices: listing them, choosing one (by ordinal, name or PCI
 * address), its capabilities, opening and closing it, and taking an NVIDIA GPU over from OpenCL
 * under OCL_REDUCE_BACKEND=auto (cuda.h).
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda.h"
#include "backends/device_pick.h"

ocl_reduce_status orx_cu_enter(ocl_reduce_context *ctx, orx_backend *be) {
  CU_CHECK(ctx, "cuCtxPushCurrent", orx_cu.CtxPushCurrent(be->context));
  return OCL_REDUCE_OK;
}

void orx_cu_leave(void) {
  CUcontext ignored;
  orx_cu.CtxPopCurrent(&ignored);
}

/* ---- Devices ----------------------------------------------------------------------------- */

ocl_reduce_status orx_cu_list_devices(ocl_reduce_context *ctx, ocl_reduce_device_desc *out,
                                      size_t capacity, size_t *count) {
  (void)ctx;
  const char *why;
  *count = 0;
  if (!orx_cu_ready(&why))
    return OCL_REDUCE_OK; /* no CUDA here is not an error for a listing */
  int n = 0;
  orx_cu.DeviceGetCount(&n);
  for (int i = 0; i < n; i++) {
    if ((size_t)i < capacity) {
      ocl_reduce_device_desc *d = &out[i];
      memset(d, 0, sizeof *d);
      CUdevice dev;
      orx_cu.DeviceGet(&dev, i);
      d->backend = OCL_REDUCE_BACKEND_CUDA;
      d->device_index = (unsigned)i;
      orx_format_selector(ORX_CUDA_SELECTOR_PREFIX, 0, d->device_index, d->selector, sizeof d->selector);
      snprintf(d->platform_name, sizeof d->platform_name, "CUDA");
      orx_cu.DeviceGetName(d->device_name, (int)sizeof d->device_name, dev);
      d->device_type = OCL_REDUCE_DEVICE_GPU;
    }
    (*count)++;
  }
  return OCL_REDUCE_OK;
}

/* Device `selector` names: "cuda:N", a name substring (orx_pick_device, as on OpenCL), or
 * "pci:DOMAIN:BUS:DEVICE" (how the OpenCL backend hands an NVIDIA GPU over); NULL or "" is device
 * 0. */
static ocl_reduce_status pick(ocl_reduce_context *ctx, const char *selector, int *ordinal) {
  int n = 0;
  orx_cu.DeviceGetCount(&n);
  unsigned domain, bus, device;
  if (selector && sscanf(selector, "pci:%x:%x:%x", &domain, &bus, &device) == 3) {
    for (int i = 0; i < n; i++) {
      CUdevice dev;
      int d = -1, b = -1, v = -1;
      orx_cu.DeviceGet(&dev, i);
      orx_cu.DeviceGetAttribute(&d, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, dev);
      orx_cu.DeviceGetAttribute(&b, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev);
      orx_cu.DeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, dev);
      if ((unsigned)d == domain && (unsigned)b == bus && (unsigned)v == device) {
        *ordinal = i;
        return OCL_REDUCE_OK;
      }
    }
    return orx_fail(ctx, OCL_REDUCE_ERROR_NO_DEVICE, "no CUDA device at PCI address %s",
                    selector);
  }
  /* "cuda:N" is "0:N" among the CUDA devices, listed as platform 0. */
  char translated[64];
  if (selector && strncmp(selector, "cuda:", 5) == 0) {
    snprintf(translated, sizeof translated, "0:%s", selector + 5);
    selector = translated;
  }
  ocl_reduce_device_desc descs[64];
  orx_device_entry entries[64];
  size_t count = 0;
  ORX_FORWARD(orx_cu_list_devices(ctx, descs, 64, &count));
  if (count > 64)
    count = 64;
  for (size_t i = 0; i < count; i++)
    entries[i] = (orx_device_entry){0, descs[i].device_index, descs[i].platform_name,
                                    descs[i].device_name, descs[i].device_type};
  size_t index = 0;
  ORX_FORWARD(orx_pick_device(ctx, entries, count, selector, &index));
  *ordinal = (int)descs[index].device_index;
  return OCL_REDUCE_OK;
}

int orx_cu_attribute(orx_backend *be, CUdevice_attribute which) {
  int value = 0;
  orx_cu.DeviceGetAttribute(&value, which, be->device);
  return value;
}

static void read_caps(orx_backend *be, orx_caps *caps) {
  memset(caps, 0, sizeof *caps);
  int driver = 0;
  orx_cu.DriverGetVersion(&driver);
  snprintf(caps->platform_name, sizeof caps->platform_name, "CUDA");
  snprintf(caps->platform_version, sizeof caps->platform_version, "CUDA driver %d.%d",
           driver / 1000, (driver % 1000) / 10);
  orx_cu.DeviceGetName(caps->device_name, (int)sizeof caps->device_name, be->device);
  snprintf(caps->device_version, sizeof caps->device_version, "compute capability %d.%d",
           be->arch / 10, be->arch % 10);
  snprintf(caps->driver_version, sizeof caps->driver_version, "%d", driver);
  orx_cu_compiler_version(caps->compiler_version, sizeof caps->compiler_version);
  caps->device_index = (unsigned)be->ordinal;
  caps->type = OCL_REDUCE_DEVICE_GPU;
  caps->compute_units = (unsigned)orx_cu_attribute(be, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  caps->max_work_group_size =
      (size_t)orx_cu_attribute(be, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  caps->local_mem_bytes =
      (uint64_t)orx_cu_attribute(be, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  size_t total = 0;
  orx_cu.DeviceTotalMem(&total, be->device);
  caps->global_mem_bytes = total;
  caps->max_alloc_bytes = total;
  caps->base_align_bytes = 256; /* cuMemAlloc; wrapped pointers report their own misalignment */
  caps->has_fp64 = 1;
  caps->warp_size = (unsigned)orx_cu_attribute(be, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  caps->has_cuda_shuffle = 1;
  caps->device_sync = ORX_SYNC_CUDA; /* __threadfence (lib/orx_finish.cl) */
  caps->host_visible_memory = orx_cu_attribute(be, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY) != 0;
}

/* ---- Life cycle --------------------------------------------------------------------------------
 */

void orx_cu_close(orx_backend *be) {
  if (!be)
    return;
  if (be->context && orx_cu.CtxPushCurrent(be->context) == CUDA_SUCCESS) {
    if (be->start)
      orx_cu.EventDestroy(be->start);
    if (be->stop)
      orx_cu.EventDestroy(be->stop);
    if (be->stream && !be->application_stream)
      orx_cu.StreamDestroy(be->stream);
    orx_cu_leave();
    if (!be->application_stream)
      orx_cu.DevicePrimaryCtxRelease(be->device);
  }
  free(be);
}

/* The application's stream (ocl_reduce_context_create_cuda): its context and that context's
 * device; neither is retained nor released (the application keeps both alive). */
static ocl_reduce_status take_stream(ocl_reduce_context *ctx, orx_backend *be, CUstream stream) {
  CUresult r = orx_cu.StreamGetCtx(stream, &be->context);
  if (r != CUDA_SUCCESS) {
    be->context = NULL;
    return orx_cu_fail(ctx, "cuStreamGetCtx (cu_stream)", r);
  }
  be->stream = stream;
  be->application_stream = 1;
  ORX_FORWARD(orx_cu_enter(ctx, be));
  r = orx_cu.CtxGetDevice(&be->device);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_cu_fail(ctx, "cuCtxGetDevice", r);
  be->ordinal = (int)be->device; /* a CUdevice is its ordinal */
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_cu_open(ocl_reduce_context *ctx, const char *selector, void *native_queue,
                              int profiling, orx_backend **out, orx_caps *caps) {
  const char *why;
  if (!orx_cu_ready(&why))
    return orx_fail(ctx, OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE, "CUDA cannot run here: %s", why);
  orx_backend *be = orx_calloc(1, sizeof *be);
  if (!be)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  be->profiling = profiling;
  ocl_reduce_status status = OCL_REDUCE_OK;
  CUresult r = CUDA_SUCCESS;
  if (native_queue) {
    status = take_stream(ctx, be, (CUstream)native_queue);
  } else {
    status = pick(ctx, selector, &be->ordinal);
    if (status == OCL_REDUCE_OK &&
        (r = orx_cu.DeviceGet(&be->device, be->ordinal)) == CUDA_SUCCESS &&
        (r = orx_cu.DevicePrimaryCtxRetain(&be->context, be->device)) != CUDA_SUCCESS)
      be->context = NULL;
    if (status == OCL_REDUCE_OK && r != CUDA_SUCCESS)
      status = orx_cu_fail(ctx, "cuDevicePrimaryCtxRetain", r);
  }
  if (status == OCL_REDUCE_OK && (status = orx_cu_enter(ctx, be)) == OCL_REDUCE_OK) {
    /* A blocking stream: ordered after the legacy default stream, which cudaMemcpy uses. */
    if (!be->application_stream)
      r = orx_cu.StreamCreate(&be->stream, CU_STREAM_DEFAULT);
    if (r == CUDA_SUCCESS && (r = orx_cu.EventCreate(&be->start, CU_EVENT_DEFAULT)) == CUDA_SUCCESS)
      r = orx_cu.EventCreate(&be->stop, CU_EVENT_DEFAULT);
    orx_cu_leave();
    if (r != CUDA_SUCCESS)
      status = orx_cu_fail(ctx, "cuStreamCreate/cuEventCreate", r);
  }
  if (status != OCL_REDUCE_OK) {
    orx_cu_close(be);
    return status;
  }
  be->arch = 10 * orx_cu_attribute(be, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
             orx_cu_attribute(be, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  read_caps(be, caps);
  *out = be;
  return OCL_REDUCE_OK;
}

/* OCL_REDUCE_BACKEND=auto: an NVIDIA GPU that OpenCL opened runs through CUDA (the same GPU,
 * found by its PCI address, else by its name), and so does the caller's selector when OpenCL
 * found no device at all; where CUDA cannot run here, OpenCL keeps it. */
int orx_cu_adopt(const orx_caps *opened, const char *selector, char *out, size_t size) {
  const char *why;
  const int nvidia_gpu = opened && opened->type == OCL_REDUCE_DEVICE_GPU &&
                         strstr(opened->platform_name, "NVIDIA") != NULL;
  if ((opened && !nvidia_gpu) || !orx_cu_ready(&why))
    return 0;
  if (!opened)
    snprintf(out, size, "%s", selector ? selector : "");
  else if (opened->has_pci_address)
    snprintf(out, size, "pci:%x:%x:%x", opened->pci_domain, opened->pci_bus, opened->pci_device);
  else
    snprintf(out, size, "%s", opened->device_name);
  return 1;
}
