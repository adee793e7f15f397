/*
 * ocl_reduce: reductions (sum, product, min, max, and, or, xor) of arrays on any OpenCL device.
 *
 * This is the library's public header (the optional MPI component has its own, ocl_reduce_mpi.h).
 * It needs no OpenCL or CUDA header: native handles (cl_mem, cl_command_queue, ...) cross this
 * API as `void *`.
 *
 * Life cycle
 *   ocl_reduce_context *ctx = NULL;
 *   if (ocl_reduce_context_create(NULL, &ctx) != OCL_REDUCE_OK) { ... ocl_reduce_last_error(NULL) ... }
 *   float sum;
 *   ocl_reduce_status s = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, host_array, count, &sum);
 *   ocl_reduce_context_destroy(ctx);
 *
 * Semantics (every entry point that reduces)
 *   - count == 0 gives the identity: 0 for SUM, OR and XOR; 1 for PROD; all bits set for AND;
 *     +inf / -inf for float MIN / MAX; the type's largest / smallest value for integer MIN / MAX.
 *   - Integer SUM and PROD wrap modulo 2^bits, for signed types too (two's complement).
 *   - Float MIN and MAX: any NaN in the input gives NaN. They also order -0.0 below +0.0, so the
 *     result's bits never depend on the order in which elements are combined (IEEE 754-2019
 *     minimum / maximum).
 *   - Float SUM and PROD combine in a tree; the error is within the usual bound of a blocked tree
 *     reduction. The same input on the same device, path and library version gives the same bits
 *     on every run: the combine order is fixed and no float atomics are used.
 *   - AND, OR and XOR on float types give OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION.
 *     F64 on a device without double precision gives OCL_REDUCE_ERROR_NO_FP64.
 *   - A NULL context or result, NULL input with count > 0, an unknown enum value, or host memory
 *     whose byte size would not fit in size_t (count, segments, offsets) gives
 *     OCL_REDUCE_ERROR_INVALID_ARGUMENT before anything is allocated, and
 *     ocl_reduce_last_error() names the argument.
 *   - On any error the result is left untouched.
 *   - count is a size_t: inputs beyond 2^32 elements work wherever the device can hold them.
 *
 * Threads
 *   A context may be used by one thread at a time; use one context per thread, or lock around it.
 *   Different contexts are independent. ocl_reduce_last_error(NULL) is per thread.
 *
 * Environment (read by ocl_reduce_context_create for fields left at their DEFAULT value)
 *   OCL_REDUCE_DEVICE      "P:D" platform and device indices (OpenCL) or "cuda:N" (CUDA device
 *                          N), as `ocl-reduce info` lists them; or a short name, any case: pocl,
 *                          intel, nvidia, amd (that vendor's OpenCL platform; nvidia also CUDA's
 *                          devices), cuda (CUDA device 0), cpu, gpu, accelerator (the device
 *                          type); else a substring of the platform or device name (any case).
 *                          The first device that matches is taken.
 *   OCL_REDUCE_DEVICES     a group's devices when ocl_reduce_group_create gets no list: selectors
 *                          as OCL_REDUCE_DEVICE's, separated by commas ("cuda:0,cuda:1").
 *   OCL_REDUCE_PATH        auto | subgroup | local
 *   OCL_REDUCE_SUBGROUP    auto | khr | intel | ptx | builtin | cuda: which subgroup implementation the
 *                          subgroup path uses (see ocl_reduce_subgroup_impl).
 *   OCL_REDUCE_KERNEL_DIR  read the kernel sources from this directory instead of the copies
 *                          embedded at build time (for kernel development).
 *   OCL_REDUCE_LOG         "debug" prints errors and kernel builds to stderr; "off" (or unset)
 *                          prints nothing.
 *   OCL_REDUCE_DISABLE     comma-separated device capabilities to ignore, for testing fallbacks:
 *                          "fp64", "subgroups".
 *   OCL_REDUCE_POLICY      force launch-policy fields, for testing and tuning, e.g.
 *                          "wg=64,vec=4,unroll=4,chains=2,prefetch=0|1,groups=32,
 *                          stream=strided|chunk|tiled,finish=serial|group,
 *                          seg=lane|mr|group|launch|staged,slots=N" (unroll: loads in flight
 *                          per work-item; chains: accumulators they feed, at most unroll;
 *                          prefetch: the next loads issued before the last are combined).
 *   OCL_REDUCE_BACKEND     auto | opencl | cuda
 *   OCL_REDUCE_CACHE_DIR   where compiled programs are kept between processes (OpenCL device
 *                          binaries, CUDA cubins), or "off". Default: $XDG_CACHE_HOME/ocl_reduce,
 *                          else $HOME/.cache/ocl_reduce. A program is found again only for the same
 *                          kernel text, device, driver, compiler and library version; a damaged or
 *                          foreign entry is ignored and rebuilt; a directory that cannot be written
 *                          only costs the build. Safe for many processes at once. Nothing is ever
 *                          evicted (an entry is kilobytes to a few megabytes): delete the
 *                          directory, at any time, to reclaim the space.
 */
#ifndef OCL_REDUCE_H
#define OCL_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(OCL_REDUCE_SHARED)
#  ifdef OCL_REDUCE_BUILDING
#    define OCL_REDUCE_API __declspec(dllexport)
#  else
#    define OCL_REDUCE_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define OCL_REDUCE_API __attribute__((visibility("default")))
#else
#  define OCL_REDUCE_API
#endif

/* The version of this header (CMakeLists.txt reads it from here: it is written once). While the
 * major version is 0, the ABI may change with any minor version: the shared library's SONAME is
 * libocl_reduce.so.0.MINOR, so a program runs only with the minor version it was built against
 * (README, "Installing"). */
#define OCL_REDUCE_VERSION_MAJOR 0
#define OCL_REDUCE_VERSION_MINOR 1
#define OCL_REDUCE_VERSION_PATCH 0
/* The version as one number, MAJOR * 10000 + MINOR * 100 + PATCH, for #if. */
#define OCL_REDUCE_VERSION                                                                         \
  (OCL_REDUCE_VERSION_MAJOR * 10000 + OCL_REDUCE_VERSION_MINOR * 100 + OCL_REDUCE_VERSION_PATCH)

/* The version of the library the program runs with, as OCL_REDUCE_VERSION: the library's, which
 * a program built against another header may see differ from its own OCL_REDUCE_VERSION. */
OCL_REDUCE_API int ocl_reduce_version(void);

/* ---------------------------------------------------------------------------------------------
 * Status codes. One list gives the enum, ocl_reduce_status_name() and ocl_reduce_status_string().
 * Codes are grouped by hundreds: 1xx environment, 2xx arguments, 3xx unsupported operations,
 * 4xx missing device capabilities, 5xx kernel build, 9xx backend and internal errors.
 * ------------------------------------------------------------------------------------------- */
#define OCL_REDUCE_STATUS_MAP(XX)                                                                  \
  XX(OK, 0, "success")                                                                             \
  XX(ERROR_OUT_OF_HOST_MEMORY, 100, "out of host memory")                                          \
  XX(ERROR_OUT_OF_DEVICE_MEMORY, 101, "out of device memory")                                      \
  XX(ERROR_NO_PLATFORM, 102, "no OpenCL platform is installed")                                    \
  XX(ERROR_NO_DEVICE, 103, "no device matches the selection")                                      \
  XX(ERROR_BACKEND_UNAVAILABLE, 104, "the requested backend cannot run here")                      \
  XX(ERROR_INVALID_ARGUMENT, 200, "invalid argument")                                              \
  XX(ERROR_INVALID_OPTION, 201, "invalid option or environment variable value")                    \
  XX(ERROR_OUT_OF_RANGE, 202, "offset and count reach beyond the buffer")                          \
  XX(ERROR_BAD_OFFSETS, 203, "segment offsets decrease or reach beyond the input")                 \
  XX(ERROR_BAD_WINDOW, 204, "the window is empty or longer than the input")                        \
  XX(ERROR_UNSUPPORTED_OPERATION, 300, "operation not supported for this element type")            \
  XX(ERROR_NO_FP64, 400, "the device has no double precision (cl_khr_fp64)")                       \
  XX(ERROR_PATH_UNSUPPORTED, 401, "the device cannot take the requested path")                     \
  XX(ERROR_BUILD, 500, "kernel build failed")                                                      \
  XX(ERROR_KERNEL_SOURCE, 501, "a kernel source file is missing or unreadable")                    \
  XX(ERROR_OPERATOR_SIZE, 502, "a user operator's sizes differ from the device's")                 \
  XX(ERROR_BACKEND, 900, "a backend call failed")                                                  \
  XX(ERROR_INTERNAL, 999, "internal error")

