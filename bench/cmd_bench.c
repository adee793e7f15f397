/* =================================================================================================
 * cmd_bench.c: `ocl-reduce bench`: ocl_reduce against its competitors, measured side by side in
 * one run and reported as ratios (bench.h has the pieces).
 *
 * It sweeps element counts (default 2^10 ... 2^28 on GPUs, ... 2^26 on CPU devices, capped by the
 * device's memory), or, with --segments, segment lengths over one element count; operators, types
 * and paths. Contenders: ocl_reduce on each path asked for; on CPU devices the OpenMP `parallel
 * for simd reduction` loop (compiled -O3 -march=native), or the per-segment loop, over malloc'd
 * memory and over huge pages; on NVIDIA GPUs cub::DeviceReduce or cub::DeviceSegmentedReduce when
 * the tool was built with the CUDA toolkit and a GPU is present. Every contender must return the
 * same results (the input is small integers, exact in any order; MEAN_VAR's mean and M2 within
 * 1e-9); a mismatch fails the run.
 *
 * Fairness. Each contender is measured in its steady state, as an application reducing in a loop
 * sees it: calls run in short blocks of back-to-back calls per contender, and each block starts
 * with untimed calls that absorb the switch between contenders (OpenMP's workers spin for a
 * while after a parallel region, PoCL's threads sleep, and on a machine with few cores either slows
 * whoever runs next). On CPU devices the untimed calls go on until one runs within 1.1x the
 * contender's fastest call of the case so far (at most 10): servers' last-level caches (hundreds
 * of MiB, shared) hold the array the previous contender read, and one reading another array of
 * 64-128 MiB took 3-10 calls to return to its speed, whoever it was (a 2-core VM with 480 MiB of
 * L3, f32 sum of 2^24: the OpenMP loop after its huge-page twin 2922, 2715, 1682, 1188 us; the host
 * plan after PoCL's kernels on a buffer 2704, 2661, 2559, 2542, 1966, 1688, 1473, then 1150-1250),
 * so a contender's rows depended on which contender ran before it. Blocks alternate and their
 * order rotates, so that a noisy machine slows every contender alike; the first --warmup rounds
 * are not timed. Medians are reported.
 * ============================================================================================== */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_axes.h"
#include "omp_baseline.h"
#include "tool_common.h"

#define MAX_LIST 16
#define MAX_CONTENDERS 12

typedef struct bench_args {
  int log2_min, log2_max, log2_step; /* sizes 2^min ... 2^max; 0 max: by device */
  size_t single_n;                   /* --n */
  ocl_reduce_op ops[MAX_LIST];
  int op_count;
  ocl_reduce_type types[MAX_LIST];
  int type_count;
  char paths[MAX_LIST][64];
  int path_count;
  size_t segment_lengths[64]; /* --segments: a segment-length sweep over one element count */
  int segment_length_count;
  int reps, warmup;
  int no_openmp, no_cub, quick, opencl_baseline;
  const char *csv, *json, *svg;
  const char *devices; /* --devices: a group, against its first device alone */
  const char *shape, *axes; /* --shape, --axes: one view along axes (bench_axes.c) */
  int device_given;    /* -d */
} bench_args;

