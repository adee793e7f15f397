/* =================================================================================================
 * tool_common.c: what the ocl-reduce command and the stand-alone benchmarks share (tool_common.h): the
 * failure message, the clock, the median, and an OpenCL device as an application would take it.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool_common.h"

int tool_fail(const char *what, ocl_reduce_status status, const ocl_reduce_context *ctx) {
  fprintf(stderr, "ocl-reduce: %s: %s: %s\n", what, ocl_reduce_status_name(status),
          ocl_reduce_last_error(ctx));
  return 1;
}

double tool_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double tool_median(double *values, size_t n) {
  qsort(values, n, sizeof *values, compare_doubles);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

ocl_reduce_status tool_opencl_context(ocl_reduce_context **ctx, ocl_reduce_context_info *info) {
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.backend = OCL_REDUCE_BACKEND_OPENCL;
  memset(info, 0, sizeof *info);
  info->struct_size = sizeof *info;
  ocl_reduce_status st = ocl_reduce_context_create(&opts, ctx);
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_context_query(*ctx, info);
  if (st != OCL_REDUCE_OK) {
    ocl_reduce_context_destroy(*ctx);
    *ctx = NULL;
  }
  return st;
}

void tool_store_integer(ocl_reduce_type type, void *data, size_t i, long long v) {
  switch (type) {
  case OCL_REDUCE_I32: ((int32_t *)data)[i] = (int32_t)v; break;
  case OCL_REDUCE_U32: ((uint32_t *)data)[i] = (uint32_t)v; break;
  case OCL_REDUCE_I64: ((int64_t *)data)[i] = v; break;
  case OCL_REDUCE_U64: ((uint64_t *)data)[i] = (uint64_t)v; break;
  case OCL_REDUCE_F32: ((float *)data)[i] = (float)v; break;
  case OCL_REDUCE_F64: ((double *)data)[i] = (double)v; break;
  case OCL_REDUCE_F16:
  case OCL_REDUCE_BF16: ((uint16_t *)data)[i] = ocl_reduce_half_from_float(type, (float)v); break;
  default: break;
  }
}
