/* =================================================================================================
 * test_custom.c: user-defined operators (ocl_reduce_operator_create, ocl_reduce_custom and its
 * segmented forms) against host folds of the same functions: a sum of squares, the bounding box
 * of {float x, y, z} points (a 6-float state), a count of elements above a threshold with the sum
 * of their indices (so the index map() receives is checked), and a 16-bin histogram (a 64-byte
 * state). Every one over the boundary sizes, from host memory and from a buffer at an unaligned
 * offset into host memory and into a buffer, in equal segments and by offsets; then every
 * argument error, with outputs untouched; and operators, buffers and programs that outlive their
 * context.
 * ============================================================================================== */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_program.h"
#include "support/capture.h"
#include "support/custom_ops.h"
#include "support/fixture.h"

static ocl_reduce_operator *ops[TEST_CUSTOM_COUNT];

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  for (int w = 0; w < TEST_CUSTOM_COUNT; w++) {
    const ocl_reduce_status s = ocl_reduce_operator_create(&test_custom_descs[w], &ops[w]);
    if (s != OCL_REDUCE_OK) {
      print_error("%s: %s (%s)\n", test_custom_names[w], ocl_reduce_status_name(s),
                  ocl_reduce_last_error(NULL));
      return -1;
    }
  }
  return 0;
}

static int teardown(void **state) {
  for (int w = 0; w < TEST_CUSTOM_COUNT; w++)
    ocl_reduce_operator_destroy(ops[w]);
  return test_teardown(state);
}

/* ---- Whole arrays -----------------------------------------------------------------------------
 */

/* One result over data (n elements) with input and output each in host memory or a buffer (input
 * at element offset 3, output at result offset 1); 1 on mismatch. */
static int check_whole(test_custom w, const void *data, size_t n, int in_buffer, int out_buffer) {
  const size_t elem = test_custom_descs[w].element_size, state = test_custom_descs[w].state_size;
  unsigned char got[2 * 64 + 1], want[64];
  memset(got, 0xa5, sizeof got);
  ocl_reduce_buffer *in = NULL, *out = NULL;
  ocl_reduce_input input = ocl_reduce_host_input(data, n * elem);
  ocl_reduce_output output = ocl_reduce_host_output(got, state);
  if (in_buffer) {
    assert_int_equal(ocl_reduce_buffer_create(test_ctx, (n + 3) * elem, &in), OCL_REDUCE_OK);
    if (n)
      assert_int_equal(ocl_reduce_buffer_write(in, 3 * elem, data, n * elem), OCL_REDUCE_OK);
    input = ocl_reduce_buffer_input(in, 3);
  }
  if (out_buffer) {
    assert_int_equal(ocl_reduce_buffer_create(test_ctx, 2 * state, &out), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(out, 0, got, 2 * state), OCL_REDUCE_OK);
    output = ocl_reduce_buffer_output(out, 1);
  }
  const ocl_reduce_status s =
      ocl_reduce_into(test_ctx, ops[w], OCL_REDUCE_OP_ELEMENT, input, n, output);
  if (s == OCL_REDUCE_OK && out_buffer)
    assert_int_equal(ocl_reduce_buffer_read(out, 0, got, 2 * state), OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
  if (s != OCL_REDUCE_OK) {
    print_error("%s n=%zu: %s (%s)\n", test_custom_names[w], n, ocl_reduce_status_name(s),
                ocl_reduce_last_error(test_ctx));
    return 1;
  }
  /* A buffer output lands at result 1 and leaves result 0; host output fills exactly one. */
  const unsigned char *result = out_buffer ? got + state : got;
  test_custom_reference(w, data, n, want);
  int bad = memcmp(result, want, state) != 0;
  for (size_t i = 0; i < (out_buffer ? state : sizeof got - state); i++)
    bad |= (out_buffer ? got[i] : got[state + i]) != 0xa5;
  if (bad)
    print_error("%s n=%zu (input %s, output %s): wrong result or bytes beyond it\n",
                test_custom_names[w], n, in_buffer ? "buffer" : "host",
                out_buffer ? "buffer" : "host");
  return bad;
}

/* Light runs: the operators whose kernels differ most (elements of their own type, scalar
 * elements as vectors, the 64-byte state). */
static void skip_if_light(test_custom w) {
  if (test_light() && w == TEST_SQUARES) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    skip();
  }
}

