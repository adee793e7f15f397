/* =================================================================================================
 * test_pairs.c: the pair operators (ocl_reduce_pairs, ocl_reduce_pairs_segments): DOT,
 * SQUARED_DISTANCE, ABS_DISTANCE and COUNT_EQUAL on every type, over the boundary sizes, from host
 * memory and from buffers at offsets that put the two inputs at the same and at different
 * distances from a vector boundary, with random values and the special ones (NaN, +-inf, +-0,
 * subnormals); segments of several lengths; the same input twice; and every refusal, with the
 * output untouched; under OCL_REDUCE_CROSS_DEVICE, float pairs give the bits of the host's
 * reproducible sum of their values. References: exact modular integers, counts of equal values
 * (NaN equal to nothing, -0 to +0) and long double sums with the rigorous bound of the recursive
 * sum.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"
#include "support/pair_reference.h"
#include "support/repro_reference.h"

#define PAIR_OPS 4
static const ocl_reduce_op pair_ops[PAIR_OPS] = {OCL_REDUCE_DOT, OCL_REDUCE_SQUARED_DISTANCE,
                                                 OCL_REDUCE_ABS_DISTANCE, OCL_REDUCE_COUNT_EQUAL};

static size_t sizes[128];
static size_t size_count;

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  size_count = test_sizes(test_context_shape(test_ctx), 0, sizes, 128);
  return 0;
}

/* Where the inputs lie: host memory, or buffers at element offsets. */
typedef struct placement {
  const char *name;
  int a_buffer, b_buffer;
  size_t a_at, b_at;
} placement;
static const placement placements[] = {
    {"host memory", 0, 0, 0, 0},
    {"buffers at offsets 3 and 3", 1, 1, 3, 3},
    {"buffers at offsets 1 and 2 (vectors apart)", 1, 1, 1, 2},
    {"a in a buffer at 5, b in host memory", 1, 0, 5, 0},
};

/* Runs one case; returns its failures (0 or 1). Segments: count/length segments (length > 0). */
static int check(int op, ocl_reduce_type t, const placement *p, const void *a, const void *b,
                 size_t n, size_t length, const char *what) {
  const size_t elem = ocl_reduce_type_size(t), rsize = ocl_reduce_result_size(pair_ops[op], t);
  const size_t results = length ? n / length : 1;
  ocl_reduce_buffer *buf_a = NULL, *buf_b = NULL;
  ocl_reduce_status s = OCL_REDUCE_OK;
  ocl_reduce_input in_a = ocl_reduce_host_input(a, n * elem), in_b = ocl_reduce_host_input(b, n * elem);
  if (p->a_buffer) {
    s = ocl_reduce_buffer_create(test_ctx, (n + p->a_at) * elem + 1, &buf_a);
    if (s == OCL_REDUCE_OK && n)
      s = ocl_reduce_buffer_write(buf_a, p->a_at * elem, a, n * elem);
    in_a = ocl_reduce_buffer_input(buf_a, p->a_at);
  }
  if (p->b_buffer && s == OCL_REDUCE_OK) {
    s = ocl_reduce_buffer_create(test_ctx, (n + p->b_at) * elem + 1, &buf_b);
    if (s == OCL_REDUCE_OK && n)
      s = ocl_reduce_buffer_write(buf_b, p->b_at * elem, b, n * elem);
    in_b = ocl_reduce_buffer_input(buf_b, p->b_at);
  }
  unsigned char *got = malloc(results * rsize + 16);
  assert_non_null(got);
  memset(got, 0xa5, results * rsize + 16);
  const ocl_reduce_output out = ocl_reduce_host_output(got, results * rsize);
  if (s == OCL_REDUCE_OK)
    s = length ? ocl_reduce_pairs_segments(test_ctx, pair_ops[op], t, in_a, in_b, results, length,
                                           out)
               : ocl_reduce_pairs(test_ctx, pair_ops[op], t, in_a, in_b, n, out);
  ocl_reduce_buffer_destroy(buf_a);
  ocl_reduce_buffer_destroy(buf_b);
  int failed = 0;
  char why[160];
  if (s != OCL_REDUCE_OK) {
    print_error("%s of %s n=%zu (%s, %s): %s: %s\n", ocl_reduce_op_name(pair_ops[op]),
                ocl_reduce_type_name(t), n, p->name, what, ocl_reduce_status_name(s),
                ocl_reduce_last_error(test_ctx));
    failed = 1;
  }
  for (size_t r = 0; r < results && !failed; r++) {
    const size_t first = length * r, count = length ? length : n;
    if (!test_pair_matches(op, t, (const char *)a + first * elem, (const char *)b + first * elem, count,
                 got + r * rsize, why, sizeof why)) {
      print_error("%s of %s n=%zu (%s, %s): result %zu: %s\n", ocl_reduce_op_name(pair_ops[op]),
                  ocl_reduce_type_name(t), n, p->name, what, r, why);
      failed = 1;
    }
  }
  for (size_t i = results * rsize; i < results * rsize + 16 && !failed; i++)
    if (got[i] != 0xa5) {
      print_error("%s of %s n=%zu: wrote past the results\n", ocl_reduce_op_name(pair_ops[op]),
                  ocl_reduce_type_name(t), n);
      failed = 1;
    }
  free(got);
  return failed;
}

