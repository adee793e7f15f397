/* =================================================================================================
 * epoch_scratch.h: scratch for tiles that publish to each other in tagged words
 * (cl/lib/orx_lookback.cl): a launch tags what it publishes with its epoch, so the words that
 * earlier launches left never pass for this one's, and the memory is zeroed only when it is a new
 * allocation or the epochs run out (epoch_scratch.c). Reduce by key's one pass and long windows in
 * one launch each keep their own slot and count (orx_epochs, in the context).
 * ============================================================================================== */
#ifndef ORX_EPOCH_SCRATCH_H
#define ORX_EPOCH_SCRATCH_H

#include <stdint.h>

#include "exec/memory.h"

/* The slot's memory, at least `bytes`, zeroed where it is a new allocation (its serial is not
 * held->serial) or held->epoch reached `most`; *epoch: this launch's (1, 2, ...). */
ocl_reduce_status orx_epoch_scratch(ocl_reduce_context *ctx, orx_scratch_slot slot, size_t bytes,
                                    uint32_t most, orx_epochs *held, orx_mem **mem,
                                    uint32_t *epoch);

#endif /* ORX_EPOCH_SCRATCH_H */
