/* =================================================================================================
 * backend.c: the CUDA implementation of the backend table (backend.h): programs, memory, copies
 * and launches on the device devices.c opened.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda.h"

/* ---- Programs ----------------------------------------------------------------------------------
 */

static void cuda_release_program(orx_program *p) {
  if (!p)
    return;
  if (p->module)
    orx_cu.ModuleUnload(p->module);
  free(p->cubin);
  free(p);
}

static void cuda_program_native(orx_program *p, void **native_program, void **native_kernel) {
  *native_program = p->module;
  *native_kernel = p->function;
}

/* Loads a cubin (taking it: it is kept for program_binary, or freed on failure) and looks up the
 * kernel. The driver checks the image: a damaged or another architecture's one fails here. */
static ocl_reduce_status load_cubin(ocl_reduce_context *ctx, orx_backend *be, char *cubin,
                                    size_t size, const char *kernel_name, orx_program **out,
                                    unsigned *subgroup_size) {
  orx_program *p = orx_calloc(1, sizeof *p);
  if (!p) {
    free(cubin);
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of memory");
  }
  p->cubin = cubin;
  p->cubin_size = size;
  ocl_reduce_status status = orx_cu_enter(ctx, be);
  if (status == OCL_REDUCE_OK) {
    CUresult r = orx_cu.ModuleLoadData(&p->module, cubin);
    if (r == CUDA_SUCCESS)
      r = orx_cu.ModuleGetFunction(&p->function, p->module, kernel_name);
    orx_cu_leave();
    if (r != CUDA_SUCCESS)
      status = orx_cu_fail(ctx, "cuModuleLoadData/cuModuleGetFunction", r);
  }
  if (status != OCL_REDUCE_OK) {
    cuda_release_program(p);
    return status;
  }
  *subgroup_size = (unsigned)orx_cu_attribute(be, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  *out = p;
  return OCL_REDUCE_OK;
}

/* Compiles the sources (one translation unit) to a cubin for sm_<arch> and loads it. */
static ocl_reduce_status cuda_build(ocl_reduce_context *ctx, orx_backend *be,
                                    const orx_source *sources, size_t count, const char *options,
                                    const char *kernel_name, unsigned wg_size, orx_program **out,
                                    unsigned *subgroup_size) {
  (void)wg_size;
  (void)options; /* CUDA's ordering needs none (caps.device_sync is ORX_SYNC_CUDA) */
  char *cubin = NULL;
  size_t size = 0;
  ORX_FORWARD(orx_cu_compile(ctx, sources, count, be->arch, 0, &cubin, &size));
  return load_cubin(ctx, be, cubin, size, kernel_name, out, subgroup_size);
}

static ocl_reduce_status cuda_build_binary(ocl_reduce_context *ctx, orx_backend *be,
                                           const void *binary, size_t size,
                                           const char *kernel_name, unsigned wg_size,
                                           orx_program **out, unsigned *subgroup_size) {
  (void)wg_size;
  char *cubin = orx_malloc(size ? size : 1);
  if (!cubin)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of memory");
  memcpy(cubin, binary, size);
  return load_cubin(ctx, be, cubin, size, kernel_name, out, subgroup_size);
}

static ocl_reduce_status cuda_program_binary(ocl_reduce_context *ctx, orx_backend *be,
                                             orx_program *p, void **binary, size_t *size) {
  (void)be;
  *binary = p->cubin_size ? orx_malloc(p->cubin_size) : NULL;
  *size = *binary ? p->cubin_size : 0;
  if (p->cubin_size && !*binary)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of memory");
  if (*binary)
    memcpy(*binary, p->cubin, p->cubin_size);
  return OCL_REDUCE_OK;
}

/* ---- Memory ------------------------------------------------------------------------------------
 */

static void cuda_release_mem(orx_mem *m) {
  if (!m)
    return;
  if (m->host)
    orx_cu.MemFreeHost(m->host);
  else if (m->owned && m->ptr)
    orx_cu.MemFree(m->ptr);
  free(m);
}

static ocl_reduce_status cuda_alloc(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                    orx_mem **out) {
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  ocl_reduce_status status = orx_cu_enter(ctx, be);
  if (status == OCL_REDUCE_OK) {
    CUresult r = orx_cu.MemAlloc(&m->ptr, bytes);
    orx_cu_leave();
    if (r != CUDA_SUCCESS)
      status = orx_fail(ctx,
                        r == CUDA_ERROR_OUT_OF_MEMORY ? OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY
                                                      : OCL_REDUCE_ERROR_BACKEND,
                        "cuMemAlloc(%zu bytes) returned %s (%d)", bytes, orx_cu_name(r), (int)r);
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
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  ocl_reduce_status status = orx_cu_enter(ctx, be);
  if (status == OCL_REDUCE_OK) {
    CUresult r = orx_cu.MemHostAlloc(&m->host, bytes,
                                  CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    if (r == CUDA_SUCCESS)
      r = orx_cu.MemHostGetDevicePointer(&m->ptr, m->host, 0);
    orx_cu_leave();
    if (r != CUDA_SUCCESS)
      status = orx_cu_fail(ctx, "cuMemHostAlloc(mapped)", r);
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
  ORX_FORWARD(orx_cu_enter(ctx, be));
  CUcontext owner = NULL;
  CUdeviceptr base = 0;
  size_t size = 0;
  CUresult r = orx_cu.PointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, span->pointer);
  if (r == CUDA_SUCCESS)
    r = orx_cu.MemGetAddressRange(&base, &size, span->pointer);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "device_pointer 0x%llx is not CUDA device memory (%s)",
                    (unsigned long long)span->pointer, orx_cu_name(r));
  if (owner != be->context)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "device_pointer belongs to another CUDA context than the device's primary "
                    "context");
  if (span->pointer - base > size || span->bytes > size - (span->pointer - base))
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_RANGE,
                    "%zu bytes at device_pointer reach beyond its allocation of %zu bytes",
                    span->bytes, size);
  orx_mem *m = orx_calloc(1, sizeof *m);
  if (!m)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  m->ptr = span->pointer;
  *bytes = span->bytes;
  *out = m;
  return OCL_REDUCE_OK;
}

