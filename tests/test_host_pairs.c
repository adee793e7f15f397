/* =================================================================================================
 * test_host_pairs.c: pair operators on the host path of CPU devices (src/exec/run_pairs.c,
 * host_run.c). Pairs of host memory reduce on the calling thread with the host plan, and the
 * device runs the same plan under OCL_REDUCE_POLICY=host=device: every pair operator on every
 * type must give the same bits both ways (sizes around the vector, chain and group boundaries;
 * random data and the special values), match the host references, and in cross-device mode give
 * the bits of the host's reproducible sum of the pairs' values. The calling thread ran a call
 * exactly when the call copied nothing to the device: on CPU devices, both inputs in aligned host
 * memory; a misaligned input, a buffer, or a GPU copies.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"
#include "support/host_contexts.h"
#include "support/pair_reference.h"
#include "support/repro_reference.h"
#include "support/user_pairs.h"

#define PAIR_OPS 4
static const ocl_reduce_op pair_ops[PAIR_OPS] = {OCL_REDUCE_DOT, OCL_REDUCE_SQUARED_DISTANCE,
                                                 OCL_REDUCE_ABS_DISTANCE, OCL_REDUCE_COUNT_EQUAL};

/* The calling thread runs host plans on host_ctx, the device on device_ctx; and in cross-device
 * mode. */
static test_host_contexts contexts;
static ocl_reduce_context *host_ctx, *device_ctx, *cross_ctx, *cross_device_ctx;
static int is_cpu;

static int setup(void **state) {
  if (test_setup(state) || test_host_contexts_open(&contexts))
    return -1;
  host_ctx = contexts.thread, device_ctx = contexts.device;
  cross_ctx = contexts.cross_thread, cross_device_ctx = contexts.cross_device;
  is_cpu = contexts.is_cpu;
  return 0;
}

static int teardown(void **state) {
  test_host_contexts_close(&contexts);
  return test_teardown(state);
}

/* Reduces the n pairs of a and b on ctx into result (16 bytes, prefilled), and returns whether
 * the calling thread ran it (nothing went to the device). */
static int pairs_on(ocl_reduce_context *ctx, int op, ocl_reduce_type type, const void *a,
                    const void *b, size_t n, unsigned char *result) {
  const size_t bytes = n * ocl_reduce_type_size(type);
  memset(result, 0xa5, 16);
  const uint64_t before = test_bytes_to_device(ctx);
  const ocl_reduce_status status =
      ocl_reduce_pairs(ctx, pair_ops[op], type, ocl_reduce_host_input(a, bytes),
                       ocl_reduce_host_input(b, bytes), n, ocl_reduce_host_output(result, 16));
  if (status != OCL_REDUCE_OK)
    fail_msg("%s on %s, n=%zu: %s", ocl_reduce_op_name(pair_ops[op]), ocl_reduce_type_name(type),
             n, ocl_reduce_last_error(ctx));
  return test_bytes_to_device(ctx) == before;
}

/* The same bits from the calling thread and from the device (a NaN's bits aside: the headers
 * promise none), the calling thread having run it where expected; then against the reference. */
static void check(ocl_reduce_context *thread_ctx, ocl_reduce_context *dev_ctx, int op,
                  ocl_reduce_type type, const void *a, const void *b, size_t n, int aligned,
                  const char *mode, unsigned char *result) {
  unsigned char on_device[16];
  const int host_ran = pairs_on(thread_ctx, op, type, a, b, n, result);
  const int device_ran_host = pairs_on(dev_ctx, op, type, a, b, n, on_device);
  const char *name = ocl_reduce_op_name(pair_ops[op]), *type_name = ocl_reduce_type_name(type);
  if (host_ran != (is_cpu && aligned) || device_ran_host)
    fail_msg("%s on %s, n=%zu: the calling thread ran it %s, with host=device %s", name,
             type_name, n, host_ran ? "yes" : "no", device_ran_host ? "yes" : "no");
  const size_t bytes = ocl_reduce_result_size(pair_ops[op], type);
  double x = 0, y = 0;
  if (!test_pair_is_float(type) || op == 3) { /* integers and counts: no NaN */
  } else if (bytes == 4) {
    float fx, fy;
    memcpy(&fx, result, 4);
    memcpy(&fy, on_device, 4);
    x = fx, y = fy;
  } else {
    memcpy(&x, result, 8);
    memcpy(&y, on_device, 8);
  }
  const int both_nan = x != x && y != y;
  if (memcmp(result, on_device, bytes) != 0 && !both_nan)
    fail_msg("%s on %s, n=%zu, %s data: the calling thread and the device gave other bits", name,
             type_name, n, mode);
  char why[160];
  if (!test_pair_matches(op, type, a, b, n, result, why, sizeof why))
    fail_msg("%s on %s, n=%zu, %s data: %s", name, type_name, n, mode, why);
}

