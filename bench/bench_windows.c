/* =================================================================================================
 * bench_windows.c: the benchmarks of sliding windows, side by side in one run on one profiling
 * context (the device and backend from OCL_REDUCE_DEVICE and OCL_REDUCE_BACKEND):
 *
 *   speed    ocl_reduce_windows over device-resident f32 (windows 3, 32 and 1000; sum, min, max;
 *            or those listed, argmin, argmax and minmax too), in GB/s counting the input's bytes
 *            once, against the whole-array f32 sum of the same buffer (the full-reduce bandwidth)
 *            and the copy limit (the input's share of the bytes read and written); on CPU devices
 *            against the OpenMP loop of the same algorithm (omp_windows.c, sum, min and max) over
 *            the same data in host memory; and where BENCH_WINDOWS_ALT names a policy
 *            (OCL_REDUCE_POLICY's syntax, e.g. keys=1), against the same device under it;
 *   paper    Parker & MacKinnon's §7 benchmark: sums of every window of 32 (i32, f32, f64), each
 *            window reduced on its own, by a butterfly per window ("shuffle") and by the iterative
 *            multireduction ("mr") in the same kernel otherwise; speedup = shuffle / mr time.
 *
 * Every timing is the median device time of ROUNDS calls after two warm-up calls; every result
 * of the last call is checked against the host (for the speed table the OpenMP loop's, or for
 * argmin, argmax and minmax a monotone deque's, byte for byte; a double-precision fold for the
 * paper's).
 *
 *   bench_windows [speed|paper|all] [COUNT [ROUNDS [WINDOW,... [OP,...]]]]
 *                 (default all, 2^26 elements, 20 rounds, windows 3, 32 and 1000, sum, min, max)
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
  if (!t) {
    fprintf(stderr, "bench_windows: out of host memory\n");
    return -1;
  }
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

/* The expected results of ARGMIN, ARGMAX (ocl_reduce_arg) or MINMAX (min, max) over every window
 * of the count f32 at x, into out: a monotone deque per extreme, kept in the earlier-first order
 * that makes the first index win a tie (the data hold no NaN and no zero). */
static void host_window_states(ocl_reduce_op op, const float *x, size_t count, size_t window,
                               unsigned char *out) {
  /* m 0: the minimum, 1: the maximum; ARGMIN and ARGMAX keep only their own deque. */
  const int first = op == OCL_REDUCE_ARGMAX, last = op == OCL_REDUCE_ARGMIN ? 0 : 1;
  size_t *dq[2] = {NULL, NULL}, head[2] = {0, 0}, tail[2] = {0, 0};
  for (int m = first; m <= last; m++)
    if (!(dq[m] = malloc(count * sizeof(size_t)))) {
      fprintf(stderr, "bench_windows: out of host memory for the reference\n");
      exit(1);
    }
  for (size_t i = 0; i < count; i++)
    for (int m = first; m <= last; m++) {
      while (tail[m] > head[m] && (m ? x[dq[m][tail[m] - 1]] < x[i] : x[dq[m][tail[m] - 1]] > x[i]))
        tail[m]--;
      dq[m][tail[m]++] = i;
      if (dq[m][head[m]] + window <= i)
        head[m]++;
      if (i + 1 < window)
        continue;
      const size_t j = i + 1 - window, best = dq[m][head[m]];
      if (op == OCL_REDUCE_MINMAX) {
        memcpy(out + 8 * j + 4 * (size_t)m, &x[best], 4);
      } else {
        ocl_reduce_arg r;
        memset(&r, 0, sizeof r);
        r.value.f32 = x[best];
        r.index = best;
        memcpy(out + sizeof r * j, &r, sizeof r);
      }
    }
  free(dq[0]);
  free(dq[1]);
}

/* One operator's results of every window (parse_ops takes only these six), from the OpenMP loop
 * (SUM, MIN, MAX: timed, into host_s) or from host_window_states (the rest: untimed). */
static void host_windows(ocl_reduce_op op, const float *x, size_t count, size_t window,
                         int rounds, unsigned char *want, double *t, double *host_s) {
  *host_s = 0;
  if (op != OCL_REDUCE_SUM && op != OCL_REDUCE_MIN && op != OCL_REDUCE_MAX) {
    host_window_states(op, x, count, window, want);
    return;
  }
  for (int r = -1; r < rounds; r++) {
    const double start = omp_get_wtime();
    omp_windows(op, x, count, window, (float *)(void *)want);
    if (r >= 0)
      t[r] = omp_get_wtime() - start;
  }
  /* OpenMP's idle threads spin for milliseconds: stopped, they take no CPU from the next
   * case's ocl_reduce calls (see contender_ops.rest in bench.h). */
  (void)omp_pause_resource_all(omp_pause_soft);
  *host_s = tool_median(t, (size_t)rounds);
}

