/* =================================================================================================
 * cmd_bench.c: `ocl-reduce bench`: ocl_reduce against its competitors, measured side by side in
 * one run and reported as ratios.
 *
 * Contenders. For each path asked for (--paths), ocl_reduce on device-resident data: the input is
 * uploaded once, then each timed call is one ocl_reduce_buffer_reduce until the result is in host
 * memory; and the kernel alone, from a second context with profiling events (on some
 * implementations, PoCL, profiling itself slows the call down). Then the OpenMP `parallel for simd
 * reduction` loop over the same values in host memory, twice: in memory from malloc (what a plain
 * C program streams through) and in memory on transparent huge pages (what the library gives
 * buffers of CPU devices, see src/backend_opencl.c). The values are small integers, so every
 * contender must return exactly the same result, and the benchmark checks that.
 *
 * Fairness. Each contender is measured in its steady state, as an application reducing in a loop
 * sees it: calls run in short blocks of back-to-back calls per contender, and each block starts
 * with an untimed call that absorbs the switch between contenders (OpenMP's workers spin for a
 * while after a parallel region, PoCL's threads sleep, and on a machine with few cores either slows
 * whoever runs next). Blocks alternate and their order rotates, so that a noisy machine slows every
 * contender alike; the first --warmup rounds are not timed. Medians of the timed calls are compared.
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* madvise */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "omp_baseline.h"
#include "tool.h"

#define MAX_PATHS 6
#define MAX_CONTENDERS (2 * MAX_PATHS + 2)

typedef struct bench_args {
  size_t n;
  ocl_reduce_op op;
  ocl_reduce_type type;
  int reps, warmup;
  char paths[MAX_PATHS][32];
  int path_count;
} bench_args;

typedef enum contender_kind { CALL, KERNEL, OPENMP, OPENMP_HUGE } contender_kind;

typedef struct contender {
  contender_kind kind;
  char label[96];
  ocl_reduce_context *ctx;
  ocl_reduce_buffer *buf;
  const void *host; /* OpenMP's input */
  uint64_t result;
  double *seconds;
  int taken;
} contender;

static const char *op_name(int op) { return ocl_reduce_op_name((ocl_reduce_op)op); }
static const char *type_name(int type) { return ocl_reduce_type_name((ocl_reduce_type)type); }

static int parse_enum(const char *text, const char *(*name)(int), int count, int *out) {
  for (int i = 0; i < count; i++)
    if (strcmp(text, name(i)) == 0) {
      *out = i;
      return 1;
    }
  return 0;
}

static int usage(void) {
  fprintf(stderr,
          "usage: ocl-reduce bench [--n COUNT] [--op sum|prod|min|max|and|or|xor]\n"
          "                        [--type i32|u32|i64|u64|f32|f64] [--reps N] [--warmup ROUNDS]\n"
          "                        [--paths PATH,PATH,...]\n"
          "PATH: auto, local, subgroup, or subgroup:IMPL with IMPL khr, intel, ptx or builtin\n"
          "defaults: --n 16777216 --op sum --type f32 --reps 100 --warmup 2 --paths auto\n");
  return 2;
}

static int parse(int argc, char **argv, bench_args *a) {
  memset(a, 0, sizeof *a);
  a->n = (size_t)1 << 24;
  a->op = OCL_REDUCE_SUM;
  a->type = OCL_REDUCE_F32;
  a->reps = 100;
  a->warmup = 2;
  for (int i = 1; i < argc; i += 2) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    int e = 0;
    if (!value)
      return 0;
    if (strcmp(argv[i], "--n") == 0) {
      a->n = strtoull(value, NULL, 0);
    } else if (strcmp(argv[i], "--reps") == 0) {
      a->reps = atoi(value);
    } else if (strcmp(argv[i], "--warmup") == 0) {
      a->warmup = atoi(value);
    } else if (strcmp(argv[i], "--op") == 0 &&
               parse_enum(value, op_name, OCL_REDUCE_OP_COUNT, &e)) {
      a->op = (ocl_reduce_op)e;
    } else if (strcmp(argv[i], "--type") == 0 &&
               parse_enum(value, type_name, OCL_REDUCE_TYPE_COUNT, &e)) {
      a->type = (ocl_reduce_type)e;
    } else if (strcmp(argv[i], "--paths") == 0) {
      char list[256];
      snprintf(list, sizeof list, "%s", value);
      for (char *save = NULL, *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save))
        if (a->path_count < MAX_PATHS)
          snprintf(a->paths[a->path_count++], sizeof a->paths[0], "%s", p);
    } else {
      return 0;
    }
  }
  if (a->path_count == 0)
    snprintf(a->paths[a->path_count++], sizeof a->paths[0], "auto");
  return a->n > 0 && a->reps > 0 && a->warmup >= 0;
}

