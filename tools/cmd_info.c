/* =================================================================================================
 * cmd_info.c: `ocl-reduce info`: like clinfo, but answering our question. For each device of each
 * platform: the capabilities the paths depend on, the path and subgroup implementation automatic
 * selection takes, the planner's plans per type (ocl_reduce_describe_plan), and a quick
 * self-check of sum, min and max on every type.
 * ============================================================================================== */
#include <getopt.h>
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
    tool_store_integer(type, data, i, v);
  }
  unsigned char result[8] = {0};
  *status = ocl_reduce(ctx, op, type, data, N, result, sizeof result);
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
  case OCL_REDUCE_F16:
  case OCL_REDUCE_BF16: /* SUM's result is f32, MIN's and MAX's an element */
    if (op == OCL_REDUCE_SUM)
      got = (long long)*(float *)result;
    else
      got = (long long)ocl_reduce_float_from_half(type, *(uint16_t *)result);
    break;
  }
  return got == expect;
}

/* What `info` reports of one device: read once, printed as text or JSON. */
typedef struct device_report {
  const ocl_reduce_device_desc *desc;
  char problem[1200]; /* why no context or query worked; empty when they did */
  ocl_reduce_context_info info;
  char plans[4 + OCL_REDUCE_TYPE_COUNT * 2][1024];
  char plan_names[4 + OCL_REDUCE_TYPE_COUNT * 2][32];
  int plan_count;
  const char *checks[OCL_REDUCE_TYPE_COUNT]; /* "ok", "n/a" (no fp64) or "FAILED" */
  int failures;
} device_report;

/* The planner's plans, in OCL_REDUCE_POLICY syntax (what to force to compare), and the
 * self-check of every type. */
static void examine(ocl_reduce_context *ctx, device_report *r) {
  static const struct {
    ocl_reduce_op op;
    size_t count, segment_length;
    const char *what;
  } shown[] = {{OCL_REDUCE_SUM, 1 << 24, 0, "sum"},
               {OCL_REDUCE_MIN, 1 << 24, 0, "min"},
               {OCL_REDUCE_SUM, 1 << 16, 0, "sum of 2^16"}, /* CPU devices: the host plan */
               {OCL_REDUCE_SUM, 1 << 24, 32, "sums of 32"},
               {OCL_REDUCE_SUM, 1 << 24, 4096, "sums of 4096"}};
  for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++) {
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++) {
      const ocl_reduce_type type = (ocl_reduce_type)t;
      /* Segments and small arrays for f32 only: the other types plan them alike. */
      if ((shown[k].segment_length || shown[k].count < (1 << 24)) && type != OCL_REDUCE_F32)
        continue;
      snprintf(r->plan_names[r->plan_count], sizeof r->plan_names[0], "%s %s",
               ocl_reduce_type_name(type), shown[k].what);
      char *plan = r->plans[r->plan_count];
      const ocl_reduce_status s = ocl_reduce_describe_plan(ctx, shown[k].op, type, shown[k].count,
                                                           shown[k].segment_length, plan, 1024);
      if (s != OCL_REDUCE_OK)
        snprintf(plan, 1024, "%s", ocl_reduce_status_name(s));
      r->plan_count++;
    }
  }
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
    r->checks[t] = refused ? "n/a" : ok ? "ok" : "FAILED";
    r->failures += !ok && !refused;
  }
}

/* Fills *r; returns the context whose strings r->info points into (destroy it after printing),
 * or NULL when none could be created. */
static ocl_reduce_context *report_of(const ocl_reduce_device_desc *d, device_report *r) {
  memset(r, 0, sizeof *r);
  r->desc = d;
  r->info.struct_size = sizeof r->info;
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.device = d->selector;
  opts.backend = d->backend; /* else AUTO would hand NVIDIA's OpenCL device to CUDA */
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  if (s != OCL_REDUCE_OK) {
    snprintf(r->problem, sizeof r->problem, "cannot create a context: %s: %s",
             ocl_reduce_status_name(s), ocl_reduce_last_error(NULL));
    r->failures = 1;
    return NULL;
  }
  s = ocl_reduce_context_query(ctx, &r->info);
  if (s != OCL_REDUCE_OK) {
    snprintf(r->problem, sizeof r->problem, "query failed: %s: %s", ocl_reduce_status_name(s),
             ocl_reduce_last_error(ctx));
    r->failures = 1;
  } else {
    examine(ctx, r);
  }
  return ctx;
}

