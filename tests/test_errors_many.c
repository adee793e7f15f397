/* =================================================================================================
 * test_errors_many.c: the error cases of the entry points that reduce many things at once
 * (ocl_reduce_segments, ocl_reduce_segments_offsets, ocl_reduce_multi): each bad argument gets
 * its named status and a message that names it, and no output is touched.
 * ============================================================================================== */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/fixture.h"

#define UNTOUCHED 0x5a5a5a5au

/* Asserts that the first n results still hold UNTOUCHED. */
static void expect_untouched(const uint32_t *results, size_t n) {
  for (size_t i = 0; i < n; i++)
    assert_int_equal(results[i], UNTOUCHED);
}

static void fill_untouched(uint32_t *results, size_t n) {
  for (size_t i = 0; i < n; i++)
    results[i] = UNTOUCHED;
}

/* Reads n u32 of a buffer. */
static void read_u32(ocl_reduce_buffer *buf, size_t n, uint32_t *out) {
  assert_int_equal(ocl_reduce_buffer_read(buf, 0, out, n * 4), OCL_REDUCE_OK);
}

static void test_segments_reject_bad_arguments(void **state) {
  (void)state;
  uint32_t data[64] = {0}, results[8];
  fill_untouched(results, 8);
  const ocl_reduce_input in = ocl_reduce_host_input(data, TEST_BYTES(data));
  const ocl_reduce_output out = ocl_reduce_host_output(results, TEST_BYTES(results));
  expect_error(ocl_reduce_segments(NULL, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 8, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
  expect_error(
      ocl_reduce_segments(test_ctx, OCL_REDUCE_BUILTIN_OP(19), OCL_REDUCE_U32, in, 8, 8, out),
      OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx,
      "neither a built-in operator nor a live user operator");
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, (ocl_reduce_type)OCL_REDUCE_TYPE_COUNT,
                                   in, 8, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx,
               "type has unknown value " TEST_TEXT_OF(OCL_REDUCE_TYPE_COUNT));
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_OR, OCL_REDUCE_F32, in, 8, 8, out),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "integer types only");
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 8, 8,
                                   ocl_reduce_host_output(NULL, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "results is NULL");
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                   ocl_reduce_host_input(NULL, 0), 8, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "input is NULL");
  expect_error(
      ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 2, SIZE_MAX / 2 + 1, out),
      OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "overflows");
  /* 2^62 elements fit in size_t, their 2^64 bytes do not (a crash inside the implementation
   * before this was checked). */
  expect_error(
      ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 2, (size_t)1 << 61, out),
      OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "more bytes than size_t counts");
  ocl_reduce_input both = in;
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 64 * 4, &buf), OCL_REDUCE_OK);
  both.buffer = buf;
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, both, 8, 8, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "sets both host and buffer");
  expect_untouched(results, 8);

  /* Ranges in buffers: 64 u32 hold 8 segments of 8, or 7 of 8 after one element. */
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                   ocl_reduce_buffer_input(buf, 1), 8, 8, out),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "input elements [1, 1 + 64)");
  uint64_t wide[8];
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U64,
                                   ocl_reduce_buffer_input(buf, 0), 8, 8,
                                   ocl_reduce_host_output(wide, TEST_BYTES(wide))),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "32 elements");
  /* u64 results into the 8 u32 of `out`: half the bytes they need (0.1 wrote past them). */
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U64,
                                   ocl_reduce_buffer_input(buf, 0), 8, 4, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx,
               "results is 32 bytes of host memory, and the request needs 64");
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 8, 8,
                                   ocl_reduce_buffer_output(buf, 60)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "results elements [60, 60 + 8)");
  /* Results that overlap the input in the same buffer. */
  uint32_t before[64], after[64];
  read_u32(buf, 64, before);
  expect_error(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                   ocl_reduce_buffer_input(buf, 0), 4, 8,
                                   ocl_reduce_buffer_output(buf, 31)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "overlap the input");
  read_u32(buf, 64, after);
  assert_memory_equal(before, after, sizeof before);
  /* ... while results right after the input are fine. */
  assert_int_equal(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                       ocl_reduce_buffer_input(buf, 0), 4, 8,
                                       ocl_reduce_buffer_output(buf, 32)),
                   OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(buf);

  /* Zero segments write nothing; zero-length segments give identities. */
  assert_int_equal(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                       ocl_reduce_host_input(NULL, 0), 0, 8, out),
                   OCL_REDUCE_OK);
  expect_untouched(results, 8);
  assert_int_equal(ocl_reduce_segments(test_ctx, OCL_REDUCE_MIN, OCL_REDUCE_U32,
                                       ocl_reduce_host_input(NULL, 0), 3, 0, out),
                   OCL_REDUCE_OK);
  for (int i = 0; i < 3; i++)
    assert_int_equal(results[i], UINT32_MAX);
  expect_untouched(results + 3, 5);
}