static size_t cuda_misalignment(const orx_mem *m) { return (size_t)(m->ptr % 256); }

static void cuda_mem_native(const orx_mem *m, void **handle, uint64_t *address) {
  *handle = NULL;
  *address = (uint64_t)m->ptr;
}

/* ---- Launch
 * --------------------------------------------------------------------------------------- */

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
  ORX_FORWARD(orx_cu_enter(ctx, be));
  CUresult r = CUDA_SUCCESS;
  if (kernel_ns)
    r = orx_cu.EventRecord(be->start, be->stream);
  if (r == CUDA_SUCCESS)
    r = orx_cu.LaunchKernel(program->function, (unsigned)groups, 1, 1, wg_size, 1, 1, 0, be->stream,
                         params, NULL);
  float ms = 0;
  if (kernel_ns && r == CUDA_SUCCESS &&
      (r = orx_cu.EventRecord(be->stop, be->stream)) == CUDA_SUCCESS &&
      (r = orx_cu.EventSynchronize(be->stop)) == CUDA_SUCCESS)
    r = orx_cu.EventElapsedTime(&ms, be->start, be->stop);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_cu_fail(ctx, "cuLaunchKernel", r);
  if (kernel_ns)
    *kernel_ns = (uint64_t)((double)ms * 1e6);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cuda_finish(ocl_reduce_context *ctx, orx_backend *be) {
  ORX_FORWARD(orx_cu_enter(ctx, be));
  CUresult r = orx_cu.StreamSynchronize(be->stream);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_cu_fail(ctx, "cuStreamSynchronize", r);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cuda_enqueue_wait(ocl_reduce_context *ctx, orx_backend *be,
                                           void *const *events, size_t count) {
  ORX_FORWARD(orx_cu_enter(ctx, be));
  CUresult r = CUDA_SUCCESS;
  for (size_t i = 0; i < count && r == CUDA_SUCCESS; i++)
    r = orx_cu.StreamWaitEvent(be->stream, (CUevent)events[i], 0);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_cu_fail(ctx, "cuStreamWaitEvent", r);
  return OCL_REDUCE_OK;
}

static ocl_reduce_status cuda_enqueue_marker(ocl_reduce_context *ctx, orx_backend *be,
                                             void **event) {
  ORX_FORWARD(orx_cu_enter(ctx, be));
  CUevent marker = NULL;
  CUresult r = orx_cu.EventCreate(&marker, CU_EVENT_DISABLE_TIMING);
  if (r == CUDA_SUCCESS && (r = orx_cu.EventRecord(marker, be->stream)) != CUDA_SUCCESS)
    orx_cu.EventDestroy(marker);
  orx_cu_leave();
  if (r != CUDA_SUCCESS)
    return orx_cu_fail(ctx, "cuEventCreate/cuEventRecord", r);
  *event = marker;
  return OCL_REDUCE_OK;
}

static void cuda_native(orx_backend *be, void **context, void **device, void **queue) {
  *context = be->context;
  *device = (void *)(intptr_t)be->device;
  *queue = be->stream;
}

/* The bytes of one PTX type (".u32", ".b8", ".f64"...), 0 for a token that is none. */
static unsigned ptx_type_bytes(const char *token) {
  if (token[0] != '.' || !strchr("busf", token[1]))
    return 0;
  char *end = NULL;
  const unsigned long bits = strtoul(token + 2, &end, 10);
  return end != token + 2 && (bits == 8 || bits == 16 || bits == 32 || bits == 64)
             ? (unsigned)(bits / 8)
             : 0;
}

/* The bytes of the static shared memory a PTX module declares, as ptxas lays it out: each
 * declaration (".shared .align 4 .b8 name[bytes];" for the kernels' __local arrays, ".shared
 * .align 4 .u32 name;" for a scalar; not instructions such as ld.shared) on its alignment, of its
 * type's bytes times its dimensions. With one kernel per program, what its blocks take. */
static uint64_t ptx_static_shared_bytes(const char *ptx) {
  uint64_t total = 0;
  for (const char *at = strstr(ptx, ".shared"); at; at = strstr(at + 1, ".shared")) {
    if (at > ptx && at[-1] != '\n' && at[-1] != ' ' && at[-1] != '\t')
      continue;
    const char *end = strchr(at, ';');
    if (!end)
      break;
    uint64_t align = 1, bytes = 0;
    for (const char *t = at + 7; t < end; t++) {
      if (*t == '.' && strncmp(t, ".align", 6) == 0)
        align = strtoull(t + 6, NULL, 10);
      else if (*t == '.' && !bytes)
        bytes = ptx_type_bytes(t);
      else if (*t == '[')
        bytes *= strtoull(t + 1, NULL, 10); /* extern's [] (dynamic): 0 */
    }
    if (align > 1)
      total = (total + align - 1) / align * align;
    total += bytes;
  }
  return total;
}

/* CUDA's limit on a block's static shared memory, on every architecture. ptxas fails a kernel
 * that declares more; the quick check, which stops at PTX, checks it here. */
#define ORX_CU_STATIC_SHARED_MAX (48u * 1024u)

/* NVRTC alone, for a target "sm_<arch>", with no driver or device. quick (CI's check of every
 * plan's CUDA text, tests/test_cuda_kernels.c): as far as PTX, ptxas's one failure that a plan
 * could cause (static shared memory past the limit) checked on the PTX. */
static ocl_reduce_status cuda_compile_only(ocl_reduce_context *ctx, const orx_source *sources,
                                           size_t count, const char *target, int quick) {
  const char *why;
  int arch = 0;
  if (sscanf(target, "sm_%d", &arch) != 1)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "target '%s' is not sm_<arch>", target);
  if (!orx_cu_nvrtc_ready(&why))
    return orx_fail(ctx, OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE, "%s", why);
  char *image = NULL;
  size_t size = 0;
  ocl_reduce_status status = orx_cu_compile(ctx, sources, count, arch, quick, &image, &size);
  if (status == OCL_REDUCE_OK && quick) {
    const uint64_t shared = size && image[size - 1] == '\0' ? ptx_static_shared_bytes(image) : 0;
    if (shared > ORX_CU_STATIC_SHARED_MAX)
      status = orx_fail(ctx, OCL_REDUCE_ERROR_BUILD,
                        "the kernel declares %llu bytes of static shared memory, over CUDA's %u",
                        (unsigned long long)shared, ORX_CU_STATIC_SHARED_MAX);
  }
  free(image);
  return status;
}

