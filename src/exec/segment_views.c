/* =================================================================================================
 * segment_views.c: on CPU devices, a segmented call's results into host memory are written where
 * they lie (device_views.h), not through a scratch buffer read back after each batch. PoCL 5 on
 * 16 cores, f32 2^24 in segments of 32 from a buffer: the kernel took 300 us and the call 600,
 * most of it reading the 2 MiB of results back on one thread.
 * ============================================================================================== */
#include "exec/device_views.h"
#include "exec/run.h"

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
