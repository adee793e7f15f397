/* =================================================================================================
 * bench_pairs.c: the pair operators (issue 56, step 5) side by side with what they replace, in
 * one run, on the device the environment selects (OCL_REDUCE_DEVICE, OCL_REDUCE_BACKEND):
 *   ours     ocl_reduce_pairs / _segments from two buffers to a buffer: on GPUs the median device
 *            time (its kernels'), on CPU devices the median time of the call to a host result;
 *   sum      our f32 sum over a buffer of 2^28 elements, the same way: the rate the pairs are
 *            held to over the bytes they read (>= 0.95x);
 *   anchors  on CUDA's device 0 (cub_pairs.cu): cuBLAS Sdot / Ddot, CUB's TransformReduce over
 *            the zipped arrays, CUB's segmented sums over the zipped pairs (bench_pairs.h);
 *   OpenMP   on CPU devices: a loop over the same host arrays (`omp parallel for reduction`).
 * Every contender's results are checked against the host's (long double sums of values whose
 * products are exact; segments exact). Ratios: the anchor's time over ours (> 1: ours faster).
 *   bench_pairs [ROUNDS [FILTER [SHIFT]]]   FILTER: cases whose name holds it; SHIFT halves the
 *                                           pair counts that many times (CPU devices)
 * ============================================================================================== */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_pairs.h"
#include "tool_common.h"

static const pairs_case cases[] = {
    {"f32 dot 2^28", 0, OCL_REDUCE_F32, (size_t)1 << 28, 0},
    {"f64 dot 2^28", 0, OCL_REDUCE_F64, (size_t)1 << 28, 0},
    {"f32 squared_distance 2^28", 1, OCL_REDUCE_F32, (size_t)1 << 28, 0},
    {"f32 dot segments of 32", 0, OCL_REDUCE_F32, (size_t)1 << 28, 32},
    {"f32 dot segments of 1000", 0, OCL_REDUCE_F32, ((size_t)1 << 28) / 1000 * 1000, 1000},
};

/* Element i of each input: multiples of 1/4 and 1/2 below 4, so that every product is exact in
 * f32 and a segment's sum too. */
static double value_a(size_t i) { return (double)(i % 13) * 0.25; }
static double value_b(size_t i) { return (double)((i * 7) % 11) * 0.5 - 2.0; }

static void fill(const pairs_case *c, void *a, void *b) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < c->count; i++) {
    if (c->type == OCL_REDUCE_F32) {
      ((float *)a)[i] = (float)value_a(i);
      ((float *)b)[i] = (float)value_b(i);
    } else {
      ((double *)a)[i] = value_a(i);
      ((double *)b)[i] = value_b(i);
    }
  }
}

static double pair_of(const pairs_case *c, size_t i) {
  const double x = value_a(i), y = value_b(i);
  return c->distance ? (x - y) * (x - y) : x * y;
}

/* The host's results, one per segment (or one). */
static void host_results(const pairs_case *c, double *want) {
  const size_t length = c->segment ? c->segment : c->count, results = c->count / length;
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < results; r++) {
    long double s = 0;
    for (size_t i = r * length; i < (r + 1) * length; i++)
      s += pair_of(c, i);
    want[r] = (double)s;
  }
}

/* Whether `got` (results of the case's type) is `want` within the tolerance. */
static int check(const pairs_case *c, const void *got, const double *want, double tolerance,
                 const char *who) {
  const size_t results = c->segment ? c->count / c->segment : 1;
  for (size_t r = 0; r < results; r++) {
    const double g =
        c->type == OCL_REDUCE_F32 ? ((const float *)got)[r] : ((const double *)got)[r];
    if (fabs(g - want[r]) > tolerance * fabs(want[r])) {
      fprintf(stderr, "bench_pairs: %s: %s: result %zu is %.9g, not %.9g\n", c->name, who, r, g,
              want[r]);
      return 0;
    }
  }
  return 1;
}

/* Median seconds of `rounds` calls: device time on GPUs, the call's on CPU devices (its result
 * then read to host memory, as an application waits for it). sum: our f32 sum of a instead. */
