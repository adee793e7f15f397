/* =================================================================================================
 * test_states.c: reductions in parts (ocl_reduce_partial, ocl_reduce_merge, ocl_reduce_final and
 * ocl_reduce_final_host). Arrays are cut at random points into up to 9 parts, empty ones
 * included; each part is reduced to its state from host memory or from a buffer at the part's
 * offset, into host memory or a buffer; the states are combined from host memory, from a buffer
 * at an offset, through a tree of merges, and (built-in operators) on the calling thread. Every
 * operator on every type, the structured ones, the user operators (the order-preserving ones must
 * combine in index order) and SUM under cross_device; results against the host references of the
 * whole array, and where the header promises the same bits whatever the split, against the whole
 * array's own reduction too.
 * ============================================================================================== */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/ordered_ops.h"
#include "support/structured.h"

#define MAX_PARTS 9
#define MAX_STATE 64
#define MAX_ELEMENTS 20000

static ocl_reduce_context *cross_ctx; /* OCL_REDUCE_DETERMINISM=cross_device */
static int has_fp64;

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  if (ocl_reduce_context_query(test_ctx, &info) != OCL_REDUCE_OK)
    return -1;
  has_fp64 = info.has_fp64;
  cross_ctx = test_context_cross_device();
  return cross_ctx ? 0 : -1;
}

static int teardown(void **state) {
  ocl_reduce_context_destroy(cross_ctx);
  return test_teardown(state);
}

/* ---- Parts --------------------------------------------------------------------------------- */

/* n elements cut into `count` parts: part p is [begin[p], begin[p + 1]). */
typedef struct split {
  size_t count;
  size_t begin[MAX_PARTS + 1];
} split;

