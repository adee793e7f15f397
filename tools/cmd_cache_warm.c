/* =================================================================================================
 * cmd_cache_warm.c: `ocl-reduce cache warm`: builds into the program cache the programs that the
 * common calls on a device need, so that a process's first call loads instead of compiling (a
 * package's post-install step, a container image's build). It makes those calls, on a buffer of
 * zeros: whole arrays of several sizes (their plans differ) and segments short and long, for each
 * operator and type asked for; the device's programs are then in the cache of this user.
 * ============================================================================================== */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The shapes warmed: whole arrays (length 0) and segments of `length` over `count` elements. */
static const struct {
  size_t count, length;
} shapes[] = {{(size_t)1 << 10, 0}, {(size_t)1 << 16, 0}, {(size_t)1 << 20, 0},
              {(size_t)1 << 24, 0}, {(size_t)1 << 20, 32}, {(size_t)1 << 20, 4096}};
#define LARGEST ((size_t)1 << 24)

static const char DEFAULT_OPS[] = "sum,min,max,argmin,argmax";
static const char DEFAULT_TYPES[] = "i32,i64,f32,f64";

static void usage(void) {
  printf("usage: ocl-reduce cache warm [-d DEV] [--ops LIST] [--types LIST]\n"
         "Builds into the program cache the programs that whole arrays (2^10 to 2^24 elements)\n"
         "and segments (of 32 and 4096) need on the device, for each operator and type, so that\n"
         "a process's first call loads them instead of compiling.\n"
         "  -d, --device DEV  the device, as OCL_REDUCE_DEVICE\n"
         "  --ops LIST        operators, comma-separated (default %s)\n"
         "  --types LIST      types, comma-separated (default %s)\n",
         DEFAULT_OPS, DEFAULT_TYPES);
}

/* The names of `list` (comma-separated) as operators or types into out (*n of them); 0 with a
 * message naming an unknown one. */
static int parse_list(const char *list, int ops, int *out, size_t *n) {
  char copy[512];
  snprintf(copy, sizeof copy, "%s", list);
  *n = 0;
  for (char *save = NULL, *name = strtok_r(copy, ",", &save); name;
       name = strtok_r(NULL, ",", &save)) {
    int found = -1;
    const int count = ops ? OCL_REDUCE_BUILTIN_OPS : OCL_REDUCE_TYPE_COUNT;
    for (int i = 0; i < count && found < 0; i++)
      if (!strcmp(name, ops ? ocl_reduce_op_name(OCL_REDUCE_BUILTIN_OP(i))
                            : ocl_reduce_type_name((ocl_reduce_type)i)))
        found = i;
    if (found < 0 || *n == 32) {
      tool_usage_error("cache warm", "%s: '%s' is not %s", ops ? "--ops" : "--types", name,
                       ops ? "a built-in operator" : "i32, u32, i64, u64, f32 or f64");
      return 0;
    }
    out[(*n)++] = found;
  }
  return 1;
}

typedef struct warmed {
  uint64_t built, loaded, calls, skipped;
} warmed;

/* Runs one call of shape s, and prints and counts the programs it built and loaded. 0 after a
 * failure (reported), 1 otherwise. */
static int warm_one(ocl_reduce_context *ctx, ocl_reduce_buffer *zeros, ocl_reduce_buffer *out,
                    ocl_reduce_op op, ocl_reduce_type type, size_t s, warmed *w) {
  ocl_reduce_context_info before = OCL_REDUCE_CONTEXT_INFO_INIT, after = before;
  ocl_reduce_context_query(ctx, &before);
  const double start = tool_now();
  const size_t count = shapes[s].count, length = shapes[s].length;
  ocl_reduce_status st =
      length ? ocl_reduce_segments(ctx, op, type, ocl_reduce_buffer_input(zeros, 0), count / length,
                                   length, ocl_reduce_buffer_output(out, 0))
             : ocl_reduce_into(ctx, op, type, ocl_reduce_buffer_input(zeros, 0), count,
                               ocl_reduce_buffer_output(out, 0));
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_finish(ctx);
  char shape[64];
  if (length)
    snprintf(shape, sizeof shape, "segments of %zu", length);
  else
    snprintf(shape, sizeof shape, "%zu elements", count);
  printf("  %-7s %-4s %-18s", ocl_reduce_op_name(op), ocl_reduce_type_name(type), shape);
  if (st == OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION || st == OCL_REDUCE_ERROR_NO_FP64) {
    printf(" skipped: %s\n", ocl_reduce_status_name(st));
    w->skipped++;
    return 1;
  }
  if (st != OCL_REDUCE_OK) {
    printf(" failed\n");
    tool_fail("warming the program cache", st, ctx);
    return 0;
  }
  ocl_reduce_context_query(ctx, &after);
  const uint64_t built = after.kernel_builds - before.kernel_builds;
  const uint64_t loaded = after.programs_from_disk - before.programs_from_disk;
  printf(" %" PRIu64 " built, %" PRIu64 " already cached (%.2f s)\n", built - loaded, loaded,
         tool_now() - start);
  fflush(stdout);
  w->built += built - loaded;
  w->loaded += loaded;
  w->calls++;
  return 1;
}

