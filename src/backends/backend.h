/* =================================================================================================
 * backend.h: the table of functions a backend provides, one per API that reaches devices
 * (opencl/, cuda/); registry/ lists them. Everything above this table is backend-neutral and
 * includes no native header. A new backend is its folder here, filling this table, plus its row
 * in the registry (registry/registry.c) and its public enum value and create and wrap functions.
 *
 * Conventions for every slot:
 *   - Fallible slots return ocl_reduce_status and, on failure, record the detail (native call,
 *     native error code and name, build log) on ctx through orx_fail().
 *   - Release slots return nothing and accept NULL.
 *   - Copies and launches go to one in-order queue per backend, so they run in call order.
 *   - Optional slots may be NULL; each says what NULL means. Every other slot is required:
 *     registry/registry.h's orx_backend_missing_slot names a missing one, no context opens on
 *     such a table, and test_planner checks every built backend.
 * ============================================================================================== */
#ifndef ORX_BACKEND_H
#define ORX_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "base/caps.h"
#include "base/errors.h"
#include "base/sources.h"

typedef struct orx_backend orx_backend; /* a backend's state for one device */
typedef struct orx_program orx_program; /* a built program and its kernel */
typedef struct orx_mem orx_mem;         /* a device allocation */

typedef enum orx_arg_kind { ORX_ARG_MEM, ORX_ARG_U64, ORX_ARG_U32 } orx_arg_kind;

/* One kernel argument, in the order of the kernel's parameters. */
typedef struct orx_arg {
  orx_arg_kind kind;
  orx_mem *mem;
  uint64_t value;
} orx_arg;