typedef enum ocl_reduce_status {
#define OCL_REDUCE_STATUS_ENUM_(name, code, text) OCL_REDUCE_##name = code,
  OCL_REDUCE_STATUS_MAP(OCL_REDUCE_STATUS_ENUM_)
#undef OCL_REDUCE_STATUS_ENUM_
} ocl_reduce_status;

/* Operators. The first seven are scalar: each result is one element of the input type. The
 * structured ones after them keep more than one value per result, of the size
 * ocl_reduce_result_size gives (see "Structured operators" below); ocl_reduce_multi takes scalar
 * operators only. */
typedef enum ocl_reduce_op {
  OCL_REDUCE_SUM = 0,
  OCL_REDUCE_PROD = 1,
  OCL_REDUCE_MIN = 2,
  OCL_REDUCE_MAX = 3,
  OCL_REDUCE_AND = 4,             /* integer types only */
  OCL_REDUCE_OR = 5,              /* integer types only */
  OCL_REDUCE_XOR = 6,             /* integer types only */
  OCL_REDUCE_ARGMIN = 7,          /* ocl_reduce_arg: the least value and its first index */
  OCL_REDUCE_ARGMAX = 8,          /* ocl_reduce_arg: the greatest value and its first index */
  OCL_REDUCE_MINMAX = 9,          /* two elements of the type: MIN's result, then MAX's */
  OCL_REDUCE_SUM_WIDE = 10,       /* 32-bit types only: int64_t / uint64_t / double sum */
  OCL_REDUCE_SUM_COMPENSATED = 11, /* float types only: one element, a compensated sum */
  OCL_REDUCE_MEAN_VAR = 12,       /* ocl_reduce_moments: count, mean and M2, in double */
  OCL_REDUCE_SUM_REPRODUCIBLE = 13 /* float types only: one element, the same bits everywhere */
} ocl_reduce_op;
#define OCL_REDUCE_OP_COUNT 14

/* Element types. */
typedef enum ocl_reduce_type {
  OCL_REDUCE_I32 = 0,
  OCL_REDUCE_U32 = 1,
  OCL_REDUCE_I64 = 2,
  OCL_REDUCE_U64 = 3,
  OCL_REDUCE_F32 = 4,
  OCL_REDUCE_F64 = 5 /* needs cl_khr_fp64 */
} ocl_reduce_type;
#define OCL_REDUCE_TYPE_COUNT 6

/* How a work-group combines its work-items' partial results. */
typedef enum ocl_reduce_path {
  OCL_REDUCE_PATH_DEFAULT = 0,  /* OCL_REDUCE_PATH from the environment, else AUTO */
  OCL_REDUCE_PATH_AUTO = 1,     /* SUBGROUP where the device has subgroups, else LOCAL */
  OCL_REDUCE_PATH_SUBGROUP = 2, /* subgroup shuffles or subgroup reduce built-ins */
  OCL_REDUCE_PATH_LOCAL = 3     /* doubled-local-memory multireduction (Parker & MacKinnon §6) */
} ocl_reduce_path;

/* Which subgroup primitive the SUBGROUP path uses. Naming one (not AUTO) with path AUTO asks for
 * the SUBGROUP path with it; with path LOCAL it is ignored. */
typedef enum ocl_reduce_subgroup_impl {
  OCL_REDUCE_SUBGROUP_DEFAULT = 0, /* OCL_REDUCE_SUBGROUP from the environment, else AUTO */
  OCL_REDUCE_SUBGROUP_AUTO = 1,    /* KHR, else INTEL, else NV_PTX, else BUILTIN, as the device
                                      allows */
  OCL_REDUCE_SUBGROUP_KHR = 2,     /* sub_group_shuffle_xor (cl_khr_subgroup_shuffle) */
  OCL_REDUCE_SUBGROUP_INTEL = 3,   /* intel_sub_group_shuffle_xor (cl_intel_subgroups) */
  OCL_REDUCE_SUBGROUP_BUILTIN = 4, /* sub_group_reduce_add/min/max (cl_khr_subgroups) where the
                                      operator has one; other operators combine through local
                                      memory. This is what AMD devices without shuffles take. */
  OCL_REDUCE_SUBGROUP_NONE = 5,    /* reported on the LOCAL path */
  OCL_REDUCE_SUBGROUP_NV_PTX = 6,  /* NVIDIA's OpenCL (no subgroup extension): warp shuffles in
                                      inline PTX, shfl.sync.bfly; needs a warp size of 32 */
  OCL_REDUCE_SUBGROUP_CUDA = 7     /* the CUDA backend: __shfl_xor_sync */
} ocl_reduce_subgroup_impl;

/* Which API reaches the device. AUTO takes CUDA for an NVIDIA GPU when the library was built with
 * CUDA support and libcuda.so.1 (the driver) and NVRTC load and see a device, and OpenCL otherwise.
 * Nothing CUDA is linked: the driver and NVRTC are opened at run time, so the library loads and
 * works without them; asking for CUDA there gives OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE, and
 * ocl_reduce_last_error(NULL) says why ("libcuda.so.1 not found", "no CUDA device"). */
typedef enum ocl_reduce_backend {
  OCL_REDUCE_BACKEND_DEFAULT = 0, /* OCL_REDUCE_BACKEND from the environment, else AUTO */
  OCL_REDUCE_BACKEND_AUTO = 1,
  OCL_REDUCE_BACKEND_OPENCL = 2,
  OCL_REDUCE_BACKEND_CUDA = 3
} ocl_reduce_backend;

typedef enum ocl_reduce_device_type {
  OCL_REDUCE_DEVICE_OTHER = 0,
  OCL_REDUCE_DEVICE_CPU = 1,
  OCL_REDUCE_DEVICE_GPU = 2,
  OCL_REDUCE_DEVICE_ACCELERATOR = 3
} ocl_reduce_device_type;

/* ---------------------------------------------------------------------------------------------
 * Devices
 * ------------------------------------------------------------------------------------------- */

/* One device a context can be created on. Set struct_size to sizeof(ocl_reduce_device_desc) in
 * the first element passed to ocl_reduce_devices: the library steps through the array by it and
 * fills only the fields that fit (fields appended by later versions go after the ones here). */
typedef struct ocl_reduce_device_desc {
  size_t struct_size;
  ocl_reduce_backend backend;
  unsigned platform_index;
  unsigned device_index;
  char selector[32]; /* "P:D" or "cuda:N", for ocl_reduce_options.device or OCL_REDUCE_DEVICE */
  char platform_name[256];
  char device_name[256];
  ocl_reduce_device_type device_type;
} ocl_reduce_device_desc;