static double time_ours(ocl_reduce_context *ctx, const pairs_case *c, ocl_reduce_buffer *a,
                        ocl_reduce_buffer *b, ocl_reduce_buffer *out, void *host_out, int sum,
                        int cpu, int rounds) {
  const ocl_reduce_op op = c->distance ? OCL_REDUCE_SQUARED_DISTANCE : OCL_REDUCE_DOT;
  const size_t results = c->segment ? c->count / c->segment : 1;
  const size_t bytes = results * ocl_reduce_type_size(c->type);
  const ocl_reduce_output output = cpu ? ocl_reduce_host_output(host_out, bytes)
                                       : ocl_reduce_buffer_output(out, 0);
  double *t = malloc((size_t)rounds * sizeof *t), m = -1;
  for (int r = -2; r < rounds; r++) {
    const double start = omp_get_wtime();
    ocl_reduce_status st;
    if (sum)
      st = ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(a, 0),
                           (size_t)1 << 28, output);
    else if (c->segment)
      st = ocl_reduce_pairs_segments(ctx, op, c->type, ocl_reduce_buffer_input(a, 0),
                                     ocl_reduce_buffer_input(b, 0), results, c->segment, output);
    else
      st = ocl_reduce_pairs(ctx, op, c->type, ocl_reduce_buffer_input(a, 0),
                            ocl_reduce_buffer_input(b, 0), c->count, output);
    uint64_t ns = 0;
    if (st == OCL_REDUCE_OK && !cpu)
      st = ocl_reduce_last_kernel_ns(ctx, &ns);
    if (st != OCL_REDUCE_OK) {
      fprintf(stderr, "bench_pairs: %s: %s\n", c->name, ocl_reduce_last_error(ctx));
      goto done;
    }
    if (r >= 0)
      t[r] = cpu ? omp_get_wtime() - start : 1e-9 * (double)ns;
  }
  m = tool_median(t, (size_t)rounds);
  if (!cpu && !sum && ocl_reduce_buffer_read(out, 0, host_out, bytes) != OCL_REDUCE_OK)
    m = -1;
done:
  free(t);
  return m;
}

/* The OpenMP loop: each segment's (or the whole array's) sum of values, in the case's type. */
#define ORX_OMP_PAIRS(T, NAME)                                                                     \
  static void NAME(const pairs_case *c, const T *a, const T *b, T *out) {                          \
    const size_t length = c->segment ? c->segment : c->count, results = c->count / length;        \
    if (results == 1) {                                                                            \
      T s = 0;                                                                                     \
      _Pragma("omp parallel for simd schedule(static) reduction(+ : s)") for (size_t i = 0;       \
                                                                             i < length; i++) {   \
        const T d = c->distance ? a[i] - b[i] : a[i];                                              \
        s += d * (c->distance ? d : b[i]);                                                         \
      }                                                                                            \
      out[0] = s;                                                                                  \
      return;                                                                                      \
    }                                                                                              \
    _Pragma("omp parallel for schedule(static)") for (size_t r = 0; r < results; r++) {           \
      T s = 0;                                                                                     \
      for (size_t i = r * length; i < (r + 1) * length; i++)                                       \
        s += c->distance ? (a[i] - b[i]) * (a[i] - b[i]) : a[i] * b[i];                            \
      out[r] = s;                                                                                  \
    }                                                                                              \
  }
ORX_OMP_PAIRS(float, omp_pairs_f32)
ORX_OMP_PAIRS(double, omp_pairs_f64)

static double time_openmp(const pairs_case *c, const void *a, const void *b, void *out,
                          int rounds) {
  double *t = malloc((size_t)rounds * sizeof *t);
  for (int r = -1; r < rounds; r++) {
    const double start = omp_get_wtime();
    if (c->type == OCL_REDUCE_F32)
      omp_pairs_f32(c, a, b, out);
    else
      omp_pairs_f64(c, a, b, out);
    if (r >= 0)
      t[r] = omp_get_wtime() - start;
  }
  const double m = tool_median(t, (size_t)rounds);
  (void)omp_pause_resource_all(omp_pause_soft); /* its spinning threads off our next call */
  free(t);
  return m;
}

