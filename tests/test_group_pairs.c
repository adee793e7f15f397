/* =================================================================================================
 * test_group_pairs.c: pair operators over a group of three contexts (ocl_reduce_group_pairs,
 * ocl_reduce_group_pairs_segments), parts of a KiB so that small inputs spread: the built-ins
 * against host references and user pair operators against host folds (pair_map's index counts
 * from the whole's first pair; an order-preserving operator's parts combine in device order),
 * each input host memory or a group buffer in every combination; under CROSS_DEVICE the bits of
 * one device; segments into host memory and into a group buffer of results; and every refusal
 * by name, with the result untouched.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_group.h"
#include "support/fixture.h"
#include "support/pair_reference.h"
#include "support/user_pairs.h"

#define DEVICES 3
#define MAX_PAIRS 30000

static ocl_reduce_context *members[DEVICES], *cross_members[DEVICES];
static ocl_reduce_group *group, *cross_group;
static ocl_reduce_operator *user_ops[TEST_USER_PAIR_COUNT];

static ocl_reduce_group *group_of(ocl_reduce_context **contexts) {
  static const double weights[DEVICES] = {3.0, 1.0, 2.0};
  ocl_reduce_group *g = NULL;
  if (ocl_reduce_group_create_from(contexts, DEVICES, &g) != OCL_REDUCE_OK ||
      ocl_reduce_group_set_shares(g, OCL_REDUCE_SHARES_HOST, weights) != OCL_REDUCE_OK) {
    fprintf(stderr, "group: %s\n", ocl_reduce_last_error(NULL));
    ocl_reduce_group_destroy(g);
    return NULL;
  }
  return g;
}

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  for (int d = 0; d < DEVICES; d++) {
    members[d] = test_context_with_policy("part_kib=1");
    setenv("OCL_REDUCE_DETERMINISM", "cross_device", 1);
    cross_members[d] = test_context_with_policy("part_kib=1");
    unsetenv("OCL_REDUCE_DETERMINISM");
    if (!members[d] || !cross_members[d])
      return -1;
  }
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++)
    if (ocl_reduce_operator_create(&test_user_pair_descs[w], &user_ops[w]) != OCL_REDUCE_OK)
      return -1;
  group = group_of(members);
  cross_group = group_of(cross_members);
  return group && cross_group ? 0 : -1;
}

static int teardown(void **state) {
  ocl_reduce_group_destroy(group);
  ocl_reduce_group_destroy(cross_group);
  for (int d = 0; d < DEVICES; d++) {
    ocl_reduce_context_destroy(members[d]);
    ocl_reduce_context_destroy(cross_members[d]);
  }
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++)
    ocl_reduce_operator_destroy(user_ops[w]);
  return test_teardown(state);
}

/* An input of n elements: host memory, or a group buffer of g (granule elements a unit) holding
 * them; *spread is the buffer to destroy, or NULL. */
static ocl_reduce_input input_of(ocl_reduce_group *g, const void *data, size_t n, size_t elem,
                                 int in_buffer, size_t granule, ocl_reduce_buffer **spread) {
  *spread = NULL;
  if (!in_buffer)
    return ocl_reduce_host_input(data, n * elem);
  assert_int_equal(ocl_reduce_group_buffer_create(g, elem, n, granule, spread), OCL_REDUCE_OK);
  if (n)
    assert_int_equal(ocl_reduce_buffer_write(*spread, 0, data, n * elem), OCL_REDUCE_OK);
  return ocl_reduce_buffer_input(*spread, 0);
}

/* Op over the n pairs of a and b on g, each input placed by `placed` (bit 0: a in a group
 * buffer, bit 1: b), in segments of `length` (0: whole), into `got`. */
static ocl_reduce_status run(ocl_reduce_group *g, ocl_reduce_op op, ocl_reduce_type type,
                             const void *a, const void *b, size_t n, size_t elem, int placed,
                             size_t length, void *got, size_t got_bytes) {
  ocl_reduce_buffer *sa, *sb;
  const size_t granule = length ? length : 1;
  const ocl_reduce_input in_a = input_of(g, a, n, elem, placed & 1, granule, &sa);
  const ocl_reduce_input in_b = input_of(g, b, n, elem, placed & 2, granule, &sb);
  const ocl_reduce_output out = ocl_reduce_host_output(got, got_bytes);
  const ocl_reduce_status s =
      length ? ocl_reduce_group_pairs_segments(g, op, type, in_a, in_b, n / length, length, out)
             : ocl_reduce_group_pairs(g, op, type, in_a, in_b, n, out);
  if (s != OCL_REDUCE_OK)
    print_error("%s: %s\n", ocl_reduce_status_name(s), ocl_reduce_last_error(NULL));
  ocl_reduce_buffer_destroy(sa);
  ocl_reduce_buffer_destroy(sb);
  return s;
}

