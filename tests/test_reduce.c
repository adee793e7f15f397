/* =================================================================================================
 * test_reduce.c: every operator x type against the host reference, over boundary sizes (0, 1, 2,
 * subgroup +- 1, work-group +- 1, powers of two +- 1, primes, >= 2^22) and data modes (random,
 * exact, constant, NaN, infinities, signed zeros, overflow, integer extremes).
 *
 * Each case is reduced three ways: from host memory; from a device buffer at an element offset that
 * is not vector-aligned; and, for floats, from host memory again, which must give the same bits.
 * The device and path come from the environment (tests/CMakeLists.txt registers this program once
 * per implementation and path).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"

static size_t sizes[128];
static size_t size_count;

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  size_count = test_sizes(test_context_shape(test_ctx), 1, sizes, 128);
  return 0;
}

/* Reduces data three ways and checks each result; returns the number of mismatches (printed). */
static int check_case(ocl_reduce_op op, ocl_reduce_type type, test_mode mode, const void *data,
                      size_t n) {
  const size_t elem = ocl_reduce_type_size(type);
  const test_reference ref = test_reduce_host(data, n, op, type, mode);
  char why[256];
  int failures = 0;

  test_value host_result, again, device_result;
  memset(&host_result, 0xa5, sizeof host_result);
  ocl_reduce_status s = ocl_reduce(test_ctx, op, type, data, n, &host_result, sizeof host_result);
  if (s != OCL_REDUCE_OK) {
    print_error("ocl_reduce(%s %s n=%zu %s): %s: %s\n", ocl_reduce_op_name(op),
                ocl_reduce_type_name(type), n, test_mode_name(mode), ocl_reduce_status_name(s),
                ocl_reduce_last_error(test_ctx));
    return 1;
  }
  if (!test_matches(&host_result, &ref, op, type, why, sizeof why)) {
    print_error("host input: %s %s n=%zu mode=%s: %s\n", ocl_reduce_op_name(op),
                ocl_reduce_type_name(type), n, test_mode_name(mode), why);
    failures++;
  }

  /* Device-resident, at an offset of 1..3 elements: the head before the first aligned vector. */
  const size_t offset = 1 + n % 3;
  ocl_reduce_buffer *buf = NULL;
  s = ocl_reduce_buffer_create(test_ctx, (n + offset) * elem, &buf);
  if (s == OCL_REDUCE_OK && n > 0)
    s = ocl_reduce_buffer_write(buf, offset * elem, data, n * elem);
  memset(&device_result, 0xa5, sizeof device_result);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_into(test_ctx, op, type, ocl_reduce_buffer_input(buf, offset), n,
                        ocl_reduce_host_output(&device_result, sizeof device_result));
  ocl_reduce_buffer_destroy(buf);
  if (s != OCL_REDUCE_OK) {
    print_error("device buffer: %s: %s\n", ocl_reduce_status_name(s),
                ocl_reduce_last_error(test_ctx));
    return failures + 1;
  }
  if (!test_matches(&device_result, &ref, op, type, why, sizeof why)) {
    print_error("device buffer at offset %zu: %s %s n=%zu mode=%s: %s\n", offset,
                ocl_reduce_op_name(op), ocl_reduce_type_name(type), n, test_mode_name(mode), why);
    failures++;
  }

  /* Run-to-run determinism: the same call again gives the same bits. */
  if (type == OCL_REDUCE_F32 || type == OCL_REDUCE_F64) {
    memset(&again, 0x5a, sizeof again);
    s = ocl_reduce(test_ctx, op, type, data, n, &again, sizeof again);
    if (s != OCL_REDUCE_OK || memcmp(again.bytes, host_result.bytes, elem) != 0) {
      char a[80], b[80];
      test_format(&again, type, a, sizeof a);
      test_format(&host_result, type, b, sizeof b);
      print_error("not deterministic: %s %s n=%zu mode=%s: second run %s, first %s\n",
                  ocl_reduce_op_name(op), ocl_reduce_type_name(type), n, test_mode_name(mode), a,
                  b);
      failures++;
    }
  }
  return failures;
}