static void test_offsets_are_checked(void **state) {
  (void)state;
  uint32_t data[64] = {0}, results[4];
  fill_untouched(results, 4);
  const ocl_reduce_input in = ocl_reduce_host_input(data, TEST_BYTES(data));
  const ocl_reduce_output out = ocl_reduce_host_output(results, TEST_BYTES(results));
  const uint64_t decreasing[] = {0, 5, 3, 9, 10}, huge[] = {0, 1, (uint64_t)1 << 62};
  expect_error(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 2,
                                           ocl_reduce_host_input(huge, TEST_BYTES(huge)), out),
               OCL_REDUCE_ERROR_BAD_OFFSETS, test_ctx, "reaches beyond the input's 64 elements");
  expect_error(
      ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 4,
                                  ocl_reduce_host_input(decreasing, TEST_BYTES(decreasing)), out),
      OCL_REDUCE_ERROR_BAD_OFFSETS, test_ctx, "offsets[2] = 3 is less than offsets[1] = 5");
  expect_error(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 4,
                                           ocl_reduce_host_input(NULL, 0), out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "offsets is NULL");
  expect_untouched(results, 4);

  ocl_reduce_buffer *buf = NULL, *offs = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 64 * 4, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 5 * 8, &offs), OCL_REDUCE_OK);
  /* Beyond the input buffer: from host offsets, and from device offsets (checked there). */
  const uint64_t too_far[] = {0, 5, 30, 60, 65};
  expect_error(ocl_reduce_segments_offsets(
                   test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, ocl_reduce_buffer_input(buf, 0), 4,
                   ocl_reduce_host_input(too_far, TEST_BYTES(too_far)), out),
               OCL_REDUCE_ERROR_BAD_OFFSETS, test_ctx, "offsets[4] = 65 reaches beyond");
  assert_int_equal(ocl_reduce_buffer_write(offs, 0, too_far, sizeof too_far), OCL_REDUCE_OK);
  expect_error(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                           ocl_reduce_buffer_input(buf, 0), 4,
                                           ocl_reduce_buffer_input(offs, 0), out),
               OCL_REDUCE_ERROR_BAD_OFFSETS, test_ctx, "checked on the device");
  assert_int_equal(ocl_reduce_buffer_write(offs, 0, decreasing, sizeof decreasing), OCL_REDUCE_OK);
  expect_error(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                           ocl_reduce_buffer_input(buf, 0), 4,
                                           ocl_reduce_buffer_input(offs, 0), out),
               OCL_REDUCE_ERROR_BAD_OFFSETS, test_ctx, "decrease");
  /* Device offsets need device input; offsets beyond their buffer. */
  expect_error(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, in, 4,
                                           ocl_reduce_buffer_input(offs, 0), out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "need the input in a device buffer");
  expect_error(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                           ocl_reduce_buffer_input(buf, 0), 4,
                                           ocl_reduce_buffer_input(offs, 1), out),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "offsets elements [1, 1 + 5)");
  expect_untouched(results, 4);

  /* Good device offsets, ragged with an empty segment, results into the offsets' buffer would
   * overwrite them: refused; into the input buffer after the segments: fine. */
  const uint64_t good[] = {2, 5, 5, 9, 12};
  for (uint32_t i = 0; i < 64; i++)
    data[i] = i;
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, data, sizeof data), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(offs, 0, good, sizeof good), OCL_REDUCE_OK);
  expect_error(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                           ocl_reduce_buffer_input(buf, 0), 4,
                                           ocl_reduce_buffer_input(offs, 0),
                                           ocl_reduce_buffer_output(offs, 2)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "overlap the offsets");
  expect_error(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                           ocl_reduce_buffer_input(buf, 0), 4,
                                           ocl_reduce_buffer_input(offs, 0),
                                           ocl_reduce_buffer_output(buf, 10)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "overlap the input");
  assert_int_equal(ocl_reduce_segments_offsets(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                               ocl_reduce_buffer_input(buf, 0), 4,
                                               ocl_reduce_buffer_input(offs, 0),
                                               ocl_reduce_buffer_output(buf, 12)),
                   OCL_REDUCE_OK);
  uint32_t got[4];
  assert_int_equal(ocl_reduce_buffer_read(buf, 12 * 4, got, sizeof got), OCL_REDUCE_OK);
  assert_int_equal(got[0], 2 + 3 + 4);
  assert_int_equal(got[1], 0);
  assert_int_equal(got[2], 5 + 6 + 7 + 8);
  assert_int_equal(got[3], 9 + 10 + 11);
  ocl_reduce_buffer_destroy(buf);
  ocl_reduce_buffer_destroy(offs);
}