/* DOT of i32, SQUARED_DISTANCE of f32 and COUNT_EQUAL of u32, whole and in segments of 33, in
 * every placement, against the host. */
static void test_builtin_pairs_over_the_group(void **state) {
  (void)state;
  static const ocl_reduce_type types[] = {OCL_REDUCE_I32, OCL_REDUCE_F32, OCL_REDUCE_U32};
  static const int ops[] = {0, 1, 3};
  static int32_t a[MAX_PAIRS], b[MAX_PAIRS];
  static unsigned char got[MAX_PAIRS / 33 * 8 + 8];
  char why[160];
  for (int k = 0; k < 3; k++)
    for (int placed = 0; placed < 4; placed++)
      for (size_t length = 0; length <= 33; length += 33) {
        const size_t n = placed == 3 && !length ? 7 : (1000 + test_rng_below(MAX_PAIRS - 1000)) /
                                                          33 * 33; /* 7: one device's part */
        const ocl_reduce_op op = OCL_REDUCE_PAIR_OP(ops[k]);
        const size_t rsize = ocl_reduce_result_size(op, types[k]), results = length ? n / 33 : 1;
        test_pair_fill(a, b, n, types[k], 0);
        assert_int_equal(run(group, op, types[k], a, b, n, 4, placed, length, got, sizeof got),
                         OCL_REDUCE_OK);
        for (size_t r = 0; r < results; r++)
          if (!test_pair_matches(ops[k], types[k], a + r * length, b + r * length,
                                 length ? length : n, got + r * rsize, why, sizeof why))
            fail_msg("%s of %s, %zu pairs, placement %d, segments of %zu: result %zu: %s",
                     ocl_reduce_op_name(op), ocl_reduce_type_name(types[k]), n, placed, length,
                     r, why);
      }
}

/* Each user pair operator, whole and in segments of 33, with both inputs in host memory and in
 * group buffers: exactly the host's fold. */
static void test_user_pairs_over_the_group(void **state) {
  (void)state;
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++) {
    const size_t elem = test_user_pair_descs[w].element_size;
    const size_t size = test_user_pair_descs[w].state_size, n = 33 * 300;
    unsigned char *a = malloc(n * elem), *b = malloc(n * elem), *got = malloc(n / 33 * size);
    unsigned char want[64];
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(got);
    test_user_pair_fill((test_user_pair)w, a, b, n);
    for (int placed = 0; placed < 4; placed += 3)
      for (size_t length = 0; length <= 33; length += 33) {
        assert_int_equal(run(group, user_ops[w], OCL_REDUCE_OP_ELEMENT, a, b, n, elem, placed,
                             length, got, n / 33 * size),
                         OCL_REDUCE_OK);
        for (size_t r = 0; r < (length ? n / length : 1); r++) {
          test_user_pair_reference((test_user_pair)w, a + r * length * elem,
                                   b + r * length * elem, length ? length : n, want);
          if (memcmp(got + r * size, want, size) != 0)
            fail_msg("%s, placement %d, segments of %zu: result %zu is not the host's fold",
                     test_user_pair_names[w], placed, length, r);
        }
      }
    free(a);
    free(b);
    free(got);
  }
}

/* Under CROSS_DEVICE a float dot product over the group has one device's bits. */
static void test_cross_device_pairs_are_one_devices_bits(void **state) {
  (void)state;
  static float a[MAX_PAIRS], b[MAX_PAIRS];
  const size_t n = MAX_PAIRS - test_rng_below(1000);
  test_pair_fill(a, b, n, OCL_REDUCE_F32, 0);
  float one = 0, got = 1;
  assert_int_equal(ocl_reduce_pairs(cross_members[0], OCL_REDUCE_DOT, OCL_REDUCE_F32,
                                    ocl_reduce_host_input(a, sizeof a),
                                    ocl_reduce_host_input(b, sizeof b), n,
                                    ocl_reduce_host_output(&one, sizeof one)),
                   OCL_REDUCE_OK);
  for (int placed = 0; placed < 4; placed += 3) {
    assert_int_equal(run(cross_group, OCL_REDUCE_DOT, OCL_REDUCE_F32, a, b, n, 4, placed, 0, &got,
                         sizeof got),
                     OCL_REDUCE_OK);
    if (memcmp(&got, &one, sizeof one) != 0)
      fail_msg("placement %d: %.9g over the group, %.9g on one device", placed, got, one);
  }
}

