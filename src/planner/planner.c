/* =================================================================================================
 * planner.c: the planner's decisions other than paths (plan_path.c) and segments
 * (plan_segments.c): the launch policy per device type and element type, one maker per entry
 * point (whole arrays, segments, several operators, windows, the offsets check, the probe), and
 * the defines every plan carries; plan_launch.c gives a plan's grids. Pure functions of their
 * arguments (planner.h).
 * ============================================================================================== */
#include "planner/planner.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "planner/plan_axes.h"
#include "planner/plan_by_key.h"
#include "planner/plan_host.h"
#include "planner/plan_narrow.h"
#include "planner/plan_state.h"
#include "planner/plan_windows.h"

/* ---- Kernel files ------------------------------------------------------------------------ */

static const struct {
  const char *file, *entry;
} kernels[] = {
#define ORX_KERNEL_ROW(ID, file, entry) {file, entry},
    ORX_KERNELS(ORX_KERNEL_ROW)
#undef ORX_KERNEL_ROW
};

const char *orx_kernel_file(orx_kernel kernel) { return kernels[kernel].file; }
const char *orx_kernel_entry(orx_kernel kernel) { return kernels[kernel].entry; }

#define ORX_DEFINE_NAME(c, NAME) "ORX_" #NAME,
static const char *const define_names[] = {ORX_HOST_DEFINES(ORX_DEFINE_NAME, )};
const char *orx_define_name(orx_define define) { return define_names[define]; }

/* ---- Launch policy ----------------------------------------------------------------------- */

static unsigned floor_pow2(size_t x) {
  unsigned p = 1;
  while ((size_t)p * 2 <= x && p < (1u << 30))
    p *= 2;
  return p;
}

void orx_select_policy(const orx_caps *caps, ocl_reduce_path path, ocl_reduce_subgroup_impl impl,
                       size_t elem_size, orx_policy *out) {
  const unsigned elem = (unsigned)elem_size;
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
    p.vec = elem < 64 ? 64 / elem : 1;
    p.unroll = 2;
    p.max_groups = 4 * caps->compute_units;
    p.items_per_group = 16384 * 4 / elem;
    /* A few partials per core: one work-item combines them (see cl/kernels/reduce_all.cl). */
    p.finish_serial = 1;
  } else {
    /* Coalesced loads of 16 bytes, 4 in flight per work-item (CUB's policy: 256 threads x 16
     * items, vector width 4), a few groups per compute unit. Through CUDA each group strides
     * through an even contiguous share (CUB's layout); NVIDIA's OpenCL compiler does better with
     * one grid-stride loop over the whole array. H200, f32 sum of 2^28 against CUB in the same
     * runs: CUDA tiled 1.000-1.004x, grid-stride 0.885-0.893x; NVIDIA OpenCL (PTX shuffles)
     * grid-stride 1.002x, tiled 0.835-0.843x. Other GPUs take the grid-stride loop. */
    p.stream = caps->has_cuda_shuffle ? ORX_STREAM_TILED : ORX_STREAM_STRIDED; /* CUDA backend */
    /* The last group finishes (atomics on a counter), in every size. A second launch over the
     * partials (finish=launch) returns the result of NVIDIA's OpenCL sooner for 2^14 ... 2^20
     * f32 (H200, one run: 21.4-22.4 us against 23.5-24.5) but later from 2^22 (28.6 against
     * 24.5), and its two kernels take 12.4-13.5 us of device time against 7.3-8.8 (each kernel's
     * events carry about 5 us of their own); through CUDA it costs 1-2 us at every size. */
    p.wg_size = 256;
    p.vec = elem < 16 ? 16 / elem : 1;
    p.unroll = 4;
    p.max_groups = 8 * caps->compute_units;
    p.items_per_group = (size_t)p.wg_size * p.vec * p.unroll;
    /* The multireduction's slots stay in registers only when its loops are unrolled. Not on CPUs
     * (where it is never the automatic choice): there Intel's CPU runtime 2026.2 corrupts its
     * own heap compiling the unrolled form (valgrind: invalid writes in its
     * ReduceCrossBarrierValuesPass), and the test programs crashed. */
    p.unroll_slots = 1;
  }
  /* Where nothing orders work-groups (OpenCL 1.x), a second launch combines the partials. */
  p.sync = caps->device_sync;
  p.finish_launch = p.sync == ORX_SYNC_NONE;
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

