/* =================================================================================================
 * test_mpi.c: the MPI component (ocl_reduce_mpi.h), run under mpirun with several ranks (ctest
 * runs 4). One array, known to every rank (the same seed), is cut at random points into one part
 * per rank, empty parts included; each rank reduces its part and the results are checked on every
 * rank: against the host references of the whole array, and where the header promises the whole
 * array's bits (integers, MIN/MAX, the ARG operators, MINMAX, the reproducible sum), against the
 * rank's own reduction of the whole array. Reduce-to-root and all-reduce, user operators
 * (order-preserving ones in rank order), segments owned by ranks, results into buffers (the same
 * bytes as into host memory, nothing else of the buffer written), the cross_device sum for every
 * rank count (sub-communicators of 1 .. all ranks), errors that one rank makes, and a device
 * that fails on one rank (the library's injected faults, exec/fault_inject.h: every allocation,
 * copy, launch and wait of the call in turn).
 *
 * Not cmocka: a failed check on one rank must not leave the others waiting in a collective. Each
 * check counts its failures, and the ranks add them up at the end.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/fault_inject.h"
#include "ocl_reduce_mpi.h"
#include "support/custom_ops.h"
#include "support/ordered_ops.h"
#include "support/reference.h"
#include "support/structured.h"

#define MAX_ELEMENTS 40000
#define MAX_RESULT 64

static int rank, ranks, failures;
static ocl_reduce_context *ctx, *cross_ctx;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      failures++;                                                                                  \
      fprintf(stderr, "rank %d: FAILED %s:%d: ", rank, __FILE__, __LINE__);                        \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

/* One array cut into ranks' parts: rank r holds [begin[r], begin[r + 1]). The same on every
 * rank: the generator is seeded alike. */
static size_t begin[65];

static void cut(size_t n) {
  begin[0] = 0;
  for (int r = 1; r < ranks; r++) /* a quarter of the cuts repeat the last: empty parts */
    begin[r] = test_rng_below(4) == 0 ? begin[r - 1] : test_rng_below(n + 1);
  for (int r = 1; r < ranks; r++) /* sorted */
    for (int q = r; q > 1 && begin[q] < begin[q - 1]; q--) {
      const size_t t = begin[q];
      begin[q] = begin[q - 1];
      begin[q - 1] = t;
    }
  begin[ranks] = n;
}

static void check_builtin(ocl_reduce_op op, ocl_reduce_type type) {
  const size_t elem = ocl_reduce_type_size(type), n = test_rng_below(MAX_ELEMENTS);
  unsigned char *data = malloc((n + 1) * elem);
  test_fill(data, n, op, type, MODE_RANDOM);
  cut(n);
  const size_t first = begin[rank], count = begin[rank + 1] - first;
  /* Half the ranks from host memory, half from a buffer. */
  ocl_reduce_buffer *b = NULL;
  ocl_reduce_input in = ocl_reduce_host_input(data + first * elem, count * elem);
  if (rank % 2 && count) {
    ocl_reduce_buffer_create(ctx, count * elem, &b);
    ocl_reduce_buffer_write(b, 0, data + first * elem, count * elem);
    in = ocl_reduce_buffer_input(b, 0);
  }
  unsigned char whole[MAX_RESULT], got[2][MAX_RESULT];
  memset(got, 0xA5, sizeof got);
  const int root = ranks - 1;
  const ocl_reduce_status s0 = ocl_reduce_mpi_reduce(
      ctx, op, type, in, count, ocl_reduce_host_output(rank == root ? got[0] : NULL, MAX_RESULT),
      root, MPI_COMM_WORLD);
  const ocl_reduce_status s1 = ocl_reduce_mpi_allreduce(
      ctx, op, type, in, count, ocl_reduce_host_output(got[1], MAX_RESULT), MPI_COMM_WORLD);
  ocl_reduce_buffer_destroy(b);
  CHECK(s0 == OCL_REDUCE_OK && s1 == OCL_REDUCE_OK, "%s %s: %s", ocl_reduce_op_name(op),
        ocl_reduce_type_name(type), ocl_reduce_mpi_last_error());
  CHECK(ocl_reduce(ctx, op, type, data, n, whole, sizeof whole) == OCL_REDUCE_OK, "whole: %s",
        ocl_reduce_last_error(ctx));
  for (int k = rank == root ? 0 : 1; k < 2 && s0 == OCL_REDUCE_OK && s1 == OCL_REDUCE_OK; k++) {
    char why[256] = "";
    int ok = test_result_matches(got[k], data, n, op, type, why, sizeof why);
    if (ok && test_split_keeps_bits(op, type, MODE_RANDOM) &&
        memcmp(got[k], whole, ocl_reduce_result_size(op, type)) != 0)
      ok = 0, snprintf(why, sizeof why, "not the bits of the whole array's reduction");
    CHECK(ok, "%s %s, %zu elements, %s: %s", ocl_reduce_op_name(op), ocl_reduce_type_name(type), n,
          k ? "all-reduce" : "reduce to root", why);
  }
  free(data);
}

