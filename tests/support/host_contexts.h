/* =================================================================================================
 * host_contexts.h: the contexts of the host-path suites (test_host_path.c, test_host_pairs.c):
 * one whose calling thread runs host plans (host=thread) and one whose device runs them
 * (host=device), each also in cross-device mode; and the counters that tell which ran a call.
 * ============================================================================================== */
#ifndef ORX_TEST_HOST_CONTEXTS_H
#define ORX_TEST_HOST_CONTEXTS_H

#include <stdint.h>

#include "ocl_reduce.h"

typedef struct test_host_contexts {
  ocl_reduce_context *thread, *device, *cross_thread, *cross_device;
  int is_cpu, has_fp64; /* the device's */
} test_host_contexts;

/* Makes the four contexts on the fixture's device (after test_setup); 0, or -1 with none left. */
int test_host_contexts_open(test_host_contexts *c);
void test_host_contexts_close(test_host_contexts *c);

/* ocl_reduce_context_info's bytes copied to the device and kernels built so far. */
uint64_t test_bytes_to_device(ocl_reduce_context *ctx);
uint64_t test_kernel_builds(ocl_reduce_context *ctx);

#endif /* ORX_TEST_HOST_CONTEXTS_H */
