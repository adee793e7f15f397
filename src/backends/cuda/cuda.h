/* =================================================================================================
 * cuda.h: what the files of the CUDA backend share. They are the only ones that include cuda.h
 * and nvrtc.h, for their types: nothing CUDA is linked. The driver (libcuda.so.1) and NVRTC are
 * opened with dlopen on first use (loader.c), so the library loads and works on machines without
 * them, and says why when CUDA is asked for there. devices.c lists, opens and describes devices;
 * backend.c builds, allocates, copies and launches, and holds the table of backend.h.
 *
 * Kernels are the same cl/ texts as on OpenCL, behind cl/lib/orx_cuda_prelude.cl, compiled by
 * NVRTC to a cubin for the device's architecture. The context is the device's primary context,
 * shared with the CUDA runtime, so that an application's cudaMalloc pointers can be wrapped; work
 * goes to one stream of our own that synchronises with the legacy default stream.
 * ============================================================================================== */
#ifndef ORX_CUDA_H
#define ORX_CUDA_H

#include <cuda.h>
#include <nvrtc.h>

#include "backends/backend.h"

/* The driver's and NVRTC's entry points this backend calls (loader.c). */
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
  CUresult (*StreamWaitEvent)(CUstream, CUevent, unsigned int);
  CUresult (*StreamGetCtx)(CUstream, CUcontext *);
  CUresult (*CtxGetDevice)(CUdevice *);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, CUstream, void **, void **);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
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
  nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetPTX)(nvrtcProgram, char *);
  nvrtcResult (*DestroyProgram)(nvrtcProgram *);
  const char *(*GetErrorString)(nvrtcResult);
  nvrtcResult (*Version)(int *, int *);
} cuda_api;

extern cuda_api orx_cu;

/* Loads the driver and NVRTC once per process; 1 when CUDA can run here (driver, NVRTC and a
 * device), else 0 and the reason. */
int orx_cu_ready(const char **why);
/* NVRTC alone (compiling without a device). */
int orx_cu_nvrtc_ready(const char **why);
/* The name of a driver error, and a failed driver call recorded on ctx. */
const char *orx_cu_name(CUresult r);
ocl_reduce_status orx_cu_fail(ocl_reduce_context *ctx, const char *call, CUresult r);
/* Compiles the sources (one translation unit) to a cubin for sm_<arch>; *image is malloc'd,
 * of *image_size bytes. quick, for checks of the translation only: NVRTC's least optimization
 * effort (--Ofast-compile=max, NVRTC 13 and newer), and only as far as PTX for compute_<arch>
 * (no ptxas), which *image then holds as text (see cuda_compile_only). */
ocl_reduce_status orx_cu_compile(ocl_reduce_context *ctx, const orx_source *sources, size_t count,
                                 int arch, int quick, char **image, size_t *image_size);
/* "NVRTC <major>.<minor>", the compiler's version (a disk cache key), or "" when unknown. */
void orx_cu_compiler_version(char *text, size_t size);

#define CU_CHECK(ctx, call, expr)                                                                  \
  do {                                                                                             \
    CUresult cu_check_result_ = (expr);                                                            \
    if (cu_check_result_ != CUDA_SUCCESS)                                                          \
      return orx_cu_fail((ctx), (call), cu_check_result_);                                         \
  } while (0)

struct orx_backend {
  CUdevice device;
  int ordinal;
  CUcontext context; /* primary context, retained; or the application's stream's */
  CUstream stream;
  int application_stream; /* the stream and its context are the application's: kept at close */
  CUevent start, stop;
  int profiling;
  int arch; /* compute capability, 90 for sm_90 */
};

struct orx_program {
  CUmodule module;
  CUfunction function;
  char *cubin; /* the image the module was loaded from, for program_binary (the disk cache) */
  size_t cubin_size;
};

struct orx_mem {
  CUdeviceptr ptr;
  void *host; /* mapped pinned host memory (alloc_host_visible) */
  int owned;  /* allocated here, freed on release */
};

/* Every call runs with our context current and gives the caller's back afterwards. */
ocl_reduce_status orx_cu_enter(ocl_reduce_context *ctx, orx_backend *be);
void orx_cu_leave(void);

/* copies.c: the table's copy slots. */
ocl_reduce_status orx_cu_write(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                               size_t offset, const void *src, size_t bytes);
ocl_reduce_status orx_cu_read(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                              size_t offset, void *dst, size_t bytes);
ocl_reduce_status orx_cu_copy(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                              size_t src_offset, orx_mem *dst, size_t dst_offset, size_t bytes);
ocl_reduce_status orx_cu_write_async(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                                     size_t offset, const void *src, size_t bytes);
ocl_reduce_status orx_cu_read_async(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                                    size_t offset, void *dst, size_t bytes);
ocl_reduce_status orx_cu_alloc_pinned(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                      orx_mem **out, void **host);
ocl_reduce_status orx_cu_wait_marker(ocl_reduce_context *ctx, orx_backend *be, void *event);
int orx_cu_host_is_pinned(orx_backend *be, const void *host, size_t bytes);

/* What names this backend's devices: "cuda:N" (backend.h's selector_prefix). */
#define ORX_CUDA_SELECTOR_PREFIX "cuda:"

/* devices.c: the table's device slots. */
ocl_reduce_status orx_cu_list_devices(ocl_reduce_context *ctx, ocl_reduce_device_desc *out,
                                      size_t capacity, size_t *count);
ocl_reduce_status orx_cu_open(ocl_reduce_context *ctx, const char *selector, void *native_queue,
                              int profiling, orx_backend **out, orx_caps *caps);
void orx_cu_close(orx_backend *be);
int orx_cu_adopt(const orx_caps *opened, const char *selector, char *out, size_t size);
int orx_cu_attribute(orx_backend *be, CUdevice_attribute which);

#endif /* ORX_CUDA_H */
