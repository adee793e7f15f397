/* =================================================================================================
 * bench_windows.c: the benchmarks of sliding windows, side by side in one run on one profiling
 * context (the device and backend from OCL_REDUCE_DEVICE and OCL_REDUCE_BACKEND):
 *
 *   speed    ocl_reduce_windows over device-resident f32 (windows 3, 32 and 1000; sum, min, max),
 *            in GB/s counting the input's bytes once, against the whole-array f32 sum of the same
 *            buffer (the full-reduce bandwidth) and, on CPU devices, against the OpenMP loop of the
 *            same algorithm (omp_windows.c) over the same data in host memory;
 *   paper    Parker & MacKinnon's §7 benchmark: sums of every window of 32 (i32, f32, f64), each
 *            window reduced on its own, by a butterfly per window ("shuffle") and by the iterative
 *            multireduction ("mr") in the same kernel otherwise; speedup = shuffle / mr time.
 *
 * Every timing is the median device time of ROUNDS calls after two warm-up calls; every result
 * of the first call is checked against the host (the OpenMP loop's for the speed table, a
 * double-precision fold for the paper's).
 *
 *   bench_windows [speed|paper|all] [COUNT [ROUNDS [WINDOW,...]]]
 *                 (default all, 2^26 elements, 20 rounds, windows 3, 32 and 1000)
 * ============================================================================================== */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_windows.h"
#include "tool_common.h"

/* A profiling context with `policy` added to OCL_REDUCE_POLICY while it is created. */
static ocl_reduce_context *context_with(const char *policy) {
  const char *env = getenv("OCL_REDUCE_POLICY");
  char saved[256], merged[512];
  snprintf(saved, sizeof saved, "%s", env ? env : "");
  snprintf(merged, sizeof merged, "%s%s%s", saved, saved[0] && policy[0] ? "," : "", policy);
  setenv("OCL_REDUCE_POLICY", merged, 1);
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.profiling = 1;
  ocl_reduce_context *ctx = NULL;
  const ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  setenv("OCL_REDUCE_POLICY", saved, 1);
  if (s != OCL_REDUCE_OK)
    fprintf(stderr, "bench_windows: context (%s): %s\n", policy, ocl_reduce_last_error(NULL));
  return ctx;
}

/* Median device seconds of `rounds` window calls; -1 on an error. */
static double time_windows(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                           ocl_reduce_buffer *in, size_t count, size_t window,
                           ocl_reduce_buffer *out, int rounds) {
  double *t = malloc((size_t)rounds * sizeof *t);
  for (int r = -2; r < rounds; r++) {
    uint64_t ns = 0;
    ocl_reduce_status s = ocl_reduce_windows(ctx, op, type, ocl_reduce_buffer_input(in, 0), count,
                                             window, ocl_reduce_buffer_output(out, 0));
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_last_kernel_ns(ctx, &ns);
    if (s != OCL_REDUCE_OK) {
      fprintf(stderr, "bench_windows: %s\n", ocl_reduce_last_error(ctx));
      free(t);
      return -1;
    }
    if (r >= 0)
      t[r] = 1e-9 * (double)ns;
  }
  const double m = tool_median(t, (size_t)rounds);
  free(t);
  return m;
}

/* ---- speed -------------------------------------------------------------------------------- */

