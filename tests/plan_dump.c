/* =================================================================================================
 * plan_dump.c: the planner's plans, as text, over a grid of synthetic devices (a GPU without
 * subgroups, an H200 through CUDA, NVIDIA's OpenCL, PoCL's and Intel's CPU devices, a GPU with
 * khr shuffles) and of requests (every operator and type, whole arrays at every stage and size,
 * segments of 25 lengths with and without offsets, windows, several operators, the offsets
 * check), and OCL_REDUCE_POLICY strings as parsed. scripts/plan_diff.sh compiles it against two
 * trees (PLANNER_H names the planner's header there): a change meant to keep every plan (a
 * refactor of the planner) shows no difference.
 * ============================================================================================== */
#include <stdio.h>
#include <string.h>

#include PLANNER_H
#if defined(__has_include) /* where the tree has it: the host plan's requests */
#if __has_include("planner/plan_host.h")
#include "planner/plan_host.h"
#endif
#endif

enum { DEVICES = 6 };

static unsigned long hash(const void *bytes, size_t size) {
  unsigned long h = 5381;
  for (size_t i = 0; i < size; i++)
    h = h * 33 + ((const unsigned char *)bytes)[i];
  return h;
}

static orx_caps gpu(void) {
  orx_caps c;
  memset(&c, 0, sizeof c);
  c.type = OCL_REDUCE_DEVICE_GPU;
  c.compute_units = 132;
  c.max_work_group_size = 1024;
  c.local_mem_bytes = 48 * 1024;
  c.base_align_bytes = 128;
  c.has_fp64 = 1;
  c.max_alloc_bytes = 1ull << 36;
  c.global_mem_bytes = 1ull << 37;
  c.device_sync = ORX_SYNC_CL_ATOMICS;
  return c;
}

static void devices(orx_caps *d) {
  d[0] = gpu(); /* no subgroups: the local path */
  d[1] = gpu(); /* an H200 through CUDA */
  d[1].warp_size = 32;
  d[1].has_cuda_shuffle = 1;
  d[1].base_align_bytes = 256;
  d[1].device_sync = ORX_SYNC_CUDA;
  d[2] = gpu(); /* NVIDIA's OpenCL: inline-PTX shuffles */
  d[2].warp_size = 32;
  d[2].device_sync = ORX_SYNC_PTX;
  d[3] = gpu(); /* PoCL's CPU device */
  d[3].type = OCL_REDUCE_DEVICE_CPU;
  d[3].compute_units = 16;
  d[3].max_work_group_size = 4096;
  d[3].local_mem_bytes = 1 << 20;
  d[3].has_khr_subgroups = d[3].has_khr_shuffle = d[3].emulated_subgroups = 1;
  d[4] = d[3]; /* Intel's CPU runtime */
  d[4].emulated_subgroups = d[4].has_khr_shuffle = 0;
  d[4].has_intel_subgroups = 1;
  d[5] = gpu(); /* a GPU with khr shuffles */
  d[5].has_khr_subgroups = d[5].has_khr_shuffle = 1;
  d[5].compute_units = 96;
}

static void dump(const char *what, const orx_plan *p, size_t count, uint64_t length) {
  char text[2048];
  orx_plan_describe(p, count, length, text, sizeof text);
  printf("%s: %s | kernel %d type %d slots %u element %u partials %zu state %u", what, text,
         (int)p->kernel, (int)p->type, p->slots, p->element_bytes, p->partials_bytes,
         p->op.state_bytes);
  /* By name: a define added or removed renumbers the others, not their plans. */
  for (int d = 0; d < ORX_DEFINE_COUNT; d++)
    if (p->defines[d] != ORX_DEFINE_UNSET)
      printf(" %s=%lld", orx_define_name((orx_define)d), (long long)p->defines[d]);
  printf(" policy %lx seg %d/%u/%u/%u win %d\n", hash(&p->policy, sizeof p->policy),
         (int)p->seg.mode, p->seg.width, p->seg.slots, p->seg.stage, (int)p->win.algo);
}

static void policies(void) {
  static const char *const texts[] = {
      NULL,
      "wg=64,vec=4,unroll=2,chains=1,prefetch=1,groups=32,stream=strided,finish=group,seg=mr,"
      "slots=8,width=4,win=blocks,wait=poll,keys=1,min_groups=8,part_kib=64,host=off,"
      "host_kib=4096,staging=pinned,copy_threads=4,stage_kib=1024,spin_us=0",
      "finish=launch,seg=staged,host=device,staging=off,keys=2,win=long",
      "finish=serial,seg=lane,host=thread,keys=0,win=direct,wait=block,prefetch=0,spin_us=65536",
      "wg=3", "vec=32", "unroll=17", "slots=64", "width=3", "bogus=1", "wg=0", "spin_us=65537",
      "stream=tiled,seg=group,win=mr", "groups=65536,part_kib=65536,copy_threads=64,min_groups=32"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    orx_policy_override o;
    memset(&o, 0x5a, sizeof o);
    const ocl_reduce_status s = orx_parse_policy_override(texts[i], &o);
    printf("policy %zu: %d %lx\n", i, (int)s, s == OCL_REDUCE_OK ? hash(&o, sizeof o) : 0);
  }
}

