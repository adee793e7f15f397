/* =================================================================================================
 * staging.h: host memory to and from device memory at the bus's speed (staging.c), as
 * orx_plan_copy chooses: the blocking copy; enqueued copies straight from or to page-locked
 * memory the caller owns (ocl_reduce_host_alloc's, or memory the driver knows as pinned); or a
 * bounce through two pinned pieces of the context's, which a few threads fill (or empty) while
 * the copy engine moves the other.
 * ============================================================================================== */
#ifndef ORX_STAGING_H
#define ORX_STAGING_H

#include <stddef.h>

#include "backends/backend.h"

#define ORX_STAGING_PIECES 2

/* One allocation of ocl_reduce_host_alloc. */
typedef struct orx_pinned_block {
  void *host;
  size_t bytes;
  orx_mem *mem;
} orx_pinned_block;

typedef struct orx_staging {
  orx_mem *piece_mem[ORX_STAGING_PIECES];
  void *piece[ORX_STAGING_PIECES];
  size_t piece_bytes;
  void *fence[ORX_STAGING_PIECES]; /* a marker after the last copy of each piece, or NULL */
  unsigned next;                   /* the piece the next bounce takes */
  int enqueued;                    /* uploads may be in flight (the caller's memory read) */
  struct orx_threads *threads;     /* the bounce's copy threads, started on first use */
  orx_pinned_block *blocks;        /* ocl_reduce_host_alloc's live allocations */
  size_t block_count, block_capacity;
} orx_staging;

/* Copies `bytes` of host memory to dst at `offset`, counted in bytes_to_device. It may return
 * before the device has read src: orx_uploads_done() before src may change (the reducing entry
 * points call it before they return). */
ocl_reduce_status orx_upload(ocl_reduce_context *ctx, orx_mem *dst, size_t offset, const void *src,
                             size_t bytes);
/* Returns once every upload's host memory is free again: `status` (a call's), or the wait's
 * failure when the call succeeded. */
ocl_reduce_status orx_uploads_done(ocl_reduce_context *ctx, ocl_reduce_status status);
/* Copies `bytes` of src at `offset` to host memory; dst holds them when it returns. */
ocl_reduce_status orx_download(ocl_reduce_context *ctx, const orx_mem *src, size_t offset,
                               void *dst, size_t bytes);

/* ocl_reduce_buffer_read enqueued, where dst is page-locked memory the buffer's device copies to
 * directly: dst holds the bytes once orx_buffer_wait has waited for *marker. Elsewhere it is
 * the blocking read, and *marker is NULL. A group reads its devices' states so, all at once. */
ocl_reduce_status orx_buffer_read_enqueue(const ocl_reduce_buffer *buf, size_t offset, void *dst,
                                          size_t bytes, void **marker);
/* ocl_reduce_buffer_write enqueued, where src is page-locked memory the buffer's device copies
 * from directly: src may change once orx_buffer_wait has waited for *marker. Elsewhere it is the
 * blocking write, and *marker is NULL. */
ocl_reduce_status orx_buffer_write_enqueue(ocl_reduce_buffer *buf, size_t offset, const void *src,
                                           size_t bytes, void **marker);
/* Waits for a marker of orx_buffer_read_enqueue or _write_enqueue on buf (NULL: nothing to wait
 * for), releases it. */
ocl_reduce_status orx_buffer_wait(const ocl_reduce_buffer *buf, void *marker);

/* Whether [host, host + bytes) is page-locked memory the device copies directly. */
int orx_host_is_pinned(ocl_reduce_context *ctx, const void *host, size_t bytes);
/* ocl_reduce_host_alloc and ocl_reduce_host_free's work; free's `host` must be a block's. */
ocl_reduce_status orx_pinned_alloc(ocl_reduce_context *ctx, size_t bytes, void **host);
int orx_pinned_free(ocl_reduce_context *ctx, void *host);
/* Waits for what is in flight and frees the pieces, the threads and the blocks left. */
void orx_staging_release(ocl_reduce_context *ctx);

#endif /* ORX_STAGING_H */