static void sweep(test_custom w) {
  skip_if_light(w);
  size_t sizes[128];
  const size_t count = test_sizes(test_context_shape(test_ctx), 0, sizes, 128);
  int failures = 0;
  for (size_t k = 0; k < count && failures < 5; k++) {
    const size_t n = sizes[k];
    void *data = malloc((n ? n : 1) * test_custom_descs[w].element_size);
    assert_non_null(data);
    test_custom_fill(w, data, n);
    failures += check_whole(w, data, n, 0, 0);
    if (!test_light() || k % 4 == 0)
      failures += check_whole(w, data, n, 1, (int)(k % 2));
    free(data);
  }
  if (failures)
    fail_msg("%d failures", failures);
}

/* ---- Segments ----------------------------------------------------------------------------------
 */

/* Equal lengths, then random lengths (empty ones included) by offsets in host memory and in a
 * buffer; each result against the fold of its segment (indices count from its start). */
static void segments(test_custom w) {
  skip_if_light(w);
  static const size_t lengths[] = {1, 3, 32, 33, 100, 1000, 5000};
  const size_t elem = test_custom_descs[w].element_size, state = test_custom_descs[w].state_size;
  const size_t cases = sizeof lengths / sizeof lengths[0] + 2;
  int failures = 0;
  for (size_t li = 0; li < cases; li++) {
    const int by_offsets = li >= cases - 2, offsets_in_buffer = li == cases - 1;
    if (test_light() && !by_offsets && li % 2)
      continue;
    const size_t count = by_offsets ? 300 : (lengths[li] > 1000 ? 7 : 257);
    uint64_t *offsets = malloc((count + 1) * sizeof *offsets);
    assert_non_null(offsets);
    offsets[0] = 2;
    for (size_t s = 0; s < count; s++)
      offsets[s + 1] = offsets[s] + (by_offsets ? test_rng_below(4) == 0 ? 0 : test_rng_below(300)
                                                : lengths[li]);
    const size_t n = (size_t)offsets[count];
    unsigned char *data = malloc(n * elem + 1), *got = malloc(count * state), want[64];
    assert_non_null(data);
    assert_non_null(got);
    test_custom_fill(w, data, n);
    memset(got, 0xa5, count * state);
    ocl_reduce_status s;
    ocl_reduce_buffer *in = NULL, *offsets_buffer = NULL;
    if (offsets_in_buffer) {
      assert_int_equal(ocl_reduce_buffer_create(test_ctx, n * elem, &in), OCL_REDUCE_OK);
      assert_int_equal(ocl_reduce_buffer_write(in, 0, data, n * elem), OCL_REDUCE_OK);
      assert_int_equal(
          ocl_reduce_buffer_create(test_ctx, (count + 1) * sizeof *offsets, &offsets_buffer),
          OCL_REDUCE_OK);
      assert_int_equal(
          ocl_reduce_buffer_write(offsets_buffer, 0, offsets, (count + 1) * sizeof *offsets),
          OCL_REDUCE_OK);
      s = ocl_reduce_segments_offsets(
          test_ctx, ops[w], OCL_REDUCE_OP_ELEMENT, ocl_reduce_buffer_input(in, 0), count,
          ocl_reduce_buffer_input(offsets_buffer, 0), ocl_reduce_host_output(got, count * state));
    } else if (by_offsets) {
      s = ocl_reduce_segments_offsets(test_ctx, ops[w], OCL_REDUCE_OP_ELEMENT,
                                      ocl_reduce_host_input(data, n * elem), count,
                                      ocl_reduce_host_input(offsets, (count + 1) * sizeof *offsets),
                                      ocl_reduce_host_output(got, count * state));
    } else {
      s = ocl_reduce_segments(test_ctx, ops[w], OCL_REDUCE_OP_ELEMENT,
                              ocl_reduce_host_input(data + 2 * elem, (n - 2) * elem), count,
                              lengths[li], ocl_reduce_host_output(got, count * state));
    }
    ocl_reduce_buffer_destroy(in);
    ocl_reduce_buffer_destroy(offsets_buffer);
    if (s != OCL_REDUCE_OK)
      fail_msg("%s segments of %zu: %s (%s)", test_custom_names[w], by_offsets ? 0 : lengths[li],
               ocl_reduce_status_name(s), ocl_reduce_last_error(test_ctx));
    for (size_t i = 0; i < count && failures < 5; i++) {
      const size_t begin = (size_t)offsets[i], len = (size_t)(offsets[i + 1] - offsets[i]);
      test_custom_reference(w, data + begin * elem, len, want);
      if (memcmp(got + i * state, want, state) != 0) {
        print_error("%s segment %zu of %zu elements (%s): wrong result\n", test_custom_names[w], i,
                    len,
                    offsets_in_buffer ? "offsets in a buffer"
                    : by_offsets      ? "offsets"
                                      : "equal");
        failures++;
      }
    }
    free(offsets);
    free(data);
    free(got);
  }
  if (failures)
    fail_msg("%d failures", failures);
}

