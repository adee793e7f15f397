/* =================================================================================================
 * test_buffer.c: device-resident data. Buffers the library allocates and buffers it wraps (an
 * application's cl_mem, on the application's own queue), element offsets, copies both ways, and
 * the promise that reducing the same device data again builds, uploads and allocates nothing.
 * ============================================================================================== */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/fixture.h"

static ocl_reduce_context_info query(ocl_reduce_context *c) {
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(c, &info), OCL_REDUCE_OK);
  return info;
}

static void test_write_read_round_trip_at_offsets(void **state) {
  (void)state;
  enum { N = 1000 };
  uint8_t in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (uint8_t)test_rng_next();
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, N + 13, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_size(buf), N + 13);
  assert_int_equal(ocl_reduce_buffer_write(buf, 13, in, N), OCL_REDUCE_OK);
  memset(out, 0, sizeof out);
  assert_int_equal(ocl_reduce_buffer_read(buf, 13, out, N), OCL_REDUCE_OK);
  assert_memory_equal(in, out, N);
  assert_int_equal(ocl_reduce_buffer_read(buf, 500 + 13, out, 7), OCL_REDUCE_OK);
  assert_memory_equal(in + 500, out, 7);
  ocl_reduce_buffer_destroy(buf);
}

/* Every element offset within two vectors, for a few counts: heads and tails of any length. */
static void test_every_offset_reduces_the_right_elements(void **state) {
  (void)state;
  enum { N = 300, PAD = 40 };
  uint32_t data[N + PAD];
  for (int i = 0; i < N + PAD; i++)
    data[i] = (uint32_t)test_rng_next();
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, sizeof data, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, data, sizeof data), OCL_REDUCE_OK);
  static const size_t counts[] = {0, 1, 5, 16, 17, 33, 299};
  for (size_t offset = 0; offset < 33; offset++) {
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
      uint32_t expected = 0, got = 0xdeadbeef;
      for (size_t i = offset; i < offset + counts[c]; i++)
        expected ^= data[i];
      assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_XOR, OCL_REDUCE_U32,
                                       ocl_reduce_buffer_input(buf, offset), counts[c],
                                       ocl_reduce_host_output(&got, sizeof got)),
                       OCL_REDUCE_OK);
      if (got != expected)
        fail_msg("offset %zu count %zu: got %u, expected %u", offset, counts[c], got, expected);
    }
  }
  ocl_reduce_buffer_destroy(buf);
}

static void test_repeated_reductions_build_and_upload_nothing(void **state) {
  (void)state;
  enum { N = 100000 };
  float *data = malloc(N * sizeof *data);
  assert_non_null(data);
  for (int i = 0; i < N; i++)
    data[i] = (float)(test_rng_below(17)) - 8.0f;
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, N * sizeof *data, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, data, N * sizeof *data), OCL_REDUCE_OK);
  float first = 0, again = 0;
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                   ocl_reduce_buffer_input(buf, 0), N,
                                   ocl_reduce_host_output(&first, sizeof first)),
                   OCL_REDUCE_OK);
  const ocl_reduce_context_info before = query(test_ctx);
  for (int r = 0; r < 20; r++) {
    assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                     ocl_reduce_buffer_input(buf, 0), N,
                                     ocl_reduce_host_output(&again, sizeof again)),
                     OCL_REDUCE_OK);
    assert_memory_equal(&first, &again, sizeof first);
  }
  const ocl_reduce_context_info after = query(test_ctx);
  assert_int_equal(after.kernel_builds, before.kernel_builds);
  assert_int_equal(after.bytes_to_device, before.bytes_to_device);
  assert_int_equal(after.device_allocations, before.device_allocations);
  /* A new operator builds exactly one more program. */
  float max = 0;
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_F32,
                                   ocl_reduce_buffer_input(buf, 0), N,
                                   ocl_reduce_host_output(&max, sizeof max)),
                   OCL_REDUCE_OK);
  assert_int_equal(query(test_ctx).kernel_builds, after.kernel_builds + 1);
  ocl_reduce_buffer_destroy(buf);
  free(data);
}

/* Reference counts of an application's queue and context, read once they have settled: an
 * implementation may hold references of its own for the commands it ran and drop them from a worker
 * thread after they complete (PoCL does, sometimes after clFinish has returned, as a sanitizer
 * build's timing showed). So a count that is not yet `expected` is read again for up to 2 s. */
