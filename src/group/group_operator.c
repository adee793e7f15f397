/* =================================================================================================
 * group_operator.c: a user operator on every device of a group: one ocl_reduce_operator per
 * context, each compiled for its device.
 * ============================================================================================== */
#include <stdlib.h>

#include "core/errors.h"
#include "group/group.h"

ocl_reduce_status ocl_reduce_group_operator_create(ocl_reduce_group *group,
                                                   const ocl_reduce_operator_desc *desc,
                                                   ocl_reduce_group_operator **out) {
  static const char fn[] = "ocl_reduce_group_operator_create";
  ORX_CHECK_ARG(NULL, out, "%s: out is NULL", fn);
  ORX_CHECK_ARG(NULL, group, "%s: group is NULL", fn);
  ORX_CHECK_ARG(NULL, desc, "%s: desc is NULL", fn);
  ocl_reduce_group_operator *op = calloc(1, sizeof *op);
  if (!op)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of memory", fn);
  op->group_id = group->id;
  op->size = group->size;
  for (size_t d = 0; d < group->size; d++) {
    const ocl_reduce_status status =
        ocl_reduce_operator_create(group->contexts[d], desc, &op->ops[d]);
    if (status != OCL_REDUCE_OK) {
      orx_fail(NULL, status, "%s: device %zu (%s): %s", fn, d, orx_group_device_name(group, d),
               ocl_reduce_last_error(group->contexts[d]));
      ocl_reduce_group_operator_destroy(op);
      return status;
    }
  }
  /* The descriptor was checked by the first create: its sizes are the host's. */
  op->element_size = desc->element_size;
  op->state_size = desc->state_size;
  *out = op;
  return OCL_REDUCE_OK;
}

void ocl_reduce_group_operator_destroy(ocl_reduce_group_operator *op) {
  if (!op)
    return;
  for (size_t d = 0; d < op->size; d++)
    ocl_reduce_operator_destroy(op->ops[d]);
  free(op);
}
