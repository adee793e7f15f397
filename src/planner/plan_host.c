/* =================================================================================================
 * plan_host.c: which requests take the host plan (planner.h, planner/host_plan.h), and its policy.
 *
 * A CPU device pays its implementation's launch floor on every call (PoCL 5 on 16 cores: a
 * blocking read 62-70 us, a kernel 18 us) where a loop on the calling thread sums 2^16 floats in
 * a few microseconds. Reductions of host memory there take the host plan, which the calling thread
 * and a few threads of the context's run (host_run.c), and so do small buffers that live in host
 * memory; the device runs the same plan when asked to (host=device), so the choice of where it
 * runs changes no bit. host=off makes none (the device's own plans).
 * ============================================================================================== */
#include <stdint.h>
#include <string.h>

#include "planner/host_plan.h"
#include "base/ids.h"
#include "planner/plan_host.h"

/* State operators whose host kernel reads as fast as a scalar one's, against the device's plans
 * at every size measured (planner/host_plan.h): ARGMIN and ARGMAX, MINMAX and SUM_WIDE; MEAN_VAR
 * where work-items run in turn (PoCL), whereas Intel's runtime ran its f64 plan faster. */
static int reads_like_scalars(const orx_target *target, unsigned op) {
  switch (op) {
  case ORX_OP_ARGMIN:
  case ORX_OP_ARGMAX:
  case ORX_OP_MINMAX:
  case ORX_OP_SUM_WIDE: return 1;
  case ORX_OP_MEAN_VAR: return target->caps->work_items_in_turn;
  default: return 0;
  }
}

/* The largest buffer whose result into host memory the host's grid reads (host_plan.h): f16
 * elements keep the crossover of results into buffers (the host widens them in integer code);
 * devices that vectorize across work-items (Intel's runtime: its own plans read at 0.27-0.45x an
 * OpenMP loop at every size, 8-byte MIN and MAX included) leave every size of 4- and 8-byte
 * elements to the grid. Elsewhere 8-byte MIN and MAX, whose host kernel compares an element at a
 * time, and bf16 (narrow) stop at 16 MiB, the rest at 128 MiB. */
static size_t read_max_bytes(const orx_target *target, const orx_request *request, size_t elem,
                             int state) {
  const int minmax = request->op.id == ORX_OP_MIN || request->op.id == ORX_OP_MAX;
  if (state && !reads_like_scalars(target, request->op.id))
    return ORX_HOST_PLAN_MAX_READ_STATE_BYTES;
  if (request->type == OCL_REDUCE_F16)
    return ORX_HOST_PLAN_MAX_RESIDENT_BYTES;
  const int narrow = elem < 4 || (elem == 8 && minmax);
  if (!target->caps->work_items_in_turn && elem >= 4)
    return SIZE_MAX;
  return narrow ? ORX_HOST_PLAN_MAX_READ_NARROW_BYTES : ORX_HOST_PLAN_MAX_READ_BYTES;
}

int orx_plan_takes_host(const orx_target *target, const orx_request *request, size_t count,
                        orx_host_source source) {
  const size_t elem = orx_request_element_bytes(request);
  const int state = orx_operator_is_state(&request->op);
  const size_t max_bytes =
      target->forced.host_kib ? (size_t)target->forced.host_kib << 10
      : source == ORX_HOST_SOURCE_MEMORY || request->pair.on ? SIZE_MAX /* host_plan.h */
      : source == ORX_HOST_SOURCE_BUFFER_READ ? read_max_bytes(target, request, elem, state)
      : state ? ORX_HOST_PLAN_MAX_RESIDENT_STATE_BYTES
              : ORX_HOST_PLAN_MAX_RESIDENT_BYTES;
  return target->caps->type == OCL_REDUCE_DEVICE_CPU && target->forced.host != ORX_HOST_OFF &&
         request->entry == ORX_ENTRY_REDUCE && request->stage == ORX_STAGE_WHOLE &&
         !(request->pair.on && request->pair.op == ORX_PAIR_USER) && /* no host kernel */
         orx_op_valid((orx_op_id)request->op.id) && count > 0 && count <= max_bytes / elem;
}

int orx_plan_takes_host_segments(const orx_target *target, const orx_request *request,
                                 int device_in_place, size_t length, orx_host_source source) {
  /* Equal segments, each a whole array of the host plan: of pairs, whose device segment kernels
   * trail an OpenMP loop on CPU devices; of one input, scalar operators but on f16 elements
   * (widened in integer code on the host), from host memory (which the device's plans first copy
   * into its buffer on one thread) in segments of at least one step of the host plan's loads
   * (host_plan.h), or of more where the device's plan reads the elements where they lie: a view
   * of host memory, or a buffer whose results go to host memory. The device has no run of this
   * form, so host=device, like host=off, keeps the device's plans. */
  if (target->caps->type != OCL_REDUCE_DEVICE_CPU || target->forced.host == ORX_HOST_OFF ||
      target->forced.host == ORX_HOST_DEVICE || !orx_op_valid((orx_op_id)request->op.id))
    return 0;
  if (request->pair.on)
    return request->pair.op != ORX_PAIR_USER;
  if (source == ORX_HOST_SOURCE_BUFFER || orx_operator_is_state(&request->op) ||
      request->type == OCL_REDUCE_F16)
    return 0;
  const size_t min_bytes = device_in_place || source == ORX_HOST_SOURCE_BUFFER_READ
                               ? ORX_HOST_PLAN_MIN_IN_PLACE_SEGMENT_BYTES
                               : ORX_HOST_PLAN_MIN_SEGMENT_BYTES;
  return length >= min_bytes / orx_request_element_bytes(request);
}

void orx_host_policy(const orx_request *request, size_t elem, orx_policy *out) {
  const unsigned op = request->op.id;
  const unsigned pair_op = request->pair.on ? (unsigned)request->pair.op : ORX_PAIR_NONE;
  orx_policy p;
  memset(&p, 0, sizeof p);
  p.path = OCL_REDUCE_PATH_LOCAL;
  p.subgroup_impl = OCL_REDUCE_SUBGROUP_NONE;
  p.stream = ORX_HOST_PLAN_RUNS(op, pair_op) ? ORX_STREAM_RUNS : ORX_STREAM_CHUNK; /* host_plan.h */
  p.wg_size = 1;
  p.vec = ORX_HOST_PLAN_ONE_ELEMENT(op) ? 1 : (unsigned)(ORX_HOST_PLAN_LOAD_BYTES / elem);
  p.unroll = ORX_HOST_PLAN_ONE_ELEMENT(op) ? 1 : ORX_HOST_PLAN_UNROLL;
  p.max_groups = ORX_HOST_PLAN_MAX_GROUPS;
  p.items_per_group = ORX_HOST_PLAN_GROUP_BYTES / elem;
  p.finish_serial = 1;
  *out = p;
}
