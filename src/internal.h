/* =================================================================================================
 * internal.h: types and functions shared inside the library. Nothing here includes an OpenCL or
 * CUDA header: the backends (backend_opencl.c) keep their native types to themselves and meet the
 * rest of the library through the table in backend.h.
 * ============================================================================================== */
#ifndef ORX_INTERNAL_H
#define ORX_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

#if defined(__GNUC__)
#define ORX_PRINTF(fmt_index, args_index) __attribute__((format(printf, fmt_index, args_index)))
#else
#define ORX_PRINTF(fmt_index, args_index)
#endif

#define ORX_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ORX_STRINGIFY_(x) #x
#define ORX_STRINGIFY(x) ORX_STRINGIFY_(x)

typedef struct orx_backend orx_backend;         /* a backend's state for one device */
typedef struct orx_backend_ops orx_backend_ops; /* backend.h */
typedef struct orx_program orx_program;         /* a built program and its kernel */
typedef struct orx_mem orx_mem;                 /* a device allocation */

/* ---- Device capabilities, as the backend reads them --------------------------------------- */
typedef struct orx_caps {
  char platform_name[256];
  char platform_version[256];
  char device_name[256];
  char device_version[256];
  char driver_version[256];
  unsigned platform_index, device_index;
  ocl_reduce_device_type type;
  unsigned compute_units;
  size_t max_work_group_size;
  uint64_t local_mem_bytes;
  uint64_t max_alloc_bytes;
  uint64_t global_mem_bytes;
  unsigned base_align_bytes; /* every allocation starts at a multiple of this */
  int has_fp64;
  int has_khr_subgroups;     /* cl_khr_subgroups, or the OpenCL C 3.0 feature __opencl_c_subgroups */
  int has_khr_shuffle;       /* cl_khr_subgroup_shuffle */
  int has_intel_subgroups;   /* cl_intel_subgroups */
  unsigned nv_warp_size;     /* NVIDIA's OpenCL: CL_DEVICE_WARP_SIZE_NV; CUDA: the warp size */
  int has_cuda_shuffle;      /* the CUDA backend: __shfl_xor_sync */
  int has_pci_address;       /* pci_*: where the device sits (cl_khr_pci_bus_info) */
  unsigned pci_domain, pci_bus, pci_device;
  int emulated_subgroups;    /* subgroup operations are work-group barriers (PoCL's CPU device) */
  int host_visible_memory;   /* the backend's alloc_host_visible works (OpenCL: fine-grained SVM) */
} orx_caps;

/* ---- Policy: how kernels are built and launched on a device, as plain data ---------------- */
typedef enum orx_stream {
  ORX_STREAM_STRIDED = 0, /* grid-stride: coalesced, one wave of groups */
  ORX_STREAM_CHUNK = 1,   /* a contiguous run per work-item (CPUs) */
  ORX_STREAM_TILED = 2    /* a contiguous share per group, strided inside it (CUB's layout) */
} orx_stream;

typedef struct orx_policy {
  ocl_reduce_path path;                   /* SUBGROUP or LOCAL */
  ocl_reduce_subgroup_impl subgroup_impl; /* NONE on the LOCAL path */
  orx_stream stream;
  unsigned wg_size;        /* work-items per group, a power of two */
  unsigned vec;            /* elements per load */
  unsigned unroll;         /* independent accumulators per work-item */
  unsigned max_groups;     /* grid cap; also the size of the partials buffer */
  size_t items_per_group;  /* elements one group should get before another group is worth it */
  int finish_serial;       /* the last group combines the partials in one work-item (CPUs) */
} orx_policy;

/* select.c: pure functions of the capabilities, so tests can feed them synthetic devices. */
ocl_reduce_status orx_resolve_path(const orx_caps *caps, ocl_reduce_path path,
                                   ocl_reduce_subgroup_impl impl, ocl_reduce_path *path_out,
                                   ocl_reduce_subgroup_impl *impl_out, const char **why);