static void check_builtins(void) {
  static const struct {
    ocl_reduce_op op;
    ocl_reduce_type type;
  } cases[] = {{OCL_REDUCE_SUM, OCL_REDUCE_I32},
               {OCL_REDUCE_SUM, OCL_REDUCE_F32},
               {OCL_REDUCE_SUM, OCL_REDUCE_F64},
               {OCL_REDUCE_PROD, OCL_REDUCE_U64},
               {OCL_REDUCE_MIN, OCL_REDUCE_F32},
               {OCL_REDUCE_MAX, OCL_REDUCE_I64},
               {OCL_REDUCE_XOR, OCL_REDUCE_U32},
               {OCL_REDUCE_ARGMIN, OCL_REDUCE_F32},
               {OCL_REDUCE_ARGMAX, OCL_REDUCE_I32},
               {OCL_REDUCE_MINMAX, OCL_REDUCE_F64},
               {OCL_REDUCE_MEAN_VAR, OCL_REDUCE_F32},
               {OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F32},
               {OCL_REDUCE_SUM_COMPENSATED, OCL_REDUCE_F64},
               {OCL_REDUCE_SUM_WIDE, OCL_REDUCE_I32},
               /* 16-bit floats: f32 sums, their own MIN and MAX, ARGMIN's 16-bit value */
               {OCL_REDUCE_SUM, OCL_REDUCE_F16},
               {OCL_REDUCE_MAX, OCL_REDUCE_BF16},
               {OCL_REDUCE_ARGMIN, OCL_REDUCE_F16},
               {OCL_REDUCE_MINMAX, OCL_REDUCE_BF16},
               {OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_BF16}};
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    if (cases[k].type != OCL_REDUCE_F64 || info.has_fp64)
      check_builtin(cases[k].op, cases[k].type);
}

/* The user operators, all-reduced and in segments; order-preserving ones in rank order. */
static void check_user_operators(void) {
  for (int ordered = 0; ordered < 2; ordered++) {
    const int count = ordered ? TEST_ORDERED_COUNT : TEST_CUSTOM_COUNT;
    for (int w = 0; w < count; w++) {
      const ocl_reduce_operator_desc *d = ordered ? &test_ordered_descs[w] : &test_custom_descs[w];
      ocl_reduce_operator *op = NULL;
      /* Every rank's device is the same kind here: all make it or none. */
      if (ocl_reduce_operator_create(d, &op) != OCL_REDUCE_OK)
        continue;
      const size_t length = 1 + test_rng_below(50), n = length * test_rng_below(600);
      unsigned char *data = malloc((n + 1) * d->element_size);
      if (ordered)
        test_ordered_fill((test_ordered)w, data, n);
      else
        test_custom_fill((test_custom)w, data, n);
      cut(n / length); /* whole segments per rank; the whole reduction cuts the same */
      const size_t first = begin[rank] * length, mine = begin[rank + 1] * length - first;
      unsigned char got[MAX_RESULT], want[MAX_RESULT];
      const ocl_reduce_input in =
          ocl_reduce_host_input(data + first * d->element_size, mine * d->element_size);
      const ocl_reduce_status s =
          ocl_reduce_mpi_allreduce(ctx, op, OCL_REDUCE_OP_ELEMENT, in, mine,
                                   ocl_reduce_host_output(got, sizeof got), MPI_COMM_WORLD);
      CHECK(s == OCL_REDUCE_OK, "%s: %s", d->combine, ocl_reduce_mpi_last_error());
      if (!ordered)
        test_custom_reference((test_custom)w, data, n, want);
      CHECK(s != OCL_REDUCE_OK || (ordered ? test_ordered_matches((test_ordered)w, data, n, got)
                                           : !memcmp(got, want, d->state_size)),
            "%s, %zu elements: not the fold of the whole array", d->combine, n);
      unsigned char *results = malloc((n / length + 1) * d->state_size);
      const ocl_reduce_status ss = ocl_reduce_mpi_segments_allreduce(
          ctx, op, OCL_REDUCE_OP_ELEMENT, in, mine / length, length,
          ocl_reduce_host_output(results, (n / length) * d->state_size), MPI_COMM_WORLD);
      CHECK(ss == OCL_REDUCE_OK, "%s segments: %s", d->combine, ocl_reduce_mpi_last_error());
      for (size_t g = 0; ss == OCL_REDUCE_OK && g < n / length; g++) {
        const void *segment = data + g * length * d->element_size;
        const void *r = results + g * d->state_size;
        if (!ordered)
          test_custom_reference((test_custom)w, segment, length, want);
        CHECK(ordered ? test_ordered_matches((test_ordered)w, segment, length, r)
                      : !memcmp(r, want, d->state_size),
              "%s: segment %zu: not the fold of its elements", d->combine, g);
      }
      free(results);
      free(data);
      ocl_reduce_operator_destroy(op);
    }
  }
}

