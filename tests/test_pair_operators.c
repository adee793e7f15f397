/* =================================================================================================
 * test_pair_operators.c: user pair operators (ocl_reduce_operator_desc.pair_map) through
 * ocl_reduce_pairs and ocl_reduce_pairs_segments, against host folds of the same functions
 * (support/user_pairs.c): the largest product with its first index (pair_map's index), an order-
 * preserving hash (a non-commutative combine), summed distances of struct elements and a hash of
 * 64-byte rows (the largest elements). Each over the boundary sizes, from host memory and from
 * buffers at offsets of their own, whole (with groups finished in the launch and by a launch of
 * their own, and from host memory in pieces) and in segments of lengths that take each strategy,
 * and empty; then every refusal by name, with the output untouched: a pair operator in a one-input
 * call and the reverse, a descriptor with both maps, a pair_map the source lacks or whose signature
 * does not fit, a type that is not the operator's; and a 0.2 descriptor (without pair_map) still
 * accepted.
 * ============================================================================================== */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/user_pairs.h"

static ocl_reduce_operator *ops[TEST_USER_PAIR_COUNT];

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++) {
    const ocl_reduce_status s = ocl_reduce_operator_create(&test_user_pair_descs[w], &ops[w]);
    if (s != OCL_REDUCE_OK) {
      print_error("%s: %s (%s)\n", test_user_pair_names[w], ocl_reduce_status_name(s),
                  ocl_reduce_last_error(NULL));
      return -1;
    }
  }
  return 0;
}

static int teardown(void **state) {
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++)
    ocl_reduce_operator_destroy(ops[w]);
  return test_teardown(state);
}

/* Where the inputs lie: host memory, or buffers at element offsets. */
typedef struct placement {
  const char *name;
  int a_buffer, b_buffer;
  size_t a_at, b_at;
} placement;
static const placement placements[] = {
    {"host memory", 0, 0, 0, 0},
    {"buffers at offsets 3 and 1", 1, 1, 3, 1},
    {"a in host memory, b in a buffer at 2", 0, 1, 0, 2},
};

/* An input of n elements of `elem` bytes as placed; *buf holds a buffer to destroy. */
static ocl_reduce_input place(const void *data, size_t n, size_t elem, int in_buffer, size_t at,
                              ocl_reduce_buffer **buf) {
  *buf = NULL;
  if (!in_buffer)
    return ocl_reduce_host_input(data, n * elem);
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, (n + at) * elem + 1, buf), OCL_REDUCE_OK);
  if (n)
    assert_int_equal(ocl_reduce_buffer_write(*buf, at * elem, data, n * elem), OCL_REDUCE_OK);
  return ocl_reduce_buffer_input(*buf, at);
}

/* n pairs as `length`-pair segments (0: whole) with operator w; 1 on a wrong result, a byte
 * written past the results or a failed call. */
