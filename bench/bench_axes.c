/* =================================================================================================
 * bench_axes.c: reductions along axes (ocl_reduce_axes) against their competitors, side by side
 * in one run, on one profiling context (the device and backend from OCL_REDUCE_DEVICE and
 * OCL_REDUCE_BACKEND). For each of issue 55's cases (SUM over 2^28 elements: square, tall and
 * wide matrices along each axis, a 256 x 1024 x 1024 tensor along {0}, {1}, {2}, {0, 2}, a
 * window of a wider matrix, i32 and f64 rows):
 *
 *   ours     ocl_reduce_axes from a buffer to a buffer: median device time (its kernels' time);
 *   whole    ocl_reduce of as many elements of the same buffer, one result: our whole-array rate
 *            over the same bytes read ("of whole": its time / ours, the target 0.90);
 *   anchors  on a CUDA device: CUB's fixed-size segments over the input, over a transform
 *            iterator that reads the view, over a copy of the view (copy timed), and cuBLAS Sgemv
 *            against ones (cub_axes.cu); "of best": the fastest one's time / ours (target 1.0);
 *   OpenMP   on CPU devices: the better of two loops over the host's threads (a result per
 *            iteration, or each thread's results over a chunk of the reduced positions, then
 *            combined), over the same data in host memory ("of OpenMP": its time / ours, target
 *            0.8).
 *
 * The input is 0s and 1s, so every sum is exact in any order: every contender's results must
 * equal the host's (computed once, serially).
 *
 *   bench_axes [ROUNDS [FILTER [SHIFT]]]   (bench_axes_main.c: 20 rounds; cases whose name holds
 *                                         FILTER; SHIFT halves the outermost extent SHIFT times;
 *                                         BENCH_AXES_COMPETITORS=0: ours and whole only)
 *   ocl-reduce bench --shape S --axes A    one view (cmd_bench.c), its OpenMP loops compiled for
 *                                         any CPU of the architecture, no CUDA anchors
 * ============================================================================================== */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_axes.h"
#include "tool_common.h"

#define E(k) ((uint64_t)1 << (k))

/* The cases: name, type, rank, extents, strides (0: dense), axes. */
static const axes_case cases[] = {
    {"f32 [2^14, 2^14] {0}", OCL_REDUCE_F32, 2, {E(14), E(14)}, {0}, 1u, 0, 0, 0},
    {"f32 [2^14, 2^14] {1}", OCL_REDUCE_F32, 2, {E(14), E(14)}, {0}, 2u, 0, 0, 0},
    {"f32 [2^4, 2^24] {0}", OCL_REDUCE_F32, 2, {E(4), E(24)}, {0}, 1u, 0, 0, 0},
    {"f32 [2^24, 2^4] {0}", OCL_REDUCE_F32, 2, {E(24), E(4)}, {0}, 1u, 0, 0, 0},
    {"f32 [2^24, 2^4] {1}", OCL_REDUCE_F32, 2, {E(24), E(4)}, {0}, 2u, 0, 0, 0},
    {"f32 [2^18, 2^10] {1}", OCL_REDUCE_F32, 2, {E(18), E(10)}, {0}, 2u, 0, 0, 0},
    {"f32 [256, 1024, 1024] {0}", OCL_REDUCE_F32, 3, {256, 1024, 1024}, {0}, 1u, 0, 0, 0},
    {"f32 [256, 1024, 1024] {1}", OCL_REDUCE_F32, 3, {256, 1024, 1024}, {0}, 2u, 0, 0, 0},
    {"f32 [256, 1024, 1024] {2}", OCL_REDUCE_F32, 3, {256, 1024, 1024}, {0}, 4u, 0, 0, 0},
    {"f32 [256, 1024, 1024] {0,2}", OCL_REDUCE_F32, 3, {256, 1024, 1024}, {0}, 5u, 0, 0, 0},
    {"f32 window [2^13, 2^13] of 2^14 {0}", OCL_REDUCE_F32, 2, {E(13), E(13)}, {E(14), 1}, 1u,
     0, 0, 0},
    {"f32 window [2^13, 2^13] of 2^14 {1}", OCL_REDUCE_F32, 2, {E(13), E(13)}, {E(14), 1}, 2u,
     0, 0, 0},
    /* The columns' reads at a row stride that is not a power of two (the cases above are),
     * which spreads their rows over the memory's channels otherwise. */
    {"f32 [2^4, 2^24] rows 2^24+64 apart {0}", OCL_REDUCE_F32, 2, {E(4), E(24)},
     {E(24) + 64, 1}, 1u, 0, 0, 0},
    {"f32 [2^14, 2^14] rows 2^14+64 apart {0}", OCL_REDUCE_F32, 2, {E(14), E(14)},
     {E(14) + 64, 1}, 1u, 0, 0, 0},
    {"i32 [2^14, 2^14] {1}", OCL_REDUCE_I32, 2, {E(14), E(14)}, {0}, 2u, 0, 0, 0},
    {"f64 [2^14, 2^14] {1}", OCL_REDUCE_F64, 2, {E(14), E(14)}, {0}, 2u, 0, 0, 0},
    {"f64 [2^14, 2^14] {0}", OCL_REDUCE_F64, 2, {E(14), E(14)}, {0}, 1u, 0, 0, 0},
};