static void check_segments(void) {
  const size_t length = 1 + test_rng_below(100), n = length * test_rng_below(400);
  int32_t *data = malloc((n + 1) * sizeof *data);
  test_fill(data, n, OCL_REDUCE_SUM, OCL_REDUCE_I32, MODE_RANDOM);
  cut(n / length);
  const size_t first = begin[rank], mine = begin[rank + 1] - first;
  ocl_reduce_arg *results = malloc((n / length + 1) * sizeof *results);
  const ocl_reduce_status s = ocl_reduce_mpi_segments_allreduce(
      ctx, OCL_REDUCE_ARGMIN, OCL_REDUCE_I32,
      ocl_reduce_host_input(data + first * length, mine * length * sizeof *data), mine, length,
      ocl_reduce_host_output(results, (n / length) * sizeof *results), MPI_COMM_WORLD);
  CHECK(s == OCL_REDUCE_OK, "argmin segments: %s", ocl_reduce_mpi_last_error());
  for (size_t g = 0; s == OCL_REDUCE_OK && g < n / length; g++) {
    char why[256] = "";
    CHECK(test_structured_matches(&results[g], data + g * length, length, OCL_REDUCE_ARGMIN,
                                  OCL_REDUCE_I32, why, sizeof why),
          "argmin segment %zu of %zu: %s", g, n / length, why);
  }
  free(results);
  free(data);
}

/* Results into buffers, at an offset: the bytes that host memory gets, and no other byte of the
 * buffer written; a buffer too small on one rank is every rank's INVALID_ARGUMENT, naming that
 * rank, with every buffer untouched. */
enum { GUARD = 24 };
static int untouched(const unsigned char *bytes, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    if (bytes[i] != 0x5A)
      return 0;
  return 1;
}

static ocl_reduce_buffer *guarded_buffer(size_t bytes) {
  ocl_reduce_buffer *b = NULL;
  unsigned char *fill = malloc(bytes);
  memset(fill, 0x5A, bytes);
  if (ocl_reduce_buffer_create(ctx, bytes, &b) != OCL_REDUCE_OK ||
      ocl_reduce_buffer_write(b, 0, fill, bytes) != OCL_REDUCE_OK)
    CHECK(0, "a buffer of %zu bytes: %s", bytes, ocl_reduce_last_error(ctx));
  free(fill);
  return b;
}

static void check_buffer_results(void) {
  /* Whole arrays: all-reduce, and reduce to the last rank. */
  const size_t n = test_rng_below(MAX_ELEMENTS);
  int64_t *data = malloc((n + 1) * sizeof *data);
  test_fill(data, n, OCL_REDUCE_ARGMAX, OCL_REDUCE_I64, MODE_RANDOM);
  cut(n);
  const size_t first = begin[rank], count = begin[rank + 1] - first;
  const ocl_reduce_input in = ocl_reduce_host_input(data + first, count * sizeof *data);
  const size_t one = sizeof(ocl_reduce_arg), size = GUARD + one + GUARD;
  ocl_reduce_arg host;
  unsigned char got[GUARD + sizeof(ocl_reduce_arg) + GUARD];
  ocl_reduce_buffer *b = guarded_buffer(size);
  ocl_reduce_status s =
      ocl_reduce_mpi_allreduce(ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_I64, in, count,
                               ocl_reduce_host_output(&host, sizeof host), MPI_COMM_WORLD);
  CHECK(s == OCL_REDUCE_OK, "argmax into host memory: %s", ocl_reduce_mpi_last_error());
  s = ocl_reduce_mpi_allreduce(ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_I64, in, count,
                               ocl_reduce_buffer_output(b, GUARD), MPI_COMM_WORLD);
  CHECK(s == OCL_REDUCE_OK, "argmax into a buffer: %s", ocl_reduce_mpi_last_error());
  ocl_reduce_buffer_read(b, 0, got, size);
  CHECK(s != OCL_REDUCE_OK || (memcmp(got + GUARD, &host, one) == 0 && untouched(got, 0, GUARD) &&
                               untouched(got, GUARD + one, size)),
        "argmax of %zu elements into a buffer: not the host result's bytes, or bytes beside it "
        "written",
        n);
  ocl_reduce_buffer *to_root = guarded_buffer(size);
  const int root = ranks - 1;
  s = ocl_reduce_mpi_reduce(ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_I64, in, count,
                            rank == root ? ocl_reduce_buffer_output(to_root, GUARD)
                                         : ocl_reduce_host_output(NULL, 0),
                            root, MPI_COMM_WORLD);
  ocl_reduce_buffer_read(to_root, 0, got, size);
  CHECK(s == OCL_REDUCE_OK &&
            (rank == root ? memcmp(got + GUARD, &host, one) == 0 : untouched(got, 0, size)),
        "argmax into the root's buffer: %s", ocl_reduce_mpi_last_error());
  /* Too small on one rank: every rank is told which, and no buffer is written. */
  const int bad = ranks > 2 ? 2 : ranks - 1;
  s = ocl_reduce_mpi_allreduce(ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_I64, in, count,
                               ocl_reduce_buffer_output(b, rank == bad ? size - one + 1 : 0),
                               MPI_COMM_WORLD);
  char rank_text[64];
  snprintf(rank_text, sizeof rank_text, "rank %d: the result buffer holds %zu bytes", bad, one - 1);
  ocl_reduce_buffer_read(b, 0, got, size);
  CHECK(s == OCL_REDUCE_ERROR_INVALID_ARGUMENT && strstr(ocl_reduce_mpi_last_error(), rank_text) &&
            untouched(got, 0, GUARD) && untouched(got, GUARD + one, size),
        "a small result buffer on rank %d: %s, '%s'", bad, ocl_reduce_status_name(s),
        ocl_reduce_mpi_last_error());
  ocl_reduce_buffer_destroy(to_root);
  ocl_reduce_buffer_destroy(b);
  free(data);

  /* Segments: every rank gets all results into its buffer. */
  const size_t length = 1 + test_rng_below(50), segments = test_rng_below(300);
  float *values = malloc((length * segments + 1) * sizeof *values);
  test_fill(values, length * segments, OCL_REDUCE_MAX, OCL_REDUCE_F32, MODE_RANDOM);
  cut(segments);
  const size_t mine = begin[rank + 1] - begin[rank], bytes = segments * sizeof(float);
  const ocl_reduce_input part =
      ocl_reduce_host_input(values + begin[rank] * length, mine * length * sizeof *values);
  float *expected = malloc(bytes + 1);
  unsigned char *back = malloc(GUARD + bytes + GUARD);
  ocl_reduce_buffer *results = guarded_buffer(GUARD + bytes + GUARD);
  s = ocl_reduce_mpi_segments_allreduce(ctx, OCL_REDUCE_MAX, OCL_REDUCE_F32, part, mine, length,
                                        ocl_reduce_host_output(expected, bytes), MPI_COMM_WORLD);
  const ocl_reduce_status into_buffer =
      ocl_reduce_mpi_segments_allreduce(ctx, OCL_REDUCE_MAX, OCL_REDUCE_F32, part, mine, length,
                                        ocl_reduce_buffer_output(results, GUARD), MPI_COMM_WORLD);
  ocl_reduce_buffer_read(results, 0, back, GUARD + bytes + GUARD);
  CHECK(s == OCL_REDUCE_OK && into_buffer == OCL_REDUCE_OK &&
            memcmp(back + GUARD, expected, bytes) == 0 && untouched(back, 0, GUARD) &&
            untouched(back, GUARD + bytes, GUARD + bytes + GUARD),
        "max of %zu segments of %zu into a buffer: %s", segments, length,
        ocl_reduce_mpi_last_error());
  ocl_reduce_buffer_destroy(results);
  free(back);
  free(expected);
  free(values);
}

