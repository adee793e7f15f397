/* =================================================================================================
 * test_planner.c: the library's choices as pure functions of a device's capabilities (the
 * planner, src/planner/planner.h), on synthetic devices: which device a selector names, which path
 * and subgroup implementation a context takes, the launch policy, how segments spread, and the
 * contract between host and kernels (every define a plan emits is the contract's, with a default
 * there). Needs no OpenCL device.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/device_pick.h"
#include "backends/registry/registry.h"
#include "base/sources.h"
#include "planner/host_plan.h"
#include "planner/plan_axes.h"
#include "planner/plan_by_key.h"
#include "planner/plan_group.h"
#include "planner/plan_host.h"
#include "planner/plan_windows.h"
#include "exec/program.h"
#include "exec/run.h"
#include "exec/user_operator.h"
#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/structured.h"
#include "support/ordered_ops.h"
#include "support/structured.h"
#include "support/synthetic.h"

static void resolve(const orx_caps *caps, ocl_reduce_path path, ocl_reduce_subgroup_impl impl,
                    ocl_reduce_status status, ocl_reduce_path want_path,
                    ocl_reduce_subgroup_impl want_impl) {
  ocl_reduce_path got_path = OCL_REDUCE_PATH_DEFAULT;
  ocl_reduce_subgroup_impl got_impl = OCL_REDUCE_SUBGROUP_DEFAULT;
  const char *why = NULL;
  assert_int_equal(orx_plan_path(caps, path, impl, &got_path, &got_impl, &why), status);
  if (status == OCL_REDUCE_OK) {
    assert_int_equal(got_path, want_path);
    assert_int_equal(got_impl, want_impl);
  } else {
    assert_non_null(why);
  }
}

static void test_auto_takes_subgroups_when_present_and_local_otherwise(void **state) {
  (void)state;
  orx_caps c = test_gpu();
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE);
  c.has_khr_subgroups = 1; /* AMD: built-ins only */
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_BUILTIN);
  c.has_intel_subgroups = 1;
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_INTEL);
  c.has_khr_shuffle = 1;
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR);
  resolve(&c, OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_BUILTIN, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_BUILTIN);
  resolve(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_KHR, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE);
}

static void test_nvidia_opencl_takes_inline_ptx_with_32_lane_warps(void **state) {
  (void)state;
  orx_caps c = test_gpu();
  c.warp_size = 32;
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_NV_PTX);
  resolve(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE);
  c.warp_size = 64; /* the PTX is written for 32 lanes: not offered, never assumed */
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE);
  resolve(&c, OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_NV_PTX,
          OCL_REDUCE_ERROR_PATH_UNSUPPORTED, 0, 0);
}

/* CPU devices with real subgroups (Intel's runtime) take local memory unless subgroups are asked
 * for, by path or by name; PoCL's CPU device, whose subgroups are barriers, keeps the
 * preference. */
static void test_cpu_devices_with_real_subgroups_take_local_memory(void **state) {
  (void)state;
  orx_caps c = test_cpu();
  c.has_khr_shuffle = c.has_intel_subgroups = c.has_khr_subgroups = 1;
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE);
  resolve(&c, OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR);
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_INTEL, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_INTEL);
  c.emulated_subgroups = 1; /* PoCL */
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_AUTO, OCL_REDUCE_OK,
          OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR);
}

static void test_forced_path_or_implementation_is_never_a_fallback(void **state) {
  (void)state;
  orx_caps c = test_gpu();
  resolve(&c, OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_AUTO,
          OCL_REDUCE_ERROR_PATH_UNSUPPORTED, 0, 0);
  c.has_khr_subgroups = 1;
  resolve(&c, OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR,
          OCL_REDUCE_ERROR_PATH_UNSUPPORTED, 0, 0);
  resolve(&c, OCL_REDUCE_PATH_AUTO, OCL_REDUCE_SUBGROUP_INTEL,
          OCL_REDUCE_ERROR_PATH_UNSUPPORTED, 0, 0);
}

static void test_cpu_streams_chunks_gpu_stride_cuda_tiles(void **state) {
  (void)state;
  orx_caps c = test_cpu();
  orx_policy p;
  orx_select_policy(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(float), &p);
  assert_int_equal(p.stream, ORX_STREAM_CHUNK);
  assert_int_equal(p.vec * 4, 64);
  assert_int_equal(p.finish_serial, 1);
  orx_select_policy(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(double), &p);
  assert_int_equal(p.vec, 8);
  c = test_gpu();
  orx_select_policy(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(float), &p);
  assert_int_equal(p.stream, ORX_STREAM_STRIDED);
  /* The CUDA backend (either path) takes CUB's tiled layout. */
  c.has_cuda_shuffle = 1;
  orx_select_policy(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(float), &p);
  assert_int_equal(p.stream, ORX_STREAM_TILED);
  assert_int_equal(p.vec, 4);
  assert_int_equal(p.finish_serial, 0);
  assert_int_equal(p.max_groups % c.compute_units, 0);
  orx_select_policy(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(uint64_t), &p);
  assert_int_equal(p.vec, 2);
}

static void test_policy_fits_small_devices(void **state) {
  (void)state;
  orx_caps c = test_gpu();
  c.max_work_group_size = 100; /* not a power of two */
  c.local_mem_bytes = 1024;
  c.base_align_bytes = 8;
  orx_policy p;
  orx_select_policy(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(double), &p);
  assert_int_equal(p.wg_size & (p.wg_size - 1), 0);
  assert_true(p.wg_size <= 100);
  assert_true(2 * p.wg_size * 8 + 64 <= 1024);
  assert_int_equal(p.vec, 1);
}

static void test_groups_grow_with_count_up_to_the_cap(void **state) {
  (void)state;
  orx_caps c = test_gpu();
  orx_policy p;
  orx_select_policy(&c, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(float), &p);
  assert_int_equal(orx_policy_groups(&p, 1), 1);
  assert_int_equal(orx_policy_groups(&p, p.items_per_group), 1);
  assert_int_equal(orx_policy_groups(&p, p.items_per_group + 1), 2);
  assert_int_equal(orx_policy_groups(&p, (size_t)1 << 40), p.max_groups);
}

/* The segment plan for `count` segments of `length` on a device. */
static orx_seg_plan plan(const orx_caps *c, int forced, size_t count, size_t length) {
  orx_policy p;
  orx_select_policy(c, OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR, sizeof(float), &p);
  orx_seg_plan out;
  /* Equal lengths from an element past a vector boundary (so never whole vectors). */
  const orx_seg_shape shape = {count, (uint64_t)count * length, length, 0, 0, 4, 1};
  orx_plan_segments(c, &p, forced, ORX_OP_SUM, &shape, &out);
  return out;
}

/* ... for aligned segments of whole vectors, with a given policy. */
static void plan_aligned(const orx_caps *c, const orx_policy *p, int forced, size_t count,
                         uint64_t elements, orx_seg_plan *out) {
  const orx_seg_shape shape = {count, elements, elements / count, 0, 0, 4, 0};
  orx_plan_segments(c, p, forced, ORX_OP_SUM, &shape, out);
}

static void test_segments_spread_by_length(void **state) {
  (void)state;
  const orx_caps g = test_gpu(), c = test_cpu();
  /* GPUs: the multireduction, as many lanes per segment as its loads, up to 32. Segments that are
   * not whole vectors from an aligned start load masked vectors once they span two: 32 elements
   * take up to 9 (width 16). */
  assert_int_equal(plan(&g, ORX_SEG_MR, 1 << 21, 32).mode, ORX_SEG_MR);
  assert_int_equal(plan(&g, ORX_SEG_MR, 1 << 21, 32).load, ORX_SEG_MASKED);
  assert_int_equal(plan(&g, ORX_SEG_MR, 1 << 21, 32).width, 16);
  assert_int_equal(plan(&g, ORX_SEG_MR, 1 << 21, 33).width, 16);
  /* Equal lengths from 4 vectors up to a quarter of the work-items per tile are staged through
   * local memory, a tile of whole segments per work-group (8192 f32: 248 of 33 elements, 256 of
   * 32, 81 of 101; 128 would give 64 of 256 work-items a segment). */
  const orx_seg_plan staged = plan(&g, -1, 1 << 21, 33);
  assert_int_equal(staged.mode, ORX_SEG_STAGED);
  assert_int_equal(staged.stage, 8192);
  assert_int_equal(plan(&g, -1, 1 << 21, 32).mode, ORX_SEG_STAGED);
  assert_int_equal(plan(&g, -1, 1 << 21, 17).mode, ORX_SEG_STAGED);
  assert_int_equal(plan(&g, -1, 1 << 20, 101).mode, ORX_SEG_STAGED);
  assert_int_equal(plan(&g, -1, 1 << 20, 128).mode, ORX_SEG_MR);
  /* Shorter ones where the multireduction would leave a quarter of its lanes idle (15 or 16
   * elements from anywhere: 5 masked loads on 8 lanes), else the multireduction (13: 4 loads on
   * 4 lanes; 8 from a vector boundary: 2 whole vectors); 16 from a vector boundary, 4 whole
   * vectors, staged. */
  assert_int_equal(plan(&g, -1, 1 << 22, 15).mode, ORX_SEG_STAGED);
  assert_int_equal(plan(&g, -1, 1 << 22, 16).mode, ORX_SEG_STAGED);
  assert_int_equal(plan(&g, -1, 1 << 22, 13).mode, ORX_SEG_MR);
  orx_policy sp;
  orx_select_policy(&g, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(float), &sp);
  orx_seg_plan whole;
  plan_aligned(&g, &sp, -1, 1 << 22, (uint64_t)16 << 22, &whole);
  assert_int_equal(whole.mode, ORX_SEG_STAGED);
  plan_aligned(&g, &sp, -1, 1 << 23, (uint64_t)8 << 23, &whole);
  assert_int_equal(whole.mode, ORX_SEG_MR);
  assert_int_equal(orx_stage_segments(&sp, &staged, 33), 248);
  assert_int_equal(orx_stage_segments(&sp, &staged, 32), 256);
  assert_int_equal(orx_segment_groups(&sp, &staged, 1000, 33), 5);
  /* Staging needs equal lengths that fit the stage: forced otherwise, it is the multireduction. */
  const orx_seg_shape ragged = {1000, 33000, 0, 0, 1, 4, 0};
  orx_seg_plan forced_staged;
  orx_plan_segments(&g, &sp, ORX_SEG_STAGED, ORX_OP_SUM, &ragged, &forced_staged);
  assert_int_equal(forced_staged.mode, ORX_SEG_MR);
  assert_int_equal(plan(&g, ORX_SEG_STAGED, 10, 8193).mode, ORX_SEG_MR);
  assert_int_equal(plan(&c, ORX_SEG_STAGED, 1 << 20, 33).mode, ORX_SEG_STAGED);
  /* Segments shorter than two vectors, not whole vectors: a lane each; from two vectors on,
   * masked vectors on a lane group. */
  assert_int_equal(plan(&g, -1, 1 << 24, 4).width, 1);
  assert_int_equal(plan(&g, -1, 1 << 24, 4).load, ORX_SEG_ELEMENTS);
  assert_int_equal(plan(&g, -1, 1 << 23, 5).width, 1);
  assert_int_equal(plan(&g, -1, 1 << 22, 12).load, ORX_SEG_MASKED);
  assert_int_equal(plan(&g, -1, 1 << 22, 12).width, 4);
  assert_int_equal(plan(&g, -1, 1 << 26, 1).width, 1);
  assert_int_equal(plan(&g, -1, 1 << 19, 128).width, 32);
  /* ... a work-group per segment once there are too few segments for the multireduction to
   * keep 512 lanes per compute unit busy ... */
  assert_int_equal(plan(&g, -1, 1 << 10, 1 << 16).mode, ORX_SEG_GROUP);
  /* ... and whole-device reductions for fewer segments than compute units. */
  assert_int_equal(plan(&g, -1, 4, 1 << 26).mode, ORX_SEG_LAUNCH);
  /* Short segments stay with the multireduction however few there are. */
  assert_int_equal(plan(&g, -1, 3, 7).mode, ORX_SEG_MR);
  assert_int_equal(plan(&g, -1, 3, 1000).mode, ORX_SEG_MR);
  /* CPUs: a work-item per segment when there are enough, no barriers. */
  assert_int_equal(plan(&c, -1, 1 << 20, 32).mode, ORX_SEG_LANE);
  assert_int_equal(plan(&c, -1, 1 << 10, 1 << 16).mode, ORX_SEG_LANE);
  assert_int_equal(plan(&c, -1, 20, 1000).mode, ORX_SEG_GROUP);
  assert_int_equal(plan(&c, -1, 2, 1 << 24).mode, ORX_SEG_LAUNCH);
  /* Forced modes are taken as they are; the multireduction never outgrows the work-group. */
  assert_int_equal(plan(&c, ORX_SEG_GROUP, 1 << 20, 32).mode, ORX_SEG_GROUP);
  const orx_seg_plan forced = plan(&c, ORX_SEG_MR, 1 << 20, 1000);
  assert_int_equal(forced.mode, ORX_SEG_MR);
  assert_int_equal(forced.width, 16); /* the CPU policy's work-group */
  assert_true(forced.slots <= forced.width);
  /* Aligned segments of whole vectors: lanes load vectors, 4 f32 each on a GPU (32 elements
   * are staged unless forced). */
  orx_policy p;
  orx_select_policy(&g, OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_NONE, sizeof(float), &p);
  orx_seg_plan v;
  plan_aligned(&g, &p, ORX_SEG_MR, 1 << 21, (uint64_t)32 << 21, &v);
  assert_int_equal(v.mode, ORX_SEG_MR);
  assert_int_equal(v.load, ORX_SEG_VECTORS);
  assert_int_equal(v.width, 8);
  assert_int_equal(v.slots, 8);
  assert_int_equal(orx_seg_batch(&v), 1);
  plan_aligned(&g, &p, -1, 1 << 24, (uint64_t)4 << 24, &v);
  assert_int_equal(v.width, 1);
  assert_int_equal(orx_seg_batch(&v), 8);
  /* Element loads: 16 slots per lane group. */
  const orx_seg_plan scalar = {ORX_SEG_MR, 4, 4, ORX_SEG_ELEMENTS, 0, 0};
  assert_int_equal(orx_seg_batch(&scalar), 4);
  /* Vector slots take four times the registers: at most 8 segments per lane group; longer
   * segments take more lanes each (2048 elements: 32 lanes for 8 segments), and the
   * multireduction while it keeps 512 lanes per compute unit busy (2048-element segments of 2^26
   * elements on the H200); longer ones a work-group each. */
  plan_aligned(&g, &p, -1, 1 << 15, (uint64_t)2048 << 15, &v);
  assert_int_equal(v.mode, ORX_SEG_MR);
  assert_int_equal(v.width, 32);
  assert_int_equal(v.slots, 8);
  assert_int_equal(orx_seg_batch(&v), 1);
  plan_aligned(&g, &p, -1, 1 << 14, (uint64_t)4096 << 14, &v);
  assert_int_equal(v.mode, ORX_SEG_GROUP);
  /* Work-groups: 256 lanes in groups of 32 take 8 segments each, 64 per round. */
  const orx_seg_plan mr = {ORX_SEG_MR, 32, 8, ORX_SEG_VECTORS, 0, 0};
  assert_int_equal(orx_segment_groups(&p, &mr, 1000, 0), 16);
  assert_int_equal(orx_segment_groups(&p, &mr, (size_t)1 << 40, 0), (size_t)p.max_groups * 8);
  /* 128 groups, 4 sets of 2 */
  const orx_seg_plan narrow = {ORX_SEG_MR, 2, 2, ORX_SEG_VECTORS, 0, 0};
  assert_int_equal(orx_segment_groups(&p, &narrow, 2049, 0), 3);
}

