/* =================================================================================================
 * info_group.c: `ocl-reduce info --devices LIST`: the group ocl_reduce_group_create makes of LIST
 * (or of the default devices): each device with its shares, and a self-check of the group's sum.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_group.h"
#include "tool.h"

/* An exact i64 sum of 2^24 small integers over the group: 1 when it matches the host's. */
static int group_self_check(ocl_reduce_group *g, ocl_reduce_status *status) {
  enum { N = 1 << 24 }; /* 128 MiB: two least parts */
  int64_t *data = malloc(N * sizeof *data), expect = 0, got = 0;
  if (!data)
    return 0;
  for (size_t i = 0; i < N; i++)
    expect += data[i] = (int64_t)((i * 2654435761u) % 201) - 100;
  *status = ocl_reduce_group_reduce(g, OCL_REDUCE_SUM, OCL_REDUCE_I64,
                                    ocl_reduce_host_input(data, N * sizeof *data), N,
                                    ocl_reduce_host_output(&got, sizeof got));
  free(data);
  return *status == OCL_REDUCE_OK && got == expect;
}

int info_group(const char *devices, int json) {
  ocl_reduce_group *g = NULL;
  ocl_reduce_status s =
      ocl_reduce_group_create(NULL, strcmp(devices, "default") ? devices : NULL, &g);
  if (s != OCL_REDUCE_OK)
    return tool_fail("creating the group", s, NULL);
  const size_t n = ocl_reduce_group_size(g);
  double host[OCL_REDUCE_GROUP_MAX_DEVICES], resident[OCL_REDUCE_GROUP_MAX_DEVICES];
  ocl_reduce_group_shares(g, OCL_REDUCE_SHARES_HOST, host);
  ocl_reduce_group_shares(g, OCL_REDUCE_SHARES_RESIDENT, resident);
  ocl_reduce_status check_status = OCL_REDUCE_OK;
  const int ok = group_self_check(g, &check_status);
  if (json)
    printf("{\n  \"group\": [\n");
  else
    printf("group of %zu device%s (%s):\n", n, n == 1 ? "" : "s", devices);
  for (size_t d = 0; d < n; d++) {
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    ocl_reduce_context_query(ocl_reduce_group_context(g, d), &info);
    char where[32];
    if (info.backend == OCL_REDUCE_BACKEND_CUDA)
      snprintf(where, sizeof where, "cuda:%u", info.device_index);
    else
      snprintf(where, sizeof where, "%u:%u", info.platform_index, info.device_index);
    if (json) {
      printf("    {\"selector\": ");
      tool_json_string(stdout, where);
      printf(", \"platform\": ");
      tool_json_string(stdout, info.platform_name);
      printf(", \"device\": ");
      tool_json_string(stdout, info.device_name);
      printf(", \"host_share\": %.4f, \"resident_share\": %.4f}%s\n", host[d], resident[d],
             d + 1 < n ? "," : "");
    } else {
      printf("  %zu  %-8s %s / %s: host share %.3f, resident share %.3f\n", d, where,
             info.platform_name, info.device_name, host[d], resident[d]);
    }
  }
  if (json)
    printf("  ],\n  \"self_check\": \"%s\"\n}\n", ok ? "ok" : "FAILED");
  else
    printf("  self-check (i64 sum of 2^24 over the group): %s%s%s\n", ok ? "ok" : "FAILED",
           check_status != OCL_REDUCE_OK ? ": " : "",
           check_status != OCL_REDUCE_OK ? ocl_reduce_last_error(NULL) : "");
  ocl_reduce_group_destroy(g);
  return ok ? 0 : 1;
}
