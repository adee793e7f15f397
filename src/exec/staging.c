/* =================================================================================================
 * staging.c: host memory to and from the device at the bus's speed (staging.h).
 *
 * The bounce keeps the copy engine busy: while it moves one pinned piece, the threads fill (or
 * empty) the other, and the marker after each piece's copy says when the piece is free again. The
 * queue is in order, so a piece's copy to the device also follows every launch that read the
 * device memory it overwrites; copies and launches therefore need no other synchronisation.
 * ============================================================================================== */
#include "exec/staging.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/context.h"
#include "base/threads.h"
#include "planner/plan_staging.h"

/* Read once: sysconf reads a file under /sys, too slow for every small copy. */
static unsigned host_cores(void) {
  static atomic_uint cores;
  unsigned n = atomic_load_explicit(&cores, memory_order_relaxed);
  if (!n) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    n = online > 0 ? (unsigned)online : 1;
    atomic_store_explicit(&cores, n, memory_order_relaxed);
  }
  return n;
}

int orx_host_is_pinned(ocl_reduce_context *ctx, const void *host, size_t bytes) {
  const orx_staging *st = &ctx->staging;
  const uintptr_t at = (uintptr_t)host;
  for (size_t i = 0; i < st->block_count; i++) {
    const uintptr_t base = (uintptr_t)st->blocks[i].host;
    if (at >= base && bytes <= st->blocks[i].bytes && at - base <= st->blocks[i].bytes - bytes)
      return 1;
  }
  return ctx->ops->host_is_pinned && ctx->ops->host_is_pinned(ctx->backend, host, bytes);
}

/* The plan for one copy: asking the driver about the memory only when its answer matters. */
static orx_copy_plan plan_copy(ocl_reduce_context *ctx, const void *host, size_t bytes) {
  orx_copy_plan plan = {ORX_COPY_BLOCKING, 0, 0, 1};
  if (!ctx->ops->alloc_pinned)
    return plan;
  const unsigned cores = host_cores();
  plan = orx_plan_copy(&ctx->target, bytes, 0, cores);
  if (plan.mode != ORX_COPY_BLOCKING && orx_host_is_pinned(ctx, host, bytes))
    plan = orx_plan_copy(&ctx->target, bytes, 1, cores);
  return plan;
}

/* Waits for piece p's last copy. */
static ocl_reduce_status piece_free(ocl_reduce_context *ctx, unsigned p) {
  void *fence = ctx->staging.fence[p];
  ctx->staging.fence[p] = NULL;
  return fence ? ctx->ops->wait_marker(ctx, ctx->backend, fence) : OCL_REDUCE_OK;
}

/* The pinned pieces and threads the plan asks for (pieces of another size are replaced). */
static ocl_reduce_status bounce_ready(ocl_reduce_context *ctx, const orx_copy_plan *plan) {
  orx_staging *st = &ctx->staging;
  if (st->piece_bytes != plan->piece) {
    for (unsigned p = 0; p < ORX_STAGING_PIECES; p++) {
      ORX_FORWARD(piece_free(ctx, p));
      ctx->ops->release_mem(st->piece_mem[p]);
      st->piece_mem[p] = NULL;
      st->piece[p] = NULL;
    }
    st->piece_bytes = 0;
    for (unsigned p = 0; p < ORX_STAGING_PIECES; p++)
      ORX_FORWARD(
          ctx->ops->alloc_pinned(ctx, ctx->backend, plan->piece, &st->piece_mem[p], &st->piece[p]));
    st->piece_bytes = plan->piece;
  }
  if (!st->threads || orx_threads_count(st->threads) != plan->threads) {
    orx_threads_stop(st->threads);
    if (!(st->threads = orx_threads_start(plan->threads, orx_plan_spin_ns(&ctx->target.forced))))
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  }
  return OCL_REDUCE_OK;
}

/* One host copy split over the threads, in parts of whole cache lines. */
typedef struct split_copy {
  char *dst;
  const char *src;
  size_t bytes, part;
} split_copy;