typedef struct orx_backend_ops {
  /* A cl/ source to put after the contract in every program (the backend's spelling of
   * lib/orx_dialect.cl, e.g. CUDA's lib/orx_cuda_prelude.cl), or NULL. */
  const char *prelude;
  /* Device selectors that name this backend's devices whatever OCL_REDUCE_BACKEND says
   * ("cuda:" for "cuda:0"), or NULL. */
  const char *selector_prefix;

  /* Lists every device the backend can open (see ocl_reduce_devices); a backend that cannot run
   * here lists none. */
  ocl_reduce_status (*list_devices)(ocl_reduce_context *ctx, ocl_reduce_device_desc *out,
                                    size_t capacity, size_t *count);

  /* Binds one device: the one `selector` names (OCL_REDUCE_DEVICE syntax; NULL or "" chooses the
   * default device), or, when native_queue is not NULL, the application's queue and its device
   * (the OpenCL backend's cl_command_queue, the CUDA backend's CUstream). Fills *caps. Builds
   * nothing. */
  ocl_reduce_status (*open)(ocl_reduce_context *ctx, const char *selector, void *native_queue,
                            int profiling, orx_backend **out, orx_caps *caps);
  void (*close)(orx_backend *be);

  /* Optional (NULL: never). With OCL_REDUCE_BACKEND=auto, after the first backend of the
   * registry opened the device `opened` (NULL when it found none; `selector` is the caller's):
   * whether this backend should run that device instead, and the selector that names it here.
   * Returns 0 where the backend cannot run. */
  int (*adopt)(const orx_caps *opened, const char *selector, char *out, size_t size);

  /* Builds `sources` (in order, as one program text) with the compiler `options` ("" or
   * caps.sync_build_option) and looks up kernel `kernel_name`. *subgroup_size receives the
   * subgroup size the kernel runs with at local size wg_size, or 0 when the device cannot say. */
  ocl_reduce_status (*build)(ocl_reduce_context *ctx, orx_backend *be, const orx_source *sources,
                             size_t count, const char *options, const char *kernel_name,
                             unsigned wg_size, orx_program **out, unsigned *subgroup_size);
  /* Optional pair (NULL: programs are not kept on disk). program_binary() gives a built program
   * as bytes (malloc'd; NULL and 0 when the implementation has none); build_binary() builds the
   * same program from them, on the same device, in a later process (exec/disk_cache.c keys them
   * by everything that changes the code). Bytes the implementation refuses give BUILD or
   * BACKEND, and the caller builds from source. */
  ocl_reduce_status (*program_binary)(ocl_reduce_context *ctx, orx_backend *be,
                                      orx_program *program, void **binary, size_t *size);
  ocl_reduce_status (*build_binary)(ocl_reduce_context *ctx, orx_backend *be, const void *binary,
                                    size_t size, const char *kernel_name, unsigned wg_size,
                                    orx_program **out, unsigned *subgroup_size);
  void (*release_program)(orx_program *program);
  /* A built program's native handles: cl_program and cl_kernel, or CUmodule and CUfunction. */
  void (*program_native)(orx_program *program, void **native_program, void **native_kernel);
  /* Optional (NULL: not offered). Compiles sources for a device architecture without a device
   * or driver ("sm_90" for CUDA): tests check the kernels' translation where no GPU is present.
   * quick: at the compiler's least optimization effort where it has one (a check that the text
   * compiles, not the code a device runs). BACKEND_UNAVAILABLE when the compiler cannot be
   * loaded here. */
  ocl_reduce_status (*compile_only)(ocl_reduce_context *ctx, const orx_source *sources,
                                    size_t count, const char *target, int quick);

  /* Device memory. wrap() takes an application's native allocation (see the public wrap
   * functions), and reports its size; release_mem() releases what alloc() or wrap() returned. */
  ocl_reduce_status (*alloc)(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                             orx_mem **out);
  ocl_reduce_status (*wrap)(ocl_reduce_context *ctx, orx_backend *be, void *native, orx_mem **out,
                            size_t *bytes);
  void (*release_mem)(orx_mem *mem);
  /* The allocation as an application uses it (ocl_reduce_buffer_native): its cl_mem, or its
   * device address (a CUdeviceptr); the other is NULL or 0. */
  void (*mem_native)(const orx_mem *mem, void **handle, uint64_t *address);
  /* Optional (NULL: 0). How far the allocation's first byte lies past a multiple of 256 bytes:
   * library allocations start aligned, a wrapped CUDA pointer may not. */
  size_t (*misalignment)(const orx_mem *mem);
  /* Optional (NULL: never). The host memory an allocation of alloc() lives in, where the device
   * reads and writes it in place (CPU devices: host memory the library allocated, see the OpenCL
   * backend's create_host_backed), else NULL. The calling thread may read it once everything
   * enqueued before has finished. */
  const void *(*host_storage)(const orx_mem *mem);
  /* Optional (NULL: never). The caller's host memory [host, host + bytes) as an allocation the
   * device reads and writes where it lies, for one call: CPU devices that work in such memory
   * in place (OpenCL: a CL_MEM_USE_HOST_PTR buffer over it); *out is NULL where the device does
   * not (other devices, or memory it would copy). The memory must stay valid until everything
   * enqueued with the view has finished; what the device wrote is there once finish() returned,
   * with no map (the device wrote the memory itself, as host_storage's). release_mem() releases
   * the view. */
  ocl_reduce_status (*view_host_memory)(ocl_reduce_context *ctx, orx_backend *be, void *host,
                                        size_t bytes, orx_mem **out);

  /* Optional (NULL: not supported). Device memory the host can read directly once the work that
   * writes it has finished, with no copy command: OpenCL fine-grained SVM, CUDA mapped pinned
   * memory. Small result slots use it to save a command and a synchronisation per call. */
  ocl_reduce_status (*alloc_host_visible)(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                          orx_mem **out, void **host);
  /* Optional set of three, all NULL or all set (NULL: host memory moves by the blocking write
   * and read only): alloc_pinned, write_async, read_async. Page-locked host memory, which the device's copy engines read and write at full speed
   * without the driver's own bounce through its staging buffers: CUDA cuMemHostAlloc, OpenCL a
   * CL_MEM_ALLOC_HOST_PTR buffer kept mapped. release_mem() releases it. */
  ocl_reduce_status (*alloc_pinned)(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                    orx_mem **out, void **host);
  /* Copies that return once enqueued, in queue order with everything else: the host memory must
   * stay unchanged (write) or unread (read) until a marker enqueued after them has completed. */
  ocl_reduce_status (*write_async)(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                                   size_t offset, const void *src, size_t bytes);
  ocl_reduce_status (*read_async)(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                                  size_t offset, void *dst, size_t bytes);
  /* Waits for an event of enqueue_marker() and releases it (required: group buffers and staging
   * wait for markers). */
  ocl_reduce_status (*wait_marker)(ocl_reduce_context *ctx, orx_backend *be, void *event);
  /* Optional (NULL: none). Whether host memory [host, host + bytes) is page-locked memory this
   * device copies from and to directly, by the driver's own account (CUDA: cuMemHostAlloc and
   * cuMemHostRegister memory). Memory of ocl_reduce_host_alloc is known without asking. */
  int (*host_is_pinned)(orx_backend *be, const void *host, size_t bytes);

  /* Waits until everything enqueued so far has finished. */
  ocl_reduce_status (*finish)(ocl_reduce_context *ctx, orx_backend *be);
  /* Work enqueued after this waits for the application's `events` (cl_event or CUevent). */
  ocl_reduce_status (*enqueue_wait)(ocl_reduce_context *ctx, orx_backend *be,
                                    void *const *events, size_t count);
  /* A new event (cl_event or CUevent, the caller's to release) that completes when everything
   * enqueued so far has finished; the work is submitted to the device, not just queued. */
  ocl_reduce_status (*enqueue_marker)(ocl_reduce_context *ctx, orx_backend *be, void **event);

  /* Blocking copies between host memory and device memory. */
  ocl_reduce_status (*write)(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                             size_t offset, const void *src, size_t bytes);
  ocl_reduce_status (*read)(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                            size_t offset, void *dst, size_t bytes);
  /* A copy between two device allocations of the backend, enqueued in queue order (the memory
   * ranges must not overlap). */
  ocl_reduce_status (*copy)(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                            size_t src_offset, orx_mem *dst, size_t dst_offset, size_t bytes);

  /* Enqueues `groups` work-groups of `wg_size` work-items. With profiling on, *kernel_ns receives
   * the kernel's device time once it has finished (the call then waits for it). */
  ocl_reduce_status (*launch)(ocl_reduce_context *ctx, orx_backend *be, orx_program *program,
                              size_t groups, unsigned wg_size, const orx_arg *args, size_t nargs,
                              uint64_t *kernel_ns);

  /* Native handles for ocl_reduce_context_info (NULL where the backend has none). */
  void (*native)(orx_backend *be, void **context, void **device, void **queue);
  /* Optional (NULL: the backend has one way): how finish and read wait, as the planner chose it
   * after open (orx_plan_wait_polls): 1 flush and poll the native event, 0 block in the
   * implementation's wait. */
  void (*set_polling)(orx_backend *be, int poll);
} orx_backend_ops;

/* What ocl_reduce_buffer_wrap_cuda hands to the CUDA backend's wrap(). */
typedef struct orx_cuda_span {
  uint64_t pointer;
  size_t bytes;
} orx_cuda_span;

#endif /* ORX_BACKEND_H */
