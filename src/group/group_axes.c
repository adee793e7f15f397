/* =================================================================================================
 * group_axes.c: ocl_reduce_axes over a group (ocl_reduce_group_axes). A view with several results
 * is split along its outermost kept axis (after the layout drops and merges axes: plan_axes.h):
 * each device reduces its run of that axis's indices, whose results are one contiguous block of
 * the row-major results, by its own ocl_reduce_axes on its own thread. A view with one result is
 * split along its reduced positions with a combine: the group's whole-array reduction, over the
 * view itself where it is one contiguous run, else over its elements gathered on the calling
 * thread in row-major order (the order the fold and ARGMIN's index follow). A group buffer holds
 * a contiguous array cut by elements, so it takes the views that are its whole or rows back to
 * back (the group's segments); other views of it are refused.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/util.h"
#include "exec/run.h"
#include "group/group_call.h"
#include "group/group_shares.h"

typedef struct axes_call {
  const char *function;
  const ocl_reduce_shape *shape; /* the caller's, and its axes */
  uint32_t axes;
  const ocl_reduce_group *group;
  ocl_reduce_op op;
  ocl_reduce_type type;
  size_t elem, result_bytes;
  orx_axes_layout l;
  ocl_reduce_shape sub;     /* the layout's axes, kept then reduced, as each device is given */
  uint32_t sub_axes;        /* the reduced ones' bits in `sub` */
  uint64_t block;           /* results per index of the split (outermost kept) axis */
  const unsigned char *input;
  size_t input_bytes;
  unsigned char *results;
  size_t results_bytes;
  uint64_t first[OCL_REDUCE_GROUP_MAX_DEVICES], count[OCL_REDUCE_GROUP_MAX_DEVICES];
  unsigned char run[OCL_REDUCE_GROUP_MAX_DEVICES];
} axes_call;

/* The layout's axes as a shape (kept ones outermost: the results' order and the reduced ones'
 * row-major order are the view's); a unit reduced axis where every reduced extent was 1. */
static void shape_of_layout(axes_call *c) {
  const orx_axes_layout *l = &c->l;
  const ocl_reduce_shape init = OCL_REDUCE_SHAPE_INIT;
  orx_axes_dims reduced = l->reduced;
  if (reduced.rank == 0)
    reduced = (orx_axes_dims){1, {1}, {0}};
  c->sub = init;
  c->sub.rank = l->kept.rank + reduced.rank;
  memcpy(c->sub.extents, l->kept.extents, l->kept.rank * sizeof *c->sub.extents);
  memcpy(c->sub.strides, l->kept.strides, l->kept.rank * sizeof *c->sub.strides);
  memcpy(c->sub.extents + l->kept.rank, reduced.extents, reduced.rank * sizeof *c->sub.extents);
  memcpy(c->sub.strides + l->kept.rank, reduced.strides, reduced.rank * sizeof *c->sub.strides);
  c->sub_axes = ((1u << reduced.rank) - 1) << l->kept.rank;
  c->block = l->results / l->kept.extents[0];
}

/* The caller's view on device d alone (identities: no element to spread). */
static ocl_reduce_status view_task(void *arg, size_t d) {
  const axes_call *c = arg;
  return ocl_reduce_axes(c->group->contexts[d], c->op, c->type,
                         ocl_reduce_host_input(c->input, c->input_bytes), c->shape, c->axes,
                         ocl_reduce_host_output(c->results, c->results_bytes));
}

/* Device d's indices [first, first + count) of the outermost kept axis. */
static ocl_reduce_status kept_task(void *arg, size_t d) {
  const axes_call *c = arg;
  ocl_reduce_shape s = c->sub;
  s.extents[0] = c->count[d];
  const size_t skip = (size_t)(c->first[d] * c->sub.strides[0]) * c->elem;
  const size_t results = (size_t)(c->count[d] * c->block);
  const ocl_reduce_input in = ocl_reduce_host_input(c->input + skip, c->input_bytes - skip);
  const ocl_reduce_output out = ocl_reduce_host_output(
      c->results + (size_t)(c->first[d] * c->block) * c->result_bytes, results * c->result_bytes);
  return ocl_reduce_axes(c->group->contexts[d], c->op, c->type, in, &s, c->sub_axes, out);
}

static ocl_reduce_status split_kept(axes_call *c) {
  shape_of_layout(c);
  const uint64_t extent = c->l.kept.extents[0];
  /* An index's elements in bytes, for the least part, capped (a repeating view's may pass 64
   * bits, and the cut multiplies it by indices): past a TiB no part is too small. */
  const uint64_t most = (uint64_t)1 << 40, length = c->l.length ? c->l.length : 1;
  const uint64_t elements = c->block < most / length ? c->block * length : most;
  const uint64_t unit = elements < most / c->elem ? elements * c->elem : most;
  orx_group_parts(c->group, OCL_REDUCE_SHARES_HOST, extent, unit, c->count);
  uint64_t first = 0;
  for (size_t d = 0; d < c->group->size; d++) {
    c->first[d] = first;
    first += c->count[d];
    c->run[d] = c->count[d] > 0;
  }
  return orx_group_each(c->group, c->function, c->run, kept_task, c);
}

