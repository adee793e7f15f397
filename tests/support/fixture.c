/* =================================================================================================
 * fixture.c: the context under test and running a suite (fixture.h).
 * ============================================================================================== */
#include "support/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ocl_reduce_context *test_ctx;

void test_policy_prepend(const char *fields) {
  const char *base = getenv("OCL_REDUCE_POLICY");
  char merged[512];
  snprintf(merged, sizeof merged, "%s%s%s", fields, base && *base ? "," : "", base ? base : "");
  setenv("OCL_REDUCE_POLICY", merged, 1);
}

ocl_reduce_context *test_context_with_policy(const char *policy) {
  static int printed = 0;
  /* No host plans (the suites test the device's kernels; test_host_path asks for them), then the
   * environment's policy (the test registration's), then the caller's fields. */
  const char *base = getenv("OCL_REDUCE_POLICY");
  char saved[256], merged[512];
  snprintf(saved, sizeof saved, "%s", base ? base : "");
  snprintf(merged, sizeof merged, "host=off%s%s%s%s", saved[0] ? "," : "", saved,
           policy[0] ? "," : "", policy);
  setenv("OCL_REDUCE_POLICY", merged, 1);
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  setenv("OCL_REDUCE_POLICY", saved, 1);
  if (s != OCL_REDUCE_OK) {
    fprintf(stderr, "context creation failed: %s: %s\n", ocl_reduce_status_name(s),
            ocl_reduce_last_error(NULL));
    return NULL;
  }
  if (!printed) {
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    if (ocl_reduce_context_query(ctx, &info) == OCL_REDUCE_OK)
      printf("# device %u:%u %s / %s; path %s, subgroup implementation %s, subgroup size %u, "
             "work-group size %u\n",
             info.platform_index, info.device_index, info.platform_name, info.device_name,
             info.path == OCL_REDUCE_PATH_SUBGROUP ? "subgroup" : "local",
             info.subgroup_impl_name, info.subgroup_size, info.work_group_size);
    printed = 1;
  }
  return ctx;
}

ocl_reduce_context *test_context_create(void) { return test_context_with_policy(""); }

ocl_reduce_context *test_context_cross_device(void) {
  setenv("OCL_REDUCE_DETERMINISM", "cross_device", 1);
  ocl_reduce_context *ctx = test_context_create();
  unsetenv("OCL_REDUCE_DETERMINISM");
  return ctx;
}

int test_setup(void **state) {
  (void)state;
  test_rng_init();
  test_ctx = test_context_create();
  return test_ctx ? 0 : -1;
}

int test_teardown(void **state) {
  (void)state;
  ocl_reduce_context_destroy(test_ctx);
  test_ctx = NULL;
  return 0;
}

test_shape test_context_shape(ocl_reduce_context *ctx) {
  test_shape shape = {0, 64};
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  if (ocl_reduce_context_query(ctx, &info) == OCL_REDUCE_OK) {
    shape.subgroup = info.subgroup_size;
    shape.work_group = info.work_group_size;
  }
  return shape;
}

int test_light(void) {
  const char *light = getenv("OCL_REDUCE_TEST_LIGHT");
  return light && strcmp(light, "1") == 0;
}

int test_has_fp64(void) {
  const double x = 1;
  unsigned char got[64];
  const ocl_reduce_status s =
      ocl_reduce(test_ctx, OCL_REDUCE_MEAN_VAR, OCL_REDUCE_F64, &x, 1, got, sizeof got);
  if (s == OCL_REDUCE_ERROR_NO_FP64)
    print_message("no double precision: MEAN_VAR on f64 is left out\n");
  return s != OCL_REDUCE_ERROR_NO_FP64;
}

void expect_error(ocl_reduce_status got, ocl_reduce_status expected, const ocl_reduce_context *c,
                  const char *needle) {
  const char *message = ocl_reduce_last_error(c);
  if (got != expected || !strstr(message, needle))
    fail_msg("expected %s mentioning '%s', got %s: '%s'", ocl_reduce_status_name(expected),
             needle, ocl_reduce_status_name(got), message);
}

int test_run_group(const char *name, const struct CMUnitTest *tests, size_t count,
                   CMFixtureFunction setup, CMFixtureFunction teardown) {
  if (getenv("OCL_REDUCE_TEST_FILTER"))
    cmocka_set_test_filter(getenv("OCL_REDUCE_TEST_FILTER"));
  return _cmocka_run_group_tests(name, tests, count, setup, teardown);
}
