/* =================================================================================================
 * host_memory.c: page-locked host memory for inputs and outputs (ocl_reduce_host_alloc); the
 * allocations are the context's staging blocks (exec/staging.h), which is how calls know them.
 * ============================================================================================== */
#include "exec/context.h"
#include "exec/entry.h"

ocl_reduce_status ocl_reduce_host_alloc(ocl_reduce_context *ctx, size_t bytes, void **host) {
  ORX_ENTER(ctx, "ocl_reduce_host_alloc");
  ORX_CHECK_ARG(ctx, host, "ocl_reduce_host_alloc: host is NULL");
  *host = NULL;
  ORX_CHECK_ARG(ctx, bytes > 0, "ocl_reduce_host_alloc: bytes is 0");
  void *memory = NULL;
  ORX_FORWARD(orx_pinned_alloc(ctx, bytes, &memory));
  orx_context_retain(ctx);
  *host = memory;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_host_free(ocl_reduce_context *ctx, void *host) {
  /* Pinned memory keeps its context: freed after the context's destroy too. */
  ORX_ENTER_AS(ctx, "ocl_reduce_host_free", orx_context_enter_destroyed);
  if (!host)
    return OCL_REDUCE_OK;
  ORX_CHECK_ARG(ctx, orx_pinned_free(ctx, host),
                "ocl_reduce_host_free: host (%p) is not memory of ocl_reduce_host_alloc on this "
                "context",
                host);
  orx_context_release(ctx);
  return OCL_REDUCE_OK;
}