static const size_t sizes[] = {1,  2,  3,  4,  5,  7,   8,   9,    15,   16,    17,    31,
                               32, 33, 63, 64, 65, 127, 255, 1000, 4097, 65539, 100003};
#define SIZES (sizeof sizes / sizeof sizes[0])
#define MAX_N 100003

/* Every pair operator on every type, every size, random and special values; a second input one
 * element on (the pairs of a[i] and a[i + 1]: still aligned), and one a byte off its type
 * (copied to the device). */
static void test_same_bits_every_operator(void **state) {
  (void)state;
  unsigned char *a = malloc(MAX_N * 8 + 16), *b = malloc(MAX_N * 8 + 16), result[16];
  assert_true(a && b);
  for (int op = 0; op < PAIR_OPS; op++) {
    for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++) {
      const ocl_reduce_type type = (ocl_reduce_type)t;
      if (type == OCL_REDUCE_F64 && !test_has_fp64())
        continue;
      if (test_light() && type != OCL_REDUCE_F32 && type != OCL_REDUCE_I64 &&
          type != OCL_REDUCE_F16) /* light runs: one type of each load */
        continue;
      const size_t elem = ocl_reduce_type_size(type);
      for (int special = 0; special <= test_pair_is_float(type); special++) {
        const char *mode = special ? "special" : "random";
        for (size_t s = 0; s < SIZES; s++) {
          const size_t n = sizes[s];
          test_pair_fill(a, b, n + 1, type, special);
          check(host_ctx, device_ctx, op, type, a, b, n, 1, mode, result);
          check(host_ctx, device_ctx, op, type, a, a + elem, n, 1, mode, result);
          if (s % 4 == 0) { /* b a byte off its type: the device's staging copy */
            memmove(b + 1, b, n * elem);
            check(host_ctx, device_ctx, op, type, a, b + 1, n, 0, mode, result);
          }
        }
      }
    }
  }
  free(a);
  free(b);
}

/* Cross-device mode: float pairs are the reproducible sum of their values, the definition's bits
 * both ways. */
static void test_cross_device_bits(void **state) {
  (void)state;
  unsigned char *a = malloc(MAX_N * 8), *b = malloc(MAX_N * 8), *values = malloc(MAX_N * 8);
  unsigned char result[16], expected[8];
  assert_true(a && b && values);
  static const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_F64, OCL_REDUCE_F16,
                                          OCL_REDUCE_BF16};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    const ocl_reduce_type type = types[t];
    const ocl_reduce_type sum = type == OCL_REDUCE_F64 ? OCL_REDUCE_F64 : OCL_REDUCE_F32;
    if ((type == OCL_REDUCE_F64 && !test_has_fp64()) || (test_light() && type != OCL_REDUCE_F32))
      continue;
    for (int op = 0; op < (test_light() ? 1 : 3); op++) { /* light runs: f32's dot product */
      for (size_t s = 0; s < SIZES; s++) {
        const size_t n = sizes[s];
        test_pair_fill(a, b, n, type, 0);
        check(cross_ctx, cross_device_ctx, op, type, a, b, n, 1, "random", result);
        test_pair_values(op, type, a, b, n, values);
        test_repro_sum(values, n, sum, expected);
        if (memcmp(result, expected, ocl_reduce_type_size(sum)) != 0)
          fail_msg("cross-device %s on %s, n=%zu: not the definition's bits",
                   ocl_reduce_op_name(pair_ops[op]), ocl_reduce_type_name(type), n);
      }
    }
  }
  free(a);
  free(b);
  free(values);
}

