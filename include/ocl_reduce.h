/*
 * ocl_reduce: reductions of arrays on any OpenCL device, and on NVIDIA GPUs through CUDA. This is
 * the core (contexts, memory, operators, reductions, enqueueing) and the forms it includes, each
 * declaration with its contract; ocl_reduce_group.h: several devices; ocl_reduce_program.h: your
 * kernels with the library's collectives; ocl_reduce_mpi.h: MPI ranks. Reference: docs/API.md.
 *
 * Every call is ocl_reduce_<form>(ctx, op, type, input, <shape>, output): op a built-in or user
 * operator, input and output host memory (with its bytes) or a buffer's elements, everything
 * checked before anything runs (a bad argument: a named status, a message naming it, no output
 * written). Threads may share a context (its calls run one at a time); a destroyed handle is
 * MISUSE, never read.
 *   ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, x, n, &sum, sizeof sum);
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

/* The header's version (CMakeLists.txt reads it here); while it is 0.x, the SONAME is 0.MINOR. */
#define OCL_REDUCE_VERSION_MAJOR 0
#define OCL_REDUCE_VERSION_MINOR 2
#define OCL_REDUCE_VERSION_PATCH 0
#define OCL_REDUCE_VERSION                                                                         \
  (OCL_REDUCE_VERSION_MAJOR * 10000 + OCL_REDUCE_VERSION_MINOR * 100 + OCL_REDUCE_VERSION_PATCH)
/* The version of the library the program runs with, as OCL_REDUCE_VERSION. */
OCL_REDUCE_API int ocl_reduce_version(void);

/* ---- Statuses: 1xx environment, 2xx arguments, 3xx unsupported, 4xx device, 5xx build, 9xx
 * backend. One list gives the enum, ocl_reduce_status_name and ocl_reduce_status_string. ---- */
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
  XX(ERROR_MISUSE, 205, "a handle that is destroyed, or that the library did not make")            \
  XX(ERROR_OUTPUT_TOO_SMALL, 206, "the outputs hold fewer results than the call has")              \
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

/* "OCL_REDUCE_ERROR_NO_FP64" and its text; "OCL_REDUCE_UNKNOWN_STATUS" outside the list. */
OCL_REDUCE_API const char *ocl_reduce_status_name(ocl_reduce_status status);
OCL_REDUCE_API const char *ocl_reduce_status_string(ocl_reduce_status status);

typedef struct ocl_reduce_context ocl_reduce_context;

/* The last failure on ctx ("" when none; ctx NULL: of calls without a usable context): the
 * calling thread's own there, else ctx's latest; the thread's copy until its next call. */
OCL_REDUCE_API const char *ocl_reduce_last_error(const ocl_reduce_context *ctx);

/* ---- Element types ---------------------------------------------------------------------- */
typedef enum ocl_reduce_type {
  OCL_REDUCE_I32 = 0, OCL_REDUCE_U32 = 1, OCL_REDUCE_I64 = 2, OCL_REDUCE_U64 = 3,
  OCL_REDUCE_F32 = 4, OCL_REDUCE_F64 = 5, /* F64 needs double precision (cl_khr_fp64) */
  /* 16-bit floats, IEEE binary16 and bfloat16: summed in f32 (docs/API.md, "16-bit floats") */
  OCL_REDUCE_F16 = 6, OCL_REDUCE_BF16 = 7
} ocl_reduce_type;
#define OCL_REDUCE_TYPE_COUNT 8
/* The type argument that goes with a user operator: its own element type. Not an enumerator, so
 * that switch statements over the element types stay complete without it. (It was 6 before 0.3:
 * programs that pass it are rebuilt against this header.) */
#define OCL_REDUCE_OP_ELEMENT ((ocl_reduce_type)0x100)

/* Bytes of one element (0 for OCL_REDUCE_OP_ELEMENT and unknown values); "f32". */
OCL_REDUCE_API size_t ocl_reduce_type_size(ocl_reduce_type type);
OCL_REDUCE_API const char *ocl_reduce_type_name(ocl_reduce_type type);
/* 16-bit floats (type OCL_REDUCE_F16 or OCL_REDUCE_BF16) by their bits, as the library converts
 * them: to float exactly, from float rounded to nearest, ties to even; NaN stays NaN, infinities
 * and signed zeros are kept. Any other type: 0 and NaN. */