/* One call of the fault sweep: into a guarded buffer of `bytes` results at GUARD; `expected` holds
 * the results of the call without a fault. */
typedef ocl_reduce_status (*faulted_call)(ocl_reduce_buffer *results, const void *arg);

/* Every device operation of one rank's part of `call` fails in turn (kind by kind, the n-th
 * call of that kind from n = 1 until the call makes fewer): every rank returns the same error,
 * naming that rank, and that rank's buffer is untouched; once no fault strikes, every rank has
 * the results. A fault before the collective that one rank did not report would leave the
 * others waiting in it: the test would hang, and ctest's timeout fails it. */
static void sweep_device_faults(const char *what, faulted_call call, const void *arg,
                                const unsigned char *expected, size_t bytes,
                                unsigned sites[ORX_FAULT_KINDS]) {
  const int bad = ranks > 2 ? 2 : ranks - 1;
  const size_t size = GUARD + bytes + GUARD;
  unsigned char *got = malloc(size);
  ocl_reduce_buffer *results = guarded_buffer(size);
  static const char *const kinds[ORX_FAULT_KINDS] = {"allocation", "write", "read", "launch",
                                                     "wait"};
  memset(sites, 0, ORX_FAULT_KINDS * sizeof *sites);
  for (int kind = 0; kind < ORX_FAULT_KINDS; kind++) {
    for (uint64_t n = 1;; n++) {
      if (n == 256) {
        CHECK(0, "%s: still %s faults at 255: the sweep does not end", what, kinds[kind]);
        break;
      }
      memset(got, 0x5A, size); /* the guards' bytes in every byte the call may write */
      ocl_reduce_buffer_write(results, 0, got, size);
      if (rank == bad && orx_fault_arm(ctx, (orx_fault_kind)kind, n, NULL) != OCL_REDUCE_OK)
        CHECK(0, "no fault table for the context");
      const ocl_reduce_status s = call(results, arg);
      int struck = rank == bad && orx_fault_struck(ctx), any_struck = 0;
      if (rank == bad)
        orx_fault_arm(ctx, (orx_fault_kind)kind, 0, NULL);
      MPI_Allreduce(&struck, &any_struck, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      int lowest = (int)s, highest = (int)s;
      MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      MPI_Allreduce(MPI_IN_PLACE, &highest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      ocl_reduce_buffer_read(results, 0, got, size);
      if (!any_struck) { /* past the call's last operation of this kind */
        CHECK(s == OCL_REDUCE_OK && memcmp(got + GUARD, expected, bytes) == 0,
              "%s: no fault struck at %s %llu, and the call gave %s", what, kinds[kind],
              (unsigned long long)n, ocl_reduce_status_name(s));
        break;
      }
      sites[kind]++;
      char rank_text[32];
      snprintf(rank_text, sizeof rank_text, "rank %d", bad);
      CHECK(s != OCL_REDUCE_OK && lowest == highest &&
                strstr(ocl_reduce_mpi_last_error(), rank_text),
            "%s: %s %llu failed on rank %d, and this rank returned %s ('%s'; the ranks' statuses "
            "%d .. %d)",
            what, kinds[kind], (unsigned long long)n, bad, ocl_reduce_status_name(s),
            ocl_reduce_mpi_last_error(), lowest, highest);
      CHECK(rank != bad || untouched(got, 0, size),
            "%s: %s %llu failed, and the rank's buffer was written", what, kinds[kind],
            (unsigned long long)n);
    }
  }
  if (rank == bad)
    printf("# %s: rank %d failed at %u allocations, %u writes, %u reads, %u launches, %u waits\n",
           what, bad, sites[0], sites[1], sites[2], sites[3], sites[4]);
  ocl_reduce_buffer_destroy(results);
  free(got);
}

typedef struct fault_case {
  ocl_reduce_input in;
  size_t count, length;
} fault_case;

static ocl_reduce_status sum_into(ocl_reduce_buffer *results, const void *arg) {
  const fault_case *f = arg;
  return ocl_reduce_mpi_allreduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, f->in, f->count,
                                  ocl_reduce_buffer_output(results, GUARD), MPI_COMM_WORLD);
}

static ocl_reduce_status segments_into(ocl_reduce_buffer *results, const void *arg) {
  const fault_case *f = arg;
  return ocl_reduce_mpi_segments_allreduce(ctx, OCL_REDUCE_MAX, OCL_REDUCE_F32, f->in, f->count,
                                           f->length, ocl_reduce_buffer_output(results, GUARD),
                                           MPI_COMM_WORLD);
}

/* The sweep over an all-reduce and a segmented all-reduce into buffers, from a buffer on every
 * rank (no copy of host input before the device's first fault). The state of the all-reduce is
 * written into the buffer after the collective; so are the segments' results (128 KiB a rank),
 * except where a CUDA-aware MPI gathers them from the device's memory: then the sweep must meet
 * neither the write nor the read of the results through host memory. */
static void check_device_faults(void) {
  const int bad = ranks > 2 ? 2 : ranks - 1;
  enum { PART = 1000, LENGTH = 2 };
  const size_t segments = 32768;
  const size_t results = (size_t)ranks * segments * sizeof(float);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  const int device_gather = ocl_reduce_mpi_cuda_aware() && info.backend == OCL_REDUCE_BACKEND_CUDA;
  if (rank == 0)
    printf("# CUDA-aware MPI: %s; segment results into a buffer: %s\n",
           ocl_reduce_mpi_cuda_aware() ? "yes" : "no",
           device_gather ? "gathered from device memory" : "through host memory");
  unsigned sites[ORX_FAULT_KINDS];
  int64_t values[PART];
  float *floats = malloc(segments * LENGTH * sizeof *floats), *maxima = malloc(results);
  test_fill(values, PART, OCL_REDUCE_SUM, OCL_REDUCE_I64, MODE_RANDOM);
  test_fill(floats, segments * LENGTH, OCL_REDUCE_MAX, OCL_REDUCE_F32, MODE_RANDOM);
  ocl_reduce_buffer *in = NULL;
  ocl_reduce_buffer_create(ctx, sizeof values + segments * LENGTH * sizeof *floats, &in);
  ocl_reduce_buffer_write(in, 0, values, sizeof values);
  ocl_reduce_buffer_write(in, sizeof values, floats, segments * LENGTH * sizeof *floats);
  int64_t sum = 0;
  fault_case f = {ocl_reduce_buffer_input(in, 0), PART, 0};
  ocl_reduce_status s =
      ocl_reduce_mpi_allreduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, f.in, PART,
                               ocl_reduce_host_output(&sum, sizeof sum), MPI_COMM_WORLD);
  CHECK(s == OCL_REDUCE_OK, "the sum without faults: %s", ocl_reduce_mpi_last_error());
  sweep_device_faults("an i64 all-reduce into a buffer", sum_into, &f, (unsigned char *)&sum,
                      sizeof sum, sites);
  CHECK(rank != bad || sites[ORX_FAULT_WRITE] > 0,
        "the all-reduce's sweep met no write: not a test of the result's write");
  f = (fault_case){ocl_reduce_buffer_input(in, PART * sizeof *values / sizeof *floats), segments,
                   LENGTH}; /* an offset in elements */
  s = ocl_reduce_mpi_segments_allreduce(ctx, OCL_REDUCE_MAX, OCL_REDUCE_F32, f.in, segments, LENGTH,
                                        ocl_reduce_host_output(maxima, results), MPI_COMM_WORLD);
  CHECK(s == OCL_REDUCE_OK, "the segments without faults: %s", ocl_reduce_mpi_last_error());
  sweep_device_faults("a segmented all-reduce into a buffer", segments_into, &f,
                      (unsigned char *)maxima, results, sites);
  CHECK(rank != bad || (device_gather ? !sites[ORX_FAULT_WRITE] && !sites[ORX_FAULT_READ]
                                      : sites[ORX_FAULT_WRITE] > 0),
        "the segments' sweep met %u writes and %u reads: not the route of %s",
        sites[ORX_FAULT_WRITE], sites[ORX_FAULT_READ],
        device_gather ? "a CUDA-aware MPI (neither)" : "host memory (a write)");
  free(maxima);
  free(floats);
  ocl_reduce_buffer_destroy(in);
}