static int check(test_user_pair w, const placement *p, const void *a, const void *b, size_t n,
                 size_t length) {
  const size_t elem = test_user_pair_descs[w].element_size;
  const size_t state = test_user_pair_descs[w].state_size, results = length ? n / length : 1;
  ocl_reduce_buffer *buf_a, *buf_b;
  const ocl_reduce_input in_a = place(a, n, elem, p->a_buffer, p->a_at, &buf_a);
  const ocl_reduce_input in_b = place(b, n, elem, p->b_buffer, p->b_at, &buf_b);
  unsigned char *got = malloc(results * state + 16), want[64];
  assert_non_null(got);
  memset(got, 0xa5, results * state + 16);
  const ocl_reduce_output out = ocl_reduce_host_output(got, results * state);
  const ocl_reduce_status s =
      length ? ocl_reduce_pairs_segments(test_ctx, ops[w], OCL_REDUCE_OP_ELEMENT, in_a, in_b,
                                         results, length, out)
             : ocl_reduce_pairs(test_ctx, ops[w], OCL_REDUCE_OP_ELEMENT, in_a, in_b, n, out);
  ocl_reduce_buffer_destroy(buf_a);
  ocl_reduce_buffer_destroy(buf_b);
  int failed = 0;
  if (s != OCL_REDUCE_OK) {
    print_error("%s n=%zu length=%zu (%s): %s: %s\n", test_user_pair_names[w], n, length,
                p->name, ocl_reduce_status_name(s), ocl_reduce_last_error(test_ctx));
    failed = 1;
  }
  for (size_t r = 0; r < results && !failed; r++) {
    const size_t first = length * r;
    test_user_pair_reference(w, (const char *)a + first * elem, (const char *)b + first * elem,
                             length ? length : n, want);
    if (memcmp(got + r * state, want, state) != 0) {
      print_error("%s n=%zu length=%zu (%s): result %zu differs from the host's fold\n",
                  test_user_pair_names[w], n, length, p->name, r);
      failed = 1;
    }
  }
  for (size_t i = results * state; i < results * state + 16 && !failed; i++)
    if (got[i] != 0xa5) {
      print_error("%s n=%zu: wrote past the results\n", test_user_pair_names[w], n);
      failed = 1;
    }
  free(got);
  return failed;
}

/* Every operator over the boundary sizes (light runs: every third, none past 2^14), the
 * placements taking turns. */
static void test_whole_arrays(void **state) {
  (void)state;
  size_t sizes[128];
  const size_t count = test_sizes(test_context_shape(test_ctx), 0, sizes, 128);
  const size_t every = test_light() ? 3 : 1;
  int failures = 0, cases = 0;
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++) {
    /* 64-byte elements up to 2^16 pairs (8 MiB a side). */
    const size_t elem = test_user_pair_descs[w].element_size;
    const size_t most = test_light() ? (size_t)1 << 14 : elem < 64 ? sizes[count - 1] : 65537;
    void *a = malloc(most * elem + 1), *b = malloc(most * elem + 1);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t k = 0; k < count && failures < 8; k++) {
      if ((k + (size_t)w) % every != 0 || sizes[k] > most)
        continue;
      test_user_pair_fill((test_user_pair)w, a, b, sizes[k]);
      const placement *p = &placements[(k + (size_t)w) % (sizeof placements / sizeof *placements)];
      failures += check((test_user_pair)w, p, a, b, sizes[k], 0);
      cases++;
    }
    free(a);
    free(b);
  }
  printf("# %d whole-array cases, %d failed\n", cases, failures);
  assert_int_equal(failures, 0);
}

/* Segments short and long (a work-item, the multireduction, a work-group per segment), from
 * host memory and from buffers. */
static void test_segments(void **state) {
  (void)state;
  static const size_t lengths[] = {1, 5, 32, 33, 700, 5000};
  const size_t elements = test_light() ? 20000 : 60000;
  int failures = 0, cases = 0;
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++) {
    const size_t elem = test_user_pair_descs[w].element_size;
    void *a = malloc(elements * elem), *b = malloc(elements * elem);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++) {
      const size_t n = elements / lengths[k] * lengths[k];
      test_user_pair_fill((test_user_pair)w, a, b, n);
      failures += check((test_user_pair)w, &placements[k % 2], a, b, n, lengths[k]);
      cases++;
    }
    free(a);
    free(b);
  }
  printf("# %d segment cases, %d failed\n", cases, failures);
  assert_int_equal(failures, 0);
}

/* Groups finished by a launch of their own, which reads no pairs (launch.c), on many groups. */
static void test_finished_by_a_launch(void **state) {
  (void)state;
  ocl_reduce_context *saved = test_ctx;
  test_ctx = test_context_with_policy("finish=launch,groups=16,wg=32");
  assert_non_null(test_ctx);
  const size_t n = 40000;
  int failures = 0;
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++) {
    const size_t elem = test_user_pair_descs[w].element_size;
    void *a = malloc(n * elem), *b = malloc(n * elem);
    assert_non_null(a);
    assert_non_null(b);
    test_user_pair_fill((test_user_pair)w, a, b, n);
    failures += check((test_user_pair)w, &placements[1], a, b, n, 0);
    free(a);
    free(b);
  }
  ocl_reduce_context_destroy(test_ctx);
  test_ctx = saved;
  assert_int_equal(failures, 0);
}

