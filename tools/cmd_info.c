/* =================================================================================================
 * cmd_info.c: `ocl-reduce info`: like clinfo, but answering our question. For each device of each
 * platform: the capabilities the paths depend on, the path and subgroup implementation automatic
 * selection takes, the planner's plans per type (ocl_reduce_describe_plan), and a quick
 * self-check of sum, min and max on every type.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const char *type_word(ocl_reduce_device_type t) {
  switch (t) {
  case OCL_REDUCE_DEVICE_CPU:
    return "CPU";
  case OCL_REDUCE_DEVICE_GPU:
    return "GPU";
  case OCL_REDUCE_DEVICE_ACCELERATOR:
    return "accelerator";
  default:
    return "other";
  }
}

/* Reduces 100003 elements of `type` with `op` and compares with a host loop in exact arithmetic
 * (the values are small integers, so float sums are exact too). Returns 1 when they agree. */
static int self_check(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                      ocl_reduce_status *status) {
  enum { N = 100003 };
  const size_t size = ocl_reduce_type_size(type);
  unsigned char *data = malloc(N * size);
  if (!data)
    return 0;
  long long expect = op == OCL_REDUCE_SUM ? 0 : op == OCL_REDUCE_MIN ? 1LL << 40 : -(1LL << 40);
  for (size_t i = 0; i < N; i++) {
    long long v = (long long)((i * 2654435761u) % 201) - 100;
    if (type == OCL_REDUCE_U32 || type == OCL_REDUCE_U64)
      v += 100;
    expect = op == OCL_REDUCE_SUM ? expect + v : op == OCL_REDUCE_MIN ? (v < expect ? v : expect)
                                                                      : (v > expect ? v : expect);
    switch (type) {
    case OCL_REDUCE_I32: ((int32_t *)data)[i] = (int32_t)v; break;
    case OCL_REDUCE_U32: ((uint32_t *)data)[i] = (uint32_t)v; break;
    case OCL_REDUCE_I64: ((int64_t *)data)[i] = v; break;
    case OCL_REDUCE_U64: ((uint64_t *)data)[i] = (uint64_t)v; break;
    case OCL_REDUCE_F32: ((float *)data)[i] = (float)v; break;
    case OCL_REDUCE_F64: ((double *)data)[i] = (double)v; break;
    }
  }
  unsigned char result[8] = {0};
  *status = ocl_reduce(ctx, op, type, data, N, result);
  free(data);
  if (*status != OCL_REDUCE_OK)
    return 0;
  long long got = 0;
  switch (type) {
  case OCL_REDUCE_I32: got = *(int32_t *)result; break;
  case OCL_REDUCE_U32: got = *(uint32_t *)result; break;
  case OCL_REDUCE_I64: got = *(int64_t *)result; break;
  case OCL_REDUCE_U64: got = (long long)*(uint64_t *)result; break;
  case OCL_REDUCE_F32: got = (long long)*(float *)result; break;
  case OCL_REDUCE_F64: got = (long long)*(double *)result; break;
  }
  return got == expect;
}

