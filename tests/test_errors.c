/* =================================================================================================
 * test_errors.c: the error cases of every public function. Each must return its named status,
 * leave its outputs untouched (or NULL, for handles), say in ocl_reduce_last_error() which
 * argument or capability is at fault, and leak nothing (CI runs this under AddressSanitizer).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"

#define UNTOUCHED 0x5a5a5a5a5a5a5a5aull

/* ---- Context creation ----------------------------------------------------------------------- */

static void test_context_create_rejects_bad_arguments(void **state) {
  (void)state;
  expect_error(ocl_reduce_context_create(NULL, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "out is NULL");
  ocl_reduce_context *c = (ocl_reduce_context *)(uintptr_t)1;
  ocl_reduce_options opts;
  memset(&opts, 0, sizeof opts); /* not initialized: struct_size 0 */
  expect_error(ocl_reduce_context_create(&opts, &c), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "OCL_REDUCE_OPTIONS_INIT");
  assert_null(c);
  memset(&opts, 0xa5, sizeof opts); /* garbage, as an uninitialized struct holds */
  expect_error(ocl_reduce_context_create(&opts, &c), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "opts->struct_size");
  assert_null(c);
  opts = (ocl_reduce_options)OCL_REDUCE_OPTIONS_INIT;
  opts.path = (ocl_reduce_path)42;
  expect_error(ocl_reduce_context_create(&opts, &c), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "opts->path");
  opts = (ocl_reduce_options)OCL_REDUCE_OPTIONS_INIT;
  opts.subgroup_impl = (ocl_reduce_subgroup_impl)-1;
  expect_error(ocl_reduce_context_create(&opts, &c), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "opts->subgroup_impl");
  opts = (ocl_reduce_options)OCL_REDUCE_OPTIONS_INIT;
  opts.backend = (ocl_reduce_backend)9;
  expect_error(ocl_reduce_context_create(&opts, &c), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "opts->backend");
  expect_error(ocl_reduce_context_create_opencl(NULL, NULL, &c),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "cl_command_queue is NULL");
  assert_null(c);
}

/* Runs context creation with one environment variable set, then restores it. */
static ocl_reduce_status create_with_env(const char *name, const char *value,
                                         const ocl_reduce_options *opts) {
  const char *old = getenv(name);
  char *saved = old ? strdup(old) : NULL;
  setenv(name, value, 1);
  ocl_reduce_context *c = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(opts, &c);
  if (saved) {
    setenv(name, saved, 1);
    free(saved);
  } else {
    unsetenv(name);
  }
  if (s == OCL_REDUCE_OK)
    assert_non_null(c);
  else
    assert_null(c);
  ocl_reduce_context_destroy(c);
  return s;
}

static void test_bad_environment_values_are_named(void **state) {
  (void)state;
  expect_error(create_with_env("OCL_REDUCE_PATH", "fastest", NULL),
               OCL_REDUCE_ERROR_INVALID_OPTION, NULL, "OCL_REDUCE_PATH='fastest'");
  expect_error(create_with_env("OCL_REDUCE_SUBGROUP", "amd", NULL),
               OCL_REDUCE_ERROR_INVALID_OPTION, NULL, "OCL_REDUCE_SUBGROUP='amd'");
  expect_error(create_with_env("OCL_REDUCE_LOG", "verbose", NULL),
               OCL_REDUCE_ERROR_INVALID_OPTION, NULL, "OCL_REDUCE_LOG='verbose' is not one of: "
               "off, debug");
  expect_error(create_with_env("OCL_REDUCE_BACKEND", "metal", NULL),
               OCL_REDUCE_ERROR_INVALID_OPTION, NULL, "OCL_REDUCE_BACKEND='metal'");
  expect_error(create_with_env("OCL_REDUCE_DISABLE", "fp64,images", NULL),
               OCL_REDUCE_ERROR_INVALID_OPTION, NULL, "'images'");
  expect_error(create_with_env("OCL_REDUCE_POLICY", "wg=100", NULL),
               OCL_REDUCE_ERROR_INVALID_OPTION, NULL, "wg=100");
  expect_error(create_with_env("OCL_REDUCE_DEVICE", "no such device anywhere", NULL),
               OCL_REDUCE_ERROR_NO_DEVICE, NULL, "matches none of these devices");
  expect_error(create_with_env("OCL_REDUCE_DEVICE", "99:99", NULL), OCL_REDUCE_ERROR_NO_DEVICE,
               NULL, "'99:99'");
}

static void test_forcing_a_path_the_device_lacks_is_an_error(void **state) {
  (void)state;
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.path = OCL_REDUCE_PATH_SUBGROUP;
  expect_error(create_with_env("OCL_REDUCE_DISABLE", "subgroups", &opts),
               OCL_REDUCE_ERROR_PATH_UNSUPPORTED, NULL, "subgroup path");
  opts = (ocl_reduce_options)OCL_REDUCE_OPTIONS_INIT;
  opts.path = OCL_REDUCE_PATH_AUTO; /* a named implementation implies the subgroup path */
  opts.subgroup_impl = OCL_REDUCE_SUBGROUP_INTEL;
  expect_error(create_with_env("OCL_REDUCE_DISABLE", "subgroups", &opts),
               OCL_REDUCE_ERROR_PATH_UNSUPPORTED, NULL, "cl_intel_subgroups");
  opts = (ocl_reduce_options)OCL_REDUCE_OPTIONS_INIT;
  opts.subgroup_impl = OCL_REDUCE_SUBGROUP_NV_PTX;
  opts.path = OCL_REDUCE_PATH_AUTO;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_OK);
  if (info.nv_warp_size != 32)
    expect_error(create_with_env("OCL_REDUCE_DEVICE", info.platform_name, &opts),
                 OCL_REDUCE_ERROR_PATH_UNSUPPORTED, NULL, "NVIDIA's OpenCL");
  /* Disabled subgroups are every kind of subgroup, NVIDIA's inline PTX included. */
  opts = (ocl_reduce_options)OCL_REDUCE_OPTIONS_INIT;
  opts.subgroup_impl = OCL_REDUCE_SUBGROUP_NV_PTX;
  opts.path = OCL_REDUCE_PATH_AUTO;
  expect_error(create_with_env("OCL_REDUCE_DISABLE", "subgroups", &opts),
               OCL_REDUCE_ERROR_PATH_UNSUPPORTED, NULL, "NVIDIA's OpenCL");
  /* The local path never needs anything. */
  opts = (ocl_reduce_options)OCL_REDUCE_OPTIONS_INIT;
  opts.path = OCL_REDUCE_PATH_LOCAL;
  assert_int_equal(create_with_env("OCL_REDUCE_DISABLE", "subgroups,fp64", &opts),
                   OCL_REDUCE_OK);
}

