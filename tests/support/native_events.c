/* =================================================================================================
 * native_events.c: waiting for and releasing a marker's event with the backend's calls
 * (native_events.h).
 * ============================================================================================== */
#define CL_TARGET_OPENCL_VERSION 300
#include "support/native_events.h"

#include <CL/cl.h>
#include <dlfcn.h>

typedef int (*cuda_event_fn)(void *);

/* cuEventSynchronize and cuEventDestroy_v2 from the driver; NULL where it is not there. */
static cuda_event_fn cuda_event_call(int destroy) {
  static void *driver;
  if (!driver)
    driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  return driver ? (cuda_event_fn)dlsym(driver, destroy ? "cuEventDestroy_v2" : "cuEventSynchronize")
                : NULL;
}

static int is_cuda(ocl_reduce_context *ctx) {
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  return ocl_reduce_context_query(ctx, &info) == OCL_REDUCE_OK &&
         info.backend == OCL_REDUCE_BACKEND_CUDA;
}

int test_event_wait_and_release(ocl_reduce_context *ctx, void *event) {
  int ok;
  if (is_cuda(ctx)) {
    const cuda_event_fn synchronize = cuda_event_call(0);
    ok = synchronize && synchronize(event) == 0;
  } else {
    cl_event wait_for = (cl_event)event;
    ok = clWaitForEvents(1, &wait_for) == CL_SUCCESS;
  }
  test_event_release(ctx, event);
  return ok;
}

void test_event_release(ocl_reduce_context *ctx, void *event) {
  if (is_cuda(ctx)) {
    const cuda_event_fn destroy = cuda_event_call(1);
    if (destroy)
      destroy(event);
  } else {
    clReleaseEvent((cl_event)event);
  }
}