static int bench_speed(size_t count, int rounds, const size_t *windows, size_t n_windows) {
  ocl_reduce_context *ctx = context_with("");
  if (!ctx)
    return 1;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  const int cpu = info.device_type == OCL_REDUCE_DEVICE_CPU;
  float *x = malloc(count * sizeof *x), *got = malloc(count * sizeof *got);
  float *want = malloc(count * sizeof *want);
  for (size_t i = 0; i < count; i++)
    /* Multiples of 1/128 spread evenly over (-7.81, 7.81): their running sums stay small, so
     * every window's sum is exact in f32 up to windows of millions (a mean of 0.8, as these
     * values had before 2026-12-05, left windows of a million inexact: every result "differed"). */
    x[i] = (float)(2 * (int)((i * 2654435761u) % 1000) - 999) / 128.0f;
  ocl_reduce_buffer *in = NULL, *out = NULL;
  int bad = ocl_reduce_buffer_create(ctx, count * sizeof *x, &in) != OCL_REDUCE_OK ||
            ocl_reduce_buffer_create(ctx, count * sizeof *x, &out) != OCL_REDUCE_OK ||
            ocl_reduce_buffer_write( in, 0, x, count * sizeof *x) != OCL_REDUCE_OK;
  /* The full-reduce bandwidth: the whole-array sum of the same buffer. */
  double *t = malloc((size_t)rounds * sizeof *t);
  for (int r = -2; r < rounds && !bad; r++) {
    float sum;
    uint64_t ns = 0;
    bad = ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(in, 0), count, ocl_reduce_host_output(&sum, sizeof sum)) !=
              OCL_REDUCE_OK ||
          ocl_reduce_last_kernel_ns(ctx, &ns) != OCL_REDUCE_OK;
    if (r >= 0)
      t[r] = 1e-9 * (double)ns;
  }
  const double full_gbs = bad ? 0 : (double)count * 4 / tool_median(t, (size_t)rounds) / 1e9;
  printf("speed: %s (%s), f32, %zu elements, device-resident, medians of %d; GB/s count the input "
         "once; full reduce (f32 sum) %.1f GB/s%s\n",
         info.device_name, info.backend_name, count, rounds, full_gbs,
         cpu ? "; OpenMP: the same algorithm on the host's threads" : "");
  const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  for (size_t w = 0; w < n_windows && !bad; w++)
    for (size_t o = 0; o < 3 && !bad; o++) {
      const size_t window = windows[w], n_out = count - window + 1;
      const double dev = time_windows(ctx, ops[o], OCL_REDUCE_F32, in, count, window, out, rounds);
      bad = dev < 0 ||
            ocl_reduce_buffer_read( out, 0, got, n_out * sizeof *got) != OCL_REDUCE_OK;
      /* The OpenMP loop: its result checks ours (sums of these values are exact). */
      for (int r = -1; r < rounds && !bad; r++) {
        const double start = omp_get_wtime();
        omp_windows(ops[o], x, count, window, want);
        if (r >= 0)
          t[r] = omp_get_wtime() - start;
      }
      /* OpenMP's idle threads spin for milliseconds: stopped, they take no CPU from the next
       * case's ocl_reduce calls (see contender_ops.rest in bench.h). */
      (void)omp_pause_resource_all(omp_pause_soft);
      const double host = bad ? 0 : tool_median(t, (size_t)rounds);
      size_t wrong = 0;
      for (size_t j = 0; j < n_out && !bad; j++)
        wrong += got[j] != want[j];
      if (wrong) {
        fprintf(stderr, "bench_windows: %s window %zu: %zu results differ from the host's\n",
                ocl_reduce_op_name(ops[o]), window, wrong);
        bad = 1;
      }
      const double gbs = (double)count * 4 / dev / 1e9;
      printf("  window %4zu %-3s %8.1f us %8.1f GB/s  %.3f x full reduce", window,
             ocl_reduce_op_name(ops[o]), 1e6 * dev, gbs, gbs / full_gbs);
      if (cpu)
        printf("  OpenMP %8.1f us  speed relative to OpenMP (its time / ours) %.3fx", 1e6 * host,
               host / dev);
      printf("\n");
    }
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
  ocl_reduce_context_destroy(ctx);
  free(x);
  free(got);
  free(want);
  free(t);
  return bad;
}

/* ---- paper -------------------------------------------------------------------------------- */