/* One result: the reduced positions, in place or gathered, as one array over the group. */
static ocl_reduce_status one_result(axes_call *c, ocl_reduce_group *group,
                                    const ocl_reduce_output *output) {
  const size_t length = (size_t)c->l.length;
  if (c->l.form == ORX_AXES_WHOLE)
    return orx_group_reduce_named(c->function, group, c->op, c->type,
                                  ocl_reduce_host_input(c->input, length * c->elem), length,
                                  *output);
  ORX_CHECK_ARG(NULL, length <= SIZE_MAX / c->elem,
                "%s: the gathered view (%zu elements) overflows size_t", c->function, length);
  unsigned char *dense = orx_malloc(length * c->elem);
  if (!dense)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY,
                    "%s: out of host memory for the gathered view (%zu bytes)", c->function,
                    length * c->elem);
  orx_axes_gather_host(&c->l, c->input, c->elem, dense);
  const ocl_reduce_status status =
      orx_group_reduce_named(c->function, group, c->op, c->type,
                             ocl_reduce_host_input(dense, length * c->elem), length, *output);
  free(dense);
  return status;
}

/* A group buffer: the whole array, or rows back to back, else refused. */
static ocl_reduce_status from_group_buffer(axes_call *c, ocl_reduce_group *group,
                                           const ocl_reduce_input *input,
                                           const ocl_reduce_output *output) {
  const orx_axes_layout *l = &c->l;
  if (l->form == ORX_AXES_WHOLE)
    return orx_group_reduce_named(c->function, group, c->op, c->type, *input, (size_t)l->length,
                                  *output);
  if (l->form == ORX_AXES_ROWS && l->kept.strides[0] == l->length)
    return orx_group_segments_named(c->function, group, c->op, c->type, *input,
                                    (size_t)l->results, (size_t)l->length, *output);
  return orx_fail(NULL, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                  "%s: input is a group buffer, a contiguous array cut by elements: it takes the "
                  "views that are the whole array or rows back to back; give this one host memory",
                  c->function);
}

ocl_reduce_status ocl_reduce_group_axes(ocl_reduce_group *group, ocl_reduce_op op,
                                        ocl_reduce_type type, ocl_reduce_input input,
                                        const ocl_reduce_shape *shape, uint32_t axes,
                                        ocl_reduce_output results) {
  axes_call c;
  memset(&c, 0, sizeof c);
  c.function = "ocl_reduce_group_axes";
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", c.function);
  c.group = group;
  c.op = op;
  c.type = type;
  ORX_FORWARD(orx_group_operator(group, c.function, op, type, &c.elem, &c.result_bytes));
  ORX_FORWARD(orx_axes_layout_checked(NULL, c.function, shape, axes, &c.l));
  const orx_axes_layout *l = &c.l;
  ORX_CHECK_ARG(NULL, l->results <= SIZE_MAX && l->reach <= SIZE_MAX && l->length <= SIZE_MAX,
                "%s: shape: more elements than size_t counts", c.function);
  ORX_FORWARD(orx_check_index_base(NULL, c.function, op, (size_t)l->length, 0));
  if (input.buffer && orx_group_buffer_of(input.buffer)) {
    ORX_FORWARD(orx_group_check_input(c.function, &input));
    return from_group_buffer(&c, group, &input, &results);
  }
  ORX_FORWARD(orx_group_check_memory(c.function, &input, &results));
  ORX_CHECK_ARG(NULL, input.host || l->reach == 0, "%s: input is NULL", c.function);
  ORX_CHECK_ARG(NULL, l->reach <= input.bytes / c.elem,
                "%s: input is %zu bytes of host memory, and the view reaches %llu elements of %zu "
                "bytes",
                c.function, input.bytes, (unsigned long long)l->reach, c.elem);
  ORX_CHECK_ARG(NULL, results.host || l->results == 0, "%s: results is NULL", c.function);
  ORX_CHECK_ARG(NULL, l->results <= results.bytes / c.result_bytes,
                "%s: results is %zu bytes, and %llu results of %zu bytes need more", c.function,
                results.bytes, (unsigned long long)l->results, c.result_bytes);
  c.input = input.host;
  c.input_bytes = input.bytes;
  c.results = results.host;
  c.results_bytes = results.bytes;
  c.shape = shape;
  c.axes = axes;
  if (l->results == 0)
    return OCL_REDUCE_OK;
  if (l->form == ORX_AXES_EMPTY) {
    c.run[0] = 1;
    return orx_group_each(group, c.function, c.run, view_task, &c);
  }
  return l->kept.rank == 0 ? one_result(&c, group, &results) : split_kept(&c);
}
