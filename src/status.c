/* =================================================================================================
 * status.c: status names and messages (from OCL_REDUCE_STATUS_MAP in the public header), and the
 * "last error" text: on the context, or per thread when there is no usable context.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *ocl_reduce_status_name(ocl_reduce_status status) {
  switch (status) {
#define ORX_STATUS_NAME(name, code, text)                                                          \
  case OCL_REDUCE_##name:                                                                          \
    return "OCL_REDUCE_" #name;
    OCL_REDUCE_STATUS_MAP(ORX_STATUS_NAME)
#undef ORX_STATUS_NAME
  }
  return "OCL_REDUCE_UNKNOWN_STATUS";
}

const char *ocl_reduce_status_string(ocl_reduce_status status) {
  switch (status) {
#define ORX_STATUS_TEXT(name, code, text)                                                          \
  case OCL_REDUCE_##name:                                                                          \
    return text;
    OCL_REDUCE_STATUS_MAP(ORX_STATUS_TEXT)
#undef ORX_STATUS_TEXT
  }
  return "unknown status";
}

/* Failures without a context: ocl_reduce_context_create, or calls given a NULL context. */
static _Thread_local char thread_error[ORX_ERROR_CAPACITY];

static char *error_buffer(ocl_reduce_context *ctx) { return ctx ? ctx->error : thread_error; }

int orx_log_debug(void) {
  const char *level = getenv("OCL_REDUCE_LOG");
  return level && strcmp(level, "debug") == 0;
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

ocl_reduce_status orx_vfail(ocl_reduce_context *ctx, ocl_reduce_status status, const char *fmt,
                            va_list args) {
  char *buf = error_buffer(ctx);
  vsnprintf(buf, ORX_ERROR_CAPACITY, fmt, args);
  if (orx_log_debug())
    fprintf(stderr, "ocl_reduce: %s: %s\n", ocl_reduce_status_name(status), buf);
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
  if (orx_log_debug())
    fputs(text, stderr);
}

const char *ocl_reduce_last_error(const ocl_reduce_context *ctx) {
  return ctx ? ctx->error : thread_error;
}
