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
typedef struct orx_arg orx_arg;                 /* a kernel argument (backend.h) */

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
  int unroll_slots;        /* the multireduction's loops over slots unrolled (GPUs, see select.c) */
} orx_policy;

/* How a segmented reduction spreads segments over work-items (cl/reduce_segments.cl). */
typedef enum orx_seg_mode {
  ORX_SEG_LANE = 0,  /* one work-item per segment */
  ORX_SEG_MR = 1,    /* groups of `width` lanes take `slots` segments: the multireduction */
  ORX_SEG_GROUP = 2, /* one work-group per segment */
  ORX_SEG_LAUNCH = 3, /* one whole-array reduction (cl/reduce_all.cl) per segment */
  ORX_SEG_STAGED = 4  /* equal lengths: runs of segments through local memory, a work-item each */
} orx_seg_mode;

/* What one load of a multireduction lane takes (cl/reduce_segments.cl, ORX_SEG_VECTOR). */
typedef enum orx_seg_load {
  ORX_SEG_ELEMENTS = 0, /* one element */
  ORX_SEG_VECTORS = 1,  /* a whole vector: every segment starts on a vector boundary and is a
                           whole number of vectors long */
  ORX_SEG_MASKED = 2    /* a vector of the aligned grid, the elements outside the segment left out */
} orx_seg_load;

typedef struct orx_seg_plan {
  orx_seg_mode mode;
  unsigned width;    /* MR: lanes per group, a power of two */
  unsigned slots;    /* MR: segments a group takes per set, a power of two <= width */
  orx_seg_load load; /* MR */
  unsigned stage;    /* STAGED: elements the local-memory stage holds, at least one segment */
} orx_seg_plan;

/* What a segmented call reduces, as the planner sees it. */
typedef struct orx_seg_shape {
  size_t count;
  uint64_t elements; /* elements the segments span */
  uint64_t length;   /* equal lengths; 0 with offsets */
  size_t elem;       /* bytes per element */
  int aligned;       /* every segment starts on a boundary of policy->vec elements and is a whole
                        number of such vectors long */
} orx_seg_shape;

/* select.c: pure functions of the capabilities, so tests can feed them synthetic devices. */
ocl_reduce_status orx_resolve_path(const orx_caps *caps, ocl_reduce_path path,
                                   ocl_reduce_subgroup_impl impl, ocl_reduce_path *path_out,
                                   ocl_reduce_subgroup_impl *impl_out, const char **why);
void orx_select_policy(const orx_caps *caps, ocl_reduce_path path, ocl_reduce_subgroup_impl impl,
                       ocl_reduce_type type, orx_policy *out);
size_t orx_policy_groups(const orx_policy *policy, size_t count);
/* The kernel for a segmented call (forced: an orx_seg_mode, or -1; a forced STAGED that cannot
 * hold the segments, or has offsets, becomes MR). */
void orx_plan_segments(const orx_caps *caps, const orx_policy *policy, int forced,
                       const orx_seg_shape *shape, orx_seg_plan *out);
/* MR: sets of `slots` segments a lane group takes at once, so that each lane has 8 vector or 16
 * element loads in flight (8 for one-element segments); 1 for other modes. */
unsigned orx_seg_batch(const orx_seg_plan *plan);
/* STAGED: segments a work-group takes per tile, for segments of `length` elements. */
uint64_t orx_stage_segments(const orx_policy *policy, const orx_seg_plan *plan, uint64_t length);
/* Work-groups to launch for `count` segments of `length` (equal lengths) with a plan (not
 * LAUNCH). */
size_t orx_segment_groups(const orx_policy *policy, const orx_seg_plan *plan, size_t count,
                          uint64_t length);

/* Policy fields forced through OCL_REDUCE_POLICY ("wg=64,vec=4,unroll=2,groups=32,stream=strided,
 * finish=group"), for tests and tuning; 0 / -1 leave a field to the selector. */
