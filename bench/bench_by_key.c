/* =================================================================================================
 * bench_by_key.c: ocl_reduce_by_key (SUM) against CUB's DeviceReduce::ReduceByKey on a CUDA device
 * and an OpenMP loop on CPU devices, side by side in one run (issue 57's table): 2^26 pairs of
 * i32 keys and f32 values, and of i64 keys and f64 values, in runs of mean length 1, 2, 8, 32,
 * 256 and 1000 (lengths uniform in 1 .. 2 mean - 1) and of random lengths 1-64; ARGMIN by key
 * against CUB's best form of it (bench_by_key.h), our indices from each run's start checked
 * against the first least value's position; an order-preserving user operator ("affine": maps
 * x -> a x + b of two f32s, composed in order) against CUB's ReduceByKey with the same
 * composition; SUM into outputs of exactly the runs ("exact": the planner stages them or counts
 * the runs first, OCL_REDUCE_POLICY key_stage=1|0 forces either); SUM with keys, values and
 * outputs in host memory ("host", and "host exact" into outputs of exactly the runs: against
 * OpenMP on CPU devices, no contender on GPUs, where CUB's data would be on the device). On OpenCL
 * devices the SUM rows into outputs of a run per pair also run Boost.Compute's reduce_by_key
 * (boost_by_key.cpp, where built), end to end. Keys, values and both outputs in buffers but for
 * the host rows. Ours is timed end to end (the call, then ocl_reduce_finish: the reference plan
 * reads the keys back and works on the host too) in a plain context, with its kernels' device
 * time beside it from a profiling context (which waits for each kernel to read its time); CUB
 * by device time (issue 57's anchors), and end to end too (the call and its run count copied to
 * the host), so that each ratio compares like with like. "Of whole": our rate over the bytes read
 * and written (the pairs and each run's key and result) against our f32 sum's rate over 2^28
 * elements (device time).
 *   bench_by_key [ROUNDS [FILTER [SHIFT]]]   medians of ROUNDS; cases whose name holds FILTER;
 *                                            pair counts shifted right by SHIFT
 * ============================================================================================== */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_by_key.h"
#include "ocl_reduce.h"
#include "tool_common.h"

#define PAIRS ((size_t)1 << 26)
static const key_case cases[] = {
    {"i32/f32 runs of 1", 0, PAIRS, 1, 0, 0, 0, 0},
    {"i32/f32 runs of 2", 0, PAIRS, 2, 0, 0, 0, 0},
    {"i32/f32 runs of 8", 0, PAIRS, 8, 0, 0, 0, 0},
    {"i32/f32 runs of 32", 0, PAIRS, 32, 0, 0, 0, 0},
    {"i32/f32 runs of 256", 0, PAIRS, 256, 0, 0, 0, 0},
    {"i32/f32 runs of 1000", 0, PAIRS, 1000, 0, 0, 0, 0},
    {"i32/f32 runs of 1-64", 0, PAIRS, 0, 0, 0, 0, 0},
    {"i64/f64 runs of 1", 1, PAIRS, 1, 0, 0, 0, 0},
    {"i64/f64 runs of 2", 1, PAIRS, 2, 0, 0, 0, 0},
    {"i64/f64 runs of 8", 1, PAIRS, 8, 0, 0, 0, 0},
    {"i64/f64 runs of 32", 1, PAIRS, 32, 0, 0, 0, 0},
    {"i64/f64 runs of 256", 1, PAIRS, 256, 0, 0, 0, 0},
    {"i64/f64 runs of 1000", 1, PAIRS, 1000, 0, 0, 0, 0},
    {"i64/f64 runs of 1-64", 1, PAIRS, 0, 0, 0, 0, 0},
    {"i32/f32 argmin runs of 1", 0, PAIRS, 1, 1, 0, 0, 0},
    {"i32/f32 argmin runs of 32", 0, PAIRS, 32, 1, 0, 0, 0},
    {"i32/f32 argmin runs of 1000", 0, PAIRS, 1000, 1, 0, 0, 0},
    {"i32/f32 argmin runs of 1-64", 0, PAIRS, 0, 1, 0, 0, 0},
    {"i64/f64 argmin runs of 32", 1, PAIRS, 32, 1, 0, 0, 0},
    {"i32/f32 exact runs of 1", 0, PAIRS, 1, 0, 1, 0, 0},
    {"i32/f32 exact runs of 2", 0, PAIRS, 2, 0, 1, 0, 0},
    {"i32/f32 exact runs of 8", 0, PAIRS, 8, 0, 1, 0, 0},
    {"i32/f32 exact runs of 32", 0, PAIRS, 32, 0, 1, 0, 0},
    {"i32/f32 exact runs of 1000", 0, PAIRS, 1000, 0, 1, 0, 0},
    {"i64/f64 exact runs of 32", 1, PAIRS, 32, 0, 1, 0, 0},
    {"i32/f32 host runs of 1", 0, PAIRS, 1, 0, 0, 1, 0},
    {"i32/f32 host runs of 32", 0, PAIRS, 32, 0, 0, 1, 0},
    {"i32/f32 host runs of 1000", 0, PAIRS, 1000, 0, 0, 1, 0},
    {"i32/f32 host exact runs of 1", 0, PAIRS, 1, 0, 1, 1, 0},
    {"i32/f32 host exact runs of 8", 0, PAIRS, 8, 0, 1, 1, 0},
    {"i32/f32 host exact runs of 1000", 0, PAIRS, 1000, 0, 1, 1, 0},
    {"i32/affine runs of 1", 0, PAIRS, 1, 0, 0, 0, 1},
    {"i32/affine runs of 32", 0, PAIRS, 32, 0, 0, 0, 1},
    {"i32/affine runs of 1000", 0, PAIRS, 1000, 0, 0, 0, 1}};

