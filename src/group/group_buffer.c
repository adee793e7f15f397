/* =================================================================================================
 * group_buffer.c: data spread over a group (ocl_reduce.h, "Several devices: groups"): one buffer
 * per device holding a contiguous part, cut by the resident shares in whole granules.
 * ============================================================================================== */
#include <stdint.h>
#include <stdlib.h>

#include "core/errors.h"
#include "group/group_shares.h"

ocl_reduce_status ocl_reduce_group_buffer_create(ocl_reduce_group *group, size_t element_size,
                                                 size_t count, size_t granule,
                                                 ocl_reduce_group_buffer **out) {
  static const char fn[] = "ocl_reduce_group_buffer_create";
  ORX_CHECK_ARG(NULL, out, "%s: out is NULL", fn);
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_CHECK_ARG(NULL, element_size > 0, "%s: element_size is 0", fn);
  ORX_CHECK_ARG(NULL, granule > 0, "%s: granule is 0 (1 cuts anywhere)", fn);
  ORX_CHECK_ARG(NULL, count % granule == 0, "%s: count %zu is not a multiple of granule %zu", fn,
                count, granule);
  ORX_CHECK_ARG(NULL, count <= SIZE_MAX / element_size, "%s: count * element_size overflows", fn);
  ocl_reduce_group_buffer *b = calloc(1, sizeof *b);
  if (!b)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", fn);
  b->group_id = group->id;
  b->group = group;
  b->size = group->size;
  b->element_size = element_size;
  b->count = count;
  uint64_t granules[OCL_REDUCE_GROUP_MAX_DEVICES];
  orx_group_parts(group, OCL_REDUCE_SHARES_RESIDENT, count / granule,
                  (uint64_t)granule * element_size, granules);
  size_t first = 0;
  for (size_t d = 0; d < b->size; d++) {
    b->first[d] = first;
    b->counts[d] = (size_t)granules[d] * granule;
    first += b->counts[d];
    if (b->counts[d] == 0)
      continue;
    const ocl_reduce_status status =
        ocl_reduce_buffer_create(group->contexts[d], b->counts[d] * element_size, &b->parts[d]);
    if (status != OCL_REDUCE_OK) {
      orx_fail(NULL, status, "%s: device %zu (%s), %zu bytes: %s", fn, d,
               orx_group_device_name(group, d), b->counts[d] * element_size,
               ocl_reduce_last_error(group->contexts[d]));
      ocl_reduce_group_buffer_destroy(b);
      return status;
    }
  }
  *out = b;
  return OCL_REDUCE_OK;
}

void ocl_reduce_group_buffer_destroy(ocl_reduce_group_buffer *buffer) {
  if (!buffer)
    return;
  for (size_t d = 0; d < buffer->size; d++)
    ocl_reduce_buffer_destroy(buffer->parts[d]);
  free(buffer);
}

ocl_reduce_status ocl_reduce_group_buffer_part(const ocl_reduce_group_buffer *buffer, size_t index,
                                               ocl_reduce_buffer **part, size_t *first,
                                               size_t *count) {
  static const char fn[] = "ocl_reduce_group_buffer_part";
  ORX_CHECK_ARG(NULL, buffer, "%s: buffer is NULL", fn);
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

/* A whole copy between host memory and the parts, one task per device. */
typedef struct copy_task {
  const ocl_reduce_group_buffer *buffer;
  const void *from; /* writes */
  void *to;         /* reads */
} copy_task;

static ocl_reduce_status copy_part(void *arg, size_t d) {
  const copy_task *t = arg;
  const ocl_reduce_group_buffer *b = t->buffer;
  const size_t at = b->first[d] * b->element_size, bytes = b->counts[d] * b->element_size;
  return t->from ? ocl_reduce_buffer_write(b->parts[d], 0, (const char *)t->from + at, bytes)
                 : ocl_reduce_buffer_read(b->parts[d], 0, (char *)t->to + at, bytes);
}

static ocl_reduce_status copy_all(const char *fn, const ocl_reduce_group_buffer *buffer,
                                  const void *host_from, void *host_to, size_t bytes) {
  ORX_CHECK_ARG(NULL, buffer, "%s: buffer is NULL", fn);
  ORX_CHECK_ARG(NULL, host_from || host_to || buffer->count == 0, "%s: host is NULL", fn);
  ORX_CHECK_ARG(NULL, bytes >= buffer->count * buffer->element_size,
                "%s: host is %zu bytes, and the buffer holds %zu (%zu elements of %zu bytes)", fn,
                bytes, buffer->count * buffer->element_size, buffer->count, buffer->element_size);
  unsigned char run[OCL_REDUCE_GROUP_MAX_DEVICES] = {0};
  for (size_t d = 0; d < buffer->size; d++)
    run[d] = buffer->counts[d] > 0;
  copy_task t = {buffer, host_from, host_to};
  return orx_group_each(buffer->group, fn, run, copy_part, &t);
}

ocl_reduce_status ocl_reduce_group_buffer_write(ocl_reduce_group_buffer *buffer, const void *host,
                                                size_t bytes) {
  return copy_all("ocl_reduce_group_buffer_write", buffer, host, NULL, bytes);
}

ocl_reduce_status ocl_reduce_group_buffer_read(const ocl_reduce_group_buffer *buffer, void *host,
                                               size_t bytes) {
  return copy_all("ocl_reduce_group_buffer_read", buffer, NULL, host, bytes);
}
