/* =================================================================================================
 * group_buffer.c: data spread over a group (ocl_reduce_group.h): one buffer per device holding a
 * contiguous part, cut by the resident shares in whole granules, behind one ocl_reduce_buffer
 * (exec/spread_buffer.h) that the buffer calls write and read like any.
 * ============================================================================================== */
#include <stdint.h>
#include <stdlib.h>

#include "base/errors.h"
#include "exec/spread_buffer.h"
#include "group/group_shares.h"

static void spread_destroy(void *spread) {
  orx_group_buffer *b = spread;
  for (size_t d = 0; d < b->size; d++)
    ocl_reduce_buffer_destroy(b->parts[d]);
  orx_group_release(b->group);
  free(b);
}

/* A copy between host memory and bytes [offset, offset + bytes) of the whole, one task per device
 * whose part the range meets. */
typedef struct copy_task {
  const orx_group_buffer *buffer;
  size_t offset, bytes;
  const void *from; /* writes */
  void *to;         /* reads */
} copy_task;

static ocl_reduce_status copy_part(void *arg, size_t d) {
  const copy_task *t = arg;
  const orx_group_buffer *b = t->buffer;
  const size_t begin = b->first[d] * b->element_size, end = begin + b->counts[d] * b->element_size;
  const size_t from = t->offset > begin ? t->offset : begin;
  const size_t to = t->offset + t->bytes < end ? t->offset + t->bytes : end;
  return t->from ? ocl_reduce_buffer_write(b->parts[d], from - begin,
                                           (const char *)t->from + (from - t->offset), to - from)
                 : ocl_reduce_buffer_read(b->parts[d], from - begin,
                                          (char *)t->to + (from - t->offset), to - from);
}

static ocl_reduce_status copy_range(const orx_group_buffer *b, size_t offset, size_t bytes,
                                    const void *from, void *to) {
  unsigned char run[OCL_REDUCE_GROUP_MAX_DEVICES] = {0};
  for (size_t d = 0; d < b->size; d++) {
    const size_t begin = b->first[d] * b->element_size;
    run[d] = b->counts[d] > 0 && offset < begin + b->counts[d] * b->element_size &&
             begin < offset + bytes;
  }
  copy_task t = {b, offset, bytes, from, to};
  return orx_group_each(b->group, from ? "ocl_reduce_buffer_write" : "ocl_reduce_buffer_read", run,
                        copy_part, &t);
}

static ocl_reduce_status spread_write(void *spread, size_t offset, const void *src, size_t bytes) {
  return copy_range(spread, offset, bytes, src, NULL);
}

static ocl_reduce_status spread_read(const void *spread, size_t offset, void *dst, size_t bytes) {
  return copy_range(spread, offset, bytes, NULL, dst);
}

static const orx_spread_ops group_buffer_ops = {spread_destroy, spread_write, spread_read};

const orx_group_buffer *orx_group_buffer_of(const ocl_reduce_buffer *buffer) {
  const void *spread = orx_spread_of(buffer);
  /* Groups are the only makers of spread buffers. */
  return spread;
}