void orx_apply_policy_override(const orx_caps *caps, const orx_policy_override *o,
                               size_t elem_size, orx_policy *p) {
  const unsigned elem = (unsigned)elem_size;
  if (o->wg_size && o->wg_size <= caps->max_work_group_size &&
      (uint64_t)2 * o->wg_size * elem + 64 <= caps->local_mem_bytes)
    p->wg_size = o->wg_size;
  /* CUDA's prelude has vectors of 4 components and 16 bytes at most (lib/orx_cuda_prelude.cl: no
   * double4, long4 or ulong4; a forced vec=4 on f64 did not compile). */
  const unsigned cuda_most = elem && 16 / elem < 4 ? 16 / elem : 4;
  const unsigned most_vec = caps->has_cuda_shuffle ? cuda_most : 16;
  if (o->vec && o->vec <= most_vec &&
      (caps->base_align_bytes == 0 || o->vec * elem <= caps->base_align_bytes))
    p->vec = o->vec;
  if (o->unroll)
    p->unroll = o->unroll;
  if (o->chains)
    p->chains = o->chains;
  if (o->prefetch >= 0)
    p->prefetch = o->prefetch;
  if (o->max_groups)
    p->max_groups = o->max_groups;
  if (o->stream >= 0)
    p->stream = o->stream;
  if (p->stream == ORX_STREAM_TRANSPOSED || p->stream == ORX_STREAM_WARP_TILES)
    p->vec = 1; /* they read one element per load */
  if (o->finish_serial >= 0)
    p->finish_serial = o->finish_serial;
  if (o->finish_launch >= 0)
    p->finish_launch = o->finish_launch;
  if (o->wg_size || o->vec || o->unroll || p->stream == ORX_STREAM_TRANSPOSED ||
      p->stream == ORX_STREAM_WARP_TILES)
    p->items_per_group = (size_t)p->wg_size * p->vec * p->unroll;
}

void orx_target_policy(const orx_target *target, size_t elem, orx_policy *out) {
  orx_select_policy(target->caps, target->path, target->subgroup_impl, elem, out);
  orx_apply_policy_override(target->caps, &target->forced, elem, out);
}

unsigned orx_policy_chains(const orx_policy *policy) {
  return policy->chains && policy->chains < policy->unroll ? policy->chains : policy->unroll;
}

size_t orx_policy_groups(const orx_policy *policy, size_t count) {
  size_t groups = count / policy->items_per_group + (count % policy->items_per_group != 0);
  const size_t cap = count <= policy->small_count ? policy->small_groups : policy->max_groups;
  groups = groups < cap ? groups : cap;
  return groups ? groups : 1;
}

/* ---- Plans ------------------------------------------------------------------------------- */

/* Fits the policy to the kernels of an entry point. */
static void fit_policy(const orx_target *target, orx_entry entry, unsigned lanes, orx_policy *p) {
  /* Where subgroups are work-group barriers (PoCL's CPU device) the kernels that run a
   * reduction per segment or several at once combine through local memory: shuffles cost there
   * rather than save, and with them in these kernels PoCL 5.0 gave wrong results or crashed. */
  if ((entry == ORX_ENTRY_SEGMENTS || entry == ORX_ENTRY_MULTI) && target->caps->emulated_subgroups)
    p->subgroup_impl = OCL_REDUCE_SUBGROUP_NONE;
  /* Warp tiles are for order-preserving operators on warps only (orx_fit_ordered). */
  if (p->stream == ORX_STREAM_WARP_TILES)
    p->stream = ORX_STREAM_TRANSPOSED;
  /* Segments: the tiled layout splits one array over all groups; a segment is smaller. */
  if (entry == ORX_ENTRY_SEGMENTS && p->stream == ORX_STREAM_TILED)
    p->stream = ORX_STREAM_STRIDED;
  /* The multireduction needs whole groups of lanes in a work-group, and warp shuffles whole
   * warps (a forced smaller work-group would leave lanes out). */
  if (p->wg_size < lanes)
    p->wg_size = lanes;
  if (orx_subgroup_impl_warps(p->subgroup_impl) && p->wg_size < target->caps->warp_size)
    p->wg_size = target->caps->warp_size;
}

