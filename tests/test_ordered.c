/* =================================================================================================
 * test_ordered.c: order-preserving user operators (commutative == 0) against sequential host
 * folds: 2x2 matrix products over u32, compositions of f64 affine maps and of 16-state transition
 * tables (support/ordered_ops.h), whose results change with any slip in the order of combining.
 * Whole arrays over the boundary sizes from host memory and from a buffer at an unaligned offset,
 * into host memory and into a buffer, and across the staging pieces of host input; then under
 * forced layouts (runs read directly or through the local-memory stage, many groups, either
 * finish); then segments, equal and by offsets, with every segment strategy forced.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"
#include "support/ordered_ops.h"

/* A context and the operators created on it. */
typedef struct ordered_ctx {
  ocl_reduce_context *ctx;
  ocl_reduce_operator *ops[TEST_ORDERED_COUNT];
} ordered_ctx;

static ordered_ctx main_ctx;

static int create_ops(ordered_ctx *c) {
  for (int w = 0; w < TEST_ORDERED_COUNT; w++) {
    const ocl_reduce_status s = ocl_reduce_operator_create(&test_ordered_descs[w], &c->ops[w]);
    if (s != OCL_REDUCE_OK) {
      print_error("%s: %s (%s)\n", test_ordered_names[w], ocl_reduce_status_name(s),
                  ocl_reduce_last_error(c->ctx));
      return -1;
    }
  }
  return 0;
}

static void destroy_ops(ordered_ctx *c) {
  for (int w = 0; w < TEST_ORDERED_COUNT; w++)
    ocl_reduce_operator_destroy(c->ops[w]);
  memset(c->ops, 0, sizeof c->ops);
}

/* A context with `policy` added to the environment's, with the operators. */
static ordered_ctx open_ctx(const char *policy) {
  ordered_ctx c;
  memset(&c, 0, sizeof c);
  c.ctx = test_context_with_policy(policy);
  assert_non_null(c.ctx);
  assert_int_equal(create_ops(&c), 0);
  return c;
}

static void close_ctx(ordered_ctx *c) {
  destroy_ops(c);
  ocl_reduce_context_destroy(c->ctx);
}

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  main_ctx.ctx = test_ctx;
  return create_ops(&main_ctx);
}

static int teardown(void **state) {
  destroy_ops(&main_ctx);
  return test_teardown(state);
}

static void *random_elements(test_ordered w, size_t n) {
  void *data = malloc((n ? n : 1) * test_ordered_descs[w].element_size);
  assert_non_null(data);
  test_ordered_fill(w, data, n);
  return data;
}

/* ---- Whole arrays ------------------------------------------------------------------------- */

/* One result over data (n elements), input and output each in host memory or a buffer (input at
 * element offset 3, output at result 1); 1 on mismatch. */