/* Buffers of a CPU device live in host memory, which the calling thread reads in place: both at
 * the same element offset, the host plan's bits, as from host memory, with nothing built; at
 * offsets that lie apart from a vector boundary, the device's own plan (it builds). */
static void test_buffers_on_the_calling_thread(void **state) {
  (void)state;
  enum { N = 70001, MOST = 3 };
  float *a = malloc((N + MOST) * sizeof *a), *b = malloc((N + MOST) * sizeof *b);
  assert_true(a && b);
  test_pair_fill(a, b, N + MOST, OCL_REDUCE_F32, 0);
  ocl_reduce_context *fresh = test_context_with_policy("host=thread");
  assert_non_null(fresh);
  ocl_reduce_buffer *buf_a = NULL, *buf_b = NULL;
  assert_int_equal(ocl_reduce_buffer_create(fresh, (N + MOST) * sizeof *a, &buf_a), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(fresh, (N + MOST) * sizeof *b, &buf_b), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf_a, 0, a, (N + MOST) * sizeof *a), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf_b, 0, b, (N + MOST) * sizeof *b), OCL_REDUCE_OK);
  static const size_t offsets[][2] = {{0, 0}, {MOST, MOST}, {1, 2}};
  const size_t counts[] = {1, 17, 4097, N};
  for (size_t o = 0; o < 3; o++) {
    const int apart = offsets[o][0] != offsets[o][1];
    const uint64_t builds_before = test_kernel_builds(fresh);
    for (size_t k = 0; k < 4; k++) {
      const size_t n = counts[k];
      const uint64_t builds = test_kernel_builds(fresh);
      unsigned char from_buffers[16], from_host[16];
      assert_int_equal(ocl_reduce_pairs(fresh, OCL_REDUCE_DOT, OCL_REDUCE_F32,
                                        ocl_reduce_buffer_input(buf_a, offsets[o][0]),
                                        ocl_reduce_buffer_input(buf_b, offsets[o][1]), n,
                                        ocl_reduce_host_output(from_buffers, 16)),
                       OCL_REDUCE_OK);
      const float *pa = a + offsets[o][0], *pb = b + offsets[o][1];
      char why[160];
      if (!test_pair_matches(0, OCL_REDUCE_F32, pa, pb, n, from_buffers, why, sizeof why))
        fail_msg("f32 dot of %zu pairs of buffers from %zu and %zu: %s", n, offsets[o][0],
                 offsets[o][1], why);
      if (!is_cpu || apart)
        continue;
      pairs_on(host_ctx, 0, OCL_REDUCE_F32, pa, pb, n, from_host);
      if (memcmp(from_buffers, from_host, 4) != 0 || test_kernel_builds(fresh) != builds)
        fail_msg("f32 dot of %zu pairs of buffers from %zu: not the calling thread's run", n,
                 offsets[o][0]);
    }
    if (is_cpu && apart && test_kernel_builds(fresh) == builds_before)
      fail_msg("f32 dot of buffers from 1 and 2: the calling thread ran it");
  }
  ocl_reduce_buffer_destroy(buf_a);
  ocl_reduce_buffer_destroy(buf_b);
  ocl_reduce_context_destroy(fresh);
  free(a);
  free(b);
}

/* Equal segments of pairs on CPU devices: on the calling thread (nothing copied to the device, no
 * kernel built), each segment's result the bits of ocl_reduce_pairs over that segment alone (the
 * host plan's whole array), from host memory and from buffers; host=off gives the device's segment
 * plans, against the reference. Elsewhere the device's plans. */
