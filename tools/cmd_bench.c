/* =================================================================================================
 * cmd_bench.c: `ocl-reduce bench`: ocl_reduce against a competitor, measured side by side in one
 * run and reported as a ratio. Device-resident data: the input is uploaded once, then each timed
 * call is one ocl_reduce_buffer_reduce until the result is in host memory. The kernel's own device
 * time comes from a second context with profiling events, because on some implementations (PoCL)
 * profiling itself slows the call down. The OpenMP contender reduces the same values in host
 * memory, twice: in memory from malloc (what a plain C program streams through) and in memory on
 * transparent huge pages (what the library gives buffers of CPU devices, see
 * src/backend_opencl.c), so that the ratio is reported against both. The values are small integers, so every contender must return exactly the same result,
 * and the benchmark checks that too.
 *
 * Fairness. Each contender is measured in its steady state, as an application reducing in a loop
 * sees it: calls run in short blocks of back-to-back calls per contender, and each block starts
 * with an untimed call that absorbs the switch between contenders (OpenMP's workers spin for a
 * while after a parallel region, PoCL's threads sleep, and on a machine with few cores either slows
 * whoever runs next). Blocks alternate and their order rotates, so that a noisy machine slows every
 * contender alike; the first `--warmup` rounds are not timed. The medians of all timed calls are
 * compared.
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* madvise */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "omp_baseline.h"
#include "tool.h"

typedef struct bench_args {
  size_t n;
  ocl_reduce_op op;
  ocl_reduce_type type;
  int reps, warmup;
} bench_args;

static int parse_enum(const char *text, const char *(*name)(int), int count, int *out) {
  for (int i = 0; i < count; i++)
    if (strcmp(text, name(i)) == 0) {
      *out = i;
      return 1;
    }
  return 0;
}

static const char *op_name(int op) { return ocl_reduce_op_name((ocl_reduce_op)op); }
static const char *type_name(int type) { return ocl_reduce_type_name((ocl_reduce_type)type); }

/* Host memory on transparent huge pages, where the system grants them. */
static void *alloc_huge(size_t bytes) {
  const size_t huge = (size_t)2 << 20;
  size_t rounded = (bytes + huge - 1) / huge * huge;
  void *p = aligned_alloc(huge, rounded);
#ifdef MADV_HUGEPAGE
  if (p)
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

static int usage(void) {
  fprintf(stderr, "usage: ocl-reduce bench [--n COUNT] [--op sum|prod|min|max|and|or|xor]\n"
                  "                        [--type i32|u32|i64|u64|f32|f64] [--reps N] "
                  "[--warmup N]\n"
                  "defaults: --n 16777216 --op sum --type f32 --reps 100 --warmup 2 (rounds)\n");
  return 2;
}

static int parse(int argc, char **argv, bench_args *a) {
  *a = (bench_args){(size_t)1 << 24, OCL_REDUCE_SUM, OCL_REDUCE_F32, 100, 2};
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    int e = 0;
    if (!value)
      return 0;
    if (strcmp(argv[i], "--n") == 0)
      a->n = strtoull(value, NULL, 0);
    else if (strcmp(argv[i], "--reps") == 0)
      a->reps = atoi(value);
    else if (strcmp(argv[i], "--warmup") == 0)
      a->warmup = atoi(value);
    else if (strcmp(argv[i], "--op") == 0 && parse_enum(value, op_name, OCL_REDUCE_OP_COUNT, &e))
      a->op = (ocl_reduce_op)e;
    else if (strcmp(argv[i], "--type") == 0 &&
             parse_enum(value, type_name, OCL_REDUCE_TYPE_COUNT, &e))
      a->type = (ocl_reduce_type)e;
    else
      return 0;
    i++;
  }
  return a->n > 0 && a->reps > 0 && a->warmup >= 0;
}

