/* =================================================================================================
 * test_staging.c: host memory on its way to and from the device (src/exec/staging.c). A context
 * forced through the pinned path (OCL_REDUCE_POLICY staging=pinned, in pieces of 4 KiB over eight
 * copy threads, so that small arrays take many pieces and both pinned pieces turn over) must give
 * the bits of one with blocking copies (staging=off), and the host references: whole arrays at
 * sizes around the piece boundaries and the planner's crossover, from misaligned host pointers;
 * segment and window results coming back in pieces; buffer copies; and memory the caller pinned
 * (ocl_reduce_host_alloc, and on CUDA memory the application registered with the driver), which
 * is copied directly. Every implementation takes the forced path, CPU devices included.
 * ============================================================================================== */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"

#define PIECE_BYTES 4096

static ocl_reduce_context *staged, *blocking;

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  staged = test_context_with_policy("staging=pinned,stage_kib=4,copy_threads=8");
  blocking = test_context_with_policy("staging=off");
  return staged && blocking ? 0 : -1;
}

static int teardown(void **state) {
  ocl_reduce_context_destroy(staged);
  ocl_reduce_context_destroy(blocking);
  return test_teardown(state);
}

static void check(ocl_reduce_status status, ocl_reduce_context *ctx, const char *what) {
  if (status != OCL_REDUCE_OK)
    fail_msg("%s: %s", what, ocl_reduce_last_error(ctx));
}

/* n elements at data (any alignment) reduced on both contexts: the same bits, and the reference
 * (computed from `aligned`, the same elements aligned for their type). */
static void same_whole(ocl_reduce_op op, ocl_reduce_type type, const void *data,
                       const void *aligned, size_t n, test_mode mode) {
  unsigned char a[64], b[64];
  memset(a, 0x5a, sizeof a);
  memset(b, 0xa5, sizeof b);
  check(ocl_reduce(staged, op, type, data, n, a, sizeof a), staged, "staged");
  check(ocl_reduce(blocking, op, type, data, n, b, sizeof b), blocking, "blocking");
  const size_t bytes = ocl_reduce_result_size(op, type);
  if (memcmp(a, b, bytes) != 0)
    fail_msg("%s %s n=%zu: the staged result's bits differ from the blocking copy's",
             ocl_reduce_op_name(op), ocl_reduce_type_name(type), n);
  if (op == OCL_REDUCE_SUM || op == OCL_REDUCE_MAX) {
    test_value got;
    memcpy(&got, a, sizeof got);
    char why[256];
    const test_reference ref = test_reduce_host(aligned, n, op, type, mode);
    if (!test_matches(&got, &ref, op, type, why, sizeof why))
      fail_msg("%s %s n=%zu: %s", ocl_reduce_op_name(op), ocl_reduce_type_name(type), n, why);
  }
}

/* Sizes around whole pieces (4 KiB: 1024 f32, 512 f64) and a few pieces more, from pointers 0 to
 * 3 bytes past alignment; sum, max and argmin on i32, f32 and f64. */
static void test_whole_arrays(void **state) {
  (void)state;
  static const size_t sizes[] = {1, 129, 511, 512, 513, 1023, 1024, 1025, 3 * 1024 + 7, 20011};
  static const ocl_reduce_type types[] = {OCL_REDUCE_I32, OCL_REDUCE_F32, OCL_REDUCE_F64};
  static const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MAX, OCL_REDUCE_ARGMIN};
  unsigned char *memory = malloc(20011 * 8 + 8), *aligned = malloc(20011 * 8);
  assert_non_null(memory);
  assert_non_null(aligned);
  for (size_t t = 0; t < 3; t++) {
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    check(ocl_reduce_context_query(staged, &info), staged, "query");
    if (types[t] == OCL_REDUCE_F64 && !info.has_fp64)
      continue;
    const size_t size = ocl_reduce_type_size(types[t]);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (size_t o = 0; o < 3; o++) {
        const size_t n = sizes[s], shift = (s + t + o) % 4;
        test_fill(aligned, n, ops[o], types[t], MODE_RANDOM);
        memcpy(memory + shift, aligned, n * size); /* filled aligned: UBSan checks test_fill */
        same_whole(ops[o], types[t], memory + shift, aligned, n, MODE_RANDOM);
      }
  }
  free(memory);
  free(aligned);
}

/* Around the planner's crossover (16 MiB, src/planner/plan_staging.c) on a context of its own
 * choice: below it the blocking copy, at and past it the bounce (GPUs) or the blocking copy
 * (CPU devices); the sums are exact either way. */