/* The defines every kernel but the offsets check reads: type, streaming, combining. */
static void common_defines(orx_plan *plan) {
  const orx_policy *p = &plan->policy;
  int64_t *d = plan->defines;
  d[ORX_DEFINE_TYPE_ID] = plan->type;
  if (plan->type == (ocl_reduce_type)ORX_CUSTOM)
    d[ORX_DEFINE_ELEMENT_BYTES] = plan->op.element_bytes;
  d[ORX_DEFINE_VEC] = p->vec;
  d[ORX_DEFINE_UNROLL] = p->unroll;
  d[ORX_DEFINE_CHAINS] = orx_policy_chains(p);
  if (p->prefetch)
    d[ORX_DEFINE_PREFETCH] = 1;
  d[ORX_DEFINE_WG_SIZE] = p->wg_size;
  d[ORX_DEFINE_STREAM] = p->stream;
  d[ORX_DEFINE_SG_IMPL] = p->subgroup_impl;
  d[ORX_DEFINE_FINISH_SERIAL] = p->finish_serial;
  /* How the groups of the whole-array kernels finish (lib/orx_finish.cl). */
  if (plan->kernel == ORX_KERNEL_REDUCE_ALL || plan->kernel == ORX_KERNEL_REDUCE_MULTI) {
    if (p->finish_launch || p->sync == ORX_SYNC_NONE) /* not even when finish=group is forced */
      d[ORX_DEFINE_FINISH_LAUNCH] = 1;
    else
      d[ORX_DEFINE_SYNC] = p->sync;
  }
  d[ORX_DEFINE_UNROLL_SLOTS] = p->unroll_slots;
  if (plan->host)
    d[ORX_DEFINE_NO_CONTRACT] = 1;
}

/* The kernel's one operator: its id, and whether subgroups reduce it with a built-in. */
static void operator_defines(const orx_target *target, orx_plan *plan) {
  const unsigned exact =
      orx_type_is_float(plan->type) ? ORX_OPF_SG_BUILTIN_FLOAT : ORX_OPF_SG_BUILTIN;
  plan->defines[ORX_DEFINE_OP_ID] = plan->op.id;
  orx_state_defines(plan);
  if (plan->op.ordered)
    plan->defines[ORX_DEFINE_ORDERED] = 1;
  if (plan->policy.subgroup_impl == OCL_REDUCE_SUBGROUP_BUILTIN)
    plan->defines[ORX_DEFINE_SG_BUILTIN_REDUCE] =
        (orx_op_flags((orx_op_id)plan->op.id) & exact) != 0;
  /* Warps: the device's width (the inline-PTX and CUDA shuffles are written for it). */
  if (orx_subgroup_impl_warps(plan->policy.subgroup_impl))
    plan->defines[ORX_DEFINE_SG_SIZE] = target->caps->warp_size;
  const int keys = orx_plan_float_keys(target, plan);
  if (keys)
    plan->defines[ORX_DEFINE_FLOAT_KEYS] = keys;
  /* Warp tiles: the multireduction of ORX_WARP_TILES tiles across a warp. */
  if (plan->policy.stream == ORX_STREAM_WARP_TILES) {
    plan->defines[ORX_DEFINE_MR_Q] = ORX_WARP_TILES;
    plan->defines[ORX_DEFINE_MR_LANES] = target->caps->warp_size;
  }
}

/* Scalar operators compute integers on their unsigned bits where ORX_OPF_UNSIGNED says so;
 * state operators take the elements as they are. */
static ocl_reduce_type compute_type(const orx_request *request) {
  const int state = orx_operator_is_state(&request->op) && !orx_type_is_narrow(request->type);
  return state ? request->type : orx_compute_type((orx_op_id)request->op.id, request->type);
}

/* ---- One maker per entry point: the kernel, type, policy and defines of its plan ----------- */

