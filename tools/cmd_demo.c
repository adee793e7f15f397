/* =================================================================================================
 * cmd_demo.c: `ocl-reduce demo`: the first thing to run after building. Reduces a generated array
 * on the default device (or the one OCL_REDUCE_DEVICE names) with several operators, from host
 * memory and from device memory, and checks each result against a host loop.
 * ============================================================================================== */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

int cmd_demo(int argc, char **argv) {
  static const struct option longs[] = {{"device", required_argument, NULL, 'd'},
                                        {"help", no_argument, NULL, 'h'},
                                        {NULL, 0, NULL, 0}};
  optind = 1;
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":d:h", longs, NULL)) != -1;) {
    if (c == 'd') {
      tool_select_device(optarg);
    } else if (c == 'h') {
      printf("usage: ocl-reduce demo [-d DEVICE]\n"
             "Reduces generated arrays on the default device, or the one -d / --device or\n"
             "OCL_REDUCE_DEVICE names, and checks them against host loops.\n");
      return 0;
    } else {
      return tool_option_error("demo", argv, c);
    }
  }
  if (optind < argc)
    return tool_usage_error("demo", "unexpected argument '%s'", argv[optind]);
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  if (s != OCL_REDUCE_OK)
    return tool_fail("creating a context", s, NULL);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  s = ocl_reduce_context_query(ctx, &info);
  if (s != OCL_REDUCE_OK) {
    /* The message lives in the context: report before destroying it. */
    const int failed = tool_fail("querying the context", s, ctx);
    ocl_reduce_context_destroy(ctx);
    return failed;
  }
  printf("device %u:%u  %s / %s\npath   %s (subgroup implementation %s, subgroup size %u, "
         "work-group size %u)\n\n",
         info.platform_index, info.device_index, info.platform_name, info.device_name,
         info.path == OCL_REDUCE_PATH_SUBGROUP ? "subgroup" : "local", info.subgroup_impl_name,
         info.subgroup_size, info.work_group_size);

  enum { N = 1000003 };
  int32_t *ints = malloc(N * sizeof *ints);
  float *floats = malloc(N * sizeof *floats);
  int failures = 0;
  if (!ints || !floats) {
    fprintf(stderr, "ocl-reduce: out of host memory\n");
    failures = 1;
    goto done;
  }
  int64_t int_sum = 0;
  int32_t int_max = INT32_MIN;
  float float_min = INFINITY;
  for (int i = 0; i < N; i++) {
    ints[i] = (int32_t)((i * 2654435761u) % 2001) - 1000;
    floats[i] = (float)((i * 40503u) % 65536) / 256.0f - 100.0f;
    int_sum += ints[i];
    int_max = ints[i] > int_max ? ints[i] : int_max;
    float_min = floats[i] < float_min ? floats[i] : float_min;
  }
  int32_t sum = 0, max = 0;
  float min = 0;
  if ((s = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, ints, N, &sum, sizeof sum)) !=
          OCL_REDUCE_OK ||
      (s = ocl_reduce(ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, ints, N, &max, sizeof max)) !=
          OCL_REDUCE_OK ||
      (s = ocl_reduce(ctx, OCL_REDUCE_MIN, OCL_REDUCE_F32, floats, N, &min, sizeof min)) !=
          OCL_REDUCE_OK) {
    failures = tool_fail("reducing host memory", s, ctx);
    goto done;
  }
  printf("%-34s %12d   host loop %12d  %s\n", "sum of 1000003 i32 (host memory)", sum,
         (int32_t)int_sum, sum == (int32_t)int_sum ? "ok" : "MISMATCH");
  printf("%-34s %12d   host loop %12d  %s\n", "max of 1000003 i32 (host memory)", max, int_max,
         max == int_max ? "ok" : "MISMATCH");
  printf("%-34s %12g   host loop %12g  %s\n", "min of 1000003 f32 (host memory)", min, float_min,
         min == float_min ? "ok" : "MISMATCH");
  failures += (sum != (int32_t)int_sum) + (max != int_max) + (min != float_min);

  /* Device-resident: upload once, reduce as often as needed. */
  ocl_reduce_buffer *buf = NULL;
  if ((s = ocl_reduce_buffer_create(ctx, N * sizeof *ints, &buf)) != OCL_REDUCE_OK ||
      (s = ocl_reduce_buffer_write(buf, 0, ints, N * sizeof *ints)) != OCL_REDUCE_OK ||
      (s = ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, ocl_reduce_buffer_input(buf, 1),
                           N - 1, ocl_reduce_host_output(&sum, sizeof sum))) != OCL_REDUCE_OK) {
    failures = tool_fail("reducing device memory", s, ctx);
    ocl_reduce_buffer_destroy(buf);
    goto done;
  }
  ocl_reduce_buffer_destroy(buf);
  int_sum -= ints[0];
  printf("%-34s %12d   host loop %12d  %s\n", "sum of i32 [1, N) (device memory)", sum,
         (int32_t)int_sum, sum == (int32_t)int_sum ? "ok" : "MISMATCH");
  failures += sum != (int32_t)int_sum;
  printf("\n%s\n", failures ? "demo FAILED" : "demo passed");
done:
  free(ints);
  free(floats);
  ocl_reduce_context_destroy(ctx);
  return failures ? 1 : 0;
}