const orx_backend_ops orx_cuda_backend = {
    .prelude = "lib/orx_cuda_prelude.cl",
    .selector_prefix = ORX_CUDA_SELECTOR_PREFIX,
    .list_devices = orx_cu_list_devices,
    .open = orx_cu_open,
    .close = orx_cu_close,
    .adopt = orx_cu_adopt,
    .compile_only = cuda_compile_only,
    .build = cuda_build,
    .enqueue_wait = cuda_enqueue_wait,
    .enqueue_marker = cuda_enqueue_marker,
    .build_binary = cuda_build_binary,
    .program_binary = cuda_program_binary,
    .release_program = cuda_release_program,
    .program_native = cuda_program_native,
    .alloc = cuda_alloc,
    .wrap = cuda_wrap,
    .mem_native = cuda_mem_native,
    .release_mem = cuda_release_mem,
    .misalignment = cuda_misalignment,
    .alloc_host_visible = cuda_alloc_host_visible,
    .finish = cuda_finish,
    .write = orx_cu_write,
    .read = orx_cu_read,
    .copy = orx_cu_copy,
    .alloc_pinned = orx_cu_alloc_pinned,
    .write_async = orx_cu_write_async,
    .read_async = orx_cu_read_async,
    .wait_marker = orx_cu_wait_marker,
    .host_is_pinned = orx_cu_host_is_pinned,
    .launch = cuda_launch,
    .native = cuda_native,
};
