/* =================================================================================================
 * test_enqueue.c: reductions into buffers that return without waiting (ocl_reduce.h,
 * "Enqueueing without waiting"). Many calls of every kind (pairs among them) into one results
 * buffer, all in flight on one context before a single wait, with the input rewritten between
 * them, against host folds; work held back by an application's event until it completes (OpenCL:
 * a user event); the marker's event; a context on an application's CUDA stream; and the argument
 * errors.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/fixture.h"

enum { N = 1 << 15, CALLS = 48 };

/* One enqueued call: what it reduces and where its results go in the results buffer. */
typedef struct call {
  int kind; /* 0 segments, 1 multi (sum, min, max), 2 windows, 3 into (the whole input), 4 the dot
               product of the input's halves, 5 that in segments */
  ocl_reduce_op op;
  size_t length;  /* segment length or window */
  size_t count;   /* results */
  size_t first;   /* results[first ...] */
  int input;      /* which of the two inputs was in the buffer when it was enqueued */
} call;

static int32_t fold(ocl_reduce_op op, const int32_t *x, size_t n) {
  int32_t v = op == OCL_REDUCE_SUM ? 0 : op == OCL_REDUCE_MIN ? INT32_MAX : INT32_MIN;
  for (size_t i = 0; i < n; i++)
    v = op == OCL_REDUCE_SUM ? (int32_t)((uint32_t)v + (uint32_t)x[i])
        : op == OCL_REDUCE_MIN ? (x[i] < v ? x[i] : v)
                               : (x[i] > v ? x[i] : v);
  return v;
}

/* The dot product of n pairs (x[i], y[i]), wrapping as the library's i32 sums do. */
static int32_t dot(const int32_t *x, const int32_t *y, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++)
    v += (uint32_t)x[i] * (uint32_t)y[i];
  return (int32_t)v;
}