static void test_context_query_rejects_null(void **state) {
  (void)state;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  expect_error(ocl_reduce_context_query(NULL, &info), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "ctx is NULL");
  expect_error(ocl_reduce_context_query(test_ctx, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "info is NULL");
  ocl_reduce_context_destroy(NULL); /* accepted */
}

/* The output structs grow by appending fields: a struct_size below this version's, or one no
 * struct has (an uninitialized field), is rejected with *info untouched; a larger one (a newer
 * header) gets this library's fields and nothing written past them; struct_size stays as the
 * caller set it. */
static void test_query_and_devices_follow_struct_size(void **state) {
  (void)state;
  ocl_reduce_context_info info;
  memset(&info, 0x5a, sizeof info);
  info.struct_size = sizeof info - 1;
  expect_error(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "info->struct_size is");
  assert_int_equal(info.backend, 0x5a5a5a5a);
  /* What the 0.1 header's users wrote: the struct not initialized at all. */
  memset(&info, 0x5a, sizeof info);
  expect_error(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "OCL_REDUCE_CONTEXT_INFO_INIT");
  assert_int_equal(info.backend, 0x5a5a5a5a);
  struct {
    ocl_reduce_context_info info;
    unsigned char later[24];
  } grown;
  memset(&grown, 0x5a, sizeof grown);
  grown.info.struct_size = sizeof grown;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &grown.info), OCL_REDUCE_OK);
  assert_int_equal(grown.info.struct_size, sizeof grown);
  assert_non_null(grown.info.device_name);
  for (size_t i = 0; i < sizeof grown.later; i++)
    assert_int_equal(grown.later[i], 0x5a);

  ocl_reduce_device_desc one;
  memset(&one, 0x5a, sizeof one);
  one.struct_size = 0;
  size_t count = UNTOUCHED;
  expect_error(ocl_reduce_devices(&one, 1, &count), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "out[0].struct_size is 0");
  assert_true(count == UNTOUCHED);
  /* Two elements of a larger struct: the library steps by the caller's size. */
  struct {
    ocl_reduce_device_desc desc;
    unsigned char later[40];
  } devices[2];
  memset(devices, 0x5a, sizeof devices);
  devices[0].desc.struct_size = sizeof devices[0];
  assert_int_equal(ocl_reduce_devices(&devices[0].desc, 2, &count), OCL_REDUCE_OK);
  assert_true(count >= 1);
  for (size_t d = 0; d < (count < 2 ? count : 2); d++) {
    assert_int_equal(devices[d].desc.struct_size, sizeof devices[0]);
    assert_true(devices[d].desc.device_name[0] != '\0');
    for (size_t i = 0; i < sizeof devices[d].later; i++)
      assert_int_equal(devices[d].later[i], 0x5a);
  }
  if (count < 2) /* the second element was not written */
    assert_int_equal(devices[1].desc.struct_size, 0x5a5a5a5a5a5a5a5aull);
}

