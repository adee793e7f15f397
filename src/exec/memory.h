/* =================================================================================================
 * memory.h: device memory through the backend, counted for ocl_reduce_context_info, and the
 * context's scratch: one slot per purpose, each allocated on first use, grown when too small,
 * kept until the context goes, and released in one loop (memory.c).
 * ============================================================================================== */
#ifndef ORX_MEMORY_H
#define ORX_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"

typedef enum orx_scratch_slot {
  ORX_SCRATCH_PARTIALS,        /* the work-groups' partial states of a launch */
  ORX_SCRATCH_COUNTER,         /* the last-group counter (zero between launches) */
  ORX_SCRATCH_RESULTS,         /* small results on their way to host memory (host-visible where
                                  the backend has such memory) */
  ORX_SCRATCH_CHUNK_RESULTS,   /* per-piece results of host input uploaded in pieces */
  ORX_SCRATCH_STAGING,         /* host input on its way to the device */
  ORX_SCRATCH_SEGMENT_RESULTS, /* segment results on their way to host memory */
  ORX_SCRATCH_SEGMENT_OFFSETS, /* segment offsets uploaded from host memory */
  ORX_SCRATCH_OFFSETS_REPORT,  /* the device-side offsets check's report */
  ORX_SCRATCH_WINDOW_SUFFIXES, /* long windows: each work-group's block of suffix states */
  ORX_SCRATCH_AXES_VIEW,       /* a view of a buffer gathered into dense order, or the columns'
                                  partial states (run_axes.c) */
  ORX_SCRATCH_AXES_DIMS,       /* the axes' extents and strides, for the gather or the columns */
  ORX_SCRATCH_AXES_ROWS,       /* the rows' results of a view in two passes (run_axes.c) */
  ORX_SCRATCH_COLUMN_COUNTERS, /* a counter per block of columns whose launch finishes itself
                                  (run_axes.c; zero between launches) */
  ORX_SCRATCH_KEY_TILES,       /* reduce by key's tiles: ticket, run count, tagged summaries
                                  (run_by_key_pass.c) */
  ORX_SCRATCH_KEY_STAGED_KEYS,      /* reduce by key's keys, values, and runs' keys and results, */
  ORX_SCRATCH_KEY_STAGED_VALUES,    /* where the caller's are host memory (run_by_key_pass.c) */
  ORX_SCRATCH_KEY_STAGED_KEYS_OUT,
  ORX_SCRATCH_KEY_STAGED_RESULTS,
  ORX_SCRATCH_KEY_STARTS, /* the runs' starts, then the pairs' count: user operators' segments */
  ORX_SCRATCH_WINDOW_TILES, /* long windows in one launch: ticket, tagged totals and heads
                               (run_windows.c) */
  ORX_SCRATCH_COUNT
} orx_scratch_slot;

typedef struct orx_scratch {
  orx_mem *mem;
  size_t bytes;
  void *host; /* host-visible memory's host address, or NULL */
  uint64_t serial; /* which allocation this is: the context's count of them once it was made (a
                      new allocation, a new number), so that what a slot holds can be known */
} orx_scratch;

/* The allocation of a slot whose launches tag their words with epochs that was last zeroed (its
 * serial), and the epoch of its last launch (epoch_scratch.h). */
typedef struct orx_epochs {
  uint64_t serial;
  uint32_t epoch;
} orx_epochs;

/* Bytes of the result slot: room for the most results a whole-array call writes. */
#define ORX_RESULT_SLOT_BYTES 64

ocl_reduce_status orx_device_alloc(ocl_reduce_context *ctx, size_t bytes, orx_mem **out);
ocl_reduce_status orx_device_write(ocl_reduce_context *ctx, orx_mem *dst, size_t offset,
                                   const void *src, size_t bytes);

/* The slot's memory, at least `bytes` of it (contents are not kept when it grows). */
ocl_reduce_status orx_scratch_get(ocl_reduce_context *ctx, orx_scratch_slot slot, size_t bytes,
                                  orx_mem **out);
/* The slot's host address where its memory is host-visible, else NULL. */
void *orx_scratch_host(const ocl_reduce_context *ctx, orx_scratch_slot slot);
void orx_scratch_release_all(ocl_reduce_context *ctx);

#endif /* ORX_MEMORY_H */