static void test_policy_override_parses_and_rejects(void **state) {
  (void)state;
  orx_policy_override o;
  assert_int_equal(orx_parse_policy_override("wg=64,vec=4,unroll=2,groups=9,stream=chunk,"
                                             "finish=group",
                                             &o),
                   OCL_REDUCE_OK);
  assert_int_equal(o.wg_size, 64);
  assert_int_equal(o.stream, ORX_STREAM_CHUNK);
  assert_int_equal(o.finish_serial, 0);
  assert_int_equal(orx_parse_policy_override(NULL, &o), OCL_REDUCE_OK);
  assert_int_equal(o.wg_size, 0);
  assert_int_equal(o.stream, -1);
  assert_int_equal(orx_parse_policy_override("wg=48", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("vec=32", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("stream", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("speed=11", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("seg=mr", &o), OCL_REDUCE_OK);
  assert_int_equal(o.seg_mode, ORX_SEG_MR);
  assert_int_equal(o.key_stage, -1);
  assert_int_equal(orx_parse_policy_override("key_warp_join=0", &o), OCL_REDUCE_OK);
  assert_int_equal(o.key_warp_join, 0);
  assert_int_equal(o.key_in_order, -1);
  assert_int_equal(orx_parse_policy_override("key_in_order=1", &o), OCL_REDUCE_OK);
  assert_int_equal(o.key_in_order, 1);
  assert_int_equal(orx_parse_policy_override("key_in_order=2", &o),
                   OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(o.key_counted, -1);
  assert_int_equal(orx_parse_policy_override("key_counted=1", &o), OCL_REDUCE_OK);
  assert_int_equal(o.key_counted, 1);
  assert_int_equal(o.key_warp_scan, -1);
  assert_int_equal(orx_parse_policy_override("key_warp_scan=0", &o), OCL_REDUCE_OK);
  assert_int_equal(o.key_warp_scan, 0);
  assert_int_equal(orx_parse_policy_override("key_stage=1", &o), OCL_REDUCE_OK);
  assert_int_equal(o.key_warp_join, -1);
  assert_int_equal(o.key_stage, 1);
  assert_int_equal(orx_parse_policy_override("key_stage=2", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(o.host_views, -1);
  assert_int_equal(orx_parse_policy_override("host_views=0,col_tall=1", &o), OCL_REDUCE_OK);
  assert_int_equal(o.host_views, 0);
  assert_int_equal(o.col_tall, 1);
  assert_int_equal(o.key_stage, -1);
  assert_int_equal(orx_parse_policy_override("host_views=yes", &o),
                   OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("seg=warp", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("seg=mr,slots=4", &o), OCL_REDUCE_OK);
  assert_int_equal(o.seg_slots, 4);
  assert_int_equal(orx_parse_policy_override("slots=6", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("chains=17", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("col_run=256", &o), OCL_REDUCE_OK);
  assert_int_equal(o.col_run, 256);
  assert_int_equal(orx_parse_policy_override("col_run=3", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("col_steps=32", &o), OCL_REDUCE_OK);
  assert_int_equal(o.col_steps, 32);
  assert_int_equal(orx_parse_policy_override("col_steps=12", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("col_steps=64", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("col_flat=1", &o), OCL_REDUCE_OK);
  assert_int_equal(o.col_flat, 1);
  assert_int_equal(orx_parse_policy_override("col_flat=2", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("col_tall=0", &o), OCL_REDUCE_OK);
  assert_int_equal(o.col_tall, 0);
  assert_int_equal(orx_parse_policy_override("col_tall=yes", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("col_finish=1", &o), OCL_REDUCE_OK);
  assert_int_equal(o.col_finish, 1);
  assert_int_equal(orx_parse_policy_override("col_finish=2", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  /* Threads' spin: the planner's 250 us unless forced, 0 included; groups' seams likewise. */
  assert_int_equal(orx_parse_policy_override("", &o), OCL_REDUCE_OK);
  assert_int_equal(orx_plan_spin_ns(&o), 250000);
  assert_int_equal(orx_group_seam_staged_bytes(&o), 1 << 20);
  assert_int_equal(orx_parse_policy_override("spin_us=0,seam_kib=4", &o), OCL_REDUCE_OK);
  assert_int_equal(orx_plan_spin_ns(&o), 0);
  assert_int_equal(orx_group_seam_staged_bytes(&o), 4096);
  assert_int_equal(orx_parse_policy_override("spin_us=40", &o), OCL_REDUCE_OK);
  assert_int_equal(orx_plan_spin_ns(&o), 40000);
  assert_int_equal(orx_parse_policy_override("spin_us=2000000", &o),
                   OCL_REDUCE_ERROR_INVALID_OPTION);
  /* Accumulators: the loads in flight unless forced fewer; state operators' vectors take fewer. */
  assert_int_equal(orx_parse_policy_override("unroll=4,chains=2", &o), OCL_REDUCE_OK);
  const orx_caps gpu = test_h200_cuda();
  orx_target t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  orx_plan plan;
  orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_CHAINS], plan.policy.unroll);
  r = orx_reduce_request(ORX_OP_MEAN_VAR, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_CHAINS], 1);
  r = orx_reduce_request(ORX_OP_ARGMIN, OCL_REDUCE_F32);
  t.forced = o;
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_CHAINS], 2);
  t.forced.chains = 8;
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_CHAINS], 4);
  /* Prefetching: ARGMIN on GPUs unless forced off; never for scalar operators. */
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_PREFETCH], 1);
  assert_int_equal(orx_parse_policy_override("prefetch=0", &t.forced), OCL_REDUCE_OK);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_PREFETCH], ORX_DEFINE_UNSET);
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_PREFETCH], ORX_DEFINE_UNSET);
  assert_int_equal(orx_parse_policy_override("prefetch=2", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  /* Whole-array grids on GPUs: ARGMIN/ARGMAX and the reproducible sum one wave of resident
   * groups (2 and 4 per compute unit), the sum the scalar policy's 8; forced groups win. */
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  const size_t sum_groups = plan.policy.max_groups;
  assert_int_equal(sum_groups, 8 * gpu.compute_units);
  r = orx_reduce_request(ORX_OP_ARGMAX, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.policy.max_groups, 2 * gpu.compute_units);
  /* ... and f32 ARGMIN/ARGMAX up to 2^22 elements one group per compute unit, f64 two. */
  assert_int_equal(orx_plan_groups(&plan, (size_t)1 << 22, 0), gpu.compute_units);
  assert_int_equal(orx_plan_groups(&plan, ((size_t)1 << 22) + 1, 0), 2 * gpu.compute_units);
  assert_int_equal(orx_plan_groups(&plan, 4096, 0), 1);
  r = orx_reduce_request(ORX_OP_ARGMIN, OCL_REDUCE_F64);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(orx_plan_groups(&plan, (size_t)1 << 22, 0), 2 * gpu.compute_units);
  /* ... the reproducible sum, f64 and f16 (read into f32) as f32, 2 per compute unit up to 2^22
   * elements. */
  static const ocl_reduce_type repro_types[] = {OCL_REDUCE_F64, OCL_REDUCE_F16, OCL_REDUCE_F32};
  for (size_t k = 0; k < sizeof repro_types / sizeof *repro_types; k++) {
    r = orx_reduce_request(ORX_OP_SUM_REPRODUCIBLE, repro_types[k]);
    orx_plan_make(&t, &r, &plan);
    assert_int_equal(plan.policy.max_groups, 4 * gpu.compute_units);
    assert_int_equal(orx_plan_groups(&plan, (size_t)1 << 22, 0), 2 * gpu.compute_units);
    assert_int_equal(orx_plan_groups(&plan, ((size_t)1 << 22) + 1, 0), 4 * gpu.compute_units);
  }
  /* ... whose f32 chains take 4-element vectors, 4 loads in flight (plan_state.c). */
  assert_int_equal(plan.policy.vec, 4);
  assert_int_equal(plan.policy.unroll, 4);
  /* MEAN_VAR and the multi-operator kernel (registers for three operators' chains): 4. */
  orx_request mean_var = orx_reduce_request(ORX_OP_MEAN_VAR, OCL_REDUCE_F64);
  orx_plan_make(&t, &mean_var, &plan);
  assert_int_equal(plan.policy.max_groups, 4 * gpu.compute_units);
  const orx_op_id multi_ops[] = {ORX_OP_SUM, ORX_OP_MIN, ORX_OP_MAX};
  orx_request multi;
  memset(&multi, 0, sizeof multi);
  multi.entry = ORX_ENTRY_MULTI;
  multi.type = OCL_REDUCE_F32;
  multi.ops = multi_ops;
  multi.op_count = 3;
  orx_plan_make(&t, &multi, &plan);
  assert_int_equal(plan.policy.max_groups, 4 * gpu.compute_units);
  assert_int_equal(plan.policy.unroll, 2);
  /* Fewer where more slots hold more registers: 3 per compute unit for 6 or 7 slots, 2 for 8,
   * but for f32 (whose slots stay under 64 registers). */
  const orx_op_id eight[] = {ORX_OP_SUM, ORX_OP_MIN, ORX_OP_MAX, ORX_OP_PROD,
                             ORX_OP_SUM, ORX_OP_MIN, ORX_OP_MAX, ORX_OP_PROD};
  orx_request many = multi;
  many.ops = eight;
  static const struct {
    ocl_reduce_type type;
    unsigned slots, per_unit;
  } resident[] = {{OCL_REDUCE_F64, 5, 4},
                  {OCL_REDUCE_F64, 6, 3},
                  {OCL_REDUCE_I32, 7, 3},
                  {OCL_REDUCE_U64, 8, 2},
                  {OCL_REDUCE_F32, 8, 4}};
  for (size_t k = 0; k < sizeof resident / sizeof resident[0]; k++) {
    many.type = resident[k].type;
    many.op_count = resident[k].slots;
    orx_plan_make(&t, &many, &plan);
    assert_int_equal(plan.policy.max_groups, resident[k].per_unit * gpu.compute_units);
  }
  assert_int_equal(orx_parse_policy_override("groups=1000", &t.forced), OCL_REDUCE_OK);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.policy.max_groups, 1000);
  orx_plan_make(&t, &mean_var, &plan);
  assert_int_equal(plan.policy.max_groups, 1000);
  orx_plan_make(&t, &multi, &plan);
  assert_int_equal(plan.policy.max_groups, 1000);
  orx_plan_make(&t, &many, &plan);
  assert_int_equal(plan.policy.max_groups, 1000);
  /* Multireduction lanes per segment, forced: a power of two up to a warp. */
  assert_int_equal(orx_parse_policy_override("seg=mr,width=1", &o), OCL_REDUCE_OK);
  assert_int_equal(o.seg_width, 1);
  assert_int_equal(orx_parse_policy_override("width=3", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("width=64", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
}

/* The plan of `count` equal-length segments of `length` for a request's operator and type,
 * the input `start` elements past a vector boundary. */
static orx_plan segment_plan(const orx_target *t, orx_request r, size_t count, uint64_t length,
                             uint64_t start) {
  r.entry = ORX_ENTRY_SEGMENTS;
  r.shape.count = count;
  r.shape.length = length;
  r.shape.elements = count * length;
  r.shape.elem = orx_request_element_bytes(&r);
  r.shape.start = start;
  orx_plan plan;
  orx_plan_make(t, &r, &plan);
  return plan;
}

/* The reproducible sum's work-groups combine as two reductions where subgroups shuffle; NVIDIA's
 * OpenCL (inline PTX, whose compiler takes more registers for it) for whole arrays only, planned
 * at 3 groups per SM rather than 4; never on the local path nor for other operators. */
static void test_repro_group_split_where_planned(void **state) {
  (void)state;
  orx_caps nv = test_gpu();
  nv.warp_size = 32; /* NVIDIA's OpenCL: inline PTX */
  const orx_caps cuda = test_h200_cuda();
  const orx_request repro = orx_reduce_request(ORX_OP_SUM_REPRODUCIBLE, OCL_REDUCE_F32);
  orx_plan plan;
  orx_target t = test_target(&nv, OCL_REDUCE_PATH_AUTO);
  orx_plan_make(&t, &repro, &plan);
  assert_int_equal(plan.policy.subgroup_impl, OCL_REDUCE_SUBGROUP_NV_PTX);
  assert_int_equal(plan.defines[ORX_DEFINE_STATE_GROUP_SPLIT], 1);
  assert_int_equal(plan.policy.max_groups, 3 * nv.compute_units);
  assert_int_equal(orx_plan_groups(&plan, (size_t)1 << 22, 0), 2 * nv.compute_units);
  plan = segment_plan(&t, repro, 100, 100000, 0);
  assert_int_equal(plan.defines[ORX_DEFINE_STATE_GROUP_SPLIT], ORX_DEFINE_UNSET);
  t = test_target(&nv, OCL_REDUCE_PATH_LOCAL);
  orx_plan_make(&t, &repro, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_STATE_GROUP_SPLIT], ORX_DEFINE_UNSET);
  assert_int_equal(plan.policy.max_groups, 4 * nv.compute_units);
  t = test_target(&cuda, OCL_REDUCE_PATH_AUTO);
  orx_plan_make(&t, &repro, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_STATE_GROUP_SPLIT], 1);
  assert_int_equal(plan.policy.max_groups, 4 * cuda.compute_units);
  plan = segment_plan(&t, repro, 100, 100000, 0);
  assert_int_equal(plan.defines[ORX_DEFINE_STATE_GROUP_SPLIT], 1);
  const orx_request sum = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan_make(&t, &sum, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_STATE_GROUP_SPLIT], ORX_DEFINE_UNSET);
}

/* A group's parts: contiguous, by the weights, none below the least part but the only one, the
 * devices with the smallest weights leaving first (the last of equals), zero weights never. */
static void test_group_parts_follow_weights_and_least_part(void **state) {
  (void)state;
  uint64_t parts[4];
  const double weights[4] = {1.0, 2.0, 1.0, 0.0};
  orx_plan_group_parts(weights, 4, 1000, 4, 0, parts);
  assert_true(parts[0] == 250 && parts[1] == 500 && parts[2] == 250 && parts[3] == 0);
  /* 1000 elements of 4 bytes, at least 1200 bytes a part: two parts; device 2 (weight 1, the last
   * of the two smallest) leaves first. */
  orx_plan_group_parts(weights, 4, 1000, 4, 1200, parts);
  assert_true(parts[0] == 333 && parts[1] == 667 && parts[2] == 0 && parts[3] == 0);
  /* Too little for any split: the largest weight takes it all, and no units at all stay there. */
  orx_plan_group_parts(weights, 4, 1000, 4, 4000, parts);
  assert_true(parts[0] == 0 && parts[1] == 1000 && parts[2] == 0 && parts[3] == 0);
  orx_plan_group_parts(weights, 4, 0, 4, 1, parts);
  assert_true(parts[0] + parts[1] + parts[2] + parts[3] == 0);
  /* Large counts: every unit placed, in order. */
  const double even[3] = {1.0, 1.0, 1.0};
  orx_plan_group_parts(even, 3, (uint64_t)1 << 40, 4, (uint64_t)64 << 20, parts);
  assert_true(parts[0] + parts[1] + parts[2] == (uint64_t)1 << 40);
  assert_true(parts[0] == ((uint64_t)1 << 40) / 3);
  /* The least part: 64 MiB, or part_kib KiB. */
  orx_policy_override forced;
  memset(&forced, 0, sizeof forced);
  assert_int_equal(orx_group_min_part_bytes(&forced), (uint64_t)64 << 20);
  forced.part_kib = 3;
  assert_int_equal(orx_group_min_part_bytes(&forced), 3072);
  assert_int_equal(orx_parse_policy_override("part_kib=5", &forced), OCL_REDUCE_OK);
  assert_int_equal(forced.part_kib, 5);
}

/* The plan of 2^26 elements in segments of `length` from element `start`: the multireduction,
 * capped through CUDA at `items` work-items per SM (0: no cap). */
static void expect_mr_cap(const orx_target *t, orx_request r, uint64_t length, uint64_t start,
                          int64_t items) {
  const orx_plan plan = segment_plan(t, r, ((uint64_t)1 << 26) / length, length, start);
  assert_int_equal(plan.seg.mode, ORX_SEG_MR);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU],
                   items ? items / plan.policy.wg_size : ORX_DEFINE_UNSET);
}

/* Through CUDA the equal-length multireduction caps its registers so that 1024 work-items fit an
 * SM, and 768 where a warp takes each segment set with at most 4 vector loads per lane and
 * segment (capped to 64 registers, that kernel spilled), MIN and MAX excepted; never with masked
 * loads or offsets, and never on OpenCL. */
static void test_multireduction_caps_registers_through_cuda(void **state) {
  (void)state;
  const orx_caps gpu = test_gpu(), cuda = test_h200_cuda();
  orx_target t = test_target(&cuda, OCL_REDUCE_PATH_AUTO);
  const orx_request sum = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  const struct {
    ocl_reduce_type type;
    uint64_t length, start;
    int64_t items; /* work-items per SM the cap keeps; 0: none */
  } cases[] = {
      {OCL_REDUCE_F32, 128, 0, 768},   {OCL_REDUCE_F32, 512, 0, 768},
      {OCL_REDUCE_F32, 1024, 0, 1024}, {OCL_REDUCE_F64, 256, 0, 768},
      {OCL_REDUCE_F64, 512, 0, 1024},  {OCL_REDUCE_F32, 512, 1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    orx_request r = sum;
    r.type = cases[i].type;
    /* MIN and MAX keep 1024 (f32's keys ran slower with 768). */
    expect_mr_cap(&t, orx_reduce_request(ORX_OP_MAX, cases[i].type), cases[i].length,
                  cases[i].start, cases[i].items ? 1024 : 0);
    expect_mr_cap(&t, r, cases[i].length, cases[i].start, cases[i].items);
  }
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  expect_mr_cap(&t, sum, 512, 0, 0);
}

/* ARGMIN, ARGMAX and MEAN_VAR, whose states a work-group combines at a cost, keep the
 * multireduction below 32 KiB a segment where sums, MINMAX and larger segments take a work-group
 * per segment, and through CUDA its cap of 512 work-items per SM, but ARGMIN and ARGMAX with up
 * to 2 vector loads per lane and segment (768). */
static void test_costly_states_keep_the_multireduction(void **state) {
  (void)state;
  const orx_caps gpu = test_gpu(), cuda = test_h200_cuda();
  orx_target t = test_target(&cuda, OCL_REDUCE_PATH_AUTO);
  const orx_request argmin = orx_reduce_request(ORX_OP_ARGMIN, OCL_REDUCE_F32);
  const orx_request others[] = {orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32),
                                orx_reduce_request(ORX_OP_MINMAX, OCL_REDUCE_F32)};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
    assert_int_equal(segment_plan(&t, others[i], 1 << 14, 4096, 0).seg.mode, ORX_SEG_GROUP);
  assert_int_equal(segment_plan(&t, argmin, 1 << 12, 16384, 0).seg.mode, ORX_SEG_GROUP);
  assert_int_equal(
      segment_plan(&t, orx_reduce_request(ORX_OP_ARGMIN, OCL_REDUCE_F64), 1 << 13, 4096, 0)
          .seg.mode,
      ORX_SEG_GROUP);
  const orx_request costly[] = {argmin, orx_reduce_request(ORX_OP_ARGMAX, OCL_REDUCE_F32),
                                orx_reduce_request(ORX_OP_MEAN_VAR, OCL_REDUCE_F32)};
  const struct {
    uint64_t length;
    int64_t items, arg_items; /* work-items per SM the cap keeps: MEAN_VAR, ARGMIN and ARGMAX */
  } cases[] = {{8, 512, 512},    {128, 512, 768},  {256, 512, 768}, {512, 512, 512},
               {1024, 512, 512}, {2048, 512, 512}, {4096, 512, 512}};
  for (size_t k = 0; k < sizeof costly / sizeof costly[0]; k++)
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
      expect_mr_cap(&t, costly[k], cases[i].length, 0,
                    costly[k].op.id == ORX_OP_MEAN_VAR ? cases[i].items : cases[i].arg_items);
  /* MINMAX keeps the others' cap. */
  expect_mr_cap(&t, orx_reduce_request(ORX_OP_MINMAX, OCL_REDUCE_F32), 1024, 0, 1024);
  /* OpenCL: the multireduction, no cap. */
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  expect_mr_cap(&t, argmin, 4096, 0, 0);
}

/* A work-group per f32 segment of MIN, MAX, ARGMIN, ARGMAX or MEAN_VAR has 128 work-items on
 * GPUs; sums, integers, f64 and forced sizes keep theirs. */
static void test_small_work_groups_per_segment(void **state) {
  (void)state;
  const orx_caps cuda = test_h200_cuda();
  orx_target t = test_target(&cuda, OCL_REDUCE_PATH_AUTO);
  const struct {
    unsigned op;
    ocl_reduce_type type;
    uint64_t length;
    unsigned wg;
  } cases[] = {
      {ORX_OP_MAX, OCL_REDUCE_F32, 4096, 128},       {ORX_OP_MIN, OCL_REDUCE_F32, 16384, 128},
      {ORX_OP_ARGMIN, OCL_REDUCE_F32, 8192, 128},    {ORX_OP_ARGMAX, OCL_REDUCE_F32, 8192, 128},
      {ORX_OP_MEAN_VAR, OCL_REDUCE_F32, 16384, 128}, {ORX_OP_SUM, OCL_REDUCE_F32, 4096, 256},
      {ORX_OP_MAX, OCL_REDUCE_I32, 4096, 256},       {ORX_OP_MAX, OCL_REDUCE_F64, 8192, 256},
      {ORX_OP_ARGMIN, OCL_REDUCE_F64, 8192, 256}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const orx_request r = orx_reduce_request((orx_op_id)cases[i].op, cases[i].type);
    const uint64_t count = ((uint64_t)1 << 28) / orx_type_size(cases[i].type) / cases[i].length;
    const orx_plan plan = segment_plan(&t, r, count, cases[i].length, 0);
    assert_int_equal(plan.seg.mode, ORX_SEG_GROUP);
    assert_int_equal(plan.policy.wg_size, cases[i].wg);
    assert_int_equal(plan.defines[ORX_DEFINE_WG_SIZE], cases[i].wg);
  }
  const orx_request max = orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_F32);
  t.forced.wg_size = 256;
  assert_int_equal(segment_plan(&t, max, 1 << 14, 4096, 0).policy.wg_size, 256);
}

/* A work-item per segment reduces runs of ORX_VEC whole-vector segments together where its
 * work-items take contiguous runs (CPUs), for scalar unordered operators, with a run for every
 * work-item: never for segments that are not whole vectors from a vector boundary, state
 * operators, strided streams or CUDA; a work-group then takes ORX_VEC times the segments. */
/* Rows apart (a pitch) compile the pitch in (ORX_SEG_PITCH) and never take what reads segments
 * as one span: a stage, runs of segments, vector loads that the pitch would misalign; rows back
 * to back (pitch 0 or the length) plan as before, without the define. */
static void test_rows_apart_take_a_pitch(void **state) {
  (void)state;
  const orx_caps cpu = test_cpu(), gpu = test_gpu();
  const orx_request sum = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  for (int d = 0; d < 2; d++) {
    orx_target t = test_target(d ? &gpu : &cpu, OCL_REDUCE_PATH_AUTO);
    for (int mode = -1; mode <= ORX_SEG_STAGED; mode++) {
      t.forced.seg_mode = mode;
      orx_request r = sum;
      r.shape.pitch = 48; /* 32-element rows, 48 apart: whole vectors, vector-aligned starts */
      orx_plan apart = segment_plan(&t, r, 1 << 20, 32, 0);
      r.shape.pitch = 32;
      const orx_plan back_to_back = segment_plan(&t, r, 1 << 20, 32, 0);
      assert_int_equal(apart.defines[ORX_DEFINE_SEG_PITCH], 1);
      assert_int_equal(back_to_back.defines[ORX_DEFINE_SEG_PITCH], ORX_DEFINE_UNSET);
      assert_true(apart.seg.mode != ORX_SEG_STAGED);
      assert_false(apart.seg.vector_runs);
      r.shape.pitch = 45; /* starts off vector boundaries: no whole-vector loads */
      apart = segment_plan(&t, r, 1 << 20, 32, 0);
      if (apart.seg.mode == ORX_SEG_MR)
        assert_true(apart.seg.load != ORX_SEG_VECTORS);
    }
    /* Unforced on the GPU, 32-element rows back to back are staged. */
    if (d) {
      t.forced.seg_mode = -1;
      assert_int_equal(segment_plan(&t, sum, 1 << 20, 32, 0).seg.mode, ORX_SEG_STAGED);
    }
  }
}

static void test_lane_mode_folds_runs_of_whole_vector_segments(void **state) {
  (void)state;
  const orx_caps cpu = test_cpu(), gpu = test_gpu(), cuda = test_h200_cuda();
  orx_target t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  const orx_request sum = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan plan = segment_plan(&t, sum, 1 << 20, 32, 0);
  assert_int_equal(plan.seg.mode, ORX_SEG_LANE);
  assert_true(plan.seg.vector_runs);
  assert_int_equal(plan.defines[ORX_DEFINE_SEG_VECTOR_RUNS], 1);
  const unsigned vec = plan.policy.vec;
  assert_true(vec > 1);
  const size_t runs_for_all = (size_t)plan.policy.max_groups * plan.policy.wg_size * vec;
  assert_int_equal(orx_segment_groups(&plan.policy, &plan.seg, (size_t)plan.policy.wg_size * vec,
                                      32),
                   1);
  plan = segment_plan(&t, orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_F64), 1 << 20, 64, 0);
  assert_true(plan.seg.vector_runs);
  /* Not whole vectors. */
  plan = segment_plan(&t, sum, 1 << 20, 33, 0);
  assert_int_equal(plan.seg.mode, ORX_SEG_LANE);
  assert_false(plan.seg.vector_runs);
  assert_int_equal(plan.defines[ORX_DEFINE_SEG_VECTOR_RUNS], ORX_DEFINE_UNSET);
  assert_int_equal(orx_segment_groups(&plan.policy, &plan.seg, plan.policy.wg_size, 33), 1);
  assert_int_equal(orx_segment_groups(&plan.policy, &plan.seg, (size_t)plan.policy.wg_size * vec,
                                      33),
                   vec);
  assert_false(segment_plan(&t, sum, 1 << 20, 0, 0).seg.vector_runs);
  /* From any start where the runs read one input's elements as they are (vloadN), so that host
   * memory viewed where it lies takes its staged copy's plan; 16-bit elements from a vector
   * boundary only. */
  assert_true(segment_plan(&t, sum, 1 << 20, 32, 1).seg.vector_runs);
  const orx_request bf16 = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_BF16);
  assert_true(segment_plan(&t, bf16, 1 << 20, 32, 0).seg.vector_runs);
  assert_false(segment_plan(&t, bf16, 1 << 20, 32, 1).seg.vector_runs);
  /* Fewer segments than a run for every work-item. */
  assert_true(segment_plan(&t, sum, runs_for_all, 32, 0).seg.vector_runs);
  assert_false(segment_plan(&t, sum, runs_for_all - 1, 32, 0).seg.vector_runs);
  /* State operators. */
  plan = segment_plan(&t, orx_reduce_request(ORX_OP_ARGMAX, OCL_REDUCE_F32), 1 << 20, 32, 0);
  assert_int_equal(plan.seg.mode, ORX_SEG_LANE);
  assert_false(plan.seg.vector_runs);
  /* Strided streams, and GPUs forced to a work-item per segment. */
  assert_int_equal(orx_parse_policy_override("stream=strided", &t.forced), OCL_REDUCE_OK);
  assert_false(segment_plan(&t, sum, 1 << 20, 32, 0).seg.vector_runs);
  for (int d = 0; d < 2; d++) {
    t = test_target(d ? &cuda : &gpu, OCL_REDUCE_PATH_AUTO);
    assert_int_equal(orx_parse_policy_override("seg=lane,stream=chunk", &t.forced),
                     OCL_REDUCE_OK);
    plan = segment_plan(&t, sum, 1 << 24, 32, 0);
    assert_int_equal(plan.seg.mode, ORX_SEG_LANE);
    assert_int_equal(plan.seg.vector_runs, !d);
  }
}

/* CPUs' vector runs narrow the policy's vectors to the widest whose ORX_VEC accumulators of
 * ORX_VEC elements fit in 8 of the device's vector registers (32 bytes where not known) and
 * that divide the segments' length, and to 4 elements for segments of 128 to 511 bytes but of
 * float MIN and MAX (keys) and 16-bit elements; ORX_VEC follows. A forced width stays, lengths
 * that no vector divides take no runs (their walk's vectors: the test below), and GPUs are left
 * alone. */