/* Lists the devices of every OpenCL platform, then the CUDA devices (when the CUDA backend can run
 * here): writes the first `capacity` of them to out (which may be NULL when capacity is 0) and
 * their total number to *count. No device at all is not an error here: *count is then 0.
 * out[0].struct_size smaller than this version's first ocl_reduce_device_desc gives
 * OCL_REDUCE_ERROR_INVALID_ARGUMENT; each element written gets the same struct_size, and bytes
 * past the fields this library knows are zeroed. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_devices(ocl_reduce_device_desc *out, size_t capacity,
                                                    size_t *count);

/* ---------------------------------------------------------------------------------------------
 * Context
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_context ocl_reduce_context;

/* What stays the same between runs of a float sum (ocl_reduce_options.determinism, or
 * OCL_REDUCE_DETERMINISM=run_to_run|cross_device):
 *   RUN_TO_RUN    the same input on the same device, path and library version gives the same bits
 *                 on every run; the combining tree follows the device, so bits differ between
 *                 devices, paths and work-group sizes (rounding differs, within the sum's error).
 *   CROSS_DEVICE  SUM on f32 and f64 is OCL_REDUCE_SUM_REPRODUCIBLE (see there) in every entry
 *                 point: the same bits for the same values on every device, implementation,
 *                 backend, path, work-group size and launch shape, from host memory or buffers at
 *                 any offset, in segments and windows. ocl_reduce_multi then reduces float types
 *                 operator by operator when SUM is among them (one pass each).
 * Integer operators, and MIN, MAX, ARGMIN, ARGMAX and MINMAX on floats, give the same bits on
 * every device under either setting: their results do not depend on the combining order. PROD,
 * SUM_COMPENSATED, SUM_WIDE on f32, MEAN_VAR and user operators on floats stay run-to-run. */
typedef enum ocl_reduce_determinism {
  OCL_REDUCE_DETERMINISM_DEFAULT = 0, /* the environment's, else RUN_TO_RUN */
  OCL_REDUCE_RUN_TO_RUN = 1,
  OCL_REDUCE_CROSS_DEVICE = 2
} ocl_reduce_determinism;

/* Options for ocl_reduce_context_create. Call ocl_reduce_options_init() first, then set fields:
 * new fields are only ever appended, and struct_size tells the library which ones exist. A field
 * left at its DEFAULT (or NULL) value takes the matching environment variable, else "auto". */
typedef struct ocl_reduce_options {
  size_t struct_size;                     /* set by ocl_reduce_options_init */
  const char *device;                     /* as OCL_REDUCE_DEVICE; NULL: environment or default */
  ocl_reduce_path path;                   /* as OCL_REDUCE_PATH */
  ocl_reduce_subgroup_impl subgroup_impl; /* as OCL_REDUCE_SUBGROUP */
  ocl_reduce_backend backend;             /* as OCL_REDUCE_BACKEND */
  int profiling;                          /* nonzero: record device times of kernels, see
                                             ocl_reduce_last_kernel_ns */
  ocl_reduce_determinism determinism;     /* as OCL_REDUCE_DETERMINISM; see below */
  const char *cache_dir;                  /* as OCL_REDUCE_CACHE_DIR: where built programs are
                                             kept between processes, or "off"; NULL: the
                                             environment, else the default (see there) */
} ocl_reduce_options;

OCL_REDUCE_API void ocl_reduce_options_init(ocl_reduce_options *opts);

/* Creates a context on one device, chosen by opts->device / OCL_REDUCE_DEVICE, else the first GPU
 * or accelerator of any platform, else the first device. Builds nothing: kernels are compiled on
 * the first use of each operator x type and cached in the context. Forcing a path or subgroup
 * implementation that the device cannot take fails with OCL_REDUCE_ERROR_PATH_UNSUPPORTED; there
 * is no silent fallback. On failure *out is set to NULL and ocl_reduce_last_error(NULL) says why. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_context_create(const ocl_reduce_options *opts,
                                                           ocl_reduce_context **out);

/* Creates a context that runs on an application's OpenCL command queue (a cl_command_queue), so
 * that its buffers can be wrapped with ocl_reduce_buffer_wrap_opencl and work is ordered with the
 * application's. The queue is retained. opts->device is ignored. The queue must be in order. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_context_create_opencl(const ocl_reduce_options *opts,
                                                                  void *cl_command_queue,
                                                                  ocl_reduce_context **out);

/* Creates a context that runs on an application's CUDA stream (a CUstream, not the legacy NULL
 * stream): its work is ordered with the application's on that stream, in the stream's context
 * and on its device. Neither the stream nor its context is retained: keep both alive until the
 * context is destroyed. opts->device and opts->backend are ignored. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_context_create_cuda(const ocl_reduce_options *opts,
                                                                void *cu_stream,
                                                                ocl_reduce_context **out);

/* Releases the application's context handle; NULL is accepted. Buffers, operators and programs
 * made on the context may be destroyed before or after it, in any order: each holds a reference
 * to the context's device objects (as OpenCL objects do), which are released with the last of
 * them. The handle itself must not be passed to any call after this one. */
OCL_REDUCE_API void ocl_reduce_context_destroy(ocl_reduce_context *ctx);

/* What a context runs on. Strings and handles stay valid until the context is destroyed.
 * Set struct_size before the query: ocl_reduce_context_info info = {.struct_size = sizeof info};
 * later versions append fields, and the library fills only those that fit in struct_size. */
typedef struct ocl_reduce_context_info {
  size_t struct_size;          /* set by the caller: sizeof(ocl_reduce_context_info) */
  ocl_reduce_backend backend;  /* never DEFAULT or AUTO */
  const char *backend_name;    /* "opencl" or "cuda" */
  const char *platform_name;
  const char *device_name;
  const char *device_version;  /* e.g. "OpenCL 3.0 PoCL ..." */
  const char *driver_version;
  unsigned platform_index;     /* the P:D indices OCL_REDUCE_DEVICE accepts */
  unsigned device_index;
  ocl_reduce_device_type device_type;
  ocl_reduce_path path;                   /* SUBGROUP or LOCAL */
  ocl_reduce_subgroup_impl subgroup_impl; /* NONE on the LOCAL path */
  const char *subgroup_impl_name;         /* "khr", "intel", "ptx", "builtin", "none" */
  unsigned subgroup_size;      /* lanes per subgroup in the f32 sum kernel; 0 on the LOCAL path */
  unsigned work_group_size;    /* work-items per work-group of the reduce kernel */
  unsigned compute_units;
  int has_fp64;
  /* The capabilities the paths depend on. */
  int has_khr_subgroups;        /* cl_khr_subgroups or the OpenCL C 3.0 subgroup feature */
  int has_khr_subgroup_shuffle; /* cl_khr_subgroup_shuffle */
  int has_intel_subgroups;      /* cl_intel_subgroups */
  unsigned nv_warp_size;        /* NVIDIA's OpenCL: the warp size (cl_nv_device_attribute_query),
                                   0 elsewhere; the NV_PTX implementation needs 32 */
  uint64_t local_mem_bytes;
  uint64_t max_alloc_bytes;
  uint64_t global_mem_bytes;
  void *native_context;        /* cl_context, or CUcontext (the device's primary context) */
  void *native_device;         /* cl_device_id, or the CUdevice ordinal cast to a pointer */
  void *native_queue;          /* cl_command_queue, or CUstream */
  /* What the context has done so far: kernel programs built, bytes copied from host memory to
   * the device (buffer writes and host input), device allocations made. A repeated reduction of
   * device-resident data adds nothing to any of them. */
  uint64_t kernel_builds;
  uint64_t bytes_to_device;
  uint64_t device_allocations;
  /* Of kernel_builds, the programs loaded from the disk cache (OCL_REDUCE_CACHE_DIR) instead of
   * compiled. */
  uint64_t programs_from_disk;
} ocl_reduce_context_info;

/* Fills *info up to info->struct_size (zeroing bytes past the fields this library knows); a
 * struct_size smaller than this version's first ocl_reduce_context_info gives
 * OCL_REDUCE_ERROR_INVALID_ARGUMENT and leaves *info untouched. On the SUBGROUP path the
 * subgroup size is read from a compiled kernel, so the first query may build the f32 sum kernel. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_context_query(ocl_reduce_context *ctx,
                                                          ocl_reduce_context_info *info);

/* ---------------------------------------------------------------------------------------------
 * Reductions of host memory
 * ------------------------------------------------------------------------------------------- */

