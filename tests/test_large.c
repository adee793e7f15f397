/* =================================================================================================
 * test_large.c: inputs past the 32-bit limits. Over 2^31 bytes from host memory (uploaded in
 * pieces, so it works even where one allocation cannot hold it) and as one device buffer where the
 * device allows such an allocation; with OCL_REDUCE_TEST_HUGE=1, over 2^32 elements. Each test is
 * skipped, visibly, where host or device memory is too small. ARGMIN and ARGMAX check that indices
 * keep all their bits.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/fixture.h"

static int host_memory_allows(size_t bytes) {
  long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  /* The input, the library's staging and the implementation's own copies, with room to spare. */
  return pages > 0 && page > 0 && (double)pages * (double)page > 2.5 * (double)bytes;
}

/* Fills n u32 values; returns their wrapped sum, xor and max, and the first index of the least. */
typedef struct facts {
  uint32_t sum, xor_, max;
  uint64_t argmin;
} facts;

static facts fill(uint32_t *data, size_t n) {
  facts f = {0, 0, 0, 0};
  const uint64_t seed = test_rng_next();
  for (size_t i = 0; i < n; i++) {
    /* The largest value at the very end: the last element must be read. */
    uint32_t x = i == n - 1 ? 0xfffffff0u
                            : (uint32_t)(((seed + i) * 0x9e3779b97f4a7c15u) >> 33);
    data[i] = x;
    f.sum += x;
    f.xor_ ^= x;
    if (x > f.max)
      f.max = x;
    if (x < data[f.argmin])
      f.argmin = i;
  }
  return f;
}

/* ARGMAX (the largest value is the last element, so its index needs all 64 bits past 2^32
 * elements) and ARGMIN, against the facts. */
static void check_args(const ocl_reduce_arg *max, const ocl_reduce_arg *min, const facts *f,
                       size_t n) {
  assert_int_equal(max->value.u32, f->max);
  assert_int_equal(max->index, n - 1);
  assert_int_equal(min->index, f->argmin);
}

static void check_host_input(size_t n) {
  const size_t bytes = n * sizeof(uint32_t);
  if (!host_memory_allows(bytes))
    skip();
  uint32_t *data = malloc(bytes);
  if (!data)
    skip();
  const facts f = fill(data, n);
  uint32_t sum = 0, max = 0;
  assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32, data, n, &sum, sizeof sum),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_U32, data, n, &max, sizeof max),
                   OCL_REDUCE_OK);
  ocl_reduce_arg arg_max, arg_min;
  assert_int_equal(
      ocl_reduce(test_ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_U32, data, n, &arg_max, sizeof arg_max),
      OCL_REDUCE_OK);
  assert_int_equal(
      ocl_reduce(test_ctx, OCL_REDUCE_ARGMIN, OCL_REDUCE_U32, data, n, &arg_min, sizeof arg_min),
      OCL_REDUCE_OK);
  free(data);
  assert_int_equal(sum, f.sum);
  assert_int_equal(max, f.max);
  check_args(&arg_max, &arg_min, &f, n);
}

static void check_device_buffer(size_t n) {
  const size_t bytes = n * sizeof(uint32_t);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_OK);
  if (!host_memory_allows(bytes))
    skip();
  ocl_reduce_buffer *buf = NULL;
  ocl_reduce_status s = ocl_reduce_buffer_create(test_ctx, bytes + 64, &buf);
  if (s == OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY) {
    printf("# skipped: %s\n", ocl_reduce_last_error(test_ctx));
    skip();
  }
  assert_int_equal(s, OCL_REDUCE_OK);
  uint32_t *data = malloc(bytes);
  if (!data) {
    ocl_reduce_buffer_destroy(buf);
    skip();
  }
  const facts f = fill(data, n);
  /* One element in: the kernel sees an unaligned head and a > 2^31-byte offset arithmetic. */
  assert_int_equal(ocl_reduce_buffer_write(buf, 4, data, bytes), OCL_REDUCE_OK);
  free(data);
  uint32_t sum = 0, x = 0, max = 0;
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                                   ocl_reduce_buffer_input(buf, 1), n,
                                   ocl_reduce_host_output(&sum, sizeof sum)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_XOR, OCL_REDUCE_U32,
                                   ocl_reduce_buffer_input(buf, 1), n,
                                   ocl_reduce_host_output(&x, sizeof x)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_U32,
                                   ocl_reduce_buffer_input(buf, 1), n,
                                   ocl_reduce_host_output(&max, sizeof max)),
                   OCL_REDUCE_OK);
  ocl_reduce_arg arg_max, arg_min;
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_U32,
                                   ocl_reduce_buffer_input(buf, 1), n,
                                   ocl_reduce_host_output(&arg_max, sizeof arg_max)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_ARGMIN, OCL_REDUCE_U32,
                                   ocl_reduce_buffer_input(buf, 1), n,
                                   ocl_reduce_host_output(&arg_min, sizeof arg_min)),
                   OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(buf);
  check_args(&arg_max, &arg_min, &f, n);
  assert_int_equal(sum, f.sum);
  assert_int_equal(x, f.xor_);
  assert_int_equal(max, f.max);
}

/* 2^29 + 12345 u32: just over 2^31 bytes. */
#define OVER_2G (((size_t)1 << 29) + 12345)
/* 2^32 + 5 u32: element indices do not fit 32 bits. */
#define OVER_4G_ELEMENTS (((size_t)1 << 32) + 5)

static int huge_requested(void) {
  const char *v = getenv("OCL_REDUCE_TEST_HUGE");
  return v && strcmp(v, "1") == 0;
}

static void test_host_input_over_2_gib(void **state) {
  (void)state;
  check_host_input(OVER_2G);
}

static void test_device_buffer_over_2_gib(void **state) {
  (void)state;
  check_device_buffer(OVER_2G);
}

static void test_host_input_over_2_pow_32_elements(void **state) {
  (void)state;
  if (!huge_requested())
    skip();
  check_host_input(OVER_4G_ELEMENTS);
}

static void test_device_buffer_over_2_pow_32_elements(void **state) {
  (void)state;
  if (!huge_requested())
    skip();
  check_device_buffer(OVER_4G_ELEMENTS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_host_input_over_2_gib),
      cmocka_unit_test(test_device_buffer_over_2_gib),
      cmocka_unit_test(test_host_input_over_2_pow_32_elements),
      cmocka_unit_test(test_device_buffer_over_2_pow_32_elements),
  };
  return TEST_RUN(tests, test_setup, test_teardown);
}
