/* =================================================================================================
 * select.c: every choice the library makes about a device, as pure functions of its capability
 * record (orx_caps): which device a selector names, which path and subgroup implementation a
 * context takes, and the launch policy per element type. No device calls happen here, so the
 * tests run these functions on synthetic devices (tests/test_select.c).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

/* ---- Device choice -------------------------------------------------------------------------- */

static int parse_indices(const char *selector, unsigned *platform, unsigned *device) {
  char *end = NULL;
  unsigned long p = strtoul(selector, &end, 10);
  if (end == selector || *end != ':')
    return 0;
  const char *second = end + 1;
  unsigned long d = strtoul(second, &end, 10);
  if (end == second || *end != '\0')
    return 0;
  *platform = (unsigned)p;
  *device = (unsigned)d;
  return 1;
}

ocl_reduce_status orx_pick_device(ocl_reduce_context *ctx, const orx_device_entry *list,
                                  size_t count, const char *selector, size_t *index) {
  if (count == 0)
    return orx_fail(ctx, OCL_REDUCE_ERROR_NO_DEVICE, "no devices to choose from");
  if (!selector || !*selector) {
    for (size_t i = 0; i < count; i++) {
      if (list[i].type == OCL_REDUCE_DEVICE_GPU || list[i].type == OCL_REDUCE_DEVICE_ACCELERATOR) {
        *index = i;
        return OCL_REDUCE_OK;
      }
    }
    *index = 0;
    return OCL_REDUCE_OK;
  }
  unsigned p = 0, d = 0;
  int by_index = parse_indices(selector, &p, &d);
  for (size_t i = 0; i < count; i++) {
    int match = by_index ? (list[i].platform_index == p && list[i].device_index == d)
                         : (orx_strcasestr(list[i].platform_name, selector) ||
                            orx_strcasestr(list[i].device_name, selector));
    if (match) {
      *index = i;
      return OCL_REDUCE_OK;
    }
  }
  ocl_reduce_status status = orx_fail(ctx, OCL_REDUCE_ERROR_NO_DEVICE,
                                      "device selector '%s' matches none of these devices:",
                                      selector);
  for (size_t i = 0; i < count; i++) {
    char line[600];
    snprintf(line, sizeof line, "\n  %u:%u  %s / %s", list[i].platform_index,
             list[i].device_index, list[i].platform_name, list[i].device_name);
    orx_error_append(ctx, line);
  }
  return status;
}

/* ---- Path -------------------------------------------------------------------------------------- */

static int impl_available(const orx_caps *caps, ocl_reduce_subgroup_impl impl) {
  switch (impl) {
  case OCL_REDUCE_SUBGROUP_KHR:
    return caps->has_khr_shuffle;
  case OCL_REDUCE_SUBGROUP_INTEL:
    return caps->has_intel_subgroups;
  case OCL_REDUCE_SUBGROUP_BUILTIN:
    return caps->has_khr_subgroups;
  case OCL_REDUCE_SUBGROUP_NV_PTX:
    /* shfl.sync.bfly with clamp 0x1f and a full member mask is written for 32-lane warps. */
    return caps->nv_warp_size == 32 && !caps->has_cuda_shuffle;
  case OCL_REDUCE_SUBGROUP_CUDA:
    return caps->has_cuda_shuffle;
  default:
    return 0;
  }
}

static const char *impl_requirement(ocl_reduce_subgroup_impl impl) {
  switch (impl) {
  case OCL_REDUCE_SUBGROUP_KHR:
    return "cl_khr_subgroup_shuffle";
  case OCL_REDUCE_SUBGROUP_INTEL:
    return "cl_intel_subgroups";
  case OCL_REDUCE_SUBGROUP_BUILTIN:
    return "cl_khr_subgroups (or the OpenCL C 3.0 feature __opencl_c_subgroups)";
  case OCL_REDUCE_SUBGROUP_NV_PTX:
    return "NVIDIA's OpenCL with a warp size of 32 (cl_nv_device_attribute_query)";
  case OCL_REDUCE_SUBGROUP_CUDA:
    return "the CUDA backend";
  default:
    return "a subgroup extension";
  }
}

