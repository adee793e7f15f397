/* =================================================================================================
 * bench_enqueue.c: CALLS back-to-back reductions (f32 sums of the same COUNT-element buffer),
 * timed from the first call to the end of one wait, three ways in one run:
 *
 *   enqueued   ocl_reduce_into, each result into its own place of a results buffer: every call
 *              returns once its work is enqueued, then one ocl_reduce_finish
 *   blocking   ocl_reduce_buffer_reduce, each result into host memory: every call waits
 *   CUB        cub::DeviceReduce::Sum into its own output, back to back on one stream, then one
 *              cudaStreamSynchronize (where the tool was built with CUB and a GPU is present)
 *
 * Medians of ROUNDS rounds (one untimed round first); per call and as ratios. The device is the
 * one OCL_REDUCE_DEVICE / OCL_REDUCE_BACKEND name. Not installed; scripts/h200/ runs it.
 * Usage: bench_enqueue [CALLS [COUNT [ROUNDS]]]
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "tool_common.h"

int main(int argc, char **argv) {
  const int calls = argc > 1 ? atoi(argv[1]) : 1000;
  const size_t count = argc > 2 ? strtoull(argv[2], NULL, 10) : (size_t)1 << 20;
  int rounds = argc > 3 ? atoi(argv[3]) : 5;
  if (calls < 1 || count < 1 || rounds < 1) {
    fprintf(stderr, "usage: bench_enqueue [CALLS [COUNT [ROUNDS]]]\n");
    return 2;
  }
  rounds = rounds > 64 ? 64 : rounds;
  float *host = malloc(count * sizeof *host), *results = malloc((size_t)calls * sizeof *results);
  if (!host || !results)
    return 1;
  double expected = 0;
  for (size_t i = 0; i < count; i++) {
    host[i] = (float)(i % 17); /* small integers: every order of summing gives the same float */
    expected += host[i];
  }
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  if (s != OCL_REDUCE_OK)
    return tool_fail("creating a context", s, NULL);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_buffer *in = NULL, *out = NULL;
  if ((s = ocl_reduce_context_query(ctx, &info)) != OCL_REDUCE_OK ||
      (s = ocl_reduce_buffer_create(ctx, count * sizeof *host, &in)) != OCL_REDUCE_OK ||
      (s = ocl_reduce_buffer_write( in, 0, host, count * sizeof *host)) != OCL_REDUCE_OK ||
      (s = ocl_reduce_buffer_create(ctx, (size_t)calls * sizeof *results, &out)) != OCL_REDUCE_OK)
    return tool_fail("preparing", s, ctx);
  double enqueued[64], blocking[64];
  for (int r = -1; r < rounds; r++) {
    double t0 = tool_now();
    for (int c = 0; c < calls && s == OCL_REDUCE_OK; c++)
      s = ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(in, 0),
                          count, ocl_reduce_buffer_output(out, (size_t)c));
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_finish(ctx);
    double t1 = tool_now();
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_buffer_read( out, 0, results, (size_t)calls * sizeof *results);
    for (int c = 0; c < calls && s == OCL_REDUCE_OK; c++)
      if (results[c] != (float)expected)
        return fprintf(stderr, "bench_enqueue: enqueued sum %d is %g, not %g\n", c, results[c],
                       expected) > 0;
    double t2 = tool_now();
    for (int c = 0; c < calls && s == OCL_REDUCE_OK; c++)
      s = ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(in, 0), count, ocl_reduce_host_output(&results[c], sizeof results[c]));
    double t3 = tool_now();
    if (s != OCL_REDUCE_OK)
      return tool_fail("reducing", s, ctx);
    for (int c = 0; c < calls; c++)
      if (results[c] != (float)expected)
        return fprintf(stderr, "bench_enqueue: blocking sum %d is %g, not %g\n", c, results[c],
                       expected) > 0;
    if (r >= 0) {
      enqueued[r] = t1 - t0;
      blocking[r] = t3 - t2;
    }
  }
  char why[256] = "";
  const double cub = info.backend == OCL_REDUCE_BACKEND_CUDA ||
                             strstr(info.platform_name, "NVIDIA")
                         ? cub_enqueued_sums(count, calls, rounds, why, sizeof why)
                         : (snprintf(why, sizeof why, "not an NVIDIA GPU"), -1.0);
  const double e = tool_median(enqueued, (size_t)rounds), b = tool_median(blocking, (size_t)rounds);
  printf("%d back-to-back f32 sums of %zu elements (a device buffer), from the first call to the "
         "end of the wait; medians of %d rounds\ndevice %s / %s (%s backend)\n",
         calls, count, rounds, info.platform_name, info.device_name, info.backend_name);
  printf("  %-44s %10.2f us per call  (%.1f GB/s)\n", "ocl_reduce_into, enqueued, one finish",
         1e6 * e / calls, 1e-9 * (double)count * 4 * calls / e);
  printf("  %-44s %10.2f us per call  (%.1f GB/s)\n", "ocl_reduce_buffer_reduce, blocking",
         1e6 * b / calls, 1e-9 * (double)count * 4 * calls / b);
  if (cub > 0)
    printf("  %-44s %10.2f us per call  (%.1f GB/s)\n", "cub::DeviceReduce::Sum, one stream",
           1e6 * cub / calls, 1e-9 * (double)count * 4 * calls / cub);
  else
    printf("  CUB not run: %s\n", why);
  /* Their time over the enqueued calls': above 1 where enqueueing is faster. */
  printf("  speed of enqueued calls relative to blocking ones (their time / ours): %.3fx", b / e);
  if (cub > 0)
    printf(", relative to CUB: %.3fx", cub / e);
  printf(" (above 1: ocl_reduce enqueued is faster)\n");
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
  ocl_reduce_context_destroy(ctx);
  free(host);
  free(results);
  return 0;
}