/* The reproducible sum on 1, 2, ... ranks (the first k of the world) has one set of bits. */
static void check_reproducible_over_rank_counts(void) {
  const size_t n = 1000 + test_rng_below(MAX_ELEMENTS);
  float *data = malloc(n * sizeof *data);
  test_fill(data, n, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
  float one = 0.0f;
  CHECK(ocl_reduce(cross_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, data, n, &one, sizeof one) ==
            OCL_REDUCE_OK,
        "whole: %s", ocl_reduce_last_error(cross_ctx));
  for (int k = 1; k <= ranks; k++) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank < k ? 0 : MPI_UNDEFINED, rank, &sub);
    if (sub == MPI_COMM_NULL)
      continue;
    const size_t first = n * (size_t)rank / (size_t)k, end = n * (size_t)(rank + 1) / (size_t)k;
    float got = 0.0f;
    const ocl_reduce_status s =
        ocl_reduce_mpi_allreduce(cross_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                 ocl_reduce_host_input(data + first, (end - first) * sizeof *data),
                                 end - first, ocl_reduce_host_output(&got, sizeof got), sub);
    CHECK(s == OCL_REDUCE_OK && memcmp(&got, &one, sizeof got) == 0,
          "cross_device sum of %zu on %d ranks: %s (%a, one device %a)", n, k,
          ocl_reduce_mpi_last_error(), (double)got, (double)one);
    MPI_Comm_free(&sub);
  }
  free(data);
}