/* ---- Reductions -------------------------------------------------------------------------- */

static void test_reduce_rejects_bad_arguments_and_leaves_result(void **state) {
  (void)state;
  int32_t data[4] = {1, 2, 3, 4};
  uint64_t result = UNTOUCHED;
  expect_error(ocl_reduce(NULL, OCL_REDUCE_SUM, OCL_REDUCE_I32, data, 4, &result, sizeof result),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
  expect_error(ocl_reduce(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, data, 4, NULL, 0),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "result is NULL");
  expect_error(
      ocl_reduce(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, NULL, 4, &result, sizeof result),
      OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "input is NULL");
  expect_error(ocl_reduce(test_ctx, OCL_REDUCE_PAIR_OP(OCL_REDUCE_BUILTIN_PAIR_OPS), OCL_REDUCE_I32,
                          data, 4, &result, sizeof result),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx,
               "is neither a built-in operator nor a live user operator");
  expect_error(ocl_reduce(test_ctx, NULL, OCL_REDUCE_I32, data, 4, &result, sizeof result),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "op is NULL");
  /* A value that is no operator's address (misaligned) is refused without being read. */
  expect_error(
      ocl_reduce(test_ctx, (ocl_reduce_op)-1, OCL_REDUCE_I32, data, 4, &result, sizeof result),
      OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "is neither a built-in operator");
  const ocl_reduce_type unknown_type = (ocl_reduce_type)99;
  expect_error(ocl_reduce(test_ctx, OCL_REDUCE_SUM, unknown_type, data, 4, &result, sizeof result),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "type has unknown value 99");
  expect_error(
      ocl_reduce(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_OP_ELEMENT, data, 4, &result, sizeof result),
      OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "which only a user operator takes");
  for (int op = T_AND; op <= T_XOR; op++) {
    expect_error(ocl_reduce(test_ctx, OCL_REDUCE_BUILTIN_OP(op), OCL_REDUCE_F32, data, 4, &result,
                            sizeof result),
                 OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "integer types only");
    expect_error(ocl_reduce(test_ctx, OCL_REDUCE_BUILTIN_OP(op), OCL_REDUCE_F64, data, 0, &result,
                            sizeof result),
                 OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "not on f64");
  }
  /* A count whose byte size size_t cannot hold, refused before anything is allocated. */
  expect_error(ocl_reduce(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, data, SIZE_MAX / 4 + 2, &result,
                          sizeof result),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "are more bytes than size_t counts");
  assert_true(result == UNTOUCHED);
  /* NULL input is fine when there is nothing to read. */
  assert_int_equal(
      ocl_reduce(test_ctx, OCL_REDUCE_PROD, OCL_REDUCE_I32, NULL, 0, &result, sizeof result),
      OCL_REDUCE_OK);
  assert_int_equal((int32_t)result, 1);
}

static void test_f64_without_fp64_says_so(void **state) {
  (void)state;
  setenv("OCL_REDUCE_DISABLE", "fp64", 1);
  ocl_reduce_context *c = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &c);
  unsetenv("OCL_REDUCE_DISABLE");
  assert_int_equal(s, OCL_REDUCE_OK);
  double data[3] = {1, 2, 3};
  uint64_t result = UNTOUCHED;
  expect_error(ocl_reduce(c, OCL_REDUCE_SUM, OCL_REDUCE_F64, data, 3, &result, sizeof result),
               OCL_REDUCE_ERROR_NO_FP64, c, "no double precision");
  expect_error(ocl_reduce(c, OCL_REDUCE_MAX, OCL_REDUCE_F64, data, 0, &result, sizeof result),
               OCL_REDUCE_ERROR_NO_FP64, c, "cl_khr_fp64");
  assert_true(result == UNTOUCHED);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(c, &info), OCL_REDUCE_OK);
  assert_int_equal(info.has_fp64, 0);
  ocl_reduce_context_destroy(c);
}

