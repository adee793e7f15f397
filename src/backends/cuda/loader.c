/* =================================================================================================
 * loader.c: the CUDA driver and NVRTC, opened with dlopen on first use (cuda.h); driver errors as
 * statuses; and compiling a program to a cubin with NVRTC.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda.h"

cuda_api orx_cu;
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
    SYM(StreamWaitEvent, "cuStreamWaitEvent"),
    SYM(StreamGetCtx, "cuStreamGetCtx"),
    SYM(CtxGetDevice, "cuCtxGetDevice"),
    SYM(ModuleLoadData, "cuModuleLoadData"),
    SYM(ModuleUnload, "cuModuleUnload"),
    SYM(ModuleGetFunction, "cuModuleGetFunction"),
    SYM(LaunchKernel, "cuLaunchKernel"),
    SYM(MemAlloc, "cuMemAlloc_v2"),
    SYM(MemFree, "cuMemFree_v2"),
    SYM(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
    SYM(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
    SYM(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
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
    SYM(GetPTXSize, "nvrtcGetPTXSize"),
    SYM(GetPTX, "nvrtcGetPTX"),
    SYM(DestroyProgram, "nvrtcDestroyProgram"),
    SYM(GetErrorString, "nvrtcGetErrorString"),
    SYM(Version, "nvrtcVersion"),
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
    memcpy((char *)&orx_cu + list[i].offset, &f, sizeof f);
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
  CUresult r = orx_cu.Init(0);
  if (r != CUDA_SUCCESS) {
    const char *name = "?";
    orx_cu.GetErrorName(r, &name);
    snprintf(api_error, sizeof api_error, "cuInit returned %s (%d)%s", name, (int)r,
             r == CUDA_ERROR_NO_DEVICE ? ": no CUDA device" : "");
    return;
  }
  int devices = 0;
  if (orx_cu.DeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0) {
    snprintf(api_error, sizeof api_error, "no CUDA device");
    return;
  }
  api_error[0] = '\0';
}

int orx_cu_nvrtc_ready(const char **why) {
  pthread_once(&nvrtc_once, load_nvrtc);
  *why = nvrtc_error;
  return nvrtc_error[0] == '\0';
}

int orx_cu_ready(const char **why) {
  pthread_once(&api_once, load_api);
  *why = api_error;
  return api_error[0] == '\0' && orx_cu_nvrtc_ready(why);
}

const char *orx_cu_name(CUresult r) {
  const char *name = "unknown CUDA error";
  if (orx_cu.GetErrorName)
    orx_cu.GetErrorName(r, &name);
  return name;
}

ocl_reduce_status orx_cu_fail(ocl_reduce_context *ctx, const char *call, CUresult r) {
  ocl_reduce_status status = OCL_REDUCE_ERROR_BACKEND;
  if (r == CUDA_ERROR_OUT_OF_MEMORY)
    status = OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY;
  return orx_fail(ctx, status, "%s returned %s (%d)", call, orx_cu_name(r), (int)r);
}

void orx_cu_compiler_version(char *text, size_t size) {
  int major = 0, minor = 0;
  const char *why;
  if (orx_cu_nvrtc_ready(&why) && orx_cu.Version(&major, &minor) == NVRTC_SUCCESS)
    snprintf(text, size, "NVRTC %d.%d", major, minor);
  else if (size)
    text[0] = '\0';
}

/* Whether this NVRTC takes --Ofast-compile (13.0 does; older ones are not assumed to). */
static int nvrtc_has_fast_compile(void) {
  int major = 0, minor = 0;
  return orx_cu.Version(&major, &minor) == NVRTC_SUCCESS && major >= 13;
}

#define ORX_NVRTC_MAX_OPTIONS 5

/* NVRTC's options for a compile (see orx_cu_compile) into options; returns their count. */
static int nvrtc_options(const char *arch_option, int quick, const char **options) {
  int count = 0;
  options[count++] = arch_option;
  options[count++] = "--std=c++17";
  options[count++] = "--device-as-default-execution-space";
  /* With OCL_REDUCE_LOG=debug the compile's log carries ptxas's report of each kernel too:
   * registers, stack and spills, what the planner's register caps are read from without a GPU
   * (docs/perf/ptxas-segments-mr-spills.txt). The code is the same either way. */
  if (orx_log_debug() && !quick)
    options[count++] = "--ptxas-options=-v";
  /* CI's check of every plan's text: 105 s at full effort, 64 s so (NVVM's and ptxas's passes,
   * docs/perf/ci-time.txt); it also stops at PTX (orx_cu_compile). */
  if (quick && nvrtc_has_fast_compile())
    options[count++] = "--Ofast-compile=max";
  return count;
}

ocl_reduce_status orx_cu_compile(ocl_reduce_context *ctx, const orx_source *sources, size_t count,
                                 int arch, int quick, char **image, size_t *image_size) {
  size_t total = 1;
  for (size_t i = 0; i < count; i++)
    total += sources[i].length + 1;
  char *text = orx_malloc(total), *at = text;
  if (!text)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  for (size_t i = 0; i < count; i++) {
    memcpy(at, sources[i].text, sources[i].length);
    at += sources[i].length;
    *at++ = '\n';
  }
  *at = '\0';
  nvrtcProgram program = NULL;
  nvrtcResult r = orx_cu.CreateProgram(&program, text, "ocl_reduce.cu", 0, NULL, NULL);
  free(text);
  if (r != NVRTC_SUCCESS)
    return orx_fail(ctx, OCL_REDUCE_ERROR_BACKEND, "nvrtcCreateProgram: %s",
                    orx_cu.GetErrorString(r));
  char arch_option[64];
  snprintf(arch_option, sizeof arch_option, "--gpu-architecture=%s_%d", quick ? "compute" : "sm",
           arch);
  const char *options[ORX_NVRTC_MAX_OPTIONS];
  r = orx_cu.CompileProgram(program, nvrtc_options(arch_option, quick, options), options);
  ocl_reduce_status status = OCL_REDUCE_OK;
  size_t log_size = 0;
  orx_cu.GetProgramLogSize(program, &log_size);
  char *log = log_size > 1 ? orx_calloc(log_size + 1, 1) : NULL;
  if (log)
    orx_cu.GetProgramLog(program, log);
  if (r != NVRTC_SUCCESS) {
    status = orx_fail(ctx, OCL_REDUCE_ERROR_BUILD, "%s: nvrtcCompileProgram (%s) returned %s",
                      orx_call_name(), arch_option, orx_cu.GetErrorString(r));
    if (log) {
      orx_error_append(ctx, "\nbuild log:\n");
      orx_error_append(ctx, log);
    }
  } else {
    if (log)
      orx_log("NVRTC log:\n%s", log);
    size_t size = 0;
    (quick ? orx_cu.GetPTXSize : orx_cu.GetCUBINSize)(program, &size);
    *image = orx_malloc(size ? size : 1);
    *image_size = size;
    if (!*image)
      status = orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    else
      (quick ? orx_cu.GetPTX : orx_cu.GetCUBIN)(program, *image);
  }
  free(log);
  orx_cu.DestroyProgram(&program);
  return status;
}