/* One type: every window of 32 of n_out + 31 elements, shuffle against mr. */
static int paper_type(ocl_reduce_context *shuffle, ocl_reduce_context *mr, ocl_reduce_type type,
                      size_t n_out, int rounds) {
  const size_t window = 32, count = n_out + window - 1, elem = ocl_reduce_type_size(type);
  unsigned char *x = malloc(count * elem), *got = malloc(n_out * elem);
  for (size_t i = 0; i < count; i++) {
    const int v = (int)((i * 2654435761u) % 2001) - 1000;
    if (type == OCL_REDUCE_I32)
      ((int32_t *)(void *)x)[i] = v;
    else if (type == OCL_REDUCE_F32)
      ((float *)(void *)x)[i] = (float)v / 8.0f;
    else
      ((double *)(void *)x)[i] = (double)v / 8.0;
  }
  double times[2] = {0, 0};
  ocl_reduce_context *ctxs[2] = {shuffle, mr};
  int bad = 0;
  for (int k = 0; k < 2 && !bad; k++) {
    ocl_reduce_buffer *in = NULL, *out = NULL;
    bad = ocl_reduce_buffer_create(ctxs[k], count * elem, &in) != OCL_REDUCE_OK ||
          ocl_reduce_buffer_create(ctxs[k], n_out * elem, &out) != OCL_REDUCE_OK ||
          ocl_reduce_buffer_write( in, 0, x, count * elem) != OCL_REDUCE_OK;
    if (!bad)
      times[k] = time_windows(ctxs[k], OCL_REDUCE_SUM, type, in, count, window, out, rounds);
    bad = bad || times[k] < 0 ||
          ocl_reduce_buffer_read( out, 0, got, n_out * elem) != OCL_REDUCE_OK;
    /* Exact: multiples of 1/8 below 2^15 in magnitude. */
    for (size_t j = 0; j < n_out && !bad; j += 1 + j / 7) {
      double s = 0, g;
      for (size_t i = j; i < j + window; i++)
        s += type == OCL_REDUCE_I32   ? ((int32_t *)(void *)x)[i]
             : type == OCL_REDUCE_F32 ? ((float *)(void *)x)[i]
                                      : ((double *)(void *)x)[i];
      g = type == OCL_REDUCE_I32   ? ((int32_t *)(void *)got)[j]
          : type == OCL_REDUCE_F32 ? ((float *)(void *)got)[j]
                                   : ((double *)(void *)got)[j];
      if (g != s) {
        fprintf(stderr, "bench_windows: paper %s window %zu: %g, not %g\n",
                ocl_reduce_type_name(type), j, g, s);
        bad = 1;
      }
    }
    ocl_reduce_buffer_destroy(in);
    ocl_reduce_buffer_destroy(out);
  }
  if (!bad)
    printf("  %-3s  shuffle %9.1f us  mr %9.1f us  speedup %.2f\n", ocl_reduce_type_name(type),
           1e6 * times[0], 1e6 * times[1], times[0] / times[1]);
  free(x);
  free(got);
  return bad;
}

static int bench_paper(size_t n_out, int rounds) {
  ocl_reduce_context *shuffle = context_with("win=shuffle"), *mr = context_with("win=mr");
  int bad = !shuffle || !mr;
  if (!bad) {
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    ocl_reduce_context_query(mr, &info);
    printf("paper (§7): %s (%s), sums of all %zu windows of 32, each reduced on its own, medians "
           "of %d\n",
           info.device_name, info.backend_name, n_out, rounds);
    const ocl_reduce_type types[] = {OCL_REDUCE_I32, OCL_REDUCE_F32, OCL_REDUCE_F64};
    for (int k = 0; k < 3 && !bad; k++)
      bad = paper_type(shuffle, mr, types[k], n_out, rounds);
  }
  ocl_reduce_context_destroy(shuffle);
  ocl_reduce_context_destroy(mr);
  return bad;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  const size_t count = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : (size_t)1 << 26;
  const int rounds = argc > 3 ? atoi(argv[3]) : 20;
  const int speed = !strcmp(which, "speed") || !strcmp(which, "all");
  const int paper = !strcmp(which, "paper") || !strcmp(which, "all");
  /* The speed table's windows: 3, 32 and 1000, or those listed (up to 16, each 1 to COUNT). */
  size_t windows[16] = {3, 32, 1000}, n_windows = 3;
  if (argc > 4) {
    const char *w = argv[4];
    for (n_windows = 0; *w && n_windows < 16; w += *w == ',') {
      char *end;
      windows[n_windows] = (size_t)strtoull(w, &end, 10);
      if (end == w || windows[n_windows] < 1 || windows[n_windows] > count)
        break;
      n_windows++, w = end;
    }
    if (*w) /* not a window, or a 17th */
      n_windows = 0;
  }
  if ((!speed && !paper) || count < 1000 || rounds < 1 || !n_windows) {
    fprintf(stderr,
            "usage: bench_windows [speed|paper|all] [COUNT >= 1000 [ROUNDS [WINDOW,...]]]\n");
    return 2;
  }
  int bad = 0;
  if (speed)
    bad |= bench_speed(count, rounds, windows, n_windows);
  if (paper)
    bad |= bench_paper(count / 4, rounds);
  return bad;
}