/* One case's data: keys (a new key per run), values (small multiples of 1/4: exact sums), the
 * runs, each run's start and its sum (ARGMIN: the input's position of its first least value;
 * affine: the b of its maps composed in order, their a in `least`). */
typedef struct key_data {
  void *keys, *values;
  size_t kb, vb;
  uint64_t runs, *starts;
  double *want, *least;
} key_data;

static int make_data(const key_case *c, key_data *d) {
  d->kb = c->wide ? 8 : 4;
  d->vb = c->wide || c->affine ? 8 : 4;
  d->keys = malloc(c->count * d->kb);
  d->values = malloc(c->count * d->vb);
  d->want = malloc(c->count * sizeof *d->want);
  d->least = malloc(c->count * sizeof *d->least);
  d->starts = malloc(c->count * sizeof *d->starts);
  if (!d->keys || !d->values || !d->want || !d->least || !d->starts)
    return 0;
  uint64_t state = 0x9e3779b97f4a7c15u, key = 0, left = 0;
  d->runs = 0;
  for (size_t i = 0; i < c->count; i++) {
    if (left == 0) {
      state = state * 6364136223846793005u + 1442695040888963407u;
      const uint64_t span = c->mean ? 2 * (uint64_t)c->mean - 1 : 64;
      left = c->mean == 1 ? 1 : 1 + (state >> 33) % span;
      key++;
      d->starts[d->runs] = i;
      d->least[d->runs] = c->affine ? 1 : 1e300;
      d->want[d->runs++] = 0;
    }
    left--;
    /* ARGMIN: values scattered over 1000 steps of 1/4, ties within a run now and then. */
    const double v = c->argmin ? (double)((i * 2654435761u) % 1000) * 0.25
                               : (double)(i % 13) * 0.25;
    if (!c->argmin && !c->affine)
      d->want[d->runs - 1] += v;
    else if (c->argmin && v < d->least[d->runs - 1])
      d->least[d->runs - 1] = v, d->want[d->runs - 1] = (double)i;
    if (c->affine) { /* a = +-1 and b small multiples of 1/4: each composition exact */
      const float map[2] = {(i * 2654435761u) % 3 ? 1.0f : -1.0f, (float)v};
      const int32_t k = (int32_t)key;
      d->want[d->runs - 1] = map[0] * d->want[d->runs - 1] + map[1];
      d->least[d->runs - 1] *= map[0];
      memcpy((char *)d->keys + i * 4, &k, 4);
      memcpy((char *)d->values + i * 8, map, 8);
    } else if (c->wide) {
      const int64_t k = (int64_t)key;
      memcpy((char *)d->keys + i * 8, &k, 8);
      memcpy((char *)d->values + i * 8, &v, 8);
    } else {
      const int32_t k = (int32_t)key;
      const float f = (float)v;
      memcpy((char *)d->keys + i * 4, &k, 4);
      memcpy((char *)d->values + i * 4, &f, 4);
    }
  }
  return 1;
}