static int compare_sizes(const void *a, const void *b) {
  const size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

static split random_split(size_t n) {
  split s;
  s.count = 1 + (size_t)test_rng_below(MAX_PARTS);
  s.begin[0] = 0;
  for (size_t p = 1; p < s.count; p++) /* a third of the cuts repeat one: empty parts */
    s.begin[p] = p > 1 && test_rng_below(3) == 0 ? s.begin[p - 1] : test_rng_below(n + 1);
  qsort(s.begin + 1, s.count - 1, sizeof s.begin[0], compare_sizes);
  s.begin[s.count] = n;
  return s;
}

/* One operator, built-in or a user's, as the calls under test take it. */
typedef struct subject {
  ocl_reduce_context *ctx;
  ocl_reduce_op op; /* built-in, when user is NULL */
  ocl_reduce_type type;
  const ocl_reduce_operator *user;
  size_t elem, state, result;
} subject;

static ocl_reduce_status state_of(const subject *s, ocl_reduce_input in, size_t count,
                                  uint64_t index_base, ocl_reduce_output out) {
  return s->user ? ocl_reduce_partial(s->ctx, s->user, OCL_REDUCE_OP_ELEMENT, in, count, index_base,
                                      out)
                 : ocl_reduce_partial(s->ctx, s->op, s->type, in, count, index_base, out);
}

static ocl_reduce_status result_of(const subject *s, ocl_reduce_input states, size_t count,
                                   ocl_reduce_output out) {
  return s->user ? ocl_reduce_final(s->ctx, s->user, OCL_REDUCE_OP_ELEMENT, states, count, out)
                 : ocl_reduce_final(s->ctx, s->op, s->type, states, count, out);
}

/* Built-in operators merge into a state; a user operator's result is its state. */
static ocl_reduce_status merge_of(const subject *s, ocl_reduce_input states, size_t count,
                                  ocl_reduce_output out) {
  return s->user ? ocl_reduce_final(s->ctx, s->user, OCL_REDUCE_OP_ELEMENT, states, count, out)
                 : ocl_reduce_merge(s->ctx, s->op, s->type, states, count, out);
}

#define CHECK_OK(call, what)                                                                       \
  do {                                                                                             \
    const ocl_reduce_status status_ = (call);                                                      \
    if (status_ != OCL_REDUCE_OK)                                                                  \
      fail_msg("%s: %s: %s (%s)", what, #call, ocl_reduce_status_name(status_),                    \
               ocl_reduce_last_error(s->ctx));                                                     \
  } while (0)

/* Reduces the n elements at data in parts, combining the states into got[0..2] (result bytes
 * each) from host memory, from a buffer at an offset and through two merges, and for built-in
 * operators into got[3] on the calling thread (ocl_reduce_final_host; the states misaligned in
 * host memory every other time). Returns the combines made: 3 or 4. */
#define COMBINES 4
static int reduce_in_parts(const subject *s, const void *data, size_t n, const char *what,
                           unsigned char got[COMBINES][MAX_STATE]) {
  const split cut = random_split(n);
  ocl_reduce_buffer *in = NULL, *states_buf = NULL, *out = NULL;
  CHECK_OK(ocl_reduce_buffer_create(s->ctx, (n ? n : 1) * s->elem, &in), what);
  if (n)
    CHECK_OK(ocl_reduce_buffer_write(in, 0, data, n * s->elem), what);
  CHECK_OK(ocl_reduce_buffer_create(s->ctx, (MAX_PARTS + 1) * s->state, &states_buf), what);
  CHECK_OK(ocl_reduce_buffer_create(s->ctx, 2 * s->result, &out), what);
  /* Part p from host memory or the buffer; its state to host memory or to slot p + 1 of the
   * states buffer; then each copied to the other place. */
  alignas(16) unsigned char states[MAX_PARTS * MAX_STATE + 16];
  for (size_t p = 0; p < cut.count; p++) {
    const size_t begin = cut.begin[p], count = cut.begin[p + 1] - begin;
    const ocl_reduce_input part =
        p % 2 ? ocl_reduce_buffer_input(in, begin)
              : ocl_reduce_host_input((const char *)data + begin * s->elem, count * s->elem);
    unsigned char *host_state = states + p * s->state;
    if (p % 3 == 1) {
      CHECK_OK(state_of(s, part, count, begin, ocl_reduce_buffer_output(states_buf, p + 1)), what);
      CHECK_OK(ocl_reduce_buffer_read(states_buf, (p + 1) * s->state, host_state, s->state), what);
    } else {
      CHECK_OK(state_of(s, part, count, begin, ocl_reduce_host_output(host_state, s->state)), what);
      CHECK_OK(ocl_reduce_buffer_write(states_buf, (p + 1) * s->state, host_state, s->state), what);
    }
  }
  CHECK_OK(result_of(s, ocl_reduce_host_input(states, cut.count * s->state), cut.count,
                     ocl_reduce_host_output(got[0], s->result)),
           what);
  CHECK_OK(result_of(s, ocl_reduce_buffer_input(states_buf, 1), cut.count,
                     ocl_reduce_buffer_output(out, 1)),
           what);
  CHECK_OK(ocl_reduce_buffer_read(out, s->result, got[1], s->result), what);
  /* A tree: the first h states merged into one (host memory), the rest into another (a buffer),
   * then the two combined. */
  const size_t h = (size_t)test_rng_below(cut.count + 1);
  unsigned char merged[2 * MAX_STATE];
  CHECK_OK(merge_of(s, ocl_reduce_host_input(states, h * s->state), h,
                    ocl_reduce_host_output(merged, s->state)),
           what);
  CHECK_OK(merge_of(s, ocl_reduce_buffer_input(states_buf, 1 + h), cut.count - h,
                    ocl_reduce_buffer_output(states_buf, 0)),
           what);
  CHECK_OK(ocl_reduce_buffer_read(states_buf, 0, merged + s->state, s->state), what);
  CHECK_OK(result_of(s, ocl_reduce_host_input(merged, 2 * s->state), 2,
                     ocl_reduce_host_output(got[2], s->result)),
           what);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(states_buf);
  ocl_reduce_buffer_destroy(out);
  if (s->user)
    return 3;
  /* Without a context: a cross_device context's SUM states are SUM_REPRODUCIBLE's. */
  const ocl_reduce_op as_run =
      s->state != ocl_reduce_state_size(NULL, s->op, s->type) ? OCL_REDUCE_SUM_REPRODUCIBLE : s->op;
  const unsigned char *host_states = states;
  if (test_rng_below(2)) {
    memmove(states + 4, states, cut.count * s->state);
    host_states = states + 4;
  }
  CHECK_OK(ocl_reduce_final_host(as_run, s->type,
                                 ocl_reduce_host_input(host_states, cut.count * s->state),
                                 cut.count, ocl_reduce_host_output(got[3], s->result)),
           what);
  return 4;
}

/* ---- Built-in operators ---------------------------------------------------------------------- */

static void check_builtin(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                          test_mode mode, size_t n) {
  if (type == OCL_REDUCE_F64 && !has_fp64)
    return;
  const subject s = {ctx,
                     op,
                     type,
                     NULL,
                     ocl_reduce_type_size(type),
                     ocl_reduce_state_size(ctx, op, type),
                     ocl_reduce_result_size(op, type)};
  assert_true(s.state > 0 && s.state <= MAX_STATE);
  void *data = malloc((n ? n : 1) * s.elem);
  assert_non_null(data);
  test_fill(data, n, op, type, mode);
  char what[160];
  snprintf(what, sizeof what, "%s %s, %zu elements, %s%s", ocl_reduce_op_name(op),
           ocl_reduce_type_name(type), n, test_mode_name(mode),
           ctx == cross_ctx ? ", cross_device" : "");
  unsigned char got[COMBINES][MAX_STATE], whole[MAX_STATE];
  const int combines = reduce_in_parts(&s, data, n, what, got);
  const ocl_reduce_status w = ocl_reduce(ctx, op, type, n ? data : NULL, n, whole, sizeof whole);
  if (w != OCL_REDUCE_OK)
    fail_msg("%s: ocl_reduce: %s", what, ocl_reduce_last_error(ctx));
  for (int k = 0; k < combines; k++) {
    char why[256] = "";
    int ok;
    if (test_op_structured(op)) {
      ok = test_structured_matches(got[k], data, n, op, type, why, sizeof why);
    } else {
      const test_reference ref = test_reduce_host(data, n, op, type, mode);
      test_value v;
      memcpy(v.bytes, got[k], s.result);
      ok = test_matches(&v, &ref, op, type, why, sizeof why);
    }
    if (ok && (test_split_keeps_bits(op, type, mode) || ctx == cross_ctx) &&
        memcmp(got[k], whole, s.result) != 0) {
      ok = 0;
      snprintf(why, sizeof why, "not the bits of the whole array's reduction");
    }
    if (!ok)
      fail_msg("%s, combined %s: %s", what,
               k == 0   ? "from host memory"
               : k == 1 ? "from a buffer"
               : k == 2 ? "through merges"
                        : "on the host (ocl_reduce_final_host)",
               why);
  }
  free(data);
}

/* Light runs: sums and max on i32, f32 and f64, and three structured operators. */
static int light_case(ocl_reduce_op op, ocl_reduce_type type) {
  if (op == OCL_REDUCE_ARGMIN || op == OCL_REDUCE_MEAN_VAR || op == OCL_REDUCE_SUM_REPRODUCIBLE)
    return type == OCL_REDUCE_F32;
  return (op == OCL_REDUCE_SUM || op == OCL_REDUCE_MAX) &&
         (type == OCL_REDUCE_I32 || type == OCL_REDUCE_F32 || type == OCL_REDUCE_F64);
}

/* Random data, no elements, and for scalar operators on floats NaNs among them. */
static void check_op_type(ocl_reduce_op op, ocl_reduce_type type) {
  if (test_light() && !light_case(op, type)) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    skip();
  }
  check_builtin(test_ctx, op, type, MODE_RANDOM, (size_t)test_rng_below(MAX_ELEMENTS));
  check_builtin(test_ctx, op, type, MODE_RANDOM, 0);
  if (!test_op_structured(op) && test_mode_applies(MODE_NAN, type))
    check_builtin(test_ctx, op, type, MODE_NAN, 1000);
}