static void usage(void) {
  printf(
          "usage: ocl-reduce bench [options]\n"
          "  --sizes MIN:MAX[:STEP]  element counts 2^MIN ... 2^MAX (default 10:28:2 on GPUs,\n"
          "                          10:26:2 on CPU devices, capped by device memory)\n"
          "  --n COUNT               one element count instead\n"
          "  --shape E0xE1x... --axes A,B,...   SUM along those axes of a dense array of the\n"
          "                          first --types type (i32, f32, f64), from a buffer, against\n"
          "                          our whole-array sum of as many elements and, on CPU\n"
          "                          devices, OpenMP loops (--reps calls, default 20)\n"
          "  --segments LIST|sweep   segmented reductions of the --n elements (default 2^26 on\n"
          "                          GPUs, 2^24 on CPU devices) in segments of each length in\n"
          "                          LIST; sweep: 1, 2, 4, ..., 65536 and 3, 33, 101,\n"
          "                          1000, 4097\n"
          "  --ops LIST              sum,prod,min,max,and,or,xor, or the structured\n"
          "                          argmin,argmax,minmax,sum_wide,sum_compensated,mean_var\n"
          "                          (default sum)\n"
          "  --types LIST            i32,u32,i64,u64,f32,f64,f16,bf16 (default f32)\n"
          "  --paths LIST            [opencl/|cuda/|app/][host/] then auto, local, subgroup,\n"
          "                          or subgroup:khr|intel|ptx|builtin|cuda (default auto;\n"
          "                          host/: the input from host memory, not a buffer), each\n"
          "                          optionally with +op (the operator as a user operator,\n"
          "                          compared with the built-in one) and @POLICY\n"
          "                          (OCL_REDUCE_POLICY syntax, ';' for ','), e.g.\n"
          "                          cuda/auto@seg=mr, auto+op or auto@unroll=8;wg=512\n"
          "  --reps N                timed calls per contender and case (default: 100 up to\n"
          "                          2^22 elements, 30 above)\n"
          "  --warmup ROUNDS         untimed rounds first (default 2)\n"
          "  --quick                 smoke mode: 3 sizes, few repetitions\n"
          "  --no-openmp, --no-cub   leave a competitor out\n"
          "  --opencl-baseline       add the plain two-kernel OpenCL reduction (+ a blocking\n"
          "                          read) on an application's own queue; app/PATH in --paths\n"
          "                          runs ocl_reduce on that queue with the input in the\n"
          "                          application's cl_mem\n"
          "  --csv FILE, --json FILE, --svg FILE   also write the results there (opened before\n"
          "                          the benchmark runs)\n"
          "  -d, --device DEV        the device, as OCL_REDUCE_DEVICE (P:D, cuda:N, pocl, intel,\n"
          "                          nvidia, cuda, cpu, gpu, or part of its name)\n"
          "  --devices LIST          a group of devices (ocl_reduce_group_create's list, e.g.\n"
          "                          cuda:0,cuda:1) reducing from a group buffer and from host\n"
          "                          memory, against the first device (or -d's) alone: the\n"
          "                          ratios are the group's scaling, end to end (a group has\n"
          "                          no device time: its device column is end to end too)\n"
          "  -h, --help              this text\n"
          "Options take their value as --n 1024 or --n=1024; counts are decimal or 0x hex.\n"
          "Progress goes to stderr, the table to stdout. Each median comes with the fastest\n"
          "call and the 90th percentile; rows whose 90th percentile is above 1.25x the median\n"
          "are marked noisy.\n");
}

static int parse_list(const char *value, int count_max, int *count,
                      int (*one)(const char *item, int index, void *out), void *out) {
  char list[512];
  snprintf(list, sizeof list, "%s", value);
  *count = 0;
  for (char *save = NULL, *item = strtok_r(list, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    if (*count >= count_max || !one(item, *count, out))
      return 0;
    (*count)++;
  }
  return *count > 0;
}

static int one_op(const char *item, int index, void *out) {
  for (int o = 0; o < OCL_REDUCE_BUILTIN_OPS; o++)
    if (strcmp(item, ocl_reduce_op_name(OCL_REDUCE_BUILTIN_OP(o))) == 0) {
      ((ocl_reduce_op *)out)[index] = OCL_REDUCE_BUILTIN_OP(o);
      return 1;
    }
  return 0;
}

static int one_type(const char *item, int index, void *out) {
  for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++)
    if (strcmp(item, ocl_reduce_type_name((ocl_reduce_type)t)) == 0) {
      ((ocl_reduce_type *)out)[index] = (ocl_reduce_type)t;
      return 1;
    }
  return 0;
}

static int one_path(const char *item, int index, void *out) {
  char *path = ((char(*)[64])out)[index];
  snprintf(path, 64, "%s", item);
  for (char *p = path; *p; p++) /* ';' separates policy fields inside the ','-separated list */
    if (*p == ';')
      *p = ',';
  return 1;
}

static int one_length(const char *item, int index, void *out) {
  unsigned long long length = 0;
  if (tool_parse_count(item, SIZE_MAX, &length) != 1 || length == 0)
    return 0;
  ((size_t *)out)[index] = (size_t)length;
  return 1;
}