/* Every operator, over the boundary sizes, each placement in turn, random and special values. */
static void sweep(ocl_reduce_type t) {
  if (t == OCL_REDUCE_F64 && !test_has_fp64())
    skip();
  /* Light runs: one type of each load (32-bit, 64-bit, 16-bit); the automatic path takes all. */
  if (test_light() && t != OCL_REDUCE_F32 && t != OCL_REDUCE_I64 && t != OCL_REDUCE_F16) {
    printf("# %s: left to the full runs\n", ocl_reduce_type_name(t));
    return;
  }
  const size_t elem = ocl_reduce_type_size(t), most = sizes[size_count - 1];
  void *a = malloc(most * elem + 8), *b = malloc(most * elem + 8);
  assert_non_null(a);
  assert_non_null(b);
  int failures = 0, cases = 0;
  /* Each operator every other size (light runs: every fourth, none past 2^14), the sizes
   * alternating between the operators. */
  const size_t every = test_light() ? 4 : 2;
  /* Inputs at different distances from a vector boundary read narrower vectors: a program of
   * their own, compiled for three types (one of each load: 32-bit, 64-bit, 16-bit). */
  const size_t placed = t == OCL_REDUCE_F32 || t == OCL_REDUCE_I64 || t == OCL_REDUCE_F16
                            ? sizeof placements / sizeof *placements
                            : 2;
  for (int op = 0; op < PAIR_OPS; op++)
    for (size_t i = 0; i < size_count && failures < 8; i++) {
      if ((i + (size_t)op) % every != 0 || (test_light() && sizes[i] > ((size_t)1 << 14)))
        continue;
      const int special = test_pair_is_float(t) && i % 3 == 1;
      test_pair_fill(a, b, sizes[i], t, special);
      const placement *p = &placements[(i + (size_t)op) % placed];
      failures += check(op, t, p, a, b, sizes[i], 0, special ? "special values" : "random");
      cases++;
    }
  free(a);
  free(b);
  printf("# %s: %d pair cases, %d failed\n", ocl_reduce_type_name(t), cases, failures);
  assert_int_equal(failures, 0);
}

#define TEST_PAIR_TYPE(TYPE)                                                                       \
  static void test_pairs_##TYPE(void **state) {                                                    \
    (void)state;                                                                                   \
    sweep(OCL_REDUCE_##TYPE);                                                                      \
  }
TEST_TYPES(TEST_PAIR_TYPE)

/* Segments of lengths that take each strategy: every operator on f32, and the dot product on
 * i64 and f16 (their loads; each operator and type is a program of each strategy). */
static void test_pair_segments(void **state) {
  (void)state;
  static const size_t lengths[] = {1, 3, 32, 1000, 5000};
  static const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_I64, OCL_REDUCE_F16};
  int failures = 0;
  for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
    const ocl_reduce_type t = types[k];
    const size_t elem = ocl_reduce_type_size(t), n = 20000;
    void *a = malloc(n * elem), *b = malloc(n * elem);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++)
      for (int op = 0; op < (t == OCL_REDUCE_F32 ? PAIR_OPS : 1); op++) {
        const size_t count = n / lengths[l] > 300 ? 300 : n / lengths[l];
        test_pair_fill(a, b, count * lengths[l], t, 0);
        const placement *p = &placements[(l + (size_t)op + k) % 4];
        failures += check(op, t, p, a, b, count * lengths[l], lengths[l], "segments");
      }
    free(a);
    free(b);
  }
  assert_int_equal(failures, 0);
}

