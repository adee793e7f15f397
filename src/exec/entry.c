/* =================================================================================================
 * entry.c: entering and leaving a context (entry.h).
 * ============================================================================================== */
#include "exec/entry.h"

#include "exec/context.h"

/* Enters ctx when its state is live (or, with orphans, destroyed but kept): checked, locked, and
 * checked again under the lock, since a destroy may come between (exec/entry.h). */
static ocl_reduce_status enter(ocl_reduce_context *ctx, const char *function, int orphans) {
  orx_call_named(function);
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  if (orx_handle_live(ctx, ORX_HANDLE_CONTEXT, orphans)) {
    orx_lock_take(&ctx->handle.lock);
    if (orx_handle_live(ctx, ORX_HANDLE_CONTEXT, orphans))
      return OCL_REDUCE_OK;
    orx_lock_give(&ctx->handle.lock);
  }
  return orx_fail(NULL, OCL_REDUCE_ERROR_MISUSE,
                  "%s: ctx is not a live context (destroyed, or not one that "
                  "ocl_reduce_context_create made)",
                  function);
}

ocl_reduce_status orx_context_enter(ocl_reduce_context *ctx, const char *function) {
  return enter(ctx, function, 0);
}

ocl_reduce_status orx_context_enter_destroyed(ocl_reduce_context *ctx, const char *function) {
  return enter(ctx, function, 1);
}

void orx_context_leave(ocl_reduce_context *ctx) { orx_lock_give(&ctx->handle.lock); }

void orx_context_leave_scope(ocl_reduce_context **entered) {
  if (*entered)
    orx_context_leave(*entered);
}

ocl_reduce_status orx_buffer_check(ocl_reduce_context *ctx, const ocl_reduce_buffer *buf,
                                   const char *function, const char *name,
                                   ocl_reduce_context **owner) {
  *owner = NULL;
  if (!orx_handle_live(buf, ORX_HANDLE_BUFFER, 0))
    return orx_fail(ctx, OCL_REDUCE_ERROR_MISUSE,
                    "%s: %s is not a live buffer (destroyed, or not one that the library made)",
                    function, name);
  /* Its memory is the pool's for good: this read is safe even if a destroy has just begun, and
   * the caller compares the owner with the context it holds before it reads further. */
  *owner = buf->ctx;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_buffer_enter(const ocl_reduce_buffer *buf, const char *function,
                                   ocl_reduce_context **owner) {
  orx_call_named(function);
  ORX_FORWARD(orx_buffer_check(NULL, buf, function, "buf", owner));
  if (!*owner)
    return OCL_REDUCE_OK; /* a group's buffer: its group's calls order its use */
  /* The owner's block too is never freed: its lock may be taken even if it is being destroyed.
   * Under it, a buffer still live and still the owner's keeps the owner alive (a reference). */
  orx_lock_take(&(*owner)->handle.lock);
  ocl_reduce_context *again = NULL;
  if (orx_buffer_check(NULL, buf, function, "buf", &again) != OCL_REDUCE_OK || again != *owner) {
    orx_lock_give(&(*owner)->handle.lock);
    return orx_fail(NULL, OCL_REDUCE_ERROR_MISUSE, "%s: buf was destroyed meanwhile", function);
  }
  return OCL_REDUCE_OK;
}

void orx_buffer_leave(ocl_reduce_context *owner) {
  if (owner)
    orx_lock_give(&owner->handle.lock);
}