/* Reduces count elements of `type` at `input` (host memory) with `op` and writes one result to
 * *result: one element of `type`, or for a structured operator ocl_reduce_result_size(op, type)
 * bytes. The input is copied to the device in pieces of bounded size, so count is
 * limited by host memory only. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                            ocl_reduce_type type, const void *input, size_t count,
                                            void *result);

/* ---------------------------------------------------------------------------------------------
 * Device-resident data. A buffer is device memory that the library allocated or that wraps an
 * application's cl_mem. Reducing a buffer copies nothing but the result and rebuilds nothing:
 * repeated reductions of the same data cost one kernel launch and one small read each.
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_buffer ocl_reduce_buffer;

/* Allocates `bytes` (> 0) of device memory in the context. Its contents are undefined. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_create(ocl_reduce_context *ctx, size_t bytes,
                                                          ocl_reduce_buffer **out);

/* Wraps an application's cl_mem, which must belong to the context's cl_context (create the
 * context with ocl_reduce_context_create_opencl, or allocate in info.native_context). The cl_mem
 * is retained until ocl_reduce_buffer_destroy. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_wrap_opencl(ocl_reduce_context *ctx,
                                                               void *cl_mem,
                                                               ocl_reduce_buffer **out);

/* Wraps `bytes` of an application's CUDA device memory (a CUdeviceptr, or a pointer from
 * cudaMalloc in the device's primary context) on a context of the CUDA backend. The memory stays
 * the application's: it must outlive the buffer and is never freed by the library. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_wrap_cuda(ocl_reduce_context *ctx,
                                                             uint64_t device_pointer, size_t bytes,
                                                             ocl_reduce_buffer **out);

/* Releases the buffer (a wrapped cl_mem is released, not freed), before or after its context is
 * destroyed (see ocl_reduce_context_destroy). NULL is accepted. */
OCL_REDUCE_API void ocl_reduce_buffer_destroy(ocl_reduce_buffer *buf);

/* Size of the buffer in bytes. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_size(const ocl_reduce_buffer *buf,
                                                        size_t *bytes);

/* Blocking copies between host memory and the buffer, at a byte offset. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_write(ocl_reduce_context *ctx,
                                                         ocl_reduce_buffer *buf,
                                                         size_t offset_bytes, const void *src,
                                                         size_t bytes);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_read(ocl_reduce_context *ctx,
                                                        const ocl_reduce_buffer *buf,
                                                        size_t offset_bytes, void *dst,
                                                        size_t bytes);

/* Reduces elements [offset, offset + count) of `type` in `input` (offset counts elements, not
 * bytes; any offset works, aligned or not) and writes one result to *result (host memory), as
 * ocl_reduce does. Same semantics as ocl_reduce. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_reduce(ocl_reduce_context *ctx,
                                                          ocl_reduce_op op, ocl_reduce_type type,
                                                          const ocl_reduce_buffer *input,
                                                          size_t offset, size_t count,
                                                          void *result);

/* ---------------------------------------------------------------------------------------------
 * Enqueueing without waiting.
 *
 * A call whose results go to a buffer (ocl_reduce_into, ocl_reduce_segments,
 * ocl_reduce_segments_offsets, ocl_reduce_multi, ocl_reduce_windows, ocl_reduce_custom and its
 * segmented forms, with an ocl_reduce_buffer_output) returns as soon as its work is enqueued on
 * the context's queue (OpenCL) or stream (CUDA): it does not wait for the device. Calls run on the device in the
 * order they were made, and the context reuses its scratch memory only in that order, so any
 * number of them may be in flight at once; read the results with ocl_reduce_buffer_read (which
 * waits), or wait with the functions below. What still waits: results in host memory, input in
 * host memory (it is copied before the call returns, so the caller may reuse it at once),
 * offsets in a buffer (checked on the device and read back), and options.profiling.
 *
 * With an application's queue or stream (ocl_reduce_context_create_opencl / _cuda) the library's
 * work is ordered with the application's on it; across queues, streams or devices, use events:
 * ------------------------------------------------------------------------------------------- */

/* Makes the work the context enqueues from now on wait for `events` (count of them): cl_event
 * handles on OpenCL (a barrier with a wait list), CUevent handles on CUDA (cuStreamWaitEvent).
 * The events are not retained beyond the call. count 0 does nothing. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_enqueue_wait(ocl_reduce_context *ctx,
                                                         void *const *events, size_t count);

/* Gives, in *event, a new event that completes when everything the context has enqueued so far
 * has finished, and makes sure that work is submitted to the device: a cl_event (release it with
 * clReleaseEvent) or a CUevent (cuEventDestroy). *event is untouched on failure. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_enqueue_marker(ocl_reduce_context *ctx, void **event);

/* Waits until everything the context has enqueued has finished. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_finish(ocl_reduce_context *ctx);

/* ---------------------------------------------------------------------------------------------
 * Many reductions in one call: segments of an array, or several operators over one array.
 *
 * Inputs and outputs are given as ocl_reduce_input / ocl_reduce_output: host memory, or elements of
 * a device buffer, so host arrays and device-resident data take the same calls. Set exactly one of
 * `host` and `buffer` (the constructors below do); `offset` counts elements from the start of
 * either. Each result follows the semantics of ocl_reduce (identities, NaN, wrapping, errors).
 *
 * Every argument is checked before anything runs: a bad one leaves all outputs untouched. A
 * device buffer that receives results must not overlap the input or the offsets
 * (OCL_REDUCE_ERROR_INVALID_ARGUMENT). Large calls run in batches (host input goes to the device
 * through a bounded staging buffer, and results to host memory through a bounded one), so if a
 * backend call fails part-way, the results of the batches before it may already be written.
 *
 * How work-items share segments follows from the segment length and count: one work-item per
 * segment on CPUs, the multireduction (groups of lanes merging up to 32 segments while they
 * exchange) for short segments on GPUs, equal lengths of about 17-127 elements staged through
 * local memory (a work-item per segment), a work-group per segment for long ones, and whole-array
 * reductions for a few huge ones. OCL_REDUCE_POLICY="seg=lane|mr|group|launch|staged" forces one
 * (staged needs equal lengths that fit its stage; otherwise it runs the multireduction).
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_input {
  const void *host;                /* host memory, or NULL */
  const ocl_reduce_buffer *buffer; /* a buffer of the same context, or NULL */
  size_t offset;                   /* elements from the start of host or buffer */
} ocl_reduce_input;

typedef struct ocl_reduce_output {
  void *host;
  ocl_reduce_buffer *buffer;
  size_t offset;
} ocl_reduce_output;

static inline ocl_reduce_input ocl_reduce_host_input(const void *host) {
  ocl_reduce_input in;
  in.host = host;
  in.buffer = NULL;
  in.offset = 0;
  return in;
}
static inline ocl_reduce_input ocl_reduce_buffer_input(const ocl_reduce_buffer *buffer,
                                                       size_t offset) {
  ocl_reduce_input in;
  in.host = NULL;
  in.buffer = buffer;
  in.offset = offset;
  return in;
}
static inline ocl_reduce_output ocl_reduce_host_output(void *host) {
  ocl_reduce_output out;
  out.host = host;
  out.buffer = NULL;
  out.offset = 0;
  return out;
}
static inline ocl_reduce_output ocl_reduce_buffer_output(ocl_reduce_buffer *buffer,
                                                         size_t offset) {
  ocl_reduce_output out;
  out.host = NULL;
  out.buffer = buffer;
  out.offset = offset;
  return out;
}

/* Reduces segment_count consecutive segments of segment_length elements each (segment i is
 * elements [i * segment_length, (i + 1) * segment_length) of the input) and writes segment_count
 * results, one per segment, in order. segment_length 0 gives identities; segment_count 0 writes
 * nothing. OCL_REDUCE_ERROR_INVALID_ARGUMENT when segment_count * segment_length overflows,
 * OCL_REDUCE_ERROR_OUT_OF_RANGE when the segments or results reach beyond a buffer.
 * Typical use, the sums of the rows of a row-major matrix:
 *   ocl_reduce_segments(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_host_input(matrix), rows,
 *                       columns, ocl_reduce_host_output(row_sums)); */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_segments(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                     ocl_reduce_type type, ocl_reduce_input input,
                                                     size_t segment_count, size_t segment_length,
                                                     ocl_reduce_output results);