static cl_uint queue_references(cl_command_queue queue) {
  cl_uint refs = 0;
  clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  return refs;
}

static cl_uint context_references(cl_context context) {
  cl_uint refs = 0;
  clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  return refs;
}

static cl_uint settled_references(cl_command_queue queue, cl_context context, cl_uint expected) {
  const struct timespec pause = {0, 10 * 1000 * 1000};
  cl_uint refs = queue ? queue_references(queue) : context_references(context);
  for (int tries = 0; refs != expected && tries < 200; tries++) {
    nanosleep(&pause, NULL);
    refs = queue ? queue_references(queue) : context_references(context);
  }
  return refs;
}

/* An application with its own OpenCL context, queue and buffer hands them to the library. */
static void test_wrapped_cl_mem_on_the_application_queue(void **state) {
  (void)state;
  const ocl_reduce_context_info info = query(test_ctx);
  if (info.backend != OCL_REDUCE_BACKEND_OPENCL) {
    printf("# skipped: the context runs on %s, not opencl\n", info.backend_name);
    skip();
  }
  cl_device_id device = (cl_device_id)info.native_device;
  cl_int err = CL_SUCCESS;
  cl_context app_context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(app_context, device, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  enum { N = 5000, OFFSET = 3 };
  int64_t data[N + OFFSET];
  int64_t expected = INT64_MAX;
  for (int i = 0; i < N + OFFSET; i++) {
    data[i] = (int64_t)test_rng_next();
    if (i >= OFFSET && data[i] < expected)
      expected = data[i];
  }
  cl_mem mem = clCreateBuffer(app_context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data,
                              data, &err);
  assert_int_equal(err, CL_SUCCESS);
  /* Reference counts before the library touches anything: it must give back all it takes. Objects
   * created in a context (buffers, programs) hold references to it on common implementations, so
   * the context's count also shows internal objects that were never released. */
  cl_uint context_refs = 0, queue_refs = 0, mem_refs = 0;
  clGetContextInfo(app_context, CL_CONTEXT_REFERENCE_COUNT, sizeof context_refs, &context_refs,
                   NULL);
  clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT, sizeof queue_refs, &queue_refs, NULL);
  clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof mem_refs, &mem_refs, NULL);
  /* Does a buffer hold a reference to its context here? (PoCL: yes; Intel: no.) */
  cl_mem probe = clCreateBuffer(app_context, CL_MEM_READ_WRITE, 64, NULL, &err);
  cl_uint with_probe = 0;
  clGetContextInfo(app_context, CL_CONTEXT_REFERENCE_COUNT, sizeof with_probe, &with_probe, NULL);
  clReleaseMemObject(probe);
  const cl_uint per_buffer = with_probe - context_refs;

  ocl_reduce_context *app = NULL;
  assert_int_equal(ocl_reduce_context_create_opencl(NULL, queue, &app), OCL_REDUCE_OK);
  const ocl_reduce_context_info app_info = query(app);
  assert_ptr_equal(app_info.native_queue, queue);
  assert_ptr_equal(app_info.native_context, app_context);
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_wrap_opencl(app, mem, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_size(buf), sizeof data);
  int64_t got = 0;
  assert_int_equal(ocl_reduce_into(app, OCL_REDUCE_MIN, OCL_REDUCE_I64,
                                   ocl_reduce_buffer_input(buf, OFFSET), N,
                                   ocl_reduce_host_output(&got, sizeof got)),
                   OCL_REDUCE_OK);
  assert_true(got == expected);
  assert_int_equal(query(app).bytes_to_device, 0); /* the data was already there */
  /* Host input on the same context too, so that every kind of scratch memory exists. */
  assert_int_equal(
      ocl_reduce(app, OCL_REDUCE_MIN, OCL_REDUCE_I64, data + OFFSET, N, &got, sizeof got),
      OCL_REDUCE_OK);
  assert_true(got == expected);

  /* The library's other context cannot take this cl_mem. */
  ocl_reduce_buffer *foreign = (ocl_reduce_buffer *)(uintptr_t)1;
  assert_int_equal(ocl_reduce_buffer_wrap_opencl(test_ctx, mem, &foreign),
                   OCL_REDUCE_ERROR_INVALID_ARGUMENT);
  assert_null(foreign);
  assert_non_null(strstr(ocl_reduce_last_error(test_ctx), "another cl_context"));

  /* The wrapped cl_mem was retained, so the application may release its reference first; and
   * destroying the buffer gives that reference back. */
  cl_uint refs = 0;
  clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  assert_int_equal(refs, mem_refs + 1);
  clRetainMemObject(mem); /* keep one to look at the count after destroy */
  clReleaseMemObject(mem);
  assert_int_equal(ocl_reduce_into(app, OCL_REDUCE_MIN, OCL_REDUCE_I64,
                                   ocl_reduce_buffer_input(buf, OFFSET), N,
                                   ocl_reduce_host_output(&got, sizeof got)),
                   OCL_REDUCE_OK);
  assert_true(got == expected);
  ocl_reduce_buffer_destroy(buf);
  clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  assert_int_equal(refs, mem_refs);
  clReleaseMemObject(mem);
  ocl_reduce_context_destroy(app);
  assert_int_equal(settled_references(queue, NULL, queue_refs), queue_refs);
  /* the buffer `mem` is gone now */
  assert_int_equal(settled_references(NULL, app_context, context_refs - per_buffer),
                   context_refs - per_buffer);
  clReleaseCommandQueue(queue);
  clReleaseContext(app_context);
}