static void copy_part(void *arg, size_t index) {
  const split_copy *c = arg;
  const size_t at = index * c->part;
  if (at < c->bytes)
    memcpy(c->dst + at, c->src + at, c->bytes - at < c->part ? c->bytes - at : c->part);
}

static void host_copy(orx_staging *st, void *dst, const void *src, size_t bytes) {
  const size_t threads = orx_threads_count(st->threads);
  split_copy c = {dst, src, bytes, ((bytes + threads - 1) / threads + 63) / 64 * 64};
  if (threads == 1 || c.part < 64)
    memcpy(dst, src, bytes);
  else
    orx_threads_run(st->threads, copy_part, &c);
}

ocl_reduce_status orx_upload(ocl_reduce_context *ctx, orx_mem *dst, size_t offset, const void *src,
                             size_t bytes) {
  const orx_copy_plan plan = plan_copy(ctx, src, bytes);
  if (plan.mode == ORX_COPY_BLOCKING)
    return orx_device_write(ctx, dst, offset, src, bytes);
  orx_staging *st = &ctx->staging;
  if (plan.mode == ORX_COPY_DIRECT) {
    st->enqueued = 1;
    ORX_FORWARD(ctx->ops->write_async(ctx, ctx->backend, dst, offset, src, bytes));
    ctx->bytes_to_device += bytes;
    return OCL_REDUCE_OK;
  }
  ORX_FORWARD(bounce_ready(ctx, &plan));
  st->enqueued = 1; /* dst is not written yet when the loop ends */
  for (size_t done = 0; done < bytes;) {
    const size_t n = bytes - done < plan.chunk ? bytes - done : plan.chunk;
    const unsigned p = st->next;
    st->next = (p + 1) % ORX_STAGING_PIECES;
    ORX_FORWARD(piece_free(ctx, p));
    host_copy(st, st->piece[p], (const char *)src + done, n);
    ORX_FORWARD(ctx->ops->write_async(ctx, ctx->backend, dst, offset + done, st->piece[p], n));
    ORX_FORWARD(ctx->ops->enqueue_marker(ctx, ctx->backend, &st->fence[p]));
    ctx->bytes_to_device += n;
    done += n;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_uploads_done(ocl_reduce_context *ctx, ocl_reduce_status status) {
  if (!ctx->staging.enqueued)
    return status;
  ctx->staging.enqueued = 0;
  const ocl_reduce_status waited = ctx->ops->finish(ctx, ctx->backend);
  return status != OCL_REDUCE_OK ? status : waited;
}

ocl_reduce_status orx_download(ocl_reduce_context *ctx, const orx_mem *src, size_t offset,
                               void *dst, size_t bytes) {
  const orx_copy_plan plan = plan_copy(ctx, dst, bytes);
  if (plan.mode != ORX_COPY_BOUNCE) /* a blocking copy into pinned memory is the bus's speed */
    return ctx->ops->read(ctx, ctx->backend, src, offset, dst, bytes);
  ORX_FORWARD(bounce_ready(ctx, &plan));
  orx_staging *st = &ctx->staging;
  for (unsigned p = 0; p < ORX_STAGING_PIECES; p++)
    ORX_FORWARD(piece_free(ctx, p));
  const size_t piece = plan.chunk, pieces = (bytes + piece - 1) / piece;
  /* Piece k goes through pinned piece k % 2: the copy engine fills one while the threads empty
   * the other. */
  for (size_t k = 0; k < pieces + 1; k++) {
    if (k < pieces) {
      const unsigned p = (unsigned)(k % ORX_STAGING_PIECES);
      const size_t n = bytes - k * piece < piece ? bytes - k * piece : piece;
      ORX_FORWARD(
          ctx->ops->read_async(ctx, ctx->backend, src, offset + k * piece, st->piece[p], n));
      ORX_FORWARD(ctx->ops->enqueue_marker(ctx, ctx->backend, &st->fence[p]));
    }
    if (k > 0) {
      const size_t j = k - 1;
      const unsigned p = (unsigned)(j % ORX_STAGING_PIECES);
      const size_t n = bytes - j * piece < piece ? bytes - j * piece : piece;
      ORX_FORWARD(piece_free(ctx, p));
      host_copy(st, (char *)dst + j * piece, st->piece[p], n);
    }
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_buffer_read_enqueue(const ocl_reduce_buffer *buf, size_t offset, void *dst,
                                          size_t bytes, void **marker) {
  ocl_reduce_context *ctx = buf->ctx;
  *marker = NULL;
  if (!ctx->ops->read_async || !orx_host_is_pinned(ctx, dst, bytes))
    return orx_download(ctx, buf->mem, offset, dst, bytes);
  ORX_FORWARD(ctx->ops->read_async(ctx, ctx->backend, buf->mem, offset, dst, bytes));
  return ctx->ops->enqueue_marker(ctx, ctx->backend, marker);
}

ocl_reduce_status orx_buffer_write_enqueue(ocl_reduce_buffer *buf, size_t offset, const void *src,
                                           size_t bytes, void **marker) {
  ocl_reduce_context *ctx = buf->ctx;
  *marker = NULL;
  if (!ctx->ops->write_async || !orx_host_is_pinned(ctx, src, bytes))
    return orx_uploads_done(ctx, orx_upload(ctx, buf->mem, offset, src, bytes));
  ORX_FORWARD(ctx->ops->write_async(ctx, ctx->backend, buf->mem, offset, src, bytes));
  return ctx->ops->enqueue_marker(ctx, ctx->backend, marker);
}

ocl_reduce_status orx_buffer_wait(const ocl_reduce_buffer *buf, void *marker) {
  return marker ? buf->ctx->ops->wait_marker(buf->ctx, buf->ctx->backend, marker) : OCL_REDUCE_OK;
}

ocl_reduce_status orx_pinned_alloc(ocl_reduce_context *ctx, size_t bytes, void **host) {
  orx_staging *st = &ctx->staging;
  if (st->block_count == st->block_capacity) {
    const size_t capacity = st->block_capacity ? 2 * st->block_capacity : 8;
    orx_pinned_block *grown = orx_realloc(st->blocks, capacity * sizeof *grown);
    if (!grown)
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    st->blocks = grown;
    st->block_capacity = capacity;
  }
  orx_pinned_block block = {NULL, bytes, NULL};
  if (ctx->ops->alloc_pinned) {
    ORX_FORWARD(ctx->ops->alloc_pinned(ctx, ctx->backend, bytes, &block.mem, &block.host));
  } else if (!(block.host = orx_malloc(bytes))) { /* no pinned memory there: plain memory */
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory (%zu bytes)",
                    bytes);
  }
  st->blocks[st->block_count++] = block;
  *host = block.host;
  return OCL_REDUCE_OK;
}

static void release_block(ocl_reduce_context *ctx, const orx_pinned_block *block) {
  if (block->mem)
    ctx->ops->release_mem(block->mem);
  else
    free(block->host);
}

int orx_pinned_free(ocl_reduce_context *ctx, void *host) {
  orx_staging *st = &ctx->staging;
  for (size_t i = 0; i < st->block_count; i++)
    if (st->blocks[i].host == host) {
      orx_uploads_done(ctx, OCL_REDUCE_OK); /* the device may still read it */
      release_block(ctx, &st->blocks[i]);
      st->blocks[i] = st->blocks[--st->block_count];
      return 1;
    }
  return 0;
}

void orx_staging_release(ocl_reduce_context *ctx) {
  orx_staging *st = &ctx->staging;
  orx_uploads_done(ctx, OCL_REDUCE_OK);
  for (unsigned p = 0; p < ORX_STAGING_PIECES; p++) {
    piece_free(ctx, p);
    ctx->ops->release_mem(st->piece_mem[p]);
  }
  orx_threads_stop(st->threads);
  for (size_t i = 0; i < st->block_count; i++)
    release_block(ctx, &st->blocks[i]);
  free(st->blocks);
  memset(st, 0, sizeof *st);
}
