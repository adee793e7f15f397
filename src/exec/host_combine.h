/* =================================================================================================
 * host_combine.h: states of a built-in operator combined on the calling thread, by the host build
 * of reduce_all.cl (host_kernels.h): a group's parts (group_whole.c) and ocl_reduce_final_host
 * (api/states.c), where a device's final stage costs an upload, a launch and a read.
 * ============================================================================================== */
#ifndef ORX_HOST_COMBINE_H
#define ORX_HOST_COMBINE_H

#include "host/host_kernels.h"
#include "exec/io.h"

/* Whether a resolved operator's state is its value, one element of the type. */
int orx_call_is_scalar(const orx_op_call *call);
/* The host kernel that combines call's states into its result, or (to_state) into one state:
 * over values for scalar operators, over states (the FINAL or MERGE stage) for the others. NULL
 * for user operators and pairs without a host build. */
const orx_host_kernel *orx_host_combiner(const orx_op_call *call, int to_state);
/* The `count` states at `states` (any alignment: misaligned ones are copied first), in order,
 * through k (orx_host_combiner's for call and to_state), into out: a result, or a state. Fails
 * only for host memory. */
ocl_reduce_status orx_host_combine(const orx_host_kernel *k, const orx_op_call *call, int to_state,
                                   const void *states, size_t count, void *out);

#endif /* ORX_HOST_COMBINE_H */
