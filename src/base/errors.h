/* =================================================================================================
 * errors.h: how the library fails. A failure records its message for ocl_reduce_last_error (on
 * the context, or per thread where there is no usable context), prints it under
 * OCL_REDUCE_LOG=debug, and returns a named status (errors.c).
 * ============================================================================================== */
#ifndef ORX_ERRORS_H
#define ORX_ERRORS_H

#include <stdarg.h>

#include "base/handles.h"
#include "base/util.h"
#include "ocl_reduce.h"

#define ORX_ERROR_CAPACITY 16384

/* A context's message of its last failure. Every context has one right after its handle header
 * (exec/context.h asserts it), so that failures recorded here, below the contexts, need not know
 * their struct. */
typedef struct orx_error_slot {
  char text[ORX_ERROR_CAPACITY];
} orx_error_slot;
#define ORX_ERROR_SLOT_OFFSET sizeof(orx_handle)

/* Records the message (on ctx, or per thread when ctx is NULL) and returns status. */
ocl_reduce_status orx_fail(ocl_reduce_context *ctx, ocl_reduce_status status, const char *fmt, ...)
    ORX_PRINTF(3, 4);
ocl_reduce_status orx_vfail(ocl_reduce_context *ctx, ocl_reduce_status status, const char *fmt,
                            va_list args);
/* Appends text (a build log, a device list) to the message of the last failure. */
void orx_error_append(ocl_reduce_context *ctx, const char *text);
/* The message of the last failure on ctx, or of this thread when ctx is NULL (for a context:
 * while the caller holds it, exec/entry.h). */
const char *orx_error_text(const ocl_reduce_context *ctx);
/* This thread's copy of the last failure on ctx when this thread's last failure recorded or read
 * was ctx's, else NULL; and a fresh copy of ctx's (the caller holds ctx), which it returns.
 * Thread-local: ocl_reduce_last_error hands these out. */
const char *orx_error_thread_copy(const ocl_reduce_context *ctx);
const char *orx_error_keep(const ocl_reduce_context *ctx);

/* "OCL_REDUCE_ERROR_NO_FP64" and its text, from OCL_REDUCE_STATUS_MAP; "OCL_REDUCE_UNKNOWN_STATUS"
 * and "unknown status" outside it. */
const char *orx_status_name(ocl_reduce_status status);
const char *orx_status_text(ocl_reduce_status status);

/* OCL_REDUCE_LOG=debug: errors, kernel builds and their logs on stderr. */
int orx_log_debug(void);
void orx_log(const char *fmt, ...) ORX_PRINTF(1, 2);

/* Returns from the calling function with INVALID_ARGUMENT when cond is false. */
#define ORX_CHECK_ARG(ctx, cond, ...)                                                              \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      return orx_fail((ctx), OCL_REDUCE_ERROR_INVALID_ARGUMENT, __VA_ARGS__);                      \
  } while (0)

/* The public function this thread is in (exec/entry.h names it), for messages of failures found
 * below it ("ocl_reduce" before any). Set on every call, inline. */
#if defined(__GNUC__)
extern _Thread_local const char *orx_current_call __attribute__((visibility("hidden")));
#else
extern _Thread_local const char *orx_current_call;
#endif
static inline void orx_call_named(const char *function) { orx_current_call = function; }
const char *orx_call_name(void);

/* Returns the status of expr from the calling function when it is not OK. */
#define ORX_FORWARD(expr)                                                                          \
  do {                                                                                             \
    ocl_reduce_status orx_forward_status_ = (expr);                                                \
    if (orx_forward_status_ != OCL_REDUCE_OK)                                                      \
      return orx_forward_status_;                                                                  \
  } while (0)

#endif /* ORX_ERRORS_H */
