/* =================================================================================================
 * opencl.h: what the files of the OpenCL backend share: its state, program and memory structures,
 * and the mapping of OpenCL errors to statuses. The backend is the only part of the library that
 * includes CL/cl.h: device_list.c (discovery), devices.c (capabilities, life cycle), errors.c,
 * programs.c, copies.c (between host and device memory), host_backed.c (CPU devices' buffers),
 * backend.c (memory, launches, events, and the table of backend.h).
 * ============================================================================================== */
#ifndef ORX_OPENCL_H
#define ORX_OPENCL_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h> /* CL_PLATFORM_NOT_FOUND_KHR */

#include "backends/backend.h"
#include "backends/device_pick.h"

/* Which host memory a CPU device works in where it lies, as a CL_MEM_USE_HOST_PTR buffer's. */
typedef enum orx_cl_in_place {
  ORX_CL_IN_PLACE_NONE,  /* none: a copy, written back when mapped (not a CPU device) */
  ORX_CL_IN_PLACE_PAGES, /* memory that starts on a page and is a multiple of 64 bytes */
  ORX_CL_IN_PLACE_ANY    /* any */
} orx_cl_in_place;

struct orx_backend {
  cl_platform_id platform;
  int host_memory_device; /* a CPU device: its buffers can be our own host memory */
  int poll_events;        /* wait for events by polling (orx_plan_wait_polls chose) */
  int has_fine_grain_svm; /* CL_DEVICE_SVM_FINE_GRAIN_BUFFER */
  int in_place;           /* CPU devices: an orx_cl_in_place, where buffers of host memory work */
  cl_event last_kernel;   /* the latest launch, or a view's unmap after it: finish() waits */
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  int profiling;
  int can_query_subgroups; /* platform is OpenCL 2.1 or newer: clGetKernelSubGroupInfo exists */
};

struct orx_program {
  cl_program program;
  cl_kernel kernel;
};

/* A buffer, or (svm != NULL) a fine-grained SVM allocation passed as a pointer argument. */
struct orx_mem {
  cl_mem mem;
  void *svm;
  cl_context context;     /* the SVM allocation's, for clSVMFree */
  void *mapped;           /* pinned memory (alloc_pinned): the buffer's host memory, kept mapped */
  void *host_storage;     /* CPU devices: the host memory the buffer lives in (alloc) */
  cl_command_queue queue; /* ... and the queue that unmaps it */
};

/* errors.c: the name of an OpenCL error code, and a failed call recorded on ctx with its status
 * (out of memory where the code says so, else BACKEND). */
const char *orx_cl_error_name(cl_int code);
ocl_reduce_status orx_cl_fail(ocl_reduce_context *ctx, const char *call, cl_int code);

#define CL_CHECK(ctx, call, expr)                                                                  \
  do {                                                                                             \
    cl_int cl_check_code_ = (expr);                                                                \
    if (cl_check_code_ != CL_SUCCESS)                                                              \
      return orx_cl_fail((ctx), (call), cl_check_code_);                                           \
  } while (0)

/* device_list.c: every device of every platform, in the order `P:D` indices count them. */
typedef struct orx_cl_device_list {
  orx_device_entry *entries; /* for orx_pick_device */
  cl_platform_id *platforms;
  cl_device_id *devices;
  char (*names)[2][256];
  size_t count;
} orx_cl_device_list;
/* NO_PLATFORM or NO_DEVICE where there is nothing; the list is empty on any failure. */
ocl_reduce_status orx_cl_device_list_load(ocl_reduce_context *ctx, orx_cl_device_list *list);
void orx_cl_device_list_free(orx_cl_device_list *list);
/* GPU, CPU, accelerator, else other: the first that the type's bits name. */
ocl_reduce_device_type orx_cl_device_type_of(cl_device_type type);
/* The table's listing slot. */
ocl_reduce_status orx_cl_list_devices(ocl_reduce_context *ctx, ocl_reduce_device_desc *out,
                                      size_t capacity, size_t *count);

/* programs.c: the table's program slots. */
ocl_reduce_status orx_cl_build(ocl_reduce_context *ctx, orx_backend *be,
                               const orx_source *sources, size_t count, const char *options,
                               const char *kernel_name, unsigned wg_size, orx_program **out,
                               unsigned *subgroup_size);
ocl_reduce_status orx_cl_build_binary(ocl_reduce_context *ctx, orx_backend *be,
                                      const void *binary, size_t size, const char *kernel_name,
                                      unsigned wg_size, orx_program **out,
                                      unsigned *subgroup_size);
ocl_reduce_status orx_cl_program_binary(ocl_reduce_context *ctx, orx_backend *be,
                                        orx_program *p, void **binary, size_t *size);
void orx_cl_release_program(orx_program *program);
void orx_cl_program_native(orx_program *program, void **native_program, void **native_kernel);
/* quiet_build.c: clBuildProgram for one device, the compiler's own summary lines kept off stderr
 * (but for OCL_REDUCE_LOG=debug). */
cl_int orx_cl_build_quietly(cl_program program, cl_device_id device, const char *options);

/* devices.c: the table's device slots, and waiting for an event (polled on GPUs). */
ocl_reduce_status orx_cl_open(ocl_reduce_context *ctx, const char *selector, void *native_queue,
                              int profiling, orx_backend **out, orx_caps *caps);
void orx_cl_close(orx_backend *be);
cl_int orx_cl_wait_for(orx_backend *be, cl_event event);
/* A copy was enqueued after the latest launch: finish() then waits for the whole queue, not that
 * launch's event (copies.c). */
void orx_cl_after_last_kernel(orx_backend *be);

/* host_backed.c: a CPU device's buffer over host memory of ours (*storage), the host memory the
 * device works in in place, and the table's view_host_memory slot. */
cl_mem orx_cl_create_host_backed(orx_backend *be, size_t bytes, void **storage, cl_int *code);
orx_cl_in_place orx_cl_probe_in_place(orx_backend *be);
ocl_reduce_status orx_cl_view_host_memory(ocl_reduce_context *ctx, orx_backend *be, void *host,
                                          size_t bytes, orx_mem **out);

/* copies.c: the table's copy slots. */
ocl_reduce_status orx_cl_write(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                               size_t offset, const void *src, size_t bytes);
ocl_reduce_status orx_cl_read(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                              size_t offset, void *dst, size_t bytes);
ocl_reduce_status orx_cl_copy(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                              size_t src_offset, orx_mem *dst, size_t dst_offset, size_t bytes);
ocl_reduce_status orx_cl_write_async(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                                     size_t offset, const void *src, size_t bytes);
ocl_reduce_status orx_cl_read_async(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                                    size_t offset, void *dst, size_t bytes);
ocl_reduce_status orx_cl_alloc_pinned(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                      orx_mem **out, void **host);
ocl_reduce_status orx_cl_wait_marker(ocl_reduce_context *ctx, orx_backend *be, void *event);

#endif /* ORX_OPENCL_H */