/* Both inputs the same memory: DOT is the sum of squares, the distances 0, every pair equal. */
static void test_same_input_twice(void **state) {
  (void)state;
  float x[1000];
  for (int i = 0; i < 1000; i++)
    x[i] = (float)(i % 7) - 3.0f;
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, sizeof x, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, x, sizeof x), OCL_REDUCE_OK);
  float dot = 0, distance = -1;
  uint64_t equal = 0;
  const ocl_reduce_input in = ocl_reduce_buffer_input(buf, 0);
  assert_int_equal(ocl_reduce_pairs(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, in, in, 1000,
                                    ocl_reduce_host_output(&dot, sizeof dot)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_pairs(test_ctx, OCL_REDUCE_SQUARED_DISTANCE, OCL_REDUCE_F32,
                                    ocl_reduce_host_input(x, sizeof x), in, 1000,
                                    ocl_reduce_host_output(&distance, sizeof distance)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_pairs(test_ctx, OCL_REDUCE_COUNT_EQUAL, OCL_REDUCE_F32, in, in, 1000,
                                    ocl_reduce_host_output(&equal, sizeof equal)),
                   OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(buf);
  float squares = 0;
  for (int i = 0; i < 1000; i++)
    squares += x[i] * x[i]; /* small integers: exact in any order */
  assert_true(dot == squares);
  assert_true(distance == 0.0f);
  assert_int_equal(equal, 1000);
}

/* Empty inputs give SUM's identity: 0 of the result's type. */
static void test_empty_pairs_are_zero(void **state) {
  (void)state;
  for (int op = 0; op < PAIR_OPS; op++) {
    uint64_t result = 0xa5a5a5a5a5a5a5a5u;
    assert_int_equal(ocl_reduce_pairs(test_ctx, pair_ops[op], OCL_REDUCE_U64,
                                      ocl_reduce_host_input(NULL, 0),
                                      ocl_reduce_host_input(NULL, 0), 0,
                                      ocl_reduce_host_output(&result, sizeof result)),
                     OCL_REDUCE_OK);
    assert_int_equal(result, 0);
  }
}

/* ---- OCL_REDUCE_CROSS_DEVICE: float pairs are SUM_REPRODUCIBLE over their values ---------- */

/* The same bits as the host's reproducible sum of the values, from host memory and buffers at
 * skewed offsets, whole and in segments (every strategy the planner takes for these lengths).
 * Light runs: the f32 dot product of the largest count (the state kernels are the slowest to
 * build on CPU implementations; the full runs take every type and operator). */
static void test_cross_device_float_pairs(void **state) {
  (void)state;
  ocl_reduce_context *cross = test_context_cross_device();
  assert_non_null(cross);
  /* bf16 takes f16's kernels but the load (which the sweeps check); ABS_DISTANCE has no product
   * to keep unfused. Each case is a state kernel of its own, the slowest to build on CPU
   * implementations (pairs[intel/subgroup-khr], the full run in CI, took 98 s with every type
   * and operator here). */
  static const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_F64, OCL_REDUCE_F16};
  /* Whole arrays of each count; segments of 15 and 1024 pairs (the multireduction and a
   * work-group each on GPUs). */
  static const size_t counts[] = {1000, 65537};
  int failures = 0, cases = 0;
  for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
    const ocl_reduce_type t = types[k];
    if ((t == OCL_REDUCE_F64 && !test_has_fp64()) || (test_light() && t != OCL_REDUCE_F32))
      continue;
    const size_t elem = ocl_reduce_type_size(t), most = counts[1];
    const ocl_reduce_type sum_type = t == OCL_REDUCE_F64 ? OCL_REDUCE_F64 : OCL_REDUCE_F32;
    const size_t vsize = ocl_reduce_type_size(sum_type);
    unsigned char *a = malloc(most * elem + 16), *b = malloc(most * elem + 16);
    unsigned char *values = malloc(most * vsize), *got = malloc(64 * vsize);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(values);
    assert_non_null(got);
    for (int op = 0; op < (test_light() ? 1 : 2); op++)
      for (size_t c = test_light() ? 1 : 0; c < sizeof counts / sizeof *counts; c++) {
        const size_t n = counts[c];
        test_pair_fill(a, b, n, t, 0);
        /* Whole: host memory, then a buffer at 1 against host memory (vectors apart). */
        unsigned char want[8], bits[8];
        test_pair_values(op, t, a, b, n, values);
        test_repro_sum(values, n, sum_type, want);
        ocl_reduce_buffer *buf = NULL;
        assert_int_equal(ocl_reduce_buffer_create(cross, (n + 1) * elem, &buf), OCL_REDUCE_OK);
        assert_int_equal(ocl_reduce_buffer_write(buf, elem, a, n * elem), OCL_REDUCE_OK);
        for (int place = 0; place < 2; place++) {
          const ocl_reduce_input in_a =
              place ? ocl_reduce_buffer_input(buf, 1) : ocl_reduce_host_input(a, n * elem);
          memset(bits, 0xa5, sizeof bits);
          ocl_reduce_status s =
              ocl_reduce_pairs(cross, pair_ops[op], t, in_a, ocl_reduce_host_input(b, n * elem),
                               n, ocl_reduce_host_output(bits, vsize));
          cases++;
          if (s != OCL_REDUCE_OK || memcmp(bits, want, vsize) != 0) {
            print_error("cross-device %s of %s n=%zu (%s): %s, bits differ from the host's\n",
                        ocl_reduce_op_name(pair_ops[op]), ocl_reduce_type_name(t), n,
                        place ? "buffer and host memory" : "host memory",
                        ocl_reduce_status_name(s));
            failures++;
          }
        }
        /* Segments: up to 64 of n / 64 (at least 1) pairs each. */
        const size_t length = n / 64 ? n / 64 : 1, segs = n / length > 64 ? 64 : n / length;
        assert_int_equal(ocl_reduce_pairs_segments(cross, pair_ops[op], t,
                                                   ocl_reduce_buffer_input(buf, 1),
                                                   ocl_reduce_host_input(b, n * elem), segs,
                                                   length, ocl_reduce_host_output(got, 64 * vsize)),
                         OCL_REDUCE_OK);
        for (size_t g = 0; g < segs; g++) {
          test_repro_sum(values + g * length * vsize, length, sum_type, want);
          cases++;
          if (memcmp(got + g * vsize, want, vsize) != 0) {
            print_error("cross-device %s of %s: segment %zu of %zu pairs differs\n",
                        ocl_reduce_op_name(pair_ops[op]), ocl_reduce_type_name(t), g, length);
            failures++;
            break;
          }
        }
        ocl_reduce_buffer_destroy(buf);
      }
    free(a);
    free(b);
    free(values);
    free(got);
  }
  ocl_reduce_context_destroy(cross);
  printf("# %d cross-device pair results, %d differ from the host's bits\n", cases, failures);
  assert_int_equal(failures, 0);
}