ocl_reduce_status orx_resolve_path(const orx_caps *caps, ocl_reduce_path path,
                                   ocl_reduce_subgroup_impl impl, ocl_reduce_path *path_out,
                                   ocl_reduce_subgroup_impl *impl_out, const char **why) {
  static const ocl_reduce_subgroup_impl preference[] = {
      OCL_REDUCE_SUBGROUP_KHR, OCL_REDUCE_SUBGROUP_INTEL, OCL_REDUCE_SUBGROUP_NV_PTX,
      OCL_REDUCE_SUBGROUP_CUDA, OCL_REDUCE_SUBGROUP_BUILTIN};
  *why = NULL;
  if (path == OCL_REDUCE_PATH_LOCAL) {
    *path_out = OCL_REDUCE_PATH_LOCAL;
    *impl_out = OCL_REDUCE_SUBGROUP_NONE;
    return OCL_REDUCE_OK;
  }
  /* A named implementation is a request for the subgroup path with it, never a fallback. */
  if (impl != OCL_REDUCE_SUBGROUP_AUTO && impl != OCL_REDUCE_SUBGROUP_DEFAULT) {
    if (!impl_available(caps, impl)) {
      *why = impl_requirement(impl);
      return OCL_REDUCE_ERROR_PATH_UNSUPPORTED;
    }
    *path_out = OCL_REDUCE_PATH_SUBGROUP;
    *impl_out = impl;
    return OCL_REDUCE_OK;
  }
  for (size_t i = 0; i < ORX_ARRAY_SIZE(preference); i++) {
    if (impl_available(caps, preference[i])) {
      *path_out = OCL_REDUCE_PATH_SUBGROUP;
      *impl_out = preference[i];
      return OCL_REDUCE_OK;
    }
  }
  if (path == OCL_REDUCE_PATH_SUBGROUP) {
    *why = "cl_khr_subgroup_shuffle, cl_intel_subgroups, cl_khr_subgroups or NVIDIA's OpenCL";
    return OCL_REDUCE_ERROR_PATH_UNSUPPORTED;
  }
  *path_out = OCL_REDUCE_PATH_LOCAL;
  *impl_out = OCL_REDUCE_SUBGROUP_NONE;
  return OCL_REDUCE_OK;
}

/* ---- Launch policy -------------------------------------------------------------------------- */

static unsigned floor_pow2(size_t x) {
  unsigned p = 1;
  while ((size_t)p * 2 <= x && p < (1u << 30))
    p *= 2;
  return p;
}

