/* =================================================================================================
 * errors.c: the "last error" text of a context, or of the thread when a call had no usable
 * context (ocl_reduce_context_create, a NULL ctx), and the debug log (errors.h).
 * ============================================================================================== */
#include "base/errors.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char thread_error[ORX_ERROR_CAPACITY];
/* This thread's copy of a context's last failure: its own, or one it read (orx_error_keep), so
 * that threads sharing a context each read a message no other thread is writing. */
static _Thread_local char thread_context_error[ORX_ERROR_CAPACITY];
static _Thread_local const void *thread_context_owner;
/* The public function this thread is in (exec/entry.c sets it): failures found deep down, a
 * kernel build's, name it as argument checks do. */
_Thread_local const char *orx_current_call;

const char *orx_call_name(void) { return orx_current_call ? orx_current_call : "ocl_reduce"; }

/* A context's slot follows its handle header (ORX_ERROR_SLOT_OFFSET). */
static char *error_buffer(ocl_reduce_context *ctx) {
  return ctx ? ((orx_error_slot *)(void *)((char *)ctx + ORX_ERROR_SLOT_OFFSET))->text
             : thread_error;
}

const char *orx_error_text(const ocl_reduce_context *ctx) {
  return error_buffer((ocl_reduce_context *)(uintptr_t)ctx);
}

int orx_log_debug(void) {
  const char *level = getenv("OCL_REDUCE_LOG");
  /* Any case, as context creation accepts it (api/context.c checks the value). */
  return level && strlen(level) == 5 && orx_strcasestr(level, "debug");
}

void orx_log(const char *fmt, ...) {
  if (!orx_log_debug())
    return;
  va_list args;
  va_start(args, fmt);
  fputs("ocl_reduce: ", stderr);
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
  va_end(args);
}

const char *orx_error_thread_copy(const ocl_reduce_context *ctx) {
  return ctx && thread_context_owner == ctx ? thread_context_error : NULL;
}

const char *orx_error_keep(const ocl_reduce_context *ctx) {
  orx_strlcpy(thread_context_error, orx_error_text(ctx), sizeof thread_context_error);
  thread_context_owner = ctx;
  return thread_context_error;
}

ocl_reduce_status orx_vfail(ocl_reduce_context *ctx, ocl_reduce_status status, const char *fmt,
                            va_list args) {
  char *buf = error_buffer(ctx);
  vsnprintf(buf, ORX_ERROR_CAPACITY, fmt, args);
  if (ctx)
    orx_error_keep(ctx);
  if (orx_log_debug())
    fprintf(stderr, "ocl_reduce: %s: %s\n", orx_status_name(status), buf);
  return status;
}

ocl_reduce_status orx_fail(ocl_reduce_context *ctx, ocl_reduce_status status, const char *fmt,
                           ...) {
  va_list args;
  va_start(args, fmt);
  orx_vfail(ctx, status, fmt, args);
  va_end(args);
  return status;
}

void orx_error_append(ocl_reduce_context *ctx, const char *text) {
  char *buf = error_buffer(ctx);
  size_t used = strlen(buf);
  if (used + 1 < ORX_ERROR_CAPACITY)
    orx_strlcpy(buf + used, text, ORX_ERROR_CAPACITY - used);
  if (ctx && thread_context_owner == ctx)
    orx_error_keep(ctx);
  if (orx_log_debug())
    fputs(text, stderr);
}

const char *orx_status_name(ocl_reduce_status status) {
  switch (status) {
#define ORX_STATUS_NAME(name, code, text)                                                          \
  case OCL_REDUCE_##name: return "OCL_REDUCE_" #name;
    OCL_REDUCE_STATUS_MAP(ORX_STATUS_NAME)
#undef ORX_STATUS_NAME
  }
  return "OCL_REDUCE_UNKNOWN_STATUS";
}

const char *orx_status_text(ocl_reduce_status status) {
  switch (status) {
#define ORX_STATUS_TEXT(name, code, text)                                                          \
  case OCL_REDUCE_##name: return text;
    OCL_REDUCE_STATUS_MAP(ORX_STATUS_TEXT)
#undef ORX_STATUS_TEXT
  }
  return "unknown status";
}