static void test_lane_runs_take_vectors_that_fit_registers_and_segments(void **state) {
  (void)state;
  orx_caps cpu = test_cpu();
  const orx_caps gpu = test_gpu();
  const orx_request f32 = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  const orx_request f64 = orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_F64);
  static const struct {
    unsigned native; /* bytes of a vector register; 0: not known */
    int f64;
    uint64_t length;
    unsigned vec; /* 0: no vector runs, the policy's vectors */
  } cases[] = {{0, 0, 32, 4},   {0, 0, 4, 4},   {0, 0, 2, 2},   {0, 0, 1000, 8}, {0, 0, 12, 4},
               {0, 0, 33, 0},   {0, 1, 32, 4},  {0, 1, 4, 4},   {32, 0, 64, 4},  {32, 1, 64, 4},
               {64, 0, 32, 4},  {64, 1, 32, 8}, {64, 1, 4, 4},  {64, 1, 6, 2},   {16, 0, 32, 4},
               {64, 0, 128, 8}, {0, 0, 128, 8}, {32, 0, 96, 4}, {64, 0, 120, 4}, {64, 0, 16, 8},
               {0, 0, 16, 8}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cpu.native_vector_bytes = cases[i].native;
    const orx_target t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
    const orx_request r = cases[i].f64 ? f64 : f32;
    const orx_plan plan = segment_plan(&t, r, 1 << 20, cases[i].length, 0);
    assert_int_equal(plan.seg.mode, ORX_SEG_LANE);
    assert_int_equal(plan.seg.vector_runs, cases[i].vec != 0);
    if (cases[i].vec) /* a walk's vectors: the test below */
      assert_int_equal(plan.policy.vec, cases[i].vec);
    assert_int_equal(plan.defines[ORX_DEFINE_VEC], plan.policy.vec);
  }
  /* Short segments of other operators and types: 4 elements; float MIN and MAX and 16-bit
   * elements keep the fit. */
  cpu.native_vector_bytes = 64;
  const orx_target wide = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  assert_int_equal(segment_plan(&wide, orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F64), 1 << 20,
                                32, 0).policy.vec, 4);
  assert_int_equal(segment_plan(&wide, orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_I64), 1 << 20,
                                32, 0).policy.vec, 4);
  assert_int_equal(segment_plan(&wide, orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_F32), 1 << 20,
                                32, 0).policy.vec, 8);
  assert_int_equal(segment_plan(&wide, orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_BF16), 1 << 20,
                                32, 0).policy.vec, 8);
  /* Forced: the width asked for, runs where it divides the length. */
  cpu.native_vector_bytes = 0;
  orx_target t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  assert_int_equal(orx_parse_policy_override("vec=16", &t.forced), OCL_REDUCE_OK);
  orx_plan plan = segment_plan(&t, f32, 1 << 20, 32, 0);
  assert_int_equal(plan.policy.vec, 16);
  assert_true(plan.seg.vector_runs);
  plan = segment_plan(&t, f32, 1 << 20, 4, 0);
  assert_int_equal(plan.policy.vec, 16);
  assert_false(plan.seg.vector_runs);
  /* A GPU forced to a work-item per segment in runs keeps its vectors. */
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  assert_int_equal(orx_parse_policy_override("seg=lane,stream=chunk", &t.forced), OCL_REDUCE_OK);
  plan = segment_plan(&t, f32, 1 << 24, 4, 0);
  assert_int_equal(plan.policy.vec, 4);
  assert_true(plan.seg.vector_runs);
}

/* A walk per segment on CPUs (no runs: lengths no vector divides, state operators, segments by
 * offsets) takes work-groups of 8 (Intel's CPU runtime ran groups of 16 up to 6.6x slower) and,
 * for scalar unordered operators of one input, vectors of at most a 32nd of a segment's bytes
 * (the average's by offsets) and at least 16 bytes; runs keep the policy's 16 work-items, forced
 * sizes and widths stay, and GPUs forced to a work-item per segment keep theirs. */
static void test_lane_walk_takes_groups_of_8_and_short_vectors_on_cpus(void **state) {
  (void)state;
  const orx_caps cpu = test_cpu(), gpu = test_gpu();
  orx_target t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  const orx_request sum = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_I32);
  const orx_request f64 = orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_F64);
  const orx_request argmin = orx_reduce_request(ORX_OP_ARGMIN, OCL_REDUCE_F32);
  orx_request by_offsets = sum;
  by_offsets.shape.offsets = 1;
  const unsigned argmin_vec = segment_plan(&t, argmin, 1 << 20, 1001, 0).policy.vec;
  const struct {
    orx_request r;
    uint64_t length;
    unsigned wg, vec;
  } cases[] = {{sum, 17, 8, 4},        {sum, 33, 8, 4},     {sum, 255, 8, 4},
               {sum, 257, 8, 8},       {sum, 513, 8, 16},   {sum, 1001, 8, 16},
               {f64, 33, 8, 2},        {f64, 129, 8, 4},    {f64, 1001, 8, 8},
               {by_offsets, 33, 8, 4}, {argmin, 33, 8, argmin_vec},
               {sum, 32, 16, 4}}; /* runs */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const orx_plan plan = segment_plan(&t, cases[i].r, 1 << 20, cases[i].length, 0);
    assert_int_equal(plan.seg.mode, ORX_SEG_LANE);
    assert_int_equal(plan.seg.vector_runs, cases[i].wg == 16);
    assert_int_equal(plan.policy.wg_size, cases[i].wg);
    assert_int_equal(plan.defines[ORX_DEFINE_WG_SIZE], cases[i].wg);
    assert_int_equal(plan.policy.vec, cases[i].vec);
    assert_int_equal(plan.defines[ORX_DEFINE_VEC], cases[i].vec);
  }
  assert_int_equal(orx_parse_policy_override("wg=16,vec=16", &t.forced), OCL_REDUCE_OK);
  const orx_plan forced = segment_plan(&t, sum, 1 << 20, 33, 0);
  assert_int_equal(forced.policy.wg_size, 16);
  assert_int_equal(forced.policy.vec, 16);
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  assert_int_equal(orx_parse_policy_override("seg=lane", &t.forced), OCL_REDUCE_OK);
  const orx_plan plan = segment_plan(&t, sum, 1 << 24, 33, 0);
  assert_int_equal(plan.seg.mode, ORX_SEG_LANE);
  assert_int_equal(plan.policy.wg_size, 256);
  assert_int_equal(plan.policy.vec, 4);
}

/* f16 and bf16 MIN and MAX through CUDA: 4 groups per SM, capped for them, and a grid of 4 per
 * SM (the f32 cap spilled their vectors); f32's stay at 8, 16-bit sums uncapped, forced fields
 * win, and other devices are not capped. */
/* A pair operator's request: SUM of its values reading two inputs `skew` elements apart. */
static orx_request pair_request(int pair, ocl_reduce_type type, unsigned skew) {
  orx_request r = orx_reduce_request(ORX_OP_SUM, orx_pair_value_type(pair, type));
  r.pair = (orx_pair_request){1, pair, type, skew};
  return r;
}

/* The host plan reads its run as ORX_UNROLL runs side by side (host_plan.h), but for MINMAX's
 * one-element loop, state operators and pair operators, which keep one run; a forced
 * stream=runs is a named layout. */
static void test_host_plan_streams_runs_side_by_side(void **state) {
  (void)state;
  orx_caps cpu = test_cpu();
  orx_target t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  const struct {
    unsigned op;
    ocl_reduce_type type;
    int stream;
  } cases[] = {{ORX_OP_SUM, OCL_REDUCE_F32, ORX_STREAM_RUNS},
               {ORX_OP_MAX, OCL_REDUCE_F64, ORX_STREAM_RUNS},
               {ORX_OP_PROD, OCL_REDUCE_I64, ORX_STREAM_RUNS},
               {ORX_OP_ARGMIN, OCL_REDUCE_F32, ORX_STREAM_CHUNK},
               {ORX_OP_MEAN_VAR, OCL_REDUCE_F64, ORX_STREAM_CHUNK},
               {ORX_OP_MINMAX, OCL_REDUCE_I32, ORX_STREAM_CHUNK}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    orx_request r = orx_reduce_request(cases[i].op, cases[i].type);
    r.host = 1;
    orx_plan plan;
    orx_plan_make(&t, &r, &plan);
    assert_int_equal(plan.policy.stream, cases[i].stream);
    assert_int_equal(plan.defines[ORX_DEFINE_STREAM], cases[i].stream);
    r.host = 0;
    orx_plan_make(&t, &r, &plan);
    assert_int_equal(plan.policy.stream, ORX_STREAM_CHUNK);
  }
  orx_request pairs = pair_request(ORX_PAIR_DOT, OCL_REDUCE_F32, 0);
  pairs.host = 1;
  orx_plan plan;
  orx_plan_make(&t, &pairs, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_STREAM], ORX_STREAM_CHUNK);
  orx_policy_override o;
  assert_int_equal(orx_parse_policy_override("stream=runs", &o), OCL_REDUCE_OK);
  assert_int_equal(o.stream, ORX_STREAM_RUNS);
  assert_string_equal(orx_stream_name(ORX_STREAM_RUNS), "runs");
}

/* Pairs (plan_pairs.c): the values' SUM plan with both inputs' defines; vectors no wider than
 * divides the skew (even where forced); on GPUs, whole arrays twice the loads in the chains of
 * one, unless forced; segments and CPUs keep the sum's loads. */
static void test_pairs_plan_vectors_loads_and_defines(void **state) {
  (void)state;
  const orx_caps cuda = test_h200_cuda(), cpu = test_cpu();
  orx_target t = test_target(&cuda, OCL_REDUCE_PATH_AUTO);
  orx_plan plan, sum;
  orx_request r = pair_request(ORX_PAIR_DOT, OCL_REDUCE_F32, 0);
  const orx_request plain = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  orx_plan_make(&t, &plain, &sum);
  assert_int_equal(plan.defines[ORX_DEFINE_PAIR_OP], ORX_PAIR_DOT);
  assert_int_equal(plan.defines[ORX_DEFINE_PAIR_TYPE_ID], OCL_REDUCE_F32);
  assert_int_equal(sum.defines[ORX_DEFINE_PAIR_OP], ORX_DEFINE_UNSET);
  assert_int_equal(plan.policy.vec, sum.policy.vec);
  assert_int_equal(plan.policy.unroll, 2 * sum.policy.unroll);
  assert_int_equal(orx_policy_chains(&plan.policy), sum.policy.unroll);
  for (unsigned skew = 1; skew < ORX_PAIR_SKEW_SPAN; skew++) {
    r.pair.skew = skew;
    orx_plan_make(&t, &r, &plan);
    assert_int_equal(skew % plan.policy.vec, 0);
    assert_true(plan.policy.vec * 2 > sum.policy.vec || skew % (plan.policy.vec * 2) != 0);
  }
  /* CUDA's segment multireduction: 512 work-items per SM for pairs (plan_pairs.c), the
   * single input's 1024 or 768 else; unless forced. */
  for (uint64_t length = 128; length <= 4096; length *= 2) {
    orx_request seg = pair_request(ORX_PAIR_DOT, OCL_REDUCE_F32, 0), one = plain;
    seg.entry = one.entry = ORX_ENTRY_SEGMENTS;
    seg.shape.length = one.shape.length = length;
    seg.shape.count = one.shape.count = ((uint64_t)1 << 28) / length;
    seg.shape.elements = one.shape.elements = seg.shape.count * length;
    seg.shape.elem = one.shape.elem = 4;
    orx_plan_make(&t, &seg, &plan);
    orx_plan_make(&t, &one, &sum);
    assert_int_equal(plan.kernel, ORX_KERNEL_SEGMENTS_MR);
    assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU] * plan.policy.wg_size, 512);
    assert_true(sum.defines[ORX_DEFINE_MIN_GROUPS_PER_CU] * sum.policy.wg_size >= 768);
    orx_target forced = t;
    assert_int_equal(orx_parse_policy_override("min_groups=3", &forced.forced), OCL_REDUCE_OK);
    orx_plan_make(&forced, &seg, &plan);
    assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], 3);
    /* NVIDIA's OpenCL (warps, no CUDA cap): work-groups of 128 for pairs, unless forced. */
    orx_caps nv_caps = cuda;
    nv_caps.has_cuda_shuffle = 0;
    nv_caps.device_sync = test_gpu().device_sync;
    const orx_target nv = test_target(&nv_caps, OCL_REDUCE_PATH_AUTO);
    orx_plan_make(&nv, &seg, &plan);
    orx_plan_make(&nv, &one, &sum);
    assert_int_equal(plan.kernel, ORX_KERNEL_SEGMENTS_MR);
    assert_int_equal(plan.policy.wg_size, 128);
    assert_true(sum.policy.wg_size > 128);
    assert_int_equal(plan.defines[ORX_DEFINE_WG_SIZE], 128);
  }
  r = pair_request(ORX_PAIR_COUNT_EQUAL, OCL_REDUCE_F16, 2);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.type, OCL_REDUCE_U64);
  assert_int_equal(plan.element_bytes, 2);
  assert_int_equal(plan.policy.vec, 2);
  assert_int_equal(orx_parse_policy_override("vec=4,unroll=3", &t.forced), OCL_REDUCE_OK);
  r = pair_request(ORX_PAIR_DOT, OCL_REDUCE_F32, 2);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.policy.vec, 2);
  assert_int_equal(plan.policy.unroll, 3);
  t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  r.pair.skew = 0;
  orx_request plain_cpu = plain;
  orx_plan_make(&t, &r, &plan);
  orx_plan_make(&t, &plain_cpu, &sum);
  assert_int_equal(plan.policy.unroll, sum.policy.unroll);
}

static void test_narrow_min_and_max_take_four_groups_per_sm(void **state) {
  (void)state;
  const orx_caps gpu = test_gpu(), cuda = test_h200_cuda();
  orx_target t = test_target(&cuda, OCL_REDUCE_PATH_AUTO);
  orx_plan plan;
  for (ocl_reduce_type type = OCL_REDUCE_F16; type <= OCL_REDUCE_BF16; type++) {
    for (int k = 0; k < 2; k++) {
      orx_request r = orx_reduce_request(k ? ORX_OP_MAX : ORX_OP_MIN, type);
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], 4);
      assert_int_equal(plan.policy.max_groups, 4 * cuda.compute_units);
      assert_int_equal(plan.defines[ORX_DEFINE_ELEM_TYPE_ID], type);
    }
    orx_request r = orx_reduce_request(ORX_OP_SUM, type);
    orx_plan_make(&t, &r, &plan);
    assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], ORX_DEFINE_UNSET);
    assert_int_equal(plan.policy.max_groups, 8 * cuda.compute_units);
  }
  orx_request r = orx_reduce_request(ORX_OP_MIN, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], 8);
  assert_int_equal(plan.policy.max_groups, 8 * cuda.compute_units);
  r = orx_reduce_request(ORX_OP_MIN, OCL_REDUCE_BF16); /* the host plan keeps its own groups */
  r.host = 1;
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], ORX_DEFINE_UNSET);
  assert_int_equal(plan.policy.max_groups, ORX_HOST_PLAN_MAX_GROUPS);
  assert_int_equal(orx_parse_policy_override("groups=100", &t.forced), OCL_REDUCE_OK);
  r = orx_reduce_request(ORX_OP_MIN, OCL_REDUCE_F16);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], 4);
  assert_int_equal(plan.policy.max_groups, 100);
  assert_int_equal(orx_parse_policy_override("min_groups=2", &t.forced), OCL_REDUCE_OK);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], 2);
  assert_int_equal(plan.policy.max_groups, 8 * cuda.compute_units);
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], ORX_DEFINE_UNSET);
  assert_int_equal(plan.policy.max_groups, 8 * gpu.compute_units);
}

/* Vectors of 16-bit elements, single inputs and pairs' sides: split on CPU devices (bf16 only
 * where work-items do not run in turn, as PoCL's do), one load of their lanes on GPUs
 * (plan_narrow.c); narrow=lanes|split forces either; other types and host plans unmarked. */
static void test_narrow_vectors_split_on_cpu_devices(void **state) {
  (void)state;
  orx_caps in_turn = test_cpu();
  in_turn.work_items_in_turn = 1;
  const orx_caps devices[] = {test_cpu(), in_turn, test_gpu()};
  orx_plan plan;
  for (int device = 0; device < 3; device++) {
    orx_target t = test_target(&devices[device], OCL_REDUCE_PATH_AUTO);
    for (ocl_reduce_type type = OCL_REDUCE_F16; type <= OCL_REDUCE_BF16; type++) {
      const int split = device == 0 || (device == 1 && type == OCL_REDUCE_F16);
      orx_request r = orx_reduce_request(ORX_OP_SUM, type);
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_NARROW_SPLIT], split);
      r = pair_request(ORX_PAIR_DOT, type, 0);
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_NARROW_SPLIT], split);
      r = orx_reduce_request(ORX_OP_SUM, type);
      r.host = 1;
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_NARROW_SPLIT], ORX_DEFINE_UNSET);
    }
    orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
    orx_plan_make(&t, &r, &plan);
    assert_int_equal(plan.defines[ORX_DEFINE_NARROW_SPLIT], ORX_DEFINE_UNSET);
    for (int forced = 0; forced < 2; forced++) {
      assert_int_equal(orx_parse_policy_override(forced ? "narrow=split" : "narrow=lanes",
                                                 &t.forced),
                       OCL_REDUCE_OK);
      r = orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_BF16);
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_NARROW_SPLIT], forced);
    }
  }
  orx_policy_override o;
  assert_int_equal(orx_parse_policy_override("narrow=1", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
}

/* 16-bit elements read 16 bytes a load on OpenCL GPUs with the built-in scalar operators, in
 * the stages that read elements (plan_narrow.c); CUDA, CPU devices, state operators, the
 * partials' stage and a forced vec keep the f32 policy's vector; a forced vec above 4 is
 * ignored through CUDA. */
static void test_narrow_loads_take_16_bytes_on_opencl_gpus(void **state) {
  (void)state;
  const orx_caps gpu = test_gpu(), cuda = test_h200_cuda(), cpu = test_cpu();
  const orx_target on_gpu = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  const orx_target on_cuda = test_target(&cuda, OCL_REDUCE_PATH_AUTO);
  const orx_target on_cpu = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  const orx_op_id scalar[] = {ORX_OP_SUM, ORX_OP_PROD, ORX_OP_MIN, ORX_OP_MAX};
  orx_plan plan, f32;
  for (ocl_reduce_type type = OCL_REDUCE_F16; type <= OCL_REDUCE_BF16; type++) {
    for (size_t k = 0; k < sizeof scalar / sizeof scalar[0]; k++) {
      orx_request r = orx_reduce_request(scalar[k], type);
      orx_plan_make(&on_gpu, &r, &plan);
      assert_int_equal(plan.policy.vec, 8);
      assert_int_equal(plan.defines[ORX_DEFINE_VEC], 8);
      assert_int_equal(plan.policy.items_per_group,
                       (size_t)plan.policy.wg_size * 8 * plan.policy.unroll);
      orx_request same_f32 = orx_reduce_request(scalar[k], OCL_REDUCE_F32);
      orx_plan_make(&on_cuda, &r, &plan);
      orx_plan_make(&on_cuda, &same_f32, &f32);
      assert_int_equal(plan.policy.vec, f32.policy.vec);
      orx_plan_make(&on_cpu, &r, &plan);
      orx_plan_make(&on_cpu, &same_f32, &f32);
      assert_int_equal(plan.policy.vec, f32.policy.vec);
      orx_request partials = r; /* reads f32 states */
      partials.stage = ORX_STAGE_FINAL;
      orx_plan_make(&on_gpu, &partials, &plan);
      assert_int_equal(plan.policy.vec, 4);
    }
    orx_request r = orx_reduce_request(ORX_OP_ARGMIN, type);
    orx_plan_make(&on_gpu, &r, &plan);
    assert_true(plan.policy.vec < 8);
    orx_target forced = on_gpu;
    assert_int_equal(orx_parse_policy_override("vec=2", &forced.forced), OCL_REDUCE_OK);
    r = orx_reduce_request(ORX_OP_SUM, type);
    orx_plan_make(&forced, &r, &plan);
    assert_int_equal(plan.policy.vec, 2);
  }
  orx_target cuda_forced = on_cuda; /* CUDA's vectors have 4 components at most */
  assert_int_equal(orx_parse_policy_override("vec=8", &cuda_forced.forced), OCL_REDUCE_OK);
  orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F16);
  orx_plan_make(&cuda_forced, &r, &plan);
  assert_int_equal(plan.policy.vec, 4);
  /* ... and 16 bytes: a forced vec=4 on 8-byte types keeps the planner's (the prelude has no
   * double4 loads), where 4-byte types take it. */
  assert_int_equal(orx_parse_policy_override("vec=4", &cuda_forced.forced), OCL_REDUCE_OK);
  for (ocl_reduce_type type = OCL_REDUCE_I32; type <= OCL_REDUCE_F64; type++) {
    r = orx_reduce_request(ORX_OP_SUM, type);
    orx_plan_make(&cuda_forced, &r, &plan);
    if (ocl_reduce_type_size(type) == 8)
      assert_true(plan.policy.vec <= 2);
    else
      assert_int_equal(plan.policy.vec, 4);
  }
}

/* Float MIN and MAX as keys: whole vectors on CPUs, a key per component on GPUs, none for f64
 * through CUDA; through CUDA, 4-byte MIN and MAX cap registers for 8 groups per SM, sums and f64
 * never; a second launch finishes only where forced, and only scalar operators; every device
 * blocks in its wait unless polling is forced; and the fields parse. */