static void test_crossover(void **state) {
  (void)state;
  ocl_reduce_context *automatic = test_context_with_policy("");
  assert_non_null(automatic);
  const size_t crossover = ((size_t)16 << 20) / 4;
  int32_t *data = malloc((crossover + 1) * sizeof *data);
  assert_non_null(data);
  test_fill(data, crossover + 1, OCL_REDUCE_SUM, OCL_REDUCE_I32, MODE_RANDOM);
  for (size_t n = crossover - 1; n <= crossover + 1; n++) {
    int32_t got = 0;
    check(ocl_reduce(automatic, OCL_REDUCE_SUM, OCL_REDUCE_I32, data, n, &got, sizeof got),
          automatic, "automatic");
    const test_reference ref =
        test_reduce_host(data, n, OCL_REDUCE_SUM, OCL_REDUCE_I32, MODE_RANDOM);
    assert_int_equal(got, ref.value.i32);
  }
  free(data);
  ocl_reduce_context_destroy(automatic);
}

/* Segment and window results come back to host memory in pieces: 40000 f32 results of pairs,
 * 39 pieces of 4 KiB, and windows of 5 over 30000 elements. */
static void test_results_back(void **state) {
  (void)state;
  const size_t count = 40000, n = 2 * count;
  float *data = malloc(n * sizeof *data), *a = malloc(count * sizeof *a),
        *b = malloc(count * sizeof *b);
  assert_true(data && a && b);
  test_fill(data, n, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
  const ocl_reduce_input in = ocl_reduce_host_input(data, n * sizeof *data);
  memset(a, 0, count * sizeof *a);
  memset(b, 0xff, count * sizeof *b);
  check(ocl_reduce_segments(staged, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, count, 2,
                            ocl_reduce_host_output(a, count * sizeof *a)),
        staged, "segments");
  check(ocl_reduce_segments(blocking, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, count, 2,
                            ocl_reduce_host_output(b, count * sizeof *b)),
        blocking, "segments");
  assert_memory_equal(a, b, count * sizeof *a);
  for (size_t i = 0; i < count; i += 997)
    assert_true(a[i] == data[2 * i] + data[2 * i + 1]);
  const size_t windows = 30000 - 5 + 1;
  check(ocl_reduce_windows(staged, OCL_REDUCE_MAX, OCL_REDUCE_F32, in, 30000, 5,
                           ocl_reduce_host_output(a, windows * sizeof *a)),
        staged, "windows");
  check(ocl_reduce_windows(blocking, OCL_REDUCE_MAX, OCL_REDUCE_F32, in, 30000, 5,
                           ocl_reduce_host_output(b, windows * sizeof *b)),
        blocking, "windows");
  assert_memory_equal(a, b, windows * sizeof *a);
  free(data);
  free(a);
  free(b);
}

/* Buffer copies through the pieces, at an odd offset and length. */
static void test_buffer_copies(void **state) {
  (void)state;
  const size_t bytes = 5 * PIECE_BYTES + 123;
  unsigned char *src = malloc(bytes), *dst = malloc(bytes);
  assert_true(src && dst);
  for (size_t i = 0; i < bytes; i++)
    src[i] = (unsigned char)test_rng_next();
  ocl_reduce_buffer *buf = NULL;
  check(ocl_reduce_buffer_create(staged, bytes + 8, &buf), staged, "buffer");
  check(ocl_reduce_buffer_write(buf, 3, src, bytes), staged, "write");
  memset(dst, 0, bytes);
  check(ocl_reduce_buffer_read(buf, 3, dst, bytes), staged, "read");
  assert_memory_equal(src, dst, bytes);
  ocl_reduce_buffer_destroy(buf);
  free(src);
  free(dst);
}

/* Memory of ocl_reduce_host_alloc as input and output, copied directly; the same bits as
 * malloc'd memory through the pieces. */
static void test_pinned_memory(void **state) {
  (void)state;
  const size_t n = 3 * 1024 + 5;
  float *pinned = NULL, *results = NULL;
  check(ocl_reduce_host_alloc(staged, n * sizeof *pinned, (void **)&pinned), staged, "alloc");
  check(ocl_reduce_host_alloc(staged, n * sizeof *results, (void **)&results), staged, "alloc");
  test_fill(pinned, n, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
  same_whole(OCL_REDUCE_SUM, OCL_REDUCE_F32, pinned, pinned, n, MODE_RANDOM);
  const size_t count = n / 5;
  float *b = malloc(count * sizeof *b);
  assert_non_null(b);
  const ocl_reduce_input in = ocl_reduce_host_input(pinned, n * sizeof *pinned);
  check(ocl_reduce_segments(staged, OCL_REDUCE_MIN, OCL_REDUCE_F32, in, count, 5,
                            ocl_reduce_host_output(results, count * sizeof *results)),
        staged, "segments");
  check(ocl_reduce_segments(blocking, OCL_REDUCE_MIN, OCL_REDUCE_F32, in, count, 5,
                            ocl_reduce_host_output(b, count * sizeof *b)),
        blocking, "segments");
  assert_memory_equal(results, b, count * sizeof *b);
  free(b);
  check(ocl_reduce_host_free(staged, pinned), staged, "free");
  check(ocl_reduce_host_free(staged, results), staged, "free");
}

/* CUDA: memory the application registered with the driver itself is recognised. */
static void test_registered_memory(void **state) {
  (void)state;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  check(ocl_reduce_context_query(staged, &info), staged, "query");
  if (info.backend != OCL_REDUCE_BACKEND_CUDA)
    skip();
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  assert_non_null(driver);
  int (*reg)(void *, size_t, unsigned) =
      (int (*)(void *, size_t, unsigned))dlsym(driver, "cuMemHostRegister_v2");
  int (*unreg)(void *) = (int (*)(void *))dlsym(driver, "cuMemHostUnregister");
  int (*push)(void *) = (int (*)(void *))dlsym(driver, "cuCtxPushCurrent_v2");
  int (*pop)(void **) = (int (*)(void **))dlsym(driver, "cuCtxPopCurrent_v2");
  assert_true(reg && unreg && push && pop);
  void *popped = NULL;
  const size_t n = 1 << 18;
  double *data = aligned_alloc(4096, n * sizeof *data);
  assert_non_null(data);
  test_fill(data, n, OCL_REDUCE_SUM, OCL_REDUCE_F64, MODE_EXACT);
  assert_int_equal(push(info.native_context), 0); /* registering needs a current context */
  assert_int_equal(reg(data, n * sizeof *data, 1 /* PORTABLE */), 0);
  assert_int_equal(pop(&popped), 0);
  same_whole(OCL_REDUCE_SUM, OCL_REDUCE_F64, data, data, n, MODE_EXACT);
  same_whole(OCL_REDUCE_MAX, OCL_REDUCE_F64, data + 1, data + 1, n - 1, MODE_EXACT);
  assert_int_equal(push(info.native_context), 0);
  assert_int_equal(unreg(data), 0);
  assert_int_equal(pop(&popped), 0);
  free(data);
  dlclose(driver);
}

static void test_errors(void **state) {
  (void)state;
  void *host = (void *)1;
  expect_error(ocl_reduce_host_alloc(staged, 0, &host), OCL_REDUCE_ERROR_INVALID_ARGUMENT, staged,
               "bytes is 0");
  assert_null(host);
  expect_error(ocl_reduce_host_alloc(staged, 8, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT, staged,
               "host is NULL");
  expect_error(ocl_reduce_host_alloc(NULL, 8, &host), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "ctx is NULL");
  int local = 0;
  expect_error(ocl_reduce_host_free(staged, &local), OCL_REDUCE_ERROR_INVALID_ARGUMENT, staged,
               "not memory of ocl_reduce_host_alloc");
  /* Another context's memory is not this one's. */
  check(ocl_reduce_host_alloc(blocking, 64, &host), blocking, "alloc");
  expect_error(ocl_reduce_host_free(staged, host), OCL_REDUCE_ERROR_INVALID_ARGUMENT, staged,
               "on this context");
  check(ocl_reduce_host_free(blocking, host), blocking, "free");
  assert_int_equal(ocl_reduce_host_free(staged, NULL), OCL_REDUCE_OK);
}

/* A context destroyed before its pinned memory: the memory stays valid until freed. */
static void test_context_outlived(void **state) {
  (void)state;
  ocl_reduce_context *ctx = test_context_with_policy("staging=pinned,stage_kib=4");
  assert_non_null(ctx);
  int32_t *host = NULL;
  check(ocl_reduce_host_alloc(ctx, 4096 * sizeof *host, (void **)&host), ctx, "alloc");
  ocl_reduce_context_destroy(ctx);
  for (int i = 0; i < 4096; i++)
    host[i] = i;
  check(ocl_reduce_host_free(ctx, host), NULL, "free");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole_arrays),  cmocka_unit_test(test_crossover),
      cmocka_unit_test(test_results_back),  cmocka_unit_test(test_buffer_copies),
      cmocka_unit_test(test_pinned_memory), cmocka_unit_test(test_registered_memory),
      cmocka_unit_test(test_errors),        cmocka_unit_test(test_context_outlived),
  };
  return TEST_RUN(tests, setup, teardown);
}