static void print_text(const device_report *r) {
  const ocl_reduce_device_desc *d = r->desc;
  const ocl_reduce_context_info *info = &r->info;
  printf("%s  %s / %s  (%s)\n", d->selector, d->platform_name, d->device_name,
         type_word(d->device_type));
  if (r->problem[0]) {
    printf("  %s\n\n", r->problem);
    return;
  }
  printf("  version             %s; driver %s\n", info->device_version, info->driver_version);
  printf("  compute units       %u\n", info->compute_units);
  printf("  local memory        %llu KiB\n", (unsigned long long)(info->local_mem_bytes >> 10));
  printf("  largest allocation  %llu MiB of %llu MiB\n",
         (unsigned long long)(info->max_alloc_bytes >> 20),
         (unsigned long long)(info->global_mem_bytes >> 20));
  printf("  fp64                %s\n", info->has_fp64 ? "yes" : "no (f64 is refused)");
  printf("  subgroups           cl_khr_subgroups %s, cl_khr_subgroup_shuffle %s, "
         "cl_intel_subgroups %s",
         info->has_khr_subgroups ? "yes" : "no", info->has_khr_subgroup_shuffle ? "yes" : "no",
         info->has_intel_subgroups ? "yes" : "no");
  if (info->nv_warp_size)
    printf(", NVIDIA warps of %u (inline PTX shuffles%s)", info->nv_warp_size,
           info->nv_warp_size == 32 ? "" : " need 32");
  printf("\n");
  printf("  automatic path      %s",
         info->path == OCL_REDUCE_PATH_SUBGROUP ? "subgroup" : "local");
  if (info->path == OCL_REDUCE_PATH_SUBGROUP)
    printf(" (%s, subgroup size %u)", info->subgroup_impl_name, info->subgroup_size);
  printf(", work-group size %u\n", info->work_group_size);
  printf("  plans               (2^24 elements; OCL_REDUCE_POLICY syntax)\n");
  for (int p = 0; p < r->plan_count; p++)
    printf("    %-16s %s\n", r->plan_names[p], r->plans[p]);
  printf("  self-check          ");
  for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++)
    printf("%s %s%s", ocl_reduce_type_name((ocl_reduce_type)t), r->checks[t],
           t + 1 < OCL_REDUCE_TYPE_COUNT ? ", " : "\n\n");
}

static void json_field(const char *key, const char *value, int last) {
  printf("      \"%s\": ", key);
  tool_json_string(stdout, value ? value : "");
  printf("%s\n", last ? "" : ",");
}

static void print_json(const device_report *r, int last) {
  const ocl_reduce_device_desc *d = r->desc;
  const ocl_reduce_context_info *info = &r->info;
  printf("    {\n");
  json_field("selector", d->selector, 0);
  json_field("backend", d->backend == OCL_REDUCE_BACKEND_CUDA ? "cuda" : "opencl", 0);
  json_field("platform", d->platform_name, 0);
  json_field("device", d->device_name, 0);
  json_field("type", type_word(d->device_type), 0);
  if (r->problem[0]) {
    json_field("error", r->problem, 1);
    printf("    }%s\n", last ? "" : ",");
    return;
  }
  json_field("version", info->device_version, 0);
  json_field("driver", info->driver_version, 0);
  printf("      \"compute_units\": %u,\n      \"local_memory_bytes\": %llu,\n"
         "      \"max_alloc_bytes\": %llu,\n      \"global_memory_bytes\": %llu,\n"
         "      \"fp64\": %s,\n      \"khr_subgroups\": %s,\n      \"khr_subgroup_shuffle\": %s,\n"
         "      \"intel_subgroups\": %s,\n      \"nv_warp_size\": %u,\n",
         info->compute_units, (unsigned long long)info->local_mem_bytes,
         (unsigned long long)info->max_alloc_bytes, (unsigned long long)info->global_mem_bytes,
         info->has_fp64 ? "true" : "false", info->has_khr_subgroups ? "true" : "false",
         info->has_khr_subgroup_shuffle ? "true" : "false",
         info->has_intel_subgroups ? "true" : "false", info->nv_warp_size);
  json_field("path", info->path == OCL_REDUCE_PATH_SUBGROUP ? "subgroup" : "local", 0);
  json_field("subgroup_impl", info->subgroup_impl_name, 0);
  printf("      \"subgroup_size\": %u,\n      \"work_group_size\": %u,\n", info->subgroup_size,
         info->work_group_size);
  printf("      \"plans\": {");
  for (int p = 0; p < r->plan_count; p++) {
    printf("%s\n        ", p ? "," : "");
    tool_json_string(stdout, r->plan_names[p]);
    printf(": ");
    tool_json_string(stdout, r->plans[p]);
  }
  printf("\n      },\n      \"self_check\": {");
  for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++)
    printf("%s\"%s\": \"%s\"", t ? ", " : "", ocl_reduce_type_name((ocl_reduce_type)t),
           r->checks[t]);
  printf("}\n    }%s\n", last ? "" : ",");
}

