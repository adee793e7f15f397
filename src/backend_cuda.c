/* =================================================================================================
 * backend_cuda.c: the CUDA implementation of the backend table (backend.h). The only file that
 * includes cuda.h and nvrtc.h, for their types: nothing CUDA is linked. The driver (libcuda.so.1)
 * and NVRTC are opened with dlopen on first use, so the library loads and works on machines
 * without them, and says why when CUDA is asked for there.
 *
 * Kernels are the same cl/ texts as on OpenCL, behind cl/orx_cuda_prelude.cl, compiled by NVRTC to
 * a cubin for the device's architecture. The context is the device's primary context, shared with
 * the CUDA runtime, so that an application's cudaMalloc pointers can be wrapped; work goes to one
 * stream of our own that synchronises with the legacy default stream.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "select.h"

/* ---- The driver and NVRTC, loaded on demand ------------------------------------------------ */

typedef struct cuda_api {
  CUresult (*Init)(unsigned int);
  CUresult (*DriverGetVersion)(int *);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
  CUresult (*DeviceTotalMem)(size_t *, CUdevice);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*DevicePrimaryCtxRelease)(CUdevice);
  CUresult (*CtxPushCurrent)(CUcontext);
  CUresult (*CtxPopCurrent)(CUcontext *);
  CUresult (*StreamCreate)(CUstream *, unsigned int);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, CUstream, void **, void **);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*MemHostAlloc)(void **, size_t, unsigned int);
  CUresult (*MemFreeHost)(void *);
  CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned int);
  CUresult (*MemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);
  CUresult (*PointerGetAttribute)(void *, CUpointer_attribute, CUdeviceptr);
  CUresult (*EventCreate)(CUevent *, unsigned int);
  CUresult (*EventDestroy)(CUevent);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*GetErrorName)(CUresult, const char **);

  nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int,
                               const char *const *, const char *const *);
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetCUBIN)(nvrtcProgram, char *);
  nvrtcResult (*DestroyProgram)(nvrtcProgram *);
  const char *(*GetErrorString)(nvrtcResult);
} cuda_api;

static cuda_api api;
static char api_error[512];   /* why the driver is unusable; "" when it loaded */
static char nvrtc_error[512]; /* why NVRTC is unusable; "" when it loaded */
static pthread_once_t api_once = PTHREAD_ONCE_INIT, nvrtc_once = PTHREAD_ONCE_INIT;

