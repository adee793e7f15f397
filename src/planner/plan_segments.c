/* =================================================================================================
 * plan_segments.c: how a segmented reduction spreads segments over work-items (planner.h): the
 * strategy (one kernel file each, ORX_SEG_MODES), the multireduction's shape, the staged tile,
 * the grid, and the defines of each strategy. The measurements behind each threshold are next to
 * it. Pure functions of their arguments.
 * ============================================================================================== */
#include <string.h>

#include "planner/planner.h"
#include "base/util.h"

static const struct {
  const char *name;
  orx_kernel kernel;
} modes[] = {
#define ORX_SEG_MODE_ROW(ID, name, kernel) {name, ORX_KERNEL_##kernel},
    ORX_SEG_MODES(ORX_SEG_MODE_ROW)
#undef ORX_SEG_MODE_ROW
};

const char *orx_seg_mode_name(orx_seg_mode mode) {
  return (unsigned)mode < ORX_SEG_MODE_COUNT ? modes[mode].name : "unknown";
}

/* Lanes per multireduction lane group: at most a warp. Segments per lane group (slots): v[] and a
 * load per slot live in registers. With vector loads each slot holds a vector: 8 of them take 56
 * registers on the H200 with equal lengths; 16 took 128 and 32 took 255 (a third of the
 * bandwidth), so longer segments spread over more lanes instead (slots < width). */
#define ORX_MR_MAX_WIDTH 32u
#define ORX_MR_VECTOR_SLOTS 8u
#define ORX_MR_ELEMENT_SLOTS 16u

