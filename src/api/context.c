/* =================================================================================================
 * context.c: the public life cycle of contexts (ocl_reduce.h, "Contexts"): on a device the
 * options and environment choose, or on an application's queue or stream. The work is
 * execution's (src/exec/context.c).
 * ============================================================================================== */
#include "base/handles.h"
#include "exec/context.h"

ocl_reduce_status ocl_reduce_context_create(const ocl_reduce_options *opts,
                                            ocl_reduce_context **out) {
  return orx_context_create(opts, (orx_native_queue){NULL, OCL_REDUCE_BACKEND_AUTO}, out,
                            "ocl_reduce_context_create");
}

ocl_reduce_status ocl_reduce_context_create_opencl(const ocl_reduce_options *opts,
                                                   void *cl_command_queue,
                                                   ocl_reduce_context **out) {
  if (!cl_command_queue) {
    if (out)
      *out = NULL;
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "ocl_reduce_context_create_opencl: cl_command_queue is NULL");
  }
  return orx_context_create(opts, (orx_native_queue){cl_command_queue, OCL_REDUCE_BACKEND_OPENCL},
                            out, "ocl_reduce_context_create_opencl");
}

ocl_reduce_status ocl_reduce_context_create_cuda(const ocl_reduce_options *opts, void *cu_stream,
                                                 ocl_reduce_context **out) {
  if (!cu_stream) {
    if (out)
      *out = NULL;
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "ocl_reduce_context_create_cuda: cu_stream is NULL (the legacy default "
                    "stream is not taken: create a stream)");
  }
  return orx_context_create(opts, (orx_native_queue){cu_stream, OCL_REDUCE_BACKEND_CUDA}, out,
                            "ocl_reduce_context_create_cuda");
}

void ocl_reduce_context_destroy(ocl_reduce_context *ctx) {
  if (!ctx)
    return;
  /* A second destroy, or a pointer that is no context, is harmless: only its state is read. */
  if (!orx_handle_kill(ctx, ORX_HANDLE_CONTEXT, 1)) {
    orx_log("ocl_reduce_context_destroy: ctx is not a live context (destroyed already?): ignored");
    return;
  }
  /* A call of another thread that entered before is done once the lock is free: the teardown
   * below never runs under it. Later calls find the context destroyed. */
  orx_lock_take(&ctx->handle.lock);
  orx_lock_give(&ctx->handle.lock);
  if (atomic_load_explicit(&ctx->references, memory_order_relaxed) > 1)
    orx_log("context destroyed while %u buffers, operators or programs made on it are alive: "
            "its device objects go with the last of them",
            atomic_load_explicit(&ctx->references, memory_order_relaxed) - 1);
  orx_context_release(ctx);
}