static void test_keys_register_caps_and_waits(void **state) {
  (void)state;
  const orx_caps cpu = test_cpu(), gpu = test_gpu(), cuda = test_h200_cuda();
  orx_target t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  orx_plan plan;
  orx_request r = orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_FLOAT_KEYS], 2);
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_FLOAT_KEYS], 1);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], ORX_DEFINE_UNSET);
  t = test_target(&cuda, OCL_REDUCE_PATH_AUTO);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_FLOAT_KEYS], 1);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], 8);
  r = orx_reduce_request(ORX_OP_MIN, OCL_REDUCE_I32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_FLOAT_KEYS], ORX_DEFINE_UNSET);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], 8);
  r = orx_reduce_request(ORX_OP_MIN, OCL_REDUCE_F64);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_FLOAT_KEYS], ORX_DEFINE_UNSET);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], ORX_DEFINE_UNSET);
  r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_FLOAT_KEYS], ORX_DEFINE_UNSET);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], ORX_DEFINE_UNSET);
  /* Forced: floats without keys are never capped (their compares spill). */
  assert_int_equal(orx_parse_policy_override("keys=0", &t.forced), OCL_REDUCE_OK);
  r = orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_FLOAT_KEYS], ORX_DEFINE_UNSET);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], ORX_DEFINE_UNSET);
  assert_int_equal(orx_parse_policy_override("keys=2,min_groups=32", &t.forced), OCL_REDUCE_OK);
  orx_plan_make(&t, &r, &plan);
  assert_int_equal(plan.defines[ORX_DEFINE_FLOAT_KEYS], 2);
  assert_int_equal(plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU], 2048 / plan.policy.wg_size);
  assert_int_equal(orx_parse_policy_override("keys=3", &t.forced), OCL_REDUCE_ERROR_INVALID_OPTION);
  assert_int_equal(orx_parse_policy_override("min_groups=0", &t.forced),
                   OCL_REDUCE_ERROR_INVALID_OPTION);
  /* The last group finishes, ordered by the device's atomics, unless a second launch is forced
   * (any operator); a device without ordering between work-groups always finishes by launch. */
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_false(orx_plan_finish_launch(&plan, 256));
  assert_int_equal(plan.defines[ORX_DEFINE_SYNC], ORX_SYNC_CL_ATOMICS);
  assert_int_equal(orx_parse_policy_override("finish=launch", &t.forced), OCL_REDUCE_OK);
  orx_plan_make(&t, &r, &plan);
  assert_true(orx_plan_finish_launch(&plan, 256));
  assert_false(orx_plan_finish_launch(&plan, 1));
  assert_int_equal(plan.defines[ORX_DEFINE_SYNC], ORX_DEFINE_UNSET);
  r = orx_reduce_request(ORX_OP_MEAN_VAR, OCL_REDUCE_F32);
  orx_plan_make(&t, &r, &plan);
  assert_true(orx_plan_finish_launch(&plan, 256));
  orx_caps old_gpu = test_gpu();
  old_gpu.device_sync = ORX_SYNC_NONE; /* OpenCL 1.2 */
  t = test_target(&old_gpu, OCL_REDUCE_PATH_AUTO);
  const orx_op_id each[] = {ORX_OP_SUM, ORX_OP_MEAN_VAR, ORX_OP_SUM_REPRODUCIBLE};
  for (size_t i = 0; i < ORX_ARRAY_SIZE(each); i++) {
    r = orx_reduce_request(each[i], OCL_REDUCE_F32);
    orx_plan_make(&t, &r, &plan);
    assert_true(orx_plan_finish_launch(&plan, 256));
  }
  assert_int_equal(orx_parse_policy_override("finish=group", &t.forced), OCL_REDUCE_OK);
  orx_plan_make(&t, &r, &plan);
  assert_true(orx_plan_finish_launch(&plan, 256)); /* never the unordered last group */
  old_gpu.device_sync = ORX_SYNC_CL_ATOMICS;
  t = test_target(&old_gpu, OCL_REDUCE_PATH_AUTO);
  orx_plan_make(&t, &r, &plan);
  assert_false(orx_plan_finish_launch(&plan, 256));
  assert_int_equal(plan.defines[ORX_DEFINE_SYNC], ORX_SYNC_CL_ATOMICS);
  orx_policy_override o;
  assert_int_equal(orx_parse_policy_override(NULL, &o), OCL_REDUCE_OK);
  assert_int_equal(orx_plan_wait_polls(&gpu, &o), 0);
  assert_int_equal(orx_plan_wait_polls(&cpu, &o), 0);
  assert_int_equal(orx_parse_policy_override("wait=poll", &o), OCL_REDUCE_OK);
  assert_int_equal(orx_plan_wait_polls(&gpu, &o), 1);
  assert_int_equal(orx_parse_policy_override("wait=spin", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
  /* The program cache keeps binaries, but PoCL's with its own kernel cache on; binaries= forces. */
  orx_caps pocl = cpu;
  pocl.keeps_own_kernel_cache = 1;
  assert_int_equal(orx_parse_policy_override(NULL, &o), OCL_REDUCE_OK);
  assert_int_equal(orx_plan_caches_binaries(&gpu, &o), 1);
  assert_int_equal(orx_plan_caches_binaries(&cpu, &o), 1);
  assert_int_equal(orx_plan_caches_binaries(&pocl, &o), 0);
  assert_int_equal(orx_parse_policy_override("binaries=1", &o), OCL_REDUCE_OK);
  assert_int_equal(orx_plan_caches_binaries(&pocl, &o), 1);
  assert_int_equal(orx_parse_policy_override("binaries=0", &o), OCL_REDUCE_OK);
  assert_int_equal(orx_plan_caches_binaries(&gpu, &o), 0);
  assert_int_equal(orx_parse_policy_override("binaries=2", &o), OCL_REDUCE_ERROR_INVALID_OPTION);
}

static void test_device_selector(void **state) {
  (void)state;
  const orx_device_entry list[] = {
      {0, 0, "Portable Computing Language", "pthread-haswell", OCL_REDUCE_DEVICE_CPU},
      {1, 0, "Intel(R) OpenCL", "Intel CPU", OCL_REDUCE_DEVICE_CPU},
      {2, 0, "NVIDIA CUDA", "NVIDIA H200", OCL_REDUCE_DEVICE_GPU},
      {2, 1, "NVIDIA CUDA", "NVIDIA H100", OCL_REDUCE_DEVICE_GPU},
  };
  size_t index = 99;
  assert_int_equal(orx_pick_device(NULL, list, 4, NULL, &index), OCL_REDUCE_OK);
  assert_int_equal(index, 2); /* the first GPU */
  assert_int_equal(orx_pick_device(NULL, list, 2, "", &index), OCL_REDUCE_OK);
  assert_int_equal(index, 0); /* no GPU: the first device */
  assert_int_equal(orx_pick_device(NULL, list, 4, "2:1", &index), OCL_REDUCE_OK);
  assert_int_equal(index, 3);
  assert_int_equal(orx_pick_device(NULL, list, 4, "portable", &index), OCL_REDUCE_OK);
  assert_int_equal(index, 0);
  assert_int_equal(orx_pick_device(NULL, list, 4, "h100", &index), OCL_REDUCE_OK);
  assert_int_equal(index, 3);
  assert_int_equal(orx_pick_device(NULL, list, 4, "3:0", &index), OCL_REDUCE_ERROR_NO_DEVICE);
  assert_non_null(strstr(ocl_reduce_last_error(NULL), "2:1  NVIDIA CUDA / NVIDIA H100"));
  assert_int_equal(orx_pick_device(NULL, list, 4, "radeon", &index), OCL_REDUCE_ERROR_NO_DEVICE);
  assert_int_equal(orx_pick_device(NULL, list, 0, NULL, &index), OCL_REDUCE_ERROR_NO_DEVICE);
  /* Short names: a vendor by its platform only ("intel" is in PoCL's device name here too). */
  static const struct {
    const char *selector;
    size_t index;
  } short_names[] = {{"pocl", 0}, {"PoCL", 0}, {"intel", 1}, {"nvidia", 2},
                     {"cuda", 2}, {"cpu", 0}, {"GPU", 2}};
  for (size_t i = 0; i < sizeof short_names / sizeof short_names[0]; i++) {
    index = 99;
    assert_int_equal(orx_pick_device(NULL, list, 4, short_names[i].selector, &index),
                     OCL_REDUCE_OK);
    assert_int_equal(index, short_names[i].index);
  }
  assert_int_equal(orx_pick_device(NULL, list, 4, "accelerator", &index),
                   OCL_REDUCE_ERROR_NO_DEVICE);
  assert_int_equal(orx_pick_device(NULL, list, 4, "amd", &index), OCL_REDUCE_ERROR_NO_DEVICE);
  /* CUDA's own list names its platform "CUDA". */
  const orx_device_entry cuda[] = {{0, 0, "CUDA", "NVIDIA H200", OCL_REDUCE_DEVICE_GPU}};
  assert_int_equal(orx_pick_device(NULL, cuda, 1, "nvidia", &index), OCL_REDUCE_OK);
  assert_int_equal(orx_pick_device(NULL, cuda, 1, "intel", &index), OCL_REDUCE_ERROR_NO_DEVICE);
}

static void test_identities_and_compute_types(void **state) {
  (void)state;
  assert_true(orx_identity_bits(ORX_OP_MIN, OCL_REDUCE_F32) == 0x7f800000u);
  assert_true(orx_identity_bits(ORX_OP_MAX, OCL_REDUCE_F64) == 0xfff0000000000000u);
  assert_true(orx_identity_bits(ORX_OP_MIN, OCL_REDUCE_I32) == 0x7fffffffu);
  assert_true(orx_identity_bits(ORX_OP_MAX, OCL_REDUCE_I64) == 0x8000000000000000u);
  assert_true(orx_identity_bits(ORX_OP_AND, OCL_REDUCE_U32) == 0xffffffffu);
  assert_true(orx_identity_bits(ORX_OP_PROD, OCL_REDUCE_F32) == 0x3f800000u);
  assert_int_equal(orx_compute_type(ORX_OP_SUM, OCL_REDUCE_I32), OCL_REDUCE_U32);
  assert_int_equal(orx_compute_type(ORX_OP_PROD, OCL_REDUCE_I64), OCL_REDUCE_U64);
  assert_int_equal(orx_compute_type(ORX_OP_MIN, OCL_REDUCE_I32), OCL_REDUCE_I32);
  assert_int_equal(orx_compute_type(ORX_OP_SUM, OCL_REDUCE_F32), OCL_REDUCE_F32);
}

/* ---- The contract and the plans -------------------------------------------------------- */

/* Synthetic devices of every kind the planner tells apart. */
static size_t synthetic_devices(orx_caps *out) {
  size_t n = 0;
  out[n++] = test_gpu(); /* a GPU without subgroups: the local path */
  orx_caps c = test_gpu();
  c.has_khr_subgroups = 1; /* AMD: sub_group_reduce built-ins only */
  out[n++] = c;
  c = test_gpu();
  c.warp_size = 32; /* NVIDIA's OpenCL: inline PTX */
  c.device_sync = ORX_SYNC_PTX;
  out[n++] = c;
  out[n++] = test_h200_cuda(); /* the CUDA backend */
  c = test_cpu();
  c.has_khr_subgroups = c.has_khr_shuffle = c.has_intel_subgroups = 1; /* Intel's CPU runtime */
  out[n++] = c;
  c = test_cpu();
  c.has_khr_subgroups = c.emulated_subgroups = c.work_items_in_turn = 1; /* PoCL's CPU device */
  out[n++] = c;
  return n;
}

static orx_plan column_plan(const orx_target *t, ocl_reduce_type type, uint64_t rows,
                            uint64_t columns);

/* Checks one plan's generated block: every define in it is listed by the contract
 * (ORX_HOST_DEFINES), has its default there (#ifndef NAME / #define NAME), and comes once. */
static void check_defines(const orx_plan *plan, const char *contract, const char *prelude,
                          int *checked) {
  orx_program_text text;
  if (orx_program_text_of(NULL, plan, prelude, &text) != OCL_REDUCE_OK)
    fail_msg("program text of %s: %s", orx_kernel_file(plan->kernel), ocl_reduce_last_error(NULL));
  char seen[ORX_DEFINE_COUNT][64];
  size_t seen_count = 0;
  for (const char *line = text.defines; (line = strstr(line, "#define ")) != NULL; line++) {
    char name[64];
    if (sscanf(line + 8, "%63s", name) != 1)
      fail_msg("unreadable define in\n%s", text.defines);
    /* A define of the contract's, or a user operator's name for one of its ORX_HOST_NAMES. */
    static const char *const host_names[] = {
#define ORX_HOST_NAME(c, NAME) "ORX_" #NAME,
        ORX_HOST_NAMES(ORX_HOST_NAME, )
#undef ORX_HOST_NAME
    };
    int listed = 0;
    for (int d = 0; d < ORX_DEFINE_COUNT; d++)
      listed |= strcmp(orx_define_name((orx_define)d), name) == 0;
    for (size_t d = 0; d < sizeof host_names / sizeof host_names[0]; d++)
      listed |= strcmp(host_names[d], name) == 0;
    if (!listed)
      fail_msg("the host emits %s, which the contract does not list:\n%s", name, text.defines);
    char pattern[160];
    snprintf(pattern, sizeof pattern, "#ifndef %s\n#define %s ", name, name);
    if (!strstr(contract, pattern))
      fail_msg("the contract has no default for %s", name);
    for (size_t i = 0; i < seen_count; i++)
      if (strcmp(seen[i], name) == 0)
        fail_msg("%s emitted twice:\n%s", name, text.defines);
    snprintf(seen[seen_count++], sizeof seen[0], "%s", name);
  }
  orx_program_text_free(&text);
  (*checked)++;
}

/* The contract's text, which every generated block is checked against (free *holder after). */
static const char *contract_text(char **holder) {
  orx_source contract;
  assert_int_equal(orx_source_get(NULL, "orx_contract.h", &contract, holder), OCL_REDUCE_OK);
  return contract.text;
}

static void test_every_define_a_plan_emits_is_in_the_contract_with_a_default(void **state) {
  (void)state;
  char *holder = NULL;
  const char *contract = contract_text(&holder);
  orx_caps devices[8];
  const size_t device_count = synthetic_devices(devices);
  static const ocl_reduce_path paths[] = {OCL_REDUCE_PATH_AUTO, OCL_REDUCE_PATH_LOCAL};
  static const int forced_modes[] = {-1, ORX_SEG_LANE, ORX_SEG_MR, ORX_SEG_GROUP, ORX_SEG_STAGED};
  static const uint64_t lengths[] = {1, 3, 4, 16, 17, 32, 33, 101, 1000, 4096, 1 << 16};
  static const orx_op_id lists[][8] = {{ORX_OP_MAX},
                                       {ORX_OP_SUM, ORX_OP_MIN, ORX_OP_MAX},
                                       {ORX_OP_SUM, ORX_OP_PROD, ORX_OP_MIN, ORX_OP_MAX, ORX_OP_AND,
                                        ORX_OP_OR, ORX_OP_XOR, ORX_OP_XOR}};
  static const unsigned list_counts[] = {1, 3, 8};
  int checked = 0;
  for (size_t dev = 0; dev < device_count; dev++) {
    const char *prelude = devices[dev].has_cuda_shuffle ? "lib/orx_cuda_prelude.cl" : NULL;
    for (size_t p = 0; p < 2; p++) {
      orx_target t = test_target(&devices[dev], paths[p]);
      orx_plan plan;
      orx_request r;
#define ORX_EACH_OP_TYPE(OP, TYPE)                                                                 \
  r = orx_reduce_request(ORX_OP_##OP, OCL_REDUCE_##TYPE);                                          \
  orx_plan_make(&t, &r, &plan);                                                                    \
  check_defines(&plan, contract, prelude, &checked);
      TEST_OP_TYPES(ORX_EACH_OP_TYPE)
#undef ORX_EACH_OP_TYPE
      /* Structured operators: every stage, and their segments (staged when forced: the stage
       * holds elements of the type, the state stays in registers). */
#define ORX_EACH_STRUCTURED(OP, TYPE)                                                              \
  r = orx_reduce_request(ORX_OP_##OP, OCL_REDUCE_##TYPE);                                          \
  for (int stage = ORX_STAGE_WHOLE; stage <= ORX_STAGE_MERGE; stage++) {                           \
    r.stage = (orx_stage)stage;                                                                    \
    orx_plan_make(&t, &r, &plan);                                                                  \
    assert_int_equal(plan.defines[ORX_DEFINE_STATE], 1);                                           \
    check_defines(&plan, contract, prelude, &checked);                                             \
  }                                                                                                \
  r.entry = ORX_ENTRY_SEGMENTS;                                                                    \
  r.stage = ORX_STAGE_WHOLE;                                                                       \
  r.shape.count = 1 << 16;                                                                         \
  r.shape.length = 33;                                                                             \
  r.shape.elements = (uint64_t)33 << 16;                                                           \
  r.shape.elem = orx_type_size(OCL_REDUCE_##TYPE);                                                 \
  t.forced.seg_mode = ORX_SEG_STAGED;                                                              \
  orx_plan_make(&t, &r, &plan);                                                                    \
  t.forced.seg_mode = -1;                                                                          \
  assert_int_equal(plan.seg.mode, ORX_SEG_STAGED);                                                 \
  check_defines(&plan, contract, prelude, &checked);
      TEST_STRUCTURED_OP_TYPES(ORX_EACH_STRUCTURED)
#undef ORX_EACH_STRUCTURED
      /* User operators: every stage, segments and the probe; one element per load. */
      for (int w = 0; w < TEST_CUSTOM_COUNT; w++) {
        orx_operator op;
        char *op_text = NULL;
        assert_int_equal(orx_operator_of_desc(&test_custom_descs[w], &op, &op_text), OCL_REDUCE_OK);
        assert_int_equal(op.element_type, w == TEST_SQUARES ? ORX_U32
                                          : w == TEST_ABOVE ? ORX_F32
                                                            : ORX_CUSTOM);
        r = orx_custom_request(&op);
        for (int stage = ORX_STAGE_WHOLE; stage <= ORX_STAGE_MERGE; stage++) {
          r.stage = (orx_stage)stage;
          orx_plan_make(&t, &r, &plan);
          /* Elements of their own type load one at a time; of a scalar type, as vectors. */
          if (op.element_type == ORX_CUSTOM) {
            assert_int_equal(plan.policy.vec, 1);
            assert_true(plan.policy.unroll >= 1 && plan.policy.unroll <= 16);
            assert_int_equal(plan.defines[ORX_DEFINE_ELEMENT_BYTES],
                             test_custom_descs[w].element_size);
          } else {
            assert_int_equal(plan.type, op.element_type);
          }
          assert_int_equal(plan.element_bytes, orx_stage_reads_states((orx_stage)stage)
                                                   ? test_custom_descs[w].state_size
                                                   : test_custom_descs[w].element_size);
          check_defines(&plan, contract, prelude, &checked);
        }
        r.stage = ORX_STAGE_WHOLE;
        r.entry = ORX_ENTRY_SEGMENTS;
        r.shape.count = 1 << 16;
        r.shape.length = 33;
        r.shape.elements = (uint64_t)33 << 16;
        r.shape.elem = test_custom_descs[w].element_size;
        /* Elements of the operator's own type are never staged, even when forced. */
        t.forced.seg_mode = ORX_SEG_STAGED;
        orx_plan_make(&t, &r, &plan);
        t.forced.seg_mode = -1;
        assert_true((plan.seg.mode == ORX_SEG_STAGED) == (op.element_type != ORX_CUSTOM));
        check_defines(&plan, contract, prelude, &checked);
        r.entry = ORX_ENTRY_PROBE;
        orx_plan_make(&t, &r, &plan);
        assert_int_equal(plan.kernel, ORX_KERNEL_OPERATOR_PROBE);
        check_defines(&plan, contract, prelude, &checked);
        free(op_text);
      }
      for (size_t m = 0; m < sizeof forced_modes / sizeof forced_modes[0]; m++) {
        t.forced.seg_mode = forced_modes[m];
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
          for (int offsets = 0; offsets < 2; offsets++) {
            r = orx_reduce_request(offsets ? ORX_OP_MAX : ORX_OP_SUM,
                                   offsets ? OCL_REDUCE_U64 : OCL_REDUCE_F32);
            r.entry = ORX_ENTRY_SEGMENTS;
            r.shape.count = (size_t)((1u << 24) / lengths[l]);
            r.shape.elements = r.shape.count * lengths[l];
            r.shape.length = offsets ? 0 : lengths[l];
            r.shape.offsets = offsets;
            r.shape.elem = offsets ? 8 : 4;
            orx_plan_make(&t, &r, &plan);
            if (plan.seg.mode != ORX_SEG_LAUNCH)
              check_defines(&plan, contract, prelude, &checked);
          }
        }
      }
      t.forced.seg_mode = -1;
      for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
        memset(&r, 0, sizeof r);
        r.entry = ORX_ENTRY_MULTI;
        r.type = OCL_REDUCE_I64;
        r.ops = lists[k];
        r.op_count = list_counts[k];
        orx_plan_make(&t, &r, &plan);
        check_defines(&plan, contract, prelude, &checked);
      }
      /* Columns: wide rows, tall narrow ones, f64. */
      plan = column_plan(&t, OCL_REDUCE_F32, 1 << 11, 1 << 14);
      check_defines(&plan, contract, prelude, &checked);
      plan = column_plan(&t, OCL_REDUCE_F32, 1 << 20, 16);
      check_defines(&plan, contract, prelude, &checked);
      plan = column_plan(&t, OCL_REDUCE_F64, 1 << 11, 1 << 14);
      check_defines(&plan, contract, prelude, &checked);
      memset(&r, 0, sizeof r);
      r.entry = ORX_ENTRY_CHECK_OFFSETS;
      r.type = OCL_REDUCE_U64;
      orx_plan_make(&t, &r, &plan);
      check_defines(&plan, contract, prelude, &checked);
    }
  }
  printf("# %d plans' define blocks checked against the contract\n", checked);
  assert_true(checked > 1000);
  free(holder);
}

/* A plan of a device's whole-array reduction. */
static orx_plan plan_of(const orx_caps *caps, orx_op_id op, ocl_reduce_type type) {
  const orx_target t = test_target(caps, OCL_REDUCE_PATH_AUTO);
  const orx_request r = orx_reduce_request(op, type);
  orx_plan plan;
  orx_plan_make(&t, &r, &plan);
  return plan;
}

static int same_key(const orx_plan *a, const orx_plan *b) {
  orx_program_key ka, kb;
  orx_program_key_of(a, &ka);
  orx_program_key_of(b, &kb);
  return memcmp(&ka, &kb, sizeof ka) == 0 && orx_program_key_hash(&ka) == orx_program_key_hash(&kb);
}

/* Order-preserving operators: one element per load into one chain, runs per work-item read
 * directly on CPUs, as warp tiles on warps and through the stage on other GPUs (whatever GPU
 * layout is forced), local memory for the stage, and segments by a work-item as runs of
 * segments; the same operator declared commutative plans as before. */
/* Sliding windows: a fold per window up to 4 elements; beyond, tiles on GPUs while a window fits
 * half a tile (then LONG's tiles, shorter than the window), a work-item per block on CPUs;
 * forced algorithms are taken as they are (but tiles too small for the window); lane groups merge
 * through local memory where subgroups are barriers; every block's defines are the contract's. */
/* Applications' programs: the context's subgroup implementation and warp size, local memory on
 * PoCL's emulated subgroups, unrolling on GPUs only, and the work-groups they accept. */
static void test_program_plans(void **state) {
  (void)state;
  int64_t d[ORX_DEFINE_COUNT];
  const orx_caps h200 = test_h200_cuda();
  const orx_target cuda = test_target(&h200, OCL_REDUCE_PATH_AUTO);
  orx_plan_program(&cuda, 256, d);
  assert_int_equal(d[ORX_DEFINE_SG_IMPL], OCL_REDUCE_SUBGROUP_CUDA);
  assert_int_equal(d[ORX_DEFINE_SG_SIZE], 32);
  assert_int_equal(d[ORX_DEFINE_WG_SIZE], 256);
  assert_int_equal(d[ORX_DEFINE_UNROLL_SLOTS], 1);
  assert_int_equal(d[ORX_DEFINE_VEC], ORX_DEFINE_UNSET);
  assert_null(orx_program_wg_problem(&cuda, 64));
  assert_non_null(orx_program_wg_problem(&cuda, 16));  /* not whole warps */
  assert_non_null(orx_program_wg_problem(&cuda, 96));  /* not a power of two */
  assert_non_null(orx_program_wg_problem(&cuda, 0));
  assert_non_null(orx_program_wg_problem(&cuda, 1u << 20)); /* over the device's limit */

  orx_caps cpu = test_cpu();
  cpu.has_khr_subgroups = cpu.has_khr_shuffle = 1;
  cpu.emulated_subgroups = 1;
  const orx_target pocl = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  assert_int_equal(pocl.subgroup_impl, OCL_REDUCE_SUBGROUP_KHR);
  orx_plan_program(&pocl, 16, d);
  assert_int_equal(d[ORX_DEFINE_SG_IMPL], OCL_REDUCE_SUBGROUP_NONE);
  assert_int_equal(d[ORX_DEFINE_SG_SIZE], ORX_DEFINE_UNSET);
  assert_int_equal(d[ORX_DEFINE_UNROLL_SLOTS], 0);
  assert_null(orx_program_wg_problem(&pocl, 16));
  cpu.emulated_subgroups = 0; /* Intel's runtime: local memory unless subgroups are asked for */
  const orx_target intel = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  orx_plan_program(&intel, 16, d);
  assert_int_equal(d[ORX_DEFINE_SG_IMPL], OCL_REDUCE_SUBGROUP_NONE);
  const orx_target intel_subgroups = test_target(&cpu, OCL_REDUCE_PATH_SUBGROUP);
  orx_plan_program(&intel_subgroups, 16, d);
  assert_int_equal(d[ORX_DEFINE_SG_IMPL], OCL_REDUCE_SUBGROUP_KHR);
}

/* The plan of `window`-element windows over `count` elements. */
static orx_plan windows_plan(const orx_target *t, orx_op_id op, ocl_reduce_type type,
                             uint64_t window, uint64_t count) {
  orx_request r = orx_reduce_request(op, type);
  r.entry = ORX_ENTRY_WINDOWS;
  r.windows.window = window;
  r.windows.count = count;
  orx_plan plan;
  orx_plan_make(t, &r, &plan);
  return plan;
}

static void test_windows_plans(void **state) {
  (void)state;
  char *holder = NULL;
  const char *contract = contract_text(&holder);
  orx_caps devices[8];
  const size_t device_count = synthetic_devices(devices);
  const orx_op_id ops[] = {ORX_OP_SUM, ORX_OP_ARGMIN, ORX_OP_MEAN_VAR};
  const uint64_t windows[] = {1,       4,       5,       32,      33,     100,
                               2049,    2050,    4097,    100000,  135169, 139265,
                               200000,  278528,  278529,  1000000, 1056768, 1056769};
  int checked = 0;
  for (size_t dev = 0; dev < device_count; dev++) {
    const orx_caps *c = &devices[dev];
    const int cpu = c->type == OCL_REDUCE_DEVICE_CPU;
    const char *prelude = c->has_cuda_shuffle ? "lib/orx_cuda_prelude.cl" : NULL;
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
      for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++)
        for (int forced = -1; forced <= ORX_WIN_SPANS; forced++) {
          orx_target t = test_target(c, OCL_REDUCE_PATH_AUTO);
          t.forced.win_algo = forced;
          orx_request r = orx_reduce_request(ops[o], OCL_REDUCE_F32);
          r.entry = ORX_ENTRY_WINDOWS;
          r.windows.window = windows[w];
          r.windows.count = 4 * windows[w];
          orx_plan plan;
          orx_plan_make(&t, &r, &plan);
          assert_int_equal(plan.kernel, ORX_KERNEL_WINDOWS);
          const uint64_t half_tile = orx_win_tile(&plan) / 2 + 1;
          int want = forced;
          /* SPANS on GPUs while the runs' totals are at most 4 combines per element. */
          const uint64_t run = plan.win.run;
          if (want < 0)
            want = windows[w] <= 4                 ? ORX_WIN_DIRECT
                   : cpu                           ? ORX_WIN_SERIAL
                   : windows[w] <= 4 * run * run ? ORX_WIN_SPANS
                                                   : ORX_WIN_BLOCKS;
          /* SPANS: windows longer than two runs, in tiles that give at least half a tile. */
          if (want == ORX_WIN_SPANS &&
              !(windows[w] > 2 * run && windows[w] + 2 * run <= half_tile + 1))
            want = ORX_WIN_BLOCKS;
          if (want == ORX_WIN_BLOCKS && windows[w] > half_tile)
            want = ORX_WIN_LONG;
          /* LONG's tiles are shorter than the window and hold at least a warp's work-items
           * (32, or the device's warp where shuffles need whole warps): else BLOCKS (the window
           * fits half a tile of the plan's). */
          const unsigned warp = orx_subgroup_impl_warps(plan.policy.subgroup_impl) &&
                                        c->warp_size > 32
                                    ? c->warp_size
                                    : 32;
          if (want == ORX_WIN_LONG && windows[w] <= warp)
            want = ORX_WIN_BLOCKS;
          assert_int_equal(plan.win.algo, want);
          if (want == ORX_WIN_LONG) {
            assert_true(orx_win_tile(&plan) < windows[w] && plan.policy.wg_size >= warp);
            const uint64_t n_out = r.windows.count - windows[w] + 1;
            const size_t groups = orx_win_groups(&plan, n_out, windows[w], 1);
            /* A total and a head per tile of the launch, which may start inside one. */
            const uint64_t tiles = (r.windows.count + orx_win_tile(&plan) - 1) /
                                   orx_win_tile(&plan);
            assert_true(orx_win_scratch_states(&plan, n_out, windows[w], groups) >=
                        2 * (tiles + 1));
            assert_true(groups * orx_win_tile(&plan) >= n_out + orx_win_tile(&plan) - 1);
          }
          /* LONG in one launch on GPUs whose subgroups shuffle and whose groups order their
           * writes for each other, while subgroup 0 awaits at most 8 rounds of a warp's totals
           * (NVIDIA's), or one total (others); for 4-byte states (ARGMIN's and MEAN_VAR's are
           * wider: the next test). */
          const ocl_reduce_subgroup_impl impl = plan.policy.subgroup_impl;
          const int shuffles = impl == OCL_REDUCE_SUBGROUP_KHR ||
                               impl == OCL_REDUCE_SUBGROUP_INTEL ||
                               impl == OCL_REDUCE_SUBGROUP_NV_PTX ||
                               impl == OCL_REDUCE_SUBGROUP_CUDA;
          const int one_pass = want == ORX_WIN_LONG && shuffles && !cpu &&
                               c->device_sync != ORX_SYNC_NONE &&
                               c->device_sync != ORX_SYNC_HOST && ops[o] == ORX_OP_SUM &&
                               (windows[w] - 1) / orx_win_tile(&plan) - 1 <=
                                   (c->warp_size ? 8 * c->warp_size : 1);
          assert_int_equal(plan.defines[ORX_DEFINE_WIN_ONE_PASS] == 1, one_pass);
          char told[1024];
          orx_plan_describe(&plan, r.windows.count, windows[w], told, sizeof told);
          if (want == ORX_WIN_LONG) /* what ocl_reduce_describe tells of it */
            assert_non_null(strstr(told, one_pass ? "in one launch" : "after a launch"));
          /* The measured edges (H100, f32): tiles of 8192 (runs of 32) where those await a warp's
           * totals at most and tiles of 4096 more (139265-278528); one launch up to 256 tiles of
           * 4096 awaited (1056768), two beyond. */
          if (!cpu && ops[o] == ORX_OP_SUM && c->warp_size == 32 && shuffles &&
              c->device_sync != ORX_SYNC_NONE && c->device_sync != ORX_SYNC_HOST &&
              want == ORX_WIN_LONG && windows[w] >= 100000) {
            const int runs_of_32 = windows[w] > 139264 && windows[w] <= 278528;
            assert_int_equal(orx_win_tile(&plan), runs_of_32 ? 8192 : 4096);
            assert_int_equal(plan.defines[ORX_DEFINE_WIN_ONE_PASS] == 1,
                             windows[w] <= 1056768);
          }
          /* Chosen, the longest window of runs of 32 runs LONG's tiles of 4096 on GPUs. */
          if (!cpu && ops[o] == ORX_OP_SUM && forced < 0 && windows[w] == 4097)
            assert_int_equal(plan.win.algo, ORX_WIN_LONG);
          if (!cpu && ops[o] == ORX_OP_SUM && forced < 0 && windows[w] == 100000)
            assert_int_equal(orx_win_tile(&plan), 4096); /* LONG's tiles on GPUs */
          assert_int_equal(plan.defines[ORX_DEFINE_WIN_ALGO], want);
          assert_true(plan.win.run >= 1 && plan.win.run <= 32);
          if (c->emulated_subgroups)
            assert_int_equal(plan.policy.subgroup_impl, OCL_REDUCE_SUBGROUP_NONE);
          if (want == ORX_WIN_MR || want == ORX_WIN_SHUFFLE)
            assert_int_equal(plan.policy.wg_size % plan.defines[ORX_DEFINE_MR_Q], 0);
          /* SERIAL in groups of 8 where a CPU runs work-items in vector lanes (Intel's). */
          if (cpu && want == ORX_WIN_SERIAL) {
            assert_true(c->work_items_in_turn ? plan.policy.wg_size >= 32
                                              : plan.policy.wg_size == 8);
            assert_int_equal(plan.defines[ORX_DEFINE_WG_SIZE], plan.policy.wg_size);
          }
          if (!cpu && ops[o] == ORX_OP_SUM && forced < 0 && windows[w] == 32)
            assert_int_equal(orx_win_tile(&plan), 4096); /* the H200's measured tiles */
          if (!cpu && ops[o] == ORX_OP_SUM && forced < 0 && windows[w] == 2049)
            assert_int_equal(orx_win_tile(&plan), 8192);
          /* Words: BLOCKS tiles of scalar operators through CUDA. They, and BLOCKS windows of
           * whole runs, start on whole runs. */
          const int words = want == ORX_WIN_BLOCKS && ops[o] == ORX_OP_SUM && c->has_cuda_shuffle;
          assert_int_equal(plan.defines[ORX_DEFINE_WIN_WORDS], words);
          const int whole_runs = want == ORX_WIN_BLOCKS && windows[w] % plan.win.run == 0;
          assert_int_equal(plan.defines[ORX_DEFINE_WIN_WHOLE_RUNS] == 1, whole_runs);
          if (want == ORX_WIN_SPANS) {
            /* Whole runs, the last window inside the tile wherever the launch starts in its run. */
            const uint64_t per_tile = orx_win_per_tile(&plan, windows[w]);
            assert_true(per_tile % run == 0 && per_tile >= orx_win_tile(&plan) / 2 &&
                        per_tile + windows[w] + run - 2 <= orx_win_tile(&plan));
          }
          /* CUDA's registers capped for four work-groups per SM for SPANS in runs of 32 and
           * LONG in one launch (two in runs of 32), and for five for LONG in two. */
          const int64_t cap = !c->has_cuda_shuffle        ? 0
                              : want == ORX_WIN_LONG        ? (!one_pass ? 5 : run == 32 ? 2 : 4)
                              : want == ORX_WIN_SPANS && run == 32 ? 4
                                                                   : 0;
          const int64_t groups_per_cu = plan.defines[ORX_DEFINE_MIN_GROUPS_PER_CU];
          assert_true(cap ? groups_per_cu == cap : groups_per_cu != 4 && groups_per_cu != 5);
          if (want == ORX_WIN_BLOCKS) {
            const uint64_t results = orx_win_tile(&plan) - windows[w] + 1;
            const uint64_t per_tile = orx_win_per_tile(&plan, windows[w]);
            assert_true(words || whole_runs ? per_tile % run == 0 && per_tile <= results &&
                                                  per_tile + run > results
                                            : per_tile == results);
          }
          assert_true(orx_win_groups(&plan, r.windows.count - windows[w] + 1, windows[w], 1) >= 1);
          check_defines(&plan, contract, prelude, &checked);
        }
    /* A forced work-group size stays for SERIAL. */
    if (cpu) {
      orx_target t = test_target(c, OCL_REDUCE_PATH_AUTO);
      assert_int_equal(orx_parse_policy_override("wg=32", &t.forced), OCL_REDUCE_OK);
      const orx_plan plan = windows_plan(&t, ORX_OP_SUM, OCL_REDUCE_F32, 32, 4096);
      assert_int_equal(plan.win.algo, ORX_WIN_SERIAL);
      assert_int_equal(plan.policy.wg_size, 32);
    }
    /* win_words forces words or local memory wherever the tiles can take words, never for
     * states. */
    for (int words = 0; words <= 1; words++)
      for (int op = 0; op < 2; op++) {
        orx_target t = test_target(c, OCL_REDUCE_PATH_AUTO);
        t.forced.win_algo = ORX_WIN_BLOCKS;
        t.forced.win_words = words;
        orx_request r = orx_reduce_request(op ? ORX_OP_MEAN_VAR : ORX_OP_SUM, OCL_REDUCE_F32);
        r.entry = ORX_ENTRY_WINDOWS;
        r.windows.window = 32;
        r.windows.count = 128;
        orx_plan plan;
        orx_plan_make(&t, &r, &plan);
        assert_int_equal(plan.defines[ORX_DEFINE_WIN_WORDS], words && !op);
      }
    /* Float MIN and MAX read their elements as order keys of integer MIN and MAX (not keys=0,
     * 16-bit floats, other operators); float ARGMIN, ARGMAX and MINMAX keep their states'
     * values as keys (not keys=0), but where windows fold directly (windows of 2-4); GPUs, and
     * CPU devices with keys=1, pack ARGMIN and ARGMAX of 4-byte elements. */
    static const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_F64, OCL_REDUCE_F16,
                                            OCL_REDUCE_I32};
    static const orx_op_id keyed_ops[] = {ORX_OP_MIN,    ORX_OP_MAX,    ORX_OP_SUM,
                                          ORX_OP_ARGMIN, ORX_OP_ARGMAX, ORX_OP_MINMAX};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
      for (size_t op = 0; op < sizeof keyed_ops / sizeof keyed_ops[0]; op++)
        for (int keys = -1; keys <= 1; keys++)
          for (uint64_t window = 3; window <= 32; window += 29) {
            orx_target t = test_target(c, OCL_REDUCE_PATH_AUTO);
            t.forced.float_keys = keys;
            orx_request r = orx_reduce_request(keyed_ops[op], types[k]);
            r.entry = ORX_ENTRY_WINDOWS;
            r.windows.window = window;
            r.windows.count = 4096;
            orx_plan plan;
            orx_plan_make(&t, &r, &plan);
            const int floats =
                keys != 0 && (types[k] == OCL_REDUCE_F32 || types[k] == OCL_REDUCE_F64);
            const int keyed = floats && op < 2;
            assert_int_equal(plan.defines[ORX_DEFINE_ELEM_KEYS] == 1, keyed);
            if (keyed)
              assert_int_equal(plan.type,
                               types[k] == OCL_REDUCE_F32 ? OCL_REDUCE_I32 : OCL_REDUCE_I64);
            const int scanned = plan.win.algo != ORX_WIN_DIRECT;
            /* keys but where keys=0; packed on GPUs and where keys=1 forces it */
            const int gpu = c->type != OCL_REDUCE_DEVICE_CPU;
            const int packed = (keys > 0 || (keys < 0 && gpu)) && scanned &&
                               keyed_ops[op] != ORX_OP_MINMAX && op >= 3 &&
                               (types[k] == OCL_REDUCE_F32 || types[k] == OCL_REDUCE_I32);
            const int state_keys = !packed;
            assert_int_equal(plan.defines[ORX_DEFINE_STATE_PACKED] == 1, packed);
            if (op >= 3) /* the structured ones' states: 8 bytes packed, else the operator's */
              assert_int_equal(plan.op.state_bytes,
                               packed ? 8
                                      : orx_builtin_operator(keyed_ops[op], types[k]).state_bytes);
            assert_int_equal(plan.defines[ORX_DEFINE_STATE_KEYS] == 1,
                             floats && op >= 3 && scanned && state_keys);
            assert_int_equal(plan.win.algo == ORX_WIN_DIRECT, window == 3);
            check_defines(&plan, contract, prelude, &checked);
          }
    /* Packed states while every index of the call fits 32 bits (below 2^32 - 1, the identity's),
     * counted from its first element's. */
    for (int k = 0; k < 4; k++) {
      orx_target t = test_target(c, OCL_REDUCE_PATH_AUTO);
      t.forced.float_keys = 1; /* where packed states are forced */
      orx_request r = orx_reduce_request(ORX_OP_ARGMAX, OCL_REDUCE_U32);
      r.entry = ORX_ENTRY_WINDOWS;
      r.windows.window = 32;
      r.windows.count = k < 2 ? (uint64_t)UINT32_MAX + (uint64_t)k : 1000;
      r.windows.first_index = k < 2 ? 0 : UINT32_MAX - 1000 + (uint64_t)(k == 3);
      orx_plan plan;
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_STATE_PACKED] == 1, k % 2 == 0);
    }
  }
  assert_true(checked > 0);
  free(holder);
}