/* Host inputs larger than half the staging buffer (64 MiB) go up in pieces: pair_map's index
 * still counts from the first pair, as the largest product, planted in the second piece, shows. */
static void test_host_pieces_keep_indices(void **state) {
  (void)state;
  const size_t n = ((size_t)1 << 23) + 1000, at = n - 5;
  int32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  assert_non_null(a);
  assert_non_null(b);
  test_user_pair_fill(TEST_PAIR_ARGMAX_PRODUCT, a, b, n);
  a[at] = b[at] = 1 << 20; /* 2^40: past every other product */
  struct {
    int64_t value;
    uint64_t index;
  } got = {0, 0};
  assert_int_equal(ocl_reduce_pairs(test_ctx, ops[TEST_PAIR_ARGMAX_PRODUCT], OCL_REDUCE_I32,
                                    ocl_reduce_host_input(a, n * sizeof *a),
                                    ocl_reduce_host_input(b, n * sizeof *b), n,
                                    ocl_reduce_host_output(&got, sizeof got)),
                   OCL_REDUCE_OK);
  assert_int_equal(got.value, (int64_t)1 << 40);
  assert_int_equal(got.index, at);
  free(a);
  free(b);
}

/* No pairs: the operator's identity (and no segments: nothing written). */
static void test_empty(void **state) {
  (void)state;
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++) {
    unsigned char got[64], want[64];
    test_user_pair_reference((test_user_pair)w, NULL, NULL, 0, want);
    const size_t size = test_user_pair_descs[w].state_size;
    memset(got, 0xa5, sizeof got);
    const ocl_reduce_input none = ocl_reduce_host_input(got, 0);
    assert_int_equal(ocl_reduce_pairs(test_ctx, ops[w], OCL_REDUCE_OP_ELEMENT, none, none, 0,
                                      ocl_reduce_host_output(got, size)),
                     OCL_REDUCE_OK);
    assert_memory_equal(got, want, size);
    memset(got, 0xa5, sizeof got);
    assert_int_equal(ocl_reduce_pairs_segments(test_ctx, ops[w], OCL_REDUCE_OP_ELEMENT, none,
                                               none, 0, 4, ocl_reduce_host_output(got, 0)),
                     OCL_REDUCE_OK);
    assert_int_equal(got[0], 0xa5);
  }
}

/* A descriptor's refusal by name. */
static void expect_desc_error(const ocl_reduce_operator_desc *d, const char *needle) {
  ocl_reduce_operator *op = (ocl_reduce_operator *)&op;
  expect_error(ocl_reduce_operator_create(d, &op), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               needle);
}