/* Whether ARGMIN's results at got (ocl_reduce_arg: the value in the first 8 bytes, the index from
 * the run's start after) are the data's. */
static int args_match(const key_data *d, const void *got) {
  for (uint64_t r = 0; r < d->runs; r++) {
    uint64_t index;
    memcpy(&index, (const char *)got + r * 16 + 8, 8);
    if ((double)(d->starts[r] + index) != d->want[r]) {
      fprintf(stderr, "bench_by_key: run %llu's least is at %llu, not %.0f\n",
              (unsigned long long)r, (unsigned long long)(d->starts[r] + index), d->want[r]);
      return 0;
    }
  }
  return 1;
}

/* Whether the sums at got (runs of them, the case's value type) are the data's. */
static int sums_match(const key_data *d, const void *got) {
  for (uint64_t r = 0; r < d->runs; r++) {
    double v;
    if (d->vb == 8) {
      memcpy(&v, (const char *)got + r * 8, 8);
    } else {
      float f;
      memcpy(&f, (const char *)got + r * 4, 4);
      v = f;
    }
    if (v != d->want[r]) {
      fprintf(stderr, "bench_by_key: run %llu sums to %.9g, not %.9g\n", (unsigned long long)r, v,
              d->want[r]);
      return 0;
    }
  }
  return 1;
}

/* Whether the affine maps at got (runs of them, two f32s each) are the data's. */
static int maps_match(const key_data *d, const void *got) {
  for (uint64_t r = 0; r < d->runs; r++) {
    float map[2];
    memcpy(map, (const char *)got + r * 8, 8);
    if (map[0] != d->least[r] || map[1] != d->want[r]) {
      fprintf(stderr, "bench_by_key: run %llu composes to (%g, %g), not (%g, %g)\n",
              (unsigned long long)r, map[0], map[1], d->least[r], d->want[r]);
      return 0;
    }
  }
  return 1;
}

/* The affine rows' operator: f32 maps x -> a x + b, composed in order (bench_by_key.h). */
static const char affine_source[] =
    "typedef struct affine { float a, b; } affine;\n"
    "affine affine_identity(void) { affine r = {1.0f, 0.0f}; return r; }\n"
    "affine affine_of(affine x, ulong index) { return x; }\n"
    "affine affine_then(affine f, affine g) {\n"
    "  affine r = {g.a * f.a, g.a * f.b + g.b};\n"
    "  return r;\n"
    "}\n";

static ocl_reduce_operator *affine_operator(void) {
  ocl_reduce_operator_desc desc = OCL_REDUCE_OPERATOR_DESC_INIT;
  desc.source = affine_source;
  desc.element_type = desc.state_type = "affine";
  desc.identity = "affine_identity";
  desc.map = "affine_of";
  desc.combine = "affine_then";
  desc.element_size = desc.state_size = 8;
  desc.commutative = 0;
  ocl_reduce_operator *op = NULL;
  return ocl_reduce_operator_create(&desc, &op) == OCL_REDUCE_OK ? op : NULL;
}

/* Our median seconds over `rounds` calls on ctx after two untimed ones: end to end (the call,
 * then ocl_reduce_finish: the reference plan reads the keys back and works on the host too), or
 * where kernel_time, the calls' kernel time (ctx a profiling context); the results read back and
 * checked. */