static void sweep(ocl_reduce_op op, ocl_reduce_type type) {
  /* Light runs: sum and max of every type, the one kernel's two kinds of combine. */
  if (test_light() && op != OCL_REDUCE_SUM && op != OCL_REDUCE_MAX) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    skip();
  }
  const size_t elem = ocl_reduce_type_size(type);
  void *data = malloc(sizes[size_count - 1] * elem + 8);
  assert_non_null(data);
  int failures = 0, cases = 0;
  for (int mode = 0; mode < MODE_COUNT; mode++) {
    if (!test_mode_applies((test_mode)mode, type))
      continue;
    for (size_t i = 0; i < size_count && failures < 10; i++) {
      /* Random and exact data take every size; the others reach every code path (several groups,
       * unaligned heads and tails) well before the largest sizes, which cost the most time. */
      if ((mode == MODE_CONSTANT && sizes[i] > ((size_t)1 << 20)) ||
          (mode > MODE_CONSTANT && sizes[i] > ((size_t)1 << 16)))
        continue;
      test_fill(data, sizes[i], op, type, (test_mode)mode);
      failures += check_case(op, type, (test_mode)mode, data, sizes[i]);
      cases++;
    }
  }
  free(data);
  if (failures)
    fail_msg("%d mismatches in %d cases of %s %s", failures, cases, ocl_reduce_op_name(op),
             ocl_reduce_type_name(type));
}

#define SWEEP_TEST(OP, TYPE)                                                                       \
  static void test_##OP##_##TYPE##_matches_host_reference(void **state) {                         \
    (void)state;                                                                                   \
    sweep(OCL_REDUCE_##OP, OCL_REDUCE_##TYPE);                                                     \
  }
TEST_OP_TYPES(SWEEP_TEST)

/* x of `type` from its bits. */
static void put_bits(void *data, size_t i, ocl_reduce_type type, uint64_t bits) {
  if (type == OCL_REDUCE_F32) {
    const uint32_t narrow = (uint32_t)bits;
    memcpy((char *)data + 4 * i, &narrow, 4);
  } else {
    memcpy((char *)data + 8 * i, &bits, 8);
  }
}

/* One NaN among finite values, infinities and zeros: MIN and MAX give NaN whatever its sign and
 * payload and wherever it is (float MIN and MAX stream integer keys in which NaNs of one sign sit
 * at the far end: lib/orx_keys.cl); and one -0.0 among +0.0 is MIN's result, one +0.0 among -0.0
 * MAX's. */
static void test_lone_nan_and_signed_zero_win_min_and_max(void **state) {
  (void)state;
  static const uint64_t nans32[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                    0x7fffffffu, 0xffffffffu};
  static const uint64_t nans64[] = {0x7ff8000000000000u, 0xfff8000000000000u, 0x7ff0000000000001u,
                                    0xfff0000000000001u, 0x7fffffffffffffffu, 0xffffffffffffffffu};
  static const size_t counts[] = {1, 2, 33, 4099, ((size_t)1 << 18) + 3};
  const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_F64};
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_OK);
  double *data = malloc(counts[4] * sizeof *data);
  assert_non_null(data);
  int failures = 0;
  for (int t = 0; t < 2; t++) {
    const ocl_reduce_type type = types[t];
    if (type == OCL_REDUCE_F64 && !info.has_fp64)
      continue;
    const uint64_t *nans = type == OCL_REDUCE_F32 ? nans32 : nans64;
    const uint64_t minus_zero = type == OCL_REDUCE_F32 ? 0x80000000u : 0x8000000000000000u;
    for (size_t c = 0; c < 5; c++)
      for (size_t k = 0; k < 6; k++)
        for (int op = T_MIN; op <= T_MAX; op++) {
          const size_t n = counts[c];
          test_fill(data, n, OCL_REDUCE_SUM, type, MODE_INFS);
          const size_t at = k % 3 == 0 ? 0 : k % 3 == 1 ? n - 1 : test_rng_below(n);
          put_bits(data, at, type, nans[k]);
          test_value got;
          memset(&got, 0, sizeof got);
          ocl_reduce_status s =
              ocl_reduce(test_ctx, OCL_REDUCE_BUILTIN_OP(op), type, data, n, &got, sizeof got);
          const double value = type == OCL_REDUCE_F32 ? (double)got.f32 : got.f64;
          if (s != OCL_REDUCE_OK || value == value) {
            print_error("%s %s n=%zu, NaN 0x%llx at %zu: not NaN (%s)\n",
                        ocl_reduce_op_name(OCL_REDUCE_BUILTIN_OP(op)), ocl_reduce_type_name(type),
                        n, (unsigned long long)nans[k], at, ocl_reduce_status_name(s));
            failures++;
          }
          /* Zeros of one sign, the other sign once. */
          const int min = op == T_MIN;
          for (size_t i = 0; i < n; i++)
            put_bits(data, i, type, min ? 0 : minus_zero);
          put_bits(data, at, type, min ? minus_zero : 0);
          memset(&got, 0x5a, sizeof got);
          s = ocl_reduce(test_ctx, OCL_REDUCE_BUILTIN_OP(op), type, data, n, &got, sizeof got);
          uint64_t bits = 0;
          memcpy(&bits, got.bytes, ocl_reduce_type_size(type));
          if (s != OCL_REDUCE_OK || bits != (min ? minus_zero : 0)) {
            print_error("%s %s n=%zu, %s at %zu: got bits 0x%llx (%s)\n",
                        ocl_reduce_op_name(OCL_REDUCE_BUILTIN_OP(op)), ocl_reduce_type_name(type),
                        n, min ? "-0.0 among +0.0" : "+0.0 among -0.0", at,
                        (unsigned long long)bits, ocl_reduce_status_name(s));
            failures++;
          }
        }
  }
  free(data);
  if (failures)
    fail_msg("%d lone NaN or signed-zero cases wrong", failures);
}