/* The versioned entry points cuda.h maps its names to (cuMemAlloc -> cuMemAlloc_v2, ...). */
static const struct {
  const char *name;
  size_t offset;
} driver_symbols[] = {
#define SYM(field, symbol) {symbol, offsetof(cuda_api, field)}
    SYM(Init, "cuInit"),
    SYM(DriverGetVersion, "cuDriverGetVersion"),
    SYM(DeviceGetCount, "cuDeviceGetCount"),
    SYM(DeviceGet, "cuDeviceGet"),
    SYM(DeviceGetName, "cuDeviceGetName"),
    SYM(DeviceGetAttribute, "cuDeviceGetAttribute"),
    SYM(DeviceTotalMem, "cuDeviceTotalMem_v2"),
    SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    SYM(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
    SYM(CtxPushCurrent, "cuCtxPushCurrent_v2"),
    SYM(CtxPopCurrent, "cuCtxPopCurrent_v2"),
    SYM(StreamCreate, "cuStreamCreate"),
    SYM(StreamDestroy, "cuStreamDestroy_v2"),
    SYM(StreamSynchronize, "cuStreamSynchronize"),
    SYM(ModuleLoadData, "cuModuleLoadData"),
    SYM(ModuleUnload, "cuModuleUnload"),
    SYM(ModuleGetFunction, "cuModuleGetFunction"),
    SYM(LaunchKernel, "cuLaunchKernel"),
    SYM(MemAlloc, "cuMemAlloc_v2"),
    SYM(MemFree, "cuMemFree_v2"),
    SYM(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
    SYM(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
    SYM(MemHostAlloc, "cuMemHostAlloc"),
    SYM(MemFreeHost, "cuMemFreeHost"),
    SYM(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"),
    SYM(MemGetAddressRange, "cuMemGetAddressRange_v2"),
    SYM(PointerGetAttribute, "cuPointerGetAttribute"),
    SYM(EventCreate, "cuEventCreate"),
    SYM(EventDestroy, "cuEventDestroy_v2"),
    SYM(EventRecord, "cuEventRecord"),
    SYM(EventSynchronize, "cuEventSynchronize"),
    SYM(EventElapsedTime, "cuEventElapsedTime"),
    SYM(GetErrorName, "cuGetErrorName"),
}, nvrtc_symbols[] = {
    SYM(CreateProgram, "nvrtcCreateProgram"),
    SYM(CompileProgram, "nvrtcCompileProgram"),
    SYM(GetProgramLogSize, "nvrtcGetProgramLogSize"),
    SYM(GetProgramLog, "nvrtcGetProgramLog"),
    SYM(GetCUBINSize, "nvrtcGetCUBINSize"),
    SYM(GetCUBIN, "nvrtcGetCUBIN"),
    SYM(DestroyProgram, "nvrtcDestroyProgram"),
    SYM(GetErrorString, "nvrtcGetErrorString"),
#undef SYM
};

/* NVRTC: the soname of this toolkit's major version, then others, then the toolkit's folder. */
static void *open_nvrtc(void) {
  static const char *const names[] = {
      "libnvrtc.so." ORX_STRINGIFY(CUDA_VERSION_MAJOR), "libnvrtc.so.13", "libnvrtc.so.12",
      "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so"};
  for (size_t i = 0; i < ORX_ARRAY_SIZE(names); i++) {
    void *handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (handle)
      return handle;
  }
  const char *home = orx_env("CUDA_HOME") ? orx_env("CUDA_HOME") : orx_env("CUDA_PATH");
  if (home) {
    char path[1024];
    snprintf(path, sizeof path, "%s/lib64/libnvrtc.so", home);
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
  }
  return NULL;
}

static int resolve(void *handle, const char *library, const void *symbols, size_t count,
                   char *error, size_t error_size) {
  const struct {
    const char *name;
    size_t offset;
  } *list = symbols;
  for (size_t i = 0; i < count; i++) {
    void *f = dlsym(handle, list[i].name);
    if (!f) {
      snprintf(error, error_size, "%s lacks %s", library, list[i].name);
      return 0;
    }
    memcpy((char *)&api + list[i].offset, &f, sizeof f);
  }
  return 1;
}

static void load_nvrtc(void) {
  void *nvrtc = open_nvrtc();
  if (!nvrtc) {
    snprintf(nvrtc_error, sizeof nvrtc_error,
             "libnvrtc.so not found (install the CUDA toolkit's NVRTC, or set CUDA_HOME)");
    return;
  }
  if (resolve(nvrtc, "libnvrtc", nvrtc_symbols, ORX_ARRAY_SIZE(nvrtc_symbols), nvrtc_error,
              sizeof nvrtc_error))
    nvrtc_error[0] = '\0';
}

static void load_api(void) {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    snprintf(api_error, sizeof api_error, "libcuda.so.1 not found (no NVIDIA driver): %s",
             dlerror());
    return;
  }
  if (!resolve(driver, "libcuda.so.1", driver_symbols, ORX_ARRAY_SIZE(driver_symbols), api_error,
               sizeof api_error))
    return;
  CUresult r = api.Init(0);
  if (r != CUDA_SUCCESS) {
    const char *name = "?";
    api.GetErrorName(r, &name);
    snprintf(api_error, sizeof api_error, "cuInit returned %s (%d)%s", name, (int)r,
             r == CUDA_ERROR_NO_DEVICE ? ": no CUDA device" : "");
    return;
  }
  int devices = 0;
  if (api.DeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0) {
    snprintf(api_error, sizeof api_error, "no CUDA device");
    return;
  }
  api_error[0] = '\0';
}

static int nvrtc_ready(const char **why) {
  pthread_once(&nvrtc_once, load_nvrtc);
  *why = nvrtc_error;
  return nvrtc_error[0] == '\0';
}

/* Loads the driver and NVRTC once per process; returns 1 when CUDA can run here, else 0 with the
 * reason. */
static int api_ready(const char **why) {
  pthread_once(&api_once, load_api);
  *why = api_error;
  return api_error[0] == '\0' && nvrtc_ready(why);
}

static const char *cu_name(CUresult r) {
  const char *name = "unknown CUDA error";
  if (api.GetErrorName)
    api.GetErrorName(r, &name);
  return name;
}

static ocl_reduce_status cu_fail(ocl_reduce_context *ctx, const char *call, CUresult r) {
  ocl_reduce_status status = OCL_REDUCE_ERROR_BACKEND;
  if (r == CUDA_ERROR_OUT_OF_MEMORY)
    status = OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY;
  return orx_fail(ctx, status, "%s returned %s (%d)", call, cu_name(r), (int)r);
}

#define CU_CHECK(ctx, call, expr)                                                                  \
  do {                                                                                             \
    CUresult cu_check_result_ = (expr);                                                            \
    if (cu_check_result_ != CUDA_SUCCESS)                                                          \
      return cu_fail((ctx), (call), cu_check_result_);                                             \
  } while (0)

/* ---- Backend state ------------------------------------------------------------------------------ */

struct orx_backend {
  CUdevice device;
  int ordinal;
  CUcontext context; /* primary context, retained */
  CUstream stream;
  CUevent start, stop;
  int profiling;
  int arch; /* compute capability, 90 for sm_90 */
};

struct orx_program {
  CUmodule module;
  CUfunction function;
};

struct orx_mem {
  CUdeviceptr ptr;
  void *host; /* mapped pinned host memory (alloc_host_visible) */
  int owned;  /* allocated here, freed on release */
};

/* Every call runs with our context current and gives the caller's back afterwards. */
static ocl_reduce_status enter(ocl_reduce_context *ctx, orx_backend *be) {
  CU_CHECK(ctx, "cuCtxPushCurrent", api.CtxPushCurrent(be->context));
  return OCL_REDUCE_OK;
}

static void leave(void) {
  CUcontext ignored;
  api.CtxPopCurrent(&ignored);
}

/* ---- Devices -------------------------------------------------------------------------------------- */

static ocl_reduce_status cuda_list_devices(ocl_reduce_context *ctx, ocl_reduce_device_desc *out,
                                           size_t capacity, size_t *count) {
  (void)ctx;
  const char *why;
  *count = 0;
  if (!api_ready(&why))
    return OCL_REDUCE_OK; /* no CUDA here is not an error for a listing */
  int n = 0;
  api.DeviceGetCount(&n);
  for (int i = 0; i < n; i++) {
    if ((size_t)i < capacity) {
      ocl_reduce_device_desc *d = &out[i];
      memset(d, 0, sizeof *d);
      CUdevice dev;
      api.DeviceGet(&dev, i);
      d->backend = OCL_REDUCE_BACKEND_CUDA;
      d->device_index = (unsigned)i;
      snprintf(d->selector, sizeof d->selector, "cuda:%d", i);
      snprintf(d->platform_name, sizeof d->platform_name, "CUDA");
      api.DeviceGetName(d->device_name, (int)sizeof d->device_name, dev);
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
  api.DeviceGetCount(&n);
  unsigned domain, bus, device;
  if (selector && sscanf(selector, "pci:%x:%x:%x", &domain, &bus, &device) == 3) {
    for (int i = 0; i < n; i++) {
      CUdevice dev;
      int d = -1, b = -1, v = -1;
      api.DeviceGet(&dev, i);
      api.DeviceGetAttribute(&d, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, dev);
      api.DeviceGetAttribute(&b, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev);
      api.DeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, dev);
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
  ORX_FORWARD(cuda_list_devices(ctx, descs, 64, &count));
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

static int attribute(orx_backend *be, CUdevice_attribute which) {
  int value = 0;
  api.DeviceGetAttribute(&value, which, be->device);
  return value;
}

static void read_caps(orx_backend *be, orx_caps *caps) {
  memset(caps, 0, sizeof *caps);
  int driver = 0;
  api.DriverGetVersion(&driver);
  snprintf(caps->platform_name, sizeof caps->platform_name, "CUDA");
  snprintf(caps->platform_version, sizeof caps->platform_version, "CUDA driver %d.%d",
           driver / 1000, (driver % 1000) / 10);
  api.DeviceGetName(caps->device_name, (int)sizeof caps->device_name, be->device);
  snprintf(caps->device_version, sizeof caps->device_version, "compute capability %d.%d",
           be->arch / 10, be->arch % 10);
  snprintf(caps->driver_version, sizeof caps->driver_version, "%d", driver);
  caps->device_index = (unsigned)be->ordinal;
  caps->type = OCL_REDUCE_DEVICE_GPU;
  caps->compute_units = (unsigned)attribute(be, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  caps->max_work_group_size = (size_t)attribute(be, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  caps->local_mem_bytes =
      (uint64_t)attribute(be, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  size_t total = 0;
  api.DeviceTotalMem(&total, be->device);
  caps->global_mem_bytes = total;
  caps->max_alloc_bytes = total;
  caps->base_align_bytes = 256; /* cuMemAlloc; wrapped pointers report their own misalignment */
  caps->has_fp64 = 1;
  caps->nv_warp_size = (unsigned)attribute(be, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  caps->has_cuda_shuffle = 1;
  caps->host_visible_memory = attribute(be, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY) != 0;
}

/* ---- Life cycle -------------------------------------------------------------------------------- */

static void cuda_close(orx_backend *be) {
  if (!be)
    return;
  if (be->context && api.CtxPushCurrent(be->context) == CUDA_SUCCESS) {
    if (be->start)
      api.EventDestroy(be->start);
    if (be->stop)
      api.EventDestroy(be->stop);
    if (be->stream)
      api.StreamDestroy(be->stream);
    leave();
    api.DevicePrimaryCtxRelease(be->device);
  }
  free(be);
}

static ocl_reduce_status cuda_open(ocl_reduce_context *ctx, const char *selector, void *native_queue,
                                   int profiling, orx_backend **out, orx_caps *caps) {
  const char *why;
  if (native_queue)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "the CUDA backend does not take an OpenCL queue");
  if (!api_ready(&why))
    return orx_fail(ctx, OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE, "CUDA cannot run here: %s", why);
  orx_backend *be = calloc(1, sizeof *be);
  if (!be)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  be->profiling = profiling;
  ocl_reduce_status status = pick(ctx, selector, &be->ordinal);
  CUresult r = CUDA_SUCCESS;
  if (status == OCL_REDUCE_OK && (r = api.DeviceGet(&be->device, be->ordinal)) == CUDA_SUCCESS &&
      (r = api.DevicePrimaryCtxRetain(&be->context, be->device)) != CUDA_SUCCESS)
    be->context = NULL;
  if (status == OCL_REDUCE_OK && r != CUDA_SUCCESS)
    status = cu_fail(ctx, "cuDevicePrimaryCtxRetain", r);
  if (status == OCL_REDUCE_OK && (status = enter(ctx, be)) == OCL_REDUCE_OK) {
    /* A blocking stream: ordered after the legacy default stream, which cudaMemcpy uses. */
    if ((r = api.StreamCreate(&be->stream, CU_STREAM_DEFAULT)) == CUDA_SUCCESS &&
        (r = api.EventCreate(&be->start, CU_EVENT_DEFAULT)) == CUDA_SUCCESS)
      r = api.EventCreate(&be->stop, CU_EVENT_DEFAULT);
    leave();
    if (r != CUDA_SUCCESS)
      status = cu_fail(ctx, "cuStreamCreate", r);
  }
  if (status != OCL_REDUCE_OK) {
    cuda_close(be);
    return status;
  }
  be->arch = 10 * attribute(be, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
             attribute(be, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  read_caps(be, caps);
  *out = be;
  return OCL_REDUCE_OK;
}

/* ---- Programs ---------------------------------------------------------------------------------- */

static void cuda_release_program(orx_program *p) {
  if (!p)
    return;
  if (p->module)
    api.ModuleUnload(p->module);
  free(p);
}

/* Compiles the sources (one translation unit) to a cubin for sm_<arch>; *cubin is malloc'd. */
static ocl_reduce_status compile(ocl_reduce_context *ctx, const orx_source *sources, size_t count,
                                 int arch, char **cubin) {
  size_t total = 1;
  for (size_t i = 0; i < count; i++)
    total += sources[i].length + 1;
  char *text = malloc(total), *at = text;
  if (!text)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  for (size_t i = 0; i < count; i++) {
    memcpy(at, sources[i].text, sources[i].length);
    at += sources[i].length;
    *at++ = '\n';
  }
  *at = '\0';
  nvrtcProgram program = NULL;
  nvrtcResult r = api.CreateProgram(&program, text, "ocl_reduce.cu", 0, NULL, NULL);
  free(text);
  if (r != NVRTC_SUCCESS)
    return orx_fail(ctx, OCL_REDUCE_ERROR_BACKEND, "nvrtcCreateProgram: %s", api.GetErrorString(r));
  char arch_option[64];
  snprintf(arch_option, sizeof arch_option, "--gpu-architecture=sm_%d", arch);
  const char *options[] = {arch_option, "--std=c++17", "--device-as-default-execution-space"};
  r = api.CompileProgram(program, (int)ORX_ARRAY_SIZE(options), options);
  ocl_reduce_status status = OCL_REDUCE_OK;
  size_t log_size = 0;
  api.GetProgramLogSize(program, &log_size);
  char *log = log_size > 1 ? calloc(log_size + 1, 1) : NULL;
  if (log)
    api.GetProgramLog(program, log);
  if (r != NVRTC_SUCCESS) {
    status = orx_fail(ctx, OCL_REDUCE_ERROR_BUILD, "nvrtcCompileProgram (%s) returned %s",
                      arch_option, api.GetErrorString(r));
    if (log) {
      orx_error_append(ctx, "\nbuild log:\n");
      orx_error_append(ctx, log);
    }
  } else {
    if (log)
      orx_log("NVRTC log:\n%s", log);
    size_t size = 0;
    api.GetCUBINSize(program, &size);
    *cubin = malloc(size ? size : 1);
    if (!*cubin)
      status = orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    else
      api.GetCUBIN(program, *cubin);
  }
  free(log);
  api.DestroyProgram(&program);
  return status;
}

static ocl_reduce_status cuda_build(ocl_reduce_context *ctx, orx_backend *be,
                                    const orx_source *sources, size_t count,
                                    const char *kernel_name, unsigned wg_size, orx_program **out,
                                    unsigned *subgroup_size) {
  (void)wg_size;
  char *cubin = NULL;
  ORX_FORWARD(compile(ctx, sources, count, be->arch, &cubin));
  orx_program *p = calloc(1, sizeof *p);
  ocl_reduce_status status = p ? enter(ctx, be)
                               : orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of memory");
  if (status == OCL_REDUCE_OK) {
    CUresult r = api.ModuleLoadData(&p->module, cubin);
    if (r == CUDA_SUCCESS)
      r = api.ModuleGetFunction(&p->function, p->module, kernel_name);
    leave();
    if (r != CUDA_SUCCESS)
      status = cu_fail(ctx, "cuModuleLoadData/cuModuleGetFunction", r);
  }
  free(cubin);
  if (status != OCL_REDUCE_OK) {
    cuda_release_program(p);
    return status;
  }
  *subgroup_size = (unsigned)attribute(be, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  *out = p;
  return OCL_REDUCE_OK;
}

/* ---- Memory ------------------------------------------------------------------------------------ */

static void cuda_release_mem(orx_mem *m) {
  if (!m)
    return;
  if (m->host)
    api.MemFreeHost(m->host);
  else if (m->owned && m->ptr)
    api.MemFree(m->ptr);
  free(m);
}

static ocl_reduce_status cuda_alloc(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                    orx_mem **out) {
  orx_mem *m = calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  ocl_reduce_status status = enter(ctx, be);
  if (status == OCL_REDUCE_OK) {
    CUresult r = api.MemAlloc(&m->ptr, bytes);
    leave();
    if (r != CUDA_SUCCESS)
      status = orx_fail(ctx,
                        r == CUDA_ERROR_OUT_OF_MEMORY ? OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY
                                                      : OCL_REDUCE_ERROR_BACKEND,
                        "cuMemAlloc(%zu bytes) returned %s (%d)", bytes, cu_name(r), (int)r);
  }
  if (status != OCL_REDUCE_OK) {
    free(m);
    return status;
  }
  m->owned = 1;
  *out = m;
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cuda_alloc_host_visible(ocl_reduce_context *ctx, orx_backend *be,
                                                 size_t bytes, orx_mem **out, void **host) {
  orx_mem *m = calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  ocl_reduce_status status = enter(ctx, be);
  if (status == OCL_REDUCE_OK) {
    CUresult r = api.MemHostAlloc(&m->host, bytes,
                                  CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    if (r == CUDA_SUCCESS)
      r = api.MemHostGetDevicePointer(&m->ptr, m->host, 0);
    leave();
    if (r != CUDA_SUCCESS)
      status = cu_fail(ctx, "cuMemHostAlloc(mapped)", r);
  }
  if (status != OCL_REDUCE_OK) {
    cuda_release_mem(m);
    return status;
  }
  *out = m;
  *host = m->host;
  return OCL_REDUCE_OK;
}

/* native: a `orx_cuda_span` (pointer, bytes) given to ocl_reduce_buffer_wrap_cuda. */
static ocl_reduce_status cuda_wrap(ocl_reduce_context *ctx, orx_backend *be, void *native,
                                   orx_mem **out, size_t *bytes) {
  const orx_cuda_span *span = native;
  ORX_FORWARD(enter(ctx, be));
  CUcontext owner = NULL;
  CUdeviceptr base = 0;
  size_t size = 0;
  CUresult r = api.PointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, span->pointer);
  if (r == CUDA_SUCCESS)
    r = api.MemGetAddressRange(&base, &size, span->pointer);
  leave();
  if (r != CUDA_SUCCESS)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "device_pointer 0x%llx is not CUDA device memory (%s)",
                    (unsigned long long)span->pointer, cu_name(r));
  if (owner != be->context)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "device_pointer belongs to another CUDA context than the device's primary "
                    "context");
  if (span->pointer - base > size || span->bytes > size - (span->pointer - base))
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_RANGE,
                    "%zu bytes at device_pointer reach beyond its allocation of %zu bytes",
                    span->bytes, size);
  orx_mem *m = calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  m->ptr = span->pointer;
  *bytes = span->bytes;
  *out = m;
  return OCL_REDUCE_OK;
}

static size_t cuda_misalignment(const orx_mem *m) { return (size_t)(m->ptr % 256); }

static ocl_reduce_status cuda_write(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                                    size_t offset, const void *src, size_t bytes) {
  ORX_FORWARD(enter(ctx, be));
  CUresult r = api.MemcpyHtoDAsync(dst->ptr + offset, src, bytes, be->stream);
  if (r == CUDA_SUCCESS)
    r = api.StreamSynchronize(be->stream);
  leave();
  if (r != CUDA_SUCCESS)
    return cu_fail(ctx, "cuMemcpyHtoDAsync", r);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cuda_read(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                                   size_t offset, void *dst, size_t bytes) {
  ORX_FORWARD(enter(ctx, be));
  CUresult r = api.MemcpyDtoHAsync(dst, src->ptr + offset, bytes, be->stream);
  if (r == CUDA_SUCCESS)
    r = api.StreamSynchronize(be->stream);
  leave();
  if (r != CUDA_SUCCESS)
    return cu_fail(ctx, "cuMemcpyDtoHAsync", r);
  return OCL_REDUCE_OK;
}

/* ---- Launch --------------------------------------------------------------------------------------- */

static ocl_reduce_status cuda_launch(ocl_reduce_context *ctx, orx_backend *be,
                                     orx_program *program, size_t groups, unsigned wg_size,
                                     const orx_arg *args, size_t nargs, uint64_t *kernel_ns) {
  uint64_t values[16];
  void *params[16];
  if (nargs > ORX_ARRAY_SIZE(values))
    return orx_fail(ctx, OCL_REDUCE_ERROR_INTERNAL, "too many kernel arguments (%zu)", nargs);
  if (groups > 0x7fffffffu)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INTERNAL, "grid of %zu blocks", groups);
  unsigned narrow[16];
  for (size_t i = 0; i < nargs; i++) {
    if (args[i].kind == ORX_ARG_U32) {
      narrow[i] = (unsigned)args[i].value;
      params[i] = &narrow[i];
    } else {
      values[i] = args[i].kind == ORX_ARG_MEM ? (uint64_t)args[i].mem->ptr : args[i].value;
      params[i] = &values[i];
    }
  }
  ORX_FORWARD(enter(ctx, be));
  CUresult r = CUDA_SUCCESS;
  if (kernel_ns)
    r = api.EventRecord(be->start, be->stream);
  if (r == CUDA_SUCCESS)
    r = api.LaunchKernel(program->function, (unsigned)groups, 1, 1, wg_size, 1, 1, 0, be->stream,
                         params, NULL);
  float ms = 0;
  if (kernel_ns && r == CUDA_SUCCESS && (r = api.EventRecord(be->stop, be->stream)) == CUDA_SUCCESS &&
      (r = api.EventSynchronize(be->stop)) == CUDA_SUCCESS)
    r = api.EventElapsedTime(&ms, be->start, be->stop);
  leave();
  if (r != CUDA_SUCCESS)
    return cu_fail(ctx, "cuLaunchKernel", r);
  if (kernel_ns)
    *kernel_ns = (uint64_t)((double)ms * 1e6);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cuda_finish(ocl_reduce_context *ctx, orx_backend *be) {
  ORX_FORWARD(enter(ctx, be));
  CUresult r = api.StreamSynchronize(be->stream);
  leave();
  if (r != CUDA_SUCCESS)
    return cu_fail(ctx, "cuStreamSynchronize", r);
  return OCL_REDUCE_OK;
}

static void cuda_native(orx_backend *be, void **context, void **device, void **queue) {
  *context = be->context;
  *device = (void *)(intptr_t)be->device;
  *queue = be->stream;
}

int orx_cuda_available(const char **why) { return api_ready(why); }

ocl_reduce_status orx_cuda_compile_only(ocl_reduce_context *ctx, const orx_source *sources,
                                        size_t count, int arch) {
  const char *why;
  if (!nvrtc_ready(&why))
    return orx_fail(ctx, OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE, "%s", why);
  char *cubin = NULL;
  ocl_reduce_status status = compile(ctx, sources, count, arch, &cubin);
  free(cubin);
  return status;
}

const orx_backend_ops orx_cuda_backend = {
    .name = "cuda",
    .kind = OCL_REDUCE_BACKEND_CUDA,
    .prelude = "orx_cuda_prelude.cl",
    .list_devices = cuda_list_devices,
    .open = cuda_open,
    .close = cuda_close,
    .build = cuda_build,
    .release_program = cuda_release_program,
    .alloc = cuda_alloc,
    .wrap = cuda_wrap,
    .release_mem = cuda_release_mem,
    .misalignment = cuda_misalignment,
    .alloc_host_visible = cuda_alloc_host_visible,
    .finish = cuda_finish,
    .write = cuda_write,
    .read = cuda_read,
    .launch = cuda_launch,
    .native = cuda_native,
};
