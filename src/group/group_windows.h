/* =================================================================================================
 * group_windows.h: sliding windows over a group buffer (group_windows.c).
 * ============================================================================================== */
#ifndef ORX_GROUP_WINDOWS_H
#define ORX_GROUP_WINDOWS_H

#include "group/group.h"

/* ocl_reduce_group_windows from a group buffer (input->buffer), window checked against count:
 * results to host memory or to a group buffer of window results. */
ocl_reduce_status orx_group_windows_resident(ocl_reduce_group *group, const char *function,
                                             ocl_reduce_op op, ocl_reduce_type type,
                                             const ocl_reduce_input *input, size_t count,
                                             size_t window, const ocl_reduce_output *results);

#endif /* ORX_GROUP_WINDOWS_H */