/* Reduces segments given by CSR-style offsets: segment_count + 1 uint64_t values, segment i being
 * elements [offsets[i], offsets[i + 1]) of the input (offsets[0] need not be 0). An empty segment
 * gives the identity. Offsets that decrease, or reach beyond a buffer input, give
 * OCL_REDUCE_ERROR_BAD_OFFSETS (checked on the device when the offsets are in a buffer; that costs
 * one small copy each way). Offsets in a buffer need the input in a buffer too. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_segments_offsets(ocl_reduce_context *ctx,
                                                             ocl_reduce_op op,
                                                             ocl_reduce_type type,
                                                             ocl_reduce_input input,
                                                             size_t segment_count,
                                                             ocl_reduce_input offsets,
                                                             ocl_reduce_output results);

/* Reduces count elements of the input, as ocl_reduce does, into one result: in host memory, or
 * in a buffer (result.offset counts results of ocl_reduce_result_size(op, type) bytes), where the
 * call returns once the work is enqueued (see "Enqueueing without waiting"). The result buffer
 * must not overlap the input. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_into(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                 ocl_reduce_type type, ocl_reduce_input input,
                                                 size_t count, ocl_reduce_output result);

/* Reduces the same count elements with op_count (1 .. OCL_REDUCE_MULTI_MAX_OPS) operators in one
 * pass over the data, for example sum, min and max together, and writes op_count results in the
 * order of ops. Every operator must suit the type, as for ocl_reduce. */
#define OCL_REDUCE_MULTI_MAX_OPS 8
OCL_REDUCE_API ocl_reduce_status ocl_reduce_multi(ocl_reduce_context *ctx,
                                                  const ocl_reduce_op *ops, size_t op_count,
                                                  ocl_reduce_type type, ocl_reduce_input input,
                                                  size_t count, ocl_reduce_output results);

/* ---------------------------------------------------------------------------------------------
 * Sliding windows.
 *
 * Reduces every window of `window` consecutive elements of the input's first `count`: result j
 * (0 <= j <= count - window) is op over elements [j, j + window), so count - window + 1 results,
 * each ocl_reduce_result_size(op, type) bytes, with the semantics of ocl_reduce (identities,
 * NaN, wrapping). Every built-in operator and type; input and results in host memory or buffers
 * (a results buffer must not overlap the input). window == 0 or window > count:
 * OCL_REDUCE_ERROR_BAD_WINDOW, nothing written.
 *
 *   ARGMIN, ARGMAX  the index counts from the input's first element (window j's lies in
 *                   [j, j + window)), not from the window's.
 *   Float sums      each result carries the error bound of a sum of `window` terms in some
 *                   order: |error| <= g sum |x|, g = (window - 1) u / (1 - (window - 1) u) (u:
 *                   the unit roundoff); the bits do not depend on whether the input or results
 *                   are host memory or buffers.
 *
 * The planner chooses per device and window (OCL_REDUCE_POLICY="win=direct|shuffle|mr|blocks|
 * long|serial" forces one): a fold per window up to 4 elements; van Herk / Gil-Werman beyond
 * (each result from a suffix and a prefix within blocks of `window` elements: three combines per
 * result whatever the window's length), on GPUs in local-memory tiles while a window fits half a
 * tile, else a work-group per block, on CPUs a work-item per block. "shuffle" and "mr" spread
 * each window over the lanes of a subgroup and reduce it there, window by window or with the
 * iterative multireduction (Parker & MacKinnon §3). Host input is uploaded in pieces that overlap
 * by window - 1 elements (pieces of at least 2 * window elements: a window longer than half the
 * staging buffer takes device memory for twice its length).
 * ------------------------------------------------------------------------------------------- */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_windows(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                    ocl_reduce_type type, ocl_reduce_input input,
                                                    size_t count, size_t window,
                                                    ocl_reduce_output results);

/* ---------------------------------------------------------------------------------------------
 * Structured operators: ocl_reduce, ocl_reduce_buffer_reduce, ocl_reduce_segments and
 * ocl_reduce_segments_offsets take them like the scalar ones; each result is
 * ocl_reduce_result_size(op, type) bytes (a results array holds that many per segment).
 *
 *   ARGMIN, ARGMAX  an ocl_reduce_arg: the extreme value and the FIRST index that holds it (for
 *                   segments, the index within the segment). Floats: any NaN makes the result the
 *                   first NaN and its index (as MIN and MAX propagate NaN), and -0.0 orders below
 *                   +0.0. count == 0 (or an empty segment) gives index UINT64_MAX and MIN's / MAX's
 *                   identity (+inf / -inf, or the type's largest / smallest value).
 *   MINMAX          two elements of the type, MIN's result then MAX's, with their semantics.
 *   SUM_WIDE        i32 -> int64_t, u32 -> uint64_t (both exact, wrapping modulo 2^64), f32 ->
 *                   double (each element converted exactly, summed in double). Other types:
 *                   OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION.
 *   SUM_COMPENSATED f32, f64: one element of the type. Neumaier's compensated sum: every addition's
 *                   rounding error is kept exactly and added at the end, so the result is
 *                   within a few ulps of the exact sum where a plain sum may be far off (1e8f
 *                   followed by a million 1.0f). An infinite or NaN sum is returned as it is.
 *                   Integer types: OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION.
 *   MEAN_VAR        an ocl_reduce_moments: count, mean and M2 (the sum of squared deviations from
 *                   the mean) in double for every type, in one pass (Welford's update merged as
 *                   Chan et al.), so large offsets do not cancel (1e8 + noise in f32 keeps its
 *                   variance). Population variance m2 / count, sample variance m2 / (count - 1).
 *                   count == 0 gives {0, 0.0, 0.0}.
 *   SUM_REPRODUCIBLE  f32, f64: one element, the same bits for the same values in any order, on
 *                   every device, path and launch shape (what SUM is under
 *                   OCL_REDUCE_CROSS_DEVICE). Binned summation after Demmel and Nguyen
 *                   (ReproBLAS): each element splits into pieces on a fixed grid of bins placed by
 *                   max |x| (4 folds, 13 bits apart for f32, 24 for f64; each piece rounded to
 *                   its fold's unit, to nearest, ties to even), the pieces are summed
 *                   exactly in 64-bit integers, and their exact sum is rounded once to nearest.
 *                   Bound: |result - exact sum| <= n * 2^-39 * max|x| + ulp(result)/2 for f32,
 *                   n * 2^-72 * max|x| + ulp(result)/2 for f64 (exact folds for n < 2^51 f32,
 *                   2^40 f64 elements). A NaN, or +inf with -inf, gives the quiet NaN 0x7fc00000
 *                   (f32) / 0x7ff8000000000000 whatever the input's payloads; +inf or -inf gives
 *                   that infinity; an exact sum beyond the largest float gives an infinity (but
 *                   3e38 + 3e38 - 3e38 is 3e38: nothing overflows on the way); an exact zero is
 *                   +0.0. Devices that flush denormal inputs to zero (none that the tests ran
 *                   on) would see denormal elements as zeros. Integer types:
 *                   OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION.
 * The structured operators need double precision where they compute in it (SUM_WIDE on f32,
 * MEAN_VAR): OCL_REDUCE_ERROR_NO_FP64 on devices without it.
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_arg {
  union {
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f32;
    double f64;
  } value;        /* the member of the input type; the rest of the 8 bytes is 0 */
  uint64_t index; /* the first index of the value; UINT64_MAX for count == 0 */
} ocl_reduce_arg;

typedef struct ocl_reduce_moments {
  uint64_t count;
  double mean;
  double m2; /* sum of (x - mean)^2 */
} ocl_reduce_moments;

/* Bytes of one result of op on type (scalar operators: the element size); 0 where op or type is
 * unknown or op is not defined on type. */
OCL_REDUCE_API size_t ocl_reduce_result_size(ocl_reduce_op op, ocl_reduce_type type);