/* Every operator and type over every shape; 0 after a failure. */
static int warm_all(ocl_reduce_context *ctx, const int *ops, size_t op_count, const int *types,
                    size_t type_count, warmed *w) {
  ocl_reduce_buffer *zeros = NULL, *out = NULL;
  const size_t largest = LARGEST * sizeof(double);
  void *host = calloc(1, largest);
  ocl_reduce_status st = host ? ocl_reduce_buffer_create(ctx, largest, &zeros)
                              : OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
  if (st == OCL_REDUCE_OK)
    st = ocl_reduce_buffer_write(zeros, 0, host, largest);
  if (st == OCL_REDUCE_OK) /* room for the most results: segments of 32, 16 bytes each */
    st = ocl_reduce_buffer_create(ctx, (LARGEST / 32) * 16, &out);
  free(host);
  int ok = st == OCL_REDUCE_OK || (tool_fail("making the buffers", st, ctx), 0);
  for (size_t o = 0; ok && o < op_count; o++)
    for (size_t t = 0; ok && t < type_count; t++)
      for (size_t s = 0; ok && s < sizeof shapes / sizeof *shapes; s++)
        ok = warm_one(ctx, zeros, out, OCL_REDUCE_BUILTIN_OP(ops[o]), (ocl_reduce_type)types[t],
                      s, w);
  ocl_reduce_buffer_destroy(zeros);
  ocl_reduce_buffer_destroy(out);
  return ok;
}

int cmd_cache_warm(int argc, char **argv) {
  static const struct option longs[] = {{"device", required_argument, NULL, 'd'},
                                        {"ops", required_argument, NULL, 'o'},
                                        {"types", required_argument, NULL, 't'},
                                        {"help", no_argument, NULL, 'h'},
                                        {NULL, 0, NULL, 0}};
  const char *op_list = DEFAULT_OPS, *type_list = DEFAULT_TYPES;
  optind = 1;
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":d:h", longs, NULL)) != -1;) {
    switch (c) {
    case 'd': tool_select_device(optarg); break;
    case 'o': op_list = optarg; break;
    case 't': type_list = optarg; break;
    case 'h': usage(); return 0;
    default: return tool_option_error("cache warm", argv, c);
    }
  }
  if (optind < argc)
    return tool_usage_error("cache warm", "unexpected argument '%s'", argv[optind]);
  int ops[32], types[32];
  size_t op_count = 0, type_count = 0;
  if (!parse_list(op_list, 1, ops, &op_count) || !parse_list(type_list, 0, types, &type_count))
    return 2;
  ocl_reduce_cache_info cache = OCL_REDUCE_CACHE_INFO_INIT;
  ocl_reduce_status st = ocl_reduce_cache_query(NULL, &cache);
  if (st != OCL_REDUCE_OK)
    return tool_fail("reading the program cache's settings", st, NULL);
  if (!cache.dir[0] || cache.unused_because[0]) {
    fprintf(stderr, "ocl-reduce cache warm: the program cache is %s%s%s\n",
            cache.dir[0] ? "not used: " : "off", cache.unused_because,
            cache.dir[0] ? "" : " (OCL_REDUCE_CACHE_DIR=off, or no HOME)");
    return 1;
  }
  ocl_reduce_context *ctx = NULL;
  if ((st = ocl_reduce_context_create(NULL, &ctx)) != OCL_REDUCE_OK)
    return tool_fail("creating a context", st, NULL);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  printf("warming %s for %s / %s (%s)\n", cache.dir, info.platform_name, info.device_name,
         info.backend_name);
  warmed w = {0};
  const double start = tool_now();
  const int ok = warm_all(ctx, ops, op_count, types, type_count, &w);
  ocl_reduce_context_destroy(ctx);
  printf("%" PRIu64 " calls: %" PRIu64 " programs built, %" PRIu64 " already cached, %" PRIu64
         " skipped, in %.1f s\n",
         w.calls, w.built, w.loaded, w.skipped, tool_now() - start);
  return ok ? 0 : 1;
}