#define PARTS_TEST(OP, TYPE)                                                                       \
  static void test_##OP##_##TYPE##_in_parts(void **state) {                                        \
    (void)state;                                                                                   \
    check_op_type(OCL_REDUCE_##OP, OCL_REDUCE_##TYPE);                                             \
  }
TEST_OP_TYPES(PARTS_TEST)
TEST_STRUCTURED_OP_TYPES(PARTS_TEST)

/* SUM in a cross_device context is the reproducible sum: its states are SUM_REPRODUCIBLE's, and
 * the result has the whole array's bits however it is cut. */
static void test_cross_device_sum_in_parts(void **state) {
  (void)state;
  assert_int_equal(ocl_reduce_state_size(cross_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32),
                   ocl_reduce_state_size(NULL, OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F32));
  assert_int_equal(ocl_reduce_state_size(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32), 4);
  for (int r = 0; r < 3; r++) {
    check_builtin(cross_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM,
                  (size_t)test_rng_below(MAX_ELEMENTS));
    check_builtin(cross_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F64, MODE_RANDOM,
                  (size_t)test_rng_below(MAX_ELEMENTS));
  }
}

/* ---- User operators -------------------------------------------------------------------------- */

/* Each user operator of the tests, commutative and order-preserving; ABOVE sums the indices map
 * sees, so a wrong index_base shows. */
