/* =================================================================================================
 * test_multi.c: several operators over one array in one pass (ocl_reduce_multi), every type, with
 * operator lists of one, three and every operator the type has, and repeats, over the boundary
 * sizes (0, 1, 2, subgroup +- 1, work-group +- 1, primes, >= 2^22), from host memory and from a
 * buffer at an unaligned offset, with results to host memory and into a buffer. Each result is
 * checked against the host reference of its operator.
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

/* An operator list and the operator whose kind of data suits all of them (products need values
 * near 1, AND and OR sparse bits; see test_fill). */
typedef struct op_list {
  const char *name;
  ocl_reduce_op ops[OCL_REDUCE_MULTI_MAX_OPS];
  size_t count;
  ocl_reduce_op data_for;
  int integer_only;
} op_list;

static const op_list lists[] = {
    {"sum,min,max", {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX}, 3, OCL_REDUCE_SUM, 0},
    {"prod", {OCL_REDUCE_PROD}, 1, OCL_REDUCE_PROD, 0},
    {"max,prod,max,min,sum",
     {OCL_REDUCE_MAX, OCL_REDUCE_PROD, OCL_REDUCE_MAX, OCL_REDUCE_MIN, OCL_REDUCE_SUM},
     5,
     OCL_REDUCE_PROD,
     0},
    {"every integer operator and xor again",
     {OCL_REDUCE_SUM, OCL_REDUCE_PROD, OCL_REDUCE_MIN, OCL_REDUCE_MAX, OCL_REDUCE_AND,
      OCL_REDUCE_OR, OCL_REDUCE_XOR, OCL_REDUCE_XOR},
     8,
     OCL_REDUCE_XOR,
     1},
    {"and,or", {OCL_REDUCE_AND, OCL_REDUCE_OR}, 2, OCL_REDUCE_AND, 1},
};

/* The bytes of one result's slot: the largest result of the list's operators (16-bit elements:
 * SUM's and PROD's f32, MIN's and MAX's the element). */
static size_t slot_of(const op_list *list, ocl_reduce_type type) {
  size_t slot = 0;
  for (size_t k = 0; k < list->count; k++)
    if (ocl_reduce_result_size(list->ops[k], type) > slot)
      slot = ocl_reduce_result_size(list->ops[k], type);
  return slot;
}

/* Reduces data with the list, host input and host results, or buffers; checks each result.
 * Returns the number of failures. */
static int check_case(const op_list *list, ocl_reduce_type type, test_mode mode, const void *data,
                      size_t n, int on_device) {
  const size_t elem = ocl_reduce_type_size(type), slot = slot_of(list, type);
  unsigned char results[(OCL_REDUCE_MULTI_MAX_OPS + 2) * 8];
  memset(results, 0xa5, sizeof results);
  ocl_reduce_status s;
  if (!on_device) {
    s = ocl_reduce_multi(test_ctx, list->ops, list->count, type,
                         ocl_reduce_host_input(data, n * elem), n,
                         ocl_reduce_host_output(results, TEST_BYTES(results)));
  } else {
    const size_t in_at = 1 + n % 3, out_at = 1;
    ocl_reduce_buffer *in = NULL, *out = NULL;
    s = ocl_reduce_buffer_create(test_ctx, (n + in_at) * elem, &in);
    if (s == OCL_REDUCE_OK && n)
      s = ocl_reduce_buffer_write(in, in_at * elem, data, n * elem);
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_buffer_create(test_ctx, (list->count + out_at) * slot, &out);
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_multi(test_ctx, list->ops, list->count, type,
                           ocl_reduce_buffer_input(in, in_at), n,
                           ocl_reduce_buffer_output(out, out_at));
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_buffer_read(out, out_at * slot, results, list->count * slot);
    ocl_reduce_buffer_destroy(in);
    ocl_reduce_buffer_destroy(out);
  }
  if (s != OCL_REDUCE_OK) {
    print_error("%s on %s n=%zu: %s: %s\n", list->name, ocl_reduce_type_name(type), n,
                ocl_reduce_status_name(s), ocl_reduce_last_error(test_ctx));
    return 1;
  }
  int failures = 0;
  for (size_t i = list->count * slot; i < sizeof results; i++)
    if (results[i] != 0xa5) {
      print_error("%s on %s n=%zu: wrote past the last result\n", list->name,
                  ocl_reduce_type_name(type), n);
      return 1;
    }
  for (size_t k = 0; k < list->count; k++) {
    const test_reference ref = test_reduce_host(data, n, list->ops[k], type, mode);
    test_value got;
    char why[256];
    memset(&got, 0, sizeof got);
    memcpy(got.bytes, results + k * slot, ocl_reduce_result_size(list->ops[k], type));
    if (!test_matches(&got, &ref, list->ops[k], type, why, sizeof why)) {
      print_error("%s on %s n=%zu mode=%s (%s): result %zu (%s): %s\n", list->name,
                  ocl_reduce_type_name(type), n, test_mode_name(mode),
                  on_device ? "buffers" : "host memory", k, ocl_reduce_op_name(list->ops[k]), why);
      failures++;
    }
  }
  return failures;
}