void orx_select_policy(const orx_caps *caps, ocl_reduce_path path, ocl_reduce_subgroup_impl impl,
                       ocl_reduce_type type, orx_policy *out) {
  const unsigned elem = (unsigned)ocl_reduce_type_size(type);
  orx_policy p;
  memset(&p, 0, sizeof p);
  p.path = path;
  p.subgroup_impl = impl;
  if (caps->type == OCL_REDUCE_DEVICE_CPU) {
    /* One contiguous run per work-item, 64-byte loads (one AVX-512 register), two accumulators.
     * PoCL 3.1, 2 cores, f32 2^24: 38-56 GB/s against an OpenMP simd loop's 31-66 GB/s in the
     * same runs; 4-byte loads with the same layout: 15 GB/s. */
    p.stream = ORX_STREAM_CHUNK;
    p.wg_size = 16;
    p.vec = 64 / elem;
    p.unroll = 2;
    p.max_groups = 4 * caps->compute_units;
    p.items_per_group = 16384 * 4 / elem;
    /* A few partials per core: one work-item combines them (see cl/reduce_all.cl). */
    p.finish_serial = 1;
  } else {
    /* Coalesced loads of 16 bytes, 4 in flight per work-item (CUB's policy: 256 threads x 16
     * items, vector width 4), a few groups per compute unit. Through CUDA each group strides
     * through an even contiguous share (CUB's layout); NVIDIA's OpenCL compiler does better with
     * one grid-stride loop over the whole array. H200, f32 sum of 2^28 against CUB in the same
     * runs: CUDA tiled 1.000-1.004x, grid-stride 0.885-0.893x; NVIDIA OpenCL (PTX shuffles)
     * grid-stride 1.002x, tiled 0.835-0.843x. Other GPUs take the grid-stride loop. */
    p.stream = caps->has_cuda_shuffle ? ORX_STREAM_TILED : ORX_STREAM_STRIDED; /* CUDA backend */
    p.wg_size = 256;
    p.vec = 16 / elem;
    p.unroll = 4;
    p.max_groups = 8 * caps->compute_units;
    p.items_per_group = (size_t)p.wg_size * p.vec * p.unroll;
    /* The multireduction's slots stay in registers only when its loops are unrolled. Not on CPUs
     * (where it is never the automatic choice): there Intel's CPU runtime 2026.2 corrupts its
     * own heap compiling the unrolled form (valgrind: invalid writes in its
     * ReduceCrossBarrierValuesPass), and the test programs crashed. */
    p.unroll_slots = 1;
  }
  /* Fit the device: work-group size limit, local memory for 2 slots per lane, and vector loads no
   * wider than the alignment every allocation starts at. */
  if (p.wg_size > caps->max_work_group_size)
    p.wg_size = floor_pow2(caps->max_work_group_size);
  while (p.wg_size > 1 && (uint64_t)2 * p.wg_size * elem + 64 > caps->local_mem_bytes)
    p.wg_size /= 2;
  while (p.vec > 1 && caps->base_align_bytes != 0 && p.vec * elem > caps->base_align_bytes)
    p.vec /= 2;
  if (p.max_groups < 1)
    p.max_groups = 1;
  if (p.items_per_group < 1)
    p.items_per_group = 1;
  *out = p;
}

size_t orx_policy_groups(const orx_policy *policy, size_t count) {
  size_t groups = count / policy->items_per_group + (count % policy->items_per_group != 0);
  if (groups > policy->max_groups)
    groups = policy->max_groups;
  return groups ? groups : 1;
}

/* ---- Segments ----------------------------------------------------------------------------------- */

/* Lanes per multireduction lane group: at most a warp. Segments per lane group (slots): v[] and a
 * load per slot live in registers. With vector loads each slot holds a vector: 8 of them take 56
 * registers on the H200 with equal lengths; 16 took 128 and 32 took 255 (a third of the
 * bandwidth), so longer segments spread over more lanes instead (slots < width). */
#define ORX_MR_MAX_WIDTH 32u
#define ORX_MR_VECTOR_SLOTS 8u
#define ORX_MR_ELEMENT_SLOTS 16u

static unsigned ceil_pow2(uint64_t x) {
  unsigned p = 1;
  while (p < x && p < (1u << 30))
    p *= 2;
  return p;
}

/* Loads a segment of `average` elements takes (masked: at most). */
static uint64_t mr_loads(const orx_policy *policy, uint64_t average, orx_seg_load load) {
  const uint64_t vec = policy->vec;
  return load == ORX_SEG_ELEMENTS  ? average
         : load == ORX_SEG_VECTORS ? average / vec
                                   : (average + 2 * vec - 2) / vec;
}

/* The multireduction's shape for segments of `average` elements. Lanes load whole vectors where
 * segments allow it, else masked vectors from the aligned grid once segments span two vectors:
 * four times the bytes in flight per load for f32 (on the H200 the element form stays near
 * 1 TB/s at 32-element segments, latency-bound). As many lanes per segment as its loads, up to a
 * warp (and the work-group). */
