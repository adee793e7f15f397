/* =================================================================================================
 * group_workers.h: the threads a group's devices run their tasks on (group_workers.c).
 * ============================================================================================== */
#ifndef ORX_GROUP_WORKERS_H
#define ORX_GROUP_WORKERS_H

#include "group/group.h"

/* Starts a new group's threads: one per physical device but the first's. A thread that cannot
 * start leaves its device's tasks to the calling thread. Fails only for host memory. */
ocl_reduce_status orx_group_workers_start(ocl_reduce_group *group);
/* Stops and joins them (a group without any is fine). */
void orx_group_workers_stop(ocl_reduce_group *group);

#endif /* ORX_GROUP_WORKERS_H */