static int one_case(ocl_reduce_context *ctx, const pairs_case *c, int cpu, int rounds,
                    double sum_rate) {
  const size_t elem = ocl_reduce_type_size(c->type), bytes = c->count * elem;
  const size_t results = c->segment ? c->count / c->segment : 1;
  /* Whole arrays round each sum's partial sums: tolerances of the rounding a tree of f32 or
   * f64 additions may give (segments of exact values are exact). */
  const double tolerance = c->segment ? 0 : c->type == OCL_REDUCE_F32 ? 1e-4 : 1e-12;
  void *a = malloc(bytes), *b = malloc(bytes), *got = malloc(results * elem);
  double *want = malloc(results * sizeof *want);
  ocl_reduce_buffer *da = NULL, *db = NULL, *out = NULL;
  int ok = a && b && got && want;
  if (ok) {
    fill(c, a, b);
    host_results(c, want);
    ok = ocl_reduce_buffer_create(ctx, bytes, &da) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_create(ctx, bytes, &db) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_create(ctx, results * elem, &out) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_write(da, 0, a, bytes) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_write(db, 0, b, bytes) == OCL_REDUCE_OK;
  }
  const double ours = ok ? time_ours(ctx, c, da, db, out, got, 0, cpu, rounds) : -1;
  ok = ours > 0 && check(c, got, want, tolerance, "ours");
  printf("%-28s ours %9.1f us  %6.0f GB/s  %.3fx our f32 sum's rate\n", c->name, 1e6 * ours,
         2e-9 * (double)bytes / ours, 2.0 * (double)bytes / ours / sum_rate);
  if (ok && cpu) {
    const double omp = time_openmp(c, a, b, got, rounds);
    /* Its threads' f32 sums run over millions of values each: 1e-2. */
    const int same = check(c, got, want, tolerance ? 1e-2 : 0, "OpenMP");
    printf("%-28s OpenMP %7.1f us  ratio %.3f%s\n", "", 1e6 * omp, omp / ours,
           same ? "" : " (its results differ)");
  } else if (ok) {
    pairs_anchor anchors[PAIRS_ANCHORS];
    char why[160];
    if (!cub_pairs_anchors(c, a, b, want, tolerance ? 1e-3 : 0, rounds, anchors, why,
                           sizeof why))
      printf("%-28s anchors: %s\n", "", why);
    for (int k = 0; k < PAIRS_ANCHORS && anchors[k].name[0]; k++)
      if (anchors[k].seconds > 0)
        printf("%-28s %-26s %9.1f us  ratio %.3f\n", "", anchors[k].name,
               1e6 * anchors[k].seconds, anchors[k].seconds / ours);
      else
        printf("%-28s %-26s did not run: %s\n", "", anchors[k].name, anchors[k].why);
  }
  ocl_reduce_buffer_destroy(da);
  ocl_reduce_buffer_destroy(db);
  ocl_reduce_buffer_destroy(out);
  free(a), free(b), free(got), free(want);
  return ok;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  const char *filter = argc > 2 ? argv[2] : "";
  const unsigned shift = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
  ocl_reduce_options o = OCL_REDUCE_OPTIONS_INIT;
  o.profiling = 1;
  ocl_reduce_context *ctx = NULL;
  if (rounds < 1 || ocl_reduce_context_create(&o, &ctx) != OCL_REDUCE_OK) {
    fprintf(stderr, "bench_pairs: %s\n", rounds < 1 ? "ROUNDS must be positive"
                                                    : ocl_reduce_last_error(NULL));
    return 1;
  }
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  const int cpu = info.device_type == OCL_REDUCE_DEVICE_CPU;
  printf("bench_pairs: %s (%s), medians of %d %s; GB/s count both inputs; ratio: the other's "
         "time over ours; pair counts shifted right by %u\n",
         info.device_name, info.backend_name, rounds,
         cpu ? "calls to a host result, against OpenMP" : "device times", shift);
  /* Our f32 sum's rate over 2^28 elements, the same way. */
  const pairs_case whole = {"f32 sum 2^28", 0, OCL_REDUCE_F32, (size_t)1 << 28, 0};
  ocl_reduce_buffer *x = NULL, *x_out = NULL;
  float result = 0, *zeros = calloc(whole.count, sizeof *zeros);
  double sum_rate = 0;
  if (zeros && ocl_reduce_buffer_create(ctx, whole.count * 4, &x) == OCL_REDUCE_OK &&
      ocl_reduce_buffer_create(ctx, sizeof result, &x_out) == OCL_REDUCE_OK &&
      ocl_reduce_buffer_write(x, 0, zeros, whole.count * 4) == OCL_REDUCE_OK) {
    const double t = time_ours(ctx, &whole, x, NULL, x_out, &result, 1, cpu, rounds);
    sum_rate = t > 0 ? 4.0 * (double)whole.count / t : 0;
  }
  ocl_reduce_buffer_destroy(x);
  ocl_reduce_buffer_destroy(x_out);
  free(zeros);
  printf("%-28s ours %9.1f us  %6.0f GB/s\n", whole.name, 4e6 * (double)whole.count / sum_rate,
         1e-9 * sum_rate);
  int failed = sum_rate <= 0;
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    if (!strstr(cases[k].name, filter))
      continue;
    pairs_case c = cases[k];
    c.count >>= shift;
    if (c.segment)
      c.count = c.count / c.segment * c.segment;
    failed |= !one_case(ctx, &c, cpu, rounds, sum_rate);
  }
  ocl_reduce_context_destroy(ctx);
  return failed;
}
