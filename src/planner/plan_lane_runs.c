/* =================================================================================================
 * plan_lane_runs.c: ORX_SEG_LANE's runs of segments (planner.h, kernels/segments_lane.cl):
 * whether a work-item reduces ORX_VEC equal segments at once, their vectors folded together, and
 * on CPUs the vector width its accumulators and the segments take, and a walk per segment's
 * work-groups and vectors. The measurements behind each rule are next to it. Pure functions of
 * their arguments.
 * ============================================================================================== */
#include "planner/planner.h"

/* Whether a work-item folds vector runs of several segments at once.
 * Contiguous runs of whole-vector segments of a scalar, unordered operator: ORX_VEC segments
 * at a time, their vectors folded together (OpenCL C's vector swizzles; the CUDA prelude has
 * none), while every work-item still gets a run (a work-group takes ORX_VEC times the
 * segments: on PoCL 5, 4096 segments of 4096 in 16 work-groups, a chain per segment, ran
 * 1.4x slower than one segment at a time). f32 over 2^24 elements, time against one segment
 * at a time (where the fold of each segment's vector was a chain of 15 dependent combines),
 * same runs: PoCL 3.1 (2 cores) sums 0.37x at 16 elements, 0.43x at 32, 0.75x at 64, 0.83x
 * at 128-256, 0.90-0.99x at 512-8192, max 0.35-0.37x at 32 and 0.74-0.81x at 2048-8192;
 * PoCL 5 (16 cores) sums 0.60x at 16, 0.72-0.85x at 32, 0.76x at 64, 0.86x at 128,
 * 0.98-1.0x at 256-4096, max 0.34-0.44x at 32; its loops unrolled, PoCL 5 another 0.80-0.85x
 * at 32-128 (docs/perf/HISTORY.md). */
static int vector_runs(const orx_caps *caps, const orx_request *request, const orx_plan *plan) {
  const orx_seg_shape *shape = &request->shape;
  const int64_t *d = plan->defines;
  /* The runs read one input's elements from any start (vloadN, segments_lane.cl; so host memory
   * viewed where it lies takes its staged copy's plan: segment_views.c), 16-bit ones from vector
   * boundaries. Back to back: the length is the pitch. */
  const int any_start = !request->pair.on && !orx_type_is_narrow(request->type);
  const int whole = any_start ? shape->length % plan->policy.vec == 0
                              : orx_seg_whole_vectors(&plan->policy, shape);
  return shape->length && orx_seg_back_to_back(shape) && whole &&
         plan->policy.vec > 1 &&
         shape->count >=
             (uint64_t)plan->policy.max_groups * plan->policy.wg_size * plan->policy.vec &&
         plan->policy.stream == ORX_STREAM_CHUNK && !caps->has_cuda_shuffle &&
         d[ORX_DEFINE_STATE] != 1 && d[ORX_DEFINE_ORDERED] != 1;
}

/* On CPUs a run keeps ORX_VEC accumulators of ORX_VEC elements each, which must fit in 8 of the
 * device's vector registers, and segments must be whole vectors, or the runs give way to a walk
 * per segment. So the planner narrows the CPU policy's 64-byte vectors (unless their width was
 * forced) to the widest whose accumulators fit and that divide the segments' length: f32 sums
 * in 16 accumulators of 16 take 1 KiB, beyond 8 AVX2 registers of 32 bytes (256) and 8 AVX-512
 * ones (512); f64 in 8 of 8, 512 bytes, fit AVX-512's but not AVX2's. Device us, 2^24
 * elements, medians of 20, the policy's vectors / these (the same runs, 2026-12-04;
 * docs/perf/cpu-segments-lane-vectors.txt):
 *   Intel's runtime, 2 AVX2 cores: f32 sums in segments of 4 13439 / 2837, of 32 4302 / 2192,
 *     of 1000 2370 / 1873; f32 max of 4 42560 / 2959; f64 sums of 4 11100 / 4809, of 32
 *     4448 / 3938; f64 max of 32 7266 / 5898;
 *   PoCL 3.1, the same cores: f32 sums of 4 21274 / 2658, of 32 3163 / 2461, of 1000
 *     2409 / 2190; f64 max of 32 7007 / 5512;
 *   PoCL 5, 16 AVX-512 cores (the H200 machine's, two rounds): f32 sums of 4 3529-3879 /
 *     389-417, of 12 2050-2166 / 279-330; f32 max of 4 11121-14193 / 660-750; f64 sums of 4
 *     3123-3240 / 835-916; i32 sums of 4 3092-3163 / 371-407; of 32 and 1000 within that
 *     machine's noise. There f64 keeps vectors of 8 where they divide the length: with vectors of
 *     4, f64 max of 32 and 1000 took 1098-1173 and 672-760 against 1023-1079 and 555-623.
 * Unknown register widths count as AVX2's. (Too few segments for a run on every work-item, e.g.
 * 256 of 65536 with the CPU policy's 8 groups of 16, take no runs: each work-item walks its
 * segments.) */