/* The case with SHIFT applied, dense strides filled in, and its counts. */
static axes_case complete(const axes_case *from, unsigned shift) {
  axes_case c = *from;
  c.extents[0] >>= shift;
  if (c.strides[c.rank - 1] == 0) { /* dense */
    uint64_t stride = 1;
    for (unsigned k = c.rank; k-- > 0;) {
      c.strides[k] = stride;
      stride *= c.extents[k];
    }
  }
  c.results = c.length = c.reach = 1;
  for (unsigned k = 0; k < c.rank; k++) {
    *((c.axes >> k) & 1u ? &c.length : &c.results) *= c.extents[k];
    c.reach += (c.extents[k] - 1) * c.strides[k];
  }
  return c;
}

/* Element offsets of every position of the axes in `mask`, row-major (malloc'd). */
static uint64_t *offsets_of(const axes_case *c, uint32_t mask, uint64_t count) {
  uint64_t *at = malloc(count * sizeof *at), n = 1;
  at[0] = 0;
  for (unsigned k = 0; k < c->rank; k++) {
    if (!((mask >> k) & 1u))
      continue;
    for (uint64_t p = n; p-- > 0;) /* back to front: in place */
      for (uint64_t i = c->extents[k]; i-- > 0;)
        at[p * c->extents[k] + i] = at[p] + i * c->strides[k];
    n *= c->extents[k];
  }
  return at;
}

/* The two OpenMP loops, per type: a result per iteration, or per thread a chunk of the reduced
 * positions into its own results, combined after. */
#define OMP_LOOPS(T, NAME)                                                                         \
  static void NAME##_rows(const T *x, const uint64_t *kept, uint64_t results,                     \
                          const uint64_t *reduced, uint64_t length, T *out) {                     \
    _Pragma("omp parallel for schedule(static)") for (uint64_t r = 0; r < results; r++) {          \
      T acc = 0;                                                                                   \
      const T *base = x + kept[r];                                                                 \
      for (uint64_t j = 0; j < length; j++)                                                        \
        acc += base[reduced[j]];                                                                   \
      out[r] = acc;                                                                                \
    }                                                                                              \
  }                                                                                                \
  static void NAME##_columns(const T *x, const uint64_t *kept, uint64_t results,                  \
                             const uint64_t *reduced, uint64_t length, T *out, T *parts) {        \
    _Pragma("omp parallel") {                                                                      \
      const int t = omp_get_thread_num(), n = omp_get_num_threads();                              \
      T *mine = parts + (uint64_t)t * results;                                                     \
      for (uint64_t r = 0; r < results; r++)                                                       \
        mine[r] = 0;                                                                               \
      for (uint64_t j = length * t / n; j < length * (t + 1) / n; j++) {                           \
        const T *base = x + reduced[j];                                                            \
        _Pragma("omp simd") for (uint64_t r = 0; r < results; r++) mine[r] += base[kept[r]];     \
      }                                                                                            \
      _Pragma("omp barrier") _Pragma("omp for") for (uint64_t r = 0; r < results; r++) {           \
        T acc = 0;                                                                                 \
        for (int k = 0; k < n; k++)                                                                \
          acc += parts[(uint64_t)k * results + r];                                                 \
        out[r] = acc;                                                                              \
      }                                                                                            \
    }                                                                                              \
  }