/* --sizes MIN:MAX[:STEP], each a whole number. */
static int parse_sizes(const char *value, bench_args *a) {
  char text[64];
  snprintf(text, sizeof text, "%s", value);
  char *fields[3] = {text, NULL, NULL};
  int count = 1;
  for (char *p = text; *p && count < 4; p++)
    if (*p == ':') {
      *p = '\0';
      if (count == 3)
        return 0;
      fields[count++] = p + 1;
    }
  a->log2_step = 2;
  return count >= 2 && tool_parse_int(fields[0], 0, 40, &a->log2_min) &&
         tool_parse_int(fields[1], 0, 40, &a->log2_max) &&
         (count < 3 || tool_parse_int(fields[2], 1, 40, &a->log2_step)) &&
         a->log2_min <= a->log2_max;
}

/* Parses the options into *a; returns -1 to go on, else the exit status (0 after --help). */
static int parse(int argc, char **argv, bench_args *a) {
  enum { QUICK = 256, NO_OPENMP, NO_CUB, OPENCL_BASELINE, SIZES, N, OPS, TYPES, PATHS, SEGMENTS,
         REPS, WARMUP, CSV, JSON, SVG, DEVICES, SHAPE, AXES };
  static const struct option longs[] = {
      {"quick", no_argument, NULL, QUICK},        {"no-openmp", no_argument, NULL, NO_OPENMP},
      {"no-cub", no_argument, NULL, NO_CUB},      {"sizes", required_argument, NULL, SIZES},
      {"opencl-baseline", no_argument, NULL, OPENCL_BASELINE},
      {"n", required_argument, NULL, N},          {"ops", required_argument, NULL, OPS},
      {"types", required_argument, NULL, TYPES},  {"paths", required_argument, NULL, PATHS},
      {"segments", required_argument, NULL, SEGMENTS},
      {"reps", required_argument, NULL, REPS},    {"warmup", required_argument, NULL, WARMUP},
      {"csv", required_argument, NULL, CSV},      {"json", required_argument, NULL, JSON},
      {"svg", required_argument, NULL, SVG},      {"device", required_argument, NULL, 'd'},
      {"devices", required_argument, NULL, DEVICES},
      {"shape", required_argument, NULL, SHAPE},  {"axes", required_argument, NULL, AXES},
      {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0}};
  memset(a, 0, sizeof *a);
  a->log2_min = 10;
  a->log2_step = 2;
  a->ops[a->op_count++] = OCL_REDUCE_SUM;
  a->types[a->type_count++] = OCL_REDUCE_F32;
  snprintf(a->paths[a->path_count++], 64, "auto");
  a->warmup = 2;
  optind = 1;
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":d:h", longs, NULL)) != -1;) {
    unsigned long long count = 0;
    switch (c) {
    case QUICK: a->quick = 1; break;
    case NO_OPENMP: a->no_openmp = 1; break;
    case NO_CUB: a->no_cub = 1; break;
    case OPENCL_BASELINE: a->opencl_baseline = 1; break;
    case SIZES:
      if (!parse_sizes(optarg, a))
        return tool_usage_error("bench", "--sizes '%s': MIN:MAX[:STEP], 0 <= MIN <= MAX <= 40",
                                optarg);
      break;
    case N:
      if (tool_parse_count(optarg, SIZE_MAX, &count) != 1 || count == 0)
        return tool_usage_error("bench", "--n '%s': a whole number of elements above 0", optarg);
      a->single_n = (size_t)count;
      break;
    case OPS:
      if (!parse_list(optarg, MAX_LIST, &a->op_count, one_op, a->ops))
        return tool_usage_error("bench", "--ops '%s': operator names separated by commas",
                                optarg);
      break;
    case TYPES:
      if (!parse_list(optarg, MAX_LIST, &a->type_count, one_type, a->types))
        return tool_usage_error("bench", "--types '%s': i32, u32, i64, u64, f32, f64, f16, bf16, "
                                         "separated by commas", optarg);
      break;
    case PATHS:
      if (!parse_list(optarg, 8, &a->path_count, one_path, a->paths))
        return tool_usage_error("bench", "--paths '%s': at most 8 paths", optarg);
      break;
    case SEGMENTS:
      if (!strcmp(optarg, "sweep")) {
        a->segment_length_count = 0;
        for (int e = 0; e <= 16; e++)
          a->segment_lengths[a->segment_length_count++] = (size_t)1 << e;
        a->segment_lengths[a->segment_length_count++] = 3;
        /* Lengths off the powers of two: 33, 101 and 4097 are not whole 16-byte vectors. */
        static const size_t ragged[] = {33, 101, 1000, 4097};
        for (size_t k = 0; k < sizeof ragged / sizeof ragged[0]; k++)
          a->segment_lengths[a->segment_length_count++] = ragged[k];
      } else if (!parse_list(optarg, 64, &a->segment_length_count, one_length,
                             a->segment_lengths)) {
        return tool_usage_error("bench", "--segments '%s': sweep, or lengths above 0 separated "
                                         "by commas", optarg);
      }
      break;
    case REPS:
      if (!tool_parse_int(optarg, 1, 1000000, &a->reps))
        return tool_usage_error("bench", "--reps '%s': a whole number from 1", optarg);
      break;
    case WARMUP:
      if (!tool_parse_int(optarg, 0, 1000, &a->warmup))
        return tool_usage_error("bench", "--warmup '%s': a whole number from 0", optarg);
      break;
    case CSV: a->csv = optarg; break;
    case JSON: a->json = optarg; break;
    case SVG: a->svg = optarg; break;
    case DEVICES: a->devices = optarg; break;
    case SHAPE: a->shape = optarg; break;
    case AXES: a->axes = optarg; break;
    case 'd':
      tool_select_device(optarg);
      a->device_given = 1;
      break;
    case 'h': usage(); return 0;
    default: return tool_option_error("bench", argv, c);
    }
  }
  if (optind < argc)
    return tool_usage_error("bench", "unexpected argument '%s'", argv[optind]);
  if (a->devices && !a->device_given) {
    /* The group's competitor is its first device alone (unless -d names another). */
    char first[64];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(a->devices, ","), a->devices);
    tool_select_device(first);
  }
  return -1;
}

