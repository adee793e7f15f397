/* =================================================================================================
 * test_operators.c: the structured operators (ARGMIN, ARGMAX, MINMAX, SUM_WIDE, SUM_COMPENSATED,
 * MEAN_VAR) on every type they take, against the host references of support/structured.c: over
 * the boundary sizes and the data modes (ties, NaN, +-0.0, infinities, extremes), from host memory
 * and from a buffer at an unaligned offset; in equal-length segments and by offsets; with the
 * cases each operator exists for (first index of ties and extremes at either end, 1e8 followed by
 * many ones, a large offset under the variance); and their argument errors.
 * ============================================================================================== */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"
#include "support/structured.h"

static size_t sizes[128];
static size_t size_count;
/* The staged segment kernel, forced: automatic selection takes it on GPUs only. */
static ocl_reduce_context *staged_ctx;

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  size_count = test_sizes(test_context_shape(test_ctx), 0, sizes, 128);
  staged_ctx = test_context_with_policy("seg=staged");
  return staged_ctx ? 0 : -1;
}

static int teardown(void **state) {
  ocl_reduce_context_destroy(staged_ctx);
  return test_teardown(state);
}

/* The data a mode gives suits the operator family (values near 1 are for products only). */
static ocl_reduce_op data_for(ocl_reduce_op op) {
  return op == OCL_REDUCE_ARGMIN || op == OCL_REDUCE_ARGMAX || op == OCL_REDUCE_MINMAX
             ? OCL_REDUCE_MIN
             : OCL_REDUCE_SUM;
}

/* Light runs (sanitizers, the paths and layouts automatic selection does not take) take each
 * operator on one type, 4-byte and 8-byte ones and both float types among them: the state
 * kernels differ per operator and state, and kernel builds are most of this test's time. */
static int light_skips(ocl_reduce_op op, ocl_reduce_type type) {
  static const struct {
    ocl_reduce_op op;
    ocl_reduce_type type;
  } picks[] = {{OCL_REDUCE_ARGMIN, OCL_REDUCE_F32},     {OCL_REDUCE_ARGMAX, OCL_REDUCE_I64},
               {OCL_REDUCE_MINMAX, OCL_REDUCE_F64},     {OCL_REDUCE_SUM_WIDE, OCL_REDUCE_I32},
               {OCL_REDUCE_SUM_COMPENSATED, OCL_REDUCE_F32}, {OCL_REDUCE_MEAN_VAR, OCL_REDUCE_U64}};
  if (!test_light())
    return 0;
  for (size_t k = 0; k < sizeof picks / sizeof picks[0]; k++)
    if (picks[k].op == op)
      return type != picks[k].type;
  return 0;
}

/* Whether the context runs op on type (NO_FP64 devices skip the double-precision ones, light runs
 * most types). */
static int runs(ocl_reduce_op op, ocl_reduce_type type) {
  if (light_skips(op, type)) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    return 0;
  }
  assert_true(ocl_reduce_result_size(op, type) > 0);
  unsigned char probe[64];
  const ocl_reduce_status s = ocl_reduce(test_ctx, op, type, NULL, 0, probe, sizeof probe);
  if (s == OCL_REDUCE_ERROR_NO_FP64)
    return 0;
  assert_int_equal(s, OCL_REDUCE_OK);
  return 1;
}