OMP_LOOPS(int32_t, omp_i32)
OMP_LOOPS(float, omp_f32)
OMP_LOOPS(double, omp_f64)

/* One OpenMP loop (columns: 1) into out; parts: threads x results of scratch. */
static void omp_loop(const axes_case *c, int columns, const void *x, const uint64_t *kept,
                     const uint64_t *reduced, void *out, void *parts) {
  switch (c->type) {
  case OCL_REDUCE_I32:
    columns ? omp_i32_columns(x, kept, c->results, reduced, c->length, out, parts)
            : omp_i32_rows(x, kept, c->results, reduced, c->length, out);
    break;
  case OCL_REDUCE_F64:
    columns ? omp_f64_columns(x, kept, c->results, reduced, c->length, out, parts)
            : omp_f64_rows(x, kept, c->results, reduced, c->length, out);
    break;
  default:
    columns ? omp_f32_columns(x, kept, c->results, reduced, c->length, out, parts)
            : omp_f32_rows(x, kept, c->results, reduced, c->length, out);
  }
}

/* Whether an element is not 0 (0 is all zero bytes in every type here). */
static int nonzero(const unsigned char *p, size_t elem) {
  for (size_t b = 0; b < elem; b++)
    if (p[b])
      return 1;
  return 0;
}

/* The host's sums, serially, in the type (exact: 0s and 1s). */
static void host_sums(const axes_case *c, const unsigned char *x, size_t elem,
                      const uint64_t *kept, const uint64_t *reduced, unsigned char *want) {
  for (uint64_t r = 0; r < c->results; r++) {
    double acc = 0;
    for (uint64_t j = 0; j < c->length; j++)
      acc += nonzero(x + (kept[r] + reduced[j]) * elem, elem);
    const int32_t i = (int32_t)acc;
    const float f = (float)acc;
    memcpy(want + r * elem, c->type == OCL_REDUCE_I32 ? (const void *)&i
                           : c->type == OCL_REDUCE_F32 ? (const void *)&f
                                                       : (const void *)&acc,
           elem);
  }
}

/* Median device seconds of `rounds` calls of ours (whole: the whole-array sum instead). */
static double time_ours(ocl_reduce_context *ctx, const axes_case *c, ocl_reduce_buffer *in,
                        ocl_reduce_buffer *out, int whole, int rounds) {
  ocl_reduce_shape s = OCL_REDUCE_SHAPE_INIT;
  s.rank = c->rank;
  memcpy(s.extents, c->extents, sizeof s.extents);
  memcpy(s.strides, c->strides, sizeof s.strides);
  double *t = malloc((size_t)rounds * sizeof *t), m = -1;
  for (int r = -2; r < rounds; r++) {
    uint64_t ns = 0;
    ocl_reduce_status st =
        whole ? ocl_reduce_into(ctx, OCL_REDUCE_SUM, c->type, ocl_reduce_buffer_input(in, 0),
                                (size_t)(c->results * c->length), ocl_reduce_buffer_output(out, 0))
              : ocl_reduce_axes(ctx, OCL_REDUCE_SUM, c->type, ocl_reduce_buffer_input(in, 0), &s,
                                c->axes, ocl_reduce_buffer_output(out, 0));
    if (st == OCL_REDUCE_OK)
      st = ocl_reduce_last_kernel_ns(ctx, &ns);
    if (st != OCL_REDUCE_OK) {
      fprintf(stderr, "bench_axes: %s: %s\n", c->name, ocl_reduce_last_error(ctx));
      goto done;
    }
    if (r >= 0)
      t[r] = 1e-9 * (double)ns;
  }
  m = tool_median(t, (size_t)rounds);
done:
  free(t);
  return m;
}

