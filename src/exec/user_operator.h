/* =================================================================================================
 * user_operator.h: a user operator (user_operator.c). It is made from a descriptor alone, with no
 * context: the contract's ORX_HOST_NAMES defined to the descriptor's names, the source after
 * them, and the hash that keys its programs. On each context, its first use builds a probe kernel
 * (cl/kernels/operator_probe.cl) that reports the sizes the device compiler gives the two types,
 * which must be the application's; the context remembers the operators that passed.
 * ============================================================================================== */
#ifndef ORX_USER_OPERATOR_H
#define ORX_USER_OPERATOR_H

#include <stdint.h>

#include "base/errors.h"
#include "planner/planner.h"

/* Longest name a descriptor may give. */
#define ORX_NAME_MAX 63
struct ocl_reduce_operator {
  orx_handle handle; /* live or not (base/handles.h) */
  orx_operator op; /* source and names point into text */
  char *text;
  char name[ORX_NAME_MAX + 1];         /* desc->name, else the combine's */
  char element_type[ORX_NAME_MAX + 1]; /* for messages */
  char state_type[ORX_NAME_MAX + 1];
  char roles[3 * (ORX_NAME_MAX + 16)]; /* "identity f, map g, combine h", for messages */
  int pairs;                           /* a pair operator (pair_map): ocl_reduce_pairs* only */
};

/* Fills *op from a checked descriptor; op's source and names point into *text (malloc'd: the
 * caller frees it when op is no longer used). */
ocl_reduce_status orx_operator_of_desc(const ocl_reduce_operator_desc *d, orx_operator *op,
                                       char **text);

/* Whether op is a live user operator (not a built-in value, nor one destroyed). */
int orx_is_user_operator(ocl_reduce_op op);

/* Makes op ready on ctx: on its first use there, builds its probe and compares the device's sizes
 * with the descriptor's (BUILD, OPERATOR_SIZE, naming `function` and the operator). */
ocl_reduce_status orx_user_operator_ready(ocl_reduce_context *ctx, const char *function,
                                          const ocl_reduce_operator *op);

/* Forgets the operators ctx has probed (the context's release). */
void orx_user_operators_forget(ocl_reduce_context *ctx);

#endif /* ORX_USER_OPERATOR_H */