/* One rank's mistake is every rank's status; results stay untouched. */
static void check_errors(void) {
  float x[4] = {1, 2, 3, 4}, result = -7.0f;
  const int bad = ranks > 2 ? 2 : ranks - 1;
  ocl_reduce_status s = ocl_reduce_mpi_allreduce(
      ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_host_input(x, sizeof x), 4,
      ocl_reduce_host_output(rank == bad ? NULL : &result, sizeof result), MPI_COMM_WORLD);
  char rank_text[96];
  snprintf(rank_text, sizeof rank_text, "rank %d: result is NULL", bad);
  CHECK(s == OCL_REDUCE_ERROR_INVALID_ARGUMENT && strstr(ocl_reduce_mpi_last_error(), rank_text),
        "a NULL result on rank %d: %s, '%s'", bad, ocl_reduce_status_name(s),
        ocl_reduce_mpi_last_error());
  if (ranks > 1) { /* one rank cannot disagree with itself */
    s = ocl_reduce_mpi_allreduce(ctx, rank == bad ? OCL_REDUCE_MAX : OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                 ocl_reduce_host_input(x, sizeof x), 4,
                                 ocl_reduce_host_output(&result, sizeof result), MPI_COMM_WORLD);
    CHECK(s == OCL_REDUCE_ERROR_INVALID_ARGUMENT && strstr(ocl_reduce_mpi_last_error(), "differ"),
          "another operator on rank %d: %s, '%s'", bad, ocl_reduce_status_name(s),
          ocl_reduce_mpi_last_error());
  }
  s = ocl_reduce_mpi_reduce(ctx, OCL_REDUCE_AND, OCL_REDUCE_F32, ocl_reduce_host_input(x, sizeof x),
                            4, ocl_reduce_host_output(&result, sizeof result), 0, MPI_COMM_WORLD);
  CHECK(s == OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, "AND on f32: %s", ocl_reduce_status_name(s));
  s = ocl_reduce_mpi_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_host_input(x, sizeof x),
                            4, ocl_reduce_host_output(&result, sizeof result), ranks,
                            MPI_COMM_WORLD);
  CHECK(s == OCL_REDUCE_ERROR_INVALID_ARGUMENT && strstr(ocl_reduce_mpi_last_error(), "root"),
        "root out of range: %s", ocl_reduce_status_name(s));
  /* Out of range on one rank only: every rank returns, none waits for the others. */
  s = ocl_reduce_mpi_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_host_input(x, sizeof x),
                            4, ocl_reduce_host_output(&result, sizeof result),
                            rank == bad ? ranks + 5 : 0, MPI_COMM_WORLD);
  snprintf(rank_text, sizeof rank_text, "rank %d: root %d is not a rank", bad, ranks + 5);
  CHECK(s == OCL_REDUCE_ERROR_INVALID_ARGUMENT && strstr(ocl_reduce_mpi_last_error(), rank_text),
        "root out of range on rank %d: %s, '%s'", bad, ocl_reduce_status_name(s),
        ocl_reduce_mpi_last_error());
  if (ranks > 1) {
    /* Roots that differ (each in range): refused on every rank, naming the first that differs,
     * before any rank gathers to its own root (which hung). */
    s = ocl_reduce_mpi_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                              ocl_reduce_host_input(x, sizeof x), 4,
                              ocl_reduce_host_output(&result, sizeof result),
                              rank == bad ? 1 : 0, MPI_COMM_WORLD);
    snprintf(rank_text, sizeof rank_text, "rank %d's root is 1, rank 0's is 0", bad);
    CHECK(s == OCL_REDUCE_ERROR_INVALID_ARGUMENT &&
              strstr(ocl_reduce_mpi_last_error(), rank_text),
          "roots that differ: %s, '%s'", ocl_reduce_status_name(s), ocl_reduce_mpi_last_error());
    /* User operators of one descriptor but another text on one rank. */
    ocl_reduce_operator_desc d = test_custom_descs[0];
    char *other = malloc(strlen(d.source) + 32);
    sprintf(other, "%s\n/* rank %d's own */\n", d.source, rank);
    if (rank == bad)
      d.source = other;
    ocl_reduce_operator *op = NULL;
    CHECK(ocl_reduce_operator_create(&d, &op) == OCL_REDUCE_OK, "operator: %s",
          ocl_reduce_last_error(NULL));
    unsigned char element[64] = {0}, state[64];
    s = ocl_reduce_mpi_allreduce(ctx, op, OCL_REDUCE_OP_ELEMENT,
                                 ocl_reduce_host_input(element, d.element_size), 1,
                                 ocl_reduce_host_output(state, sizeof state), MPI_COMM_WORLD);
    snprintf(rank_text, sizeof rank_text, "rank %d's operator differs", bad);
    CHECK(s == OCL_REDUCE_ERROR_INVALID_ARGUMENT &&
              strstr(ocl_reduce_mpi_last_error(), rank_text),
          "operator texts that differ: %s, '%s'", ocl_reduce_status_name(s),
          ocl_reduce_mpi_last_error());
    ocl_reduce_operator_destroy(op);
    free(other);
  }
  /* A value of OCL_REDUCE_MPI_CUDA_AWARE that means nothing, on one rank. */
  if (rank == bad)
    setenv("OCL_REDUCE_MPI_CUDA_AWARE", "yes please", 1);
  s = ocl_reduce_mpi_allreduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                               ocl_reduce_host_input(x, sizeof x), 4,
                               ocl_reduce_host_output(&result, sizeof result), MPI_COMM_WORLD);
  unsetenv("OCL_REDUCE_MPI_CUDA_AWARE");
  CHECK(s == OCL_REDUCE_ERROR_INVALID_OPTION &&
            strstr(ocl_reduce_mpi_last_error(), "OCL_REDUCE_MPI_CUDA_AWARE is 'yes please'"),
        "OCL_REDUCE_MPI_CUDA_AWARE=yes please: %s, '%s'", ocl_reduce_status_name(s),
        ocl_reduce_mpi_last_error());
  /* A result too small for one result, on one rank: every rank is told which. */
  ocl_reduce_arg arg = {.index = 77};
  s = ocl_reduce_mpi_allreduce(ctx, OCL_REDUCE_ARGMIN, OCL_REDUCE_F32,
                               ocl_reduce_host_input(x, sizeof x), 4,
                               ocl_reduce_host_output(rank == bad ? (void *)&result : (void *)&arg,
                                                      rank == bad ? sizeof result : sizeof arg),
                               MPI_COMM_WORLD);
  snprintf(rank_text, sizeof rank_text, "rank %d: result_bytes is 4", bad);
  CHECK(s == OCL_REDUCE_ERROR_INVALID_ARGUMENT && strstr(ocl_reduce_mpi_last_error(), rank_text),
        "a small result on rank %d: %s, '%s'", bad, ocl_reduce_status_name(s),
        ocl_reduce_mpi_last_error());
  CHECK(arg.index == 77, "a failed call wrote its result");
  CHECK(result == -7.0f, "a failed call wrote its result");
}