/* Enqueues call c on the input buffer into the results buffer. */
static void enqueue(const call *c, ocl_reduce_buffer *in, ocl_reduce_buffer *results) {
  const ocl_reduce_input input = ocl_reduce_buffer_input(in, 0);
  const ocl_reduce_output output = ocl_reduce_buffer_output(results, c->first);
  static const ocl_reduce_op three[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  ocl_reduce_status s;
  if (c->kind == 0)
    s = ocl_reduce_segments(test_ctx, c->op, OCL_REDUCE_I32, input, c->count, c->length, output);
  else if (c->kind == 1)
    s = ocl_reduce_multi(test_ctx, three, 3, OCL_REDUCE_I32, input, N, output);
  else if (c->kind == 2)
    s = ocl_reduce_windows(test_ctx, c->op, OCL_REDUCE_I32, input, N, c->length, output);
  else if (c->kind == 3)
    s = ocl_reduce_into(test_ctx, c->op, OCL_REDUCE_I32, input, c->length, output);
  else if (c->kind == 4)
    s = ocl_reduce_pairs(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_I32, input,
                         ocl_reduce_buffer_input(in, N / 2), N / 2, output);
  else
    s = ocl_reduce_pairs_segments(test_ctx, OCL_REDUCE_DOT, OCL_REDUCE_I32, input,
                                  ocl_reduce_buffer_input(in, N / 2), c->count, c->length, output);
  if (s != OCL_REDUCE_OK)
    fail_msg("%s: %s", ocl_reduce_status_name(s), ocl_reduce_last_error(test_ctx));
}

/* The host folds of call c on `x` into expected[c->first ...]. */
static void expect(const call *c, const int32_t *x, int32_t *expected) {
  static const ocl_reduce_op three[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  for (size_t j = 0; j < c->count; j++)
    expected[c->first + j] =
        c->kind == 0   ? fold(c->op, x + j * c->length, c->length)
        : c->kind == 1 ? fold(three[j], x, N)
        : c->kind >= 4 ? dot(x + j * c->length, x + N / 2 + j * c->length, c->length)
                       : fold(c->op, x + (c->kind == 2 ? j : 0), c->length);
}

static void test_many_calls_in_flight_before_one_wait(void **state) {
  (void)state;
  static int32_t inputs[2][N];
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < N; i++)
      inputs[k][i] = (int32_t)test_rng_below(2001) - 1000;
  static const size_t lengths[] = {1, 3, 32, 33, 100, 1000, 4096, N};
  static const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  call calls[CALLS];
  size_t total = 0;
  for (int i = 0; i < CALLS; i++) {
    call *c = &calls[i];
    c->kind = i % 6;
    c->op = ops[(i / 6) % 3];
    c->length = c->kind == 2 ? lengths[i % 5] + 1 : lengths[(i / 2) % 8];
    if (c->kind == 3 && i % 12 == 3)
      c->length = 0; /* the identity, written into the buffer in order with the rest */
    if (c->kind >= 4 && (c->kind == 4 || c->length > N / 2))
      c->length = N / 2; /* pairs: the halves of the input */
    c->count = c->kind == 0                    ? N / c->length
               : c->kind == 1                  ? 3
               : c->kind == 2                  ? N - c->length + 1
               : c->kind == 5 ? N / 2 / c->length : 1;
    c->first = total;
    c->input = i >= CALLS / 2;
    total += c->count;
  }
  ocl_reduce_buffer *in = NULL, *results = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, N * sizeof(int32_t), &in), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, total * sizeof(int32_t), &results),
                   OCL_REDUCE_OK);
  /* Half the calls on one input, then the input rewritten (a write, ordered after them), then
   * the other half: nothing waits for the device in between. */
  for (int i = 0; i < CALLS; i++) {
    if (i == 0 || i == CALLS / 2)
      assert_int_equal(ocl_reduce_buffer_write(in, 0, inputs[calls[i].input], sizeof inputs[0]),
                       OCL_REDUCE_OK);
    enqueue(&calls[i], in, results);
  }
  assert_int_equal(ocl_reduce_finish(test_ctx), OCL_REDUCE_OK);
  int32_t *got = malloc(total * sizeof *got), *expected = malloc(total * sizeof *expected);
  assert_non_null(got);
  assert_non_null(expected);
  assert_int_equal(ocl_reduce_buffer_read(results, 0, got, total * sizeof *got), OCL_REDUCE_OK);
  for (int i = 0; i < CALLS; i++)
    expect(&calls[i], inputs[calls[i].input], expected);
  for (int i = 0; i < CALLS; i++)
    for (size_t j = 0; j < calls[i].count; j++)
      if (got[calls[i].first + j] != expected[calls[i].first + j])
        fail_msg("call %d (kind %d, %s, length %zu), result %zu: %d, expected %d", i,
                 calls[i].kind, ocl_reduce_op_name(calls[i].op), calls[i].length, j,
                 got[calls[i].first + j], expected[calls[i].first + j]);
  free(got);
  free(expected);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(results);
}

/* OpenCL: a call enqueued behind the application's user event does not run until the event
 * completes; the marker's event completes after it. */
static void held_back_by_a_user_event(const ocl_reduce_context_info *info) {
  enum { SEGMENTS = 64, LENGTH = 100 };
  static int32_t x[SEGMENTS * LENGTH];
  for (size_t i = 0; i < SEGMENTS * LENGTH; i++)
    x[i] = (int32_t)test_rng_below(201) - 100;
  ocl_reduce_buffer *in = NULL, *out = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, sizeof x, &in), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(in, 0, x, sizeof x), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, SEGMENTS * sizeof(int32_t), &out),
                   OCL_REDUCE_OK);
  /* Column sums of the same data as a SEGMENTS x LENGTH matrix, read in place: once before the
   * gate, which copies the view's axes to the device (a blocking write), then behind it, where
   * the axes are already there and nothing may wait. */
  ocl_reduce_buffer *columns = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, LENGTH * sizeof(int32_t), &columns),
                   OCL_REDUCE_OK);
  ocl_reduce_shape matrix;
  const uint64_t extents[2] = {SEGMENTS, LENGTH};
  assert_int_equal(ocl_reduce_shape_dense(2, extents, &matrix), OCL_REDUCE_OK);