typedef struct orx_policy_override {
  unsigned wg_size, vec, unroll, max_groups;
  int stream;        /* -1, or an orx_stream */
  int finish_serial; /* -1, 0 or 1 */
  int seg_mode;      /* -1, or an orx_seg_mode ("seg=lane|mr|group|launch|staged") */
  unsigned seg_slots; /* multireduction segments per lane group, at most its width ("slots=8") */
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
typedef enum orx_kernel_kind {
  ORX_KERNEL_REDUCE_ALL = 0,     /* cl/reduce_all.cl */
  ORX_KERNEL_SEGMENTS = 1,       /* cl/reduce_segments.cl */
  ORX_KERNEL_MULTI = 2,          /* cl/reduce_multi.cl */
  ORX_KERNEL_CHECK_OFFSETS = 3,  /* cl/check_offsets.cl */
  ORX_KERNEL_KIND_COUNT
} orx_kernel_kind;

#define ORX_MULTI_MAX_OPS OCL_REDUCE_MULTI_MAX_OPS

/* What a program is built for, besides the context's policy. Fields a kind does not use stay 0
 * (make variants with orx_variant_of), because the cache compares whole variants. */
typedef struct orx_variant {
  orx_kernel_kind kind;
  ocl_reduce_type type;  /* the compute type */
  ocl_reduce_op op;      /* REDUCE_ALL, SEGMENTS */
  orx_seg_plan seg;      /* SEGMENTS: mode LANE, MR or GROUP, and the MR width */
  int seg_offsets;       /* SEGMENTS: offsets rather than equal lengths */
  unsigned op_count;     /* MULTI */
  ocl_reduce_op ops[ORX_MULTI_MAX_OPS];
} orx_variant;
orx_variant orx_variant_of(orx_kernel_kind kind, ocl_reduce_op op, ocl_reduce_type type);

typedef struct orx_built {
  orx_program *program;
  ocl_reduce_type type;   /* the compute type it was built for */
  orx_policy policy;      /* how to launch it */
  unsigned subgroup_size; /* 0 when the kernel does not use subgroups or the backend cannot say */
} orx_built;

/* The text of a program: the generated #define block, the backend's prelude (or NULL), the cl/
 * files of the kernel kind. Free with orx_program_text_free. */
typedef struct orx_program_text {
  char defines[2048];
  orx_source sources[16];
  char *holders[16];
  size_t count;
  const char *kernel_name;
} orx_program_text;
ocl_reduce_status orx_program_sources(ocl_reduce_context *ctx, const char *prelude,
                                      const orx_variant *variant, const orx_policy *policy,
                                      unsigned warp_size, orx_program_text *text);
void orx_program_text_free(orx_program_text *text);
/* The policy a variant is built and launched with: the context's, fitted to the kernel kind. */
void orx_variant_policy(const ocl_reduce_context *ctx, const orx_variant *variant,
                        orx_policy *out);

ocl_reduce_status orx_program_get(ocl_reduce_context *ctx, const orx_variant *variant,
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

  /* Built programs: whole-array reductions by operator and type (the per-call path), the other
   * kinds in a list (program.c). */
  orx_built *reduce_all[OCL_REDUCE_OP_COUNT][OCL_REDUCE_TYPE_COUNT];
  struct orx_variant_entry *variants;

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
  /* Segmented reductions: results on their way to host memory, offsets uploaded from host memory,
   * and the report of the device-side offsets check. */
  orx_mem *segment_results;
  size_t segment_results_bytes;
  orx_mem *segment_offsets;
  size_t segment_offsets_bytes;
  orx_mem *offsets_report;
  size_t offsets_report_bytes;

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

/* ---- What the reducing entry points share (reduce.c) ----------------------------------------- */
/* Host input goes to the device through a staging buffer of at most this many bytes. */
#define ORX_STAGING_BYTES ((size_t)64 << 20)

/* Checks op and type (and result, when not NULL) as every reducing entry point does. */
ocl_reduce_status orx_check_op_type(ocl_reduce_context *ctx, const char *function,
                                    ocl_reduce_op op, ocl_reduce_type type);
/* Writes the identity of op on type (one element) to host memory. */
void orx_write_identity(ocl_reduce_op op, ocl_reduce_type type, void *result);
/* Grows *mem to at least `bytes` (contents are not kept). */
ocl_reduce_status orx_ensure_mem(ocl_reduce_context *ctx, orx_mem **mem, size_t *have,
                                 size_t bytes);
/* The whole-array kernels' scratch: partials for `per_group` results per group, the counter and
 * the result slot (ORX_RESULT_SLOT_BYTES). */
#define ORX_RESULT_SLOT_BYTES 64
ocl_reduce_status orx_ensure_scratch(ocl_reduce_context *ctx, const orx_policy *policy,
                                     unsigned per_group);
/* Elements to skip from element `offset` of mem until a multiple of `vec` elements of size elem. */
size_t orx_vector_head(const ocl_reduce_context *ctx, const orx_mem *mem, size_t offset,
                       unsigned vec, size_t elem);
/* Starts a reducing call: its kernels' device times add up to the last_kernel_ns it reports. */
void orx_call_begin(ocl_reduce_context *ctx);
/* Enqueues the launch and, when profiling, adds its device time to the call's. */
ocl_reduce_status orx_launch(ocl_reduce_context *ctx, const orx_built *built, size_t groups,
                             const orx_arg *args, size_t nargs);
/* Launches a kernel over elements [offset, offset + count) of `in` with the arguments the
 * whole-array and multi-operator kernels share (in, offset, count, head, partials, counter, out,
 * out_index), then the multi-operator kernel's result stride when out_stride is not NULL. */
ocl_reduce_status orx_launch_array(ocl_reduce_context *ctx, const orx_built *built, orx_mem *in,
                                   size_t offset, size_t count, orx_mem *out, size_t out_index,
                                   const size_t *out_stride);
/* Reduces elements [offset, offset + count) of `in` into element out_index of `out` with a
 * built whole-array kernel (count may be 0: the identity). */
ocl_reduce_status orx_launch_reduce_all(ocl_reduce_context *ctx, const orx_built *built,
                                        orx_mem *in, size_t offset, size_t count, orx_mem *out,
                                        size_t out_index);
/* Reduces count elements of host memory, uploaded in pieces through the staging buffer, into
 * element out_index of `out`. */
ocl_reduce_status orx_reduce_host_into(ocl_reduce_context *ctx, const orx_built *built,
                                       const void *host, size_t count, orx_mem *out,
                                       size_t out_index);
/* Elements of `type` that one upload through the staging buffer takes (whole vectors). */
size_t orx_staging_piece(const ocl_reduce_context *ctx, ocl_reduce_type type, unsigned vec);
/* Copies `bytes` of the result slot to host memory once the work before has finished. */
ocl_reduce_status orx_read_results(ocl_reduce_context *ctx, void *dst, size_t bytes);

/* ---- Where multi-element inputs and outputs lie (io.c) -------------------------------------- */
/* An ocl_reduce_input or ocl_reduce_output, checked and resolved: host memory, or elements
 * [offset, ...) of a device allocation. */
typedef struct orx_io {
  const void *host; /* host memory (already advanced by the element offset), or NULL */
  void *host_out;   /* the same, writable, for outputs */
  orx_mem *mem;     /* device memory, or NULL */
  size_t offset;    /* in elements, for device memory */
  size_t capacity;  /* elements available from offset (device memory); SIZE_MAX for host memory */
} orx_io;
/* Checks `in` for `needed` elements of type (`name` in messages) and resolves it. Host memory may
 * be NULL only when needed is 0. */
ocl_reduce_status orx_resolve_input(ocl_reduce_context *ctx, const char *function,
                                    const char *name, const ocl_reduce_input *in,
                                    ocl_reduce_type type, size_t needed, orx_io *out);
ocl_reduce_status orx_resolve_output(ocl_reduce_context *ctx, const char *function,
                                     const char *name, const ocl_reduce_output *out,
                                     ocl_reduce_type type, size_t needed, orx_io *io);
/* INVALID_ARGUMENT when `out`'s first out_bytes share device memory with `in`'s first in_bytes. */
ocl_reduce_status orx_check_disjoint(ocl_reduce_context *ctx, const char *function,
                                     const char *in_name, const orx_io *in, size_t in_bytes,
                                     const orx_io *out, size_t out_bytes, size_t out_elem,
                                     size_t in_elem);

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