/* The partials of several groups finished the ways not every device takes by default: the last
 * group's first work-item alone, or a second launch (several groups, and one). The last group
 * with all its work-items is the GPUs' default and the GPU layout's (tests/CMakeLists.txt); on
 * PoCL 3.1's CPU device it needs that layout (reduce_all.cl). */
static void test_every_finish_matches_host_reference(void **state) {
  (void)state;
  static const char *const finishes[] = {"finish=serial", "finish=launch",
                                         "finish=launch,groups=3,wg=64"};
  static const size_t counts[] = {1, 1000, 100003, ((size_t)1 << 20) + 5};
  const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  const ocl_reduce_type types[] = {OCL_REDUCE_I32, OCL_REDUCE_U64, OCL_REDUCE_F32};
  double *data = malloc(counts[3] * sizeof *data);
  assert_non_null(data);
  int failures = 0;
  for (size_t f = 0; f < sizeof finishes / sizeof finishes[0]; f++) {
    ocl_reduce_context *ctx = test_context_with_policy(finishes[f]);
    assert_non_null(ctx);
    for (size_t c = 0; c < 4; c++)
      for (size_t o = 0; o < 3; o++)
        for (size_t t = 0; t < 3; t++) {
          test_fill(data, counts[c], ops[o], types[t], MODE_RANDOM);
          const test_reference ref =
              test_reduce_host(data, counts[c], ops[o], types[t], MODE_RANDOM);
          test_value got;
          memset(&got, 0xa5, sizeof got);
          char why[256] = "";
          const ocl_reduce_status s =
              ocl_reduce(ctx, ops[o], types[t], data, counts[c], &got, sizeof got);
          if (s != OCL_REDUCE_OK || !test_matches(&got, &ref, ops[o], types[t], why, sizeof why)) {
            print_error("%s: %s %s n=%zu: %s %s\n", finishes[f], ocl_reduce_op_name(ops[o]),
                        ocl_reduce_type_name(types[t]), counts[c], ocl_reduce_status_name(s),
                        why);
            failures++;
          }
        }
    ocl_reduce_context_destroy(ctx);
  }
  free(data);
  if (failures)
    fail_msg("%d forced-finish cases wrong", failures);
}

#define ENTRY(OP, TYPE) cmocka_unit_test(test_##OP##_##TYPE##_matches_host_reference),

int main(void) {
  const struct CMUnitTest tests[] = {
      TEST_OP_TYPES(ENTRY) cmocka_unit_test(test_lone_nan_and_signed_zero_win_min_and_max),
      cmocka_unit_test(test_every_finish_matches_host_reference)};
  return TEST_RUN(tests, setup, test_teardown);
}