/* ---------------------------------------------------------------------------------------------
 * User-defined operators: an element type, a state type and three functions written in OpenCL C,
 * compiled by the library for the context's device (OpenCL, or CUDA through NVRTC: the same
 * text). A reduction maps every element to a state with its index and combines the states:
 *
 *   STATE identity(void)                   the state of no elements: combine(identity(), s) == s
 *   STATE map(ELEMENT x, ulong index)      one element; index counts from 0 at the start of the
 *                                          reduction (of the segment, for segmented calls)
 *   STATE combine(STATE a, STATE b)        associative; commutative unless `commutative` is
 *                                          0, where `a` covers the lower indices
 *
 * Each result is one STATE (state_size bytes). Types are plain C structs or scalars of OpenCL C's
 * scalar types (char ... ulong, float, double with cl_khr_fp64), up to 64 bytes each, with the
 * same layout the host compiler gives the matching C struct: the library checks sizeof on the
 * device when the operator is created (OCL_REDUCE_ERROR_OPERATOR_SIZE when they differ), so a
 * layout mistake fails there, not with wrong results. Avoid OpenCL's vector types (float3 is 16
 * bytes, and CUDA has no such types) and names starting with orx_ or ORX_ (the library's). For
 * CUDA the library maps OpenCL C's scalar type names, INFINITY, NAN, MAXFLOAT, FLT_MAX/MIN and
 * DBL_MAX/MIN; math functions that CUDA has under the same names (fmin, fmax, sqrt, fabs, isnan,
 * min, max, ...) work as they are; other OpenCL built-ins do not. The functions may be called
 * in any grouping; results of float arithmetic may therefore differ in rounding between devices
 * and paths, as built-in float sums do (the same input on the same device and path gives the
 * same bits on every run).
 *
 * Example, the sum of squares of floats (element float, state float):
 *   static const char source[] =
 *       "float zero(void) { return 0.0f; }\n"
 *       "float square(float x, ulong i) { return x * x; }\n"
 *       "float add(float a, float b) { return a + b; }\n";
 *   ocl_reduce_operator_desc d = {sizeof d, source, "float", "float", "zero", "square", "add",
 *                                 sizeof(float), sizeof(float), 1};
 *   ocl_reduce_operator *op;
 *   ocl_reduce_operator_create(ctx, &d, &op);
 *   float sum_sq;
 *   ocl_reduce_custom(ctx, op, ocl_reduce_host_input(x), n, ocl_reduce_host_output(&sum_sq));
 *   ocl_reduce_operator_destroy(op);
 * examples/custom_operator.c reduces {float x, y, z} points to their bounding box.
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_operator ocl_reduce_operator;

typedef struct ocl_reduce_operator_desc {
  size_t struct_size;       /* sizeof(ocl_reduce_operator_desc): later versions may grow it */
  const char *source;       /* OpenCL C defining both types and the three functions */
  const char *element_type; /* the element type's name: "point", "float", "struct point" */
  const char *state_type;   /* the state type's name */
  const char *identity;     /* function names, C identifiers */
  const char *map;
  const char *combine;
  size_t element_size; /* sizeof the element type on the host: 1 ... 64 */
  size_t state_size;   /* sizeof the state type on the host: 1 ... 64 */
  int commutative;     /* nonzero: combine(a, b) == combine(b, a), so the library may combine in
                          any order. 0: an order-preserving operator (matrix products,
                          compositions of functions or of state machines' tables): every
                          combine keeps index order, its first argument covering lower indices,
                          on every path, backend and device, whole arrays and segments alike.
                          It costs little where states are large (H200: 2x2 u32 matrices at
                          1.05x the commutative throughput) and more where combine is dear
                          against the bytes (16-state tables in a u64: 0.41x); see
                          docs/PERFORMANCE.md and examples/csv_records.c. */
} ocl_reduce_operator_desc;

/* Checks the descriptor, compiles the source with a probe kernel for ctx's device and compares
 * the sizes. Errors: INVALID_ARGUMENT (NULL or empty source, a name that is not an identifier or
 * that the source does not contain, sizes out of range, struct_size too small);
 * BUILD (the compiler's log in ocl_reduce_last_error);
 * OPERATOR_SIZE (the device's sizeof differs: both sizes in the message). *out is set only on
 * success. The operator belongs to ctx (other contexts refuse it) and keeps a copy of the
 * descriptor's strings. Programs for it are built on first use and cached in ctx. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_operator_create(ocl_reduce_context *ctx,
                                                            const ocl_reduce_operator_desc *desc,
                                                            ocl_reduce_operator **out);
/* Frees it (NULL is ignored); before or after its context is destroyed. */
OCL_REDUCE_API void ocl_reduce_operator_destroy(ocl_reduce_operator *op);
/* The bytes of its state, which are the bytes of its results (0 for NULL). */
OCL_REDUCE_API size_t ocl_reduce_operator_state_size(const ocl_reduce_operator *op);

/* ocl_reduce, ocl_reduce_segments and ocl_reduce_segments_offsets with a user operator: input
 * elements and results are the operator's element and state types (offsets count them), and
 * everything else is as for the built-in calls. count == 0 and empty segments give identity(). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_custom(ocl_reduce_context *ctx,
                                                   const ocl_reduce_operator *op,
                                                   ocl_reduce_input input, size_t count,
                                                   ocl_reduce_output result);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_custom_segments(ocl_reduce_context *ctx,
                                                            const ocl_reduce_operator *op,
                                                            ocl_reduce_input input,
                                                            size_t segment_count,
                                                            size_t segment_length,
                                                            ocl_reduce_output results);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_custom_segments_offsets(
    ocl_reduce_context *ctx, const ocl_reduce_operator *op, ocl_reduce_input input,
    size_t segment_count, ocl_reduce_input offsets, ocl_reduce_output results);

/* ---------------------------------------------------------------------------------------------
 * Reductions in parts: partial states
 *
 * An array reduced in parts (on several devices or contexts, in several processes, or as it
 * arrives): each part reduces to its state with ocl_reduce_state, `index_base` being the index of
 * the part's first element in the whole array (ARGMIN, ARGMAX and user operators see indices);
 * then the parts' states, in array order, combine into the result with ocl_reduce_states, or into
 * one state with ocl_reduce_states_merge (to be combined again later, with the states of other
 * parts: a tree of merges gives the same result). A state is plain bytes, ocl_reduce_state_size
 * of them: it may be copied between devices, contexts and processes (all of the same library
 * version, and for float types of the same byte order). Each part, and each combine, runs on the
 * device of the context that is given it.
 *
 * The result is the whole array's reduction, whatever the split: bit for bit for integer
 * operators, MIN, MAX, ARGMIN, ARGMAX, MINMAX (but for which NaN, where NaNs of different sign or
 * payload meet), and the reproducible sum (SUM_REPRODUCIBLE, or
 * SUM in a context created with OCL_REDUCE_CROSS_DEVICE: give every part such a context); in
 * index order for user operators that are not commutative; other float operators round as their
 * grouping makes them. Empty parts are allowed (their state is the identity's). Scalar
 * operators' states are their results; SUM on signed integers wraps as the whole reduction does.
 * Inputs and outputs are host memory or buffers of ctx, as for ocl_reduce_into; errors are those
 * of ocl_reduce_into, naming "input", "states", "state" or "result".
 * ------------------------------------------------------------------------------------------- */

/* Bytes of one state of op on type as ctx reduces it (SUM under OCL_REDUCE_CROSS_DEVICE takes
 * SUM_REPRODUCIBLE's; ctx may be NULL for a context without options); 0 where op or type is
 * unknown or op is not defined on type. */
OCL_REDUCE_API size_t ocl_reduce_state_size(const ocl_reduce_context *ctx, ocl_reduce_op op,
                                            ocl_reduce_type type);