#define COLUMN_SUMS                                                                                \
  ocl_reduce_axes(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, ocl_reduce_buffer_input(in, 0),        \
                  &matrix, 1u, ocl_reduce_buffer_output(columns, 0))
  assert_int_equal(COLUMN_SUMS, OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(columns, 0, x, LENGTH * sizeof(int32_t)),
                   OCL_REDUCE_OK); /* garbage, overwritten behind the gate */
  cl_int code = CL_SUCCESS;
  cl_event gate = clCreateUserEvent((cl_context)info->native_context, &code);
  assert_int_equal(code, CL_SUCCESS);
  void *events[] = {gate};
  assert_int_equal(ocl_reduce_enqueue_wait(test_ctx, events, 1), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_segments(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32,
                                       ocl_reduce_buffer_input(in, 0), SEGMENTS, LENGTH,
                                       ocl_reduce_buffer_output(out, 0)),
                   OCL_REDUCE_OK);
  assert_int_equal(COLUMN_SUMS, OCL_REDUCE_OK);
#undef COLUMN_SUMS
  void *marker = NULL;
  assert_int_equal(ocl_reduce_enqueue_marker(test_ctx, &marker), OCL_REDUCE_OK);
  assert_non_null(marker);
  usleep(50 * 1000);
  cl_int status = CL_COMPLETE;
  assert_int_equal(clGetEventInfo((cl_event)marker, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof status, &status, NULL),
                   CL_SUCCESS);
  assert_true(status != CL_COMPLETE); /* the gate still holds everything back */
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  cl_event wait_for = (cl_event)marker;
  assert_int_equal(clWaitForEvents(1, &wait_for), CL_SUCCESS);
  int32_t got[SEGMENTS];
  assert_int_equal(ocl_reduce_buffer_read(out, 0, got, sizeof got), OCL_REDUCE_OK);
  for (size_t s = 0; s < SEGMENTS; s++)
    assert_int_equal(got[s], fold(OCL_REDUCE_MAX, x + s * LENGTH, LENGTH));
  int32_t sums[LENGTH];
  assert_int_equal(ocl_reduce_buffer_read(columns, 0, sums, sizeof sums), OCL_REDUCE_OK);
  for (size_t j = 0; j < LENGTH; j++) {
    int32_t want = 0;
    for (size_t s = 0; s < SEGMENTS; s++)
      want += x[s * LENGTH + j];
    assert_int_equal(sums[j], want);
  }
  ocl_reduce_buffer_destroy(columns);
  clReleaseEvent((cl_event)marker);
  clReleaseEvent(gate);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
}

/* CUDA: the marker is a CUevent, and a context runs on an application's stream (the driver's
 * entry points through dlsym, as the library itself reaches them). */
static void cuda_marker_and_application_stream(const ocl_reduce_context_info *info) {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  assert_non_null(driver);
  typedef int (*push_fn)(void *);
  typedef int (*pop_fn)(void **);
  typedef int (*stream_fn)(void **, unsigned);
  typedef int (*handle_fn)(void *);
  push_fn push = (push_fn)dlsym(driver, "cuCtxPushCurrent_v2");
  pop_fn pop = (pop_fn)dlsym(driver, "cuCtxPopCurrent_v2");
  stream_fn create_stream = (stream_fn)dlsym(driver, "cuStreamCreate");
  handle_fn destroy_stream = (handle_fn)dlsym(driver, "cuStreamDestroy_v2");
  handle_fn synchronize_event = (handle_fn)dlsym(driver, "cuEventSynchronize");
  handle_fn destroy_event = (handle_fn)dlsym(driver, "cuEventDestroy_v2");
  assert_true(push && pop && create_stream && destroy_stream && synchronize_event &&
              destroy_event);
  void *marker = NULL;
  assert_int_equal(ocl_reduce_enqueue_marker(test_ctx, &marker), OCL_REDUCE_OK);
  assert_int_equal(synchronize_event(marker), 0);
  assert_int_equal(destroy_event(marker), 0);

  void *stream = NULL, *popped = NULL;
  assert_int_equal(push(info->native_context), 0);
  assert_int_equal(create_stream(&stream, 0), 0);
  assert_int_equal(pop(&popped), 0);
  ocl_reduce_context *on_stream = NULL;
  assert_int_equal(ocl_reduce_context_create_cuda(NULL, stream, &on_stream), OCL_REDUCE_OK);
  ocl_reduce_context_info mine = {.struct_size = sizeof mine};
  assert_int_equal(ocl_reduce_context_query(on_stream, &mine), OCL_REDUCE_OK);
  assert_ptr_equal(mine.native_queue, stream);
  enum { COUNT = 100003 };
  static int32_t x[COUNT];
  for (size_t i = 0; i < COUNT; i++)
    x[i] = (int32_t)test_rng_below(2001) - 1000;
  int32_t sum = 0;
  assert_int_equal(
      ocl_reduce(on_stream, OCL_REDUCE_SUM, OCL_REDUCE_I32, x, COUNT, &sum, sizeof sum),
      OCL_REDUCE_OK);
  assert_int_equal(sum, fold(OCL_REDUCE_SUM, x, COUNT));
  ocl_reduce_context_destroy(on_stream);
  assert_int_equal(push(info->native_context), 0);
  assert_int_equal(destroy_stream(stream), 0); /* still the application's, and alive */
  assert_int_equal(pop(&popped), 0);
  dlclose(driver);
}