/* A buffer's native handle is its memory: the cl_mem or CUDA pointer, wrapped as a buffer of its
 * own, reads the bytes written through the first, and a reduction of it gives the same result. */
static void test_native_handle_is_the_buffer_memory(void **state) {
  (void)state;
  enum { N = 1000 };
  int32_t data[N];
  for (int i = 0; i < N; i++)
    data[i] = (int32_t)(test_rng_below(2000001)) - 1000000;
  ocl_reduce_buffer *buf = NULL, *again = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, sizeof data, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, data, sizeof data), OCL_REDUCE_OK);
  void *mem = (void *)(uintptr_t)1;
  uint64_t pointer = 1;
  assert_int_equal(ocl_reduce_buffer_native(buf, &mem, &pointer), OCL_REDUCE_OK);
  if (query(test_ctx).backend == OCL_REDUCE_BACKEND_CUDA) {
    assert_null(mem);
    assert_true(pointer != 0);
    assert_int_equal(ocl_reduce_buffer_wrap_cuda(test_ctx, pointer, sizeof data, &again),
                     OCL_REDUCE_OK);
  } else {
    assert_non_null(mem);
    assert_true(pointer == 0);
    size_t bytes = 0;
    assert_int_equal(clGetMemObjectInfo((cl_mem)mem, CL_MEM_SIZE, sizeof bytes, &bytes, NULL),
                     CL_SUCCESS);
    assert_true(bytes >= sizeof data);
    assert_int_equal(ocl_reduce_buffer_wrap_opencl(test_ctx, mem, &again), OCL_REDUCE_OK);
  }
  int32_t back[N];
  assert_int_equal(ocl_reduce_buffer_read(again, 0, back, sizeof back), OCL_REDUCE_OK);
  assert_memory_equal(back, data, sizeof data);
  int64_t sum = 0, expected = 0;
  for (int i = 0; i < N; i++)
    expected += data[i];
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32,
                                   ocl_reduce_buffer_input(again, 0), N,
                                   ocl_reduce_host_output(&sum, sizeof(int32_t))),
                   OCL_REDUCE_OK);
  assert_true((int32_t)sum == (int32_t)expected);
  /* Either out-pointer may be NULL. */
  assert_int_equal(ocl_reduce_buffer_native(buf, NULL, NULL), OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(again);
  ocl_reduce_buffer_destroy(buf);
}

/* On the CUDA backend: an application's cuMemAlloc pointer, wrapped at byte offsets that leave it
 * off any vector alignment, reduces the right elements; a pointer off the element size, or a span
 * beyond the allocation, is refused. The driver is opened here the way an application links it. */
