/* =================================================================================================
 * test_cuda_kernels.c: the CUDA translation of the kernels (cl/ behind cl/orx_cuda_prelude.cl)
 * compiles with NVRTC for every operator x type x path and an H200-like device (sm_90). Needs
 * NVRTC only, no driver or GPU, so CI checks what the CUDA backend will compile on the H200
 * machine; skipped, visibly, where NVRTC or the CUDA backend is absent.
 * ============================================================================================== */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "backend.h"

static void test_every_kernel_compiles_with_nvrtc(void **state) {
  (void)state;
#ifndef ORX_HAVE_CUDA
  printf("# skipped: the library was built without the CUDA backend\n");
  skip();
#else
  orx_caps caps;
  memset(&caps, 0, sizeof caps);
  caps.type = OCL_REDUCE_DEVICE_GPU;
  caps.compute_units = 132;
  caps.max_work_group_size = 1024;
  caps.local_mem_bytes = 48 * 1024;
  caps.base_align_bytes = 256;
  caps.has_fp64 = 1;
  caps.nv_warp_size = 32;
  caps.has_cuda_shuffle = 1;
  static const ocl_reduce_path paths[] = {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_PATH_LOCAL};
  int compiled = 0;
  for (int p = 0; p < 2; p++) {
    for (int op = 0; op < OCL_REDUCE_OP_COUNT; op++) {
      for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++) {
        const ocl_reduce_type type = orx_compute_type((ocl_reduce_op)op, (ocl_reduce_type)t);
        if (type != (ocl_reduce_type)t || (orx_type_is_float(type) && op >= OCL_REDUCE_AND))
          continue; /* built for the compute type only, as the library does */
        ocl_reduce_path path;
        ocl_reduce_subgroup_impl impl;
        const char *why;
        assert_int_equal(orx_resolve_path(&caps, paths[p], OCL_REDUCE_SUBGROUP_AUTO, &path,
                                          &impl, &why),
                         OCL_REDUCE_OK);
        orx_policy policy;
        orx_select_policy(&caps, path, impl, type, &policy);
        orx_program_text text;
        assert_int_equal(orx_program_sources(NULL, "orx_cuda_prelude.cl", ORX_KERNEL_REDUCE_ALL,
                                             (ocl_reduce_op)op, type, &policy, 32, &text),
                         OCL_REDUCE_OK);
        ocl_reduce_status s = orx_cuda_compile_only(NULL, text.sources, text.count, 90);
        orx_program_text_free(&text);
        if (s == OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE) {
          printf("# skipped: %s\n", ocl_reduce_last_error(NULL));
          skip();
        }
        if (s != OCL_REDUCE_OK)
          fail_msg("%s %s (%s path): %s", ocl_reduce_op_name((ocl_reduce_op)op),
                   ocl_reduce_type_name(type), orx_path_name(path), ocl_reduce_last_error(NULL));
        compiled++;
      }
    }
  }
  printf("# %d CUDA kernels compiled for sm_90\n", compiled);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_kernel_compiles_with_nvrtc)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