static int check_whole(const ordered_ctx *c, const char *where, test_ordered w, const void *data,
                       size_t n, int in_buffer, int out_buffer) {
  const size_t elem = test_ordered_descs[w].element_size, state = test_ordered_descs[w].state_size;
  unsigned char got[3 * sizeof(test_matrix)];
  memset(got, 0xa5, sizeof got);
  ocl_reduce_buffer *in = NULL, *out = NULL;
  ocl_reduce_input input = ocl_reduce_host_input(data, n * elem);
  ocl_reduce_output output = ocl_reduce_host_output(got, state);
  if (in_buffer) {
    assert_int_equal(ocl_reduce_buffer_create(c->ctx, (n + 3) * elem, &in), OCL_REDUCE_OK);
    if (n)
      assert_int_equal(ocl_reduce_buffer_write(in, 3 * elem, data, n * elem), OCL_REDUCE_OK);
    input = ocl_reduce_buffer_input(in, 3);
  }
  if (out_buffer) {
    assert_int_equal(ocl_reduce_buffer_create(c->ctx, 2 * state, &out), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(out, 0, got, 2 * state), OCL_REDUCE_OK);
    output = ocl_reduce_buffer_output(out, 1);
  }
  const ocl_reduce_status s =
      ocl_reduce_into(c->ctx, c->ops[w], OCL_REDUCE_OP_ELEMENT, input, n, output);
  if (s == OCL_REDUCE_OK && out_buffer)
    assert_int_equal(ocl_reduce_buffer_read(out, 0, got, 2 * state), OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
  if (s != OCL_REDUCE_OK) {
    print_error("%s n=%zu (%s): %s (%s)\n", test_ordered_names[w], n, where,
                ocl_reduce_status_name(s), ocl_reduce_last_error(c->ctx));
    return 1;
  }
  /* A buffer output lands at result 1 and leaves result 0; host output fills exactly one. */
  const unsigned char *result = out_buffer ? got + state : got;
  int bad = !test_ordered_matches(w, data, n, result);
  for (size_t i = 0; i < (out_buffer ? state : sizeof got - state); i++)
    bad |= (out_buffer ? got[i] : got[state + i]) != 0xa5;
  if (bad)
    print_error("%s n=%zu (%s; input %s, output %s): out of order, or bytes beyond the result\n",
                test_ordered_names[w], n, where, in_buffer ? "buffer" : "host",
                out_buffer ? "buffer" : "host");
  return bad;
}

static void sweep(test_ordered w) {
  size_t sizes[128];
  const size_t count = test_sizes(test_context_shape(test_ctx), 0, sizes, 128);
  int failures = 0;
  for (size_t k = 0; k < count && failures < 5; k++) {
    if (test_light() && k % 3 != 0 && sizes[k] > 64)
      continue;
    void *data = random_elements(w, sizes[k]);
    failures += check_whole(&main_ctx, "automatic", w, data, sizes[k], 0, 0);
    failures += check_whole(&main_ctx, "automatic", w, data, sizes[k], 1, (int)(k % 2));
    free(data);
  }
  if (failures)
    fail_msg("%d failures", failures);
}

/* Host input of more than one staging piece (64 MiB): the pieces' states, then theirs combined,
 * in order. */
static void pieces(test_ordered w) {
  if (test_light()) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    skip();
  }
  const size_t n = ((size_t)64 << 20) / test_ordered_descs[w].element_size * 2 + 12345;
  void *data = random_elements(w, n);
  const int failures = check_whole(&main_ctx, "staging pieces", w, data, n, 0, 0);
  free(data);
  if (failures)
    fail_msg("%d failures", failures);
}

/* Forced layouts: runs read directly and through the local-memory stage, with small groups and
 * many of them. (The parallel finish, finish=group, is GPUs' and the GPU layout's on
 * implementations other than PoCL, whose 3.1 miscompiles it: see cl/kernels/reduce_all.cl.) */
static const char *const whole_policies[] = {
    "stream=transposed,wg=32,groups=7",
    "stream=chunk,wg=16,groups=5,unroll=3",
    "stream=transposed,wg=64,groups=3",
};

static void layouts(test_ordered w) {
  const size_t n_policies = sizeof whole_policies / sizeof whole_policies[0];
  static const size_t sizes[] = {1, 2, 31, 64 * 7 * 17 + 3, 100003};
  int failures = 0;
  for (size_t p = 0; p < n_policies; p++) {
    if (test_light() && p != 0)
      continue;
    ordered_ctx c = open_ctx(whole_policies[p]);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      void *data = random_elements(w, sizes[k]);
      failures += check_whole(&c, whole_policies[p], w, data, sizes[k], (int)(k % 2), 0);
      free(data);
    }
    close_ctx(&c);
  }
  if (failures)
    fail_msg("%d failures", failures);
}

/* ---- Segments ----------------------------------------------------------------------------- */

/* Segments of `lengths` (equal: one length; else random by offsets, empty ones included), each
 * against the fold of its elements; 1 on a mismatch. */