OCL_REDUCE_API uint16_t ocl_reduce_half_from_float(ocl_reduce_type type, float value);
OCL_REDUCE_API float ocl_reduce_float_from_half(ocl_reduce_type type, uint16_t bits);

/* ---- Operators are values: a built-in constant (pair operators: ocl_reduce_pairs.h) or a user
 * operator (ocl_reduce_operator_create). docs/API.md, "Operators", lists each built-in's types,
 * result and semantics; a type it does not take is OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION. */
typedef struct ocl_reduce_operator ocl_reduce_operator;
typedef const ocl_reduce_operator *ocl_reduce_op;

#define OCL_REDUCE_BUILTIN_OPS 14 /* OCL_REDUCE_BUILTIN_OP(i), 0 <= i < this, lists them */
#define OCL_REDUCE_BUILTIN_OP(i) ((ocl_reduce_op)(uintptr_t)((i) + 1))
#define OCL_REDUCE_SUM OCL_REDUCE_BUILTIN_OP(0)
#define OCL_REDUCE_PROD OCL_REDUCE_BUILTIN_OP(1)
#define OCL_REDUCE_MIN OCL_REDUCE_BUILTIN_OP(2)
#define OCL_REDUCE_MAX OCL_REDUCE_BUILTIN_OP(3)
#define OCL_REDUCE_AND OCL_REDUCE_BUILTIN_OP(4)
#define OCL_REDUCE_OR OCL_REDUCE_BUILTIN_OP(5)
#define OCL_REDUCE_XOR OCL_REDUCE_BUILTIN_OP(6)
#define OCL_REDUCE_ARGMIN OCL_REDUCE_BUILTIN_OP(7)
#define OCL_REDUCE_ARGMAX OCL_REDUCE_BUILTIN_OP(8)
#define OCL_REDUCE_MINMAX OCL_REDUCE_BUILTIN_OP(9)
#define OCL_REDUCE_SUM_WIDE OCL_REDUCE_BUILTIN_OP(10)
#define OCL_REDUCE_SUM_COMPENSATED OCL_REDUCE_BUILTIN_OP(11)
#define OCL_REDUCE_MEAN_VAR OCL_REDUCE_BUILTIN_OP(12)
#define OCL_REDUCE_SUM_REPRODUCIBLE OCL_REDUCE_BUILTIN_OP(13)

/* ARGMIN / ARGMAX result: the value (the member of the input type; the rest of the 8 bytes 0)
 * and its first index, UINT64_MAX for count == 0. */
typedef struct ocl_reduce_arg {
  union { int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; float f32; double f64; } value;
  uint64_t index;
} ocl_reduce_arg;

/* MEAN_VAR result: population variance m2 / count, sample variance m2 / (count - 1). */
typedef struct ocl_reduce_moments {
  uint64_t count;
  double mean, m2; /* m2: the sum of (x - mean)^2 */
} ocl_reduce_moments;

/* Bytes of one result of op on type (a user operator's state_size); 0 where op does not take it. */
OCL_REDUCE_API size_t ocl_reduce_result_size(ocl_reduce_op op, ocl_reduce_type type);
/* "sum", "argmin"; a user operator's name; "unknown" for other values. */
OCL_REDUCE_API const char *ocl_reduce_op_name(ocl_reduce_op op);

/* The structs below carry struct_size, set by their _INIT macros (every other field 0), so that
 * later versions can append fields (docs/API.md, "The shape of every call"). */
#define OCL_REDUCE_STRUCT_SIZE_MAX 4096
#if defined(__cplusplus) && __cplusplus < 202002L
#  define OCL_REDUCE_STRUCT_INIT_(type) {sizeof(type)}
#else
#  define OCL_REDUCE_STRUCT_INIT_(type) {.struct_size = sizeof(type)}
#endif

/* A user operator: two types of up to 64 bytes and three functions in OpenCL C, identity(),
 * map(element, index) and an associative combine(a, b), built for each device on first use
 * (docs/API.md, "User operators", and examples/custom_operator.c). A pair operator, for
 * ocl_reduce_pairs* only, names pair_map(a, b, index) instead of map (ocl_reduce_pairs.h). */