/* The contexts of one speed table: the plan's, and where BENCH_WINDOWS_ALT names a policy, the
 * same device's under it, timed in the same run and checked to give the same bytes. */
typedef struct speed_side {
  ocl_reduce_context *ctx;
  ocl_reduce_buffer *in, *out;
} speed_side;

static int side_open(speed_side *s, const char *policy, const float *x, size_t count,
                     size_t out_bytes) {
  s->ctx = context_with(policy);
  return !s->ctx || ocl_reduce_buffer_create(s->ctx, count * sizeof *x, &s->in) != OCL_REDUCE_OK ||
         ocl_reduce_buffer_create(s->ctx, out_bytes, &s->out) != OCL_REDUCE_OK ||
         ocl_reduce_buffer_write(s->in, 0, x, count * sizeof *x) != OCL_REDUCE_OK;
}

static void side_close(speed_side *s) {
  ocl_reduce_buffer_destroy(s->in);
  ocl_reduce_buffer_destroy(s->out);
  ocl_reduce_context_destroy(s->ctx);
}

static int bench_speed(size_t count, int rounds, const size_t *windows, size_t n_windows,
                       const ocl_reduce_op *ops, size_t n_ops) {
  const char *alt = getenv("BENCH_WINDOWS_ALT");
  speed_side plan = {0}, other = {0};
  size_t result_max = 4;
  for (size_t o = 0; o < n_ops; o++) {
    const size_t r = ocl_reduce_result_size(ops[o], OCL_REDUCE_F32);
    result_max = r > result_max ? r : result_max;
  }
  float *x = malloc(count * sizeof *x);
  unsigned char *got = malloc(count * result_max), *want = malloc(count * result_max);
  unsigned char *got_alt = malloc(count * result_max);
  double *t = malloc((size_t)rounds * sizeof *t);
  if (!x || !got || !want || !got_alt || !t) {
    fprintf(stderr, "bench_windows: out of host memory for %zu elements\n", count);
    free(x), free(got), free(want), free(got_alt), free(t);
    return 1;
  }
  for (size_t i = 0; i < count; i++)
    /* Multiples of 1/128 spread evenly over (-7.81, 7.81): their running sums stay small, so
     * every window's sum is exact in f32 up to windows of millions (a mean of 0.8, as these
     * values had before 2026-12-05, left windows of a million inexact: every result "differed").
     * No value is zero, so no signed-zero rule decides an extreme. */
    x[i] = (float)(2 * (int)((i * 2654435761u) % 1000) - 999) / 128.0f;
  int bad = side_open(&plan, "", x, count, count * result_max) ||
            (alt && side_open(&other, alt, x, count, count * result_max));
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  if (plan.ctx)
    ocl_reduce_context_query(plan.ctx, &info);
  const int cpu = info.device_type == OCL_REDUCE_DEVICE_CPU;
  /* The full-reduce bandwidth: the whole-array sum of the same buffer. */
  for (int r = -2; r < rounds && !bad; r++) {
    float sum;
    uint64_t ns = 0;
    bad = ocl_reduce_into(plan.ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                          ocl_reduce_buffer_input(plan.in, 0), count,
                          ocl_reduce_host_output(&sum, sizeof sum)) != OCL_REDUCE_OK ||
          ocl_reduce_last_kernel_ns(plan.ctx, &ns) != OCL_REDUCE_OK;
    if (r >= 0)
      t[r] = 1e-9 * (double)ns;
  }
  const double full_gbs = bad ? 0 : (double)count * 4 / tool_median(t, (size_t)rounds) / 1e9;
  printf("speed: %s (%s), f32, %zu elements, device-resident, medians of %d; GB/s count the input "
         "once; full reduce (f32 sum) %.1f GB/s; copy limit: the input's share of the bytes read "
         "and written%s%s%s\n",
         info.device_name, info.backend_name, count, rounds, full_gbs,
         cpu ? "; OpenMP: the same algorithm on the host's threads (sum, min, max)" : "",
         alt ? "; alt: the policy " : "", alt ? alt : "");
  for (size_t w = 0; w < n_windows && !bad; w++)
    for (size_t o = 0; o < n_ops && !bad; o++) {
      const size_t window = windows[w], n_out = count - window + 1;
      const size_t bytes = n_out * ocl_reduce_result_size(ops[o], OCL_REDUCE_F32);
      const double dev = time_windows(plan.ctx, ops[o], OCL_REDUCE_F32, plan.in, count, window,
                                      plan.out, rounds);
      bad = dev < 0 || ocl_reduce_buffer_read(plan.out, 0, got, bytes) != OCL_REDUCE_OK;
      const double dev_alt = !alt || bad ? 0
                             : time_windows(other.ctx, ops[o], OCL_REDUCE_F32, other.in, count,
                                            window, other.out, rounds);
      bad = bad || dev_alt < 0 ||
            (alt && ocl_reduce_buffer_read(other.out, 0, got_alt, bytes) != OCL_REDUCE_OK);
      double host = 0;
      /* The host's results check ours (sums of these values are exact). */
      if (!bad)
        host_windows(ops[o], x, count, window, rounds, want, t, &host);
      size_t wrong = 0, wrong_alt = 0;
      const size_t size = bytes / n_out;
      for (size_t j = 0; j < n_out && !bad; j++) {
        wrong += memcmp(got + j * size, want + j * size, size) != 0;
        wrong_alt += alt && memcmp(got_alt + j * size, want + j * size, size) != 0;
      }
      if (wrong || wrong_alt) {
        fprintf(stderr, "bench_windows: %s window %zu: %zu results (alt: %zu) differ from the "
                "host's\n", ocl_reduce_op_name(ops[o]), window, wrong, wrong_alt);
        bad = 1;
      }
      const double gbs = (double)count * 4 / dev / 1e9;
      printf("  window %4zu %-3s %8.1f us %8.1f GB/s  %.3f x full reduce  copy limit %.3f", window,
             ocl_reduce_op_name(ops[o]), 1e6 * dev, gbs, gbs / full_gbs, 4.0 / (4.0 + size));
      if (cpu && host > 0)
        printf("  OpenMP %8.1f us  speed relative to OpenMP (its time / ours) %.3fx", 1e6 * host,
               host / dev);
      if (alt)
        printf("  alt %8.1f us  speed relative to alt (its time / ours) %.3fx", 1e6 * dev_alt,
               dev_alt / dev);
      printf("\n");
    }
  side_close(&plan);
  side_close(&other);
  free(x);
  free(got);
  free(got_alt);
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
  if (!x || !got) {
    fprintf(stderr, "bench_windows: out of host memory for %zu elements\n", count);
    free(x), free(got);
    return 1;
  }
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

/* Parses a comma-separated list of the operators the speed table checks (sum, min, max, argmin,
 * argmax, minmax) into ops (up to 8): their number, or 0 where a name is not one of them. */
static size_t parse_ops(const char *list, ocl_reduce_op *ops) {
  const ocl_reduce_op known[] = {OCL_REDUCE_SUM,    OCL_REDUCE_MIN,    OCL_REDUCE_MAX,
                                 OCL_REDUCE_ARGMIN, OCL_REDUCE_ARGMAX, OCL_REDUCE_MINMAX};
  size_t n = 0;
  while (*list && n < 8) {
    const size_t len = strcspn(list, ",");
    size_t i = 0;
    for (; i < sizeof known / sizeof *known; i++) {
      const char *name = ocl_reduce_op_name(known[i]);
      if (strlen(name) == len && !strncmp(name, list, len))
        break;
    }
    if (i == sizeof known / sizeof *known)
      return 0;
    ops[n++] = known[i];
    list += len + (list[len] == ',');
  }
  return *list ? 0 : n;
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
  /* Its operators: sum, min and max, or those listed of the six it checks. */
  ocl_reduce_op ops[8] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  const size_t n_ops = argc > 5 ? parse_ops(argv[5], ops) : 3;
  if ((!speed && !paper) || count < 1000 || rounds < 1 || !n_windows || !n_ops) {
    fprintf(stderr, "usage: bench_windows [speed|paper|all] [COUNT >= 1000 [ROUNDS [WINDOW,... "
                    "[OP,...]]]]\n  OP: sum, min, max, argmin, argmax, minmax\n");
    return 2;
  }
  int bad = 0;
  if (speed)
    bad |= bench_speed(count, rounds, windows, n_windows, ops, n_ops);
  if (paper)
    bad |= bench_paper(count / 4, rounds);
  return bad;
}