#define WHICH_TESTS(X) X(SQUARES) X(BOX) X(ABOVE) X(HISTOGRAM)
#define TESTS_OF(W)                                                                                \
  static void test_whole_##W(void **state) {                                                       \
    (void)state;                                                                                   \
    sweep(TEST_##W);                                                                               \
  }                                                                                                \
  static void test_segments_##W(void **state) {                                                    \
    (void)state;                                                                                   \
    segments(TEST_##W);                                                                            \
  }
WHICH_TESTS(TESTS_OF)

/* ---- Arguments ----------------------------------------------------------------------------------
 */

/* Creation fails with `expected` and a message containing `needle` (the thread's: creation takes
 * no context), and leaves *out as it was. */
static void expect_create_error(const ocl_reduce_operator_desc *d, ocl_reduce_status expected,
                                const char *needle) {
  ocl_reduce_operator *op = (ocl_reduce_operator *)(uintptr_t)0x1234;
  expect_error(ocl_reduce_operator_create(d, &op), expected, NULL, needle);
  assert_ptr_equal(op, (ocl_reduce_operator *)(uintptr_t)0x1234);
}

/* Creation succeeds (it compiles nothing), and the first use on test_ctx fails with `expected`,
 * naming the operator and `needle`, and writes nothing; the next use fails alike. */
static void expect_use_error(const ocl_reduce_operator_desc *d, ocl_reduce_status expected,
                             const char *needle) {
  ocl_reduce_operator *op = NULL;
  assert_int_equal(ocl_reduce_operator_create(d, &op), OCL_REDUCE_OK);
  unsigned char input[64] = {0}, result[64];
  memset(result, 0x5a, sizeof result);
  for (int use = 0; use < 2; use++) {
    expect_error(ocl_reduce_into(test_ctx, op, OCL_REDUCE_OP_ELEMENT,
                                 ocl_reduce_host_input(input, TEST_BYTES(input)), 1,
                                 ocl_reduce_host_output(result, TEST_BYTES(result))),
                 expected, test_ctx, needle);
    expect_error(expected, expected, test_ctx, d->combine); /* the operator is named */
  }
  for (size_t i = 0; i < sizeof result; i++)
    assert_int_equal(result[i], 0x5a);
  ocl_reduce_operator_destroy(op);
}

static void test_create_errors(void **state) {
  (void)state;
  ocl_reduce_operator_desc d = test_custom_descs[TEST_BOX];
  expect_error(ocl_reduce_operator_create(NULL, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "out is NULL");
  expect_create_error(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc is NULL");
  d.struct_size = 1u << 20; /* an uninitialized descriptor */
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "OCL_REDUCE_OPERATOR_DESC_INIT");
  d = test_custom_descs[TEST_BOX];
  d.name = "not a name";
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->name");
  d.struct_size = 8;
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->struct_size is 8");
  d = test_custom_descs[TEST_BOX];
  d.source = NULL;
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->source is NULL");
  d.source = "";
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->source is empty");
  d = test_custom_descs[TEST_BOX];
  d.combine = NULL;
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->combine is NULL");
  d.combine = "box join";
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->combine (\"box join\")");
  d.combine = "box_merge";
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->combine names \"box_merge\"");
  d = test_custom_descs[TEST_BOX];
  d.state_type = "orx_state";
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->state_type");
  d = test_custom_descs[TEST_BOX];
  d.state_size = 65;
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->state_size is 65");
  d = test_custom_descs[TEST_BOX];
  d.element_size = 0;
  expect_create_error(&d, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "desc->element_size is 0");
  /* The host's sizes differ from the device's: both named. */
  d = test_custom_descs[TEST_BOX];
  d.element_size = 16;
  expect_use_error(&d, OCL_REDUCE_ERROR_OPERATOR_SIZE, "sizeof(point) is 12");
  d = test_custom_descs[TEST_BOX];
  d.state_size = 28;
  expect_use_error(&d, OCL_REDUCE_ERROR_OPERATOR_SIZE, "desc->state_size is 28");
  /* A compile error: the compiler's log, which names the operator's source. */
  d = test_custom_descs[TEST_SQUARES];
  d.source = "ulong sq_zero(void) { return 0; }\n"
             "ulong sq_map(uint x, ulong index) { return x * y; }\n"
             "ulong sq_add(ulong a, ulong b) { return a + b; }\n";
  expect_use_error(&d, OCL_REDUCE_ERROR_BUILD, "y");
  /* A function the source mentions but does not define is the compiler's to find. */
  d = test_custom_descs[TEST_SQUARES];
  d.source = "ulong sq_zero(void) { return 0; }\n"
             "ulong sq_map(uint x, ulong index) { return x; } /* not sq_add */\n";
  expect_use_error(&d, OCL_REDUCE_ERROR_BUILD, "sq_add");
}

