/* =================================================================================================
 * segments.c: the segmented entry points, ocl_reduce_segments (equal lengths) and
 * ocl_reduce_segments_offsets (CSR offsets): every argument checked before anything runs (offsets
 * in host memory here; offsets in a buffer on the device, by run_segments.c), then the run.
 * ============================================================================================== */
#include <string.h>

#include "core/context.h"
#include "core/run.h"

/* Offsets in host memory: checked here, before anything runs. */
static ocl_reduce_status check_host_offsets(ocl_reduce_context *ctx, const orx_seg_call *c) {
  const uint64_t *o = c->host_offsets;
  for (size_t i = 0; i < c->count; i++)
    if (o[i] > o[i + 1])
      return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_OFFSETS,
                      "%s: offsets[%zu] = %llu is less than offsets[%zu] = %llu", c->function,
                      i + 1, (unsigned long long)o[i + 1], i, (unsigned long long)o[i]);
  if (o[c->count] > c->in.capacity)
    return orx_fail(ctx, OCL_REDUCE_ERROR_BAD_OFFSETS,
                    "%s: offsets[%zu] = %llu reaches beyond the input buffer's %zu elements",
                    c->function, c->count, (unsigned long long)o[c->count], c->in.capacity);
  return OCL_REDUCE_OK;
}

/* The checks both entry points share: sets up *c from the common arguments and fills c->out. */
static ocl_reduce_status check_common(ocl_reduce_context *ctx, orx_seg_call *c,
                                      const char *function, ocl_reduce_op op,
                                      ocl_reduce_type type, size_t count,
                                      const ocl_reduce_output *results) {
  memset(c, 0, sizeof *c);
  c->function = function;
  c->type = type;
  c->count = count;
  ORX_FORWARD(orx_check_op_type(ctx, c->function, op, c->type));
  c->op = orx_builtin_operator(op, type);
  c->elem = orx_type_size(c->type);
  c->result_bytes = ocl_reduce_result_size(op, type);
  return orx_resolve_output(ctx, c->function, "results", results, c->result_bytes, c->count,
                            &c->out);
}

ocl_reduce_status ocl_reduce_segments(ocl_reduce_context *ctx, ocl_reduce_op op,
                                      ocl_reduce_type type, ocl_reduce_input input,
                                      size_t segment_count, size_t segment_length,
                                      ocl_reduce_output results) {
  static const char function[] = "ocl_reduce_segments";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  orx_seg_call c;
  ORX_FORWARD(check_common(ctx, &c, function, op, type, segment_count, &results));
  c.length = segment_length;
  ORX_CHECK_ARG(ctx, segment_length == 0 || segment_count <= SIZE_MAX / segment_length,
                "%s: segment_count (%zu) x segment_length (%zu) overflows size_t", function,
                segment_count, segment_length);
  const size_t elements = segment_count * segment_length;
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, c.elem, elements, &c.in));
  c.elements = c.reach = elements;
  return segment_count ? orx_run_segments(ctx, &c) : OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_segments_offsets(ocl_reduce_context *ctx, ocl_reduce_op op,
                                              ocl_reduce_type type, ocl_reduce_input input,
                                              size_t segment_count, ocl_reduce_input offsets,
                                              ocl_reduce_output results) {
  static const char function[] = "ocl_reduce_segments_offsets";
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  orx_seg_call c;
  ORX_FORWARD(check_common(ctx, &c, function, op, type, segment_count, &results));
  c.by_offsets = 1;
  ORX_CHECK_ARG(ctx, segment_count < SIZE_MAX, "%s: segment_count is SIZE_MAX", function);
  orx_io offsets_io;
  ORX_FORWARD(orx_resolve_input(ctx, function, "offsets", &offsets, sizeof(uint64_t),
                                segment_count + 1, &offsets_io));
  /* How far the input must reach is known once the offsets are. */
  ORX_FORWARD(orx_resolve_input(ctx, function, "input", &input, c.elem, 0, &c.in));
  if (offsets_io.mem) {
    ORX_CHECK_ARG(ctx, c.in.mem,
                  "%s: offsets in a device buffer need the input in a device buffer too",
                  function);
    c.offsets = offsets_io;
  } else {
    c.host_offsets = offsets_io.host;
    ORX_FORWARD(check_host_offsets(ctx, &c));
    c.elements = c.host_offsets[segment_count] - c.host_offsets[0];
    c.reach = c.host_offsets[segment_count];
    ORX_CHECK_ARG(ctx, c.in.host || c.in.mem || c.elements == 0,
                  "%s: input is NULL and the segments span %llu elements", function,
                  (unsigned long long)c.elements);
  }
  return segment_count ? orx_run_segments(ctx, &c) : OCL_REDUCE_OK;
}