/* LONG's wider states in one launch: the 8-byte built-in scalar operators but MIN and MAX, while
 * subgroup 0 awaits 4 rounds of a warp's totals (windows up to 130 tiles of 2048); MIN, MAX and
 * the structured operators in two launches (their registers: plan_windows_long.c). On every GPU
 * that takes one launch at all. */
static void test_windows_wide_states_in_one_launch(void **state) {
  (void)state;
  orx_caps devices[8];
  const size_t device_count = synthetic_devices(devices);
  static const struct {
    orx_op_id op;
    ocl_reduce_type type;
  } cases[] = {{ORX_OP_SUM, OCL_REDUCE_F64}, {ORX_OP_SUM, OCL_REDUCE_I64},
               {ORX_OP_SUM, OCL_REDUCE_U64}, {ORX_OP_MIN, OCL_REDUCE_F64},
               {ORX_OP_MAX, OCL_REDUCE_I64}, {ORX_OP_ARGMAX, OCL_REDUCE_F32},
               {ORX_OP_MINMAX, OCL_REDUCE_F32}, {ORX_OP_PROD, OCL_REDUCE_F64},
               {ORX_OP_XOR, OCL_REDUCE_U64},    {ORX_OP_MEAN_VAR, OCL_REDUCE_F32},
               {ORX_OP_SUM, OCL_REDUCE_F32}};
  static const uint64_t windows[] = {4098, 70000, 266240, 266241};
  int gpus = 0;
  for (size_t dev = 0; dev < device_count; dev++) {
    const orx_caps *c = &devices[dev];
    const orx_target t = test_target(c, OCL_REDUCE_PATH_AUTO);
    const orx_plan probe = windows_plan(&t, ORX_OP_SUM, OCL_REDUCE_F32, 20000, 80000);
    if (c->warp_size != 32 || probe.defines[ORX_DEFINE_WIN_ONE_PASS] != 1)
      continue; /* no one launch on this device (or one total's worth only) */
    gpus++;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
      for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        const orx_plan plan =
            windows_plan(&t, cases[k].op, cases[k].type, windows[w], 4 * windows[w]);
        assert_int_equal(plan.win.algo, ORX_WIN_LONG);
        const int wide = cases[k].type != OCL_REDUCE_F32 || cases[k].op != ORX_OP_SUM;
        const int scalar = cases[k].op == ORX_OP_SUM || cases[k].op == ORX_OP_PROD ||
                           cases[k].op == ORX_OP_XOR;
        if (wide && scalar)
          assert_int_equal(orx_win_tile(&plan), 2048);
        const int one = !wide ? 1 : scalar && windows[w] <= 266240;
        assert_int_equal(plan.defines[ORX_DEFINE_WIN_ONE_PASS] == 1, one);
      }
  }
  assert_true(gpus >= 2); /* CUDA's and NVIDIA's OpenCL at least */
}

/* Reduce by key: which calls take the one-pass kernel (built-in operators, devices that order
 * work-groups unless by_key=runs), its tiles within local memory, its summaries' words (the
 * value's or state's, and where the last run starts for ARGMIN and ARGMAX), its scratch's
 * layout; with its look-back (key_counted=0: the counted form's plans are the next test's). */
