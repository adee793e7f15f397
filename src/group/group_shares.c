/* =================================================================================================
 * group_shares.c: the shares of a group's devices (group_shares.h): equal for devices of one
 * model, else measured when the group is created, or set by the application.
 * ============================================================================================== */
#include "group/group_shares.h"

#include <math.h> /* isfinite and INFINITY, macros */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "exec/context_facts.h"
#include "base/errors.h"
#include "planner/plan_group.h"

/* What a measurement reduces: 32 MiB of f32, large enough that a launch's fixed cost is a few
 * per cent of the time on a CPU and a GPU's host copy, small enough that a group takes
 * milliseconds to measure. */
#define MEASURE_ELEMENTS ((size_t)8 << 20)
#define MEASURE_REPEATS 3
/* Shares are kept in steps of 1/1024, so that noise well below a step changes no split. */
#define SHARE_STEPS 1024.0

/* The fastest of MEASURE_REPEATS reductions of `in` (after one untimed, which builds). */
static ocl_reduce_status fastest(ocl_reduce_context *ctx, ocl_reduce_input in, double *best) {
  float sum = 0.0f;
  ORX_FORWARD(ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, MEASURE_ELEMENTS,
                              ocl_reduce_host_output(&sum, sizeof sum)));
  *best = INFINITY;
  for (int r = 0; r < MEASURE_REPEATS; r++) {
    const uint64_t start = orx_now_ns();
    ORX_FORWARD(ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, MEASURE_ELEMENTS,
                                ocl_reduce_host_output(&sum, sizeof sum)));
    const double took = 1e-9 * (double)(orx_now_ns() - start);
    *best = took < *best ? took : *best;
  }
  return OCL_REDUCE_OK;
}

/* Device d's throughput from host memory and from its own buffer (elements per second). */
static ocl_reduce_status measure(ocl_reduce_context *ctx, const float *host, double rates[2]) {
  double t = 0.0;
  ORX_FORWARD(fastest(ctx, ocl_reduce_host_input(host, MEASURE_ELEMENTS * sizeof *host), &t));
  rates[OCL_REDUCE_SHARES_HOST] = (double)MEASURE_ELEMENTS / t;
  ocl_reduce_buffer *buffer = NULL;
  ORX_FORWARD(ocl_reduce_buffer_create(ctx, MEASURE_ELEMENTS * sizeof *host, &buffer));
  ocl_reduce_status status =
      ocl_reduce_buffer_write(buffer, 0, host, MEASURE_ELEMENTS * sizeof *host);
  if (status == OCL_REDUCE_OK)
    status = fastest(ctx, ocl_reduce_buffer_input(buffer, 0), &t);
  ocl_reduce_buffer_destroy(buffer);
  rates[OCL_REDUCE_SHARES_RESIDENT] = (double)MEASURE_ELEMENTS / t;
  return status;
}

/* Sets shares[which] from weights already checked: normalized, in steps of 1/SHARE_STEPS (a
 * device with a weight keeps at least one step). */
static void set_normalized(ocl_reduce_group *g, ocl_reduce_shares which, const double *weights) {
  double total = 0.0;
  for (size_t d = 0; d < g->size; d++)
    total += weights[d];
  double steps[OCL_REDUCE_GROUP_MAX_DEVICES], step_total = 0.0;
  for (size_t d = 0; d < g->size; d++) {
    /* Rounded to the nearest step (no libm: the library links none). */
    const double nearest = (double)(uint64_t)(SHARE_STEPS * (weights[d] / total) + 0.5);
    steps[d] = weights[d] > 0.0 ? (nearest < 1.0 ? 1.0 : nearest) : 0.0;
    step_total += steps[d];
  }
  for (size_t d = 0; d < g->size; d++)
    g->shares[which][d] = steps[d] / step_total;
}

static int one_model(const ocl_reduce_group *g) {
  orx_device_facts first, other;
  orx_context_device(g->contexts[0], &first);
  for (size_t d = 1; d < g->size; d++) {
    orx_context_device(g->contexts[d], &other);
    if (other.backend != first.backend || strcmp(other.device_name, first.device_name) != 0)
      return 0;
  }
  return 1;
}

ocl_reduce_status orx_group_initial_shares(ocl_reduce_group *g) {
  double rates[2][OCL_REDUCE_GROUP_MAX_DEVICES];
  if (one_model(g)) {
    for (size_t d = 0; d < g->size; d++)
      rates[0][d] = rates[1][d] = 1.0;
  } else {
    float *host = orx_malloc(MEASURE_ELEMENTS * sizeof *host);
    if (!host)
      return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY,
                      "ocl_reduce_group_create: out of memory for the measurement");
    /* Written: untouched pages all map the one zero page, which copies faster than data. */
    for (size_t i = 0; i < MEASURE_ELEMENTS; i++)
      host[i] = 1.0f;
    /* One device at a time: each alone, as it is when it has the host's memory to itself. */
    for (size_t d = 0; d < g->size; d++) {
      double both[2];
      const ocl_reduce_status status = measure(g->contexts[d], host, both);
      if (status != OCL_REDUCE_OK) {
        free(host);
        return orx_fail(NULL, status, "ocl_reduce_group_create: measuring device %zu (%s): %s", d,
                        orx_group_device_name(g, d), ocl_reduce_last_error(g->contexts[d]));
      }
      rates[0][d] = both[0];
      rates[1][d] = both[1];
    }
    free(host);
  }
  set_normalized(g, OCL_REDUCE_SHARES_HOST, rates[OCL_REDUCE_SHARES_HOST]);
  set_normalized(g, OCL_REDUCE_SHARES_RESIDENT, rates[OCL_REDUCE_SHARES_RESIDENT]);
  return OCL_REDUCE_OK;
}

void orx_group_parts(const ocl_reduce_group *g, ocl_reduce_shares which, uint64_t units,
                     uint64_t unit_bytes, uint64_t *parts) {
  orx_plan_group_parts(g->shares[which], g->size, units, unit_bytes, g->min_part_bytes, parts);
}

static int shares_known(ocl_reduce_shares which) {
  return which == OCL_REDUCE_SHARES_HOST || which == OCL_REDUCE_SHARES_RESIDENT;
}

ocl_reduce_status ocl_reduce_group_shares(const ocl_reduce_group *group, ocl_reduce_shares which,
                                          double *shares) {
  static const char fn[] = "ocl_reduce_group_shares";
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_CHECK_ARG(NULL, shares_known(which), "%s: which: unknown value %d", fn, (int)which);
  ORX_CHECK_ARG(NULL, shares, "%s: shares is NULL", fn);
  memcpy(shares, group->shares[which], group->size * sizeof *shares);
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_group_set_shares(ocl_reduce_group *group, ocl_reduce_shares which,
                                              const double *weights) {
  static const char fn[] = "ocl_reduce_group_set_shares";
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_CHECK_ARG(NULL, shares_known(which), "%s: which: unknown value %d", fn, (int)which);
  ORX_CHECK_ARG(NULL, weights, "%s: weights is NULL", fn);
  double total = 0.0;
  for (size_t d = 0; d < group->size; d++) {
    ORX_CHECK_ARG(NULL, isfinite(weights[d]) && weights[d] >= 0.0,
                  "%s: weights[%zu] is %g (finite and >= 0)", fn, d, weights[d]);
    total += weights[d];
  }
  ORX_CHECK_ARG(NULL, total > 0.0 && isfinite(total),
                "%s: weights: all 0, or their sum is not finite", fn);
  set_normalized(group, which, weights);
  return OCL_REDUCE_OK;
}