typedef struct ocl_reduce_operator_desc {
  size_t struct_size;       /* sizeof(ocl_reduce_operator_desc): OCL_REDUCE_OPERATOR_DESC_INIT */
  const char *source;       /* OpenCL C defining both types and the three functions */
  const char *element_type; /* the element type's name: "point", "float", "struct point" */
  const char *state_type;   /* the state type's name */
  const char *identity, *map, *combine; /* the functions' names, C identifiers */
  size_t element_size;      /* sizeof the element type on the host: 1 ... 64 */
  size_t state_size;        /* sizeof the state type on the host: 1 ... 64 */
  int commutative;          /* 0: an order-preserving operator (see combine) */
  const char *name;         /* for messages and ocl_reduce_op_name; NULL: the combine's name */
  const char *pair_map;     /* NULL; a pair operator's function, with map NULL */
} ocl_reduce_operator_desc;
#define OCL_REDUCE_OPERATOR_DESC_INIT OCL_REDUCE_STRUCT_INIT_(ocl_reduce_operator_desc)

/* Checks the descriptor (its source may not redefine the library's macros) and copies its
 * strings; the first call that uses it compiles it (BUILD, OPERATOR_SIZE). Any number of
 * contexts may use it; destroy it once no call is in flight. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_operator_create(const ocl_reduce_operator_desc *desc,
                                                            ocl_reduce_operator **out);
OCL_REDUCE_API void ocl_reduce_operator_destroy(ocl_reduce_operator *op); /* NULL is ignored */
/* A SHA-256 of all that makes op what it is (a user operator's names, text, sizes and
 * commutativity; a built-in's index): equal in every process for equal operators (the MPI
 * component compares ranks' by it). BACKEND_UNAVAILABLE where OpenSSL's libcrypto is not. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_operator_digest(ocl_reduce_op op,
                                                            unsigned char digest[32]);

/* ---- Contexts: one device through OpenCL or CUDA, kernels built on first use and cached; a
 * field left at its default takes the environment's variable (docs/API.md, "Environment"). */
typedef enum ocl_reduce_path {
  OCL_REDUCE_PATH_DEFAULT = 0,  /* OCL_REDUCE_PATH, else AUTO */
  OCL_REDUCE_PATH_AUTO = 1,     /* SUBGROUP where subgroups exist and help (API.md), else LOCAL */
  OCL_REDUCE_PATH_SUBGROUP = 2, /* subgroup shuffles or subgroup reduce built-ins */
  OCL_REDUCE_PATH_LOCAL = 3     /* doubled-local-memory multireduction (Parker & MacKinnon §6) */
} ocl_reduce_path;

/* The SUBGROUP path's primitive; naming one with path AUTO asks for that path with it. */
typedef enum ocl_reduce_subgroup_impl {
  OCL_REDUCE_SUBGROUP_DEFAULT = 0, /* OCL_REDUCE_SUBGROUP, else AUTO */
  OCL_REDUCE_SUBGROUP_AUTO = 1,    /* KHR, else INTEL, else NV_PTX, else BUILTIN */
  OCL_REDUCE_SUBGROUP_KHR = 2,     /* sub_group_shuffle_xor (cl_khr_subgroup_shuffle) */
  OCL_REDUCE_SUBGROUP_INTEL = 3,   /* intel_sub_group_shuffle_xor (cl_intel_subgroups) */
  OCL_REDUCE_SUBGROUP_BUILTIN = 4, /* sub_group_reduce_* (cl_khr_subgroups), else local memory */
  OCL_REDUCE_SUBGROUP_NONE = 5,    /* reported on the LOCAL path */
  OCL_REDUCE_SUBGROUP_NV_PTX = 6,  /* NVIDIA's OpenCL: shfl.sync.bfly in inline PTX */
  OCL_REDUCE_SUBGROUP_CUDA = 7     /* the CUDA backend: __shfl_xor_sync */
} ocl_reduce_subgroup_impl;

typedef enum ocl_reduce_backend {
  OCL_REDUCE_BACKEND_DEFAULT = 0, /* OCL_REDUCE_BACKEND, else AUTO */
  OCL_REDUCE_BACKEND_AUTO = 1,    /* CUDA for NVIDIA GPUs where it runs, else OpenCL */
  OCL_REDUCE_BACKEND_OPENCL = 2, OCL_REDUCE_BACKEND_CUDA = 3
} ocl_reduce_backend;

typedef enum ocl_reduce_device_type {
  OCL_REDUCE_DEVICE_OTHER, OCL_REDUCE_DEVICE_CPU, OCL_REDUCE_DEVICE_GPU, OCL_REDUCE_DEVICE_ACCELERATOR
} ocl_reduce_device_type;