/* count elements of `input` (the part; count may be 0), its first at index index_base of the
 * whole array, to one state. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_state(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                  ocl_reduce_type type, ocl_reduce_input input,
                                                  size_t count, uint64_t index_base,
                                                  ocl_reduce_output state);
/* count states (the parts' in array order) to the result (ocl_reduce_result_size bytes). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_states(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                   ocl_reduce_type type, ocl_reduce_input states,
                                                   size_t count, ocl_reduce_output result);
/* count states (in array order) to the one state of all their parts together. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_states_merge(ocl_reduce_context *ctx,
                                                         ocl_reduce_op op, ocl_reduce_type type,
                                                         ocl_reduce_input states, size_t count,
                                                         ocl_reduce_output state);
/* The same with a user operator: its states are its results (state_size bytes), so
 * ocl_reduce_custom_states both merges states and gives the result. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_custom_state(ocl_reduce_context *ctx,
                                                         const ocl_reduce_operator *op,
                                                         ocl_reduce_input input, size_t count,
                                                         uint64_t index_base,
                                                         ocl_reduce_output state);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_custom_states(ocl_reduce_context *ctx,
                                                          const ocl_reduce_operator *op,
                                                          ocl_reduce_input states, size_t count,
                                                          ocl_reduce_output result);

/* ---------------------------------------------------------------------------------------------
 * Several devices: groups
 *
 * A group is a list of contexts, one per device, that reduce one request together. The devices
 * may be of one backend or mixed (OpenCL and CUDA contexts side by side), and the same device may
 * be listed twice (two contexts on it; that is how CI stands in for two devices).
 *   - An array is cut into one contiguous part per device, in proportion to the group's shares.
 *     Each context reduces its part to a state (ocl_reduce_state, "Reductions in parts") on its
 *     own host thread, all at once, and the states combine in device order on the group's first
 *     context (ocl_reduce_states). So every operator works, order-preserving user operators
 *     included, and the reproducible sum (SUM_REPRODUCIBLE, or SUM in contexts created with
 *     OCL_REDUCE_CROSS_DEVICE) gives the same bits whatever the number of devices and the shares.
 *   - Segments are cut by whole segments; each device writes its own segments' results.
 *   - Device-resident data lives in a group buffer: one buffer per device, holding that device's
 *     part of the array.
 *   - The split depends only on the element count and the shares, which stay as they are until
 *     ocl_reduce_group_set_shares: a group gives the same bits on every run. Other float operators
 *     round as the split groups them, as they do across parts.
 *   - Shares: equal when every device is the same model (same backend and device name). Otherwise
 *     measured when the group is created: each device's throughput reducing 32 MiB from host
 *     memory (host shares) and from one of its buffers (resident shares), a few milliseconds per
 *     device. Measured shares vary a little between processes, and with them float rounding: set
 *     the shares for the same bits in every process.
 *   - A part below the planner's minimum (64 MiB of input; OCL_REDUCE_POLICY="part_kib=N" forces
 *     N KiB) is not worth its device's thread and launch: fewer devices take the array then, those
 *     with the larger shares. Small arrays run on one device.
 * A group is used by one thread at a time, and its contexts must not be used meanwhile. Group
 * calls report failures through ocl_reduce_last_error(NULL), naming the argument or the device
 * (its index in the group and its name) and that device's own message. Results are written only
 * on success, but for segments, where devices that succeeded have written theirs.
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_group ocl_reduce_group;
#define OCL_REDUCE_GROUP_MAX_DEVICES 64

/* A group over the devices that `devices` names: selectors as OCL_REDUCE_DEVICE takes them,
 * separated by commas ("cuda:0,cuda:1", "0:0,0:1", "pocl,pocl", "pocl,intel"). NULL takes
 * OCL_REDUCE_DEVICES, else every GPU and accelerator of the platform (OpenCL) or backend (CUDA)
 * of the device ocl_reduce_context_create picks, else that device alone. Each context is created
 * with opts (NULL: defaults), whose `device` field is ignored. *out is set only on success. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_create(const ocl_reduce_options *opts,
                                                         const char *devices,
                                                         ocl_reduce_group **out);
/* A group over contexts the application created (count 1 .. OCL_REDUCE_GROUP_MAX_DEVICES, each
 * at most once): the group borrows them; destroy the group first. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_create_from(ocl_reduce_context *const *contexts,
                                                              size_t count,
                                                              ocl_reduce_group **out);
/* Frees the group and the contexts it created (NULL is ignored). Group buffers and operators may
 * be destroyed before or after it. */
OCL_REDUCE_API void ocl_reduce_group_destroy(ocl_reduce_group *group);
/* The number of devices (0 for NULL), and the context of device `index` (NULL out of range). */
OCL_REDUCE_API size_t ocl_reduce_group_size(const ocl_reduce_group *group);
OCL_REDUCE_API ocl_reduce_context *ocl_reduce_group_context(const ocl_reduce_group *group,
                                                            size_t index);

/* Which shares: of host arrays, or of group buffers (fixed in each buffer when it is created). */
typedef enum ocl_reduce_shares {
  OCL_REDUCE_SHARES_HOST = 0,
  OCL_REDUCE_SHARES_RESIDENT = 1
} ocl_reduce_shares;
/* Writes ocl_reduce_group_size(group) shares, in device order, summing to 1. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_shares(const ocl_reduce_group *group,
                                                         ocl_reduce_shares which, double *shares);
/* Sets them from weights (finite, >= 0, not all 0; any scale; 0 leaves a device out). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_set_shares(ocl_reduce_group *group,
                                                             ocl_reduce_shares which,
                                                             const double *weights);

/* Data spread over a group: count elements of element_size bytes, one buffer per device, each
 * holding a contiguous part cut by the resident shares in whole units of `granule` elements
 * (1: anywhere; a segment length: whole segments). Parts below the planner's minimum are empty. */
typedef struct ocl_reduce_group_buffer ocl_reduce_group_buffer;
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_buffer_create(ocl_reduce_group *group,
                                                                size_t element_size, size_t count,
                                                                size_t granule,
                                                                ocl_reduce_group_buffer **out);
OCL_REDUCE_API void ocl_reduce_group_buffer_destroy(ocl_reduce_group_buffer *buffer);
/* Device `index`'s part: its buffer (NULL where the part is empty), and which elements of the
 * whole it holds, [*first, *first + *count). Fill it with ocl_reduce_buffer_write on that
 * device's context, or with your own kernels (ocl_reduce_program_launch on that context). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_buffer_part(
    const ocl_reduce_group_buffer *buffer, size_t index, ocl_reduce_buffer **part, size_t *first,
    size_t *count);
/* Copies the whole array from host memory to the parts, or back, every device at once (on the
 * group's contexts: the group must still exist). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_buffer_write(ocl_reduce_group_buffer *buffer,
                                                               const void *host);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_buffer_read(const ocl_reduce_group_buffer *buffer,
                                                              void *host);

/* A group call's input: a host array, or a group buffer of the same group (whose count it must
 * take whole). */
typedef struct ocl_reduce_group_input {
  const void *host;
  const ocl_reduce_group_buffer *buffer;
} ocl_reduce_group_input;
static inline ocl_reduce_group_input ocl_reduce_group_host_input(const void *host) {
  ocl_reduce_group_input in;
  in.host = host;
  in.buffer = NULL;
  return in;
}
static inline ocl_reduce_group_input ocl_reduce_group_buffer_input(
    const ocl_reduce_group_buffer *buffer) {
  ocl_reduce_group_input in;
  in.host = NULL;
  in.buffer = buffer;
  return in;
}

/* ocl_reduce over the group: one result in host memory, as ocl_reduce gives it. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_reduce(ocl_reduce_group *group,
                                                         ocl_reduce_op op, ocl_reduce_type type,
                                                         ocl_reduce_group_input input,
                                                         size_t count, void *result);
/* ocl_reduce_segments over the group: segment_count results in host memory, in order. A group
 * buffer's parts must be whole segments (create it with granule = segment_length). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_segments(ocl_reduce_group *group,
                                                           ocl_reduce_op op, ocl_reduce_type type,
                                                           ocl_reduce_group_input input,
                                                           size_t segment_count,
                                                           size_t segment_length, void *results);

/* A user operator on every device of a group (ocl_reduce_operator_create on each context). */
typedef struct ocl_reduce_group_operator ocl_reduce_group_operator;
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_operator_create(
    ocl_reduce_group *group, const ocl_reduce_operator_desc *desc, ocl_reduce_group_operator **out);