static void test_multi_rejects_bad_arguments(void **state) {
  (void)state;
  float data[16] = {0};
  uint32_t results[9];
  fill_untouched(results, 9);
  const ocl_reduce_op ops[9] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX, OCL_REDUCE_SUM,
                                OCL_REDUCE_SUM, OCL_REDUCE_SUM, OCL_REDUCE_SUM, OCL_REDUCE_SUM,
                                OCL_REDUCE_SUM};
  const ocl_reduce_input in = ocl_reduce_host_input(data, TEST_BYTES(data));
  const ocl_reduce_output out = ocl_reduce_host_output(results, TEST_BYTES(results));
  expect_error(ocl_reduce_multi(NULL, ops, 3, OCL_REDUCE_F32, in, 16, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
  expect_error(ocl_reduce_multi(test_ctx, NULL, 3, OCL_REDUCE_F32, in, 16, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "ops is NULL");
  expect_error(ocl_reduce_multi(test_ctx, ops, 0, OCL_REDUCE_F32, in, 16, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "op_count is 0");
  expect_error(ocl_reduce_multi(test_ctx, ops, 9, OCL_REDUCE_F32, in, 16, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "op_count is 9, not 1 .. 8");
  const ocl_reduce_op with_xor[] = {OCL_REDUCE_SUM, OCL_REDUCE_XOR};
  expect_error(ocl_reduce_multi(test_ctx, with_xor, 2, OCL_REDUCE_F32, in, 16, out),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "xor is defined on integer types");
  const ocl_reduce_op unknown[] = {OCL_REDUCE_SUM, OCL_REDUCE_PAIR_OP(OCL_REDUCE_BUILTIN_PAIR_OPS)};
  expect_error(ocl_reduce_multi(test_ctx, unknown, 2, OCL_REDUCE_F32, in, 16, out),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx,
               "neither a built-in operator nor a live user operator");
  expect_error(
      ocl_reduce_multi(test_ctx, ops, 3, OCL_REDUCE_F32, ocl_reduce_host_input(NULL, 0), 16, out),
      OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "input is NULL");
  expect_error(
      ocl_reduce_multi(test_ctx, ops, 3, OCL_REDUCE_F32, in, 16, ocl_reduce_host_output(NULL, 0)),
      OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "results is NULL");
  expect_untouched(results, 9);

  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 16 * 4, &buf), OCL_REDUCE_OK);
  expect_error(ocl_reduce_multi(test_ctx, ops, 3, OCL_REDUCE_F32, in, 16,
                                ocl_reduce_buffer_output(buf, 14)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "results elements [14, 14 + 3)");
  expect_error(ocl_reduce_multi(test_ctx, ops, 3, OCL_REDUCE_F32, ocl_reduce_buffer_input(buf, 0),
                                12, ocl_reduce_buffer_output(buf, 10)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "overlap the input");
  /* count 0: the identities, into host memory and into a buffer. */
  assert_int_equal(
      ocl_reduce_multi(test_ctx, ops, 3, OCL_REDUCE_F32, ocl_reduce_host_input(NULL, 0), 0, out),
      OCL_REDUCE_OK);
  float identities[3];
  memcpy(identities, results, sizeof identities);
  assert_true(identities[0] == 0.0f && isinf(identities[1]) && identities[1] > 0 &&
              isinf(identities[2]) && identities[2] < 0);
  expect_untouched(results + 3, 6);
  assert_int_equal(ocl_reduce_multi(test_ctx, ops, 3, OCL_REDUCE_F32,
                                    ocl_reduce_host_input(NULL, 0), 0,
                                    ocl_reduce_buffer_output(buf, 13)),
                   OCL_REDUCE_OK);
  float from_buffer[3];
  assert_int_equal(ocl_reduce_buffer_read(buf, 13 * 4, from_buffer, sizeof from_buffer),
                   OCL_REDUCE_OK);
  assert_memory_equal(from_buffer, identities, sizeof identities);
  ocl_reduce_buffer_destroy(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_segments_reject_bad_arguments),
      cmocka_unit_test(test_offsets_are_checked),
      cmocka_unit_test(test_multi_rejects_bad_arguments),
  };
  return TEST_RUN(tests, test_setup, test_teardown);
}