static int timed_calls(ocl_reduce_context *ctx, const key_case *c, const key_data *d, int rounds,
                       int kernel_time, double *seconds) {
  ocl_reduce_buffer *k = NULL, *v = NULL, *ko = NULL, *vo = NULL;
  const size_t n = c->count;
  const ocl_reduce_type type = c->affine ? OCL_REDUCE_OP_ELEMENT
                               : c->wide   ? OCL_REDUCE_F64
                                           : OCL_REDUCE_F32;
  const ocl_reduce_type key_type = c->wide ? OCL_REDUCE_I64 : OCL_REDUCE_I32;
  ocl_reduce_operator *affine = c->affine ? affine_operator() : NULL;
  const ocl_reduce_op op = c->affine   ? affine
                           : c->argmin ? OCL_REDUCE_ARGMIN
                                       : OCL_REDUCE_SUM;
  const size_t rb = c->affine ? 8 : ocl_reduce_result_size(op, type);
  const size_t room = c->exact ? (size_t)d->runs : n;
  double *t = malloc((size_t)rounds * sizeof *t);
  void *got = malloc(n * rb);
  int ok = t && got && (affine || !c->affine);
  /* Host memory: the keys' runs into a host array, the results into `got`; else buffers. */
  void *keys_got = c->host ? malloc(room * d->kb) : NULL;
  if (c->host)
    ok = ok && keys_got;
  else
    ok = ok && ocl_reduce_buffer_create(ctx, n * d->kb, &k) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_create(ctx, n * d->vb, &v) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_create(ctx, room * d->kb, &ko) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_create(ctx, room * rb, &vo) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_write(k, 0, d->keys, n * d->kb) == OCL_REDUCE_OK &&
         ocl_reduce_buffer_write(v, 0, d->values, n * d->vb) == OCL_REDUCE_OK;
  const ocl_reduce_input keys_in = c->host ? ocl_reduce_host_input(d->keys, n * d->kb)
                                           : ocl_reduce_buffer_input(k, 0);
  const ocl_reduce_input values_in = c->host ? ocl_reduce_host_input(d->values, n * d->vb)
                                             : ocl_reduce_buffer_input(v, 0);
  const ocl_reduce_output keys_out = c->host ? ocl_reduce_host_output(keys_got, room * d->kb)
                                             : ocl_reduce_buffer_output(ko, 0);
  const ocl_reduce_output results_out = c->host ? ocl_reduce_host_output(got, room * rb)
                                                : ocl_reduce_buffer_output(vo, 0);
  uint64_t runs = 0;
  for (int r = -2; ok && r < rounds; r++) {
    const double start = omp_get_wtime();
    uint64_t ns = 0;
    ok = ocl_reduce_by_key(ctx, op, type, key_type, keys_in, values_in, n, keys_out, results_out,
                           &runs) == OCL_REDUCE_OK &&
         ocl_reduce_finish(ctx) == OCL_REDUCE_OK &&
         (!kernel_time || ocl_reduce_last_kernel_ns(ctx, &ns) == OCL_REDUCE_OK);
    if (r >= 0)
      t[r] = kernel_time ? 1e-9 * (double)ns : omp_get_wtime() - start;
  }
  if (!ok)
    fprintf(stderr, "bench_by_key: %s: %s\n", c->name, ocl_reduce_last_error(ctx));
  ok = ok && runs == d->runs &&
       (c->host || ocl_reduce_buffer_read(vo, 0, got, runs * rb) == OCL_REDUCE_OK) &&
       (c->argmin ? args_match(d, got) : c->affine ? maps_match(d, got) : sums_match(d, got));
  free(keys_got);
  if (ok)
    *seconds = tool_median(t, (size_t)rounds);
  ocl_reduce_buffer_destroy(k), ocl_reduce_buffer_destroy(v);
  ocl_reduce_buffer_destroy(ko), ocl_reduce_buffer_destroy(vo);
  free(t), free(got);
  ocl_reduce_operator_destroy(affine);
  return ok;
}

/* Our median end-to-end seconds, in a plain context, and kernel seconds, in a profiling one,
 * which waits for each kernel to read its time where an application's calls do not (CUDA: 16-20
 * us a call over the kernels in the profiling context, 8-14 in a plain one). Each in a block of
 * its own: switching contexts from call to call costs NVIDIA's OpenCL more (docs/PERFORMANCE.md).
 */
static int time_ours(ocl_reduce_context *ctx, ocl_reduce_context *profiling, const key_case *c,
                     const key_data *d, int rounds, double *e2e, double *kernels) {
  return timed_calls(ctx, c, d, rounds, 0, e2e) && timed_calls(profiling, c, d, rounds, 1, kernels);
}

/* The OpenMP loop: a thread per chunk of the pairs, each summing the runs that begin in its chunk
 * (reading on past its end), after the runs before its chunk are counted. */
