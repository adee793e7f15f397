/* =================================================================================================
 * epoch_scratch.c: scratch whose launches tell their tagged words apart by epoch
 * (epoch_scratch.h).
 * ============================================================================================== */
#include "exec/epoch_scratch.h"

#include <stdlib.h>

#include "exec/context.h"
#include "exec/staging.h"

ocl_reduce_status orx_epoch_scratch(ocl_reduce_context *ctx, orx_scratch_slot slot, size_t bytes,
                                    uint32_t most, orx_epochs *held, orx_mem **mem,
                                    uint32_t *epoch) {
  ORX_FORWARD(orx_scratch_get(ctx, slot, bytes, mem));
  const orx_scratch *s = &ctx->scratch[slot];
  if (s->serial != held->serial || held->epoch >= most) {
    void *zeros = calloc(1, s->bytes);
    if (!zeros)
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    const ocl_reduce_status status =
        orx_uploads_done(ctx, orx_upload(ctx, *mem, 0, zeros, s->bytes));
    free(zeros);
    ORX_FORWARD(status);
    held->serial = s->serial;
    held->epoch = 0;
  }
  *epoch = ++held->epoch;
  return OCL_REDUCE_OK;
}
