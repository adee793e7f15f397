/* =================================================================================================
 * tool.h: what the subcommands of the ocl-reduce tool share.
 * ============================================================================================== */
#ifndef ORX_TOOL_H
#define ORX_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

int cmd_demo(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_reduce(int argc, char **argv);

/* Prints "ocl-reduce: <what>: <status name>: <detail>" to stderr and returns 1. */
int tool_fail(const char *what, ocl_reduce_status status, const ocl_reduce_context *ctx);

/* Seconds on a monotonic clock. */
double tool_now(void);

/* Median of n values (sorts them). */
double tool_median(double *values, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* ORX_TOOL_H */
