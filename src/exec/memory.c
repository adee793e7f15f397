/* =================================================================================================
 * memory.c: counted device memory and the context's scratch slots (memory.h).
 * ============================================================================================== */
#include "exec/memory.h"

#include <stdlib.h>
#include <string.h>

#include "exec/context.h"

ocl_reduce_status orx_device_alloc(ocl_reduce_context *ctx, size_t bytes, orx_mem **out) {
  ORX_FORWARD(ctx->ops->alloc(ctx, ctx->backend, bytes, out));
  ctx->device_allocations++;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_device_write(ocl_reduce_context *ctx, orx_mem *dst, size_t offset,
                                   const void *src, size_t bytes) {
  ORX_FORWARD(ctx->ops->write(ctx, ctx->backend, dst, offset, src, bytes));
  ctx->bytes_to_device += bytes;
  return OCL_REDUCE_OK;
}

/* A new allocation for the slot: the result slot in memory the host reads directly where the
 * backend has it (one command per call, not two), the counters zeroed (scratch set-up, not
 * application data: not counted in bytes_to_device). */
static ocl_reduce_status allocate(ocl_reduce_context *ctx, orx_scratch_slot slot, size_t bytes,
                                  orx_scratch *s) {
  if (slot == ORX_SCRATCH_RESULTS && ctx->caps.host_visible_memory &&
      ctx->ops->alloc_host_visible(ctx, ctx->backend, bytes, &s->mem, &s->host) == OCL_REDUCE_OK) {
    ctx->device_allocations++;
    return OCL_REDUCE_OK;
  }
  ORX_FORWARD(orx_device_alloc(ctx, bytes, &s->mem));
  if (slot == ORX_SCRATCH_COUNTER || slot == ORX_SCRATCH_COLUMN_COUNTERS) {
    void *zeros = calloc(1, bytes);
    if (!zeros)
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY,
                      "out of host memory zeroing %zu bytes of counters", bytes);
    const ocl_reduce_status status = ctx->ops->write(ctx, ctx->backend, s->mem, 0, zeros, bytes);
    free(zeros);
    return status;
  }
  return OCL_REDUCE_OK;
}

/* The smallest scratch allocation. Implementations hand out device memory in pages of 4 KiB to
 * 2 MiB anyway, so a floor costs nothing, and calls whose sizes creep up (a few partials more, a
 * few results more) stop releasing and reallocating their slots. It also keeps the kernels'
 * check under Oclgrind exact (scripts/oclgrind_light.sh): Oclgrind 21.10 keeps a released
 * buffer's record of initialized bytes for the next buffer that takes its place, so a slot grown
 * from 32 to 128 bytes read as uninitialized past byte 32. */
#define ORX_SCRATCH_FLOOR_BYTES ((size_t)64 << 10)

ocl_reduce_status orx_scratch_get(ocl_reduce_context *ctx, orx_scratch_slot slot, size_t bytes,
                                  orx_mem **out) {
  orx_scratch *s = &ctx->scratch[slot];
  if (!s->mem || s->bytes < bytes) {
    ctx->ops->release_mem(s->mem);
    memset(s, 0, sizeof *s);
    orx_scratch fresh = {NULL, bytes > ORX_SCRATCH_FLOOR_BYTES ? bytes : ORX_SCRATCH_FLOOR_BYTES,
                         NULL, 0};
    ocl_reduce_status status = allocate(ctx, slot, fresh.bytes, &fresh);
    if (status != OCL_REDUCE_OK) {
      ctx->ops->release_mem(fresh.mem);
      return status;
    }
    fresh.serial = ctx->device_allocations;
    *s = fresh;
  }
  *out = s->mem;
  return OCL_REDUCE_OK;
}

void *orx_scratch_host(const ocl_reduce_context *ctx, orx_scratch_slot slot) {
  return ctx->scratch[slot].host;
}

void orx_scratch_release_all(ocl_reduce_context *ctx) {
  for (int slot = 0; slot < ORX_SCRATCH_COUNT; slot++) {
    ctx->ops->release_mem(ctx->scratch[slot].mem);
    memset(&ctx->scratch[slot], 0, sizeof ctx->scratch[slot]);
  }
}