/* A compile error is the user's to act on: the message names the operator, its functions and the
 * role whose signature does not fit (as a #line file name or a comment on the call's line,
 * whichever the compiler prints); and the compiler's own summary ("2 errors generated.") stays
 * off stderr. */
static void test_compile_errors_name_the_users_code(void **state) {
  (void)state;
  ocl_reduce_operator_desc d = test_custom_descs[TEST_SQUARES];
  d.name = "squares_with_typos";
  d.source = "ulong sq_zero(void) { return 0; }\n"
             "ulong sq_map(uint x, ulong index) { return x * y; }\n"
             "ulong sq_add(ulong a) { return a; }\n";
  ocl_reduce_operator *op = NULL;
  assert_int_equal(ocl_reduce_operator_create(&d, &op), OCL_REDUCE_OK);
  uint32_t x[4] = {1, 2, 3, 4};
  uint64_t sum = 77;
  test_capture capture;
  test_capture_begin(&capture);
  const ocl_reduce_status s =
      ocl_reduce(test_ctx, op, OCL_REDUCE_OP_ELEMENT, x, 4, &sum, sizeof sum);
  char said[4096];
  test_capture_end(&capture, said, sizeof said);
  assert_int_equal(s, OCL_REDUCE_ERROR_BUILD);
  assert_int_equal(sum, 77);
  const char *message = ocl_reduce_last_error(test_ctx);
  static const char *const needles[] = {"ocl_reduce: the user operator 'squares_with_typos'",
                                        "combine sq_add",
                                        "combine: STATE combine(STATE a, STATE b)"};
  for (size_t i = 0; i < sizeof needles / sizeof needles[0]; i++)
    if (!strstr(message, needles[i]))
      fail_msg("the message lacks '%s': %s", needles[i], message);
  if (strstr(said, " generated."))
    fail_msg("the compiler's summary reached stderr: '%s'", said);
  ocl_reduce_operator_destroy(op);
}