static void make_whole(const orx_target *target, const orx_request *request, size_t elem,
                       orx_plan *plan) {
  const int state = orx_operator_is_state(&request->op);
  plan->kernel = ORX_KERNEL_REDUCE_ALL;
  plan->type = compute_type(request);
  /* The host plan is the same on every device, whatever the target's policy (plan_host.c). */
  plan->host = request->host;
  if (request->host) {
    /* How its groups meet is the runner's: the device's ordering there, C11's on the host. */
    orx_host_policy(request, elem, &plan->policy);
    plan->policy.sync = target->caps->device_sync;
    plan->policy.finish_launch = plan->policy.sync == ORX_SYNC_NONE;
  } else {
    orx_target_policy(target, elem, &plan->policy);
    fit_policy(target, request->entry, 1, &plan->policy);
    orx_fit_pairs(target, request, &plan->policy);
    orx_fit_narrow(target, request, &plan->policy);
    if (state) {
      orx_fit_state(target, &request->op, request->stage, 1, &plan->policy);
      orx_plan_state_groups(target, &request->op, elem, request->stage, &plan->policy);
    }
  }
  if (request->op.ordered)
    orx_fit_ordered(target, &request->op,
                    orx_stage_reads_states(request->stage) ? request->op.state_bytes : elem,
                    &plan->policy);
  common_defines(plan);
  operator_defines(target, plan);
  if (state && orx_stage_writes_states(request->stage))
    plan->defines[ORX_DEFINE_PARTIAL_OUT] = 1;
  if (state && orx_stage_reads_states(request->stage))
    plan->defines[ORX_DEFINE_INPUT_STATES] = 1;
  orx_plan_minmax_occupancy(target, orx_type_is_narrow(request->type), plan);
}

static void make_segments(const orx_target *target, const orx_request *request, size_t elem,
                          orx_plan *plan) {
  plan->type = compute_type(request);
  orx_target_policy(target, elem, &plan->policy);
  fit_policy(target, request->entry, 1, &plan->policy);
  orx_fit_pairs(target, request, &plan->policy);
  if (orx_operator_is_state(&request->op))
    orx_fit_state(target, &request->op, ORX_STAGE_WHOLE, 1, &plan->policy);
  if (request->op.ordered)
    orx_fit_ordered(target, &request->op, elem, &plan->policy);
  orx_plan_segment_strategy(target, request, plan);
  common_defines(plan);
  operator_defines(target, plan);
  plan->seg.vector_runs = orx_seg_lane_runs(target, request, plan);
  orx_seg_defines(target->caps, request, plan);
  const unsigned most = 2048 / plan->policy.wg_size, forced_groups = target->forced.min_groups;
  if (target->caps->has_cuda_shuffle && forced_groups) /* CUDA's cap, as for whole arrays */
    plan->defines[ORX_DEFINE_MIN_GROUPS_PER_CU] = forced_groups < most ? forced_groups : most;
}

static void make_multi(const orx_target *target, const orx_request *request, size_t elem,
                       orx_plan *plan) {
  /* Signed integer types stay signed (MIN and MAX need it); SUM and PROD wrap in the kernels'
   * unsigned arithmetic anyway; 16-bit elements are read into f32 (plan_narrow.c), and every
   * slot's result is an f32 (run_array.c gives MIN and MAX back as elements). The
   * multireduction takes the operators rounded up to a power of two. */
  const unsigned q = orx_ceil_pow2(request->op_count);
  plan->kernel = ORX_KERNEL_REDUCE_MULTI;
  plan->type = orx_type_is_narrow(request->type) ? OCL_REDUCE_F32 : request->type;
  plan->slots = request->op_count;
  orx_target_policy(target, elem, &plan->policy);
  fit_policy(target, request->entry, q, &plan->policy);
  orx_fit_multi(target, request->op_count, plan->type, &plan->policy);
  common_defines(plan);
  orx_multi_defines(target, request, q, plan);
}

/* Windows and reduce by key: their kernel's own plan follows from the target's policy. */
static void make_shaped(const orx_target *target, const orx_request *request, size_t elem,
                        orx_plan *plan) {
  const int windows = request->entry == ORX_ENTRY_WINDOWS;
  plan->kernel = windows ? ORX_KERNEL_WINDOWS : ORX_KERNEL_BY_KEY;
  plan->type = compute_type(request);
  orx_target_policy(target, elem, &plan->policy);
  (windows ? orx_plan_windows : orx_plan_by_key)(target, request, plan);
  common_defines(plan);
  operator_defines(target, plan);
}