/* One whole-array result of op over data, from host memory or a buffer at an offset of 3. */
static int check_whole(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n,
                       int on_device, const char *what) {
  const size_t elem = ocl_reduce_type_size(type), rsize = ocl_reduce_result_size(op, type);
  unsigned char got[64];
  memset(got, 0xa5, sizeof got);
  ocl_reduce_status s;
  if (!on_device) {
    s = ocl_reduce(test_ctx, op, type, data, n, got, rsize);
  } else {
    ocl_reduce_buffer *buf = NULL;
    assert_int_equal(ocl_reduce_buffer_create(test_ctx, (n + 3) * elem, &buf), OCL_REDUCE_OK);
    if (n)
      assert_int_equal(ocl_reduce_buffer_write(buf, 3 * elem, data, n * elem), OCL_REDUCE_OK);
    s = ocl_reduce_into(test_ctx, op, type, ocl_reduce_buffer_input(buf, 3), n,
                        ocl_reduce_host_output(got, rsize));
    ocl_reduce_buffer_destroy(buf);
  }
  char why[256];
  if (s != OCL_REDUCE_OK) {
    print_error("%s %s %s n=%zu: %s (%s)\n", ocl_reduce_op_name(op), ocl_reduce_type_name(type),
                what, n, ocl_reduce_status_name(s), ocl_reduce_last_error(test_ctx));
    return 1;
  }
  if (got[rsize] != 0xa5 || !test_structured_matches(got, data, n, op, type, why, sizeof why)) {
    if (got[rsize] != 0xa5)
      snprintf(why, sizeof why, "wrote beyond the %zu-byte result", rsize);
    print_error("%s %s %s n=%zu (%s): %s\n", ocl_reduce_op_name(op), ocl_reduce_type_name(type),
                what, n, on_device ? "buffer" : "host", why);
    return 1;
  }
  return 0;
}

static void sweep(ocl_reduce_op op, ocl_reduce_type type) {
  if (!runs(op, type))
    skip();
  const size_t elem = ocl_reduce_type_size(type);
  int failures = 0;
  for (int mode = 0; mode < MODE_COUNT; mode++) {
    if (!test_mode_applies((test_mode)mode, type) || mode == MODE_EXACT)
      continue;
    /* Light runs (sanitizers, the GPU layout on CPUs): random data, NaN and ties. */
    if (test_light() && mode != MODE_RANDOM && mode != MODE_NAN && mode != MODE_CONSTANT)
      continue;
    /* Moments of infinities and NaN are not specified beyond "not finite". */
    if (op == OCL_REDUCE_MEAN_VAR && mode != MODE_RANDOM && mode != MODE_CONSTANT &&
        mode != MODE_ZEROS && mode != MODE_EXTREMES)
      continue;
    for (size_t k = 0; k < size_count; k++) {
      const size_t n = sizes[k];
      void *data = malloc((n ? n : 1) * elem);
      assert_non_null(data);
      test_fill(data, n, data_for(op), type, (test_mode)mode);
      char what[64];
      snprintf(what, sizeof what, "%s", test_mode_name((test_mode)mode));
      failures += check_whole(op, type, data, n, 0, what);
      if (mode == MODE_RANDOM || n < 1000)
        failures += check_whole(op, type, data, n, 1, what);
      free(data);
      if (failures > 5)
        fail_msg("%d failures", failures);
    }
  }
  if (failures)
    fail_msg("%d failures", failures);
}

/* Segments: equal lengths (32 and 33 also through the staged kernel), then random lengths by
 * offsets (empty ones included); every result against the reference of its segment (indices
 * count from the segment's start). */