/* Median seconds of the better OpenMP loop, its results checked; -1 when they differ. */
static double time_openmp(const axes_case *c, const void *x, size_t elem, const uint64_t *kept,
                          const uint64_t *reduced, const void *want, int rounds) {
  void *out = malloc(c->results * elem);
  void *parts = malloc((size_t)omp_get_max_threads() * c->results * elem);
  double *t = malloc((size_t)rounds * sizeof *t), best = -1;
  for (int columns = 0; columns < 2; columns++) {
    for (int r = -1; r < rounds; r++) {
      const double start = omp_get_wtime();
      omp_loop(c, columns, x, kept, reduced, out, parts);
      if (r >= 0)
        t[r] = omp_get_wtime() - start;
    }
    const double m = tool_median(t, (size_t)rounds);
    if (memcmp(out, want, c->results * elem) != 0) {
      fprintf(stderr, "bench_axes: %s: the OpenMP loop's results differ\n", c->name);
      best = -1;
      break;
    }
    best = best < 0 || m < best ? m : best;
  }
  (void)omp_pause_resource_all(omp_pause_soft); /* its spinning threads off the next case */
  free(t);
  free(parts);
  free(out);
  return best;
}

/* One case: the input, the host's sums, each contender (ours and whole only where the
 * environment has BENCH_AXES_COMPETITORS=0: A/B runs of our own variants, a minute shorter a
 * table on the GPU). */
static int one_case(ocl_reduce_context *ctx, const axes_case *c, int cpu, int rounds) {
  const char *env = getenv("BENCH_AXES_COMPETITORS");
  const int competitors = !env || strcmp(env, "0") != 0;
  const size_t elem = c->type == OCL_REDUCE_F64 ? 8 : 4;
  unsigned char *x = calloc(c->reach, elem), *want = malloc(c->results * elem);
  unsigned char *got = malloc(c->results * elem);
  uint64_t *kept = offsets_of(c, ~c->axes, c->results);
  uint64_t *reduced = offsets_of(c, c->axes, c->length);
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (uint64_t i = 0; i < c->reach; i++) { /* 0 or 1, as the type's bits */
    state = state * 6364136223846793005u + 1442695040888963407u;
    const int one = (int)(state >> 63);
    const int32_t iv = one;
    const float fv = (float)one;
    const double dv = one;
    memcpy(x + i * elem, c->type == OCL_REDUCE_I32 ? (const void *)&iv
                         : c->type == OCL_REDUCE_F32 ? (const void *)&fv
                                                     : (const void *)&dv,
           elem);
  }
  host_sums(c, x, elem, kept, reduced, want);
  ocl_reduce_buffer *in = NULL, *out = NULL;
  int bad = ocl_reduce_buffer_create(ctx, c->reach * elem, &in) != OCL_REDUCE_OK ||
            ocl_reduce_buffer_create(ctx, c->results * elem, &out) != OCL_REDUCE_OK ||
            ocl_reduce_buffer_write(in, 0, x, c->reach * elem) != OCL_REDUCE_OK;
  const double ours = bad ? -1 : time_ours(ctx, c, in, out, 0, rounds);
  bad = ours < 0 || ocl_reduce_buffer_read(out, 0, got, c->results * elem) != OCL_REDUCE_OK;
  if (!bad && memcmp(got, want, c->results * elem) != 0) {
    fprintf(stderr, "bench_axes: %s: ocl_reduce's results differ from the host's\n", c->name);
    bad = 1;
  }
  const double whole = bad ? -1 : time_ours(ctx, c, in, out, 1, rounds);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
  if (bad || whole < 0)
    goto done;
  const double bytes = (double)(c->results * c->length * elem);
  printf("%-38s ours %9.1f us %7.1f GB/s | whole %9.1f us: of whole %.3f", c->name, 1e6 * ours,
         bytes / ours / 1e9, 1e6 * whole, whole / ours);
  axes_anchor anchors[AXES_ANCHORS];
  char why[128];
  if (!competitors) {
    printf("\n");
  } else if (!cpu && cub_axes_anchors(c, x, want, rounds, anchors, why, sizeof why)) {
    int best = -1;
    for (int a = 0; a < AXES_ANCHORS; a++)
      if (anchors[a].seconds > 0 && (best < 0 || anchors[a].seconds < anchors[best].seconds))
        best = a;
    if (best >= 0)
      printf(" | best anchor %s %.1f us: of best %.3f", anchors[best].name,
             1e6 * anchors[best].seconds, anchors[best].seconds / ours);
    printf("\n");
    for (int a = 0; a < AXES_ANCHORS; a++)
      if (anchors[a].seconds > 0)
        printf("    %-28s %9.1f us  (its time / ours %.3f)\n", anchors[a].name,
               1e6 * anchors[a].seconds, anchors[a].seconds / ours);
      else
        printf("    %-28s -- %s\n", anchors[a].name, anchors[a].why);
  } else if (cpu) {
    const double omp = time_openmp(c, x, elem, kept, reduced, want, rounds);
    bad = omp < 0;
    if (!bad)
      printf(" | OpenMP %9.1f us: of OpenMP %.3f", 1e6 * omp, omp / ours);
    printf("\n");
  } else {
    printf(" | no anchor: %s\n", why);
  }
done:
  free(x);
  free(want);
  free(got);
  free(kept);
  free(reduced);
  return bad;
}