void orx_select_policy(const orx_caps *caps, ocl_reduce_path path, ocl_reduce_subgroup_impl impl,
                       ocl_reduce_type type, orx_policy *out);
size_t orx_policy_groups(const orx_policy *policy, size_t count);

/* Policy fields forced through OCL_REDUCE_POLICY ("wg=64,vec=4,unroll=2,groups=32,stream=strided,
 * finish=group"), for tests and tuning; 0 / -1 leave a field to the selector. */
typedef struct orx_policy_override {
  unsigned wg_size, vec, unroll, max_groups;
  int stream;        /* -1, or an orx_stream */
  int finish_serial; /* -1, 0 or 1 */
} orx_policy_override;
ocl_reduce_status orx_parse_policy_override(const char *text, orx_policy_override *out);
void orx_apply_policy_override(const orx_caps *caps, const orx_policy_override *o,
                               ocl_reduce_type type, orx_policy *p);
/* The policy a context uses for a type: the selector's, with the override applied. */
void orx_context_policy(const ocl_reduce_context *ctx, ocl_reduce_type type, orx_policy *out);

/* ---- Types and operators (types.c) --------------------------------------------------------- */
int orx_type_valid(ocl_reduce_type type);
int orx_op_valid(ocl_reduce_op op);
int orx_type_is_float(ocl_reduce_type type);
/* The identity of op on type, as the type's bit pattern (one table for host and kernels). */
uint64_t orx_identity_bits(ocl_reduce_op op, ocl_reduce_type type);
/* The type a kernel computes in: integer SUM/PROD/AND/OR/XOR run unsigned (wrapping is defined
 * and gives the same bits as two's-complement signed wrapping). */
ocl_reduce_type orx_compute_type(ocl_reduce_op op, ocl_reduce_type type);
const char *orx_path_name(ocl_reduce_path path);
const char *orx_subgroup_impl_name(ocl_reduce_subgroup_impl impl);

/* ---- Kernel sources (kernels.c) --------------------------------------------------------------- */
typedef struct orx_source {
  const char *name; /* file name in cl/ */
  const char *text;
  size_t length;
} orx_source;

/* Finds a kernel source by file name: the embedded copy, or OCL_REDUCE_KERNEL_DIR/<name> when that
 * variable is set (read on each call; the text is owned by *holder, freed with orx_source_free). */
ocl_reduce_status orx_source_get(ocl_reduce_context *ctx, const char *name, orx_source *out,
                                 char **holder);
void orx_source_free(char *holder);

/* ---- Programs: build on first use, cache per context (program.c) ---------------------------- */
typedef enum orx_kernel_kind { ORX_KERNEL_REDUCE_ALL = 0, ORX_KERNEL_KIND_COUNT } orx_kernel_kind;

typedef struct orx_built {
  orx_program *program;
  ocl_reduce_type type;   /* the compute type it was built for */
  orx_policy policy;      /* how to launch it */
  unsigned subgroup_size; /* 0 when the kernel does not use subgroups or the backend cannot say */
} orx_built;

/* The text of a program: the generated #define block, the backend's prelude (or NULL), the cl/
 * files of the kernel kind. Free with orx_program_text_free. */
typedef struct orx_program_text {
  char defines[1024];
  orx_source sources[16];
  char *holders[16];
  size_t count;
  const char *kernel_name;
} orx_program_text;
ocl_reduce_status orx_program_sources(ocl_reduce_context *ctx, const char *prelude,
                                      orx_kernel_kind kind, ocl_reduce_op op,
                                      ocl_reduce_type type, const orx_policy *policy,
                                      unsigned warp_size, orx_program_text *text);
void orx_program_text_free(orx_program_text *text);

ocl_reduce_status orx_program_get(ocl_reduce_context *ctx, orx_kernel_kind kind,
                                  ocl_reduce_op op, ocl_reduce_type compute_type,
                                  const orx_built **out);