/* A group buffer with parts of counts[d] elements, in device order. */
static ocl_reduce_status make_buffer(ocl_reduce_group *group, const char *fn, size_t element_size,
                                     const uint64_t *counts, ocl_reduce_buffer **out) {
  orx_group_buffer *b = orx_calloc(1, sizeof *b);
  if (!b)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", fn);
  b->group_id = group->id;
  b->group = group;
  orx_group_hold(group);
  b->size = group->size;
  b->element_size = element_size;
  size_t first = 0;
  for (size_t d = 0; d < b->size; d++) {
    b->first[d] = first;
    b->counts[d] = (size_t)counts[d];
    first += b->counts[d];
    if (b->counts[d] == 0)
      continue;
    const ocl_reduce_status status =
        ocl_reduce_buffer_create(group->contexts[d], b->counts[d] * element_size, &b->parts[d]);
    if (status != OCL_REDUCE_OK) {
      orx_fail(NULL, status, "%s: device %zu (%s), %zu bytes: %s", fn, d,
               orx_group_device_name(group, d), b->counts[d] * element_size,
               ocl_reduce_last_error(group->contexts[d]));
      spread_destroy(b);
      return status;
    }
  }
  b->count = first;
  *out = orx_spread_buffer_new(first * element_size, &group_buffer_ops, b);
  if (!*out) {
    spread_destroy(b);
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", fn);
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_group_buffer_create(ocl_reduce_group *group, size_t element_size,
                                                 size_t count, size_t granule,
                                                 ocl_reduce_buffer **out) {
  static const char fn[] = "ocl_reduce_group_buffer_create";
  ORX_CHECK_ARG(NULL, out, "%s: out is NULL", fn);
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_CHECK_ARG(NULL, element_size > 0, "%s: element_size is 0", fn);
  ORX_CHECK_ARG(NULL, granule > 0, "%s: granule is 0 (1 cuts anywhere)", fn);
  ORX_CHECK_ARG(NULL, count % granule == 0, "%s: count %zu is not a multiple of granule %zu", fn,
                count, granule);
  ORX_CHECK_ARG(NULL, count <= SIZE_MAX / element_size, "%s: count * element_size overflows", fn);
  uint64_t counts[OCL_REDUCE_GROUP_MAX_DEVICES];
  orx_group_parts(group, OCL_REDUCE_SHARES_RESIDENT, count / granule,
                  (uint64_t)granule * element_size, counts);
  for (size_t d = 0; d < group->size; d++)
    counts[d] *= granule;
  return make_buffer(group, fn, element_size, counts, out);
}

ocl_reduce_status ocl_reduce_group_buffer_create_results(const ocl_reduce_buffer *input,
                                                         size_t segment_length, size_t result_size,
                                                         ocl_reduce_buffer **out) {
  static const char fn[] = "ocl_reduce_group_buffer_create_results";
  ORX_CHECK_ARG(NULL, out, "%s: out is NULL", fn);
  *out = NULL;
  const orx_group_buffer *in = orx_group_buffer_of(input);
  ORX_CHECK_ARG(NULL, in, "%s: input is %s", fn,
                input ? "a buffer of one context, not a group's" : "NULL");
  ORX_CHECK_ARG(NULL, segment_length > 0, "%s: segment_length is 0", fn);
  ORX_CHECK_ARG(NULL, result_size > 0, "%s: result_size is 0", fn);
  uint64_t counts[OCL_REDUCE_GROUP_MAX_DEVICES];
  for (size_t d = 0; d < in->size; d++) {
    ORX_CHECK_ARG(NULL, in->counts[d] % segment_length == 0,
                  "%s: input: device %zu's part (%zu elements) is not whole segments of %zu: "
                  "create it with granule = segment_length",
                  fn, d, in->counts[d], segment_length);
    counts[d] = in->counts[d] / segment_length;
  }
  ORX_CHECK_ARG(NULL, in->count / segment_length <= SIZE_MAX / result_size,
                "%s: the results' size overflows", fn);
  return make_buffer(in->group, fn, result_size, counts, out);
}

void orx_group_window_result_counts(const orx_group_buffer *in, size_t window, uint64_t *counts) {
  const uint64_t n_out = in->count - window + 1;
  for (size_t d = 0; d < in->size; d++) {
    const uint64_t first = in->first[d], end = first + in->counts[d];
    counts[d] = first < n_out ? (end < n_out ? end : n_out) - first : 0;
  }
}

ocl_reduce_status ocl_reduce_group_buffer_create_window_results(const ocl_reduce_buffer *input,
                                                                size_t window, size_t result_size,
                                                                ocl_reduce_buffer **out) {
  static const char fn[] = "ocl_reduce_group_buffer_create_window_results";
  ORX_CHECK_ARG(NULL, out, "%s: out is NULL", fn);
  *out = NULL;
  const orx_group_buffer *in = orx_group_buffer_of(input);
  ORX_CHECK_ARG(NULL, in, "%s: input is %s", fn,
                input ? "a buffer of one context, not a group's" : "NULL");
  ORX_CHECK_ARG(NULL, result_size > 0, "%s: result_size is 0", fn);
  if (window == 0 || window > in->count)
    return orx_fail(NULL, OCL_REDUCE_ERROR_BAD_WINDOW,
                    "%s: window = %zu, and the input holds %zu elements: a window is 1 to that "
                    "many elements long",
                    fn, window, in->count);
  ORX_CHECK_ARG(NULL, in->count - window + 1 <= SIZE_MAX / result_size,
                "%s: the results' size overflows", fn);
  uint64_t counts[OCL_REDUCE_GROUP_MAX_DEVICES];
  orx_group_window_result_counts(in, window, counts);
  return make_buffer(in->group, fn, result_size, counts, out);
}

ocl_reduce_status ocl_reduce_group_buffer_part(const ocl_reduce_buffer *group_buffer, size_t index,
                                               ocl_reduce_buffer **part, size_t *first,
                                               size_t *count) {
  static const char fn[] = "ocl_reduce_group_buffer_part";
  const orx_group_buffer *buffer = orx_group_buffer_of(group_buffer);
  ORX_CHECK_ARG(NULL, buffer, "%s: buffer is %s", fn,
                group_buffer ? "a buffer of one context, not a group's" : "NULL");
  ORX_CHECK_ARG(NULL, index < buffer->size, "%s: index %zu (the group has %zu devices)", fn, index,
                buffer->size);
  if (part)
    *part = buffer->parts[index];
  if (first)
    *first = buffer->first[index];
  if (count)
    *count = buffer->counts[index];
  return OCL_REDUCE_OK;
}