static void sweep(ocl_reduce_type type) {
  const int is_float = type == OCL_REDUCE_F32 || type == OCL_REDUCE_F64 ||
                       type == OCL_REDUCE_F16 || type == OCL_REDUCE_BF16;
  const size_t elem = ocl_reduce_type_size(type);
  void *data = malloc(sizes[size_count - 1] * elem + 8);
  assert_non_null(data);
  int failures = 0, cases = 0;
  for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
    if (lists[l].integer_only && is_float)
      continue;
    /* Light runs: three operators (padded to four slots) and the most there may be. */
    if (test_light() && l != 0 && l != sizeof lists / sizeof lists[0] - 1)
      continue;
    for (int mode = 0; mode < MODE_COUNT; mode++) {
      if (!test_mode_applies((test_mode)mode, type) || mode == MODE_EXACT)
        continue;
      for (size_t i = 0; i < size_count && failures < 10; i++) {
        if ((mode != MODE_RANDOM || test_light()) && sizes[i] > ((size_t)1 << 16))
          continue;
        test_fill(data, sizes[i], lists[l].data_for, type, (test_mode)mode);
        failures += check_case(&lists[l], type, (test_mode)mode, data, sizes[i], (int)(i % 2));
        cases++;
      }
    }
  }
  free(data);
  if (failures)
    fail_msg("%d mismatches in %d cases on %s", failures, cases, ocl_reduce_type_name(type));
}

#define TYPE_TEST(TYPE)                                                                            \
  static void test_##TYPE##_operator_lists_match_host_reference(void **state) {                   \
    (void)state;                                                                                   \
    sweep(OCL_REDUCE_##TYPE);                                                                      \
  }
TEST_TYPES(TYPE_TEST)

/* Host input larger than one upload (the staging buffer holds 16 Mi f32): per-piece partials,
 * then one reduction per operator. */
static void test_host_input_larger_than_one_upload(void **state) {
  (void)state;
  if (test_light()) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    skip();
  }
  const size_t n = ((size_t)20 << 20) + 7;
  float *data = malloc(n * sizeof *data);
  assert_non_null(data);
  test_fill(data, n, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
  assert_int_equal(check_case(&lists[0], OCL_REDUCE_F32, MODE_RANDOM, data, n, 0), 0);
  /* 16-bit elements: the pieces' f32 results reduced as f32, MIN and MAX given back narrow. */
  const size_t halves = ((size_t)36 << 20) + 5; /* more than the staging buffer's 32 Mi */
  uint16_t *narrow = malloc(halves * sizeof *narrow);
  assert_non_null(narrow);
  test_fill(narrow, halves, OCL_REDUCE_SUM, OCL_REDUCE_BF16, MODE_RANDOM);
  assert_int_equal(check_case(&lists[0], OCL_REDUCE_BF16, MODE_RANDOM, narrow, halves, 0), 0);
  free(narrow);
  free(data);
}

#define ENTRY(TYPE) cmocka_unit_test(test_##TYPE##_operator_lists_match_host_reference),

int main(void) {
  const struct CMUnitTest tests[] = {
      TEST_TYPES(ENTRY) cmocka_unit_test(test_host_input_larger_than_one_upload)};
  return TEST_RUN(tests, setup, test_teardown);
}
