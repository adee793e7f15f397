/* =================================================================================================
 * plan_group.c: how a group of devices shares a request (planner.h, "Groups of devices"). The
 * group's calls (src/group/) cut host arrays, group buffers and segments with it.
 * ============================================================================================== */
#include "planner/plan_group.h"
#include "ocl_reduce_group.h"

/* The least input a device of a group takes: 64 MiB. Each device beyond the first costs a host
 * thread's start (10-50 us), its own launches and the read of its state: about 12 us on an H200
 * through CUDA (the small-input floor of docs/perf/HISTORY.md), more through OpenCL. An H200
 * streams 64 MiB in about 14 us (4.8 TB/s), so below that a second GPU costs about as much as
 * it saves; CPUs, slower per byte, gain from smaller parts, which part_kib lets tests take. */
#define ORX_GROUP_MIN_PART_BYTES ((uint64_t)64 << 20)

uint64_t orx_group_min_part_bytes(const orx_policy_override *forced) {
  return forced && forced->part_kib ? (uint64_t)forced->part_kib << 10 : ORX_GROUP_MIN_PART_BYTES;
}

/* Seams up to 1 MiB (windows up to some 2^17 f32 elements on two devices) are staged: the group
 * then keeps 3 MiB per device for them (twice the seam in page-locked memory, once on the
 * device). Staging saves latencies, about 20 us on two H100s (docs/perf/HISTORY.md); a seam of a
 * MiB takes some 40 us to cross the bus either way. */
#define ORX_GROUP_SEAM_STAGED_BYTES ((uint64_t)1 << 20)

uint64_t orx_group_seam_staged_bytes(const orx_policy_override *forced) {
  return forced && forced->seam_kib ? (uint64_t)forced->seam_kib << 10
                                    : ORX_GROUP_SEAM_STAGED_BYTES;
}

/* Cuts units among the active devices by their weights: each part ends where the running sum
 * of weights reaches its fraction of the whole, and the last active device takes the rest. */
static void split(const double *weights, const unsigned char *active, size_t devices,
                  uint64_t units, uint64_t *parts) {
  double total = 0.0;
  size_t last = 0;
  for (size_t d = 0; d < devices; d++)
    if (active[d]) {
      total += weights[d];
      last = d;
    }
  double running = 0.0;
  uint64_t start = 0;
  for (size_t d = 0; d < devices; d++) {
    parts[d] = 0;
    if (!active[d])
      continue;
    running += weights[d];
    uint64_t end = units;
    if (d != last) {
      const double at = (double)units * (running / total);
      end = at >= (double)units ? units : (uint64_t)at;
      end = end < start ? start : end;
    }
    parts[d] = end - start;
    start = end;
  }
}

void orx_plan_group_parts(const double *weights, size_t devices, uint64_t units,
                          uint64_t unit_bytes, uint64_t min_part_bytes, uint64_t *parts) {
  unsigned char active[OCL_REDUCE_GROUP_MAX_DEVICES] = {0};
  size_t active_count = 0;
  for (size_t d = 0; d < devices && d < OCL_REDUCE_GROUP_MAX_DEVICES; d++)
    if (weights[d] > 0.0) {
      active[d] = 1;
      active_count++;
    }
  if (active_count == 0) { /* the caller's weights are checked; this keeps the plan whole */
    active[0] = 1;
    active_count = 1;
  }
  for (;;) {
    split(weights, active, devices, units, parts);
    int too_small = 0;
    for (size_t d = 0; d < devices; d++)
      too_small |= active[d] && parts[d] * unit_bytes < min_part_bytes;
    if (!too_small || active_count == 1)
      return;
    /* The device with the smallest weight (the last of equals) leaves, and the rest re-split. */
    size_t drop = devices;
    for (size_t d = 0; d < devices; d++)
      if (active[d] && (drop == devices || weights[d] <= weights[drop]))
        drop = d;
    active[drop] = 0;
    active_count--;
  }
}