/* Loads a segment of `average` elements takes (masked: at most). */
static uint64_t mr_loads(const orx_policy *policy, uint64_t average, int load) {
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
  unsigned width = orx_ceil_pow2(loads ? loads : 1);
  /* Segments shorter than two vectors that are not whole vectors: a lane per segment (CUB's
   * small-segment agent), whose element loads from neighbouring lanes still share cache lines,
   * rather than a lane group per segment with lanes idle (3 elements on 4 lanes) and shuffles.
   * H200, f32 sums of 2^26, device us, CUDA / NVIDIA OpenCL (CCCL 3.5's CUB): 2 elements 98.2 /
   * 122.8 against 125.4 / 152.9 (144.3); 3: 87.7 / 103.5 against 144.3 / 149.0 (121.7); 5: 79.6
   * / 83.6 against 167.2 / 181.8 (~100); 7: 77.3 / 108.4 against 131.2 / 161.1 (108.8). From two
   * vectors on, masked vector loads are ahead (12 elements: 75.2 against a lane's 111.9). */
  if (out->load == ORX_SEG_ELEMENTS && vec > 1 && average < 2 * vec)
    width = 1;
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

int orx_seg_back_to_back(const orx_seg_shape *shape) {
  return !shape->offsets && (shape->pitch == 0 || shape->pitch == shape->length);
}

int orx_seg_whole_vectors(const orx_policy *policy, const orx_seg_shape *shape) {
  return !shape->offsets && shape->length % policy->vec == 0 &&
         shape->pitch % policy->vec == 0 && shape->start % policy->vec == 0;
}

/* ARGMIN, ARGMAX and MEAN_VAR: a work-group per segment combines 256 states of 12-24 bytes
 * through local memory, which costs it as much as reading 16 KiB of f32 segment. H100, f32 over
 * 2^26 in segments of 4096 (16 KiB), device us, a work-group per segment against the
 * multireduction: ARGMIN 225-235 against 110 (NVIDIA's OpenCL) and 114-127 (CUDA, capped as
 * below), MEAN_VAR 200-211 against 105-107 (CCCL 3.5's CUB ARGMIN 155-162); in segments of 16384
 * (64 KiB) the work-group 104-114 against 235-275 and ARGMIN f64 in 4096 (32 KiB) 123-124
 * against 133-151. MINMAX (8 bytes) in 4096: the work-group 119-129 against 156. */
static int combines_costly(unsigned op_id) {
  return op_id == ORX_OP_ARGMIN || op_id == ORX_OP_ARGMAX || op_id == ORX_OP_MEAN_VAR;
}

/* CPUs: a contiguous run of segments per work-item while there are enough segments to keep
 * every work-item busy; then a work-group per segment; a few huge segments take the whole device
 * each. */
static orx_seg_mode cpu_mode(const orx_policy *policy, size_t count, uint64_t average) {
  const uint64_t items = (uint64_t)policy->max_groups * policy->wg_size;
  return count >= items                       ? ORX_SEG_LANE
         : count >= policy->max_groups        ? ORX_SEG_GROUP
         : average >= policy->items_per_group ? ORX_SEG_LAUNCH
                                              : ORX_SEG_GROUP;
}

/* Staging holds whole equal-length segments. On GPUs it pays from 4 vectors per segment up to
 * where a tile still gives a quarter of the work-items a segment, and below that where the
 * multireduction leaves a quarter of its lanes idle (15 elements from anywhere: 5 loads on 8
 * lanes). H200, f32 sums of 2^26, CUDA / NVIDIA OpenCL, TB/s: 17 elements staged 3.48 / 3.67
 * against the multireduction's 2.27 / 2.31; 33: 3.81 / 3.89 against 2.25 / 2.31; 101: 3.76 /
 * 3.89 against 3.02 / 3.17; 32 and 64 within 1% on CUDA, 5-7% ahead on OpenCL; 8: 2.34 / 2.49
 * against 3.54 / 3.55; 128 (64 per tile): 3.74 against 3.97 on CUDA. Exactly 4 whole vectors
 * are staged too: H100, device us, CUDA / NVIDIA OpenCL, f32 in 16-element segments, the
 * multireduction 102.6-103.1 / 107.8-108.5 against staged 100.7-101.2 / 99.5-100.2 (CCCL 3.5's
 * CUB 106.1-107.6), f64 in 8-element ones 110.6-110.9 / 108.5-108.6 against 105.3-106.2 /
 * 103.8-104.4; 2 whole vectors (8 f32) staged 115.1-116.3 / 113.9-114.2 against the
 * multireduction's 104.2-105.2 / 106.0-107.8. */
static int stage_pays(const orx_policy *policy, const orx_seg_shape *shape, const orx_seg_plan *mr,
                      unsigned stage) {
  const uint64_t average = shape->count ? shape->elements / shape->count : 0;
  const int stageable = orx_seg_back_to_back(shape) && shape->length && shape->length <= stage;
  const int mr_idle = mr->load != ORX_SEG_ELEMENTS &&
                      mr_loads(policy, average, mr->load) * 4 < (uint64_t)mr->width * 3;
  return stageable && stage / shape->length * 4 > policy->wg_size &&
         (shape->length >= 4 * (uint64_t)policy->vec || mr_idle);
}

/* GPUs: equal lengths staged where that pays (above); the multireduction for other segments
 * too short to give a work-group's lanes 8 elements each, and for longer ones while it keeps
 * 512 lanes per compute unit busy; then a work-group per segment while there are at least as
 * many segments as compute units; else whole-device reductions. H200, f32 sums of 2^26: the
 * multireduction reaches 2.8-3.8 TB/s from 4 to 1024 elements per segment; a work-group per
 * segment needs 4096 elements for 4.1 TB/s (2048: 2.5 TB/s, 1024: 1.6 TB/s). Fewer
 * segments than compute units take a whole-device launch each only where one fills the
 * device's grid: a launch costs microseconds, a 1 MiB segment by one work-group less (H200,
 * 96 segments of 1 MiB, examples/csv_records: launches 1.26 ms in all, see docs/perf/HISTORY.md).
 * Costly states take a work-group per segment only from 32 KiB a segment (above). */
static orx_seg_mode gpu_mode(const orx_caps *caps, const orx_policy *policy, unsigned op_id,
                             const orx_seg_shape *shape, const orx_seg_plan *mr, unsigned stage) {
  const size_t count = shape->count;
  const uint64_t average = count ? shape->elements / count : 0;
  const uint64_t mr_lanes = (uint64_t)count * mr->width / mr->slots;
  const uint64_t grid = (uint64_t)policy->items_per_group * policy->max_groups;
  return stage_pays(policy, shape, mr, stage) ? ORX_SEG_STAGED
         : average < (uint64_t)policy->wg_size * 8 ||
                 mr_lanes >= (uint64_t)caps->compute_units * 512 ||
                 (combines_costly(op_id) && average * shape->elem < 32768)
             ? ORX_SEG_MR
         : count >= caps->compute_units || average < grid ? ORX_SEG_GROUP
                                                          : ORX_SEG_LAUNCH;
}

void orx_plan_segments(const orx_caps *caps, const orx_policy *policy, int forced, unsigned op_id,
                       const orx_seg_shape *shape, orx_seg_plan *out) {
  const uint64_t average = shape->count ? shape->elements / shape->count : 0;
  orx_seg_plan mr;
  memset(&mr, 0, sizeof mr);
  mr_shape(policy, average, orx_seg_whole_vectors(policy, shape), &mr);
  const unsigned stage = stage_elements(caps, policy, shape->elem);
  orx_seg_mode mode;
  if (forced >= 0) {
    mode = (orx_seg_mode)forced;
    if (mode == ORX_SEG_STAGED && !(orx_seg_back_to_back(shape) && shape->length &&
                                    shape->length <= stage))
      mode = ORX_SEG_MR;
  } else if (caps->type == OCL_REDUCE_DEVICE_CPU) {
    mode = cpu_mode(policy, shape->count, average);
  } else {
    mode = gpu_mode(caps, policy, op_id, shape, &mr, stage);
  }
  if (mode == ORX_SEG_MR)
    *out = mr;
  else
    memset(out, 0, sizeof *out);
  if (mode == ORX_SEG_STAGED)
    out->stage = stage;
  out->mode = mode;
}

void orx_seg_fit_shapes(const orx_target *target, unsigned op_id, orx_plan *plan) {
  orx_seg_plan *seg = &plan->seg;
  orx_policy *p = &plan->policy;
  /* Forced multireduction shapes: lanes per lane group within the work-group, and never more
   * segments per lane group than lanes. */
  if (seg->mode == ORX_SEG_MR) {
    if (target->forced.seg_width && target->forced.seg_width <= p->wg_size)
      seg->width = target->forced.seg_width;
    if (target->forced.seg_slots)
      seg->slots = target->forced.seg_slots;
    if (seg->slots > seg->width)
      seg->slots = seg->width;
  }
  /* A work-group of 128 per f32 segment of MIN, MAX and the costly states (GPUs: CPUs' are
   * smaller), whose combine of the work-group's values takes longer than the sum's. H100, f32 over
   * 2^26, device us, two runs, 256 / 128 work-items, CUDA | NVIDIA's OpenCL: MAX in segments of
   * 4096 105.3-106.9 / 92.5-93.3 | 97.0-98.0 / 91.7-93.0, 8192 99.3-99.4 / 92.3-92.6 | 93.5-93.6
   * / 92.4-93.0, 16384 101.8-102.2 / 93.4-93.8 | 94.4-94.5 / 93.4-93.8 (CCCL 3.5's CUB 96.5-98.3 in
   * 4096); MIN in 4096 95.6-95.9 / 93.9-94.0 | 96.9-97.4 / 92.2-92.4; ARGMIN in 8192 138.7-140.1 /
   * 102.2-103.5 | 142.5-143.5 / 106.5-107.9, 16384 103.1-103.7 / 100.3-100.7 | 112.9-113.5 /
   * 100.6-100.8; MEAN_VAR in 8192 127.7-129.6 / 107.4-111.6 | 141.1-143.1 / 110.6-112.2, 16384
   * 112.9-114.6 / 102.8-104.3 | 119.1-121.3 / 105.9-107.4. Not the sums (4096-16384: 89.4-92.3
   * / 91.6-93.2), i32 MAX (91.4-93.4 / 92.5-94.4), nor f64 (MAX in 8192 96.8-97.5 / 102.3-103.1
   * through CUDA, ARGMIN 94.5-95.8 / 102.7-103.3). */
  const int small_groups = op_id == ORX_OP_MIN || op_id == ORX_OP_MAX || combines_costly(op_id);
  if (seg->mode == ORX_SEG_GROUP && !target->forced.wg_size && plan->type == OCL_REDUCE_F32 &&
      small_groups && p->wg_size > 128) {
    p->wg_size = 128;
    p->items_per_group = (size_t)p->wg_size * p->vec * p->unroll;
  }
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
  const uint64_t fit = length ? plan->stage / length : 0;
  return fit < policy->wg_size ? fit : policy->wg_size;
}

size_t orx_segment_groups(const orx_policy *policy, const orx_seg_plan *plan, size_t count,
                          uint64_t length) {
  size_t per_group; /* segments a work-group takes at a time */
  switch (plan->mode) {
  case ORX_SEG_LANE: /* a work-item per segment, or per run of ORX_VEC of them */
    per_group = (size_t)policy->wg_size * (plan->vector_runs ? policy->vec : 1);
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

orx_kernel orx_seg_mode_kernel(orx_seg_mode mode) { return modes[mode].kernel; }

/* ORX_SEG_MR through CUDA, equal lengths: the work-items per SM its registers are capped for.
 * CUDA: the equal-length multireduction must fit 1024 work-items per SM (64 registers); on
 * the H200 that ran 8-2048-element segments of whole vectors 3-20% faster (16 elements:
 * 3.11 -> 3.72 TB/s). Masked loads take 80 registers uncapped and spill capped; offsets were
 * not measured capped. With a warp per lane group and at most 4 vector loads per lane and
 * segment, 768 work-items (at most 85 registers): capped to 64, that kernel spills (Nsight
 * Compute, H200, 512-element f32 segments: 81,920 local-memory requests, 66.4 us against
 * CUB's 64.7), and its lanes' few loads per segment do not hide the spills' latency. H200,
 * f32 sums of 2^26, device us, two runs, 1024 / 768 / 512 work-items / uncapped: 128
 * elements 69.4-69.8 / 68.0-68.4 / 68.3-68.8 / 77.1-77.3; 256: 70.8-71.3 / 68.2-68.4 /
 * 67.1-67.3 / 73.3-73.5; 512: 71.0-71.7 / 67.2-67.6 / 67.0-67.4 / 71.9-72.0 (CUB
 * 69.7-69.9); but 1024 (8 loads per lane) 69.1-69.3 / 71.1-71.5 / 70.9-71.0 / 71.4-71.5.
 * 1024 against 768 in two more runs: f64 sums of 2^25 in 64, 128 and 256 elements
 * 81.4-81.9 / 68.9-69.6, 74.3-74.4 / 66.9-67.0, 75.7-76.0 / 66.0-66.3; f32 ARGMIN of 2^26 in
 * 128 and 512 148.3-150.3 / 108.8-110.1 and 119.8-122.0 / 88.5-89.8; i32 sums in 512 69.2 /
 * 66.0-66.2 (128: 67.4-67.9 / 68.2-68.6). MIN and MAX keep 1024: f32 (keys) 80.0-80.3 /
 * 94.0-94.4 in 128 and 74.5-74.6 / 82.6-82.7 in 512; i32 unchanged. Costly states (ARGMIN,
 * ARGMAX, MEAN_VAR) take 512 work-items (128 registers), but ARGMIN and ARGMAX with up to 2
 * vector loads per lane and segment: H100, f32 over 2^26, device us, 1024 or 768 (as above) /
 * 512 / 768 work-items: ARGMIN in 8 elements 215.2 / 137.5 / 144.3, 512 114.4 / 108.2 /
 * 114.1, 1024 140.8 / 104.2 / 110.7, 2048 146.7 / 104.5 / 123.9, but 128 (one load) 116.4 /
 * 131.4-131.9 / 115.0-116.0 and 256 (two) 110.1-111.3 / 113.8-115.0 / 109.7-111.3; MEAN_VAR
 * in 8 285.7 / 161.0 / 215.4, 128 165.2-166.5 / 133.7-134.4 / 165.2-167.1, 256 146.0-147.2 /
 * 116.1-117.2 / 146.5-147.3, 512 136.7 / 113.1 / 136.8, 4096 210.6 / 104.6 / 150.2; ARGMIN
 * f64 (2^25) in 512 128.7 / 103.1 / 105.0. NVIDIA's OpenCL (no cap) ran these at 105-161. */
static unsigned mr_items_per_cu(const orx_seg_shape *shape, const orx_plan *plan) {
  const orx_seg_plan *seg = &plan->seg;
  const int min_or_max = plan->op.id == ORX_OP_MIN || plan->op.id == ORX_OP_MAX;
  const uint64_t loads = mr_loads(&plan->policy, shape->length, seg->load);
  const int few_loads = seg->load == ORX_SEG_VECTORS && seg->width == ORX_MR_MAX_WIDTH &&
                        loads <= 4 * seg->width && !min_or_max;
  /* never one group (the CUDA prelude says why) */
  unsigned items = few_loads && 768 / plan->policy.wg_size >= 2 ? 768 : 1024;
  const int arg = plan->op.id == ORX_OP_ARGMIN || plan->op.id == ORX_OP_ARGMAX;
  if (combines_costly(plan->op.id) && !(arg && few_loads && loads <= 2 * seg->width) &&
      512 / plan->policy.wg_size >= 2)
    items = 512;
  return items;
}

void orx_seg_defines(const orx_caps *caps, const orx_request *request, orx_plan *plan) {
  const orx_seg_shape *shape = &request->shape;
  orx_seg_plan *seg = &plan->seg;
  int64_t *d = plan->defines;
  d[ORX_DEFINE_SEG_OFFSETS] = shape->offsets;
  if (!shape->offsets && !orx_seg_back_to_back(shape))
    d[ORX_DEFINE_SEG_PITCH] = 1;
  switch (seg->mode) {
  case ORX_SEG_LANE:
    if (seg->vector_runs)
      d[ORX_DEFINE_SEG_VECTOR_RUNS] = 1;
    break;
  case ORX_SEG_MR:
    d[ORX_DEFINE_MR_LANES] = seg->width;
    d[ORX_DEFINE_MR_Q] = seg->slots;
    d[ORX_DEFINE_SEG_BATCH] = orx_seg_batch(seg);
    d[ORX_DEFINE_SEG_LOAD] = seg->load;
    if (caps->has_cuda_shuffle && !shape->offsets && seg->load != ORX_SEG_MASKED &&
        plan->policy.wg_size < 1024)
      d[ORX_DEFINE_MIN_GROUPS_PER_CU] = mr_items_per_cu(shape, plan) / plan->policy.wg_size;
    break;
  case ORX_SEG_STAGED:
    d[ORX_DEFINE_SEG_STAGE] = seg->stage;
    break;
  default:
    break;
  }
}

void orx_plan_segment_strategy(const orx_target *target, const orx_request *request,
                               orx_plan *plan) {
  /* The stage holds elements of the library's types (a user's struct elements take the
   * multireduction instead). */
  const int stageable =
      !(request->op.id == ORX_OP_CUSTOM && request->op.element_type == ORX_CUSTOM);
  int forced = target->forced.seg_mode;
  if (!stageable && forced == ORX_SEG_STAGED)
    forced = ORX_SEG_MR;
  const unsigned op_id = request->op.id;
  /* The stage holds pairs' values, of the plan's type: a count of 16-bit pairs' u64s, sized by
   * its 2-byte input, overflowed CUDA's 48 KiB of shared memory. (16-bit elements' f32 stage of
   * 8192 fits either way, and their other choices stay by the input's bytes.) */
  orx_seg_shape shape = request->shape;
  if (request->pair.on && orx_type_size(plan->type) > shape.elem)
    shape.elem = orx_type_size(plan->type);
  orx_plan_segments(target->caps, &plan->policy, forced, op_id, &shape, &plan->seg);
  if (!stageable && plan->seg.mode == ORX_SEG_STAGED)
    orx_plan_segments(target->caps, &plan->policy, ORX_SEG_MR, op_id, &shape, &plan->seg);
  const unsigned pair_wg = orx_pair_segments_wg(target, request, plan);
  if (pair_wg) { /* the multireduction's shape for the pairs' work-groups */
    plan->policy.wg_size = pair_wg;
    plan->policy.items_per_group =
        (size_t)plan->policy.wg_size * plan->policy.vec * plan->policy.unroll;
    orx_plan_segments(target->caps, &plan->policy, ORX_SEG_MR, op_id, &shape, &plan->seg);
  }
  orx_seg_fit_shapes(target, op_id, plan);
  /* Only a work-group per segment streams as a group (a work-item per segment: a run each, read
   * in order). */
  if (plan->seg.mode != ORX_SEG_GROUP && (plan->policy.stream == ORX_STREAM_TRANSPOSED ||
                                          plan->policy.stream == ORX_STREAM_WARP_TILES ||
                                          plan->policy.stream == ORX_STREAM_RUNS))
    plan->policy.stream = ORX_STREAM_CHUNK;
  plan->kernel = orx_seg_mode_kernel(plan->seg.mode);
}