/* ---- Buffers ------------------------------------------------------------------------------------
 */

static void test_buffer_functions_reject_bad_arguments(void **state) {
  (void)state;
  ocl_reduce_buffer *buf = (ocl_reduce_buffer *)(uintptr_t)1;
  expect_error(ocl_reduce_buffer_create(NULL, 16, &buf), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "ctx is NULL");
  expect_error(ocl_reduce_buffer_create(test_ctx, 16, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "out is NULL");
  expect_error(ocl_reduce_buffer_create(test_ctx, 0, &buf), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "bytes is 0");
  assert_null(buf);
  expect_error(ocl_reduce_buffer_create(test_ctx, SIZE_MAX, &buf),
               OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY, test_ctx, "largest allocation");
  assert_null(buf);
  expect_error(ocl_reduce_buffer_wrap_opencl(test_ctx, NULL, &buf),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "cl_mem is NULL");
  expect_error(ocl_reduce_buffer_wrap_opencl(NULL, NULL, &buf),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
  ocl_reduce_buffer_destroy(NULL); /* accepted */

  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 64, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_size(NULL), 0);
  void *native = NULL;
  expect_error(ocl_reduce_buffer_native(NULL, &native, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               NULL, "buf is NULL");
  assert_int_equal(ocl_reduce_buffer_size(buf), 64);
  char host[128] = {0};
  expect_error(ocl_reduce_buffer_write(NULL, 0, host, 8), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "buf is NULL");
  expect_error(ocl_reduce_buffer_write(buf, 0, NULL, 8), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "host pointer is NULL");
  expect_error(ocl_reduce_buffer_write(buf, 60, host, 8), OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx,
               "beyond the buffer's 64 bytes");
  expect_error(ocl_reduce_buffer_read(buf, 65, host, 0), OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx,
               "beyond");
  expect_error(ocl_reduce_buffer_read(buf, 8, host, SIZE_MAX), OCL_REDUCE_ERROR_OUT_OF_RANGE,
               test_ctx, "beyond");
  expect_error(ocl_reduce_buffer_read(buf, 0, NULL, 4), OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx,
               "host pointer is NULL");
  assert_int_equal(ocl_reduce_buffer_read(buf, 64, NULL, 0), OCL_REDUCE_OK);

  /* A buffer of another context. */
  ocl_reduce_context *other = test_context_create();
  assert_non_null(other);
  uint64_t result = UNTOUCHED;
  expect_error(ocl_reduce_into(other, OCL_REDUCE_SUM, OCL_REDUCE_I32,
                               ocl_reduce_buffer_input(buf, 0), 4,
                               ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, other, "another context");
  ocl_reduce_context_destroy(other);

  /* Element ranges: 64 bytes hold 16 i32 or 8 f64. */
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32,
                               ocl_reduce_buffer_input(buf, 1), 16,
                               ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "[1, 1 + 16) of 4 bytes");
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F64,
                               ocl_reduce_buffer_input(buf, 9), 0,
                               ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "8 elements");
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                               ocl_reduce_buffer_input(buf, 8), SIZE_MAX,
                               ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "beyond");
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                               ocl_reduce_buffer_input(NULL, 0), 1,
                               ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "input is NULL");
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_XOR, OCL_REDUCE_F32,
                               ocl_reduce_buffer_input(buf, 0), 1,
                               ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "xor");
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_U32,
                               ocl_reduce_buffer_input(buf, 0), 1,
                               ocl_reduce_host_output(NULL, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "result is NULL");
  assert_true(result == UNTOUCHED);
  /* An empty range at the very end is fine and gives the identity. */
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_MIN, OCL_REDUCE_U32,
                                   ocl_reduce_buffer_input(buf, 16), 0,
                                   ocl_reduce_host_output(&result, sizeof result)),
                   OCL_REDUCE_OK);
  assert_int_equal((uint32_t)result, UINT32_MAX);
  ocl_reduce_buffer_destroy(buf);
}