/* The output files, opened before anything is measured: a path that cannot be written fails in
 * a second, not after the benchmark. */
typedef struct bench_outputs {
  FILE *csv, *json, *svg;
} bench_outputs;

static void close_outputs(bench_outputs *o) {
  FILE *files[] = {o->csv, o->json, o->svg};
  for (int i = 0; i < 3; i++)
    if (files[i])
      fclose(files[i]);
  memset(o, 0, sizeof *o);
}

static int open_outputs(const bench_args *a, bench_outputs *o) {
  memset(o, 0, sizeof *o);
  const char *paths[] = {a->csv, a->json, a->svg};
  FILE **files[] = {&o->csv, &o->json, &o->svg};
  for (int i = 0; i < 3; i++) {
    if (!paths[i])
      continue;
    *files[i] = fopen(paths[i], "w");
    if (!*files[i]) {
      fprintf(stderr, "ocl-reduce bench: cannot write %s: %s\n", paths[i], strerror(errno));
      close_outputs(o);
      return 0;
    }
  }
  return 1;
}

/* Small integers: every order of combining gives the same bits, so contenders must agree. ARGMIN
 * and ARGMAX find one extreme two thirds of the way in (the others' values repeat). */
static void fill(void *data, size_t n, ocl_reduce_op op, ocl_reduce_type type) {
  for (size_t i = 0; i < n; i++) {
    long long v = (long long)((i * 2654435761u) % 17) - 8;
    if (op == OCL_REDUCE_PROD)
      v = (i % 7 == 0) ? -1 : 1;
    if ((op == OCL_REDUCE_ARGMIN || op == OCL_REDUCE_ARGMAX) && i == n / 3 * 2)
      v = op == OCL_REDUCE_ARGMIN ? -9 : 9;
    tool_store_integer(type, data, i, v);
  }
}

/* Whether two contenders' results agree: the same bytes, but for MEAN_VAR's mean and M2, which
 * depend on the order of combining (the same count, and 1e-9 relative). */
