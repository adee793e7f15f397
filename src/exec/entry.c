/* =================================================================================================
 * entry.c: entering and leaving a context (entry.h).
 * ============================================================================================== */
#include "exec/entry.h"

#include "base/handles.h"
#include "exec/context.h"

static void hold(void *ctx) { orx_context_retain(ctx); }

static ocl_reduce_status enter(ocl_reduce_context *ctx, const char *function,
                               orx_handle_kind kind) {
  orx_call_named(function);
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  if (!orx_handle_live(ctx, kind, hold))
    return orx_fail(NULL, OCL_REDUCE_ERROR_MISUSE,
                    "%s: ctx is not a live context (destroyed, or not one that "
                    "ocl_reduce_context_create made)",
                    function);
  pthread_mutex_lock(&ctx->lock);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_context_enter(ocl_reduce_context *ctx, const char *function) {
  return enter(ctx, function, ORX_HANDLE_CONTEXT);
}

ocl_reduce_status orx_context_enter_destroyed(ocl_reduce_context *ctx, const char *function) {
  return enter(ctx, function, ORX_HANDLE_CONTEXT_MEMORY);
}

void orx_context_leave(ocl_reduce_context *ctx) {
  pthread_mutex_unlock(&ctx->lock);
  orx_context_release(ctx);
}

void orx_context_leave_scope(ocl_reduce_context **entered) {
  if (*entered)
    orx_context_leave(*entered);
}

/* The context of the buffer being checked, read under the registry's lock (hold below). */
static _Thread_local ocl_reduce_context *checked_owner;
static _Thread_local int retain_owner;

static void hold_owner(void *buf) {
  checked_owner = ((ocl_reduce_buffer *)buf)->ctx;
  if (checked_owner && retain_owner)
    orx_context_retain(checked_owner);
}

static ocl_reduce_status check(ocl_reduce_context *ctx, const ocl_reduce_buffer *buf,
                               const char *function, const char *name, int retain,
                               ocl_reduce_context **owner) {
  checked_owner = NULL;
  retain_owner = retain;
  const int live = orx_handle_live(buf, ORX_HANDLE_BUFFER, hold_owner);
  *owner = checked_owner;
  if (!live)
    return orx_fail(ctx, OCL_REDUCE_ERROR_MISUSE,
                    "%s: %s is not a live buffer (destroyed, or not one that the library made)",
                    function, name);
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_buffer_check(ocl_reduce_context *ctx, const ocl_reduce_buffer *buf,
                                   const char *function, const char *name,
                                   ocl_reduce_context **owner) {
  return check(ctx, buf, function, name, 0, owner);
}

ocl_reduce_status orx_buffer_enter(const ocl_reduce_buffer *buf, const char *function,
                                   ocl_reduce_context **owner) {
  orx_call_named(function);
  ORX_FORWARD(check(NULL, buf, function, "buf", 1, owner));
  if (!*owner)
    return OCL_REDUCE_OK; /* a group's buffer: its group's calls order its use */
  pthread_mutex_lock(&(*owner)->lock);
  ocl_reduce_context *again = NULL;
  if (orx_buffer_check(NULL, buf, function, "buf", &again) != OCL_REDUCE_OK) {
    orx_buffer_leave(*owner); /* destroyed meanwhile, by another thread */
    return OCL_REDUCE_ERROR_MISUSE;
  }
  return OCL_REDUCE_OK;
}

void orx_buffer_leave(ocl_reduce_context *owner) {
  if (owner)
    orx_context_leave(owner);
}