static int describe(const ocl_reduce_device_desc *d) {
  printf("%s  %s / %s  (%s)\n", d->selector, d->platform_name, d->device_name,
         type_word(d->device_type));
  ocl_reduce_options opts;
  ocl_reduce_options_init(&opts);
  opts.device = d->selector;
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  if (s != OCL_REDUCE_OK) {
    printf("  cannot create a context: %s: %s\n\n", ocl_reduce_status_name(s),
           ocl_reduce_last_error(NULL));
    return 1;
  }
  ocl_reduce_context_info info = {.struct_size = sizeof info};
  s = ocl_reduce_context_query(ctx, &info);
  if (s != OCL_REDUCE_OK) {
    printf("  query failed: %s: %s\n\n", ocl_reduce_status_name(s), ocl_reduce_last_error(ctx));
    ocl_reduce_context_destroy(ctx);
    return 1;
  }
  printf("  version             %s; driver %s\n", info.device_version, info.driver_version);
  printf("  compute units       %u\n", info.compute_units);
  printf("  local memory        %llu KiB\n", (unsigned long long)(info.local_mem_bytes >> 10));
  printf("  largest allocation  %llu MiB of %llu MiB\n",
         (unsigned long long)(info.max_alloc_bytes >> 20),
         (unsigned long long)(info.global_mem_bytes >> 20));
  printf("  fp64                %s\n", info.has_fp64 ? "yes" : "no (f64 is refused)");
  printf("  subgroups           cl_khr_subgroups %s, cl_khr_subgroup_shuffle %s, "
         "cl_intel_subgroups %s",
         info.has_khr_subgroups ? "yes" : "no", info.has_khr_subgroup_shuffle ? "yes" : "no",
         info.has_intel_subgroups ? "yes" : "no");
  if (info.nv_warp_size)
    printf(", NVIDIA warps of %u (inline PTX shuffles%s)", info.nv_warp_size,
           info.nv_warp_size == 32 ? "" : " need 32");
  printf("\n");
  printf("  automatic path      %s", info.path == OCL_REDUCE_PATH_SUBGROUP ? "subgroup" : "local");
  if (info.path == OCL_REDUCE_PATH_SUBGROUP)
    printf(" (%s, subgroup size %u)", info.subgroup_impl_name, info.subgroup_size);
  printf(", work-group size %u\n", info.work_group_size);
  /* The planner's plans, in OCL_REDUCE_POLICY syntax: what to force to compare. */
  printf("  plans               (2^24 elements; OCL_REDUCE_POLICY syntax)\n");
  static const struct {
    ocl_reduce_op op;
    size_t segment_length;
    const char *what;
  } shown[] = {{OCL_REDUCE_SUM, 0, "sum"},
               {OCL_REDUCE_MIN, 0, "min"},
               {OCL_REDUCE_SUM, 32, "sums of 32"},
               {OCL_REDUCE_SUM, 4096, "sums of 4096"}};
  for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++) {
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++) {
      const ocl_reduce_type type = (ocl_reduce_type)t;
      /* Segments for f32 only: the other types plan them alike. */
      if (shown[k].segment_length && type != OCL_REDUCE_F32)
        continue;
      char plan[1024];
      s = ocl_reduce_describe_plan(ctx, shown[k].op, type, (size_t)1 << 24,
                                   shown[k].segment_length, plan, sizeof plan);
      printf("    %s %-13s %s\n", ocl_reduce_type_name(type), shown[k].what,
             s == OCL_REDUCE_OK ? plan : ocl_reduce_status_name(s));
    }
  }
  printf("  self-check          ");
  int failures = 0;
  for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++) {
    static const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
    int ok = 1, refused = 0;
    for (int o = 0; o < 3; o++) {
      ocl_reduce_status status = OCL_REDUCE_OK;
      if (!self_check(ctx, ops[o], (ocl_reduce_type)t, &status)) {
        refused |= status == OCL_REDUCE_ERROR_NO_FP64;
        ok = 0;
      }
    }
    printf("%s %s%s", ocl_reduce_type_name((ocl_reduce_type)t),
           refused ? "n/a" : ok ? "ok" : "FAILED", t + 1 < OCL_REDUCE_TYPE_COUNT ? ", " : "\n\n");
    failures += !ok && !refused;
  }
  ocl_reduce_context_destroy(ctx);
  return failures != 0;
}

int cmd_info(int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "usage: ocl-reduce info\n");
    return 2;
  }
  size_t count = 0;
  ocl_reduce_status s = ocl_reduce_devices(NULL, 0, &count);
  if (s != OCL_REDUCE_OK)
    return tool_fail("listing devices", s, NULL);
  if (count == 0) {
    printf("no OpenCL device found (is an ICD installed? OCL_ICD_VENDORS=%s)\n",
           getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "(unset)");
    return 1;
  }
  ocl_reduce_device_desc *devices = calloc(count, sizeof *devices);
  if (!devices)
    return 1;
  devices[0].struct_size = sizeof devices[0];
  s = ocl_reduce_devices(devices, count, &count);
  int failures = 0;
  for (size_t i = 0; i < count && s == OCL_REDUCE_OK; i++)
    failures += describe(&devices[i]);
  free(devices);
  return failures ? 1 : 0;
}