static void test_user_operators_in_parts(void **state) {
  (void)state;
  for (int ordered = 0; ordered < 2; ordered++) {
    const int count = ordered ? TEST_ORDERED_COUNT : TEST_CUSTOM_COUNT;
    for (int w = 0; w < count; w++) {
      const ocl_reduce_operator_desc *d = ordered ? &test_ordered_descs[w] : &test_custom_descs[w];
      const char *name = ordered ? test_ordered_names[w] : test_custom_names[w];
      ocl_reduce_operator *op = NULL;
      const ocl_reduce_status made = ocl_reduce_operator_create(d, &op);
      if (made == OCL_REDUCE_ERROR_NO_FP64)
        continue;
      if (made != OCL_REDUCE_OK)
        fail_msg("%s: %s", name, ocl_reduce_last_error(test_ctx));
      const subject s = {test_ctx,        OCL_REDUCE_SUM, OCL_REDUCE_U32, op,
                         d->element_size, d->state_size,  d->state_size};
      const size_t n = (size_t)test_rng_below(MAX_ELEMENTS);
      void *data = malloc((n ? n : 1) * s.elem);
      assert_non_null(data);
      if (ordered)
        test_ordered_fill((test_ordered)w, data, n);
      else
        test_custom_fill((test_custom)w, data, n);
      unsigned char got[COMBINES][MAX_STATE], want[MAX_STATE];
      char what[96];
      snprintf(what, sizeof what, "%s, %zu elements", name, n);
      const int combines = reduce_in_parts(&s, data, n, what, got);
      if (!ordered)
        test_custom_reference((test_custom)w, data, n, want);
      for (int k = 0; k < combines; k++) {
        const int ok = ordered ? test_ordered_matches((test_ordered)w, data, n, got[k])
                               : memcmp(got[k], want, s.state) == 0;
        if (!ok)
          fail_msg("%s: parts combined %s differ from the fold of the whole array", what,
                   k == 0   ? "from host memory"
                   : k == 1 ? "from a buffer"
                            : "through merges");
      }
      free(data);
      ocl_reduce_operator_destroy(op);
    }
  }
}

/* ---- Errors ------------------------------------------------------------------------------------
 */