static int same_results(const bench_case *bc, const unsigned char *a, const unsigned char *b,
                        size_t count) {
  if (bc->op != OCL_REDUCE_MEAN_VAR)
    return memcmp(a, b, count * ocl_reduce_result_size(bc->op, bc->type)) == 0;
  for (size_t i = 0; i < count; i++) {
    ocl_reduce_moments x, y;
    memcpy(&x, a + i * sizeof x, sizeof x);
    memcpy(&y, b + i * sizeof y, sizeof y);
    const double scale = 1 + (x.m2 < 0 ? -x.m2 : x.m2) + (x.mean < 0 ? -x.mean : x.mean);
    const double dm = x.mean - y.mean, d2 = x.m2 - y.m2;
    if (x.count != y.count || (dm < 0 ? -dm : dm) > 1e-9 * scale ||
        (d2 < 0 ? -d2 : d2) > 1e-9 * scale)
      return 0;
  }
  return 1;
}

/* The median, the fastest and the 90th percentile (nearest rank) of n > 0 values (sorted). */
static bench_spread spread_of(double *values, size_t n) {
  bench_spread s;
  s.median_s = tool_median(values, n);
  s.min_s = values[0];
  s.p90_s = values[(9 * n + 9) / 10 - 1];
  return s;
}

/* Calls before a block's timed ones (bench_settle: at least one; on CPU devices until the
 * contender runs within 1.1x its fastest call of the case so far, at most `most`). */
typedef struct bench_settle {
  int most;
  double best_e2e, best_device; /* the fastest calls so far, seconds */
} bench_settle;

/* Keeps *best the fastest call so far. */
static void note_fastest(double *best, double seconds) {
  if (seconds < *best)
    *best = seconds;
}

/* Whether the untimed calls may stop after one of `seconds`; notes it as note_fastest does. */
static int settled(const bench_settle *settle, double *best, double seconds) {
  const int done = settle->most <= 1 || seconds <= 1.1 * *best;
  note_fastest(best, seconds);
  return done;
}

enum { BLOCK = 5 };

/* A contender's block of end-to-end calls: untimed ones until it settles, then BLOCK timed ones
 * into samples[*taken ...] (where `timed`, up to reps). Returns 0 on failure. */
static int end_to_end_block(contender *c, const bench_case *bc, void *answer, int timed,
                            bench_settle *settle, bench_sample *samples, int *taken, int reps) {
  bench_sample s;
  for (int untimed = 0; untimed < settle->most; untimed++) {
    if (!c->ops->run(c, bc, &s, answer))
      return 0;
    if (settled(settle, &settle->best_e2e, s.end_to_end_s))
      break;
  }
  for (int call = 0; call < BLOCK; call++) {
    if (!c->ops->run(c, bc, &s, answer))
      return 0;
    note_fastest(&settle->best_e2e, s.end_to_end_s);
    if (timed && *taken < reps)
      samples[(*taken)++] = s;
  }
  return 1;
}

/* Its block of device-timed calls, likewise, into the device times of samples[first, taken). */
static int device_block(contender *c, const bench_case *bc, void *answer, bench_settle *settle,
                        bench_sample *samples, int first, int taken) {
  double device_s = 0;
  for (int untimed = 0; untimed < settle->most; untimed++) {
    if (!c->ops->run_device(c, bc, &device_s, answer))
      return 0;
    if (settled(settle, &settle->best_device, device_s))
      break;
  }
  for (int call = 0, i = first; call < BLOCK; call++) {
    if (!c->ops->run_device(c, bc, &device_s, answer))
      return 0;
    note_fastest(&settle->best_device, device_s);
    if (i < taken)
      samples[i++].device_s = device_s;
  }
  return 1;
}

/* Times every contender on one case; results[k] gets contender k's spreads (a negative median
 * when the contender did not take the case). Returns 0 on failure. */