/* Segments whose results stay on the devices, in a group buffer of results. */
static void test_pair_segments_into_a_group_buffer(void **state) {
  (void)state;
  enum { LENGTH = 40, SEGMENTS = 500 };
  static int32_t a[LENGTH * SEGMENTS], b[LENGTH * SEGMENTS], got[SEGMENTS];
  test_pair_fill(a, b, LENGTH * SEGMENTS, OCL_REDUCE_I32, 0);
  ocl_reduce_buffer *sa, *sb, *results = NULL;
  const ocl_reduce_input in_a = input_of(group, a, LENGTH * SEGMENTS, 4, 1, LENGTH, &sa);
  const ocl_reduce_input in_b = input_of(group, b, LENGTH * SEGMENTS, 4, 1, LENGTH, &sb);
  assert_int_equal(ocl_reduce_group_buffer_create_results(sa, LENGTH, 4, &results),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_group_pairs_segments(group, OCL_REDUCE_DOT, OCL_REDUCE_I32, in_a,
                                                   in_b, SEGMENTS, LENGTH,
                                                   ocl_reduce_buffer_output(results, 0)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_read(results, 0, got, sizeof got), OCL_REDUCE_OK);
  char why[160];
  for (size_t s = 0; s < SEGMENTS; s++)
    if (!test_pair_matches(0, OCL_REDUCE_I32, a + s * LENGTH, b + s * LENGTH, LENGTH, &got[s],
                           why, sizeof why))
      fail_msg("segment %zu: %s", s, why);
  ocl_reduce_buffer_destroy(results);
  ocl_reduce_buffer_destroy(sa);
  ocl_reduce_buffer_destroy(sb);
}

static void test_group_pair_refusals(void **state) {
  (void)state;
  static int32_t a[1000], b[1000];
  int32_t result = 42;
  const ocl_reduce_input in_a = ocl_reduce_host_input(a, sizeof a);
  const ocl_reduce_output out = ocl_reduce_host_output(&result, sizeof result);
  ocl_reduce_buffer *one = NULL, *cut_a = NULL, *cut_b = NULL;
  assert_int_equal(ocl_reduce_buffer_create(members[0], sizeof b, &one), OCL_REDUCE_OK);
  expect_error(ocl_reduce_group_pairs(group, OCL_REDUCE_DOT, OCL_REDUCE_I32, in_a,
                                      ocl_reduce_buffer_input(one, 0), 1000, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "b is a buffer of one context");
  expect_error(ocl_reduce_group_pairs(group, OCL_REDUCE_DOT, OCL_REDUCE_I32, in_a,
                                      ocl_reduce_host_input(b, 999 * 4), 1000, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "b is 3996 bytes of host memory");
  expect_error(ocl_reduce_group_pairs(group, OCL_REDUCE_SUM, OCL_REDUCE_I32, in_a, in_a, 1000,
                                      out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "which reduces one input");
  expect_error(ocl_reduce_group_pairs(group, OCL_REDUCE_DOT, OCL_REDUCE_I32, in_a, in_a, 1000,
                                      ocl_reduce_host_output(&result, 2)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "result_bytes is 2");
  expect_error(ocl_reduce_group_segments(group, user_ops[TEST_PAIR_HASH], OCL_REDUCE_OP_ELEMENT,
                                         in_a, 10, 100, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "which reduces two inputs");
  /* Two group buffers cut apart. */
  assert_int_equal(ocl_reduce_group_buffer_create(group, 4, 994, 1, &cut_a), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_group_buffer_create(group, 4, 994, 7, &cut_b), OCL_REDUCE_OK);
  int differ = 0;
  for (size_t d = 0; d < DEVICES; d++) {
    ocl_reduce_buffer *part;
    size_t first_a, count_a, first_b, count_b;
    assert_int_equal(ocl_reduce_group_buffer_part(cut_a, d, &part, &first_a, &count_a),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_group_buffer_part(cut_b, d, &part, &first_b, &count_b),
                     OCL_REDUCE_OK);
    differ |= first_a != first_b || count_a != count_b;
  }
  assert_true(differ);
  expect_error(ocl_reduce_group_pairs(group, OCL_REDUCE_DOT, OCL_REDUCE_I32,
                                      ocl_reduce_buffer_input(cut_a, 0),
                                      ocl_reduce_buffer_input(cut_b, 0), 994, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "create both buffers alike");
  assert_int_equal(result, 42);
  ocl_reduce_buffer_destroy(one);
  ocl_reduce_buffer_destroy(cut_a);
  ocl_reduce_buffer_destroy(cut_b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_builtin_pairs_over_the_group),
      cmocka_unit_test(test_user_pairs_over_the_group),
      cmocka_unit_test(test_cross_device_pairs_are_one_devices_bits),
      cmocka_unit_test(test_pair_segments_into_a_group_buffer),
      cmocka_unit_test(test_group_pair_refusals),
  };
  return TEST_RUN(tests, setup, teardown);
}