#define ORX_OMP_BY_KEY(K, V, NAME)                                                                 \
  static uint64_t NAME(const K *keys, const V *values, size_t n, K *keys_out, V *out) {            \
    uint64_t before[257] = {0};                                                                    \
    const int threads = omp_get_max_threads() < 256 ? omp_get_max_threads() : 256;                \
    int used = 0;                                                                                  \
    _Pragma("omp parallel num_threads(threads)") {                                                 \
      const int t = omp_get_thread_num(), all = omp_get_num_threads();                             \
      const size_t a = n * (size_t)t / (size_t)all, b = n * (size_t)(t + 1) / (size_t)all;         \
      uint64_t heads = 0;                                                                          \
      for (size_t i = a; i < b; i++)                                                               \
        heads += i == 0 || keys[i] != keys[i - 1];                                                 \
      before[t + 1] = heads;                                                                       \
      _Pragma("omp barrier") _Pragma("omp single") {                                               \
        used = all;                                                                                \
        for (int u = 0; u < all; u++)                                                              \
          before[u + 1] += before[u];                                                              \
      }                                                                                            \
      uint64_t r = before[t];                                                                      \
      for (size_t i = a; i < b; i++) {                                                             \
        if (i > 0 && keys[i] == keys[i - 1])                                                       \
          continue;                                                                                \
        V s = 0;                                                                                   \
        size_t j = i;                                                                              \
        for (; j < n && keys[j] == keys[i]; j++)                                                   \
          s += values[j];                                                                          \
        keys_out[r] = keys[i];                                                                     \
        out[r++] = s;                                                                              \
      }                                                                                            \
    }                                                                                              \
    return before[used];                                                                           \
  }
ORX_OMP_BY_KEY(int32_t, float, omp_by_key_f32)
ORX_OMP_BY_KEY(int64_t, double, omp_by_key_f64)

static double time_openmp(const key_case *c, const key_data *d, int rounds) {
  double *t = malloc((size_t)rounds * sizeof *t), m = -1;
  void *ko = malloc(c->count * d->kb), *out = malloc(c->count * d->vb);
  uint64_t runs = 0;
  for (int r = -1; t && ko && out && r < rounds; r++) {
    const double start = omp_get_wtime();
    runs = c->wide ? omp_by_key_f64(d->keys, d->values, c->count, ko, out)
                   : omp_by_key_f32(d->keys, d->values, c->count, ko, out);
    if (r >= 0)
      t[r] = omp_get_wtime() - start;
  }
  if (t && ko && out && runs == d->runs && sums_match(d, out))
    m = tool_median(t, (size_t)rounds);
  (void)omp_pause_resource_all(omp_pause_soft);
  free(t), free(ko), free(out);
  return m;
}

/* Boost.Compute's reduce_by_key beside ours on OpenCL devices (SUM rows into outputs of a run
 * per pair, its only form): its time over ours, or why it did not run. */
static void boost_column(const ocl_reduce_context_info *info, const key_case *c,
                         const key_data *d, int rounds, double e2e) {
  if (info->backend != OCL_REDUCE_BACKEND_OPENCL || c->argmin || c->exact || c->host ||
      c->affine)
    return;
  double other = 0;
  char why[160] = "";
  if (boost_by_key_time(c, info->native_context, info->native_device, d->keys, d->values,
                        d->runs, d->want, rounds, &other, why, sizeof why) &&
      other > 0)
    printf("  Boost.Compute %9.1f us: ratio %.3f", 1e6 * other, other / e2e);
  else
    printf("  Boost.Compute did not run: %s", why);
}

static int one_case(ocl_reduce_context *ctx, ocl_reduce_context *profiling,
                    const ocl_reduce_context_info *info, const key_case *c, int rounds,
                    double whole_rate) {
  const int cpu = info->device_type == OCL_REDUCE_DEVICE_CPU;
  key_data d;
  memset(&d, 0, sizeof d);
  double e2e = 0, kernels = 0;
  int ok = make_data(c, &d) && time_ours(ctx, profiling, c, &d, rounds, &e2e, &kernels);
  if (ok) {
    const double rb = c->argmin ? 16 : (double)d.vb; /* affine: a map of 8 bytes, as read */
    const double bytes = (double)c->count * (double)(d.kb + d.vb) + (double)d.runs * (d.kb + rb);
    printf("%-22s %9llu runs  ours %9.1f us (kernels %8.1f)  %6.0f GB/s  of whole %.3f", c->name,
           (unsigned long long)d.runs, 1e6 * e2e, 1e6 * kernels, 1e-9 * bytes / e2e,
           bytes / e2e / whole_rate);
    double other = 0, cub[2] = {0, 0};
    char why[160] = "";
    if (cpu && (c->argmin || c->affine)) {
      printf("  OpenMP: SUM rows only");
    } else if (!cpu && c->host) {
      printf("  (host memory: no contender)");
    } else if (cpu) {
      other = time_openmp(c, &d, rounds);
      printf(other > 0 ? "  OpenMP %9.1f us: ratio %.3f" : "  OpenMP's sums differ",
             1e6 * other, other / e2e);
    } else if (cub_by_key_time(c, d.keys, d.values, d.runs, d.want, rounds, cub, why,
                               sizeof why) && cub[0] > 0) {
      /* The ratio (CUB's device time over our end to end), then like against like: end
       * to end (the call and its run count on the host), and device time. */
      printf("  CUB %9.1f us (e2e %9.1f): ratio %.3f (e2e %.3f, kernels %.3f)", 1e6 * cub[0],
             1e6 * cub[1], cub[0] / e2e, cub[1] / e2e, cub[0] / kernels);
    } else {
      printf("  CUB did not run: %s", why);
    }
    boost_column(info, c, &d, rounds, e2e);
    printf("\n");
  }
  free(d.keys), free(d.values), free(d.want), free(d.least), free(d.starts);
  return ok;
}