static void test_segments_on_the_calling_thread(void **state) {
  (void)state;
  static const size_t lengths[] = {1, 7, 32, 33, 1000, 20000};
  enum { MOST = 70000 };
  float *a = malloc(MOST * sizeof *a), *b = malloc(MOST * sizeof *b);
  float *got = malloc(MOST * sizeof *got), one;
  assert_true(a && b && got);
  test_pair_fill(a, b, MOST, OCL_REDUCE_F32, 0);
  ocl_reduce_context *fresh = test_context_with_policy("host=thread");
  ocl_reduce_context *off = test_context_with_policy("host=off");
  assert_true(fresh && off);
  ocl_reduce_buffer *buf_a = NULL, *buf_b = NULL;
  assert_int_equal(ocl_reduce_buffer_create(fresh, MOST * sizeof *a, &buf_a), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(fresh, MOST * sizeof *b, &buf_b), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf_a, 0, a, MOST * sizeof *a), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf_b, 0, b, MOST * sizeof *b), OCL_REDUCE_OK);
  for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
    const size_t length = lengths[l], count = MOST / length, bytes = count * length * sizeof *a;
    for (int from = 0; from < 3; from++) { /* host memory, buffers, host memory with host=off */
      ocl_reduce_context *ctx = from == 2 ? off : fresh;
      const uint64_t copied = test_bytes_to_device(ctx), builds = test_kernel_builds(ctx);
      const ocl_reduce_status s = ocl_reduce_pairs_segments(
          ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32,
          from == 1 ? ocl_reduce_buffer_input(buf_a, 0) : ocl_reduce_host_input(a, bytes),
          from == 1 ? ocl_reduce_buffer_input(buf_b, 0) : ocl_reduce_host_input(b, bytes), count,
          length, ocl_reduce_host_output(got, count * sizeof *got));
      if (s != OCL_REDUCE_OK)
        fail_msg("segments of %zu: %s", length, ocl_reduce_last_error(ctx));
      const int thread_ran =
          test_bytes_to_device(ctx) == copied && test_kernel_builds(ctx) == builds;
      if (is_cpu && from < 2 && !thread_ran)
        fail_msg("segments of %zu (%s): the device ran them", length, from ? "buffers" : "host");
      for (size_t r = 0; r < count; r++) {
        char why[160];
        if (!test_pair_matches(0, OCL_REDUCE_F32, a + r * length, b + r * length, length,
                               &got[r], why, sizeof why))
          fail_msg("segment %zu of %zu: %s", r, length, why);
        if (!is_cpu || from == 2 || (r % 97 != 0 && r + 1 != count))
          continue;
        assert_int_equal(
            ocl_reduce_pairs(fresh, OCL_REDUCE_DOT, OCL_REDUCE_F32,
                             ocl_reduce_host_input(a + r * length, length * sizeof *a),
                             ocl_reduce_host_input(b + r * length, length * sizeof *b), length,
                             ocl_reduce_host_output(&one, sizeof one)),
            OCL_REDUCE_OK);
        if (memcmp(&one, &got[r], sizeof one) != 0)
          fail_msg("segment %zu of %zu: not the bits of its own ocl_reduce_pairs", r, length);
      }
    }
  }
  ocl_reduce_buffer_destroy(buf_a);
  ocl_reduce_buffer_destroy(buf_b);
  ocl_reduce_context_destroy(fresh);
  ocl_reduce_context_destroy(off);
  free(a);
  free(b);
  free(got);
}

/* A profiling context times the calling thread's runs as the call's kernel
 * (ocl_reduce_last_kernel_ns), whole arrays and equal segments alike. */
