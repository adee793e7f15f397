/* =================================================================================================
 * test_cuda_kernels.c: the CUDA translation of the kernels (cl/ behind cl/orx_cuda_prelude.cl)
 * compiles with NVRTC for every kernel kind, operator x type x path and an H200-like device
 * (sm_90): whole-array, segmented (every mode, both forms) and multi-operator kernels. Needs
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

#ifdef ORX_HAVE_CUDA
/* An H200-like device as the CUDA backend describes it. */
static orx_caps h200_caps(void) {
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
  return caps;
}

/* Compiles one variant on one path; skips the test where NVRTC cannot run. Returns 1. */
static int compile(const orx_variant *variant, ocl_reduce_path requested) {
  const orx_caps caps = h200_caps();
  ocl_reduce_path path;
  ocl_reduce_subgroup_impl impl;
  const char *why;
  assert_int_equal(orx_resolve_path(&caps, requested, OCL_REDUCE_SUBGROUP_AUTO, &path, &impl, &why),
                   OCL_REDUCE_OK);
  orx_policy policy;
  orx_select_policy(&caps, path, impl, variant->type, &policy);
  orx_program_text text;
  assert_int_equal(orx_program_sources(NULL, "orx_cuda_prelude.cl", variant, &policy, 32, &text),
                   OCL_REDUCE_OK);
  ocl_reduce_status s = orx_cuda_compile_only(NULL, text.sources, text.count, 90);
  if (s == OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE) {
    orx_program_text_free(&text);
    printf("# skipped: %s\n", ocl_reduce_last_error(NULL));
    skip();
  }
  if (s != OCL_REDUCE_OK)
    fail_msg("%s for %s, op %s (%s path): %s\n%s", text.kernel_name,
             ocl_reduce_type_name(variant->type), ocl_reduce_op_name(variant->op),
             orx_path_name(path), ocl_reduce_last_error(NULL), text.defines);
  orx_program_text_free(&text);
  return 1;
}

static const ocl_reduce_path paths[] = {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_PATH_LOCAL};

/* Every operator x compute type, as the library builds them. */
#define FOR_EACH_OP_TYPE(op, type)                                                                 \
  for (int op = 0; op < OCL_REDUCE_OP_COUNT; op++)                                                 \
    for (int type = 0; type < OCL_REDUCE_TYPE_COUNT; type++)                                       \
      if (orx_compute_type((ocl_reduce_op)op, (ocl_reduce_type)type) == (ocl_reduce_type)type &&  \
          !(orx_type_is_float((ocl_reduce_type)type) && op >= OCL_REDUCE_AND))
#endif

static void test_every_kernel_compiles_with_nvrtc(void **state) {
  (void)state;
#ifndef ORX_HAVE_CUDA
  printf("# skipped: the library was built without the CUDA backend\n");
  skip();
#else
  int compiled = 0;
  for (int p = 0; p < 2; p++) {
    FOR_EACH_OP_TYPE(op, type) {
      orx_variant v = orx_variant_of(ORX_KERNEL_REDUCE_ALL, (ocl_reduce_op)op, (ocl_reduce_type)type);
      compiled += compile(&v, paths[p]);
      /* Segments: the multireduction at its widest, for every operator and type, with each
       * kind of load. */
      v.kind = ORX_KERNEL_SEGMENTS;
      v.seg.mode = ORX_SEG_MR;
      v.seg.width = 32;
      v.seg.slots = 16;
      compiled += compile(&v, paths[p]);
      v.seg.width = 8;
      v.seg.slots = 8;
      v.seg.load = ORX_SEG_VECTORS;
      compiled += compile(&v, paths[p]);
      v.seg.width = 32;
      v.seg.load = ORX_SEG_MASKED;
      compiled += compile(&v, paths[p]);
    }
    /* The other segment modes and the offsets form, on two types. */
    static const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_U64};
    for (int t = 0; t < 2; t++) {
      for (int mode = ORX_SEG_LANE; mode <= ORX_SEG_GROUP; mode++) {
        for (int offsets = 0; offsets < 2; offsets++) {
          orx_variant v = orx_variant_of(ORX_KERNEL_SEGMENTS, OCL_REDUCE_MAX, types[t]);
          v.seg.mode = (orx_seg_mode)mode;
          if (mode == ORX_SEG_MR) { /* the offsets form with masked vector loads too */
            v.seg.width = 16;
            v.seg.slots = 4;
            v.seg.load = offsets ? ORX_SEG_MASKED : ORX_SEG_ELEMENTS;
          }
          v.seg_offsets = offsets;
          compiled += compile(&v, paths[p]);
        }
      }
      /* Equal lengths staged through shared memory (the 32 KiB stage the H200 gets). */
      orx_variant staged = orx_variant_of(ORX_KERNEL_SEGMENTS, OCL_REDUCE_MAX, types[t]);
      staged.seg.mode = ORX_SEG_STAGED;
      staged.seg.stage = 32768 / (unsigned)ocl_reduce_type_size(types[t]);
      compiled += compile(&staged, paths[p]);
      /* Several operators at once: three (padded to four) and the most there may be. */
      orx_variant v = orx_variant_of(ORX_KERNEL_MULTI, OCL_REDUCE_SUM, types[t]);
      const ocl_reduce_op three[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
      v.op_count = 3;
      memcpy(v.ops, three, sizeof three);
      compiled += compile(&v, paths[p]);
      v.op_count = ORX_MULTI_MAX_OPS;
      for (int k = 0; k < ORX_MULTI_MAX_OPS; k++)
        v.ops[k] = (ocl_reduce_op)(k % 4);
      compiled += compile(&v, paths[p]);
    }
  }
  const orx_variant check = orx_variant_of(ORX_KERNEL_CHECK_OFFSETS, OCL_REDUCE_SUM, OCL_REDUCE_U64);
  compiled += compile(&check, OCL_REDUCE_PATH_LOCAL);
  printf("# %d CUDA kernels compiled for sm_90\n", compiled);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_kernel_compiles_with_nvrtc)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