OCL_REDUCE_API void ocl_reduce_group_operator_destroy(ocl_reduce_group_operator *op);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_custom(ocl_reduce_group *group,
                                                         const ocl_reduce_group_operator *op,
                                                         ocl_reduce_group_input input,
                                                         size_t count, void *result);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_group_custom_segments(
    ocl_reduce_group *group, const ocl_reduce_group_operator *op, ocl_reduce_group_input input,
    size_t segment_count, size_t segment_length, void *results);

/* ---------------------------------------------------------------------------------------------
 * Your own kernels, with the library's collectives
 *
 * The subgroup and work-group reductions the library's kernels are made of, as a device-side
 * header set for your kernels (cl/ocl_reduce_collectives.h documents them; installed under
 * <includedir>/ocl_reduce/): subgroup reduce, the multireduction of up to 32 values (lane i gets
 * reduction i) and work-group reduce, for any type and any associative combine, on every OpenCL
 * implementation and, from the same text, through CUDA. Write the kernel in OpenCL C (the subset
 * the library's kernels use, which the CUDA backend compiles with NVRTC behind a prelude), and:
 *
 *   ocl_reduce_program *prog;
 *   ocl_reduce_program_build(ctx, source, "my_kernel", 256, &prog);
 *   ocl_reduce_kernel_arg args[] = {ocl_reduce_arg_buffer(in), ocl_reduce_arg_u32(n)};
 *   ocl_reduce_program_launch(ctx, prog, groups, args, 2);
 *   ocl_reduce_program_destroy(prog);
 * examples/binary_match.c matches binary descriptors this way.
 * ------------------------------------------------------------------------------------------- */
typedef struct ocl_reduce_program ocl_reduce_program;

/* One kernel argument: a buffer (the kernel's global pointer parameter), or a value of 4 or 8
 * bytes (uint, int, float; ulong, long, double) given by its bits. */
typedef struct ocl_reduce_kernel_arg {
  ocl_reduce_buffer *buffer; /* NULL for a value */
  uint64_t bits;             /* the value's bits, in the low `bytes` bytes */
  unsigned bytes;            /* 4 or 8 for a value, 0 for a buffer */
} ocl_reduce_kernel_arg;
static inline ocl_reduce_kernel_arg ocl_reduce_arg_buffer(ocl_reduce_buffer *buffer) {
  ocl_reduce_kernel_arg a = {buffer, 0, 0};
  return a;
}
static inline ocl_reduce_kernel_arg ocl_reduce_arg_u32(uint32_t value) {
  ocl_reduce_kernel_arg a = {NULL, value, 4};
  return a;
}
static inline ocl_reduce_kernel_arg ocl_reduce_arg_u64(uint64_t value) {
  ocl_reduce_kernel_arg a = {NULL, value, 8};
  return a;
}
static inline ocl_reduce_kernel_arg ocl_reduce_arg_f32(float value) {
  union {
    float f;
    uint32_t u;
  } v;
  v.f = value;
  return ocl_reduce_arg_u32(v.u);
}

/* Builds `source` for the context's device with the collectives' defines (the subgroup
 * implementation the context chose, ORX_WG_SIZE = work_group_size) ahead of it, and looks up its
 * kernel `kernel_name`, to be launched with work-groups of work_group_size work-items (a power of
 * two, within the device's limit; on NVIDIA a multiple of 32). Its `#include "..."` lines must
 * name the library's device headers (ocl_reduce_collectives.h, ocl_reduce_collectives.inc); they
 * are resolved from the library itself. Errors: INVALID_ARGUMENT (NULL or empty source, a kernel
 * name the source does not contain, a work-group size the device cannot take), KERNEL_SOURCE (an
 * include the library does not have), BUILD (the compiler's log in ocl_reduce_last_error). *out
 * is set only on success. Destroy the program before its context. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_program_build(ocl_reduce_context *ctx,
                                                          const char *source,
                                                          const char *kernel_name,
                                                          unsigned work_group_size,
                                                          ocl_reduce_program **out);
/* Enqueues `groups` (> 0) work-groups of the program's kernel with these arguments (at most 16,
 * in the order of the kernel's parameters) on the context's queue, after everything enqueued
 * before; buffer reads and reductions on ctx come after it. With opts.profiling, the kernel's
 * device time is ocl_reduce_last_kernel_ns afterwards. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_program_launch(ocl_reduce_context *ctx,
                                                           ocl_reduce_program *program,
                                                           size_t groups,
                                                           const ocl_reduce_kernel_arg *args,
                                                           size_t nargs);
/* The native handles, owned by the program: cl_program and cl_kernel (OpenCL), or CUmodule and
 * CUfunction (CUDA). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_program_native(const ocl_reduce_program *program,
                                                           void **native_program,
                                                           void **native_kernel);
/* Releases it, before or after its context is destroyed. NULL is accepted. */
OCL_REDUCE_API void ocl_reduce_program_destroy(ocl_reduce_program *program);
/* The defines ocl_reduce_program_build puts ahead of a source, as compiler options
 * ("-DORX_SG_IMPL=2 -DORX_WG_SIZE=256 ..."), for building such a program yourself with
 * -I<includedir>/ocl_reduce. Cut at capacity bytes; errors as for ocl_reduce_program_build. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_program_defines(ocl_reduce_context *ctx,
                                                            unsigned work_group_size, char *text,
                                                            size_t capacity);

/* ---------------------------------------------------------------------------------------------
 * Errors and diagnostics
 * ------------------------------------------------------------------------------------------- */

/* "OCL_REDUCE_ERROR_NO_FP64"; "OCL_REDUCE_UNKNOWN_STATUS" for values outside the list. */
OCL_REDUCE_API const char *ocl_reduce_status_name(ocl_reduce_status status);
/* "the device has no double precision (cl_khr_fp64)"; "unknown status" outside the list. */
OCL_REDUCE_API const char *ocl_reduce_status_string(ocl_reduce_status status);

/* Detail of the most recent failure on ctx: which argument, which native call and error code,
 * the kernel build log. "" when nothing has failed. With ctx == NULL: the most recent failure in
 * this thread of a call that had no usable context (ocl_reduce_context_create, NULL ctx). The
 * text stays valid until the next call on the same context (or thread). */
OCL_REDUCE_API const char *ocl_reduce_last_error(const ocl_reduce_context *ctx);

/* Device time of the kernels of the context's last reducing call (summed when the call ran
 * several, as segmented reductions of a few huge segments do), in nanoseconds, when the context
 * was created with opts.profiling set; OCL_REDUCE_ERROR_INVALID_ARGUMENT otherwise. Copies are
 * not included. For benchmarks. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_last_kernel_ns(const ocl_reduce_context *ctx,
                                                           uint64_t *ns);

/* How the context runs a reduction of `count` elements with `op` on `type`, as its planner decides
 * it: the kernel file, the launch policy in OCL_REDUCE_POLICY syntax (so a field can be forced to
 * compare), how work-groups combine, and the grid. With segment_length > 0, ocl_reduce_segments
 * of count / segment_length segments of that length from host memory instead. Writes one
 * NUL-terminated line to text, cut at capacity bytes. For tools and tuning (`ocl-reduce info`
 * prints it): the wording may change between versions. Builds nothing. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_describe_plan(ocl_reduce_context *ctx,
                                                          ocl_reduce_op op, ocl_reduce_type type,
                                                          size_t count, size_t segment_length,
                                                          char *text, size_t capacity);

/* Element size in bytes of a type (0 for unknown values), and printable names ("f32", "sum"). */
OCL_REDUCE_API size_t ocl_reduce_type_size(ocl_reduce_type type);
OCL_REDUCE_API const char *ocl_reduce_type_name(ocl_reduce_type type);
OCL_REDUCE_API const char *ocl_reduce_op_name(ocl_reduce_op op);

#ifdef __cplusplus
}
#endif

#endif /* OCL_REDUCE_H */