static void test_wrapped_cuda_pointer_at_any_alignment(void **state) {
  (void)state;
  const ocl_reduce_context_info info = query(test_ctx);
  if (info.backend != OCL_REDUCE_BACKEND_CUDA) {
    printf("# skipped: the context runs on %s, not cuda\n", info.backend_name);
    skip();
  }
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  assert_non_null(driver);
  typedef int (*push_fn)(void *);
  typedef int (*pop_fn)(void **);
  typedef int (*alloc_fn)(unsigned long long *, size_t);
  typedef int (*free_fn)(unsigned long long);
  typedef int (*copy_fn)(unsigned long long, const void *, size_t);
  push_fn push = (push_fn)dlsym(driver, "cuCtxPushCurrent_v2");
  pop_fn pop = (pop_fn)dlsym(driver, "cuCtxPopCurrent_v2");
  alloc_fn alloc = (alloc_fn)dlsym(driver, "cuMemAlloc_v2");
  free_fn release = (free_fn)dlsym(driver, "cuMemFree_v2");
  copy_fn copy = (copy_fn)dlsym(driver, "cuMemcpyHtoD_v2");
  assert_true(push && pop && alloc && release && copy);
  enum { N = 100003 };
  static float data[N];
  for (int i = 0; i < N; i++)
    data[i] = (float)((int)test_rng_below(17) - 8);
  unsigned long long d_data = 0;
  void *ignored;
  assert_int_equal(push(info.native_context), 0);
  assert_int_equal(alloc(&d_data, sizeof data), 0);
  assert_int_equal(copy(d_data, data, sizeof data), 0);
  pop(&ignored);
  for (size_t skip_elements = 0; skip_elements < 4; skip_elements++) {
    ocl_reduce_buffer *buf = NULL;
    const size_t count = N - skip_elements;
    assert_int_equal(
        ocl_reduce_buffer_wrap_cuda(test_ctx, d_data + 4 * skip_elements, 4 * count, &buf),
        OCL_REDUCE_OK);
    float expected = 0, got = 0;
    for (size_t i = skip_elements; i < N; i++)
      expected += data[i];
    assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                     ocl_reduce_buffer_input(buf, 0), count,
                                     ocl_reduce_host_output(&got, sizeof got)),
                     OCL_REDUCE_OK);
    if (got != expected)
      fail_msg("pointer %zu elements in: got %g, expected %g", skip_elements, got, expected);
    ocl_reduce_buffer_destroy(buf);
  }
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_wrap_cuda(test_ctx, d_data + 2, 400, &buf), OCL_REDUCE_OK);
  float got = 0;
  assert_int_equal(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                   ocl_reduce_buffer_input(buf, 0), 10,
                                   ocl_reduce_host_output(&got, sizeof got)),
                   OCL_REDUCE_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(ocl_reduce_last_error(test_ctx), "not aligned"));
  ocl_reduce_buffer_destroy(buf);
  buf = (ocl_reduce_buffer *)(uintptr_t)1;
  assert_int_equal(ocl_reduce_buffer_wrap_cuda(test_ctx, d_data, sizeof data + 4096, &buf),
                   OCL_REDUCE_ERROR_OUT_OF_RANGE);
  assert_null(buf);
  assert_int_equal(push(info.native_context), 0);
  release(d_data);
  pop(&ignored);
}

static void test_profiling_reports_kernel_time(void **state) {
  (void)state;
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.profiling = 1;
  ocl_reduce_context *c = NULL;
  assert_int_equal(ocl_reduce_context_create(&opts, &c), OCL_REDUCE_OK);
  uint64_t ns = 0;
  assert_int_equal(ocl_reduce_last_kernel_ns(c, &ns), OCL_REDUCE_ERROR_INVALID_ARGUMENT);
  uint32_t data[4096];
  for (int i = 0; i < 4096; i++)
    data[i] = (uint32_t)i;
  uint32_t sum = 0;
  assert_int_equal(ocl_reduce(c, OCL_REDUCE_SUM, OCL_REDUCE_U32, data, 4096, &sum, sizeof sum),
                   OCL_REDUCE_OK);
  assert_int_equal(sum, 4096u * 4095u / 2);
  assert_int_equal(ocl_reduce_last_kernel_ns(c, &ns), OCL_REDUCE_OK);
  assert_true(ns > 0);
  ocl_reduce_context_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_write_read_round_trip_at_offsets),
      cmocka_unit_test(test_every_offset_reduces_the_right_elements),
      cmocka_unit_test(test_repeated_reductions_build_and_upload_nothing),
      cmocka_unit_test(test_wrapped_cl_mem_on_the_application_queue),
      cmocka_unit_test(test_wrapped_cuda_pointer_at_any_alignment),
      cmocka_unit_test(test_native_handle_is_the_buffer_memory),
      cmocka_unit_test(test_profiling_reports_kernel_time),
  };
  return TEST_RUN(tests, test_setup, test_teardown);
}