static void whole_arrays(const orx_target *t, int op, ocl_reduce_type type) {
  static const size_t counts[] = {1, 1000, 1 << 16, 1 << 20, 1 << 24, (size_t)1 << 28};
  for (int stage = ORX_STAGE_WHOLE; stage <= ORX_STAGE_MERGE; stage++)
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
      orx_request r = orx_reduce_request(op, type);
      r.stage = (orx_stage)stage;
      r.host = orx_plan_takes_host(t, &r, counts[c], 0); /* host memory: 0 in every tree */
      orx_plan plan;
      orx_plan_make(t, &r, &plan);
      char what[128];
      snprintf(what, sizeof what, "reduce op %d type %d stage %d n %zu host %d", op, (int)type,
               stage, counts[c], r.host);
      dump(what, &plan, counts[c], 0);
    }
}

static void segments(const orx_target *t, int op, ocl_reduce_type type) {
  static const uint64_t lengths[] = {1,    2,    3,    4,    7,    8,     15,    16,   17,
                                     32,   33,   64,   101,  128,  256,   512,   1000, 1024,
                                     2048, 4096, 4097, 8192, 32768, 65536, 1 << 20};
  for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++)
    for (int offsets = 0; offsets < 2; offsets++) {
      orx_request r = orx_reduce_request(op, type);
      r.entry = ORX_ENTRY_SEGMENTS;
      r.shape.count = (size_t)(((uint64_t)1 << 26) / lengths[l]);
      r.shape.elements = (uint64_t)r.shape.count * lengths[l];
      r.shape.length = offsets ? 0 : lengths[l];
      r.shape.offsets = offsets;
      r.shape.elem = orx_type_size(type);
      orx_plan plan;
      orx_plan_make(t, &r, &plan);
      char what[128];
      snprintf(what, sizeof what, "segments op %d type %d length %llu offsets %d", op, (int)type,
               (unsigned long long)lengths[l], offsets);
      dump(what, &plan, (size_t)r.shape.elements, lengths[l]);
    }
}

static void windows(const orx_target *t, int op, ocl_reduce_type type) {
  static const uint64_t sizes[] = {1, 2, 3, 8, 32, 100, 1000, 4096, 100000};
  for (size_t w = 0; w < sizeof sizes / sizeof *sizes; w++) {
    orx_request r = orx_reduce_request(op, type);
    r.entry = ORX_ENTRY_WINDOWS;
    r.windows.window = sizes[w];
    r.windows.count = (uint64_t)1 << 24;
    orx_plan plan;
    orx_plan_make(t, &r, &plan);
    char what[128];
    snprintf(what, sizeof what, "windows op %d type %d window %llu", op, (int)type,
             (unsigned long long)sizes[w]);
    dump(what, &plan, (size_t)r.windows.count, sizes[w]);
  }
}

static void several(const orx_target *t) {
  static const orx_op_id lists[][4] = {{ORX_OP_SUM, ORX_OP_MIN, ORX_OP_MAX},
                                       {ORX_OP_SUM, ORX_OP_PROD},
                                       {ORX_OP_MIN},
                                       {ORX_OP_AND, ORX_OP_OR, ORX_OP_XOR, ORX_OP_SUM}};
  static const unsigned lengths[] = {3, 2, 1, 4};
  for (int type = 0; type < OCL_REDUCE_TYPE_COUNT; type++)
    for (int k = 0; k < 4; k++) {
      if (k == 3 && orx_type_is_float((ocl_reduce_type)type))
        continue;
      orx_request r;
      memset(&r, 0, sizeof r);
      r.entry = ORX_ENTRY_MULTI;
      r.type = (ocl_reduce_type)type;
      r.ops = lists[k];
      r.op_count = lengths[k];
      orx_plan plan;
      orx_plan_make(t, &r, &plan);
      char what[64];
      snprintf(what, sizeof what, "multi %d type %d", k, type);
      dump(what, &plan, 1 << 24, 0);
    }
  orx_request r = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_U64);
  r.entry = ORX_ENTRY_CHECK_OFFSETS;
  orx_plan plan;
  orx_plan_make(t, &r, &plan);
  dump("check offsets", &plan, 1 << 20, 0);
}

int main(void) {
  policies();
  orx_caps caps[DEVICES];
  devices(caps);
  for (int d = 0; d < DEVICES; d++)
    for (int path = OCL_REDUCE_PATH_AUTO; path <= OCL_REDUCE_PATH_LOCAL; path++) {
      orx_target t;
      memset(&t, 0, sizeof t);
      t.caps = &caps[d];
      const char *why;
      if (orx_plan_path(&caps[d], (ocl_reduce_path)path, OCL_REDUCE_SUBGROUP_AUTO, &t.path,
                        &t.subgroup_impl, &why) != OCL_REDUCE_OK)
        continue;
      orx_parse_policy_override(NULL, &t.forced);
      printf("device %d path %d: %d/%d\n", d, path, (int)t.path, (int)t.subgroup_impl);
      for (int op = 0; op < ORX_OP_COUNT; op++)
        for (int type = 0; type < OCL_REDUCE_TYPE_COUNT; type++) {
          if (orx_op_type_refusal(op, (ocl_reduce_type)type))
            continue;
          whole_arrays(&t, op, (ocl_reduce_type)type);
          segments(&t, op, (ocl_reduce_type)type);
          windows(&t, op, (ocl_reduce_type)type);
        }
      several(&t);
    }
  return 0;
}