/* Our f32 sum's rate over 2^28 elements (shifted), device time (CPU devices: end to end). */
static double whole_rate(ocl_reduce_context *ctx, size_t n, int cpu, int rounds) {
  ocl_reduce_buffer *x = NULL;
  float *zeros = calloc(n, sizeof *zeros), sum = 0;
  double *t = malloc((size_t)rounds * sizeof *t), rate = 0;
  int ok = zeros && t && ocl_reduce_buffer_create(ctx, n * 4, &x) == OCL_REDUCE_OK &&
           ocl_reduce_buffer_write(x, 0, zeros, n * 4) == OCL_REDUCE_OK;
  for (int r = -2; ok && r < rounds; r++) {
    const double start = omp_get_wtime();
    uint64_t ns = 0;
    ok = ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(x, 0), n,
                         ocl_reduce_host_output(&sum, sizeof sum)) == OCL_REDUCE_OK &&
         ocl_reduce_last_kernel_ns(ctx, &ns) == OCL_REDUCE_OK;
    if (r >= 0)
      t[r] = cpu ? omp_get_wtime() - start : 1e-9 * (double)ns;
  }
  if (ok)
    rate = 4.0 * (double)n / tool_median(t, (size_t)rounds);
  ocl_reduce_buffer_destroy(x);
  free(zeros), free(t);
  return rate;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  const char *filter = argc > 2 ? argv[2] : "";
  const unsigned shift = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
  ocl_reduce_options o = OCL_REDUCE_OPTIONS_INIT;
  ocl_reduce_context *ctx = NULL, *profiling = NULL;
  int made = rounds >= 1 && shift <= 20 && ocl_reduce_context_create(&o, &ctx) == OCL_REDUCE_OK;
  o.profiling = 1;
  made = made && ocl_reduce_context_create(&o, &profiling) == OCL_REDUCE_OK;
  if (!made) {
    fprintf(stderr, "bench_by_key: %s\n", rounds < 1 || shift > 20
                                              ? "ROUNDS must be positive, SHIFT at most 20"
                                              : ocl_reduce_last_error(NULL));
    ocl_reduce_context_destroy(ctx);
    return 1;
  }
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  const int cpu = info.device_type == OCL_REDUCE_DEVICE_CPU;
  const double rate = whole_rate(profiling, ((size_t)1 << 28) >> shift, cpu, rounds);
  printf("bench_by_key: %s (%s), SUM, ARGMIN and affine maps, medians of %d; ratio: the other's "
         "time over ours (%s%s); our f32 sum %.0f GB/s; pair counts shifted right by %u\n",
         info.device_name, info.backend_name, rounds,
         cpu ? "OpenMP end to end" : "CUB's device time",
         info.backend == OCL_REDUCE_BACKEND_OPENCL ? ", Boost.Compute's end to end" : "",
         1e-9 * rate, shift);
  int failed = rate <= 0;
  for (size_t k = 0; !failed && k < sizeof cases / sizeof *cases; k++) {
    if (!strstr(cases[k].name, filter))
      continue;
    key_case c = cases[k];
    c.count >>= shift;
    failed |= !one_case(ctx, profiling, &info, &c, rounds, rate);
  }
  ocl_reduce_context_destroy(ctx);
  ocl_reduce_context_destroy(profiling);
  return failed;
}
