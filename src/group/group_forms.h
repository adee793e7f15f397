/* =================================================================================================
 * group_forms.h: the forms of group_forms.c that other forms of a group build on.
 * ============================================================================================== */
#ifndef ORX_GROUP_FORMS_H
#define ORX_GROUP_FORMS_H

#include "group/group.h"

/* ocl_reduce_group_segments_offsets as `function` (its messages name it): host input, host
 * offsets and host results, each device a contiguous run of whole segments. */
ocl_reduce_status orx_group_segments_offsets(ocl_reduce_group *group, const char *function,
                                             ocl_reduce_op op, ocl_reduce_type type,
                                             const ocl_reduce_input *in, size_t segment_count,
                                             const ocl_reduce_input *offsets,
                                             const ocl_reduce_output *results);

#endif /* ORX_GROUP_FORMS_H */
