/* =================================================================================================
 * bench_ordered.c: the price of keeping order. Each order-preserving test operator
 * (support/ordered_ops.h: 2x2 u32 matrix products, f64 affine maps, 16-state transition tables)
 * reduces the same device-resident data twice per round, once as declared (commutative == 0: runs
 * per work-item, read through the local-memory stage on GPUs) and once declared commutative (the
 * library's fastest layout; the result is then in some other order), in alternation on one
 * profiling context, and prints the median device times, the bandwidth and their ratio. The
 * ordered result is checked against the host's fold.
 *
 *   bench_ordered [COUNT [ROUNDS]]   (default 2^26 elements, 20 rounds; the device and backend
 *                                     from OCL_REDUCE_DEVICE and OCL_REDUCE_BACKEND)
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/ordered_ops.h"
#include "support/reference.h"

static int fail(const char *what, ocl_reduce_status s, const ocl_reduce_context *ctx) {
  fprintf(stderr, "bench_ordered: %s: %s (%s)\n", what, ocl_reduce_status_name(s),
          ocl_reduce_last_error(ctx));
  return 1;
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One operator: ordered and commutative timings; 0 on success. */
static int bench_one(ocl_reduce_context *ctx, test_ordered w, size_t n, int rounds) {
  const ocl_reduce_operator_desc *d = &test_ordered_descs[w];
  ocl_reduce_operator_desc commutative = *d;
  commutative.commutative = 1;
  ocl_reduce_operator *ops[2] = {NULL, NULL};
  ocl_reduce_status s = ocl_reduce_operator_create(d, &ops[0]);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_operator_create(&commutative, &ops[1]);
  if (s != OCL_REDUCE_OK)
    return fail(test_ordered_names[w], s, ctx);
  void *data = malloc(n * d->element_size);
  double *times = malloc(2 * (size_t)rounds * sizeof *times);
  ocl_reduce_buffer *in = NULL;
  if (!data || !times)
    return fail("out of host memory", OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, NULL);
  test_ordered_fill(w, data, n);
  s = ocl_reduce_buffer_create(ctx, n * d->element_size, &in);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_write(in, 0, data, n * d->element_size);
  unsigned char result[64];
  int bad = s != OCL_REDUCE_OK ? fail("upload", s, ctx) : 0;
  for (int r = -2; r < rounds && !bad; r++) /* two rounds of warm-up */
    for (int k = 0; k < 2 && !bad; k++) {
      uint64_t ns = 0;
      s = ocl_reduce_into(ctx, ops[k], OCL_REDUCE_OP_ELEMENT, ocl_reduce_buffer_input(in, 0), n,
                          ocl_reduce_host_output(result, sizeof result));
      if (s == OCL_REDUCE_OK)
        s = ocl_reduce_last_kernel_ns(ctx, &ns);
      if (s != OCL_REDUCE_OK)
        bad = fail(test_ordered_names[w], s, ctx);
      else if (k == 0 && r == -2 && !test_ordered_matches(w, data, n, result))
        bad = fail(test_ordered_names[w], OCL_REDUCE_ERROR_INTERNAL, ctx);
      else if (r >= 0)
        times[k * rounds + r] = 1e-9 * (double)ns;
    }
  if (!bad) {
    qsort(times, (size_t)rounds, sizeof *times, compare_doubles);
    qsort(times + rounds, (size_t)rounds, sizeof *times, compare_doubles);
    const double ordered = times[rounds / 2], unordered = times[rounds + rounds / 2];
    const double bytes = (double)n * (double)d->element_size;
    printf("%-8s %3zu B  ordered %9.1f us %8.1f GB/s   commutative %9.1f us %8.1f GB/s   "
           "ratio %.3f\n",
           test_ordered_names[w], d->element_size, 1e6 * ordered, bytes / ordered / 1e9,
           1e6 * unordered, bytes / unordered / 1e9, unordered / ordered);
  }
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_operator_destroy(ops[0]);
  ocl_reduce_operator_destroy(ops[1]);
  free(data);
  free(times);
  return bad;
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : (size_t)1 << 26;
  const int rounds = argc > 2 ? atoi(argv[2]) : 20;
  if (n == 0 || rounds < 1) {
    fprintf(stderr, "usage: bench_ordered [COUNT [ROUNDS]]\n");
    return 2;
  }
  test_rng_init();
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.profiling = 1;
  ocl_reduce_context *ctx = NULL;
  const ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  if (s != OCL_REDUCE_OK)
    return fail("context", s, NULL);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  printf("device %s (%s), %zu elements, medians of %d rounds; ratio = ordered throughput / "
         "commutative throughput\n",
         info.device_name, info.backend_name, n, rounds);
  int bad = 0;
  for (int w = 0; w < TEST_ORDERED_COUNT; w++)
    bad |= bench_one(ctx, (test_ordered)w, n, rounds);
  ocl_reduce_context_destroy(ctx);
  return bad;
}
