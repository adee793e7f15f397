/* =================================================================================================
 * host_contexts.c: the host-path suites' contexts and counters (host_contexts.h).
 * ============================================================================================== */
#include "support/host_contexts.h"

#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"

int test_host_contexts_open(test_host_contexts *c) {
  memset(c, 0, sizeof *c);
  c->thread = test_context_with_policy("host=thread");
  c->device = test_context_with_policy("host=device");
  setenv("OCL_REDUCE_DETERMINISM", "cross_device", 1);
  c->cross_thread = test_context_with_policy("host=thread");
  c->cross_device = test_context_with_policy("host=device");
  unsetenv("OCL_REDUCE_DETERMINISM");
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  if (!c->thread || !c->device || !c->cross_thread || !c->cross_device ||
      ocl_reduce_context_query(c->thread, &info) != OCL_REDUCE_OK) {
    test_host_contexts_close(c);
    return -1;
  }
  c->is_cpu = info.device_type == OCL_REDUCE_DEVICE_CPU;
  c->has_fp64 = info.has_fp64;
  return 0;
}

void test_host_contexts_close(test_host_contexts *c) {
  ocl_reduce_context_destroy(c->thread);
  ocl_reduce_context_destroy(c->device);
  ocl_reduce_context_destroy(c->cross_thread);
  ocl_reduce_context_destroy(c->cross_device);
  memset(c, 0, sizeof *c);
}

static ocl_reduce_context_info info_of(ocl_reduce_context *ctx) {
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(ctx, &info), OCL_REDUCE_OK);
  return info;
}

uint64_t test_bytes_to_device(ocl_reduce_context *ctx) { return info_of(ctx).bytes_to_device; }

uint64_t test_kernel_builds(ocl_reduce_context *ctx) { return info_of(ctx).kernel_builds; }