static void segments(ocl_reduce_op op, ocl_reduce_type type) {
  if (!runs(op, type))
    skip();
  const size_t elem = ocl_reduce_type_size(type), rsize = ocl_reduce_result_size(op, type);
  static const size_t lengths[] = {1, 3, 8, 31, 32, 33, 100, 1000, 5000};
  const size_t light_skip = test_light() ? 2 : 1; /* light runs: every other length */
  int failures = 0;
  for (size_t li = 0; li < sizeof lengths / sizeof lengths[0] + 1; li++) {
    const int by_offsets = li == sizeof lengths / sizeof lengths[0];
    if (!by_offsets && li % light_skip)
      continue;
    const size_t count = by_offsets ? 300 : (lengths[li] > 1000 ? 7 : 257);
    uint64_t *offsets = malloc((count + 1) * sizeof *offsets);
    assert_non_null(offsets);
    offsets[0] = 2;
    for (size_t s = 0; s < count; s++)
      offsets[s + 1] = offsets[s] + (by_offsets ? test_rng_below(4) == 0 ? 0 : test_rng_below(300)
                                                : lengths[li]);
    const size_t n = (size_t)offsets[count];
    unsigned char *data = malloc(n * elem + 1), *got = malloc(count * rsize);
    assert_non_null(data);
    assert_non_null(got);
    test_fill(data, n, data_for(op), type, li % 2 ? MODE_RANDOM : MODE_CONSTANT);
    if (op != OCL_REDUCE_MEAN_VAR && (type == OCL_REDUCE_F32 || type == OCL_REDUCE_F64) && li == 3)
      test_fill(data, n, data_for(op), type, MODE_NAN);
    const int staged = !by_offsets && (lengths[li] == 32 || lengths[li] == 33);
    for (int pass = 0; pass < 1 + staged; pass++) {
      ocl_reduce_context *ctx = pass ? staged_ctx : test_ctx;
      memset(got, 0xa5, count * rsize);
      ocl_reduce_status s;
      if (by_offsets)
        s = ocl_reduce_segments_offsets(ctx, op, type, ocl_reduce_host_input(data, n * elem), count,
                                        ocl_reduce_host_input(offsets, (count + 1) * 8),
                                        ocl_reduce_host_output(got, count * rsize));
      else
        s = ocl_reduce_segments(ctx, op, type,
                                ocl_reduce_host_input(data + 2 * elem, (n - 2) * elem), count,
                                lengths[li], ocl_reduce_host_output(got, count * rsize));
      if (s != OCL_REDUCE_OK)
        fail_msg("segments of %zu: %s (%s)", by_offsets ? 0 : lengths[li],
                 ocl_reduce_status_name(s), ocl_reduce_last_error(ctx));
      for (size_t i = 0; i < count && failures < 5; i++) {
        char why[256];
        const size_t begin = (size_t)offsets[i], len = (size_t)(offsets[i + 1] - offsets[i]);
        if (!test_structured_matches(got + i * rsize, data + begin * elem, len, op, type, why,
                                     sizeof why)) {
          print_error("%s %s segment %zu of %zu (%s%s): %s\n", ocl_reduce_op_name(op),
                      ocl_reduce_type_name(type), i, len, by_offsets ? "offsets" : "equal",
                      pass ? ", staged" : "", why);
          failures++;
        }
      }
    }
    free(offsets);
    free(data);
    free(got);
  }
  if (failures)
    fail_msg("%d failures", failures);
}

#define SWEEP(OP, TYPE)                                                                            \
  static void test_##OP##_##TYPE(void **state) {                                                   \
    (void)state;                                                                                   \
    sweep(OCL_REDUCE_##OP, OCL_REDUCE_##TYPE);                                                     \
  }                                                                                                \
  static void test_segments_##OP##_##TYPE(void **state) {                                          \
    (void)state;                                                                                   \
    segments(OCL_REDUCE_##OP, OCL_REDUCE_##TYPE);                                                  \
  }
TEST_STRUCTURED_OP_TYPES(SWEEP)

/* ---- What each operator is for ------------------------------------------------------------ */

/* ARGMIN / ARGMAX: the extreme at index 0, at n - 1, and ties, where the first index wins. */
static void test_arg_positions(void **state) {
  (void)state;
  const size_t n = 100003;
  float *x = malloc(n * sizeof *x);
  assert_non_null(x);
  for (int where = 0; where < 3; where++) {
    for (size_t i = 0; i < n; i++)
      x[i] = (float)(i % 1000) + 1.0f;
    const size_t at = where == 0 ? 0 : where == 1 ? n - 1 : n / 2;
    x[at] = -5.0f;
    x[n - 1 - at / 3] = -5.0f; /* a tie after (or at) it */
    ocl_reduce_arg r;
    assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_ARGMIN, OCL_REDUCE_F32, x, n, &r, sizeof r),
                     OCL_REDUCE_OK);
    assert_true(r.value.f32 == -5.0f);
    assert_int_equal(r.index, at < n - 1 - at / 3 ? at : n - 1 - at / 3);
  }
  /* All equal: index 0; empty: UINT64_MAX and MAX's identity. */
  for (size_t i = 0; i < n; i++)
    x[i] = 7.0f;
  ocl_reduce_arg r;
  assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_F32, x, n, &r, sizeof r),
                   OCL_REDUCE_OK);
  assert_int_equal(r.index, 0);
  assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_F32, x, 0, &r, sizeof r),
                   OCL_REDUCE_OK);
  assert_true(r.index == UINT64_MAX && isinf(r.value.f32) && r.value.f32 < 0);
  assert_int_equal(r.value.u64 >> 32, 0);
  free(x);
}

