/* =================================================================================================
 * enqueue.c: ordering the context's work with the application's (ocl_reduce.h, "Enqueueing
 * without waiting"): waiting for its events, an event for the work so far, and waiting for all.
 * Reducing calls into buffers already return once enqueued; these only add the ordering.
 * ============================================================================================== */
#include "exec/context.h"
#include "exec/entry.h"

ocl_reduce_status ocl_reduce_enqueue_wait(ocl_reduce_context *ctx, void *const *events,
                                          size_t count) {
  static const char function[] = "ocl_reduce_enqueue_wait";
  ORX_ENTER(ctx, function);
  ORX_CHECK_ARG(ctx, events || count == 0, "%s: events is NULL and count is %zu", function,
                count);
  for (size_t i = 0; i < count; i++)
    ORX_CHECK_ARG(ctx, events[i], "%s: events[%zu] is NULL", function, i);
  return ctx->ops->enqueue_wait(ctx, ctx->backend, events, count);
}

ocl_reduce_status ocl_reduce_enqueue_marker(ocl_reduce_context *ctx, void **event) {
  static const char function[] = "ocl_reduce_enqueue_marker";
  ORX_ENTER(ctx, function);
  ORX_CHECK_ARG(ctx, event, "%s: event is NULL", function);
  void *marker = NULL;
  ORX_FORWARD(ctx->ops->enqueue_marker(ctx, ctx->backend, &marker));
  *event = marker;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_finish(ocl_reduce_context *ctx) {
  ORX_ENTER(ctx, "ocl_reduce_finish");
  return ctx->ops->finish(ctx, ctx->backend);
}
