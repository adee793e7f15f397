/* =================================================================================================
 * group_by_key.c: ocl_reduce_group_by_key (ocl_reduce_group.h): the runs of equal keys over a
 * group. The runs are found on the host, as a context's reference plan finds them
 * (exec/run_by_key.c), and the values reduced as segments by offsets over the group
 * (group_forms.c: each device a contiguous run of whole runs), so no run is cut between devices
 * and each run's result is one device's. Host memory throughout: a group buffer's parts would not
 * follow the runs.
 * ============================================================================================== */
#include <stdlib.h>

#include "base/errors.h"
#include "exec/run.h"
#include "group/group_forms.h"

/* Host memory of `count` elements of `size` bytes (NULL only when empty), named in messages. */
static ocl_reduce_status host_memory(const char *function, const char *name, const void *host,
                                     const void *buffer, size_t bytes, size_t count, size_t size) {
  if (buffer)
    return orx_fail(NULL, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: %s is a buffer: the group form takes host memory", function, name);
  ORX_CHECK_ARG(NULL, host || count == 0, "%s: %s is NULL", function, name);
  ORX_CHECK_ARG(NULL, count <= bytes / size,
                "%s: %s is %zu bytes of host memory, and %zu elements of %zu bytes need more",
                function, name, bytes, count, size);
  return OCL_REDUCE_OK;
}

/* The runs reduced once found and sized: heads (runs + 1) as the segments' offsets. */
static ocl_reduce_status reduce_runs(ocl_reduce_group *group, const char *function,
                                     ocl_reduce_op op, ocl_reduce_type type,
                                     const ocl_reduce_input *keys, size_t key_bytes,
                                     const ocl_reduce_input *values, size_t count,
                                     const ocl_reduce_output *keys_out,
                                     const ocl_reduce_output *results_out, uint64_t runs) {
  uint64_t *heads = orx_malloc(((size_t)runs + 1) * sizeof *heads);
  if (!heads)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", function);
  orx_key_runs(keys->host, key_bytes, count, heads);
  const ocl_reduce_input offsets =
      ocl_reduce_host_input(heads, ((size_t)runs + 1) * sizeof *heads);
  const ocl_reduce_status s = orx_group_segments_offsets(group, function, op, type, values,
                                                        (size_t)runs, &offsets, results_out);
  if (s == OCL_REDUCE_OK)
    orx_key_gather(keys_out->host, keys->host, key_bytes, heads, runs);
  free(heads);
  return s;
}

ocl_reduce_status ocl_reduce_group_by_key(ocl_reduce_group *group, ocl_reduce_op op,
                                          ocl_reduce_type type, ocl_reduce_type key_type,
                                          ocl_reduce_input keys, ocl_reduce_input values,
                                          size_t count, ocl_reduce_output keys_out,
                                          ocl_reduce_output results_out, uint64_t *run_count) {
  static const char function[] = "ocl_reduce_group_by_key";
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", function);
  size_t key_bytes = 0, elem = 0, result_bytes = 0;
  ORX_FORWARD(orx_group_operator(group, function, op, type, &elem, &result_bytes));
  ORX_FORWARD(orx_key_bytes(NULL, function, key_type, &key_bytes));
  ORX_CHECK_ARG(NULL, run_count, "%s: run_count is NULL", function);
  ORX_FORWARD(
      host_memory(function, "keys", keys.host, keys.buffer, keys.bytes, count, key_bytes));
  ORX_FORWARD(
      host_memory(function, "values", values.host, values.buffer, values.bytes, count, elem));
  ORX_FORWARD(host_memory(function, "keys_out", keys_out.host, keys_out.buffer, keys_out.bytes, 0,
                          key_bytes));
  ORX_FORWARD(host_memory(function, "results_out", results_out.host, results_out.buffer,
                          results_out.bytes, 0, result_bytes));
  const uint64_t runs = orx_key_runs(keys.host, key_bytes, count, NULL);
  if (runs > keys_out.bytes / key_bytes || runs > results_out.bytes / result_bytes) {
    *run_count = runs;
    return orx_key_outputs_too_small(NULL, function, runs, keys_out.bytes / key_bytes,
                                     results_out.bytes / result_bytes);
  }
  if (runs > 0)
    ORX_FORWARD(reduce_runs(group, function, op, type, &keys, key_bytes, &values, count, &keys_out,
                            &results_out, runs));
  *run_count = runs;
  return OCL_REDUCE_OK;
}