/* Whether the context is PoCL 3: its last-group finish combined by all the group's work-items
 * (finish=group, forced: PoCL's own plan combines in work-item 0) loses elements in about 0.5 %
 * of calls once work-groups run on two threads (i32 SUM too, on main before 16-bit types; one
 * thread, finish=serial, finish=launch and Intel's runtime never, in 2000-3000 calls each). Not
 * understood yet: a fence for every work-item, or no early return, did not cure it. */
static int is_pocl_3(void) {
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  return ocl_reduce_context_query(test_ctx, &info) == OCL_REDUCE_OK && info.platform_name &&
         strstr(info.platform_name, "Portable Computing Language") && info.driver_version &&
         strncmp(info.driver_version, "3.", 2) == 0;
}

/* ARGMIN and ARGMAX over several groups finished every way (the last group's first work-item,
 * all its work-items, a second launch), 32- and 16-bit elements: PoCL 3.1 ran the finish's last
 * region with every work-item as work-item 0 until it ended in a barrier (reduce_all.cl), which
 * gave the identity after a group finish and garbled 16-bit results. */
static void test_arg_after_every_finish(void **state) {
  (void)state;
  static const char *const finishes[] = {"host=off,vec=1,unroll=1,finish=serial",
                                         "host=off,vec=1,unroll=1,finish=group",
                                         "host=off,vec=1,unroll=1,finish=launch"};
  static const size_t counts[] = {19, 1000, 100003};
  const ocl_reduce_op ops[] = {OCL_REDUCE_ARGMIN, OCL_REDUCE_ARGMAX};
  const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_F16, OCL_REDUCE_BF16};
  ocl_reduce_context *const shared = test_ctx;
  int failures = 0;
  const int pocl_3 = is_pocl_3();
  for (size_t f = 0; f < sizeof finishes / sizeof finishes[0]; f++) {
    if (pocl_3 && strstr(finishes[f], "finish=group")) {
      printf("# %s left out on PoCL 3 (is_pocl_3)\n", finishes[f]);
      continue;
    }
    test_ctx = test_context_with_policy(finishes[f]);
    assert_non_null(test_ctx);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
      for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        void *data = malloc(counts[c] * ocl_reduce_type_size(types[t]));
        assert_non_null(data);
        test_fill(data, counts[c], OCL_REDUCE_MIN, types[t], MODE_RANDOM);
        for (size_t o = 0; o < 2; o++)
          failures += check_whole(ops[o], types[t], data, counts[c], (int)(c & 1), finishes[f]);
        free(data);
      }
    ocl_reduce_context_destroy(test_ctx);
  }
  test_ctx = shared;
  if (failures)
    fail_msg("%d forced-finish cases wrong", failures);
}

/* SUM_COMPENSATED: 1e8 followed by 2^20 ones, where a plain float sum keeps 1e8. */
static void test_compensated_keeps_small_terms(void **state) {
  (void)state;
  const size_t n = ((size_t)1 << 20) + 1;
  float *x = malloc(n * sizeof *x);
  assert_non_null(x);
  x[0] = 1e8f;
  for (size_t i = 1; i < n; i++)
    x[i] = 1.0f;
  float compensated = 0, plain = 0;
  assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_SUM_COMPENSATED, OCL_REDUCE_F32, x, n,
                              &compensated, sizeof compensated),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, x, n, &plain, sizeof plain),
                   OCL_REDUCE_OK);
  printf("  1e8 + 2^20 ones: compensated %.1f, plain sum %.1f, exact 101048576\n",
         (double)compensated, (double)plain);
  assert_true(compensated == 101048576.0f);
  free(x);
}

/* MEAN_VAR: 1e8 + uniform noise in f32, against a two-pass long double reference. */
static void test_moments_with_large_offset(void **state) {
  (void)state;
  if (!runs(OCL_REDUCE_MEAN_VAR, OCL_REDUCE_F32))
    skip();
  const size_t n = (size_t)1 << 21;
  float *x = malloc(n * sizeof *x);
  assert_non_null(x);
  for (size_t i = 0; i < n; i++)
    x[i] = (float)(1e8 + 64.0 * test_rng_unit());
  ocl_reduce_moments m;
  assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_MEAN_VAR, OCL_REDUCE_F32, x, n, &m, sizeof m),
                   OCL_REDUCE_OK);
  char why[256];
  if (!test_structured_matches(&m, x, n, OCL_REDUCE_MEAN_VAR, OCL_REDUCE_F32, why, sizeof why))
    fail_msg("%s", why);
  free(x);
}

