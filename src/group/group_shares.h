/* =================================================================================================
 * group_shares.h: how much of an array each device of a group takes (group_shares.c): equal
 * shares for devices of one model, measured ones for mixed groups, or the application's.
 * ============================================================================================== */
#ifndef ORX_GROUP_SHARES_H
#define ORX_GROUP_SHARES_H

#include "group/group.h"

/* Sets a new group's shares: equal where all its devices are one model, else measured. */
ocl_reduce_status orx_group_initial_shares(ocl_reduce_group *group);

/* Cuts `units` (of unit_bytes each) into the group's parts by `which` shares. */
void orx_group_parts(const ocl_reduce_group *group, ocl_reduce_shares which, uint64_t units,
                     uint64_t unit_bytes, uint64_t *parts);

#endif /* ORX_GROUP_SHARES_H */