static void test_by_key_plans(void **state) {
  (void)state;
  char *holder = NULL;
  const char *contract = contract_text(&holder);
  orx_caps devices[8];
  const size_t device_count = synthetic_devices(devices);
  const orx_op_id ops[] = {ORX_OP_SUM, ORX_OP_MAX, ORX_OP_ARGMIN, ORX_OP_MEAN_VAR};
  const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_I64, OCL_REDUCE_F16};
  int checked = 0;
  for (size_t dev = 0; dev < device_count; dev++) {
    const orx_caps *c = &devices[dev];
    const int cpu = c->type == OCL_REDUCE_DEVICE_CPU;
    const char *prelude = c->has_cuda_shuffle ? "lib/orx_cuda_prelude.cl" : NULL;
    for (size_t o = 0; o < 4; o++)
      for (size_t t = 0; t < 3; t++)
        for (unsigned kb = 4; kb <= 8; kb += 4)
          for (int forced = -1; forced <= 1; forced++) {
            orx_target tg = test_target(c, OCL_REDUCE_PATH_AUTO);
            tg.forced.by_key_pass = forced;
            tg.forced.key_counted = 0;
            orx_request r = orx_reduce_request(ops[o], types[t]);
            r.entry = ORX_ENTRY_BY_KEY;
            r.key_bytes = kb;
            const int ordered = c->device_sync != ORX_SYNC_NONE;
            const int want = ordered && forced != 0;
            assert_int_equal(orx_plan_by_key_pass(&tg, &r), want);
            if (!want)
              continue;
            orx_plan plan;
            orx_plan_make(&tg, &r, &plan);
            assert_int_equal(plan.kernel, ORX_KERNEL_BY_KEY);
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_BYTES], kb);
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_RUN], plan.key_run);
            assert_int_equal(plan.defines[ORX_DEFINE_SYNC], c->device_sync);
            const uint64_t tile = orx_by_key_tile(&plan);
            const size_t value =
                plan.op.state_bytes ? plan.op.state_bytes : orx_type_size(plan.type);
            const int starts = ops[o] == ORX_OP_ARGMIN;
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_STARTS], starts);
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_WINDOW_PARTS], !c->has_cuda_shuffle);
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_WORDS], 2 + (value + 3) / 4 + 2 * starts);
            for (uint64_t tiles = 0; tiles < 100000; tiles = 3 * tiles + 1)
              assert_int_equal(
                  orx_by_key_scratch_tiles(&plan, orx_by_key_scratch_bytes(&plan, tiles)), tiles);
            assert_int_equal(tile, (uint64_t)plan.policy.wg_size * plan.key_run);
            /* CPU devices walk chunks, a work-item each; GPUs scan tiles in local memory. */
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_CHUNKS], cpu);
            /* NVIDIA's tiles (CUDA's and OpenCL's) load straight into registers, where a
             * work-item's keys and elements fill 16-byte words. */
            const size_t elem = orx_type_size(types[t]);
            const int fill = !orx_type_is_narrow(types[t]) && plan.key_run * kb % 16 == 0 &&
                             plan.key_run * elem % 16 == 0;
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_DIRECT],
                             !cpu && c->warp_size > 0 && fill);
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_RELOAD], 0); /* chunks or GPUs */
            /* NVIDIA's OpenCL joins the look-back's windows by a warp's shuffles but for
             * ARGMIN's starts with 8-byte keys; CUDA in local memory unless forced (below);
             * devices without warps of 32 never. */
            const int warps = !cpu && c->warp_size == 32;
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_WARP_JOIN],
                             warps && c->device_sync == ORX_SYNC_PTX && !(starts && kb == 8));
            /* NVIDIA's OpenCL takes tiles by group id, every other device a ticket. */
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_IN_ORDER],
                             !cpu && c->device_sync == ORX_SYNC_PTX);
            /* NVIDIA's warps scan a tile by shuffles (OpenCL's, and CUDA's but for 8-byte
             * keys), the rest through local memory. */
            const int nvidia_warps = warps && (c->device_sync == ORX_SYNC_PTX ||
                                               (c->device_sync == ORX_SYNC_CUDA && kb == 4));
            assert_int_equal(plan.defines[ORX_DEFINE_KEY_WARP_SCAN], nvidia_warps);
            /* ARGMIN's f32 states wait in 8 bytes in a tile (ORX_STATE_NEAR, which by_key.cl
             * takes wherever the state ops define it): tiles of 2048 pairs of 4-byte keys. */
            if (!cpu && kb == 4 && ops[o] == ORX_OP_ARGMIN && types[t] == OCL_REDUCE_F32 &&
                c->local_mem_bytes >= 48 * 1024)
              assert_int_equal(tile, 2048);
            if (cpu) {
              assert_int_equal(plan.policy.wg_size, 1);
              assert_int_equal(tile, 16384);
            } else {
              assert_true((tile + tile / 32 + 1) * (kb + value) <= c->local_mem_bytes);
            }
            if (!cpu && kb == 4 && value == 4 && c->local_mem_bytes >= 48 * 1024)
              assert_int_equal(tile, 4096); /* the H200's measured tile */
            check_defines(&plan, contract, prelude, &checked);
            /* Either form forced, on any device; tiles loaded directly where they fill. */
            for (int chunks = 0; chunks <= 1; chunks++) {
              orx_target forced_form = tg;
              forced_form.forced.key_chunks = chunks;
              forced_form.forced.key_run = chunks ? 64 : 0;
              forced_form.forced.key_direct = 1;
              forced_form.forced.key_warp_join = 1;
              forced_form.forced.key_in_order = 1;
              forced_form.forced.key_warp_scan = 0;
              orx_plan other;
              orx_plan_make(&forced_form, &r, &other);
              assert_int_equal(other.defines[ORX_DEFINE_KEY_CHUNKS], chunks);
              assert_int_equal(other.defines[ORX_DEFINE_KEY_DIRECT],
                               !chunks && !orx_type_is_narrow(types[t]) &&
                                   other.key_run * kb % 16 == 0 && other.key_run * elem % 16 == 0);
              /* A CPU device's tiles read their elements again after the look-back. */
              assert_int_equal(other.defines[ORX_DEFINE_KEY_RELOAD], !chunks && cpu);
              assert_int_equal(other.defines[ORX_DEFINE_KEY_WARP_JOIN], !chunks && warps);
              /* Tiles by group id only where groups start in id order (NVIDIA's), forced. */
              assert_int_equal(other.defines[ORX_DEFINE_KEY_IN_ORDER],
                               !chunks && c->warp_size > 0 &&
                                   (c->device_sync == ORX_SYNC_PTX ||
                                    c->device_sync == ORX_SYNC_CUDA));
              assert_int_equal(other.defines[ORX_DEFINE_KEY_WARP_SCAN], 0);
              if (chunks)
                assert_int_equal(orx_by_key_tile(&other), 64);
              else
                assert_true(other.policy.wg_size >= 32);
              check_defines(&other, contract, prelude, &checked);
            }
          }
  }
  assert_true(checked > 0);
  /* A user operator's runs are found by the kernel as their starts, then reduced as segments (its
   * map takes indices in the run), where the built-ins take the kernel whole. */
  size_t gpu = 0;
  while (gpu + 1 < device_count && devices[gpu].device_sync == ORX_SYNC_NONE)
    gpu++;
  orx_target tg = test_target(&devices[gpu], OCL_REDUCE_PATH_AUTO);
  tg.forced.by_key_pass = 1;
  orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  r.entry = ORX_ENTRY_BY_KEY;
  r.key_bytes = 4;
  assert_int_equal(orx_plan_by_key_pass(&tg, &r), ORX_BY_KEY_PASS);
  r.op.id = ORX_OP_CUSTOM;
  assert_int_equal(orx_plan_by_key_pass(&tg, &r), ORX_BY_KEY_STARTS);
  tg.forced.by_key_pass = 0;
  assert_int_equal(orx_plan_by_key_pass(&tg, &r), ORX_BY_KEY_ON_HOST);
  /* Outputs of fewer runs than pairs: staged where the runs' keys and results take no more bytes
   * than the keys (CPU devices, which copy in one thread: 8 times fewer), never for no room (the
   * count alone answers); key_stage forces either. */
  for (size_t dev = 0; dev < device_count; dev++) {
    orx_target any = test_target(&devices[dev], OCL_REDUCE_PATH_AUTO);
    const uint64_t n = 1u << 20, factor = devices[dev].type == OCL_REDUCE_DEVICE_CPU ? 8 : 1;
    assert_false(orx_plan_by_key_stages(&any, n, 0, 4, 4));
    assert_true(orx_plan_by_key_stages(&any, n, n / 2 / factor, 4, 4));
    assert_false(orx_plan_by_key_stages(&any, n, n / 2 / factor + 1, 4, 4));
    assert_true(orx_plan_by_key_stages(&any, n, n / 3 / factor, 8, 16));
    assert_false(orx_plan_by_key_stages(&any, n, n / 2 / factor, 8, 16));
    any.forced.key_stage = 1;
    assert_true(orx_plan_by_key_stages(&any, n, 0, 4, 4));
    any.forced.key_stage = 0;
    assert_false(orx_plan_by_key_stages(&any, n, 1, 4, 4));
  }
  /* The starts' pass: u64 results, each its run's start, carried as ARGMIN's are, in summaries
   * of no value words; on every device, in either form. Its tiles stage 4 bytes per run, so that
   * 4-byte keys keep the SUM pass's tiles of 4096 where local memory holds them; NVIDIA's load
   * their keys straight into registers. */
  for (size_t dev = 0; dev < device_count; dev++)
    for (unsigned kb = 4; kb <= 8; kb += 4) {
      const orx_caps *c = &devices[dev];
      const int cpu = c->type == OCL_REDUCE_DEVICE_CPU;
      orx_target any = test_target(c, OCL_REDUCE_PATH_AUTO);
      const orx_request starts = orx_by_key_starts_request(kb);
      orx_plan plan;
      orx_plan_make(&any, &starts, &plan);
      assert_int_equal(plan.kernel, ORX_KERNEL_BY_KEY);
      assert_int_equal(plan.type, OCL_REDUCE_U64);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_POSITIONS], 1);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_STARTS], 1);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_WORDS], 4);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_DIRECT],
                       !cpu && c->warp_size > 0 && plan.key_run * kb % 16 == 0);
      /* Its look-back joins in local memory even on NVIDIA's OpenCL (measured slower by warp). */
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_WARP_JOIN], 0);
      if (!cpu && kb == 4 && c->local_mem_bytes >= 48 * 1024)
        assert_int_equal(orx_by_key_tile(&plan), 4096);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_BYTES], kb);
      check_defines(&plan, contract,
                    devices[dev].has_cuda_shuffle ? "lib/orx_cuda_prelude.cl" : NULL, &checked);
    }
  free(holder);
}

/* Reduce by key counted first (lib/orx_key_counted.cl): the tiles' plan (pass 3) reads no
 * look-back, its pass 4 has the same tiles, and passes 1 and 2 take the tiles' shape whatever the
 * operator and type, so that their programs are shared. */
static void test_by_key_counted_plans(void **state) {
  (void)state;
  char *holder = NULL;
  const char *contract = contract_text(&holder);
  orx_caps devices[8];
  const size_t device_count = synthetic_devices(devices);
  int checked = 0;
  for (size_t dev = 0; dev < device_count; dev++)
    for (unsigned kb = 4; kb <= 8; kb += 4) {
      const orx_caps *c = &devices[dev];
      const char *prelude = c->has_cuda_shuffle ? "lib/orx_cuda_prelude.cl" : NULL;
      orx_target tg = test_target(c, OCL_REDUCE_PATH_AUTO);
      tg.forced.key_chunks = 0;
      tg.forced.key_counted = 1;
      orx_plan tiles[2], count[2];
      const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_I32};
      for (int t = 0; t < 2; t++) {
        orx_request r = orx_reduce_request(t ? ORX_OP_MAX : ORX_OP_SUM, types[t]);
        r.entry = ORX_ENTRY_BY_KEY;
        r.key_bytes = kb;
        orx_plan_make(&tg, &r, &tiles[t]);
        assert_int_equal(tiles[t].defines[ORX_DEFINE_KEY_COUNTED], 3);
        assert_int_equal(tiles[t].defines[ORX_DEFINE_KEY_IN_ORDER], 0);
        assert_int_equal(tiles[t].defines[ORX_DEFINE_KEY_WARP_JOIN], 0);
        assert_int_equal(tiles[t].policy.wg_size % 32, 0);
        for (uint64_t n = 0; n < 100000; n = 3 * n + 1)
          assert_int_equal(orx_by_key_scratch_tiles(
                               &tiles[t], orx_by_key_scratch_bytes(&tiles[t], n)), n);
        r.key_pass = 4;
        orx_plan fix;
        orx_plan_make(&tg, &r, &fix);
        assert_int_equal(fix.defines[ORX_DEFINE_KEY_COUNTED], 4);
        assert_int_equal(fix.defines[ORX_DEFINE_KEY_WARP_SCAN], 0);
        assert_int_equal(orx_by_key_tile(&fix), orx_by_key_tile(&tiles[t]));
        check_defines(&tiles[t], contract, prelude, &checked);
        check_defines(&fix, contract, prelude, &checked);
        for (int pass = 1; pass <= 2; pass++) {
          const orx_request counting = orx_by_key_count_request(&tiles[t], kb, pass);
          orx_plan_make(&tg, &counting, &count[pass - 1]);
          assert_int_equal(count[pass - 1].defines[ORX_DEFINE_KEY_COUNTED], pass);
          assert_int_equal(count[pass - 1].defines[ORX_DEFINE_KEY_WARP_SCAN], 0); /* no scan */
          assert_int_equal(orx_by_key_tile(&count[pass - 1]), orx_by_key_tile(&tiles[t]));
          check_defines(&count[pass - 1], contract, prelude, &checked);
        }
      }
      /* The count of a tile of equal shape is one program for both operators and types. */
      if (orx_by_key_tile(&tiles[0]) == orx_by_key_tile(&tiles[1]) &&
          tiles[0].policy.wg_size == tiles[1].policy.wg_size) {
        const orx_request a = orx_by_key_count_request(&tiles[0], kb, 1);
        const orx_request b = orx_by_key_count_request(&tiles[1], kb, 1);
        orx_plan pa, pb;
        orx_plan_make(&tg, &a, &pa);
        orx_plan_make(&tg, &b, &pb);
        assert_memory_equal(pa.defines, pb.defines, sizeof pa.defines);
      }
      /* Chunks (CPU devices' own form) are never counted. */
      tg.forced.key_chunks = 1;
      orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
      r.entry = ORX_ENTRY_BY_KEY;
      r.key_bytes = kb;
      orx_plan plan;
      orx_plan_make(&tg, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_KEY_COUNTED], 0);
      /* The planner's own choice: counted on NVIDIA's GPUs, CUDA's 4-byte values in tiles of
       * 128 x 16. */
      orx_target any = test_target(c, OCL_REDUCE_PATH_AUTO);
      const int cuda = c->warp_size > 0 && c->device_sync == ORX_SYNC_CUDA;
      const int ptx = c->warp_size > 0 && c->device_sync == ORX_SYNC_PTX;
      const int cpu = c->type == OCL_REDUCE_DEVICE_CPU;
      for (int arg = 0; arg <= 1; arg++) {
        r.op.id = arg ? ORX_OP_ARGMIN : ORX_OP_SUM;
        orx_plan_make(&any, &r, &plan);
        const int counted = !cpu && (cuda || ptx);
        assert_int_equal(plan.defines[ORX_DEFINE_KEY_COUNTED], counted ? 3 : 0);
        if (counted && cuda && !arg && c->local_mem_bytes >= 48 * 1024)
          assert_int_equal(orx_by_key_tile(&plan), 128 * 16);
      }
    }
  assert_true(checked > 0);
  free(holder);
}

static void test_ordered_operators_take_runs_in_order(void **state) {
  (void)state;
  char *holder = NULL;
  const char *contract = contract_text(&holder);
  orx_caps devices[8];
  const size_t device_count = synthetic_devices(devices);
  int checked = 0;
  for (size_t dev = 0; dev < device_count; dev++) {
    const orx_caps *c = &devices[dev];
    const int cpu = c->type == OCL_REDUCE_DEVICE_CPU;
    const char *prelude = c->has_cuda_shuffle ? "lib/orx_cuda_prelude.cl" : NULL;
    for (int w = 0; w < TEST_ORDERED_COUNT; w++) {
      const ocl_reduce_operator_desc *d = &test_ordered_descs[w];
      orx_operator op;
      char *op_text = NULL;
      assert_int_equal(orx_operator_of_desc(d, &op, &op_text), OCL_REDUCE_OK);
      assert_true(op.ordered);
      orx_target t = test_target(c, OCL_REDUCE_PATH_AUTO);
      orx_request r = orx_custom_request(&op);
      orx_plan plan;
      const int warps = t.subgroup_impl == OCL_REDUCE_SUBGROUP_NV_PTX ||
                        t.subgroup_impl == OCL_REDUCE_SUBGROUP_CUDA;
      const int gpu_stream = warps ? ORX_STREAM_WARP_TILES : ORX_STREAM_TRANSPOSED;
      for (int stage = ORX_STAGE_WHOLE; stage <= ORX_STAGE_MERGE; stage++) {
        r.stage = (orx_stage)stage;
        orx_plan_make(&t, &r, &plan);
        assert_int_equal(plan.defines[ORX_DEFINE_ORDERED], 1);
        assert_int_equal(plan.policy.vec, 1);
        assert_int_equal(orx_policy_chains(&plan.policy), 1);
        assert_int_equal(plan.policy.stream, cpu ? ORX_STREAM_CHUNK : gpu_stream);
        if (plan.policy.stream == ORX_STREAM_WARP_TILES)
          assert_int_equal(plan.defines[ORX_DEFINE_MR_LANES], c->warp_size);
        const uint64_t elem = plan.element_bytes;
        const uint64_t row =
            plan.policy.stream == ORX_STREAM_TRANSPOSED ? ORX_STAGE_ROW_OF(elem) * elem : 0;
        assert_true((uint64_t)plan.policy.wg_size * (2 * plan.op.state_bytes + row) + 64 <=
                    c->local_mem_bytes);
        check_defines(&plan, contract, prelude, &checked);
      }
      r.stage = ORX_STAGE_WHOLE;
      /* A forced GPU layout stays in order; chunk stays chunk. */
      t.forced.stream = ORX_STREAM_STRIDED;
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.policy.stream, gpu_stream);
      t.forced.stream = ORX_STREAM_TRANSPOSED;
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.policy.stream, ORX_STREAM_TRANSPOSED);
      t.forced.stream = ORX_STREAM_CHUNK;
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.policy.stream, ORX_STREAM_CHUNK);
      t.forced.stream = -1;
      /* Segments: a work-item per segment takes runs of segments, the others their layout. */
      r.entry = ORX_ENTRY_SEGMENTS;
      r.shape.count = 1 << 12;
      r.shape.length = 300;
      r.shape.elements = (uint64_t)300 << 12;
      r.shape.elem = d->element_size;
      for (int mode = ORX_SEG_LANE; mode <= ORX_SEG_STAGED; mode++) {
        t.forced.seg_mode = mode;
        orx_plan_make(&t, &r, &plan);
        assert_int_equal(plan.defines[ORX_DEFINE_ORDERED], 1);
        assert_int_equal(plan.policy.vec, 1);
        assert_int_equal(plan.policy.stream, plan.seg.mode == ORX_SEG_GROUP && !cpu
                                                 ? gpu_stream
                                                 : ORX_STREAM_CHUNK);
        if (plan.seg.mode != ORX_SEG_LAUNCH)
          check_defines(&plan, contract, prelude, &checked);
      }
      /* Declared commutative: no ORX_ORDERED, the usual layout. */
      ocl_reduce_operator_desc commutative = *d;
      commutative.commutative = 1;
      free(op_text);
      assert_int_equal(orx_operator_of_desc(&commutative, &op, &op_text), OCL_REDUCE_OK);
      t.forced.seg_mode = -1;
      r = orx_custom_request(&op);
      orx_plan_make(&t, &r, &plan);
      assert_int_equal(plan.defines[ORX_DEFINE_ORDERED], ORX_DEFINE_UNSET);
      assert_true(plan.policy.stream != ORX_STREAM_TRANSPOSED);
      free(op_text);
    }
  }
  assert_true(checked > 0);
  free(holder);
}

static void test_program_keys_tell_plans_and_operators_apart(void **state) {
  (void)state;
  const orx_caps g = test_gpu();
  const orx_plan sum = plan_of(&g, ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan again = plan_of(&g, ORX_OP_SUM, OCL_REDUCE_F32);
  assert_true(same_key(&sum, &again));
  const orx_plan max = plan_of(&g, ORX_OP_MAX, OCL_REDUCE_F32);
  assert_false(same_key(&sum, &max));
  const orx_plan wide = plan_of(&g, ORX_OP_SUM, OCL_REDUCE_F64);
  assert_false(same_key(&sum, &wide));
  /* An operator given as source text (the operators-as-data issue): its hash and its state's
   * size and alignment are part of the key, and its text part of the program. */
  orx_plan user = sum;
  user.op.source = "/* an operator's source */\n";
  user.op.source_hash = orx_hash(ORX_HASH_SEED, user.op.source, strlen(user.op.source));
  assert_false(same_key(&sum, &user));
  orx_plan bigger = sum;
  bigger.op.state_bytes = ORX_STATE_MAX_BYTES;
  bigger.op.state_align = 16;
  assert_false(same_key(&sum, &bigger));
  assert_int_equal(sum.op.state_bytes, 4);
  assert_int_equal(sum.partials_bytes, (size_t)sum.policy.max_groups * 4);
  orx_program_text text;
  assert_int_equal(orx_program_text_of(NULL, &user, NULL, &text), OCL_REDUCE_OK);
  assert_non_null(strstr(text.body, user.op.source));
  /* The contract comes first, then the operator's text, then the kernel file. */
  const char *contract = strstr(text.body, "#define ORX_CONTRACT_H");
  const char *kernel = strstr(text.body, "__kernel ORX_KERNEL_ATTR void orx_reduce_all");
  assert_non_null(contract);
  assert_non_null(kernel);
  assert_true(contract < strstr(text.body, user.op.source));
  assert_true(strstr(text.body, user.op.source) < kernel);
  assert_string_equal(text.entry, "orx_reduce_all");
  orx_program_text_free(&text);
}

/* A kernel that reads no subgroup define (by_key.cl) is one program text on every path of a
 * device, so that the paths share its build in the program cache (exec/program.c); a kernel that
 * reads them (reduce_all.cl) keeps each path's. */
static void test_paths_share_kernels_that_read_no_subgroup_define(void **state) {
  (void)state;
  orx_caps c = test_gpu();
  c.has_khr_shuffle = c.has_khr_subgroups = c.has_intel_subgroups = 1;
  static const struct {
    ocl_reduce_path path;
    ocl_reduce_subgroup_impl impl;
  } paths[] = {{OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_KHR},
               {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_INTEL},
               {OCL_REDUCE_PATH_SUBGROUP, OCL_REDUCE_SUBGROUP_BUILTIN},
               {OCL_REDUCE_PATH_LOCAL, OCL_REDUCE_SUBGROUP_AUTO}};
  char first[2][4096];
  for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
    orx_target t = test_target(&c, OCL_REDUCE_PATH_AUTO);
    const char *why = NULL;
    assert_int_equal(orx_plan_path(&c, paths[p].path, paths[p].impl, &t.path, &t.subgroup_impl,
                                   &why),
                     OCL_REDUCE_OK);
    for (int by_key = 0; by_key < 2; by_key++) {
      orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
      if (by_key) {
        r.entry = ORX_ENTRY_BY_KEY;
        r.key_bytes = 4;
      }
      orx_plan plan;
      orx_plan_make(&t, &r, &plan);
      orx_program_text text;
      assert_int_equal(orx_program_text_of(NULL, &plan, NULL, &text), OCL_REDUCE_OK);
      assert_int_equal(strstr(text.defines, "ORX_SG_IMPL") != NULL, !by_key);
      if (p == 0)
        snprintf(first[by_key], sizeof first[by_key], "%s", text.defines);
      else if (by_key)
        assert_string_equal(text.defines, first[1]);
      else
        assert_string_not_equal(text.defines, first[0]);
      orx_program_text_free(&text);
    }
  }
}