/* Sizes and names, and every refusal by name with the output untouched. */
static void test_refusals(void **state) {
  (void)state;
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_DOT, OCL_REDUCE_F16), 4);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_DOT, OCL_REDUCE_I64), 8);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_COUNT_EQUAL, OCL_REDUCE_BF16), 8);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_ABS_DISTANCE, (ocl_reduce_type)99), 0);
  assert_int_equal(ocl_reduce_state_size(NULL, OCL_REDUCE_DOT, OCL_REDUCE_F32), 0);
  assert_string_equal(ocl_reduce_op_name(OCL_REDUCE_SQUARED_DISTANCE), "squared_distance");
  assert_string_equal(ocl_reduce_op_name(OCL_REDUCE_PAIR_OP(OCL_REDUCE_BUILTIN_PAIR_OPS)),
                      "unknown");
  float a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, result = 42;
  const ocl_reduce_input in = ocl_reduce_host_input(a, sizeof a);
  const ocl_reduce_output out = ocl_reduce_host_output(&result, sizeof result);
  expect_error(ocl_reduce_pairs(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, in, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "sum, which reduces one input");
  expect_error(ocl_reduce(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, a, 8, &result, 4),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "pair operator dot");
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_COUNT_EQUAL, OCL_REDUCE_F32, in, 2, 4,
                                   out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "pair operator count_equal");
  expect_error(ocl_reduce_pairs(test_ctx, NULL, OCL_REDUCE_F32, in, in, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "op is NULL");
  expect_error(ocl_reduce_pairs(test_ctx, OCL_REDUCE_DOT, (ocl_reduce_type)99, in, in, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "unknown value 99");
  expect_error(ocl_reduce_pairs(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, in,
                                ocl_reduce_host_input(a, 7 * sizeof(float)), 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "b is 28 bytes");
  expect_error(ocl_reduce_pairs(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32,
                                ocl_reduce_host_input(NULL, 0), in, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "a is NULL");
  expect_error(ocl_reduce_pairs(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, in, in, 8,
                                ocl_reduce_host_output(&result, 2)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "output is 2 bytes");
  expect_error(ocl_reduce_pairs_segments(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, in, in, 3, 3,
                                         out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "output is 4 bytes");
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, sizeof a, &buf), OCL_REDUCE_OK);
  expect_error(ocl_reduce_pairs(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32,
                                ocl_reduce_buffer_input(buf, 2), in, 8, out),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "a elements [2, 2 + 8)");
  expect_error(ocl_reduce_pairs(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, in,
                                ocl_reduce_buffer_input(buf, 0), 4,
                                ocl_reduce_buffer_output(buf, 1)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "b");
  ocl_reduce_buffer_destroy(buf);
  assert_true(result == 42);
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define TEST_PAIR_ENTRY(TYPE) cmocka_unit_test(test_pairs_##TYPE),
      TEST_TYPES(TEST_PAIR_ENTRY) cmocka_unit_test(test_pair_segments),
      cmocka_unit_test(test_same_input_twice),
      cmocka_unit_test(test_empty_pairs_are_zero),
      cmocka_unit_test(test_cross_device_float_pairs),
      cmocka_unit_test(test_refusals),
  };
  return TEST_RUN(tests, setup, test_teardown);
}