/* ---- Arguments ------------------------------------------------------------------------------ */

static void test_structured_errors(void **state) {
  (void)state;
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_ARGMIN, OCL_REDUCE_I32),
                   sizeof(ocl_reduce_arg));
  assert_int_equal(sizeof(ocl_reduce_arg), 16);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_MINMAX, OCL_REDUCE_F64), 16);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM_WIDE, OCL_REDUCE_I32), 8);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM_WIDE, OCL_REDUCE_I64), 0);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM_COMPENSATED, OCL_REDUCE_F32), 4);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_MEAN_VAR, OCL_REDUCE_U64),
                   sizeof(ocl_reduce_moments));
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM, OCL_REDUCE_F64), 8);
  /* 16-bit elements: results of elements hold them, the rest are f32's results. */
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_MIN, OCL_REDUCE_F16), 2);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_MINMAX, OCL_REDUCE_BF16), 4);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_ARGMAX, OCL_REDUCE_F16),
                   sizeof(ocl_reduce_arg));
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM, OCL_REDUCE_BF16), 4);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM_WIDE, OCL_REDUCE_F16), 8);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F16), 4);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_MEAN_VAR, OCL_REDUCE_BF16),
                   sizeof(ocl_reduce_moments));
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_XOR, OCL_REDUCE_F16), 0);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_BUILTIN_OP(99), OCL_REDUCE_F64), 0);
  int64_t data[4] = {1, 2, 3, 4};
  unsigned char out[32];
  memset(out, 0x5a, sizeof out);
  expect_error(ocl_reduce(test_ctx, OCL_REDUCE_SUM_WIDE, OCL_REDUCE_I64, data, 4, out, sizeof out),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "32-bit types only");
  expect_error(
      ocl_reduce(test_ctx, OCL_REDUCE_SUM_COMPENSATED, OCL_REDUCE_I32, data, 4, out, sizeof out),
      OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "float types only");
  for (size_t i = 0; i < sizeof out; i++)
    assert_int_equal(out[i], 0x5a);
  /* Structured operators in ocl_reduce_multi: each result in a slot of the largest size (16). The
   * i32 view of {1, 2, 3, 4} as int64_t is 1, 0, 2, 0, ... */
  const ocl_reduce_op ops[2] = {OCL_REDUCE_SUM, OCL_REDUCE_ARGMAX};
  expect_error(ocl_reduce_multi(test_ctx, ops, 2, OCL_REDUCE_I32,
                                ocl_reduce_host_input(data, TEST_BYTES(data)), 4,
                                ocl_reduce_host_output(out, 31)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "results is 31 bytes");
  assert_int_equal(ocl_reduce_multi(test_ctx, ops, 2, OCL_REDUCE_I32,
                                    ocl_reduce_host_input(data, TEST_BYTES(data)), 4,
                                    ocl_reduce_host_output(out, TEST_BYTES(out))),
                   OCL_REDUCE_OK);
  int32_t sum;
  ocl_reduce_arg arg;
  memcpy(&sum, out, sizeof sum);
  memcpy(&arg, out + 16, sizeof arg);
  assert_int_equal(sum, 3);
  assert_int_equal(arg.value.i32, 2);
  assert_int_equal(arg.index, 2);
  assert_string_equal(ocl_reduce_op_name(OCL_REDUCE_SUM_COMPENSATED), "sum_compensated");
}

#define ENTRY(OP, TYPE)                                                                            \
  cmocka_unit_test(test_##OP##_##TYPE), cmocka_unit_test(test_segments_##OP##_##TYPE),

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_structured_errors),
      cmocka_unit_test(test_arg_positions),
      cmocka_unit_test(test_arg_after_every_finish),
      cmocka_unit_test(test_compensated_keeps_small_terms),
      cmocka_unit_test(test_moments_with_large_offset),
      TEST_STRUCTURED_OP_TYPES(ENTRY)};
  return TEST_RUN(tests, setup, teardown);
}