/* Small integers as the element type: every order of combining gives the same bits. */
static void fill(void *data, size_t n, ocl_reduce_op op, ocl_reduce_type type) {
  for (size_t i = 0; i < n; i++) {
    long long v = (long long)((i * 2654435761u) % 17) - 8;
    if (op == OCL_REDUCE_PROD)
      v = (i % 7 == 0) ? -1 : 1;
    switch (type) {
    case OCL_REDUCE_I32: ((int32_t *)data)[i] = (int32_t)v; break;
    case OCL_REDUCE_U32: ((uint32_t *)data)[i] = (uint32_t)v; break;
    case OCL_REDUCE_I64: ((int64_t *)data)[i] = v; break;
    case OCL_REDUCE_U64: ((uint64_t *)data)[i] = (uint64_t)v; break;
    case OCL_REDUCE_F32: ((float *)data)[i] = (float)v; break;
    case OCL_REDUCE_F64: ((double *)data)[i] = (double)v; break;
    }
  }
}

int cmd_bench(int argc, char **argv) {
  bench_args a;
  if (!parse(argc, argv, &a))
    return usage();
  const size_t size = ocl_reduce_type_size(a.type);
  const size_t bytes = a.n * size;

  ocl_reduce_context *ctx = NULL, *timed = NULL; /* timed: with profiling events */
  ocl_reduce_options opts;
  ocl_reduce_options_init(&opts);
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  if (s != OCL_REDUCE_OK)
    return tool_fail("creating a context", s, NULL);
  opts.profiling = 1;
  s = ocl_reduce_context_create(&opts, &timed);
  if (s != OCL_REDUCE_OK) {
    ocl_reduce_context_destroy(ctx);
    return tool_fail("creating a profiling context", s, NULL);
  }
  ocl_reduce_context_info info;
  ocl_reduce_context_query(ctx, &info);

  void *host = malloc(bytes);
  double *call_s = calloc((size_t)a.reps, sizeof(double));
  double *kernel_s = calloc((size_t)a.reps, sizeof(double));
  double *omp_s = calloc((size_t)a.reps, sizeof(double));
  double *omp_huge_s = calloc((size_t)a.reps, sizeof(double));
  void *host_huge = alloc_huge(bytes);
  ocl_reduce_buffer *buf = NULL, *timed_buf = NULL;
  int rc = 1;
  if (!host || !call_s || !kernel_s || !omp_s || !omp_huge_s || !host_huge) {
    fprintf(stderr, "ocl-reduce: out of host memory\n");
    goto done;
  }
  fill(host, a.n, a.op, a.type);
  memcpy(host_huge, host, bytes);
  if ((s = ocl_reduce_buffer_create(ctx, bytes, &buf)) != OCL_REDUCE_OK ||
      (s = ocl_reduce_buffer_write(ctx, buf, 0, host, bytes)) != OCL_REDUCE_OK ||
      (s = ocl_reduce_buffer_create(timed, bytes, &timed_buf)) != OCL_REDUCE_OK ||
      (s = ocl_reduce_buffer_write(timed, timed_buf, 0, host, bytes)) != OCL_REDUCE_OK) {
    rc = tool_fail("uploading the input", s, ctx);
    goto done;
  }
  const int has_omp = omp_reduce(a.op, a.type, host, 1, &(uint64_t){0});
  uint64_t ours = 0, theirs = 0, again = 0, theirs_huge = 0;
  enum { BLOCK = 5, CONTENDERS = 4 };
  double *samples[CONTENDERS] = {call_s, kernel_s, omp_s, omp_huge_s};
  int taken[CONTENDERS] = {0, 0, 0, 0};
  for (int round = -a.warmup; taken[0] < a.reps || taken[1] < a.reps || taken[2] < a.reps ||
                              taken[3] < a.reps;
       round++) {
    for (int k = 0; k < CONTENDERS; k++) {
      const int contender = (round + a.warmup + k) % CONTENDERS; /* rotating order */
      for (int call = -1; call < BLOCK; call++) {
        uint64_t ns = 0;
        double t0 = tool_now();
        if (contender == 0) {
          s = ocl_reduce_buffer_reduce(ctx, a.op, a.type, buf, 0, a.n, &ours);
        } else if (contender == 1) {
          s = ocl_reduce_buffer_reduce(timed, a.op, a.type, timed_buf, 0, a.n, &again);
          if (s == OCL_REDUCE_OK)
            s = ocl_reduce_last_kernel_ns(timed, &ns);
        } else if (contender == 2 && has_omp) {
          omp_reduce(a.op, a.type, host, a.n, &theirs);
        } else if (has_omp) {
          omp_reduce(a.op, a.type, host_huge, a.n, &theirs_huge);
        }
        double elapsed = tool_now() - t0;
        if (s != OCL_REDUCE_OK) {
          rc = tool_fail("reducing", s, contender == 0 ? ctx : timed);
          goto done;
        }
        if (round >= 0 && call >= 0 && taken[contender] < a.reps)
          samples[contender][taken[contender]++] = contender == 1 ? 1e-9 * (double)ns : elapsed;
      }
    }
  }
  if (memcmp(&ours, &again, size) != 0 ||
      (has_omp && (memcmp(&ours, &theirs, size) != 0 || memcmp(&ours, &theirs_huge, size) != 0))) {
    fprintf(stderr, "ocl-reduce: results differ: ocl_reduce and OpenMP disagree on the same input\n");
    goto done;
  }

  const double call = tool_median(call_s, (size_t)a.reps);
  const double kernel = tool_median(kernel_s, (size_t)a.reps);
  const double omp = has_omp ? tool_median(omp_s, (size_t)a.reps) : 0;
  const double omp_huge = has_omp ? tool_median(omp_huge_s, (size_t)a.reps) : 0;
  printf("device     %u:%u %s / %s, %s path\n", info.platform_index, info.device_index,
         info.platform_name, info.device_name,
         info.path == OCL_REDUCE_PATH_SUBGROUP ? "subgroup" : "local");
  printf("case       %s %s, n = %zu (%.1f MiB), device-resident input\n",
         ocl_reduce_op_name(a.op), ocl_reduce_type_name(a.type), a.n, (double)bytes / 1048576.0);
  printf("timing     median of %d calls each, in alternating blocks of back-to-back calls\n\n",
         a.reps);
  printf("%-46s %10s %8s %12s %12s\n", "contender", "median us", "GB/s", "vs OpenMP",
         "vs OpenMP-hp");
  const struct {
    const char *label;
    double seconds;
  } rows[] = {{"ocl_reduce: call until result in host memory", call},
              {"ocl_reduce: kernel only (profiling events)", kernel},
              {"OpenMP simd loop, malloc'd memory", omp},
              {"OpenMP simd loop, huge-page memory (hp)", omp_huge}};
  for (int r = 0; r < (has_omp ? 4 : 2); r++)
    printf("%-46s %10.1f %8.2f %11.3fx %11.3fx\n", rows[r].label, 1e6 * rows[r].seconds,
           (double)bytes / rows[r].seconds * 1e-9, has_omp ? omp / rows[r].seconds : 0.0,
           has_omp ? omp_huge / rows[r].seconds : 0.0);
  if (has_omp)
    printf("\nratio      ocl_reduce / OpenMP throughput, call until result in host memory: %.3f "
           "(malloc'd memory), %.3f (huge pages); %d OpenMP threads\n",
           omp / call, omp_huge / call, omp_threads());
  rc = 0;
done:
  ocl_reduce_buffer_destroy(buf);
  ocl_reduce_buffer_destroy(timed_buf);
  ocl_reduce_context_destroy(ctx);
  ocl_reduce_context_destroy(timed);
  free(host);
  free(call_s);
  free(kernel_s);
  free(omp_s);
  free(omp_huge_s);
  free(host_huge);
  return rc;
}