/* Float SUM's bits: the same on one device and path (RUN_TO_RUN), or on every device
 * (CROSS_DEVICE: SUM_REPRODUCIBLE in every form); docs/API.md, "Determinism". */
typedef enum ocl_reduce_determinism {
  OCL_REDUCE_DETERMINISM_DEFAULT = 0, /* OCL_REDUCE_DETERMINISM, else RUN_TO_RUN */
  OCL_REDUCE_RUN_TO_RUN = 1, OCL_REDUCE_CROSS_DEVICE = 2
} ocl_reduce_determinism;

typedef struct ocl_reduce_options {
  size_t struct_size;                     /* OCL_REDUCE_OPTIONS_INIT */
  const char *device;                     /* as OCL_REDUCE_DEVICE ("0:1", "cuda:0", "pocl") */
  ocl_reduce_path path;                   /* as OCL_REDUCE_PATH */
  ocl_reduce_subgroup_impl subgroup_impl; /* as OCL_REDUCE_SUBGROUP */
  ocl_reduce_backend backend;             /* as OCL_REDUCE_BACKEND */
  int profiling;                          /* nonzero: ocl_reduce_last_kernel_ns works */
  ocl_reduce_determinism determinism;     /* as OCL_REDUCE_DETERMINISM */
  const char *cache_dir;                  /* as OCL_REDUCE_CACHE_DIR, or "off" */
  uint64_t cache_max_bytes;               /* as OCL_REDUCE_CACHE_MAX; 0: it, else 256 MiB */
} ocl_reduce_options;
#define OCL_REDUCE_OPTIONS_INIT OCL_REDUCE_STRUCT_INIT_(ocl_reduce_options)

/* One device (ocl_reduce_devices). */
typedef struct ocl_reduce_device_desc {
  size_t struct_size; /* OCL_REDUCE_DEVICE_DESC_INIT, in out[0] */
  ocl_reduce_backend backend;
  unsigned platform_index, device_index;
  char selector[32]; /* "P:D" or "cuda:N", for ocl_reduce_options.device */
  char platform_name[256];
  char device_name[256];
  ocl_reduce_device_type device_type;
} ocl_reduce_device_desc;
#define OCL_REDUCE_DEVICE_DESC_INIT OCL_REDUCE_STRUCT_INIT_(ocl_reduce_device_desc)

/* Every OpenCL device, then every CUDA device: the first `capacity` into out (stepping by
 * out[0].struct_size, which every element written keeps), their number into *count. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_devices(ocl_reduce_device_desc *out, size_t capacity,
                                                    size_t *count);

/* On opts->device, else the first GPU or accelerator, else the first device (opts may be NULL);
 * a forced path the device cannot take is PATH_UNSUPPORTED. *out is NULL on failure. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_context_create(const ocl_reduce_options *opts,
                                                           ocl_reduce_context **out);
/* On an application's in-order cl_command_queue (retained), or CUstream (not retained). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_context_create_opencl(const ocl_reduce_options *opts,
                                                                  void *cl_command_queue,
                                                                  ocl_reduce_context **out);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_context_create_cuda(const ocl_reduce_options *opts,
                                                                void *cu_stream,
                                                                ocl_reduce_context **out);
/* NULL is ignored; buffers and programs keep what they need alive, destroyed before or after. */
OCL_REDUCE_API void ocl_reduce_context_destroy(ocl_reduce_context *ctx);

/* What a context runs on and has done. Strings and handles live as long as the context. */
typedef struct ocl_reduce_context_info {
  size_t struct_size; /* OCL_REDUCE_CONTEXT_INFO_INIT */
  ocl_reduce_backend backend;
  const char *backend_name; /* "opencl", "cuda" */
  const char *platform_name, *device_name, *device_version, *driver_version;
  unsigned platform_index, device_index; /* the "P:D" of OCL_REDUCE_DEVICE */
  ocl_reduce_device_type device_type;
  ocl_reduce_path path;                   /* SUBGROUP or LOCAL */
  ocl_reduce_subgroup_impl subgroup_impl; /* NONE on the LOCAL path */
  const char *subgroup_impl_name;
  unsigned subgroup_size;   /* of the f32 sum kernel (builds it); 0 on the LOCAL path */
  unsigned work_group_size; /* of the f32 sum kernel */
  unsigned compute_units;
  int has_fp64, has_khr_subgroups, has_khr_subgroup_shuffle, has_intel_subgroups;
  unsigned nv_warp_size; /* NVIDIA's OpenCL only */
  uint64_t local_mem_bytes, max_alloc_bytes, global_mem_bytes;
  /* cl_context, cl_device_id, cl_command_queue; or CUcontext, the CUdevice ordinal, CUstream */
  void *native_context, *native_device, *native_queue;
  /* Programs built (programs_from_disk of them from the disk cache), bytes copied from host
   * memory, allocations: a repeated reduction of a buffer adds to none of them. */
  uint64_t kernel_builds, bytes_to_device, device_allocations, programs_from_disk;
} ocl_reduce_context_info;
#define OCL_REDUCE_CONTEXT_INFO_INIT OCL_REDUCE_STRUCT_INIT_(ocl_reduce_context_info)