/* "subgroup:ptx" -> path and implementation. */
static int parse_path(const char *text, ocl_reduce_options *opts) {
  static const struct {
    const char *name;
    ocl_reduce_path path;
    ocl_reduce_subgroup_impl impl;
  } known[] = {
      {"auto", OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO},
      {"local", OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_AUTO},
      {"subgroup", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_AUTO},
      {"subgroup:khr", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR},
      {"subgroup:intel", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_INTEL},
      {"subgroup:ptx", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_NV_PTX},
      {"subgroup:builtin", OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_BUILTIN},
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcmp(text, known[i].name) == 0) {
      opts->path = known[i].path;
      opts->subgroup_impl = known[i].impl;
      return 1;
    }
  return 0;
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

/* A context for one path, with the input uploaded. */
static int open_contender(contender *c, const char *path, int profiling, const void *host,
                          size_t bytes) {
  ocl_reduce_options opts;
  ocl_reduce_options_init(&opts);
  opts.profiling = profiling;
  if (!parse_path(path, &opts)) {
    fprintf(stderr, "ocl-reduce: unknown path '%s'\n", path);
    return 0;
  }
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &c->ctx);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_create(c->ctx, bytes, &c->buf);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_write(c->ctx, c->buf, 0, host, bytes);
  if (s != OCL_REDUCE_OK) {
    tool_fail(path, s, c->ctx ? c->ctx : NULL);
    return 0;
  }
  ocl_reduce_context_info info;
  ocl_reduce_context_query(c->ctx, &info);
  char which[48];
  if (info.path == OCL_REDUCE_PATH_SUBGROUP)
    snprintf(which, sizeof which, "subgroup/%s", info.subgroup_impl_name);
  else
    snprintf(which, sizeof which, "local");
  snprintf(c->label, sizeof c->label, "ocl_reduce %s: %s", which,
           profiling ? "kernel (profiling events)" : "call until result on host");
  return 1;
}

/* One timed call of a contender; returns seconds, or a negative value on failure. */
static double run_once(contender *c, const bench_args *a) {
  double t0 = tool_now();
  ocl_reduce_status s = OCL_REDUCE_OK;
  uint64_t ns = 0;
  switch (c->kind) {
  case CALL:
    s = ocl_reduce_buffer_reduce(c->ctx, a->op, a->type, c->buf, 0, a->n, &c->result);
    break;
  case KERNEL:
    s = ocl_reduce_buffer_reduce(c->ctx, a->op, a->type, c->buf, 0, a->n, &c->result);
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_last_kernel_ns(c->ctx, &ns);
    break;
  case OPENMP:
  case OPENMP_HUGE:
    omp_reduce(a->op, a->type, c->host, a->n, &c->result);
    break;
  }
  double elapsed = tool_now() - t0;
  if (s != OCL_REDUCE_OK) {
    tool_fail(c->label, s, c->ctx);
    return -1;
  }
  return c->kind == KERNEL ? 1e-9 * (double)ns : elapsed;
}