/* ---- Status and names -------------------------------------------------------------------- */

static void test_every_status_has_a_distinct_name_and_message(void **state) {
  (void)state;
  static const ocl_reduce_status all[] = {
#define STATUS_VALUE(name, code, text) OCL_REDUCE_##name,
      OCL_REDUCE_STATUS_MAP(STATUS_VALUE)
#undef STATUS_VALUE
  };
  const size_t count = sizeof all / sizeof all[0];
  assert_int_equal(OCL_REDUCE_OK, 0);
  for (size_t i = 0; i < count; i++) {
    const char *name = ocl_reduce_status_name(all[i]);
    assert_true(strncmp(name, "OCL_REDUCE_", 11) == 0);
    assert_string_not_equal(name, "OCL_REDUCE_UNKNOWN_STATUS");
    assert_string_not_equal(ocl_reduce_status_string(all[i]), "unknown status");
    for (size_t j = 0; j < i; j++) {
      assert_string_not_equal(name, ocl_reduce_status_name(all[j]));
      assert_int_not_equal(all[i], all[j]);
    }
  }
  assert_string_equal(ocl_reduce_status_name((ocl_reduce_status)12345),
                      "OCL_REDUCE_UNKNOWN_STATUS");
  assert_string_equal(ocl_reduce_status_string((ocl_reduce_status)-3), "unknown status");
  assert_string_equal(ocl_reduce_status_name(OCL_REDUCE_ERROR_NO_FP64),
                      "OCL_REDUCE_ERROR_NO_FP64");
  assert_int_equal(ocl_reduce_type_size((ocl_reduce_type)99), 0);
  assert_int_equal(ocl_reduce_type_size(OCL_REDUCE_F64), 8);
  assert_string_equal(ocl_reduce_type_name((ocl_reduce_type)-1), "unknown");
  assert_string_equal(ocl_reduce_op_name(OCL_REDUCE_PAIR_OP(OCL_REDUCE_BUILTIN_PAIR_OPS)),
                      "unknown");
  assert_string_equal(ocl_reduce_op_name(OCL_REDUCE_XOR), "xor");
}

