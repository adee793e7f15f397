/* =================================================================================================
 * user_operator.h: a user operator's descriptor as the planner carries it (user_operator.c): the
 * contract's ORX_HOST_NAMES defined to the descriptor's names, the source after them, and the
 * hash that keys its programs. The checks of the descriptor and the probe of its sizes are the
 * entry point's (src/api/operator.c).
 * ============================================================================================== */
#ifndef ORX_USER_OPERATOR_H
#define ORX_USER_OPERATOR_H

#include "core/errors.h"
#include "core/planner.h"

/* Longest name a descriptor may give. */
#define ORX_NAME_MAX 63

/* Fills *op from a checked descriptor; op's source and names point into *text (malloc'd: the
 * caller frees it when op is no longer used). */
ocl_reduce_status orx_operator_of_desc(ocl_reduce_context *ctx, const ocl_reduce_operator_desc *d,
                                       orx_operator *op, char **text);

#endif /* ORX_USER_OPERATOR_H */
