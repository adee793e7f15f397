/* =================================================================================================
 * backend.h: the table of functions a backend provides. The OpenCL backend (backend_opencl.c)
 * fills it today; a CUDA backend plugs into the same slots. Everything above this table is
 * backend-neutral and includes no native header.
 *
 * Conventions for every slot:
 *   - Fallible slots return ocl_reduce_status and, on failure, record the detail (native call,
 *     native error code and name, build log) on ctx through orx_fail().
 *   - Release slots return nothing and accept NULL.
 *   - Copies and launches go to one in-order queue per backend, so they run in call order.
 * ============================================================================================== */
#ifndef ORX_BACKEND_H
#define ORX_BACKEND_H

#include "internal.h"

typedef enum orx_arg_kind { ORX_ARG_MEM, ORX_ARG_U64, ORX_ARG_U32 } orx_arg_kind;

/* One kernel argument, in the order of the kernel's parameters. */
typedef struct orx_arg {
  orx_arg_kind kind;
  orx_mem *mem;
  uint64_t value;
} orx_arg;

struct orx_backend_ops {
  const char *name; /* "opencl", "cuda" */
  ocl_reduce_backend kind;
  /* A cl/ file to put in front of every program (the CUDA backend's OpenCL-to-CUDA mapping), or
   * NULL. */
  const char *prelude;

  /* Lists every device the backend can open (see ocl_reduce_devices). */
  ocl_reduce_status (*list_devices)(ocl_reduce_context *ctx, ocl_reduce_device_desc *out,
                                    size_t capacity, size_t *count);

  /* Binds one device: the one `selector` names (OCL_REDUCE_DEVICE syntax; NULL or "" chooses the
   * default device), or, when native_queue is not NULL, the application's queue and its device.
   * Fills *caps. Builds nothing. */
  ocl_reduce_status (*open)(ocl_reduce_context *ctx, const char *selector, void *native_queue,
                            int profiling, orx_backend **out, orx_caps *caps);
  void (*close)(orx_backend *be);

  /* Builds `sources` (in order, as one program text) with the defines already among them, and
   * looks up kernel `kernel_name`. *subgroup_size receives the subgroup size the kernel runs with
   * at local size wg_size, or 0 when the device cannot say. */
  ocl_reduce_status (*build)(ocl_reduce_context *ctx, orx_backend *be, const orx_source *sources,
                             size_t count, const char *kernel_name, unsigned wg_size,
                             orx_program **out, unsigned *subgroup_size);
  void (*release_program)(orx_program *program);

  /* Device memory. wrap() takes an application's native allocation (cl_mem), retaining it, and
   * reports its size; release_mem() releases what alloc() or wrap() returned. */
  ocl_reduce_status (*alloc)(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                             orx_mem **out);
  ocl_reduce_status (*wrap)(ocl_reduce_context *ctx, orx_backend *be, void *native, orx_mem **out,
                            size_t *bytes);
  void (*release_mem)(orx_mem *mem);
  /* Optional (NULL: 0). How far the allocation's first byte lies past a multiple of 256 bytes:
   * library allocations start aligned, a wrapped CUDA pointer may not. */
  size_t (*misalignment)(const orx_mem *mem);

  /* Optional (NULL: not supported). Device memory the host can read directly once the work that
   * writes it has finished, with no copy command: OpenCL fine-grained SVM, CUDA mapped pinned
   * memory. Small result slots use it to save a command and a synchronisation per call. */
  ocl_reduce_status (*alloc_host_visible)(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                          orx_mem **out, void **host);
  /* Waits until everything enqueued so far has finished. */
  ocl_reduce_status (*finish)(ocl_reduce_context *ctx, orx_backend *be);

  /* Blocking copies between host memory and device memory. */
  ocl_reduce_status (*write)(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                             size_t offset, const void *src, size_t bytes);
  ocl_reduce_status (*read)(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                            size_t offset, void *dst, size_t bytes);

  /* Enqueues `groups` work-groups of `wg_size` work-items. With profiling on, *kernel_ns receives
   * the kernel's device time once it has finished (the call then waits for it). */
  ocl_reduce_status (*launch)(ocl_reduce_context *ctx, orx_backend *be, orx_program *program,
                              size_t groups, unsigned wg_size, const orx_arg *args, size_t nargs,
                              uint64_t *kernel_ns);

  /* Native handles for ocl_reduce_context_info (NULL where the backend has none). */
  void (*native)(orx_backend *be, void **context, void **device, void **queue);
};

extern const orx_backend_ops orx_opencl_backend;

/* What ocl_reduce_buffer_wrap_cuda hands to the CUDA backend's wrap(). */
typedef struct orx_cuda_span {
  uint64_t pointer;
  size_t bytes;
} orx_cuda_span;

#ifdef ORX_HAVE_CUDA
extern const orx_backend_ops orx_cuda_backend; /* backend_cuda.c */
/* Whether the CUDA backend can run here (driver, NVRTC, a device); else 0 and the reason. */
int orx_cuda_available(const char **why);
/* Compiles a program with NVRTC for sm_<arch> without a driver or device: tests check the CUDA
 * translation of the kernels with it where no GPU is present. */
ocl_reduce_status orx_cuda_compile_only(ocl_reduce_context *ctx, const orx_source *sources,
                                        size_t count, int arch);
#endif

#endif /* ORX_BACKEND_H */