static void test_plans_describe_themselves_in_policy_syntax(void **state) {
  (void)state;
  orx_caps g = test_gpu();
  g.warp_size = 32;
  const orx_plan sum = plan_of(&g, ORX_OP_SUM, OCL_REDUCE_F32);
  char text[512];
  orx_plan_describe(&sum, (size_t)1 << 24, 0, text, sizeof text);
  printf("# %s\n", text);
  assert_non_null(strstr(text, "kernels/reduce_all.cl: wg=256,vec=4,unroll=4,groups=1056,"
                               "stream=strided,finish=group; combine: shuffles (ptx)"));
  /* The policy part is what OCL_REDUCE_POLICY takes, and forces the same policy. */
  char policy[256];
  const char *from = strstr(text, ": ") + 2;
  snprintf(policy, sizeof policy, "%.*s", (int)(strchr(from, ';') - from), from);
  orx_policy_override forced;
  assert_int_equal(orx_parse_policy_override(policy, &forced), OCL_REDUCE_OK);
  orx_policy p = sum.policy;
  orx_apply_policy_override(&g, &forced, sizeof(float), &p);
  assert_memory_equal(&p, &sum.policy, sizeof p);
}

/* The host plan: on CPU devices only, for whole arrays of built-in operators up to the crossover
 * (scalar operators' and state operators'), whatever the target's path and forced launch fields,
 * unless host=off; and for every operator and type, one that the calling thread has a kernel
 * for, compiled with the same block (src/host/host_kernel.inc). */
static void test_host_plan_has_a_host_kernel_on_every_cpu_target(void **state) {
  (void)state;
  orx_caps devices[8];
  const size_t device_count = synthetic_devices(devices);
  static const ocl_reduce_path paths[] = {OCL_REDUCE_PATH_AUTO, OCL_REDUCE_PATH_LOCAL};
  static const char *const forced[] = {"", "wg=64,vec=2,unroll=3,keys=2,stream=strided,groups=5",
                                       "host=device", "host=off"};
  int checked = 0;
  for (size_t d = 0; d < 2 * device_count; d++) {
    /* Each device as one that runs a group's work-items in turn (PoCL) and one that does not. */
    const size_t dev = d / 2;
    orx_caps caps = devices[dev];
    caps.work_items_in_turn = (int)(d % 2);
    const int cpu = devices[dev].type == OCL_REDUCE_DEVICE_CPU;
    for (size_t p = 0; p < 2; p++) {
      for (size_t f = 0; f < 4; f++) {
        const int takes = cpu && strcmp(forced[f], "host=off") != 0;
        orx_target t = test_target(&caps, paths[p]);
        assert_int_equal(orx_parse_policy_override(forced[f], &t.forced), OCL_REDUCE_OK);
        for (int op = 0; op < OCL_REDUCE_BUILTIN_OPS; op++) {
          for (int type = 0; type < OCL_REDUCE_TYPE_COUNT; type++) {
            if (!ocl_reduce_result_size(OCL_REDUCE_BUILTIN_OP(op), (ocl_reduce_type)type))
              continue;
            orx_request r = orx_reduce_request((orx_op_id)op, (ocl_reduce_type)type);
            /* Host memory of any size (SIZE_MAX bytes of elements), never nothing. */
            const size_t last = SIZE_MAX / ocl_reduce_type_size(r.type);
            assert_int_equal(orx_plan_takes_host(&t, &r, last, ORX_HOST_SOURCE_MEMORY), takes);
            assert_int_equal(orx_plan_takes_host(&t, &r, 1, ORX_HOST_SOURCE_MEMORY), takes);
            assert_false(orx_plan_takes_host(&t, &r, 0, ORX_HOST_SOURCE_MEMORY));
            /* A buffer in the device's memory: crossovers of its own, below; larger where the
             * host reads it (its result into host memory) than where the device runs the host
             * plan (into a buffer). */
            const int state_op = (orx_op_flags(op) & ORX_OPF_STATE) != 0;
            const size_t resident = (!state_op ? ORX_HOST_PLAN_MAX_RESIDENT_BYTES
                                               : ORX_HOST_PLAN_MAX_RESIDENT_STATE_BYTES) /
                                    ocl_reduce_type_size(r.type);
            /* Read by the host: scalar operators, and the state operators whose host kernels
             * read as fast (ARGMIN, ARGMAX, MINMAX, SUM_WIDE; MEAN_VAR where work-items run in
             * turn), f16 as scalars into a buffer; where work-items are not run in turn
             * (Intel's runtime) every size of 4- and 8-byte elements. Other states 1 MiB. */
            const size_t bytes = ocl_reduce_type_size(r.type);
            const int minmax = op == ORX_OP_MIN || op == ORX_OP_MAX;
            const int like_scalar = !state_op || op == ORX_OP_ARGMIN || op == ORX_OP_ARGMAX ||
                                    op == ORX_OP_MINMAX || op == ORX_OP_SUM_WIDE ||
                                    (op == ORX_OP_MEAN_VAR && caps.work_items_in_turn);
            const int every = like_scalar && !caps.work_items_in_turn && bytes >= 4;
            /* Elsewhere 128 MiB, but 16 MiB for 8-byte MIN, MAX and for bf16. */
            const int narrow = bytes < 4 || (bytes == 8 && minmax);
            const size_t read = type == OCL_REDUCE_F16 && like_scalar
                                    ? ORX_HOST_PLAN_MAX_RESIDENT_BYTES / bytes
                                : every ? SIZE_MAX / bytes
                                : (!like_scalar ? ORX_HOST_PLAN_MAX_READ_STATE_BYTES
                                   : narrow ? ((size_t)16 << 20)
                                            : ((size_t)128 << 20)) /
                                      bytes;
            assert_true(resident <= read);
            assert_true(resident < ((size_t)16 << 20) / bytes);
            assert_int_equal(orx_plan_takes_host(&t, &r, resident, ORX_HOST_SOURCE_BUFFER), takes);
            assert_false(orx_plan_takes_host(&t, &r, resident + 1, ORX_HOST_SOURCE_BUFFER));
            assert_int_equal(orx_plan_takes_host(&t, &r, read, ORX_HOST_SOURCE_BUFFER_READ), takes);
            if (!every)
              assert_false(orx_plan_takes_host(&t, &r, read + 1, ORX_HOST_SOURCE_BUFFER_READ));
            if (!takes)
              continue;
            r.host = 1;
            orx_plan plan;
            orx_plan_make(&t, &r, &plan);
            /* (None while the kernels are read from OCL_REDUCE_KERNEL_DIR: other text.) */
            if (orx_host_can_run(&plan) != orx_sources_embedded())
              fail_msg("%s on %s, %s: no host kernel has the host plan's defines",
                       ocl_reduce_op_name(OCL_REDUCE_BUILTIN_OP(op)),
                       ocl_reduce_type_name((ocl_reduce_type)type), devices[dev].device_name);
            checked++;
            /* The host plan's grid: one group per ORX_HOST_PLAN_GROUP_BYTES of what its kernel
             * computes in (16-bit elements: f32's), at most ORX_HOST_PLAN_MAX_GROUPS, whatever
             * the device. */
            const size_t per_group =
                ORX_HOST_PLAN_GROUP_BYTES / orx_type_size(orx_compute_type(op, r.type));
            assert_int_equal(orx_plan_groups(&plan, per_group, 0), 1);
            assert_int_equal(orx_plan_groups(&plan, per_group + 1, 0), 2);
            assert_int_equal(orx_plan_groups(&plan, 3 * per_group, 0), 3);
            assert_int_equal(orx_plan_groups(&plan, last, 0), ORX_HOST_PLAN_MAX_GROUPS);
            /* host_kib: the host plan up to that many KiB, every operator. */
            orx_target kib = t;
            kib.forced.host_kib = 65536;
            r.host = 0;
            const size_t kib_count = ((size_t)64 << 20) / ocl_reduce_type_size(r.type);
            for (int source = ORX_HOST_SOURCE_MEMORY; source <= ORX_HOST_SOURCE_BUFFER_READ;
                 source++) {
              assert_true(orx_plan_takes_host(&kib, &r, kib_count, (orx_host_source)source));
              assert_false(orx_plan_takes_host(&kib, &r, kib_count + 1, (orx_host_source)source));
            }
            /* States for a later merge keep the device's plans. */
            r.host = 0;
            r.stage = ORX_STAGE_PARTIAL;
            assert_false(orx_plan_takes_host(&t, &r, 1000, ORX_HOST_SOURCE_MEMORY));
          }
        }
      }
    }
  }
  assert_true(checked > 0);
}

/* One input's equal segments from `source` take the host plan from `least` elements on, not
 * below (device_in_place: the device's plan reads the memory where it lies). */
static void host_segments_from(const orx_target *t, const orx_request *r, int device_in_place,
                               orx_host_source source, size_t least) {
  assert_false(orx_plan_takes_host_segments(t, r, device_in_place, least - 1, source));
  assert_true(orx_plan_takes_host_segments(t, r, device_in_place, least, source));
}

/* Pairs the host can read on CPU devices (host memory; buffers at every size, host_plan.h): the
 * host plan for whole arrays of the built-in pair operators, on every type, the run-to-run sum
 * and CROSS_DEVICE's reproducible one, each with a host kernel of the same block
 * (host_kernel.inc's values' type is the planner's), and their equal segments (not under
 * host=device); not for states of a group's parts or a user's pair operator, on other devices,
 * or under host=off. One input's segments alike, within their bounds. */
static void test_pairs_take_the_host_plan_on_cpus(void **state) {
  (void)state;
  const orx_caps cpu = test_cpu(), gpu = test_gpu();
  const orx_target t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  const orx_target on_gpu = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  orx_target off = t;
  assert_int_equal(orx_parse_policy_override("host=off", &off.forced), OCL_REDUCE_OK);
  int checked = 0;
  for (int pair = 0; pair < ORX_PAIR_COUNT; pair++) {
    for (int type = 0; type < OCL_REDUCE_TYPE_COUNT; type++) {
      for (int cross = 0; cross < 2; cross++) {
        orx_request r = pair_request(pair, (ocl_reduce_type)type, 0);
        if (cross && !orx_type_is_float(r.type))
          continue;
        if (cross) { /* CROSS_DEVICE: the values' reproducible sum */
          const orx_pair_request pr = r.pair;
          r = orx_reduce_request(ORX_OP_SUM_REPRODUCIBLE, r.type);
          r.pair = pr;
        }
        assert_true(orx_plan_takes_host(&t, &r, 1000, ORX_HOST_SOURCE_MEMORY));
        /* buffers: every size */
        assert_true(orx_plan_takes_host(&t, &r, (size_t)1 << 30, ORX_HOST_SOURCE_BUFFER));
        assert_false(orx_plan_takes_host(&on_gpu, &r, 1000, ORX_HOST_SOURCE_MEMORY));
        assert_false(orx_plan_takes_host(&off, &r, 1000, ORX_HOST_SOURCE_MEMORY));
        assert_true(orx_plan_takes_host_segments(&t, &r, 0, 1, ORX_HOST_SOURCE_BUFFER_READ));
        assert_false(orx_plan_takes_host_segments(&on_gpu, &r, 0, 1, ORX_HOST_SOURCE_MEMORY));
        assert_false(orx_plan_takes_host_segments(&off, &r, 0, 1, ORX_HOST_SOURCE_MEMORY));
        orx_request parts = r;
        parts.stage = ORX_STAGE_PARTIAL;
        assert_false(orx_plan_takes_host(&t, &parts, 1000, ORX_HOST_SOURCE_MEMORY));
        r.host = 1;
        orx_plan plan;
        orx_plan_make(&t, &r, &plan);
        if (orx_host_can_run(&plan) != orx_sources_embedded())
          fail_msg("pair operator %d on %s%s: no host kernel has the host plan's defines", pair,
                   ocl_reduce_type_name((ocl_reduce_type)type), cross ? ", reproducible" : "");
        checked++;
      }
    }
  }
  assert_int_equal(checked, ORX_PAIR_COUNT * OCL_REDUCE_TYPE_COUNT + 3 * 4);
  orx_request user = orx_custom_request(&(orx_operator){0});
  user.pair = (orx_pair_request){1, ORX_PAIR_USER, OCL_REDUCE_OP_ELEMENT, 0};
  assert_false(orx_plan_takes_host(&t, &user, 1000, ORX_HOST_SOURCE_MEMORY));
  assert_false(orx_plan_takes_host_segments(&t, &user, 0, 1000, ORX_HOST_SOURCE_MEMORY));
  orx_target device = t; /* the device has no run of the segments' form */
  assert_int_equal(orx_parse_policy_override("host=device", &device.forced), OCL_REDUCE_OK);
  const orx_request dot = pair_request(ORX_PAIR_DOT, OCL_REDUCE_F32, 0);
  assert_false(orx_plan_takes_host_segments(&device, &dot, 0, 1000, ORX_HOST_SOURCE_MEMORY));
  /* One input's equal segments into host memory: scalar built-in operators, from host memory
   * segments of at least one step of the host plan's loads (32 f32 elements, 16 f64); never a
   * buffer's into a buffer. */
  const orx_request one = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  const orx_request one_f64 = orx_reduce_request(ORX_OP_MAX, OCL_REDUCE_F64);
  const orx_host_source memory = ORX_HOST_SOURCE_MEMORY;
  host_segments_from(&t, &one, 0, memory, 32);
  assert_true(orx_plan_takes_host_segments(&t, &one, 0, 1 << 20, memory));
  host_segments_from(&t, &one_f64, 0, memory, 16);
  assert_false(orx_plan_takes_host_segments(&t, &one, 0, 1000, ORX_HOST_SOURCE_BUFFER));
  assert_false(orx_plan_takes_host_segments(&device, &one, 0, 1000, memory));
  assert_false(orx_plan_takes_host_segments(&off, &one, 0, 1000, memory));
  assert_false(orx_plan_takes_host_segments(&on_gpu, &one, 0, 1000, memory));
  const orx_request argmin = orx_reduce_request(ORX_OP_ARGMIN, OCL_REDUCE_F32);
  assert_false(orx_plan_takes_host_segments(&t, &argmin, 0, 1000, memory));
  const orx_request f16 = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F16);
  const orx_request bf16 = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_BF16);
  assert_false(orx_plan_takes_host_segments(&t, &f16, 0, 1000, memory));
  assert_true(orx_plan_takes_host_segments(&t, &bf16, 0, 1000, memory));
  const orx_request user_one = orx_custom_request(&(orx_operator){.id = ORX_OP_CUSTOM});
  assert_false(orx_plan_takes_host_segments(&t, &user_one, 0, 1000, memory));
  /* Where the device's plan reads the elements where they lie (a view of host memory, and vector
   * runs: the exec layer's segment_views.c; a buffer, its results into host memory), from 512
   * bytes (128 f32 elements, 64 f64) only. */
  const orx_host_source read = ORX_HOST_SOURCE_BUFFER_READ;
  host_segments_from(&t, &one, 1, memory, 128);
  host_segments_from(&t, &one_f64, 1, memory, 64);
  host_segments_from(&t, &one, 0, read, 128);
  host_segments_from(&t, &one_f64, 0, read, 64);
  assert_false(orx_plan_takes_host_segments(&off, &one, 1, 1000, memory));
  assert_false(orx_plan_takes_host_segments(&off, &one, 0, 1000, read));
  assert_false(orx_plan_takes_host_segments(&device, &one, 0, 1000, read));
  assert_false(orx_plan_takes_host_segments(&t, &argmin, 0, 1000, read));
  assert_false(orx_plan_takes_host_segments(&t, &f16, 0, 1000, read));
  assert_false(orx_plan_takes_host_segments(&on_gpu, &one, 0, 1000, read));
}

/* The sweeps' tables (TEST_OP_TYPES for the scalar operators, TEST_STRUCTURED_OP_TYPES) hold
 * exactly the pairs of a built-in operator and a type the library takes, and each operator's
 * kind agrees with its test reference: a new built-in operator is swept once it is listed. */
static void test_sweep_tables_cover_every_operator(void **state) {
  (void)state;
  int listed[OCL_REDUCE_BUILTIN_OPS][OCL_REDUCE_TYPE_COUNT];
  memset(listed, 0, sizeof listed);
#define ORX_LIST_SCALAR(OP, TYPE) listed[test_op_index(OCL_REDUCE_##OP)][OCL_REDUCE_##TYPE] = 1;
#define ORX_LIST_STRUCTURED(OP, TYPE) listed[test_op_index(OCL_REDUCE_##OP)][OCL_REDUCE_##TYPE] = 2;
  TEST_OP_TYPES(ORX_LIST_SCALAR)
  TEST_STRUCTURED_OP_TYPES(ORX_LIST_STRUCTURED)
  for (int op = 0; op < OCL_REDUCE_BUILTIN_OPS; op++) {
    const ocl_reduce_op public_op = OCL_REDUCE_BUILTIN_OP(op);
    const int kind = test_op_structured(public_op) ? 2 : 1;
    assert_int_equal(kind == 2, (orx_op_flags(op) & ORX_OPF_STATE) != 0);
    for (int type = 0; type < OCL_REDUCE_TYPE_COUNT; type++) {
      const int takes = orx_op_type_refusal(op, (ocl_reduce_type)type) == NULL;
      if (listed[op][type] != (takes ? kind : 0))
        fail_msg("%s on %s: %s the sweeps' table (tests/support/fixture.h, structured.h)",
                 ocl_reduce_op_name(public_op), ocl_reduce_type_name((ocl_reduce_type)type),
                 takes ? "missing from" : "listed in, but not taken by the library, in");
    }
  }
}

/* Every backend built into this library fills every slot backend.h requires. */
static void test_every_backend_table_is_complete(void **state) {
  (void)state;
  int built = 0;
  for (size_t i = 0; i < orx_backend_row_count(); i++) {
    const orx_backend_row *row = orx_backend_row_at(i);
    assert_non_null(orx_backend_row_of(row->kind));
    if (!row->ops)
      continue;
    built++;
    const char *missing = orx_backend_missing_slot(row->ops);
    if (missing)
      fail_msg("the %s backend leaves its %s slot NULL", row->title, missing);
  }
  assert_true(built >= 1); /* OpenCL always */
  /* And an incomplete table is found. */
  orx_backend_ops partial = *orx_backend_row_at(0)->ops;
  partial.launch = NULL;
  assert_string_equal(orx_backend_missing_slot(&partial), "launch");
  partial = *orx_backend_row_at(0)->ops;
  partial.read_async = NULL;
  assert_string_equal(orx_backend_missing_slot(&partial), "alloc_pinned");
}

/* Axes: what drops, what merges, and the form each layout takes (plan_axes.h). */
static orx_axes_layout axes_layout(unsigned rank, const uint64_t *extents, const uint64_t *strides,
                                   uint32_t axes) {
  orx_axes_layout l;
  assert_int_equal(orx_axes_layout_of(rank, extents, strides, axes, &l), ORX_AXES_OK);
  return l;
}

static void test_axes_layouts(void **state) {
  (void)state;
  const uint64_t e2[2] = {300, 40}, s2[2] = {40, 1};
  /* Row sums: rows; all: one run; column sums: columns. */
  orx_axes_layout l = axes_layout(2, e2, s2, 2u);
  assert_int_equal(l.form, ORX_AXES_ROWS);
  assert_int_equal(l.results, 300);
  assert_int_equal(l.length, 40);
  assert_int_equal(l.reach, 12000);
  assert_int_equal(axes_layout(2, e2, s2, 3u).form, ORX_AXES_WHOLE);
  assert_int_equal(axes_layout(2, e2, s2, 1u).form, ORX_AXES_COLUMNS);
  /* [8, 1, 5, 6] dense reducing {2, 3}: the axis of 1 drops, 5 x 6 merges into one run. */
  const uint64_t e4[4] = {8, 1, 5, 6}, s4[4] = {30, 30, 6, 1};
  l = axes_layout(4, e4, s4, 0xcu);
  assert_int_equal(l.form, ORX_AXES_ROWS);
  assert_int_equal(l.reduced.rank, 1);
  assert_int_equal(l.length, 30);
  assert_int_equal(l.kept.rank, 1);
  /* Reducing {0, 2} of it: 8 x 5 at strides 30 and 6 are one run of 40 at stride 6 (30 = 5 x 6),
   * not contiguous, around the kept axis of stride 1: columns. Reducing {0, 3}: 8 x 6 at 30
   * and 1 stay two axes, the inner one contiguous, around a kept axis of stride 6: general. */
  l = axes_layout(4, e4, s4, 0x5u);
  assert_int_equal(l.form, ORX_AXES_COLUMNS);
  assert_int_equal(l.reduced.rank, 1);
  assert_int_equal(l.reduced.strides[0], 6);
  assert_int_equal(l.length, 40);
  assert_int_equal(l.results, 6);
  l = axes_layout(4, e4, s4, 0x9u);
  assert_int_equal(l.form, ORX_AXES_GENERAL);
  assert_int_equal(l.reduced.rank, 2);
  assert_int_equal(l.kept.rank, 1);
  /* Padded rows (stride 64 > 40) and overlapping ones (stride 8 < 40): rows with a pitch; a
   * repeated row (stride 0): every work-item of the columns' reads the same element at each
   * step, reach 40. */
  const uint64_t padded[2] = {64, 1}, overlapping[2] = {8, 1}, repeated[2] = {0, 1};
  l = axes_layout(2, e2, padded, 2u);
  assert_int_equal(l.form, ORX_AXES_ROWS);
  assert_int_equal(l.reach, 299 * 64 + 40);
  assert_int_equal(axes_layout(2, e2, overlapping, 2u).form, ORX_AXES_ROWS);
  l = axes_layout(2, e2, repeated, 2u);
  assert_int_equal(l.form, ORX_AXES_COLUMNS);
  assert_int_equal(l.reach, 40);
  /* A repeated axis reduced alone merges with nothing but stays one axis. */
  assert_int_equal(axes_layout(2, e2, repeated, 1u).reduced.rank, 1);
  /* An extent of 0: no result, or identities; nothing reached. */
  const uint64_t zero[2] = {0, 40};
  l = axes_layout(2, zero, s2, 2u);
  assert_int_equal(l.form, ORX_AXES_EMPTY);
  assert_int_equal(l.results, 0);
  l = axes_layout(2, zero, s2, 1u);
  assert_int_equal(l.form, ORX_AXES_EMPTY);
  assert_int_equal(l.results, 40);
  assert_int_equal(l.length, 0);
  assert_int_equal(l.reach, 0);
  /* [8, 6, 5] dense reducing {0, 2}: general, in two passes where asked: 48 rows of 5, then the
   * column sums of [8, 6] (kept 6 at stride 1 inside reduced 8 at stride 6). Not when the
   * innermost reduced axis is strided. */
  const uint64_t e3[3] = {8, 6, 5}, s3[3] = {30, 5, 1}, strided3[3] = {60, 10, 2};
  l = axes_layout(3, e3, s3, 5u);
  assert_int_equal(l.form, ORX_AXES_GENERAL);
  assert_true(l.split.possible);
  assert_int_equal(l.split.rows, 48);
  assert_int_equal(l.split.length, 5);
  assert_int_equal(l.split.pitch, 5);
  const orx_axes_layout rest = orx_axes_split_rest(&l);
  assert_int_equal(rest.kept.rank, 1);
  assert_int_equal(rest.kept.extents[0], 6);
  assert_int_equal(rest.kept.strides[0], 1);
  assert_int_equal(rest.reduced.rank, 1);
  assert_int_equal(rest.reduced.extents[0], 8);
  assert_int_equal(rest.reduced.strides[0], 6);
  assert_int_equal(rest.length, 8);
  assert_false(axes_layout(3, e3, strided3, 5u).split.possible);
  /* Problems. */
  orx_axes_layout bad;
  assert_int_equal(orx_axes_layout_of(0, e2, s2, 1u, &bad), ORX_AXES_BAD_RANK);
  assert_int_equal(orx_axes_layout_of(9, e2, s2, 1u, &bad), ORX_AXES_BAD_RANK);
  assert_int_equal(orx_axes_layout_of(2, e2, s2, 0u, &bad), ORX_AXES_NO_AXIS);
  assert_int_equal(orx_axes_layout_of(2, e2, s2, 4u, &bad), ORX_AXES_AXIS_PAST);
  const uint64_t big[2] = {(uint64_t)1 << 32, (uint64_t)1 << 32}, far[2] = {(uint64_t)1 << 62, 1};
  assert_int_equal(orx_axes_layout_of(2, big, s2, 3u, &bad), ORX_AXES_TOO_MANY);
  assert_int_equal(orx_axes_layout_of(2, e2, far, 1u, &bad), ORX_AXES_REACH_PAST);
}