/* The plan ocl_reduce_axes takes for the case, under its line. */
static void print_plan(ocl_reduce_context *ctx, const axes_case *c) {
  ocl_reduce_shape s = OCL_REDUCE_SHAPE_INIT;
  s.rank = c->rank;
  memcpy(s.extents, c->extents, sizeof s.extents);
  memcpy(s.strides, c->strides, sizeof s.strides);
  char text[2048];
  if (ocl_reduce_describe_axes(ctx, OCL_REDUCE_SUM, c->type, &s, c->axes, 0, text,
                               sizeof text) == OCL_REDUCE_OK)
    printf("    plan: %s\n", text);
}

/* The cases on one profiling context (the device and backend from OCL_REDUCE_DEVICE and
 * OCL_REDUCE_BACKEND); 1 when any failed. */
static int run(const axes_case *list, size_t n, int rounds, const char *filter, unsigned shift) {
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.profiling = 1;
  ocl_reduce_context *ctx = NULL;
  if (ocl_reduce_context_create(&opts, &ctx) != OCL_REDUCE_OK) {
    fprintf(stderr, "bench_axes: %s\n", ocl_reduce_last_error(NULL));
    return 1;
  }
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  const int cpu = info.device_type == OCL_REDUCE_DEVICE_CPU;
  printf("bench_axes: %s (%s), SUM, device-resident, medians of %d device times; GB/s count the "
         "view's elements once\n",
         info.device_name, info.backend_name, rounds);
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (strstr(list[i].name, filter)) {
      const axes_case c = complete(&list[i], shift);
      bad |= one_case(ctx, &c, cpu, rounds);
      print_plan(ctx, &c);
      fflush(stdout);
    }
  ocl_reduce_context_destroy(ctx);
  return bad;
}

int bench_axes_table(int rounds, const char *filter, unsigned shift) {
  return run(cases, sizeof cases / sizeof cases[0], rounds, filter, shift);
}

int bench_axes_view(const char *name, const ocl_reduce_shape *shape, uint32_t axes,
                    ocl_reduce_type type, int rounds) {
  axes_case c;
  memset(&c, 0, sizeof c);
  c.name = name;
  c.type = type;
  c.rank = shape->rank;
  memcpy(c.extents, shape->extents, sizeof c.extents);
  memcpy(c.strides, shape->strides, sizeof c.strides);
  c.axes = axes;
  return run(&c, 1, rounds, "", 0);
}
