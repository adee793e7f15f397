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
  ocl_reduce_status s = ocl_reduce(test_ctx, op, type, data, n, &host_result);
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
    s = ocl_reduce_buffer_write(test_ctx, buf, offset * elem, data, n * elem);
  memset(&device_result, 0xa5, sizeof device_result);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_reduce(test_ctx, op, type, buf, offset, n, &device_result);
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
    s = ocl_reduce(test_ctx, op, type, data, n, &again);
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

#define ENTRY(OP, TYPE) cmocka_unit_test(test_##OP##_##TYPE##_matches_host_reference),

int main(void) {
  const struct CMUnitTest tests[] = {TEST_OP_TYPES(ENTRY)};
  return TEST_RUN(tests, setup, test_teardown);
}