static void mr_shape(const orx_policy *policy, uint64_t average, int aligned, orx_seg_plan *out) {
  const uint64_t vec = policy->vec;
  out->load = vec == 1                 ? ORX_SEG_ELEMENTS
              : aligned                ? ORX_SEG_VECTORS
              : average >= 2 * vec     ? ORX_SEG_MASKED
                                       : ORX_SEG_ELEMENTS;
  const uint64_t loads = mr_loads(policy, average, out->load);
  unsigned width = ceil_pow2(loads ? loads : 1);
  if (width > ORX_MR_MAX_WIDTH)
    width = ORX_MR_MAX_WIDTH;
  while (width > policy->wg_size)
    width /= 2;
  const unsigned max_slots =
      out->load == ORX_SEG_ELEMENTS ? ORX_MR_ELEMENT_SLOTS : ORX_MR_VECTOR_SLOTS;
  out->width = width;
  out->slots = width < max_slots ? width : max_slots;
}

/* Elements the STAGED mode's local-memory stage holds: 32 per work-item, at most 32 KiB of them
 * (CUDA's static shared memory ends at 48), fewer where the device has less local memory (with
 * the padding element per 32 and two partial vectors on top); 0 where not even 32 fit. */
static unsigned stage_elements(const orx_caps *caps, const orx_policy *policy, size_t elem) {
  unsigned n = policy->wg_size * 32;
  while (n > 32 && n * elem > 32768)
    n /= 2;
  while (n >= 32 && (uint64_t)(n + n / 32 + 2 * policy->vec + 1) * elem > caps->local_mem_bytes)
    n /= 2;
  return n >= 32 ? n : 0;
}

void orx_plan_segments(const orx_caps *caps, const orx_policy *policy, int forced,
                       const orx_seg_shape *shape, orx_seg_plan *out) {
  const size_t count = shape->count;
  const uint64_t average = count ? shape->elements / count : 0;
  const uint64_t items = (uint64_t)policy->max_groups * policy->wg_size;
  orx_seg_plan mr;
  memset(&mr, 0, sizeof mr);
  mr_shape(policy, average, shape->aligned, &mr);
  const unsigned stage = stage_elements(caps, policy, shape->elem);
  /* Staging holds whole equal-length segments. On GPUs it pays from 4 vectors per segment up to
   * where a tile still gives a quarter of the work-items a segment, and below that where the
   * multireduction leaves a quarter of its lanes idle (15 elements from anywhere: 5 loads on 8
   * lanes). H200, f32 sums of 2^26, CUDA / NVIDIA OpenCL, TB/s: 17 elements staged 3.48 / 3.67
   * against the multireduction's 2.27 / 2.31; 33: 3.81 / 3.89 against 2.25 / 2.31; 101: 3.76 /
   * 3.89 against 3.02 / 3.17; 32 and 64 within 1% on CUDA, 5-7% ahead on OpenCL; 8: 2.34 / 2.49
   * against 3.54 / 3.55; 128 (64 per tile): 3.74 against 3.97 on CUDA. */
  const int stageable = shape->length && shape->length <= stage;
  const int mr_idle =
      mr.load != ORX_SEG_ELEMENTS && mr_loads(policy, average, mr.load) * 4 < (uint64_t)mr.width * 3;
  const int stage_pays = stageable && stage / shape->length * 4 > policy->wg_size &&
                         (shape->length > 4 * (uint64_t)policy->vec || mr_idle);
  orx_seg_mode mode;
  if (forced >= 0) {
    mode = (orx_seg_mode)forced;
    if (mode == ORX_SEG_STAGED && !stageable)
      mode = ORX_SEG_MR;
  } else if (caps->type == OCL_REDUCE_DEVICE_CPU) {
    /* CPUs: a contiguous run of segments per work-item while there are enough segments to keep
     * every work-item busy; then a work-group per segment; a few huge segments take the whole
     * device each. */
    mode = count >= items                ? ORX_SEG_LANE
           : count >= policy->max_groups ? ORX_SEG_GROUP
           : average >= policy->items_per_group ? ORX_SEG_LAUNCH
                                                : ORX_SEG_GROUP;
  } else {
    /* GPUs: equal lengths staged where that pays (above); the multireduction for other segments
     * too short to give a work-group's lanes 8 elements each, and for longer ones while it keeps
     * 512 lanes per compute unit busy; then a work-group per segment while there are at least as
     * many segments as compute units; else whole-device reductions. H200, f32 sums of 2^26: the
     * multireduction reaches 2.8-3.8 TB/s from 4 to 1024 elements per segment; a work-group per
     * segment needs 4096 elements for 4.1 TB/s (2048: 2.5 TB/s, 1024: 1.6 TB/s). */
    const uint64_t mr_lanes = (uint64_t)count * mr.width / mr.slots;
    mode = stage_pays ? ORX_SEG_STAGED
           : average < (uint64_t)policy->wg_size * 8 ||
                   mr_lanes >= (uint64_t)caps->compute_units * 512
               ? ORX_SEG_MR
           : count >= caps->compute_units || average < policy->items_per_group ? ORX_SEG_GROUP
                                                                               : ORX_SEG_LAUNCH;
  }
  if (mode == ORX_SEG_MR) {
    *out = mr;
  } else {
    memset(out, 0, sizeof *out);
  }
  if (mode == ORX_SEG_STAGED)
    out->stage = stage;
  out->mode = mode;
}