#define ORX_LANE_RUN_REGISTERS 8u
#define ORX_LANE_RUN_DEFAULT_VECTOR_BYTES 32u
/* Segments of ORX_LANE_RUN_SHORT_MIN_BYTES up to ORX_LANE_RUN_SHORT_BYTES take runs of at most
 * ORX_LANE_RUN_SHORT_VEC segments of vectors of as many elements, but for float MIN and MAX (keys
 * per component, lib/orx_keys.cl): a run folds its ORX_VEC vectors in log2(ORX_VEC) rounds of
 * swizzles, which such segments' few loads do not amortize. This 2-core machine (AVX-512),
 * 2^24 elements (8-byte: 2^23) from a buffer, end to end, two rounds in turns against the fit
 * above alone (8 elements), time / this rule's (docs/perf/cpu-segments-short-runs.txt):
 *   PoCL 3.1: i32 sums in segments of 32 / 64 1.31-1.35 / 1.39-1.57x, f32 sums of 64 1.34-1.35x,
 *     i32 max of 64 1.25-2.48x, f64 sums of 32 1.19-1.50x, i64 sums and max of 16 / 32
 *     1.03-1.98x; f32 sums and i32 max of 32 0.98-1.14x;
 *   Intel's runtime: i32 sums of 32 / 64 1.21-1.24 / 2.10-2.20x, f32 sums of 32 / 64 0.72-1.19 /
 *     1.18-2.23x, i32 max 0.75-1.64 / 1.44-2.46x, f64 sums of 16 / 32 0.85-1.44 / 1.33-2.34x,
 *     i64 sums and max 1.03-1.89x.
 * Shorter segments lost: 4-byte sums of 16 on Intel's runtime 0.51-0.71x, of 8 on PoCL 3.1
 * 0.81-1.06x. From 512 bytes the fit leads: segments of 128 / 1000 / 4096, device us, the fit
 * against 4, PoCL 3.1 f32 sums 2333 / 1508 / 1381 against 2655 / 1777 / 1375, i32 max 2338 /
 * 1087 / 898 against 2716 / 1537 / 1016; Intel's runtime f32 sums 2494 / 1449 / 839 against
 * 2787 / 1805 / 1024. Float MIN and MAX of 4 elements lost everywhere (f32 max, PoCL 3.1, of
 * 8-64: 1424-1906 us against 2202-2537); since the runs keep float MIN and MAX as keys too, on
 * PoCL 5's 16 cores f32 max of 32 / 64 / 128 in vectors of 4 took 347 / 286 / 285 us against the
 * fit's 301 / 279 / 245 (docs/perf/pocl5-segments-lane-keys.txt). 16-bit elements keep the fit
 * (not measured). */
#define ORX_LANE_RUN_SHORT_MIN_BYTES 128u
#define ORX_LANE_RUN_SHORT_BYTES 512u
#define ORX_LANE_RUN_SHORT_VEC 4u

static void fit_vectors(const orx_target *target, const orx_request *request, orx_plan *plan) {
  orx_policy *p = &plan->policy;
  const unsigned was = p->vec;
  const uint64_t elem = orx_type_size(plan->type), length = request->shape.length;
  const unsigned native = target->caps->native_vector_bytes;
  const uint64_t room =
      (uint64_t)ORX_LANE_RUN_REGISTERS * (native ? native : ORX_LANE_RUN_DEFAULT_VECTOR_BYTES);
  if (target->forced.vec || target->caps->type != OCL_REDUCE_DEVICE_CPU || !length)
    return;
  const uint64_t bytes = length * elem;
  const int short_runs = bytes >= ORX_LANE_RUN_SHORT_MIN_BYTES &&
                         bytes < ORX_LANE_RUN_SHORT_BYTES &&
                         plan->defines[ORX_DEFINE_FLOAT_KEYS] <= 0 &&
                         !orx_type_is_narrow(request->type);
  const unsigned widest = short_runs ? ORX_LANE_RUN_SHORT_VEC : was;
  unsigned vec = was;
  while (vec > 1 && (vec > widest || (uint64_t)vec * vec * elem > room || length % vec))
    vec /= 2;
  if (vec == was || vec == 1)
    return;
  p->vec = vec;
  if (!vector_runs(target->caps, request, plan)) {
    p->vec = was; /* no runs at this width either: the walk per segment keeps the policy's */
    return;
  }
  plan->defines[ORX_DEFINE_VEC] = vec;
  p->items_per_group = (size_t)p->wg_size * p->vec * p->unroll;
}

