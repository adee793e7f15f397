/* =================================================================================================
 * names.c: the public names of statuses (base/errors.c), types (base/ids.c) and
 * ocl_reduce_last_error; operators' names and result sizes are operator.c's.
 * ============================================================================================== */
#include <stdint.h>

#include "base/errors.h"
#include "base/handles.h"
#include "base/ids.h"
#include "exec/entry.h"

const char *ocl_reduce_status_name(ocl_reduce_status status) { return orx_status_name(status); }

const char *ocl_reduce_status_string(ocl_reduce_status status) { return orx_status_text(status); }

const char *ocl_reduce_last_error(const ocl_reduce_context *ctx) {
  if (!ctx)
    return orx_error_text(NULL);
  /* A context shared by threads: this thread's own failure there, else a copy of the context's
   * last taken under its lock; either is this thread's to read until its next call. */
  const char *mine = orx_handle_live(ctx, ORX_HANDLE_CONTEXT, 0) ? orx_error_thread_copy(ctx)
                                                                  : NULL;
  if (mine)
    return mine;
  ocl_reduce_context *entered = (ocl_reduce_context *)(uintptr_t)ctx;
  if (orx_context_enter(entered, "ocl_reduce_last_error") != OCL_REDUCE_OK)
    return orx_error_text(NULL); /* MISUSE's message */
  const char *text = orx_error_keep(ctx);
  orx_context_leave(entered);
  return text;
}

size_t ocl_reduce_type_size(ocl_reduce_type type) { return orx_type_size(type); }

const char *ocl_reduce_type_name(ocl_reduce_type type) { return orx_type_name(type); }