int cmd_bench(int argc, char **argv) {
  bench_args a;
  if (!parse(argc, argv, &a))
    return usage();
  const size_t size = ocl_reduce_type_size(a.type);
  const size_t bytes = a.n * size;
  contender cs[MAX_CONTENDERS];
  memset(cs, 0, sizeof cs);
  int count = 0, rc = 1;
  void *host = malloc(bytes), *host_huge = alloc_huge(bytes);
  if (!host || !host_huge) {
    fprintf(stderr, "ocl-reduce: out of host memory\n");
    goto done;
  }
  fill(host, a.n, a.op, a.type);
  memcpy(host_huge, host, bytes);

  for (int p = 0; p < a.path_count; p++)
    for (int profiling = 0; profiling <= 1; profiling++) {
      contender *c = &cs[count++];
      c->kind = profiling ? KERNEL : CALL;
      if (!open_contender(c, a.paths[p], profiling, host, bytes))
        goto done;
    }
  const int has_omp = omp_reduce(a.op, a.type, host, 1, &(uint64_t){0});
  if (has_omp) {
    cs[count] = (contender){.kind = OPENMP, .host = host};
    snprintf(cs[count++].label, sizeof cs[0].label, "OpenMP simd loop, malloc'd memory");
    cs[count] = (contender){.kind = OPENMP_HUGE, .host = host_huge};
    snprintf(cs[count++].label, sizeof cs[0].label, "OpenMP simd loop, huge pages (hp)");
  }
  for (int i = 0; i < count; i++)
    if (!(cs[i].seconds = calloc((size_t)a.reps, sizeof(double))))
      goto done;

  enum { BLOCK = 5 };
  for (int round = -a.warmup, busy = 1; busy; round++) {
    busy = 0;
    for (int k = 0; k < count; k++) {
      contender *c = &cs[(round + a.warmup + k) % count]; /* rotating order */
      for (int call = -1; call < BLOCK; call++) {
        double seconds = run_once(c, &a);
        if (seconds < 0)
          goto done;
        if (round >= 0 && call >= 0 && c->taken < a.reps)
          c->seconds[c->taken++] = seconds;
      }
    }
    for (int k = 0; k < count; k++)
      busy |= cs[k].taken < a.reps;
  }
  for (int i = 1; i < count; i++)
    if (memcmp(&cs[i].result, &cs[0].result, size) != 0) {
      fprintf(stderr, "ocl-reduce: results differ: '%s' and '%s' disagree on the same input\n",
              cs[0].label, cs[i].label);
      goto done;
    }

  ocl_reduce_context_info info;
  ocl_reduce_context_query(cs[0].ctx, &info);
  printf("device     %u:%u %s / %s\n", info.platform_index, info.device_index,
         info.platform_name, info.device_name);
  printf("case       %s %s, n = %zu (%.1f MiB), device-resident input\n",
         ocl_reduce_op_name(a.op), ocl_reduce_type_name(a.type), a.n, (double)bytes / 1048576.0);
  printf("timing     median of %d calls each, in alternating blocks of back-to-back calls; "
         "%d OpenMP threads\n\n",
         a.reps, has_omp ? omp_threads() : 0);
  double median[MAX_CONTENDERS];
  for (int i = 0; i < count; i++)
    median[i] = tool_median(cs[i].seconds, (size_t)a.reps);
  const double omp = has_omp ? median[count - 2] : 0, omp_huge = has_omp ? median[count - 1] : 0;
  printf("%-58s %10s %9s %11s %11s\n", "contender", "median us", "GB/s", "vs OpenMP",
         "vs OpenMP-hp");
  for (int i = 0; i < count; i++)
    printf("%-58s %10.1f %9.2f %10.3fx %10.3fx\n", cs[i].label, 1e6 * median[i],
           (double)bytes / median[i] * 1e-9, has_omp ? omp / median[i] : 0.0,
           has_omp ? omp_huge / median[i] : 0.0);
  if (a.path_count > 1) {
    printf("\nthroughput relative to the first path (%s):\n", cs[0].label);
    for (int i = 2; i < 2 * a.path_count; i++)
      printf("  %-56s %.3fx\n", cs[i].label, median[i % 2] / median[i]);
  }
  rc = 0;
done:
  for (int i = 0; i < count; i++) {
    ocl_reduce_buffer_destroy(cs[i].buf);
    ocl_reduce_context_destroy(cs[i].ctx);
    free(cs[i].seconds);
  }
  free(host);
  free(host_huge);
  return rc;
}
