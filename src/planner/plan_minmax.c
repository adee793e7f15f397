/* =================================================================================================
 * plan_minmax.c: how MIN and MAX kernels are compiled (planner.h): float MIN and MAX as integer
 * keys of the elements' bits (lib/orx_keys.cl), and through CUDA the register cap that keeps
 * every group of the whole-array launch resident. Each choice next to its measurement.
 * ============================================================================================== */
#include "planner/host_plan.h"
#include "base/ids.h"
#include "planner/planner.h"

static int min_or_max(unsigned op) { return op == ORX_OP_MIN || op == ORX_OP_MAX; }

/* Whether a plan reduces with float MIN or MAX: its operator, or one of the multi-operator
 * kernel's slots (ORX_SLOT_OPS, a byte per slot). */
static int has_float_min_or_max(const orx_plan *plan) {
  if (!orx_type_is_float(plan->type))
    return 0;
  if (plan->kernel != ORX_KERNEL_REDUCE_MULTI)
    return min_or_max(plan->op.id);
  for (unsigned k = 0; k < plan->slots; k++)
    if (min_or_max((unsigned)((uint64_t)plan->defines[ORX_DEFINE_SLOT_OPS] >> (8 * k)) & 0xffu))
      return 1;
  return 0;
}

/* Whether float MIN and MAX stream as integer keys (lib/orx_keys.cl, ORX_FLOAT_KEYS): 0 no, 1 a
 * key per component, 2 whole vectors of keys. Measured against the float compares
 * (docs/perf/HISTORY.md, issue 17). H200, 2^28, one run each: NVIDIA's OpenCL f32 0.79 -> 0.98x
 * CUB with keys per component and whole vectors alike, f64 0.80 -> 0.98x per component but
 * 0.80x as vectors of long; CUDA f32 unchanged (0.93x), f64 0.99 -> 0.82x. PoCL 3.1, 2 cores,
 * f32 max of 2^24: floats 25 GB/s, keys per component 16, whole vectors 45 (OpenMP 48). */
int orx_plan_float_keys(const orx_target *target, const orx_plan *plan) {
  if (!has_float_min_or_max(plan))
    return 0;
  if (plan->host)
    return ORX_HOST_PLAN_FLOAT_KEYS;
  if (target->forced.float_keys >= 0)
    return target->forced.float_keys;
  if (target->caps->type == OCL_REDUCE_DEVICE_CPU)
    return 2;
  return target->caps->has_cuda_shuffle && plan->type == OCL_REDUCE_F64 ? 0 : 1;
}

/* f16 and bf16 MIN and MAX through CUDA (keys of their f32 values): 4 groups of 256 per SM, each
 * capped at 48 registers, and a grid of 4 per SM. The f32 cap below (32 registers) spilled the
 * 16-bit vectors (ptxas sm_90: 68 bytes), and uncapped (40 registers: 6 groups resident) the
 * grid's 8 per SM took a second wave. H200, 2^28 against CUB in one run, f16 / bf16: capped at
 * 8 per SM 267 / 267 us, uncapped 165 / 165, uncapped with 6 per SM 139 / 140, capped at 6 with
 * 6 per SM 138 / 139, this 137 / 136; CUB 138 / 139. */
#define ORX_NARROW_KEYS_GROUPS_PER_CU 4u

/* Through CUDA, MIN and MAX of 4-byte types cap the whole-array kernel's registers so that the
 * launch's groups per SM (8 of 256 work-items) all fit at once (__launch_bounds__): NVRTC gave
 * them 40 registers against the sum's 32, which left 64 % of the SM's warps resident (Nsight
 * Compute). H200, 2^28 against CUB, one run: i32 0.956 -> 0.992x, f32 (keys) 0.93 -> 0.98x. Not
 * the sums (32 registers already; 1.000 -> 0.990-0.995x capped) nor f64 (capped, the float
 * compares spill: 0.99 -> 0.30x; keys capped 0.90x); 8-byte integers were not measured. */
void orx_plan_minmax_occupancy(const orx_target *target, int narrow, orx_plan *plan) {
  if (!target->caps->has_cuda_shuffle || plan->host) /* the host plan runs on the host's cores */
    return;
  unsigned groups = target->forced.min_groups;
  const unsigned units = target->caps->compute_units ? target->caps->compute_units : 1;
  const int min_or_max = plan->op.id == ORX_OP_MIN || plan->op.id == ORX_OP_MAX;
  const int floats_as_keys = plan->defines[ORX_DEFINE_FLOAT_KEYS] > 0; /* floats only as keys */
  if (!groups && min_or_max && narrow && floats_as_keys) {
    groups = ORX_NARROW_KEYS_GROUPS_PER_CU;
    if (!target->forced.max_groups)
      plan->policy.max_groups = groups * units;
  } else if (!groups && min_or_max && orx_type_size(plan->type) == 4 &&
             (!orx_type_is_float(plan->type) || floats_as_keys)) {
    groups = (unsigned)(plan->policy.max_groups / units);
  }
  if (!groups)
    return;
  if ((size_t)groups * plan->policy.wg_size > 2048) /* an SM's most resident threads */
    groups = 2048 / plan->policy.wg_size;
  if (groups)
    plan->defines[ORX_DEFINE_MIN_GROUPS_PER_CU] = groups;
}
