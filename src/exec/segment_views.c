/* =================================================================================================
 * segment_views.c: on CPU devices, a segmented call's results into host memory are written where
 * they lie (device_views.h), not through a scratch buffer read back after each batch. PoCL 5 on
 * 16 cores, f32 2^24 in segments of 32 from a buffer: the kernel took 300 us and the call 600,
 * most of it reading the 2 MiB of results back on one thread. Its input in host memory is read
 * where it lies too, where that gives the bits of the staged copy (orx_seg_reads_in_place).
 * ============================================================================================== */
#include <string.h>

#include "exec/context.h"
#include "exec/device_views.h"
#include "exec/run.h"
#include "planner/plan_staging.h"

/* A view is taken unless the results share memory with what the kernels read: the inputs and
 * the offsets, or a buffer whose storage the backend does not know (a wrapped one), which they
 * may share. */
ocl_reduce_status orx_seg_view_results(ocl_reduce_context *ctx, orx_device_views *views,
                                       orx_seg_call **c, orx_seg_call *viewed) {
  const orx_seg_call *s = *c;
  if (!s->out.host_out)
    return OCL_REDUCE_OK;
  const size_t in_bytes = (size_t)s->reach * s->elem, out_bytes = s->count * s->result_bytes;
  const void *read[3] = {orx_host_view(ctx, &s->in, s->elem),
                         s->pair ? orx_host_view(ctx, &s->b, s->elem) : NULL,
                         s->offsets.mem ? orx_host_view(ctx, &s->offsets, sizeof(uint64_t))
                                        : (const void *)s->host_offsets};
  const size_t read_bytes[3] = {in_bytes, s->pair ? in_bytes : 0,
                                s->by_offsets ? (s->count + 1) * sizeof(uint64_t) : 0};
  for (int i = 0; i < 3; i++)
    if (read_bytes[i] && (!read[i] || !orx_host_apart(read[i], read_bytes[i], s->out.host_out,
                                                      out_bytes)))
      return OCL_REDUCE_OK;
  orx_io out;
  ORX_FORWARD(orx_device_view_of(ctx, views, &s->out, s->count, s->result_bytes, 1, &out));
  if (out.mem) {
    *viewed = *s;
    viewed->out = out;
    *c = viewed;
  }
  return OCL_REDUCE_OK;
}

/* The device's plan of these segments reads host memory where it lies where views are taken and
 * the plan is LANE's vector runs: each segment's steps are then the same from any element
 * boundary and in any batch (segments_lane.cl), so the bits do not depend on where the caller's
 * memory lies, as a staged copy's do not. Other plans read a segment's head and tail by where it
 * lies. */
int orx_seg_reads_in_place(const ocl_reduce_context *ctx, const orx_request *segments,
                           orx_plan *plan) {
  if (ctx->target.caps->type != OCL_REDUCE_DEVICE_CPU || !orx_plan_views_host(&ctx->target))
    return 0; /* views of host memory: CPU devices */
  orx_plan_make(&ctx->target, segments, plan);
  return plan->seg.vector_runs;
}

/* The staged copy's plan reads in place, and the view's plan is the same program. A view taken
 * but not used ends with the call. */
ocl_reduce_status orx_seg_view_input(ocl_reduce_context *ctx, orx_device_views *views,
                                     orx_seg_call **c, orx_seg_call *viewed) {
  const orx_seg_call *s = *c;
  const orx_request staged_request = orx_seg_request(ctx, s);
  orx_plan staged, plan;
  if (s->in.mem || s->pair || s->by_offsets ||
      !orx_seg_reads_in_place(ctx, &staged_request, &staged))
    return OCL_REDUCE_OK;
  orx_io in;
  ORX_FORWARD(orx_device_view_of(ctx, views, &s->in, (size_t)s->reach, s->elem, 0, &in));
  if (!in.mem)
    return OCL_REDUCE_OK;
  orx_seg_call candidate = *s;
  candidate.in = in;
  const orx_request request = orx_seg_request(ctx, &candidate);
  if (orx_seg_reads_in_place(ctx, &request, &plan) && plan.kernel == staged.kernel &&
      memcmp(plan.defines, staged.defines, sizeof plan.defines) == 0) {
    *viewed = candidate;
    *c = viewed;
  }
  return OCL_REDUCE_OK;
}