void orx_program_cache_clear(ocl_reduce_context *ctx);

/* ---- The context ---------------------------------------------------------------------------- */
#define ORX_ERROR_CAPACITY 16384

struct ocl_reduce_context {
  const orx_backend_ops *ops;
  orx_backend *backend;
  orx_caps caps;
  ocl_reduce_path path;                   /* resolved: SUBGROUP or LOCAL */
  ocl_reduce_subgroup_impl subgroup_impl; /* resolved: NONE on LOCAL */
  int profiling;
  orx_policy_override policy_override;

  orx_built *programs[ORX_KERNEL_KIND_COUNT][OCL_REDUCE_OP_COUNT][OCL_REDUCE_TYPE_COUNT];

  /* Scratch the reduce kernel needs, allocated on first use and kept: the partials of all
   * groups, the last-group counter, the result slot, per-piece results of chunked host input, and
   * the staging buffer host input is uploaded through. */
  orx_mem *partials;
  size_t partials_bytes;
  orx_mem *counter;
  orx_mem *results;
  size_t results_bytes;
  void *results_host; /* results, readable by the host after a finish (NULL: read command) */
  orx_mem *chunk_results;
  size_t chunk_results_bytes;
  orx_mem *staging;
  size_t staging_bytes;

  /* Counters reported by ocl_reduce_context_query. */
  uint64_t kernel_builds;
  uint64_t bytes_to_device;
  uint64_t device_allocations;

  uint64_t last_kernel_ns;
  int has_kernel_time;
  unsigned buffers_alive;

  char error[ORX_ERROR_CAPACITY];
};

struct ocl_reduce_buffer {
  ocl_reduce_context *ctx;
  orx_mem *mem;
  size_t bytes;
};

/* ---- Device memory through the backend, counted for ocl_reduce_context_info (buffer.c) ----- */
ocl_reduce_status orx_device_alloc(ocl_reduce_context *ctx, size_t bytes, orx_mem **out);
ocl_reduce_status orx_device_write(ocl_reduce_context *ctx, orx_mem *dst, size_t offset,
                                   const void *src, size_t bytes);

/* ---- Errors (status.c) ------------------------------------------------------------------------ */
/* Records the message for ocl_reduce_last_error (on ctx, or per thread when ctx is NULL), prints
 * it under OCL_REDUCE_LOG=debug, and returns status. */
ocl_reduce_status orx_fail(ocl_reduce_context *ctx, ocl_reduce_status status, const char *fmt, ...)
    ORX_PRINTF(3, 4);
ocl_reduce_status orx_vfail(ocl_reduce_context *ctx, ocl_reduce_status status, const char *fmt,
                            va_list args);
/* Appends text (a build log) to the message of the last failure. */
void orx_error_append(ocl_reduce_context *ctx, const char *text);
int orx_log_debug(void);
void orx_log(const char *fmt, ...) ORX_PRINTF(1, 2);

/* Returns from the calling function with INVALID_ARGUMENT when cond is false. */
#define ORX_CHECK_ARG(ctx, cond, ...)                                                              \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      return orx_fail((ctx), OCL_REDUCE_ERROR_INVALID_ARGUMENT, __VA_ARGS__);                      \
  } while (0)

/* Returns the status of expr from the calling function when it is not OK. */
#define ORX_FORWARD(expr)                                                                          \
  do {                                                                                             \
    ocl_reduce_status orx_forward_status_ = (expr);                                                \
    if (orx_forward_status_ != OCL_REDUCE_OK)                                                      \
      return orx_forward_status_;                                                                  \
  } while (0)

/* ---- Small helpers (util.c) ------------------------------------------------------------------- */
int orx_strcasestr(const char *haystack, const char *needle);
void orx_strlcpy(char *dst, const char *src, size_t size);
/* The environment variable's value; NULL when it is unset or empty. */
const char *orx_env(const char *name);

#endif /* ORX_INTERNAL_H */