static void test_refusals(void **state) {
  (void)state;
  const ocl_reduce_op product = ops[TEST_PAIR_ARGMAX_PRODUCT];
  assert_int_equal(ocl_reduce_result_size(product, OCL_REDUCE_OP_ELEMENT), 16);
  assert_int_equal(ocl_reduce_result_size(product, OCL_REDUCE_I32), 16);
  assert_int_equal(ocl_reduce_state_size(test_ctx, product, OCL_REDUCE_OP_ELEMENT), 0);
  assert_string_equal(ocl_reduce_op_name(product), "best_of");
  int32_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char result[16];
  memset(result, 0x5a, sizeof result);
  const ocl_reduce_input in = ocl_reduce_host_input(a, sizeof a);
  const ocl_reduce_output out = ocl_reduce_host_output(result, sizeof result);
  /* The element's scalar type names it too; another type does not. */
  assert_int_equal(ocl_reduce_pairs(test_ctx, product, OCL_REDUCE_I32, in, in, 8, out),
                   OCL_REDUCE_OK);
  memset(result, 0x5a, sizeof result);
  expect_error(ocl_reduce_pairs(test_ctx, product, OCL_REDUCE_F32, in, in, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "type is f32");
  /* A pair operator in a one-input call, and a one-input operator in a pair call. */
  expect_error(ocl_reduce_into(test_ctx, product, OCL_REDUCE_OP_ELEMENT, in, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx,
               "user pair operator 'best_of' (identity best_none, pair_map best_product");
  expect_error(ocl_reduce_segments(test_ctx, product, OCL_REDUCE_OP_ELEMENT, in, 2, 4, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "which reduces two inputs");
  ocl_reduce_operator *squares = NULL;
  assert_int_equal(ocl_reduce_operator_create(&test_custom_descs[TEST_SQUARES], &squares),
                   OCL_REDUCE_OK);
  expect_error(ocl_reduce_pairs(test_ctx, squares, OCL_REDUCE_OP_ELEMENT, in, in, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx,
               "'sq_add' (identity sq_zero, map sq_map, combine sq_add), which reduces one input");
  ocl_reduce_operator_destroy(squares);
  for (size_t i = 0; i < sizeof result; i++)
    assert_int_equal(result[i], 0x5a);

  /* Descriptors: both maps; a pair_map the source does not define. */
  ocl_reduce_operator_desc d = test_user_pair_descs[TEST_PAIR_HASH];
  d.map = "hash_pair";
  expect_desc_error(&d, "desc->map (\"hash_pair\") and desc->pair_map (\"hash_pair\") are both");
  d.map = NULL;
  d.pair_map = "hash_elsewhere";
  expect_desc_error(&d, "desc->pair_map names \"hash_elsewhere\", which desc->source does not");
  /* A pair_map without the index: the build names its role and signature. */
  d = test_user_pair_descs[TEST_PAIR_POINTS];
  d.source = "typedef struct point2 { int x, y; } point2;\n"
             "ulong points_zero(void) { return 0; }\n"
             "ulong points_distance(point2 a, point2 b) { return (ulong)(a.x - b.x); }\n"
             "ulong points_add(ulong a, ulong b) { return a + b; }\n";
  ocl_reduce_operator *unfit = NULL;
  assert_int_equal(ocl_reduce_operator_create(&d, &unfit), OCL_REDUCE_OK);
  expect_error(ocl_reduce_pairs(test_ctx, unfit, OCL_REDUCE_OP_ELEMENT, in, in, 4, out),
               OCL_REDUCE_ERROR_BUILD, test_ctx, "pair_map");
  ocl_reduce_operator_destroy(unfit);
}

/* A descriptor of 0.2's size, which ends before pair_map, makes a one-input operator. */
static void test_descriptor_without_pair_map(void **state) {
  (void)state;
  ocl_reduce_operator_desc d = test_custom_descs[TEST_SQUARES];
  d.struct_size = offsetof(ocl_reduce_operator_desc, pair_map);
  ocl_reduce_operator *op = NULL;
  assert_int_equal(ocl_reduce_operator_create(&d, &op), OCL_REDUCE_OK);
  const uint32_t x[3] = {1, 2, 3};
  uint64_t sum = 0;
  assert_int_equal(ocl_reduce(test_ctx, op, OCL_REDUCE_OP_ELEMENT, x, 3, &sum, sizeof sum),
                   OCL_REDUCE_OK);
  assert_int_equal(sum, 14);
  ocl_reduce_operator_destroy(op);
  d.struct_size = offsetof(ocl_reduce_operator_desc, pair_map) - 1;
  expect_desc_error(&d, "desc->struct_size is");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole_arrays),
      cmocka_unit_test(test_segments),
      cmocka_unit_test(test_finished_by_a_launch),
      cmocka_unit_test(test_host_pieces_keep_indices),
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_descriptor_without_pair_map),
  };
  return TEST_RUN(tests, setup, teardown);
}