OCL_REDUCE_API ocl_reduce_status ocl_reduce_context_query(ocl_reduce_context *ctx,
                                                          ocl_reduce_context_info *info);

/* ---- Memory: a buffer is device memory the library allocated, or an application's it wraps. */
typedef struct ocl_reduce_buffer ocl_reduce_buffer;

OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_create(ocl_reduce_context *ctx, size_t bytes,
                                                          ocl_reduce_buffer **out);
/* An application's cl_mem of the context's cl_context (retained), or `bytes` of its CUDA device
 * memory (a CUdeviceptr; the application's to free, after the buffer). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_wrap_opencl(ocl_reduce_context *ctx,
                                                               void *cl_mem, ocl_reduce_buffer **out);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_wrap_cuda(ocl_reduce_context *ctx,
                                                             uint64_t device_pointer, size_t bytes,
                                                             ocl_reduce_buffer **out);
OCL_REDUCE_API void ocl_reduce_buffer_destroy(ocl_reduce_buffer *buf); /* NULL is ignored */
OCL_REDUCE_API size_t ocl_reduce_buffer_size(const ocl_reduce_buffer *buf); /* 0 for NULL */
/* The buffer's cl_mem (not retained) or CUdeviceptr, the other NULL or 0 (docs/API.md). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_native(const ocl_reduce_buffer *buf,
                                                          void **cl_mem, uint64_t *device_pointer);
/* Blocking copies of `bytes` between host memory and the buffer at byte offset `offset`. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_write(ocl_reduce_buffer *buf, size_t offset,
                                                         const void *src, size_t bytes);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_buffer_read(const ocl_reduce_buffer *buf,
                                                        size_t offset, void *dst, size_t bytes);

/* Page-locked host memory, copied to and from the device at the bus's speed (docs/API.md, "Host
 * memory at the bus's speed"); valid until ocl_reduce_host_free; *host is NULL on failure. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_host_alloc(ocl_reduce_context *ctx, size_t bytes,
                                                       void **host);
/* Frees ocl_reduce_host_alloc's memory of ctx (NULL ignored; another pointer: INVALID_ARGUMENT) */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_host_free(ocl_reduce_context *ctx, void *host);

/* Where a call reads and writes: `bytes` of host memory, or a buffer from element `offset` on
 * (elements, results, or uint64_t offsets). Too small: INVALID_ARGUMENT or OUT_OF_RANGE. */
typedef struct ocl_reduce_input {
  const void *host;
  size_t bytes; /* of host memory */
  const ocl_reduce_buffer *buffer;
  size_t offset; /* in the buffer, in elements */
} ocl_reduce_input;

typedef struct ocl_reduce_output {
  void *host;
  size_t bytes;
  ocl_reduce_buffer *buffer;
  size_t offset;
} ocl_reduce_output;

static inline ocl_reduce_input ocl_reduce_host_input(const void *host, size_t bytes) {
  ocl_reduce_input in = {host, bytes, NULL, 0};
  return in;
}
static inline ocl_reduce_input ocl_reduce_buffer_input(const ocl_reduce_buffer *buffer,
                                                       size_t offset) {
  ocl_reduce_input in = {NULL, 0, buffer, offset};
  return in;
}
static inline ocl_reduce_output ocl_reduce_host_output(void *host, size_t bytes) {
  ocl_reduce_output out = {host, bytes, NULL, 0};
  return out;
}
static inline ocl_reduce_output ocl_reduce_buffer_output(ocl_reduce_buffer *buffer,
                                                         size_t offset) {
  ocl_reduce_output out = {NULL, 0, buffer, offset};
  return out;
}

