/* =================================================================================================
 * operator_macros.h: a user operator's macros end where its text ends (operator_macros.c). Its
 * text comes after the library's definitions and before its kernels in one program, so a macro
 * it left defined would rewrite the kernels after it (`#define get_group_id(x) 0` once crashed a
 * process), and one that redefined the library's own would change results silently:
 * - a #define or #undef of a name the library's kernel sources define (get_group_id on CUDA,
 *   FLT_MAX, ...) or of one in its namespaces (ORX_, orx_, OCL_REDUCE_) is refused, naming the
 *   macro and its line;
 * - every other macro it defines is undefined right after it (#undef lines appended to its text).
 * ============================================================================================== */
#ifndef ORX_OPERATOR_MACROS_H
#define ORX_OPERATOR_MACROS_H

#include "base/errors.h"

/* Checks the operator source `source` (desc->source of `function`): INVALID_ARGUMENT for a
 * directive on a reserved name; else *trailer (malloc'd, "" when it defines nothing) is the
 * #undef lines to put after it. */
ocl_reduce_status orx_operator_macros(const char *function, const char *source, char **trailer);

#endif /* ORX_OPERATOR_MACROS_H */
