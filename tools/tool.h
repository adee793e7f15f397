/* =================================================================================================
 * tool.h: the subcommands of the ocl-reduce tool (the bench subcommand is bench/'s, bench.h),
 * and the helpers they share with the benchmark (common/tool_common.h).
 * ============================================================================================== */
#ifndef ORX_TOOL_H
#define ORX_TOOL_H

#include "bench.h"
#include "tool_common.h"

int cmd_demo(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_cache(int argc, char **argv);
/* `cache warm` (cmd_cache_warm.c): builds the common calls' programs into the cache. */
int cmd_cache_warm(int argc, char **argv);
/* `info --devices LIST` (info_group.c): the group LIST makes ("default": the default group). */
int info_group(const char *devices, int json);

#endif /* ORX_TOOL_H */