static void test_call_errors(void **state) {
  (void)state;
  uint32_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint64_t out[2] = {77, 77}, offsets[3] = {0, 4, 8};
  expect_error(ocl_reduce_into(NULL, ops[TEST_SQUARES], OCL_REDUCE_OP_ELEMENT,
                               ocl_reduce_host_input(data, TEST_BYTES(data)), 8,
                               ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ocl_reduce_into: ctx is NULL");
  expect_error(ocl_reduce_into(test_ctx, NULL, OCL_REDUCE_OP_ELEMENT,
                               ocl_reduce_host_input(data, TEST_BYTES(data)), 8,
                               ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "op is NULL");
  expect_error(ocl_reduce_into(test_ctx, ops[TEST_SQUARES], OCL_REDUCE_OP_ELEMENT,
                               ocl_reduce_host_input(NULL, 0), 8,
                               ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "input is NULL");
  expect_error(ocl_reduce_into(test_ctx, ops[TEST_SQUARES], OCL_REDUCE_OP_ELEMENT,
                               ocl_reduce_host_input(data, TEST_BYTES(data)), 8,
                               ocl_reduce_host_output(NULL, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "result is NULL");
  expect_error(ocl_reduce_segments(test_ctx, NULL, OCL_REDUCE_OP_ELEMENT,
                                   ocl_reduce_host_input(data, TEST_BYTES(data)), 2, 4,
                                   ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "ocl_reduce_segments: op is NULL");
  /* A user operator takes its own elements: another type is refused, naming both. */
  expect_error(ocl_reduce_into(test_ctx, ops[TEST_BOX], OCL_REDUCE_F32,
                               ocl_reduce_host_input(data, TEST_BYTES(data)), 2,
                               ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "its own type 'point'");
  /* ... but a scalar element type may be named as itself. */
  uint64_t squares = 0;
  assert_int_equal(ocl_reduce_into(test_ctx, ops[TEST_SQUARES], OCL_REDUCE_U32,
                                   ocl_reduce_host_input(data, TEST_BYTES(data)), 8,
                                   ocl_reduce_host_output(&squares, sizeof squares)),
                   OCL_REDUCE_OK);
  assert_int_equal(squares, 204);
  offsets[1] = 9;
  expect_error(ocl_reduce_segments_offsets(test_ctx, ops[TEST_SQUARES], OCL_REDUCE_OP_ELEMENT,
                                           ocl_reduce_host_input(data, TEST_BYTES(data)), 2,
                                           ocl_reduce_host_input(offsets, TEST_BYTES(offsets)),
                                           ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_BAD_OFFSETS, test_ctx, "offsets[2] = 8 is less than");
  /* A result buffer too small for one state. */
  ocl_reduce_buffer *small = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 4, &small), OCL_REDUCE_OK);
  expect_error(ocl_reduce_into(test_ctx, ops[TEST_SQUARES], OCL_REDUCE_OP_ELEMENT,
                               ocl_reduce_host_input(data, TEST_BYTES(data)), 8,
                               ocl_reduce_buffer_output(small, 0)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "result elements [0, 0 + 1) of 8 bytes");
  ocl_reduce_buffer_destroy(small);
  assert_true(out[0] == 77 && out[1] == 77);
  assert_true(out[0] == 77 && out[1] == 77);
  /* An operator is a value: another context takes it as well (built for that one on first use). */
  ocl_reduce_context *other = test_context_create();
  assert_non_null(other);
  assert_int_equal(ocl_reduce_into(other, ops[TEST_SQUARES], OCL_REDUCE_OP_ELEMENT,
                                   ocl_reduce_host_input(data, TEST_BYTES(data)), 8,
                                   ocl_reduce_host_output(out, TEST_BYTES(out))),
                   OCL_REDUCE_OK);
  assert_true(out[0] == 204 && out[1] == 77);
  ocl_reduce_context_destroy(other);
  ocl_reduce_operator_destroy(NULL);
}

/* A context destroyed before its buffers, operators and programs (in both orders of the
 * objects): they keep its device objects, so that they can still be destroyed, and the last one
 * frees it (ASan in CI sees any use after free, LeakSanitizer anything left). */
static void test_objects_outlive_their_context(void **state) {
  (void)state;
  static const char kernel[] = "__kernel void seven(__global uint *out) {\n"
                               "  out[get_global_id(0)] = 7u;\n"
                               "}\n";
  for (int order = 0; order < 2; order++) {
    ocl_reduce_context *ctx = test_context_create();
    ocl_reduce_buffer *buf = NULL;
    const uint32_t values[4] = {1, 2, 3, 4};
    assert_int_equal(ocl_reduce_buffer_create(ctx, sizeof values, &buf), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(buf, 0, values, sizeof values), OCL_REDUCE_OK);
    ocl_reduce_operator *op = NULL;
    assert_int_equal(ocl_reduce_operator_create(&test_custom_descs[TEST_SQUARES], &op),
                     OCL_REDUCE_OK);
    uint64_t squares = 0;
    assert_int_equal(ocl_reduce_into(ctx, op, OCL_REDUCE_OP_ELEMENT,
                                     ocl_reduce_buffer_input(buf, 0), 4,
                                     ocl_reduce_host_output(&squares, sizeof squares)),
                     OCL_REDUCE_OK);
    assert_int_equal(squares, 30);
    ocl_reduce_program *program = NULL;
    /* 64: a whole number of warps where the device has fixed ones. */
    assert_int_equal(ocl_reduce_program_build(ctx, kernel, "seven", 64, &program), OCL_REDUCE_OK);
    ocl_reduce_context_destroy(ctx);
    if (order == 0) {
      ocl_reduce_buffer_destroy(buf);
      ocl_reduce_operator_destroy(op);
      ocl_reduce_program_destroy(program);
    } else {
      ocl_reduce_program_destroy(program);
      ocl_reduce_operator_destroy(op);
      ocl_reduce_buffer_destroy(buf);
    }
  }
}

#define ENTRY(W) cmocka_unit_test(test_whole_##W), cmocka_unit_test(test_segments_##W),

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_errors),
      cmocka_unit_test(test_compile_errors_name_the_users_code), cmocka_unit_test(test_call_errors),
      cmocka_unit_test(test_objects_outlive_their_context), WHICH_TESTS(ENTRY)};
  return TEST_RUN(tests, setup, teardown);
}
