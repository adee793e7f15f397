/* =================================================================================================
 * synthetic.c: synthetic devices, targets and plans for the tests of the library's internals
 * (synthetic.h).
 * ============================================================================================== */
#include "support/synthetic.h"

#include <stdio.h>
#include <string.h>

#include "support/fixture.h"

orx_caps test_gpu(void) {
  orx_caps c;
  memset(&c, 0, sizeof c);
  c.type = OCL_REDUCE_DEVICE_GPU;
  c.compute_units = 132;
  c.max_work_group_size = 1024;
  c.local_mem_bytes = 48 * 1024;
  c.base_align_bytes = 128;
  c.has_fp64 = 1;
  c.device_sync = ORX_SYNC_CL_ATOMICS; /* OpenCL 2.0 or later */
  snprintf(c.sync_build_option, sizeof c.sync_build_option, "-cl-std=CL3.0");
  return c;
}

orx_caps test_cpu(void) {
  orx_caps c = test_gpu();
  c.type = OCL_REDUCE_DEVICE_CPU;
  c.compute_units = 2;
  c.max_work_group_size = 4096;
  c.local_mem_bytes = 1 << 20;
  return c;
}

orx_caps test_h200_cuda(void) {
  orx_caps c = test_gpu();
  c.base_align_bytes = 256;
  c.warp_size = 32;
  c.has_cuda_shuffle = 1;
  c.device_sync = ORX_SYNC_CUDA;
  return c;
}

orx_target test_target(const orx_caps *caps, ocl_reduce_path path) {
  orx_target t;
  memset(&t, 0, sizeof t);
  t.caps = caps;
  const char *why;
  assert_int_equal(orx_plan_path(caps, path, OCL_REDUCE_SUBGROUP_AUTO, &t.path, &t.subgroup_impl,
                                 &why),
                   OCL_REDUCE_OK);
  assert_int_equal(orx_parse_policy_override(NULL, &t.forced), OCL_REDUCE_OK);
  return t;
}

orx_plan test_plan_alone(orx_kernel kernel) {
  orx_plan alone;
  memset(&alone, 0, sizeof alone);
  for (int d = 0; d < ORX_DEFINE_COUNT; d++)
    alone.defines[d] = ORX_DEFINE_UNSET;
  alone.kernel = kernel;
  return alone;
}