/* ---- Reductions: with a user operator, type is OCL_REDUCE_OP_ELEMENT (or its elements' scalar
 * type). A call whose outputs are all buffers returns once enqueued (see "Enqueueing"). */

/* count elements of host memory to one result of result_bytes: the one-line convenience. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                            ocl_reduce_type type, const void *input, size_t count,
                                            void *result, size_t result_bytes);

/* count elements of input to one result. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_into(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                 ocl_reduce_type type, ocl_reduce_input input,
                                                 size_t count, ocl_reduce_output result);

/* segment_count segments of segment_length elements each, one result per segment. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_segments(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                     ocl_reduce_type type, ocl_reduce_input input,
                                                     size_t segment_count, size_t segment_length,
                                                     ocl_reduce_output results);

/* Segments by CSR offsets (segment_count + 1 uint64_t: segment i is [offsets[i], offsets[i+1]));
 * decreasing offsets, or offsets past the input, are BAD_OFFSETS. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_segments_offsets(
    ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input input,
    size_t segment_count, ocl_reduce_input offsets, ocl_reduce_output results);

/* Every window of `window` consecutive elements of the first count: count - window + 1 results
 * (ARGMIN's index counts from the input's start). window 0 or > count is BAD_WINDOW. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_windows(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                    ocl_reduce_type type, ocl_reduce_input input,
                                                    size_t count, size_t window,
                                                    ocl_reduce_output results);

/* op_count (1 .. OCL_REDUCE_MULTI_MAX_OPS) operators over the same elements, in one pass where
 * they are scalar built-ins: result k at k * the largest ocl_reduce_result_size of them. */
#define OCL_REDUCE_MULTI_MAX_OPS 8
OCL_REDUCE_API ocl_reduce_status ocl_reduce_multi(ocl_reduce_context *ctx,
                                                  const ocl_reduce_op *ops, size_t op_count,
                                                  ocl_reduce_type type, ocl_reduce_input input,
                                                  size_t count, ocl_reduce_output results);

/* Reductions in parts: each part to a state (its first element at index_base of the whole),
 * states merged, then final to the result, in the order given. A state is state_size bytes that
 * may move between contexts and processes of one version. */
OCL_REDUCE_API size_t ocl_reduce_state_size(const ocl_reduce_context *ctx, ocl_reduce_op op,
                                            ocl_reduce_type type); /* ctx may be NULL */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_partial(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                    ocl_reduce_type type, ocl_reduce_input input,
                                                    size_t count, uint64_t index_base,
                                                    ocl_reduce_output state);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_merge(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                  ocl_reduce_type type, ocl_reduce_input states,
                                                  size_t count, ocl_reduce_output state);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_final(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                  ocl_reduce_type type, ocl_reduce_input states,
                                                  size_t count, ocl_reduce_output result);
/* ocl_reduce_final of a built-in operator on the calling thread, no context: host memory in and
 * out, states of a RUN_TO_RUN context (docs/API.md, "Reductions in parts"). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_final_host(ocl_reduce_op op, ocl_reduce_type type,
                                                       ocl_reduce_input states, size_t count,
                                                       ocl_reduce_output result);

/* ---- Enqueueing: calls run in order, any number in flight (docs/API.md, "Enqueueing"). */

/* Later work waits for these cl_events (OpenCL) or CUevents (CUDA); not retained. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_enqueue_wait(ocl_reduce_context *ctx,
                                                         void *const *events, size_t count);
/* A new event for everything enqueued so far (clReleaseEvent / cuEventDestroy it). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_enqueue_marker(ocl_reduce_context *ctx, void **event);
/* Waits for everything enqueued. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_finish(ocl_reduce_context *ctx);

/* ---- Diagnostics: the last reducing call's kernel time (options.profiling), the plan. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_last_kernel_ns(const ocl_reduce_context *ctx,
                                                           uint64_t *ns);
/* The plan for count elements or pairs (segment_length > 0: in segments), in one line. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_describe_plan(
    ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type, size_t count,
    size_t segment_length, char *text, size_t capacity);

#ifdef __cplusplus
}
#endif
#include "ocl_reduce_axes.h"   /* reductions over axes of strided N-d arrays */
#include "ocl_reduce_pairs.h"  /* reductions of two inputs: dot products, distances */
#include "ocl_reduce_by_key.h" /* reductions of the runs of equal keys */
#include "ocl_reduce_cache.h"  /* the program cache: where, how much, clearing it */

#endif /* OCL_REDUCE_H */