static void usage(void) {
  printf("usage: ocl-reduce info [--json] [-d DEVICE | --devices LIST]\n"
         "Lists every device of every backend: the capabilities the paths depend on, the path\n"
         "automatic selection takes, the planner's plans, and a self-check of sum, min and max\n"
         "on every type. Exits 1 when a self-check fails.\n"
         "  -d, --device DEV    only the device OCL_REDUCE_DEVICE=DEV would take (P:D, cuda:N,\n"
         "                      pocl, intel, nvidia, cuda, cpu, gpu, or part of its name)\n"
         "      --devices LIST  the group of devices ocl_reduce_group_create makes of LIST\n"
         "                      (e.g. cuda:0,cuda:1 or pocl,intel; 'default': its default\n"
         "                      group): each device with its shares, and the group's self-check\n"
         "      --json          as one JSON object on stdout\n"
         "  -h, --help          this text\n");
}

/* -d: the one device a context created with `selector` opens, as ocl_reduce_devices lists it. */
static int chosen_device(const char *selector, const ocl_reduce_device_desc *devices,
                         size_t count, size_t *index) {
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.device = selector;
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_context_query(ctx, &info);
  if (s != OCL_REDUCE_OK) {
    tool_fail("choosing the device", s, ctx);
    ocl_reduce_context_destroy(ctx);
    return 0;
  }
  ocl_reduce_context_destroy(ctx);
  for (size_t i = 0; i < count; i++)
    if (devices[i].backend == info.backend &&
        devices[i].platform_index == info.platform_index &&
        devices[i].device_index == info.device_index) {
      *index = i;
      return 1;
    }
  fprintf(stderr, "ocl-reduce info: device %s is not in the listing\n", selector);
  return 0;
}

int cmd_info(int argc, char **argv) {
  static const struct option longs[] = {{"json", no_argument, NULL, 'j'},
                                        {"device", required_argument, NULL, 'd'},
                                        {"devices", required_argument, NULL, 'g'},
                                        {"help", no_argument, NULL, 'h'},
                                        {NULL, 0, NULL, 0}};
  int json = 0;
  const char *selector = NULL, *group = NULL;
  optind = 1;
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":d:h", longs, NULL)) != -1;) {
    switch (c) {
    case 'j': json = 1; break;
    case 'd': selector = optarg; break;
    case 'g': group = optarg; break;
    case 'h': usage(); return 0;
    default: return tool_option_error("info", argv, c);
    }
  }
  if (optind < argc)
    return tool_usage_error("info", "unexpected argument '%s'", argv[optind]);
  if (group && selector)
    return tool_usage_error("info", "-d and --devices exclude each other");
  if (group)
    return info_group(group, json);
  size_t count = 0;
  ocl_reduce_status s = ocl_reduce_devices(NULL, 0, &count);
  if (s != OCL_REDUCE_OK)
    return tool_fail("listing devices", s, NULL);
  if (count == 0) {
    fprintf(stderr, "ocl-reduce info: no device found (is an OpenCL ICD installed? "
                    "OCL_ICD_VENDORS=%s)\n",
            getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "(unset)");
    return 1;
  }
  ocl_reduce_device_desc *devices = calloc(count, sizeof *devices);
  device_report *report = malloc(sizeof *report);
  if (!devices || !report) {
    free(devices);
    free(report);
    return 1;
  }
  devices[0].struct_size = sizeof devices[0];
  s = ocl_reduce_devices(devices, count, &count);
  size_t first = 0, last = count;
  if (s != OCL_REDUCE_OK)
    last = 0, tool_fail("listing devices", s, NULL);
  else if (selector && chosen_device(selector, devices, count, &first))
    last = first + 1;
  else if (selector)
    last = 0;
  int failures = s != OCL_REDUCE_OK || first == last;
  if (json && first < last) {
    const int v = ocl_reduce_version();
    printf("{\n  \"library_version\": \"%d.%d.%d\",\n  \"devices\": [\n", v / 10000,
           v / 100 % 100, v % 100);
  }
  for (size_t i = first; i < last; i++) {
    ocl_reduce_context *ctx = report_of(&devices[i], report);
    if (json)
      print_json(report, i + 1 == last);
    else
      print_text(report);
    ocl_reduce_context_destroy(ctx);
    fflush(stdout);
    failures += report->failures;
  }
  if (json && first < last)
    printf("  ]\n}\n");
  free(report);
  free(devices);
  return failures ? 1 : 0;
}