/* A walk per segment on CPUs (no runs: lengths no vector divides, state operators, segments by
 * offsets, too few segments) takes work-groups of ORX_LANE_WALK_WG, unless the size was forced.
 * Intel's CPU runtime, which runs a group's work-items side by side in vector lanes, ran the walk
 * in groups of 16 up to 6.6x slower than in groups of 8, 4 or 1, where groups of 8 were level
 * with 1 or ahead; PoCL, which runs them one after another, was level but for ARGMIN. This
 * 2-core machine, 2^24 elements from a buffer, device us, two rounds, groups of 16 / 8
 * (docs/perf/cpu-segments-walk.txt): Intel's runtime i32 sums in segments of 33 / 1001 / 65536
 * 9957 / 7339-7443 / 5077-5139 against 4476-4538 / 1109-1125 / 1095-1106, i32 max 9951-10091 /
 * 7177-7362 / 5074-5194 against 4178 / 1123-1201 / 1074-1076, f32 max 10844-10912 / 7361-7415 /
 * 5244-5252 against 7698-7713 / 1128-1134 / 1080-1090, ARGMIN f32 7570-7735 / 6326-6521 /
 * 10597-10611 against 4691-4699 / 4057-4062 / 3952-3964, f32 sums (which it ran well in 16)
 * 2675-2697 / 1080-1085 / 1081-1104 against 2666-2668 / 1078-1080 / 1061-1097; PoCL 3.1 ARGMIN
 * i32 3703-4181 against 2868-2949, the other operators within 4 % either way. The runs keep
 * groups of 16: in 8, Intel's float max of 64 and 128 took 2283-2356 and 5029-5110 us against
 * 2028-2149 and 4727-4908.
 * A walk's vectors are at most a 32nd of a segment's bytes (of the average segment's, by
 * offsets), and 16 bytes at least: its head and tail up to the vector boundaries take an
 * element per load, so the policy's 64-byte vectors left short segments mostly to scalar loads.
 * Scalar unordered operators of one input, 4- and 8-byte elements (others not measured). Device
 * us, 2^24 4-byte elements (8-byte: 2^23), one round, the policy's vectors / these: Intel's
 * runtime f32 sums in segments of 17 / 33 / 65 4602 / 2685 / 1483-1524 against 2090 / 1351-1386
 * / 1098-1265, i32 sums 11393 / 4518 / 2534 against 4300 / 2468-2498 / 1579-1631, f32 max 14093
 * / 7787 / 4167 against 4104 / 2396 / 1675, of 257 (vectors of 8) 1468-1516 against 1031-1329;
 * f64 max of 17 / 33 4009 / 2219 against 1744 / 1354; PoCL 3.1 f32 sums of 17 / 33 / 65 9468 /
 * 5556 / 2981 against 3037 / 1913 / 1472, f32 max 21092 / 11127 / 5867 against 5251 / 3174 /
 * 2200, f64 max of 17 5744 against 2180; from 512 elements on within the noise. */
#define ORX_LANE_WALK_WG 8u
#define ORX_LANE_WALK_LOADS 32u
#define ORX_LANE_WALK_MIN_VECTOR_BYTES 16u

static void fit_walk(const orx_target *target, const orx_request *request, orx_plan *plan) {
  orx_policy *p = &plan->policy;
  const orx_seg_shape *shape = &request->shape;
  if (target->caps->type != OCL_REDUCE_DEVICE_CPU)
    return;
  if (!target->forced.wg_size && p->wg_size > ORX_LANE_WALK_WG) {
    p->wg_size = ORX_LANE_WALK_WG;
    plan->defines[ORX_DEFINE_WG_SIZE] = p->wg_size;
  }
  if (target->forced.vec || request->pair.on || orx_type_is_narrow(request->type) ||
      plan->defines[ORX_DEFINE_STATE] == 1 || plan->defines[ORX_DEFINE_ORDERED] == 1)
    return;
  const uint64_t elem = orx_type_size(plan->type);
  const uint64_t length =
      !shape->offsets ? shape->length : shape->count ? shape->elements / shape->count : 0;
  uint64_t widest = length * elem / ORX_LANE_WALK_LOADS;
  if (widest < ORX_LANE_WALK_MIN_VECTOR_BYTES)
    widest = ORX_LANE_WALK_MIN_VECTOR_BYTES;
  unsigned vec = p->vec;
  while (vec > 1 && vec * elem > widest)
    vec /= 2;
  p->vec = vec;
  plan->defines[ORX_DEFINE_VEC] = vec;
}

int orx_seg_lane_runs(const orx_target *target, const orx_request *request, orx_plan *plan) {
  if (plan->seg.mode != ORX_SEG_LANE)
    return 0;
  fit_vectors(target, request, plan);
  const int runs = vector_runs(target->caps, request, plan);
  if (!runs)
    fit_walk(target, request, plan);
  return runs;
}