/* Sets of `slots` segments per lane group: enough that a lane has 8 vector loads or 16 element
 * loads in flight at a time. H200, f32 sums of 2^26: the vector form (8 slots) ran at 2.7-2.8
 * TB/s for 4-element segments; the element form with 8 slots at 1.1-1.4 TB/s. Each slot costs
 * registers: 16 element slots take about 124 on the H200 with offsets, 32 take 250. */
unsigned orx_seg_batch(const orx_seg_plan *plan) {
  /* One-element segments write as much as they read: there more work-groups per SM (8 slots, 1.4
   * TB/s) beat more loads per lane (16 slots, 1.0 TB/s). 2 and 3 elements: 16 slots 1.2-1.4 TB/s,
   * 8 slots 1.1-1.2. */
  const unsigned target = plan->load != ORX_SEG_ELEMENTS || plan->width == 1 ? 8 : 16;
  return plan->mode == ORX_SEG_MR && plan->slots < target ? target / plan->slots : 1;
}

uint64_t orx_stage_segments(const orx_policy *policy, const orx_seg_plan *plan, uint64_t length) {
  const uint64_t fit = length ? plan->stage / length : 0; /* as the kernel computes it */
  return fit < policy->wg_size ? fit : policy->wg_size;
}

size_t orx_segment_groups(const orx_policy *policy, const orx_seg_plan *plan, size_t count,
                          uint64_t length) {
  size_t per_group; /* segments a work-group takes at a time */
  switch (plan->mode) {
  case ORX_SEG_LANE: /* a work-item per segment */
    per_group = policy->wg_size;
    break;
  case ORX_SEG_MR: /* slots * batch segments per `width` lanes */
    per_group = (size_t)policy->wg_size / plan->width * plan->slots * orx_seg_batch(plan);
    break;
  case ORX_SEG_STAGED: /* a tile (never 0: the planner stages only segments that fit) */
    per_group = (size_t)orx_stage_segments(policy, plan, length);
    break;
  default: /* a work-group per segment */
    per_group = 1;
    break;
  }
  size_t groups = per_group ? count / per_group + (count % per_group != 0) : count;
  /* Loops in the kernel take the rest: a few waves of groups are enough. */
  const size_t cap = (size_t)policy->max_groups * 8;
  if (groups > cap)
    groups = cap;
  return groups ? groups : 1;
}

/* ---- Forced policy (OCL_REDUCE_POLICY) ------------------------------------------------------ */

static int is_pow2(unsigned x) { return x != 0 && (x & (x - 1)) == 0; }

