/* =================================================================================================
 * context.h: what a context, a buffer and a user operator hold. A context binds one device
 * through one backend; the planner's target (device, path, forced policy) is fixed at creation,
 * programs and scratch memory come on first use.
 * ============================================================================================== */
#ifndef ORX_CONTEXT_H
#define ORX_CONTEXT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/registry/registry.h"
#include "exec/context_facts.h"
#include "exec/disk_cache.h"
#include "base/errors.h"
#include "base/handles.h"
#include "exec/memory.h"
#include "planner/plan_axes.h"
#include "planner/planner.h"
#include "exec/program.h"
#include "exec/staging.h"

/* A user operator the context has probed: its text (names, a NUL, source) and its hash. */
typedef struct orx_probed {
  uint64_t hash;
  char *text;
} orx_probed;

/* What the axes' dims buffer (ORX_SCRATCH_AXES_DIMS) holds, so that a view's axes called again
 * are not written again (exec/run_axes.c). */
typedef struct orx_axes_dims_held {
  uint64_t serial; /* the slot's allocation they were written to (orx_scratch); 0: none */
  size_t words;
  uint64_t words_held[ORX_COLUMN_LEVELS * ORX_AXES_DIMS_WORDS];
} orx_axes_dims_held;

struct ocl_reduce_context {
  orx_handle handle; /* its state, its pool, and the lock of its calls (exec/entry.h) */
  /* Next, so that the foundation's failures (base/errors.c) reach it without this struct. */
  orx_error_slot error;
  const orx_backend_ops *ops; /* the backend's table (or a faulty copy: fault_inject.h) */
  const orx_backend_row *backend_row;     /* its registry row: kind and names */
  orx_backend *backend;
  orx_caps caps;
  orx_target target; /* target.caps is &caps */
  int profiling;
  ocl_reduce_determinism determinism; /* never DEFAULT */

  orx_program_cache programs;
  orx_scratch scratch[ORX_SCRATCH_COUNT];
  orx_axes_dims_held axes_dims;
  /* The epochs of the one-pass reduce by key's scratch (kernels/by_key.cl) and of long windows
   * in one launch (kernels/windows.cl): epoch_scratch.h. */
  orx_epochs key_tiles, window_tiles;
  orx_staging staging; /* host memory to and from the device (staging.h) */
  struct orx_threads *host_threads; /* the host plan's groups (host_run.c), shared, on first use */

  /* Counters reported by ocl_reduce_context_query. */
  uint64_t kernel_builds;
  uint64_t bytes_to_device;
  uint64_t device_allocations;
  uint64_t programs_from_disk;

  char cache_dir[ORX_CACHE_DIR_CAPACITY]; /* the disk cache of programs; "" when off */
  uint64_t cache_max;                     /* its size limit in bytes (cache_bound.h) */
  int cache_trusted; /* 0 until the first build checks the directory, then 1 or -1 (off) */
  unsigned char cache_secret[32]; /* its entries' MAC key (cache_trust.h) */

  /* The user operators whose sizes this device has confirmed (exec/user_operator.c), by text. */
  orx_probed *probed;
  size_t probed_count, probed_capacity;

  uint64_t last_kernel_ns; /* the device time of the last reducing call's kernels */
  int has_kernel_time;
  /* The application's handle and every buffer, operator and program made on the context hold a
   * reference: its device objects go when the last is released (orx_context_release), so that
   * destroying the context before them is harmless, as with OpenCL objects. */
  atomic_uint references;

  /* Injected faults (fault_inject.h, tests only): NULL unless armed. */
  struct orx_faults *faults;
};
_Static_assert(offsetof(struct ocl_reduce_context, error) == ORX_ERROR_SLOT_OFFSET,
               "base/errors.c finds a context's message after its handle header");

struct ocl_reduce_buffer {
  orx_handle handle;
  ocl_reduce_context *ctx; /* a reference; NULL for a spread buffer */
  orx_mem *mem;
  size_t bytes;
  /* A buffer over several devices (spread_buffer.h): its maker's operations and data. */
  const struct orx_spread_ops *spread_ops;
  void *spread;
};

/* An application's queue or stream: the backend of its kind (create_opencl, create_cuda). */
typedef struct orx_native_queue {
  void *handle; /* cl_command_queue or CUstream; NULL: the context makes its own */
  ocl_reduce_backend kind;
} orx_native_queue;

/* Creates a context with the options and environment merged (context.c); *out is NULL on
 * failure, whose message names `function` and is the thread's. */
ocl_reduce_status orx_context_create(const ocl_reduce_options *opts, orx_native_queue queue,
                                     ocl_reduce_context **out, const char *function);

/* Takes and drops a reference to ctx (see references); the last release frees it. */
void orx_context_retain(ocl_reduce_context *ctx);
void orx_context_release(ocl_reduce_context *ctx);

#endif /* ORX_CONTEXT_H */
