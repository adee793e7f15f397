/* =================================================================================================
 * plan_multi.c: the multi-operator kernel's plan (reduce_multi.cl) beyond the common defines: how
 * it streams its input, which every operator slot's chain absorbs at once (the measurement next
 * to the choice), and its slots' defines.
 * ============================================================================================== */
#include "planner/planner.h"

/* Groups of 256 per compute unit that stay resident with the kernel's registers, by slots and
 * type (ptxas, sm_90, the kernel NVRTC builds): f32 38-56 registers for 2 to 8 slots (MIN and MAX
 * as keys); i32 32-61 up to 5 slots, 70 and 77 for 6 and 7, 90 for 8; i64 and u64 up to 64 for 5,
 * 76-78 for 6-7, 106 for 8; f64 up to 64 for 5, 70-78 for 6-7, 86 for 8. An SM holds 4 groups up
 * to 64 registers, 3 up to 80, 2 up to 128: a grid of 4 per compute unit ran those in 1.3 or 2
 * waves. One H100 through CUDA, wall us of the call, 4 per SM against the resident count, two
 * rounds, 2^24 / 2^27 elements: i32 with 6 slots 51.0-52.4 -> 44.1-45.5 / 230.4-233.4 ->
 * 205.1-205.9 (3 per SM); f64 with 6 slots 100.9-102.7 -> 78.5-79.3 / 582.6-596.3 ->
 * 456.4-468.7; i32 with 8 slots 51.4-53.7 -> 46.2-48.8 / 221.5-224.3 -> 215.8-216.2 (2 per SM);
 * u64 with 8 slots 82.6-93.5 -> 72.1-73.5 / 425.4-426.3 -> 417.7-418.7; f64 with 8 slots
 * 114.2-114.5 -> 106.9, 134.7 / 678.0-678.6 -> 660.5-664.8. f32 sum, min and max at 3 per SM
 * (where 4 fit): 2^27 195.0-197.1 -> 199.9-202.0, so 4 stays. */
static unsigned resident_groups(unsigned slots, ocl_reduce_type type) {
  if (type == OCL_REDUCE_F32 || slots <= 5)
    return 4;
  return slots <= 7 ? 3 : 2;
}

/* The multi-operator kernel on GPUs: two loads in flight per work-item, not the scalar policy's
 * four, as each load feeds every operator's chain (with float MIN and MAX as keys, which need
 * half the instructions of the float compares). H100 through CUDA, f32 sum, min and max of
 * 2^28, one device, wall time of the call (the f32 sum 360.5 us in the same run): float
 * compares, 4 loads 496.9 us (78 registers, 37.5 % occupancy, the issue slots 59 % busy: Nsight
 * Compute); keys, 4 loads 424.1 (86 registers, 25 % occupancy), 2 loads 377.6, 4 loads in 2
 * chains 393.8, 8 loads in 2 chains 393.9, with the next loads issued first 378.9; more groups
 * slower. Another run, with two H100s: 2 loads 380.6, one load 375.8, 2 loads with the next
 * issued first 376.0, 2 loads capped to 4 groups per SM 375.1 (6: 398.8); NVIDIA's OpenCL, float
 * compares and 4 loads 496.4, keys and 2 loads 375.2. */
void orx_fit_multi(const orx_target *target, unsigned slots, ocl_reduce_type type, orx_policy *p) {
  if (target->caps->type == OCL_REDUCE_DEVICE_CPU)
    return;
  if (!target->forced.unroll && !target->forced.chains) {
    p->unroll = 2;
    p->items_per_group = (size_t)p->wg_size * p->vec * p->unroll;
  }
  /* As many groups as stay resident, one wave (as plan_state.c does for ARGMIN): the slots'
   * registers leave fewer groups per compute unit than the scalar policy's 8 (resident_groups;
   * Nsight Compute, H100 through CUDA, f32 sum, min and max: 46 registers, 5 groups of 256 per
   * SM, 1.6 waves at 8 per SM). Wall us of the call, one run, 8 -> 4 groups per SM: 2^24 49.3
   * -> 41.5, 2^27 204.4 -> 196.3, 2^28 378.6 -> 371.7 (3 per SM: 41.6, 203.0, 376.6; 2 per SM
   * slower at every size; the f32 sum in the same run 363.7 at 2^28). H200, against the previous
   * main in the same runs: CUDA 2^28 273-277 -> 263-267, NVIDIA's OpenCL 2^24 44.1 -> 37.4-38.4,
   * 2^28 274-275 -> 263-265. */
  const unsigned units = target->caps->compute_units, per_unit = resident_groups(slots, type);
  if (!target->forced.max_groups && units && (size_t)per_unit * units < p->max_groups)
    p->max_groups = (size_t)per_unit * units;
}

void orx_multi_defines(const orx_target *target, const orx_request *request, unsigned q,
                       orx_plan *plan) {
  uint64_t ops = 0;
  for (unsigned k = 0; k < request->op_count; k++)
    ops |= (uint64_t)request->ops[k] << (8 * k);
  plan->defines[ORX_DEFINE_SLOTS] = request->op_count;
  plan->defines[ORX_DEFINE_SLOT_OPS] = (int64_t)ops;
  plan->defines[ORX_DEFINE_MR_Q] = q;
  /* Float MIN and MAX slots as keys where the single-operator kernels take them. */
  const int keys = orx_plan_float_keys(target, plan);
  if (keys)
    plan->defines[ORX_DEFINE_FLOAT_KEYS] = keys;
  /* Not the single-operator kernel's choice for 16-bit MIN and MAX: this kernel's grid is
   * orx_fit_multi's, whatever the elements. */
  orx_plan_minmax_occupancy(target, 0, plan);
}
