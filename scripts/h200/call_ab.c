/* =================================================================================================
 * call_ab.c: two builds of the library in one process, a 2^10 f32 sum from a buffer into host
 * memory timed on each in alternating batches (scripts/h200/trust.sh, step 2). Separate processes
 * differed by 1-3 % between runs of one build (frequency, placement); in one pinned process the
 * batch pairs see the same machine. Each build is dlopen'ed RTLD_LOCAL with its own context on
 * the device that OCL_REDUCE_DEVICE picks.
 *
 * Usage: call_ab <libA.so> <libB.so> <calls per batch> <batch pairs>
 * Prints the median of B's time over A's per batch pair, with quartiles, and each build's median
 * call and its entry alone (ocl_reduce_host_free of NULL: a context entered and left).
 * ============================================================================================== */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ocl_reduce.h"

enum { MAX_PAIRS = 1000, ELEMENTS = 1024 };

typedef struct build {
  const char *path;
  ocl_reduce_status (*context_create)(const ocl_reduce_options *, ocl_reduce_context **);
  ocl_reduce_status (*buffer_create)(ocl_reduce_context *, size_t, ocl_reduce_buffer **);
  ocl_reduce_status (*buffer_write)(ocl_reduce_buffer *, size_t, const void *, size_t);
  ocl_reduce_status (*reduce_into)(ocl_reduce_context *, ocl_reduce_op, ocl_reduce_type,
                                   ocl_reduce_input, size_t, ocl_reduce_output);
  ocl_reduce_status (*host_free)(ocl_reduce_context *, void *);
  ocl_reduce_context *ctx;
  ocl_reduce_buffer *input;
} build;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void *symbol(void *library, const char *path, const char *name) {
  void *address = dlsym(library, name);
  if (!address) {
    fprintf(stderr, "call_ab: %s has no %s\n", path, name);
    exit(1);
  }
  return address;
}

static void load(build *b, const char *path) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    fprintf(stderr, "call_ab: %s\n", dlerror());
    exit(1);
  }
  b->path = path;
  *(void **)&b->context_create = symbol(library, path, "ocl_reduce_context_create");
  *(void **)&b->buffer_create = symbol(library, path, "ocl_reduce_buffer_create");
  *(void **)&b->buffer_write = symbol(library, path, "ocl_reduce_buffer_write");
  *(void **)&b->reduce_into = symbol(library, path, "ocl_reduce_into");
  *(void **)&b->host_free = symbol(library, path, "ocl_reduce_host_free");
  static float x[ELEMENTS];
  for (int i = 0; i < ELEMENTS; i++)
    x[i] = (float)(i % 5);
  if (b->context_create(NULL, &b->ctx) || b->buffer_create(b->ctx, sizeof x, &b->input) ||
      b->buffer_write(b->input, 0, x, sizeof x)) {
    fprintf(stderr, "call_ab: %s: no context or buffer\n", path);
    exit(1);
  }
}

/* ns per call of `calls` sums (or entries alone). */
static double batch(const build *b, int calls, int entry_only) {
  float sum = 0;
  const double start = now_ns();
  for (int i = 0; i < calls; i++) {
    if (entry_only)
      b->host_free(b->ctx, NULL);
    else
      b->reduce_into(b->ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(b->input, 0),
                     ELEMENTS, ocl_reduce_host_output(&sum, sizeof sum));
  }
  return (now_ns() - start) / calls;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: call_ab <libA.so> <libB.so> <calls per batch> <batch pairs>\n");
    return 2;
  }
  build a, b;
  load(&a, argv[1]);
  load(&b, argv[2]);
  const int calls = atoi(argv[3]), pairs = atoi(argv[4]);
  if (calls < 1 || pairs < 1 || pairs > MAX_PAIRS)
    return 2;
  for (int warm = 0; warm < 3; warm++)
    batch(&a, calls, 0), batch(&b, calls, 0);
  static double time_a[MAX_PAIRS], time_b[MAX_PAIRS], ratio[MAX_PAIRS], entry_a[MAX_PAIRS],
      entry_b[MAX_PAIRS];
  for (int p = 0; p < pairs; p++) {
    /* Either build first, in turn. */
    if (p & 1) {
      time_b[p] = batch(&b, calls, 0);
      time_a[p] = batch(&a, calls, 0);
    } else {
      time_a[p] = batch(&a, calls, 0);
      time_b[p] = batch(&b, calls, 0);
    }
    ratio[p] = time_b[p] / time_a[p];
    entry_a[p] = batch(&a, calls, 1);
    entry_b[p] = batch(&b, calls, 1);
  }
  qsort(time_a, pairs, sizeof *time_a, by_value);
  qsort(time_b, pairs, sizeof *time_b, by_value);
  qsort(ratio, pairs, sizeof *ratio, by_value);
  qsort(entry_a, pairs, sizeof *entry_a, by_value);
  qsort(entry_b, pairs, sizeof *entry_b, by_value);
  printf("B/A %.4f (quartiles %.4f-%.4f); A %.1f ns, B %.1f ns a call; entry alone A %.1f ns, "
         "B %.1f ns\n",
         ratio[pairs / 2], ratio[pairs / 4], ratio[3 * pairs / 4], time_a[pairs / 2],
         time_b[pairs / 2], entry_a[pairs / 2], entry_b[pairs / 2]);
  return 0;
}