/* A rank that owns a group (here two contexts on its device, with parts of any size): its part
 * over the group, then across the ranks. Integers and the reproducible sum have the whole array's
 * bits; ARGMIN the first minimum's index across devices and ranks. */
static void check_groups(void) {
  setenv("OCL_REDUCE_POLICY", "part_kib=1", 1);
  ocl_reduce_context *members[2] = {NULL, NULL};
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.determinism = OCL_REDUCE_CROSS_DEVICE;
  for (int d = 0; d < 2; d++)
    if (ocl_reduce_context_create(&opts, &members[d]) != OCL_REDUCE_OK)
      members[d] = NULL;
  unsetenv("OCL_REDUCE_POLICY");
  ocl_reduce_group *group = NULL;
  int made =
      members[0] && members[1] && ocl_reduce_group_create_from(members, 2, &group) == OCL_REDUCE_OK;
  int all_made = 0;
  MPI_Allreduce(&made, &all_made, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  CHECK(all_made, "a group of two contexts: %s", ocl_reduce_last_error(NULL));
  static const struct {
    ocl_reduce_op op;
    ocl_reduce_type type;
  } cases[] = {{OCL_REDUCE_SUM, OCL_REDUCE_I64},
               {OCL_REDUCE_SUM, OCL_REDUCE_F32},
               {OCL_REDUCE_ARGMIN, OCL_REDUCE_F32}};
  for (size_t k = 0; all_made && k < sizeof cases / sizeof cases[0]; k++) {
    const ocl_reduce_op op = cases[k].op;
    const ocl_reduce_type type = cases[k].type;
    const size_t elem = ocl_reduce_type_size(type), n = test_rng_below(MAX_ELEMENTS);
    unsigned char *data = malloc((n + 1) * elem);
    test_fill(data, n, op, type, MODE_RANDOM);
    cut(n);
    const size_t first = begin[rank], count = begin[rank + 1] - first;
    const ocl_reduce_input in = ocl_reduce_host_input(data + first * elem, count * elem);
    unsigned char whole[MAX_RESULT], got[2][MAX_RESULT];
    memset(got, 0xA5, sizeof got);
    const ocl_reduce_status s0 = ocl_reduce_mpi_reduce_group(
        group, op, type, in, count, ocl_reduce_host_output(rank == 0 ? got[0] : NULL, MAX_RESULT),
        0, MPI_COMM_WORLD);
    const ocl_reduce_status s1 = ocl_reduce_mpi_allreduce_group(
        group, op, type, in, count, ocl_reduce_host_output(got[1], MAX_RESULT), MPI_COMM_WORLD);
    CHECK(s0 == OCL_REDUCE_OK && s1 == OCL_REDUCE_OK, "groups, %s %s: %s", ocl_reduce_op_name(op),
          ocl_reduce_type_name(type), ocl_reduce_mpi_last_error());
    CHECK(ocl_reduce(cross_ctx, op, type, data, n, whole, sizeof whole) == OCL_REDUCE_OK,
          "whole: %s", ocl_reduce_last_error(cross_ctx));
    for (int r = rank == 0 ? 0 : 1; r < 2 && s0 == OCL_REDUCE_OK && s1 == OCL_REDUCE_OK; r++)
      CHECK(memcmp(got[r], whole, ocl_reduce_result_size(op, type)) == 0,
            "groups, %s %s, %zu elements, %s: not the whole array's bits", ocl_reduce_op_name(op),
            ocl_reduce_type_name(type), n, r ? "all-reduce" : "reduce to root");
    free(data);
  }
  /* A rank without its group: every rank returns its status, naming it. */
  float x = 1.0f, sum = 0.0f;
  const ocl_reduce_status bad =
      ocl_reduce_mpi_allreduce_group(rank == ranks - 1 ? NULL : group, OCL_REDUCE_SUM,
                                     OCL_REDUCE_F32, ocl_reduce_host_input(&x, sizeof x), 1,
                                     ocl_reduce_host_output(&sum, sizeof sum), MPI_COMM_WORLD);
  CHECK(!all_made || (bad == OCL_REDUCE_ERROR_INVALID_ARGUMENT &&
                      strstr(ocl_reduce_mpi_last_error(), "group is NULL")),
        "a NULL group on one rank: %s, '%s'", ocl_reduce_status_name(bad),
        ocl_reduce_mpi_last_error());
  ocl_reduce_group_destroy(group);
  ocl_reduce_context_destroy(members[0]);
  ocl_reduce_context_destroy(members[1]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks > 64) {
    fprintf(stderr, "test_mpi: at most 64 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Rank 0's seed for everyone (OCL_REDUCE_TEST_SEED repeats a run). */
  test_rng_init();
  uint64_t seed = test_rng_next();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  char text[32];
  snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
  setenv("OCL_REDUCE_TEST_SEED", text, 1);
  test_rng_init();
  /* A PoCL kernel cache per rank: PoCL 5.0 fails builds (CL_BUILD_PROGRAM_FAILURE) when several
   * processes fill one cache folder at once (seen on the H200 machine). */
  const char *pocl_cache = getenv("POCL_CACHE_DIR");
  if (pocl_cache && *pocl_cache) {
    char own[4096];
    snprintf(own, sizeof own, "%s/rank%d", pocl_cache, rank);
    setenv("POCL_CACHE_DIR", own, 1);
  }
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.determinism = OCL_REDUCE_CROSS_DEVICE;
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_context_create(&opts, &cross_ctx);
  int usable = s == OCL_REDUCE_OK, all_usable = 0;
  MPI_Allreduce(&usable, &all_usable, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_usable) {
    fprintf(stderr, "rank %d: no context: %s\n", rank, ocl_reduce_last_error(NULL));
    MPI_Finalize();
    return 1;
  }
  check_builtins();
  check_user_operators();
  check_segments();
  check_buffer_results();
  check_device_faults();
  check_reproducible_over_rank_counts();
  check_groups();
  check_errors();
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_mpi: %d ranks, seed %s: %s (%d failed checks)\n", ranks, text,
           total ? "FAILED" : "passed", total);
  /* MPI first: a CUDA-aware MPI keeps handles to the contexts' memory until it finalizes. */
  MPI_Finalize();
  ocl_reduce_context_destroy(ctx);
  ocl_reduce_context_destroy(cross_ctx);
  return total ? 1 : 0;
}