static int check_segments(const ordered_ctx *c, const char *where, test_ordered w, size_t count,
                          size_t length, int by_offsets, int offsets_in_buffer) {
  const size_t elem = test_ordered_descs[w].element_size, state = test_ordered_descs[w].state_size;
  uint64_t *offsets = malloc((count + 1) * sizeof *offsets);
  assert_non_null(offsets);
  offsets[0] = 2;
  for (size_t s = 0; s < count; s++)
    offsets[s + 1] = offsets[s] + (!by_offsets            ? length
                                   : test_rng_below(4) == 0 ? 0
                                                            : test_rng_below(3 * length));
  const size_t n = (size_t)offsets[count];
  unsigned char *data = random_elements(w, n), *got = malloc(count * state);
  assert_non_null(got);
  memset(got, 0xa5, count * state);
  ocl_reduce_status s;
  ocl_reduce_buffer *in = NULL, *offsets_buffer = NULL;
  if (offsets_in_buffer) {
    assert_int_equal(ocl_reduce_buffer_create(c->ctx, n * elem, &in), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(in, 0, data, n * elem), OCL_REDUCE_OK);
    assert_int_equal(
        ocl_reduce_buffer_create(c->ctx, (count + 1) * sizeof *offsets, &offsets_buffer),
        OCL_REDUCE_OK);
    assert_int_equal(
        ocl_reduce_buffer_write(offsets_buffer, 0, offsets, (count + 1) * sizeof *offsets),
        OCL_REDUCE_OK);
    s = ocl_reduce_segments_offsets(
        c->ctx, c->ops[w], OCL_REDUCE_OP_ELEMENT, ocl_reduce_buffer_input(in, 0), count,
        ocl_reduce_buffer_input(offsets_buffer, 0), ocl_reduce_host_output(got, count * state));
  } else if (by_offsets) {
    s = ocl_reduce_segments_offsets(c->ctx, c->ops[w], OCL_REDUCE_OP_ELEMENT,
                                    ocl_reduce_host_input(data, n * elem), count,
                                    ocl_reduce_host_input(offsets, (count + 1) * sizeof *offsets),
                                    ocl_reduce_host_output(got, count * state));
  } else {
    s = ocl_reduce_segments(c->ctx, c->ops[w], OCL_REDUCE_OP_ELEMENT,
                            ocl_reduce_host_input(data + 2 * elem, (n - 2) * elem), count, length,
                            ocl_reduce_host_output(got, count * state));
  }
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(offsets_buffer);
  int failures = 0;
  if (s != OCL_REDUCE_OK) {
    print_error("%s segments (%s): %s (%s)\n", test_ordered_names[w], where,
                ocl_reduce_status_name(s), ocl_reduce_last_error(c->ctx));
    failures = 1;
  }
  for (size_t i = 0; i < count && !failures; i++) {
    const size_t begin = (size_t)offsets[i], len = (size_t)(offsets[i + 1] - offsets[i]);
    if (!test_ordered_matches(w, data + begin * elem, len, got + i * state)) {
      print_error("%s segment %zu of %zu elements (%s, %s): out of order\n",
                  test_ordered_names[w], i, len, where,
                  offsets_in_buffer ? "offsets in a buffer"
                  : by_offsets      ? "offsets"
                                    : "equal lengths");
      failures = 1;
    }
  }
  free(offsets);
  free(data);
  free(got);
  return failures;
}

/* The automatic strategy over lengths from one element to several groups' worth, then each
 * strategy forced (STAGED takes elements of the library's types only: the others fall back). */
static void segments(test_ordered w) {
  static const size_t lengths[] = {1, 3, 32, 33, 100, 1000, 5000};
  int failures = 0;
  for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
    if (test_light() && li % 2)
      continue;
    failures += check_segments(&main_ctx, "automatic", w, lengths[li] > 1000 ? 7 : 257,
                               lengths[li], 0, 0);
  }
  failures += check_segments(&main_ctx, "automatic", w, 300, 100, 1, 0);
  failures += check_segments(&main_ctx, "automatic", w, 300, 100, 1, 1);
  static const char *const modes[] = {"seg=mr", "seg=group", "seg=lane", "seg=launch",
                                      "seg=staged"};
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    if (test_light() && m >= 3)
      continue;
    ordered_ctx c = open_ctx(modes[m]);
    failures += check_segments(&c, modes[m], w, 45, 67, 0, 0);
    failures += check_segments(&c, modes[m], w, 40, 300, 1, m % 2);
    close_ctx(&c);
  }
  if (failures)
    fail_msg("%d failures", failures);
}

#define WHICH_TESTS(X) X(MATRIX) X(AFFINE) X(FSM)
#define TESTS_OF(W)                                                                                \
  static void test_whole_##W(void **state) {                                                       \
    (void)state;                                                                                   \
    sweep(TEST_##W);                                                                               \
  }                                                                                                \
  static void test_pieces_##W(void **state) {                                                      \
    (void)state;                                                                                   \
    pieces(TEST_##W);                                                                              \
  }                                                                                                \
  static void test_layouts_##W(void **state) {                                                     \
    (void)state;                                                                                   \
    layouts(TEST_##W);                                                                             \
  }                                                                                                \
  static void test_segments_##W(void **state) {                                                    \
    (void)state;                                                                                   \
    segments(TEST_##W);                                                                            \
  }
WHICH_TESTS(TESTS_OF)

#define ENTRY(W)                                                                                   \
  cmocka_unit_test(test_whole_##W), cmocka_unit_test(test_pieces_##W),                             \
      cmocka_unit_test(test_layouts_##W), cmocka_unit_test(test_segments_##W),

int main(void) {
  const struct CMUnitTest tests[] = {WHICH_TESTS(ENTRY)};
  return TEST_RUN(tests, setup, teardown);
}