ocl_reduce_status orx_parse_policy_override(const char *text, orx_policy_override *out) {
  orx_policy_override o = {0, 0, 0, 0, -1, -1, -1, 0};
  char list[256];
  orx_strlcpy(list, text ? text : "", sizeof list);
  for (char *save = NULL, *item = strtok_r(list, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '=');
    if (!eq)
      return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                      "OCL_REDUCE_POLICY: '%s' is not key=value", item);
    *eq = '\0';
    const char *key = item, *value = eq + 1;
    char *end = NULL;
    unsigned long number = strtoul(value, &end, 10);
    int numeric = end != value && *end == '\0' && number > 0 && number <= 65536;
    if (strcmp(key, "wg") == 0 && numeric && is_pow2((unsigned)number))
      o.wg_size = (unsigned)number;
    else if (strcmp(key, "vec") == 0 && numeric && is_pow2((unsigned)number) && number <= 16)
      o.vec = (unsigned)number;
    else if (strcmp(key, "unroll") == 0 && numeric && number <= 16)
      o.unroll = (unsigned)number;
    else if (strcmp(key, "groups") == 0 && numeric)
      o.max_groups = (unsigned)number;
    else if (strcmp(key, "stream") == 0 &&
             (!strcmp(value, "strided") || !strcmp(value, "chunk") || !strcmp(value, "tiled")))
      o.stream = !strcmp(value, "chunk")   ? ORX_STREAM_CHUNK
                 : !strcmp(value, "tiled") ? ORX_STREAM_TILED
                                           : ORX_STREAM_STRIDED;
    else if (strcmp(key, "finish") == 0 && (!strcmp(value, "serial") || !strcmp(value, "group")))
      o.finish_serial = strcmp(value, "serial") == 0;
    else if (strcmp(key, "seg") == 0 && (!strcmp(value, "lane") || !strcmp(value, "mr") ||
                                         !strcmp(value, "group") || !strcmp(value, "launch") ||
                                         !strcmp(value, "staged")))
      o.seg_mode = !strcmp(value, "lane")     ? ORX_SEG_LANE
                   : !strcmp(value, "mr")     ? ORX_SEG_MR
                   : !strcmp(value, "group")  ? ORX_SEG_GROUP
                   : !strcmp(value, "staged") ? ORX_SEG_STAGED
                                              : ORX_SEG_LAUNCH;
    else if (strcmp(key, "slots") == 0 && numeric && is_pow2((unsigned)number) && number <= 32)
      o.seg_slots = (unsigned)number;
    else
      return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                      "OCL_REDUCE_POLICY: bad entry '%s=%s' (keys: wg=<power of two>, "
                      "vec=<1..16, power of two>, unroll=<1..16>, groups=<n>, "
                      "stream=strided|chunk|tiled, finish=serial|group, "
                      "seg=lane|mr|group|launch|staged, slots=<1..32, power of two>)",
                      key, value);
  }
  *out = o;
  return OCL_REDUCE_OK;
}

void orx_apply_policy_override(const orx_caps *caps, const orx_policy_override *o,
                               ocl_reduce_type type, orx_policy *p) {
  const unsigned elem = (unsigned)ocl_reduce_type_size(type);
  if (o->wg_size && o->wg_size <= caps->max_work_group_size &&
      (uint64_t)2 * o->wg_size * elem + 64 <= caps->local_mem_bytes)
    p->wg_size = o->wg_size;
  if (o->vec && (caps->base_align_bytes == 0 || o->vec * elem <= caps->base_align_bytes))
    p->vec = o->vec;
  if (o->unroll)
    p->unroll = o->unroll;
  if (o->max_groups)
    p->max_groups = o->max_groups;
  if (o->stream >= 0)
    p->stream = (orx_stream)o->stream;
  if (o->finish_serial >= 0)
    p->finish_serial = o->finish_serial;
  if (o->wg_size || o->vec || o->unroll)
    p->items_per_group = (size_t)p->wg_size * p->vec * p->unroll;
}
