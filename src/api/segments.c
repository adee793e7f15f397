/* =================================================================================================
 * segments.c: the segmented entry points, ocl_reduce_segments (equal lengths) and
 * ocl_reduce_segments_offsets (CSR offsets), for every operator: every argument checked before
 * anything runs (offsets in host memory here; offsets in a buffer on the device, by
 * run_segments.c), then the run.
 * ============================================================================================== */
#include <string.h>

#include "exec/context.h"
#include "exec/entry.h"
#include "exec/run.h"

/* Offsets in host memory: checked here, before anything runs. */
static ocl_reduce_status check_host_offsets(ocl_reduce_context *ctx, const orx_seg_call *c) {
  const uint64_t *o = c->host_offsets;
  for (size_t i = 0; i < c->count; i++)
    if (o[i] > o[i + 1])
      return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_OFFSETS,
                      "%s: offsets[%zu] = %llu is less than offsets[%zu] = %llu", c->function,
                      i + 1, (unsigned long long)o[i + 1], i, (unsigned long long)o[i]);
  /* No input at all is fine while the segments are empty (checked by the caller). */
  if ((c->in.host || c->in.mem) && o[c->count] > c->in.capacity)
    return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_OFFSETS,
                    "%s: offsets[%zu] = %llu reaches beyond the input's %zu elements (%s)",
                    c->function, c->count, (unsigned long long)o[c->count], c->in.capacity,
                    c->in.mem ? "in its buffer" : "in the bytes of host memory given");
  return OCL_REDUCE_OK;
}

/* Equal lengths, once the operator is set. */
static ocl_reduce_status equal_segments(ocl_reduce_context *ctx, orx_seg_call *c,
                                        const ocl_reduce_input *input, size_t segment_count,
                                        size_t segment_length, const ocl_reduce_output *results) {
  const char *function = c->function;
  c->count = segment_count;
  ORX_FORWARD(orx_resolve_output(ctx, function, "results", results, c->result_bytes, segment_count,
                                 &c->out));
  c->length = segment_length;
  ORX_CHECK_ARG(ctx, segment_length == 0 || segment_count <= SIZE_MAX / segment_length,
                "%s: segment_count (%zu) x segment_length (%zu) overflows size_t", function,
                segment_count, segment_length);
  const size_t elements = segment_count * segment_length;
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", input, c->elem, elements, &c->in));
  c->elements = c->reach = elements;
  return segment_count ? orx_run_segments(ctx, c) : OCL_REDUCE_OK;
}

/* Offsets, once the operator is set. */
static ocl_reduce_status offset_segments(ocl_reduce_context *ctx, orx_seg_call *c,
                                         const ocl_reduce_input *input, size_t segment_count,
                                         const ocl_reduce_input *offsets,
                                         const ocl_reduce_output *results) {
  const char *function = c->function;
  c->count = segment_count;
  ORX_FORWARD(orx_resolve_output(ctx, function, "results", results, c->result_bytes, segment_count,
                                 &c->out));
  c->by_offsets = 1;
  ORX_CHECK_ARG(ctx, segment_count < SIZE_MAX, "%s: segment_count is SIZE_MAX", function);
  orx_io offsets_io;
  ORX_FORWARD(orx_resolve_input(ctx, function, "offsets", offsets, sizeof(uint64_t),
                                segment_count + 1, &offsets_io));
  /* How far the input must reach is known once the offsets are. */
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", input, c->elem, 0, &c->in));
  if (offsets_io.mem) {
    ORX_CHECK_ARG(ctx, c->in.mem,
                  "%s: offsets in a device buffer need the input in a device buffer too", function);
    c->offsets = offsets_io;
  } else {
    c->host_offsets = offsets_io.host;
    ORX_FORWARD(check_host_offsets(ctx, c));
    c->elements = c->host_offsets[segment_count] - c->host_offsets[0];
    c->reach = c->host_offsets[segment_count];
    ORX_CHECK_ARG(ctx, c->in.host || c->in.mem || c->elements == 0,
                  "%s: input is NULL and the segments span %llu elements", function,
                  (unsigned long long)c->elements);
  }
  return segment_count ? orx_run_segments(ctx, c) : OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_segments(ocl_reduce_context *ctx, ocl_reduce_op op,
                                      ocl_reduce_type type, ocl_reduce_input input,
                                      size_t segment_count, size_t segment_length,
                                      ocl_reduce_output results) {
  static const char function[] = "ocl_reduce_segments";
  ORX_ENTER(ctx, function);
  orx_seg_call c;
  ORX_FORWARD(orx_seg_call_init(ctx, &c, function, op, type));
  return equal_segments(ctx, &c, &input, segment_count, segment_length, &results);
}

ocl_reduce_status ocl_reduce_segments_offsets(ocl_reduce_context *ctx, ocl_reduce_op op,
                                              ocl_reduce_type type, ocl_reduce_input input,
                                              size_t segment_count, ocl_reduce_input offsets,
                                              ocl_reduce_output results) {
  static const char function[] = "ocl_reduce_segments_offsets";
  ORX_ENTER(ctx, function);
  orx_seg_call c;
  ORX_FORWARD(orx_seg_call_init(ctx, &c, function, op, type));
  return offset_segments(ctx, &c, &input, segment_count, &offsets, &results);
}