/* The offsets check (on u64 offsets) and the gather (copying u32 words) read no define: only
 * their launch. */
static void make_utility(const orx_target *target, orx_kernel kernel, ocl_reduce_type type,
                         orx_plan *plan) {
  plan->kernel = kernel;
  plan->type = type;
  orx_target_policy(target, orx_type_size(plan->type), &plan->policy);
}

/* One work-item reports sizes: the operator's defines, no launch policy. */
static void make_probe(const orx_target *target, const orx_request *request, size_t elem,
                       orx_plan *plan) {
  plan->kernel = ORX_KERNEL_OPERATOR_PROBE;
  plan->type = request->type;
  orx_target_policy(target, elem, &plan->policy);
  plan->policy.wg_size = 1;
  plan->policy.max_groups = 1;
  plan->policy.vec = plan->policy.unroll = 1;
  plan->policy.subgroup_impl = OCL_REDUCE_SUBGROUP_NONE;
  common_defines(plan);
  operator_defines(target, plan);
}

/* The sizes every plan states: one state per group and slot (a built-in operator's is one
 * element), the bytes of what its kernel reads per element, its partials. */
static void state_sizes(const orx_request *request, size_t elem, orx_plan *plan) {
  if (!plan->op.state_bytes)
    plan->op.state_bytes = (unsigned)orx_type_size(plan->type);
  if (!plan->op.state_align)
    plan->op.state_align = plan->op.state_bytes;
  if (!plan->op.result_bytes)
    plan->op.result_bytes = plan->op.state_bytes;
  plan->element_bytes =
      (request->entry == ORX_ENTRY_REDUCE || request->entry == ORX_ENTRY_COLUMNS) &&
              orx_stage_reads_states(request->stage)
          ? plan->op.state_bytes
          : (unsigned)elem;
  plan->partials_bytes = (size_t)plan->policy.max_groups * plan->slots * plan->op.state_bytes;
}

void orx_plan_make(const orx_target *target, const orx_request *request, orx_plan *plan) {
  const size_t elem = orx_request_element_bytes(request);
  /* 16-bit elements take the policy of the f32 kernel they are read into (plan_narrow.c), pairs
   * that of their values' (plan_pairs.c), a user operator's pairs that of what its kernel holds
   * per element, both (lib/orx_types.cl's T, which lib/orx_stream.cl stages). */
  const int user_pairs = request->pair.on && request->pair.op == ORX_PAIR_USER;
  const size_t policy_elem = orx_type_is_narrow(request->type) ? sizeof(float)
                             : user_pairs                      ? 2 * elem
                             : request->pair.on                ? orx_type_size(request->type)
                                                               : elem;
  memset(plan, 0, sizeof *plan); /* filled in place: the planner runs on every call */
  for (int i = 0; i < ORX_DEFINE_COUNT; i++)
    plan->defines[i] = ORX_DEFINE_UNSET;
  plan->slots = 1;
  plan->op = request->op;
  switch (request->entry) {
  case ORX_ENTRY_REDUCE: make_whole(target, request, policy_elem, plan); break;
  case ORX_ENTRY_SEGMENTS: make_segments(target, request, policy_elem, plan); break;
  case ORX_ENTRY_MULTI: make_multi(target, request, policy_elem, plan); break;
  case ORX_ENTRY_WINDOWS:
  case ORX_ENTRY_BY_KEY: make_shaped(target, request, policy_elem, plan); break;
  case ORX_ENTRY_CHECK_OFFSETS:
    make_utility(target, ORX_KERNEL_CHECK_OFFSETS, OCL_REDUCE_U64, plan);
    break;
  case ORX_ENTRY_GATHER: make_utility(target, ORX_KERNEL_GATHER, OCL_REDUCE_U32, plan); break;
  case ORX_ENTRY_COLUMNS: /* the whole-array plan of the same stage, read as columns */
    make_whole(target, request, policy_elem, plan);
    orx_plan_columns(target, request, plan);
    break;
  case ORX_ENTRY_PROBE: make_probe(target, request, elem, plan); break;
  }
  state_sizes(request, elem, plan);
  orx_plan_narrow(target, request, plan);
  orx_plan_pairs(target, request, plan);
}