/* The first launch's plan of a dense [rows, columns] view reduced along its rows (column sums). */
static orx_plan column_plan(const orx_target *t, ocl_reduce_type type, uint64_t rows,
                            uint64_t columns) {
  const uint64_t extents[2] = {rows, columns}, strides[2] = {columns, 1};
  const orx_axes_layout l = axes_layout(2, extents, strides, 1u);
  orx_request r = orx_reduce_request(ORX_OP_SUM, type);
  orx_column_level levels[ORX_COLUMN_LEVELS];
  orx_plan_column_levels(t, &l, &r, levels);
  r.stage = levels[0].stage;
  r.shape.length = levels[0].length;
  r.columns_flat = levels[0].flat;
  orx_plan plan;
  orx_plan_make(t, &r, &plan);
  return plan;
}

static void test_columns_batch_their_loads_on_gpus(void **state) {
  (void)state;
  const orx_caps cpu = test_cpu(), gpu = test_gpu();
  orx_target t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  /* GPUs: a position per work-item and 16 loads in flight (64 bytes of f32, 128 of f64); short
   * columns a vector per work-item, 8 of them (128 bytes). */
  orx_plan p = column_plan(&t, OCL_REDUCE_F32, 1 << 14, 1 << 14);
  assert_int_equal(p.defines[ORX_DEFINE_COL_RUN], 1);
  assert_int_equal(p.defines[ORX_DEFINE_COL_STEPS], 16);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F64, 1 << 14, 1 << 14).defines[ORX_DEFINE_COL_STEPS],
                   16);
  p = column_plan(&t, OCL_REDUCE_F32, 16, 1 << 20);
  assert_int_equal(p.defines[ORX_DEFINE_COL_RUN], p.policy.vec);
  assert_int_equal(p.defines[ORX_DEFINE_COL_STEPS] * p.policy.vec * 4, 128);
  t.forced.col_run = 4; /* forced: at most 4, and what divides the row */
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 14, 1 << 14).defines[ORX_DEFINE_COL_RUN],
                   4);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 14, 6).defines[ORX_DEFINE_COL_RUN], 2);
  t.forced.col_steps = 32; /* forced: as many runs a batch, on any device */
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 14, 1 << 14).defines[ORX_DEFINE_COL_STEPS],
                   32);
  t.forced.col_steps = 0;
  /* The straight loop where columns are whole, forced either way ([2^14, 2^14] is cut into
   * parts on the test GPU, [16, 2^20] is not). */
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 14, 1 << 14).defines[ORX_DEFINE_COL_FLAT],
                   ORX_DEFINE_UNSET);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 16, 1 << 20).defines[ORX_DEFINE_COL_FLAT], 1);
  t.forced.col_flat = 1;
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 14, 1 << 14).defines[ORX_DEFINE_COL_FLAT],
                   1);
  t.forced.col_flat = 0;
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 16, 1 << 20).defines[ORX_DEFINE_COL_FLAT],
                   ORX_DEFINE_UNSET);
  t.forced.col_flat = -1;
  /* CPUs: a page of a row per run and no batches, however few the runs (fewer kept positions
   * per run lost here: plan_columns.c). */
  t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  p = column_plan(&t, OCL_REDUCE_F32, 1 << 12, 1 << 20);
  assert_int_equal(p.defines[ORX_DEFINE_COL_RUN], 1024);
  assert_int_equal(p.defines[ORX_DEFINE_COL_STEPS], 1);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 64, 4096).defines[ORX_DEFINE_COL_RUN], 1024);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F64, 64, 4096).defines[ORX_DEFINE_COL_RUN], 512);
}

/* Short rows (plan_columns.c, columns_tall): on GPUs a work-group reads rows side by side and
 * combines them into a partial per part, where a row holds a quarter of a group's runs at most,
 * in a power of two; half the grid's groups; CPU devices only when forced. */
static void test_short_rows_are_tall_columns_on_gpus(void **state) {
  (void)state;
  const orx_caps cpu = test_cpu(), gpu = test_gpu();
  orx_target t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  orx_plan p = column_plan(&t, OCL_REDUCE_F32, 1 << 24, 16);
  const uint64_t vec = p.policy.vec, wg = p.policy.wg_size;
  assert_int_equal(p.defines[ORX_DEFINE_COL_TALL], 1);
  assert_int_equal(p.defines[ORX_DEFINE_COL_RUN], vec);
  assert_int_equal(p.defines[ORX_DEFINE_COL_FLAT], ORX_DEFINE_UNSET);
  const uint64_t parts = orx_plan_columns_parts(&p, 16, 1 << 24);
  assert_int_equal(parts, p.policy.max_groups / 2);
  assert_int_equal(orx_plan_columns_items(&p, 16, parts), parts * wg);
  /* Few rows: fewer parts, each work-item 64 rows at least. */
  assert_int_equal(orx_plan_columns_parts(&p, 16, 1000), 1);
  assert_int_equal(orx_plan_columns_parts(&p, 16, (wg / (16 / vec)) * 64 * 3), 3);
  const uint64_t quarter = wg / 4 * vec;
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 20, quarter).defines[ORX_DEFINE_COL_TALL],
                   1);
  assert_int_equal(
      column_plan(&t, OCL_REDUCE_F32, 1 << 18, 2 * quarter).defines[ORX_DEFINE_COL_TALL],
      ORX_DEFINE_UNSET);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 20, 3 * vec).defines[ORX_DEFINE_COL_TALL],
                   ORX_DEFINE_UNSET);
  t.forced.col_tall = 0;
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 24, 16).defines[ORX_DEFINE_COL_TALL],
                   ORX_DEFINE_UNSET);
  /* CPU devices: forced only, with their policy's groups (not a work-item each). */
  t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 20, 16).defines[ORX_DEFINE_COL_TALL],
                   ORX_DEFINE_UNSET);
  t.forced.col_tall = 1;
  p = column_plan(&t, OCL_REDUCE_F32, 1 << 20, 16);
  assert_int_equal(p.defines[ORX_DEFINE_COL_TALL], 1);
  assert_true(p.policy.wg_size > 1);
}

/* Columns cut into 2 to 64 parts (plan_columns.c, columns_finish): one launch whose last tile of
 * a block folds the block's partials (the fold the launch over them would do), on devices that
 * order work-groups: GPUs for views of 512 MiB at most, any device and size where col_finish=1,
 * none where col_finish=0 or finish=launch; more parts, tall columns and unordered devices keep
 * their launches over the partials. */
static void test_columns_cut_into_few_parts_finish_in_their_launch(void **state) {
  (void)state;
  const orx_caps gpu = test_gpu(), cpu = test_cpu();
  orx_caps old_gpu = test_gpu();
  old_gpu.device_sync = ORX_SYNC_NONE; /* OpenCL 1.2 */
  orx_target t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  const uint64_t extents[2] = {1 << 13, 1 << 13}, strides[2] = {1 << 14, 1};
  const orx_axes_layout window = axes_layout(2, extents, strides, 1u);
  orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_column_level levels[ORX_COLUMN_LEVELS];
  assert_int_equal(orx_plan_column_levels(&t, &window, &r, levels), 1);
  assert_int_equal(levels[0].stage, ORX_STAGE_WHOLE);
  assert_true(levels[0].parts > 1 && levels[0].parts <= 64);
  orx_plan p = column_plan(&t, OCL_REDUCE_F32, 1 << 13, 1 << 13);
  assert_int_equal(p.defines[ORX_DEFINE_COL_FINISH], 1);
  assert_int_equal(p.defines[ORX_DEFINE_SYNC], gpu.device_sync);
  const uint64_t blocks = orx_plan_columns_blocks(&p, 1 << 13);
  assert_int_equal(blocks, (1 << 13) / p.policy.wg_size);
  assert_int_equal(orx_plan_columns_items(&p, 1 << 13, levels[0].parts),
                   blocks * p.policy.wg_size * levels[0].parts);
  /* Not a multiple of the group's runs: a tile's last work-items idle. */
  p = column_plan(&t, OCL_REDUCE_F32, 3000, 1000);
  assert_int_equal(orx_plan_columns_blocks(&p, 1000),
                   (1000 + p.policy.wg_size - 1) / p.policy.wg_size);
  /* A view of more than 512 MiB: the launch's registers would cost its fold more than a
   * launch over the partials. */
  p = column_plan(&t, OCL_REDUCE_F32, 1 << 14, 1 << 14);
  assert_int_equal(p.defines[ORX_DEFINE_COL_FINISH], ORX_DEFINE_UNSET);
  /* More parts than 64: launches over the partials. */
  const uint64_t narrow[2] = {1 << 20, 256};
  const uint64_t narrow_strides[2] = {256, 1};
  const orx_axes_layout many = axes_layout(2, narrow, narrow_strides, 1u);
  r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  assert_true(orx_plan_column_levels(&t, &many, &r, levels) > 1);
  assert_int_equal(levels[0].stage, ORX_STAGE_PARTIAL);
  /* One part, tall columns: nothing to finish. */
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 64, 1 << 20).defines[ORX_DEFINE_COL_FINISH],
                   ORX_DEFINE_UNSET);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 24, 16).defines[ORX_DEFINE_COL_FINISH],
                   ORX_DEFINE_UNSET);
  /* Forced (col_finish=1): views of any size. */
  assert_int_equal(orx_parse_policy_override("col_finish=1", &t.forced), OCL_REDUCE_OK);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 14, 1 << 14).defines[ORX_DEFINE_COL_FINISH],
                   1);
  assert_int_equal(orx_parse_policy_override("col_finish=0", &t.forced), OCL_REDUCE_OK);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 13, 1 << 13).defines[ORX_DEFINE_COL_FINISH],
                   ORX_DEFINE_UNSET);
  /* CPU devices: forced only (a group per work-item: a block per run). */
  t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  p = column_plan(&t, OCL_REDUCE_F32, 3000, 1000);
  assert_int_equal(p.defines[ORX_DEFINE_COL_FINISH], ORX_DEFINE_UNSET);
  assert_int_equal(orx_parse_policy_override("col_finish=1", &t.forced), OCL_REDUCE_OK);
  p = column_plan(&t, OCL_REDUCE_F32, 3000, 1000);
  assert_int_equal(p.defines[ORX_DEFINE_COL_FINISH], 1);
  assert_int_equal(orx_plan_columns_blocks(&p, 1000), 1000 / orx_plan_columns_run(&p));
  /* Not where work-groups are not ordered, nor where finish=launch is forced. */
  t = test_target(&old_gpu, OCL_REDUCE_PATH_AUTO);
  r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  assert_int_equal(orx_plan_column_levels(&t, &window, &r, levels), 2);
  assert_int_equal(levels[0].stage, ORX_STAGE_PARTIAL);
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  assert_int_equal(orx_parse_policy_override("finish=launch", &t.forced), OCL_REDUCE_OK);
  p = column_plan(&t, OCL_REDUCE_F32, 1 << 13, 1 << 13);
  assert_int_equal(p.defines[ORX_DEFINE_COL_FINISH], ORX_DEFINE_UNSET);
  assert_int_equal(orx_plan_columns_blocks(&p, 1 << 13), 0);
}

/* GPUs: columns not cut into parts launch half the whole-array grid (groups that are resident
 * together); columns cut into parts, and a grid set by OCL_REDUCE_POLICY, keep it. */
static void test_columns_of_one_part_take_one_wave_of_groups(void **state) {
  (void)state;
  const orx_caps gpu = test_gpu(), cpu = test_cpu();
  orx_target t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  const orx_plan parted = column_plan(&t, OCL_REDUCE_F32, 1 << 13, 1 << 13);
  const orx_plan one = column_plan(&t, OCL_REDUCE_F32, 256, 1 << 20);
  assert_true(orx_plan_columns_parts(&parted, 1 << 13, 1 << 13) > 1);
  assert_int_equal(orx_plan_columns_parts(&one, 1 << 20, 256), 1);
  assert_true(parted.policy.max_groups >= 2);
  assert_int_equal(one.policy.max_groups, parted.policy.max_groups / 2);
  const uint64_t items = orx_plan_columns_items(&one, 1 << 20, 1);
  assert_int_equal(orx_plan_groups(&one, (size_t)items, 256), one.policy.max_groups);
  /* Short columns read a vector per work-item: one part, half the grid too. */
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 16, 1 << 24).policy.max_groups,
                   parted.policy.max_groups / 2);
  /* Forced groups stay as forced. */
  assert_int_equal(orx_parse_policy_override("groups=96", &t.forced), OCL_REDUCE_OK);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 256, 1 << 20).policy.max_groups, 96);
  /* CPU devices keep their group per work-item over the whole grid's work-items. */
  t = test_target(&cpu, OCL_REDUCE_PATH_AUTO);
  const orx_plan cpu_one = column_plan(&t, OCL_REDUCE_F32, 256, 1 << 20);
  assert_int_equal(cpu_one.policy.wg_size, 1);
  assert_int_equal(cpu_one.policy.max_groups,
                   column_plan(&t, OCL_REDUCE_F32, 1 << 13, 1 << 13).policy.max_groups);
}

/* Columns cut into parts: a power of two of them, as many as the grid's work-items hold whole
 * (a part more left a second round to a few groups); two where the runs fill half the grid. */
static void test_columns_parts_are_a_power_of_two_the_grid_holds(void **state) {
  (void)state;
  const orx_caps gpu = test_gpu();
  const orx_target t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  const uint64_t shapes[][2] = {{1 << 14, 1 << 14}, {1 << 13, 1 << 13}, {1 << 14, 3000},
                                {1 << 16, 1000}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    const uint64_t rows = shapes[i][0], columns = shapes[i][1];
    const orx_plan p = column_plan(&t, OCL_REDUCE_F32, rows, columns);
    const uint64_t grid = (uint64_t)p.policy.max_groups * p.policy.wg_size;
    const uint64_t runs = columns / orx_plan_columns_run(&p);
    const uint64_t parts = orx_plan_columns_parts(&p, columns, rows);
    assert_true(parts >= 2 && (parts & (parts - 1)) == 0);
    assert_true(parts * runs <= grid && 2 * parts * runs > grid);
  }
  /* Runs between half the grid and all of it: two parts, as before (not measured). */
  const orx_plan p = column_plan(&t, OCL_REDUCE_F32, 1 << 12, 1 << 12);
  const uint64_t grid = (uint64_t)p.policy.max_groups * p.policy.wg_size;
  const uint64_t columns = grid * 3 / 4;
  assert_int_equal(orx_plan_columns_parts(&p, columns, 1 << 12), 2);
}

static void test_columns_on_cpus_read_straight_and_take_a_group_each(void **state) {
  (void)state;
  orx_caps pocl = test_cpu(), intel = test_cpu(), gpu = test_gpu();
  pocl.emulated_subgroups = pocl.work_items_in_turn = 1;
  intel.has_khr_subgroups = intel.has_intel_subgroups = 1;
  /* PoCL: every run absorbed straight from memory, wide or narrow; Intel's runtime and GPUs
   * through a copy. */
  orx_target t = test_target(&pocl, OCL_REDUCE_PATH_AUTO);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 11, 1 << 14).defines[ORX_DEFINE_COL_DIRECT],
                   1);
  assert_int_equal(column_plan(&t, OCL_REDUCE_F32, 1 << 20, 16).defines[ORX_DEFINE_COL_DIRECT], 1);
  const orx_caps *others[] = {&intel, &gpu};
  for (size_t k = 0; k < 2; k++) {
    t = test_target(others[k], OCL_REDUCE_PATH_AUTO);
    const orx_plan p = column_plan(&t, OCL_REDUCE_F32, 1 << 11, 1 << 14);
    assert_int_equal(p.defines[ORX_DEFINE_COL_DIRECT], ORX_DEFINE_UNSET);
  }
  /* CPU devices: a work-item per group, as many groups as the whole-array grid's work-items;
   * GPUs keep the whole-array groups. */
  const orx_caps *cpus[] = {&pocl, &intel};
  for (size_t k = 0; k < 2; k++) {
    t = test_target(cpus[k], OCL_REDUCE_PATH_AUTO);
    orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
    orx_plan whole;
    orx_plan_make(&t, &r, &whole);
    const orx_plan p = column_plan(&t, OCL_REDUCE_F32, 1 << 11, 1 << 14);
    assert_int_equal(p.policy.wg_size, 1);
    assert_int_equal(p.defines[ORX_DEFINE_WG_SIZE], 1);
    assert_int_equal(p.policy.max_groups, whole.policy.max_groups * whole.policy.wg_size);
    assert_int_equal(orx_plan_groups(&p, 100, 0), 100);
  }
  t = test_target(&gpu, OCL_REDUCE_PATH_AUTO);
  assert_true(column_plan(&t, OCL_REDUCE_F32, 1 << 11, 1 << 14).policy.wg_size > 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_define_a_plan_emits_is_in_the_contract_with_a_default),
      cmocka_unit_test(test_axes_layouts),
      cmocka_unit_test(test_columns_batch_their_loads_on_gpus),
      cmocka_unit_test(test_short_rows_are_tall_columns_on_gpus),
      cmocka_unit_test(test_columns_cut_into_few_parts_finish_in_their_launch),
      cmocka_unit_test(test_columns_of_one_part_take_one_wave_of_groups),
    cmocka_unit_test(test_columns_parts_are_a_power_of_two_the_grid_holds),
      cmocka_unit_test(test_columns_on_cpus_read_straight_and_take_a_group_each),
      cmocka_unit_test(test_rows_apart_take_a_pitch),
      cmocka_unit_test(test_program_keys_tell_plans_and_operators_apart),
      cmocka_unit_test(test_ordered_operators_take_runs_in_order),
      cmocka_unit_test(test_windows_plans),
      cmocka_unit_test(test_windows_wide_states_in_one_launch),
      cmocka_unit_test(test_by_key_plans),
      cmocka_unit_test(test_by_key_counted_plans),
      cmocka_unit_test(test_program_plans),
      cmocka_unit_test(test_plans_describe_themselves_in_policy_syntax),
      cmocka_unit_test(test_paths_share_kernels_that_read_no_subgroup_define),
      cmocka_unit_test(test_auto_takes_subgroups_when_present_and_local_otherwise),
      cmocka_unit_test(test_cpu_devices_with_real_subgroups_take_local_memory),
      cmocka_unit_test(test_forced_path_or_implementation_is_never_a_fallback),
      cmocka_unit_test(test_nvidia_opencl_takes_inline_ptx_with_32_lane_warps),
      cmocka_unit_test(test_cpu_streams_chunks_gpu_stride_cuda_tiles),
      cmocka_unit_test(test_policy_fits_small_devices),
      cmocka_unit_test(test_groups_grow_with_count_up_to_the_cap),
      cmocka_unit_test(test_segments_spread_by_length),
      cmocka_unit_test(test_host_plan_streams_runs_side_by_side),
      cmocka_unit_test(test_policy_override_parses_and_rejects),
      cmocka_unit_test(test_multireduction_caps_registers_through_cuda),
      cmocka_unit_test(test_costly_states_keep_the_multireduction),
      cmocka_unit_test(test_small_work_groups_per_segment),
      cmocka_unit_test(test_lane_mode_folds_runs_of_whole_vector_segments),
      cmocka_unit_test(test_lane_runs_take_vectors_that_fit_registers_and_segments),
      cmocka_unit_test(test_lane_walk_takes_groups_of_8_and_short_vectors_on_cpus),
      cmocka_unit_test(test_group_parts_follow_weights_and_least_part),
      cmocka_unit_test(test_keys_register_caps_and_waits),
      cmocka_unit_test(test_narrow_min_and_max_take_four_groups_per_sm),
      cmocka_unit_test(test_narrow_loads_take_16_bytes_on_opencl_gpus),
      cmocka_unit_test(test_narrow_vectors_split_on_cpu_devices),
      cmocka_unit_test(test_pairs_plan_vectors_loads_and_defines),
      cmocka_unit_test(test_device_selector),
      cmocka_unit_test(test_identities_and_compute_types),
      cmocka_unit_test(test_host_plan_has_a_host_kernel_on_every_cpu_target),
    cmocka_unit_test(test_pairs_take_the_host_plan_on_cpus),
      cmocka_unit_test(test_sweep_tables_cover_every_operator),
      cmocka_unit_test(test_every_backend_table_is_complete),
      cmocka_unit_test(test_repro_group_split_where_planned),
  };
  return TEST_RUN(tests, NULL, NULL);
}