static int measure(contender *cs, int count, const bench_case *bc, int reps, int warmup,
                   int cpu, bench_result *results) {
  int taken[MAX_CONTENDERS] = {0}, active[MAX_CONTENDERS] = {0};
  bench_sample *samples[MAX_CONTENDERS] = {0};
  bench_settle settle[MAX_CONTENDERS];
  for (int k = 0; k < count; k++)
    settle[k] = (bench_settle){cpu ? 10 : 1, INFINITY, INFINITY};
  unsigned char *answer[MAX_CONTENDERS] = {0};
  const size_t result_count = bc->segment_length ? bc->segment_count : 1;
  const size_t answer_bytes = result_count * ocl_reduce_result_size(bc->op, bc->type);
  int ok = 1, reference = -1;
  for (int k = 0; k < count; k++) {
    char why[256] = "";
    results[k].device.median_s = results[k].end_to_end.median_s = -1;
    active[k] = cs[k].ops->prepare(&cs[k], bc, why, sizeof why);
    if (!active[k])
      fprintf(stderr, "    %s: skipped (%s)\n", cs[k].name, why);
    else if (!(samples[k] = calloc((size_t)reps, sizeof(bench_sample))) ||
             !(answer[k] = calloc(1, answer_bytes + 8)))
      ok = 0;
  }
  for (int round = -warmup, busy = 1; ok && busy; round++) {
    busy = 0;
    for (int j = 0; ok && j < count; j++) {
      const int k = (round + warmup + j) % count; /* rotating order */
      /* A block of end-to-end calls, then (contenders that time the device apart) a block of
       * device-timed calls into the same samples; each block starts with untimed calls until
       * the contender's speed settles (the header says why). */
      const int first = taken[k];
      if (active[k])
        ok = end_to_end_block(&cs[k], bc, answer[k], round >= 0, &settle[k], samples[k],
                              &taken[k], reps);
      if (ok && active[k] && cs[k].ops->run_device)
        ok = device_block(&cs[k], bc, answer[k], &settle[k], samples[k], first, taken[k]);
      if (active[k] && cs[k].ops->rest)
        cs[k].ops->rest(&cs[k]);
      busy |= active[k] && taken[k] < reps;
    }
  }
  for (int k = 0; ok && k < count; k++) {
    if (!active[k])
      continue;
    if (reference < 0)
      reference = k;
    if (!same_results(bc, answer[k], answer[reference], result_count)) {
      fprintf(stderr, "ocl-reduce: results differ: '%s' and '%s' disagree on the same input\n",
              cs[reference].name, cs[k].name);
      ok = 0;
    }
    double device[1024], e2e[1024];
    int m = taken[k] < 1024 ? taken[k] : 1024;
    for (int i = 0; i < m; i++) {
      device[i] = samples[k][i].device_s;
      e2e[i] = samples[k][i].end_to_end_s;
    }
    results[k].device = spread_of(device, (size_t)m);
    results[k].end_to_end = spread_of(e2e, (size_t)m);
  }
  for (int k = 0; k < count; k++) {
    if (active[k])
      cs[k].ops->unprepare(&cs[k]);
    free(samples[k]);
    free(answer[k]);
  }
  return ok;
}

/* --shape and --axes: one view along axes (bench_axes.c). */
static int bench_view(const bench_args *a) {
  ocl_reduce_shape shape;
  uint32_t axes = 0;
  int done = tool_parse_shape("bench", a->shape, &shape);
  if (done < 0)
    done = tool_parse_axes("bench", a->axes, shape.rank, &axes);
  if (done >= 0)
    return done;
  const ocl_reduce_type type = a->types[0];
  if (type != OCL_REDUCE_I32 && type != OCL_REDUCE_F32 && type != OCL_REDUCE_F64)
    return tool_usage_error("bench", "--shape: i32, f32 or f64 (--types)");
  char name[160];
  snprintf(name, sizeof name, "%s %s --axes %s", ocl_reduce_type_name(type), a->shape,
           a->axes ? a->axes : "(all)");
  return bench_axes_view(name, &shape, axes, type, a->reps ? a->reps : 20);
}