static void test_events_order_work_with_the_application(void **state) {
  (void)state;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_OK);
  if (info.backend == OCL_REDUCE_BACKEND_OPENCL)
    held_back_by_a_user_event(&info);
  else
    cuda_marker_and_application_stream(&info);
}

static void test_enqueue_arguments(void **state) {
  (void)state;
  void *event = (void *)(uintptr_t)0x5a;
  void *none[] = {NULL};
  expect_error(ocl_reduce_enqueue_wait(NULL, NULL, 0), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "ctx is NULL");
  expect_error(ocl_reduce_enqueue_wait(test_ctx, NULL, 2), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "events is NULL and count is 2");
  expect_error(ocl_reduce_enqueue_wait(test_ctx, none, 1), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "events[0] is NULL");
  assert_int_equal(ocl_reduce_enqueue_wait(test_ctx, NULL, 0), OCL_REDUCE_OK);
  expect_error(ocl_reduce_enqueue_marker(NULL, &event), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "ctx is NULL");
  expect_error(ocl_reduce_enqueue_marker(test_ctx, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               test_ctx, "event is NULL");
  assert_ptr_equal(event, (void *)(uintptr_t)0x5a);
  expect_error(ocl_reduce_finish(NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
  assert_int_equal(ocl_reduce_finish(test_ctx), OCL_REDUCE_OK);
  /* ocl_reduce_into: host to host is ocl_reduce; a results buffer is checked like any. */
  const int32_t x[5] = {4, -2, 9, 1, 0};
  int32_t max = 0x5a5a5a5a;
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32,
                                   ocl_reduce_host_input(x, TEST_BYTES(x)), 5,
                                   ocl_reduce_host_output(&max, sizeof max)),
                   OCL_REDUCE_OK);
  assert_int_equal(max, 9);
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, sizeof x, &buf), OCL_REDUCE_OK);
  expect_error(ocl_reduce_into(NULL, OCL_REDUCE_MAX, OCL_REDUCE_I32,
                               ocl_reduce_host_input(x, TEST_BYTES(x)), 5,
                               ocl_reduce_buffer_output(buf, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_XOR, OCL_REDUCE_F32,
                               ocl_reduce_host_input(x, TEST_BYTES(x)), 5,
                               ocl_reduce_buffer_output(buf, 0)),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "xor");
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32,
                               ocl_reduce_host_input(x, TEST_BYTES(x)), 5,
                               ocl_reduce_buffer_output(buf, 5)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, test_ctx, "result");
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32,
                               ocl_reduce_buffer_input(buf, 0), 4,
                               ocl_reduce_buffer_output(buf, 3)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "overlap");
  ocl_reduce_buffer_destroy(buf);
  ocl_reduce_context *ctx = (ocl_reduce_context *)(uintptr_t)1;
  expect_error(ocl_reduce_context_create_cuda(NULL, NULL, &ctx),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "cu_stream is NULL");
  assert_null(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_many_calls_in_flight_before_one_wait),
      cmocka_unit_test(test_events_order_work_with_the_application),
      cmocka_unit_test(test_enqueue_arguments),
  };
  return TEST_RUN(tests, test_setup, test_teardown);
}