static void test_bad_arguments_are_named_and_leave_outputs_alone(void **state) {
  (void)state;
  float x[4] = {1, 2, 3, 4}, result = -7.0f;
  expect_error(ocl_reduce_partial(NULL, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(x, TEST_BYTES(x)), 4, 0,
                                  ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx");
  expect_error(ocl_reduce_partial(test_ctx, OCL_REDUCE_AND, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(x, TEST_BYTES(x)), 4, 0,
                                  ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "integer types only");
  expect_error(ocl_reduce_partial(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(x, TEST_BYTES(x)), 4, 0,
                                  ocl_reduce_host_output(NULL, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "state");
  expect_error(ocl_reduce_final(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                ocl_reduce_host_input(NULL, 0), 2,
                                ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "states");
  /* States beyond the end of their buffer. */
  ocl_reduce_buffer *b = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 2 * sizeof(float), &b), OCL_REDUCE_OK);
  expect_error(ocl_reduce_merge(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                ocl_reduce_buffer_input(b, 1), 2,
                                ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "states elements [1, 1 + 2)");
  ocl_reduce_buffer_destroy(b);
  expect_error(ocl_reduce_final(test_ctx, NULL, OCL_REDUCE_OP_ELEMENT,
                                ocl_reduce_host_input(x, TEST_BYTES(x)), 1,
                                ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "op");
  /* Without a context: built-in operators, host memory. */
  expect_error(ocl_reduce_final_host(NULL, OCL_REDUCE_F32, ocl_reduce_host_input(x, TEST_BYTES(x)),
                                     4, ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "op is NULL");
  ocl_reduce_operator *user = NULL;
  assert_int_equal(ocl_reduce_operator_create(&test_custom_descs[0], &user), OCL_REDUCE_OK);
  expect_error(ocl_reduce_final_host(user, OCL_REDUCE_OP_ELEMENT,
                                     ocl_reduce_host_input(x, TEST_BYTES(x)), 1,
                                     ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "user operator");
  ocl_reduce_operator_destroy(user);
  expect_error(ocl_reduce_final_host(OCL_REDUCE_AND, OCL_REDUCE_F32,
                                     ocl_reduce_host_input(x, TEST_BYTES(x)), 4,
                                     ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, NULL, "integer types only");
  expect_error(ocl_reduce_final_host(OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                     ocl_reduce_host_input(x, TEST_BYTES(x)), 5,
                                     ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "states");
  expect_error(ocl_reduce_final_host(OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                     ocl_reduce_host_input(x, TEST_BYTES(x)), 4,
                                     ocl_reduce_host_output(&result, sizeof result - 1)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "result");
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 4 * sizeof(float), &b), OCL_REDUCE_OK);
  expect_error(ocl_reduce_final_host(OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(b, 0),
                                     4, ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "states is a buffer");
  expect_error(ocl_reduce_final_host(OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                     ocl_reduce_host_input(x, TEST_BYTES(x)), 4,
                                     ocl_reduce_buffer_output(b, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "result is a buffer");
  ocl_reduce_buffer_destroy(b);
  assert_true(result == -7.0f);
  assert_int_equal(ocl_reduce_final_host(OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                         ocl_reduce_host_input(x, TEST_BYTES(x)), 4,
                                         ocl_reduce_host_output(&result, sizeof result)),
                   OCL_REDUCE_OK);
  assert_true(result == 10.0f);
  assert_int_equal(ocl_reduce_state_size(NULL, OCL_REDUCE_AND, OCL_REDUCE_F32), 0);
  assert_int_equal(ocl_reduce_state_size(NULL, OCL_REDUCE_BUILTIN_OP(99), OCL_REDUCE_F32), 0);
  assert_int_equal(ocl_reduce_state_size(NULL, OCL_REDUCE_MEAN_VAR, OCL_REDUCE_F32),
                   sizeof(ocl_reduce_moments));
}

int main(void) {
#define PARTS_ENTRY(OP, TYPE) cmocka_unit_test(test_##OP##_##TYPE##_in_parts),
  const struct CMUnitTest tests[] = {
      TEST_OP_TYPES(PARTS_ENTRY) TEST_STRUCTURED_OP_TYPES(PARTS_ENTRY)
          cmocka_unit_test(test_cross_device_sum_in_parts),
      cmocka_unit_test(test_user_operators_in_parts),
      cmocka_unit_test(test_bad_arguments_are_named_and_leave_outputs_alone),
  };
#undef PARTS_ENTRY
  return TEST_RUN(tests, setup, teardown);
}