int cmd_bench(int argc, char **argv) {
  bench_args a;
  const int parsed = parse(argc, argv, &a);
  if (parsed >= 0)
    return parsed;
  if (a.shape)
    return bench_view(&a);
  if (a.axes)
    return tool_usage_error("bench", "--axes needs --shape");
  bench_outputs outputs;
  if (!open_outputs(&a, &outputs))
    return 1;
  contender cs[MAX_CONTENDERS];
  int count = 0, rc = 1;
  char why[512];
  for (int p = 0; p < a.path_count; p++) {
    const ocl_reduce_status made = contender_ocl_reduce(&cs[count], a.paths[p], why, sizeof why);
    /* A path or backend this device lacks is skipped: the others still compare. */
    if (made == OCL_REDUCE_ERROR_PATH_UNSUPPORTED ||
        made == OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE) {
      fprintf(stderr, "ocl-reduce bench: path %s skipped: the device cannot take it (%s)\n",
              a.paths[p], why);
      continue;
    }
    if (made != OCL_REDUCE_OK) {
      fprintf(stderr, "ocl-reduce bench: path %s: %s\n", a.paths[p], why);
      for (int k = 0; k < count; k++)
        cs[k].ops->destroy(&cs[k]);
      close_outputs(&outputs);
      return 1;
    }
    count++;
  }
  if (count == 0) {
    fprintf(stderr, "ocl-reduce bench: the device takes none of the paths asked for\n");
    close_outputs(&outputs);
    return 1;
  }
  /* The device, from the first contender's context. */
  ocl_reduce_context *probe = NULL;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  if (ocl_reduce_context_create(NULL, &probe) != OCL_REDUCE_OK ||
      ocl_reduce_context_query(probe, &info) != OCL_REDUCE_OK) {
    fprintf(stderr, "ocl-reduce: %s\n", ocl_reduce_last_error(NULL));
    ocl_reduce_context_destroy(probe);
    goto done;
  }
  const int cpu = info.device_type == OCL_REDUCE_DEVICE_CPU;
  if (cpu && !a.no_openmp) {
    contender_openmp(&cs[count++], 0);
    contender_openmp(&cs[count++], 1);
  }
  if (!a.no_cub) {
    /* CUB only competes on the device being measured: an NVIDIA GPU. */
    if (!cpu && (strstr(info.platform_name, "NVIDIA") || info.backend == OCL_REDUCE_BACKEND_CUDA)) {
      if (contender_cub(&cs[count], why, sizeof why))
        count++;
      else
        fprintf(stderr, "ocl-reduce: CUB unavailable: %s\n", why);
    } else {
      fprintf(stderr, "ocl-reduce: CUB not run: %s is not an NVIDIA GPU\n", info.device_name);
    }
  }
  if (a.devices) {
    /* The group is ours here; the paths on one device are what it is measured against. */
    for (int k = 0; k < count; k++)
      cs[k].is_ocl_reduce = 0;
    for (int from_host = 0; from_host < 3; from_host++) {
      if (!contender_group(&cs[count], a.devices, from_host, why, sizeof why)) {
        fprintf(stderr, "ocl-reduce bench: --devices %s: %s\n", a.devices, why);
        goto done;
      }
      count++;
    }
  }
  if (a.opencl_baseline) {
    if (contender_opencl_baseline(&cs[count], why, sizeof why))
      count++;
    else
      fprintf(stderr, "ocl-reduce: the OpenCL baseline cannot run: %s\n", why);
  }
  fprintf(stderr, "measuring the device's copy bandwidth...\n");
  double copy = bench_copy_bandwidth(probe);
  char device[600];
  snprintf(device, sizeof device, "%u:%u %s / %s", info.platform_index, info.device_index,
           info.platform_name, info.device_name);

  /* Sizes: capped by the device's largest allocation (two buffers of each case live at once) and
   * by host memory (two host copies plus the contenders' own). */
  size_t sizes[64];
  int size_count = 0;
  if (a.segment_length_count) {
    /* One element count, cut into segments of each length (cases below). */
    sizes[size_count++] = a.single_n ? a.single_n : (size_t)1 << (cpu ? 24 : 26);
  } else if (a.single_n) {
    sizes[size_count++] = a.single_n;
  } else {
    int hi = a.log2_max ? a.log2_max : (cpu ? 26 : 28);
    if (a.quick)
      hi = a.log2_min + 2 * a.log2_step;
    for (int e = a.log2_min; e <= hi && size_count < 64; e += a.log2_step)
      sizes[size_count++] = (size_t)1 << e;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const double host_bytes = (double)pages * (double)page;

  bench_case cases[512];
  bench_result results[512 * MAX_CONTENDERS];
  int case_count = 0, result_count = 0;
  /* Whole-array cases are one per size; segmented cases one per segment length. */
  const int shapes = a.segment_length_count ? a.segment_length_count : size_count;
  const int total = a.op_count * a.type_count * shapes;
  for (int o = 0; o < a.op_count; o++)
    for (int t = 0; t < a.type_count; t++)
      for (int s = 0; s < shapes && case_count < 512; s++) {
        bench_case *bc = &cases[case_count];
        memset(bc, 0, sizeof *bc);
        bc->op = a.ops[o];
        bc->type = a.types[t];
        bc->n = a.segment_length_count ? sizes[0] : sizes[s];
        if (a.segment_length_count) {
          bc->segment_length = a.segment_lengths[s];
          bc->segment_count = bc->n / bc->segment_length;
          bc->n = bc->segment_count * bc->segment_length;
          if (!bc->n)
            continue;
        }
        const size_t bytes = bc->n * ocl_reduce_type_size(bc->type);
        if ((info.max_alloc_bytes && bytes > info.max_alloc_bytes) ||
            (double)bytes * 6 > host_bytes) {
          fprintf(stderr, "[%d/%d] %s %s n=%zu: skipped, larger than the memory allows\n",
                  case_count + 1, total, ocl_reduce_op_name(bc->op),
                  ocl_reduce_type_name(bc->type), bc->n);
          continue;
        }
        if (bc->type == OCL_REDUCE_F64 && !info.has_fp64)
          continue;
        void *host = malloc(bytes), *huge = alloc_huge_pages(bytes);
        if (!host || !huge) {
          free(host);
          free(huge);
          fprintf(stderr, "ocl-reduce: out of host memory\n");
          goto done;
        }
        fill(host, bc->n, bc->op, bc->type);
        memcpy(huge, host, bytes);
        bc->host = host;
        bc->host_huge = huge;
        int reps = a.reps ? a.reps : (a.quick ? 5 : bc->n > ((size_t)1 << 22) ? 30 : 100);
        if (bc->segment_length)
          fprintf(stderr, "[%d/%d] %s %s n=%zu in segments of %zu, %d calls per contender\n",
                  case_count + 1, total, ocl_reduce_op_name(bc->op),
                  ocl_reduce_type_name(bc->type), bc->n, bc->segment_length, reps);
        else
          fprintf(stderr, "[%d/%d] %s %s n=%zu, %d calls per contender\n", case_count + 1, total,
                  ocl_reduce_op_name(bc->op), ocl_reduce_type_name(bc->type), bc->n, reps);
        bench_result here[MAX_CONTENDERS];
        int ok = measure(cs, count, bc, reps, a.quick ? 1 : a.warmup, cpu, here);
        free(host);
        free(huge);
        bc->host = bc->host_huge = NULL;
        if (!ok)
          goto done;
        for (int k = 0; k < count; k++)
          if (here[k].device.median_s >= 0)
            results[result_count++] = (bench_result){bc, k, here[k].device, here[k].end_to_end};
        case_count++;
      }

  bench_report report = {device, copy, cs, count, results, result_count};
  report_table(&report);
  rc = 0;
  /* Each report closes its file. */
  if (outputs.csv && !report_csv(&report, outputs.csv))
    rc = fprintf(stderr, "ocl-reduce bench: writing %s failed\n", a.csv) > 0;
  if (outputs.json && !report_json(&report, outputs.json))
    rc = fprintf(stderr, "ocl-reduce bench: writing %s failed\n", a.json) > 0;
  if (outputs.svg && !report_svg(&report, outputs.svg))
    rc = fprintf(stderr, "ocl-reduce bench: writing %s failed\n", a.svg) > 0;
  memset(&outputs, 0, sizeof outputs);
done:
  close_outputs(&outputs);
  ocl_reduce_context_destroy(probe);
  for (int k = 0; k < count; k++)
    cs[k].ops->destroy(&cs[k]);
  return rc;
}
