/* =================================================================================================
 * pair_parts.h: a pair operator over a group's parts (group/group_pairs.c), which no public call
 * takes: the calls in parts take no pair operator (docs/API.md, "Pairs"). Each is an entry point
 * of the context it names (its checks and its lock), messages naming `function`.
 * ============================================================================================== */
#ifndef ORX_PAIR_PARTS_H
#define ORX_PAIR_PARTS_H

#include "ocl_reduce.h"

/* ocl_reduce_pairs to one state of op's (a built-in's: its sum's; a user operator's: its own)
 * over pairs whose first has index `first`. */
ocl_reduce_status orx_pairs_state(ocl_reduce_context *ctx, const char *function,
                                  ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input a,
                                  ocl_reduce_input b, size_t count, uint64_t first,
                                  ocl_reduce_output state);
/* `count` such states, in order, to op's result. */
ocl_reduce_status orx_pairs_final(ocl_reduce_context *ctx, const char *function,
                                  ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input states,
                                  size_t count, ocl_reduce_output result);

#endif /* ORX_PAIR_PARTS_H */