static void test_devices_and_profiling_reject_bad_arguments(void **state) {
  (void)state;
  ocl_reduce_device_desc desc = {.struct_size = sizeof desc};
  size_t count = 0;
  expect_error(ocl_reduce_devices(&desc, 1, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "count is NULL");
  expect_error(ocl_reduce_devices(NULL, 1, &count), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "out is NULL");
  assert_int_equal(ocl_reduce_devices(NULL, 0, &count), OCL_REDUCE_OK);
  assert_true(count >= 1);
  uint64_t ns = UNTOUCHED;
  expect_error(ocl_reduce_last_kernel_ns(test_ctx, &ns), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "without options.profiling");
  expect_error(ocl_reduce_last_kernel_ns(NULL, &ns), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "ctx is NULL");
  assert_true(ns == UNTOUCHED);
}

/* The planner's plans in words: the kernel file and the policy in OCL_REDUCE_POLICY syntax. */
static void test_describe_plan_names_the_plan_and_rejects_bad_arguments(void **state) {
  (void)state;
  char text[512];
  assert_int_equal(ocl_reduce_describe_plan(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, 1 << 20, 0,
                                            text, sizeof text),
                   OCL_REDUCE_OK);
  printf("# %s\n", text);
  assert_non_null(strstr(text, "kernels/reduce_all.cl: wg="));
  assert_int_equal(ocl_reduce_describe_plan(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, 1 << 20, 32,
                                            text, sizeof text),
                   OCL_REDUCE_OK);
  assert_non_null(strstr(text, "kernels/segments_"));
  assert_non_null(strstr(text, ",seg="));
  /* Cut at the capacity, still terminated. */
  assert_int_equal(
      ocl_reduce_describe_plan(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, 1, 0, text, 8),
      OCL_REDUCE_OK);
  assert_int_equal(strlen(text), 7);
  memset(text, 'x', sizeof text);
  expect_error(ocl_reduce_describe_plan(NULL, OCL_REDUCE_SUM, OCL_REDUCE_F32, 1, 0, text, 8),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
  expect_error(ocl_reduce_describe_plan(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, 1, 0, NULL, 8),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "text is NULL");
  expect_error(ocl_reduce_describe_plan(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, 1, 0, text, 0),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "capacity is 0");
  expect_error(ocl_reduce_describe_plan(test_ctx, OCL_REDUCE_XOR, OCL_REDUCE_F32, 1, 0, text,
                                        sizeof text),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "integer types only");
  expect_error(ocl_reduce_describe_plan(test_ctx, (ocl_reduce_op)-1, OCL_REDUCE_F32, 1, 0, text,
                                        sizeof text),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "is neither a built-in operator");
  assert_int_equal(text[0], 'x'); /* untouched on error */
}

/* The CUDA backend: where it cannot run, asking for it is a named status that says why. */
static void test_cuda_backend_says_why_it_cannot_run(void **state) {
  (void)state;
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.backend = OCL_REDUCE_BACKEND_CUDA;
  opts.device = "cuda:0";
  opts.path = OCL_REDUCE_PATH_AUTO; /* not the environment's, which may name an OpenCL one */
  opts.subgroup_impl = OCL_REDUCE_SUBGROUP_AUTO;
  ocl_reduce_context *c = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &c);
  if (s == OCL_REDUCE_OK) {
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    assert_int_equal(ocl_reduce_context_query(c, &info), OCL_REDUCE_OK);
    assert_int_equal(info.backend, OCL_REDUCE_BACKEND_CUDA);
    printf("# the CUDA backend runs here, on %s\n", info.device_name);
    ocl_reduce_context_destroy(c);
    return;
  }
  assert_int_equal(s, OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE);
  assert_null(c);
  const char *why = ocl_reduce_last_error(NULL);
  printf("# the CUDA backend cannot run here: %s\n", why);
  assert_true(strstr(why, "libcuda.so.1") || strstr(why, "no CUDA device") ||
              strstr(why, "without the CUDA backend") || strstr(why, "cuInit") ||
              strstr(why, "libnvrtc"));
}

static void test_wrapping_needs_the_matching_backend(void **state) {
  (void)state;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_OK);
  ocl_reduce_buffer *buf = (ocl_reduce_buffer *)(uintptr_t)1;
  if (info.backend == OCL_REDUCE_BACKEND_OPENCL) {
    expect_error(ocl_reduce_buffer_wrap_cuda(test_ctx, 0x1000, 64, &buf),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "not cuda");
  } else {
    int dummy = 0;
    expect_error(ocl_reduce_buffer_wrap_opencl(test_ctx, &dummy, &buf),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "not opencl");
    expect_error(ocl_reduce_buffer_wrap_cuda(test_ctx, 0, 64, &buf),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "device_pointer is 0");
    expect_error(ocl_reduce_buffer_wrap_cuda(test_ctx, 0x1000, 0, &buf),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "bytes is 0");
  }
  assert_null(buf);
  expect_error(ocl_reduce_buffer_wrap_cuda(NULL, 0x1000, 64, &buf),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cuda_backend_says_why_it_cannot_run),
      cmocka_unit_test(test_wrapping_needs_the_matching_backend),
      cmocka_unit_test(test_context_create_rejects_bad_arguments),
      cmocka_unit_test(test_bad_environment_values_are_named),
      cmocka_unit_test(test_forcing_a_path_the_device_lacks_is_an_error),
      cmocka_unit_test(test_context_query_rejects_null),
      cmocka_unit_test(test_query_and_devices_follow_struct_size),
      cmocka_unit_test(test_reduce_rejects_bad_arguments_and_leaves_result),
      cmocka_unit_test(test_f64_without_fp64_says_so),
      cmocka_unit_test(test_buffer_functions_reject_bad_arguments),
      cmocka_unit_test(test_every_status_has_a_distinct_name_and_message),
      cmocka_unit_test(test_devices_and_profiling_reject_bad_arguments),
      cmocka_unit_test(test_describe_plan_names_the_plan_and_rejects_bad_arguments),
  };
  return TEST_RUN(tests, test_setup, test_teardown);
}