static void test_profiling_times_the_calling_threads_runs(void **state) {
  (void)state;
  enum { LENGTH = 33, COUNT = 64 };
  float a[LENGTH * COUNT], b[LENGTH * COUNT], got[COUNT];
  test_pair_fill(a, b, LENGTH * COUNT, OCL_REDUCE_F32, 0);
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.profiling = 1;
  ocl_reduce_context *ctx = NULL;
  assert_int_equal(ocl_reduce_context_create(&opts, &ctx), OCL_REDUCE_OK);
  for (size_t length = 0; length <= LENGTH; length += LENGTH) { /* 0: the whole array */
    const uint64_t copied = test_bytes_to_device(ctx), builds = test_kernel_builds(ctx);
    const ocl_reduce_input in_a = ocl_reduce_host_input(a, sizeof a);
    const ocl_reduce_input in_b = ocl_reduce_host_input(b, sizeof b);
    assert_int_equal(length ? ocl_reduce_pairs_segments(ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, in_a,
                                                        in_b, COUNT, LENGTH,
                                                        ocl_reduce_host_output(got, sizeof got))
                            : ocl_reduce_pairs(ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, in_a, in_b,
                                               LENGTH * COUNT,
                                               ocl_reduce_host_output(got, sizeof *got)),
                     OCL_REDUCE_OK);
    const int thread_ran = test_bytes_to_device(ctx) == copied && test_kernel_builds(ctx) == builds;
    uint64_t ns = 0;
    const ocl_reduce_status timed = ocl_reduce_last_kernel_ns(ctx, &ns);
    if (is_cpu && !thread_ran)
      fail_msg("%s: the device ran it", length ? "segments" : "the whole array");
    if (timed != OCL_REDUCE_OK || ns == 0)
      fail_msg("%s: no kernel time (%s)", length ? "segments" : "the whole array",
               ocl_reduce_status_name(timed));
  }
  ocl_reduce_context_destroy(ctx);
}

/* describe_plan takes pair operators: ocl_reduce_pairs' plan, and on CPU devices the calling
 * thread's run, whole and in segments; under host=device the device's; under host=off (the
 * fixture's test_ctx) the device's own plans. A user pair operator's plan too; a one-input
 * operator keeps its own. */
static void test_describe_plan(void **state) {
  (void)state;
  char text[1024];
  for (size_t length = 0; length <= 32; length += 32) {
    assert_int_equal(ocl_reduce_describe_plan(host_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F32, 1 << 20,
                                              length, text, sizeof text),
                     OCL_REDUCE_OK);
    if ((strstr(text, "calling thread runs it") != NULL) != is_cpu ||
        (is_cpu && (strstr(text, "each segment") != NULL) != (length != 0)))
      fail_msg("describe_plan for a dot product (segments of %zu): \"%s\"", length, text);
    assert_int_equal(ocl_reduce_describe_plan(test_ctx, OCL_REDUCE_COUNT_EQUAL, OCL_REDUCE_F16,
                                              1 << 20, length, text, sizeof text),
                     OCL_REDUCE_OK);
    if (strstr(text, "host memory"))
      fail_msg("describe_plan under host=off: \"%s\"", text);
  }
  assert_int_equal(ocl_reduce_describe_plan(device_ctx, OCL_REDUCE_DOT, OCL_REDUCE_F64, 1000, 0,
                                            text, sizeof text),
                   test_has_fp64() ? OCL_REDUCE_OK : OCL_REDUCE_ERROR_NO_FP64);
  if (is_cpu && test_has_fp64() && !strstr(text, "host=device"))
    fail_msg("describe_plan under host=device: \"%s\"", text);
  assert_int_equal(ocl_reduce_describe_plan(host_ctx, OCL_REDUCE_DOT, (ocl_reduce_type)99, 10, 0,
                                            text, sizeof text),
                   OCL_REDUCE_ERROR_INVALID_ARGUMENT);
  ocl_reduce_operator *user = NULL; /* the device's plans: a user's pair_map has no host kernel */
  assert_int_equal(ocl_reduce_operator_create(&test_user_pair_descs[TEST_PAIR_HASH], &user),
                   OCL_REDUCE_OK);
  for (size_t length = 0; length <= 32; length += 32) {
    assert_int_equal(ocl_reduce_describe_plan(host_ctx, user, OCL_REDUCE_OP_ELEMENT, 1000, length,
                                              text, sizeof text),
                     OCL_REDUCE_OK);
    if (strstr(text, "host memory"))
      fail_msg("describe_plan of a user pair operator: \"%s\"", text);
  }
  ocl_reduce_operator_destroy(user);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_bits_every_operator),
      cmocka_unit_test(test_cross_device_bits),
      cmocka_unit_test(test_buffers_on_the_calling_thread),
      cmocka_unit_test(test_segments_on_the_calling_thread),
      cmocka_unit_test(test_profiling_times_the_calling_threads_runs),
      cmocka_unit_test(test_describe_plan),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
