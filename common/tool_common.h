/* =================================================================================================
 * tool_common.h: the helpers the programs built on the library share: the ocl-reduce tool
 * (tools/) and the benchmark (bench/), which use this folder and nothing of each other's but the
 * bench subcommand's entry point (bench/bench.h).
 * ============================================================================================== */
#ifndef ORX_TOOL_COMMON_H
#define ORX_TOOL_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Argument parsing (tool_args.c). Each subcommand parses with getopt_long and prints its usage
 * to stdout on --help (exit 0); errors name the argument on stderr and exit 2. */
/* Prints "ocl-reduce <command>: <message>" and where the options are listed; returns 2. */
int tool_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The message for getopt_long's '?' (unknown option) or ':' (missing value); returns 2. */
int tool_option_error(const char *command, char **argv, int code);
/* A whole decimal number, or hexadecimal after 0x (never octal: 010 is ten): 1 when it is at
 * most max, -1 when larger, 0 for anything else ("1e3", "12abc", "-1", ""). */
int tool_parse_count(const char *text, unsigned long long max, unsigned long long *out);
/* The same with an optional '-', within [min, max]. */
int tool_parse_int(const char *text, int min, int max, int *out);
/* --shape E0xE1x...: a dense row-major shape of 1 .. OCL_REDUCE_MAX_RANK extents; --axes
 * A,B,...: the axes' bits (each below rank, none twice; text NULL: every axis). Each prints a
 * usage error naming `command` and returns 2, or returns -1. */
int tool_parse_shape(const char *command, const char *text, ocl_reduce_shape *shape);
int tool_parse_axes(const char *command, const char *text, unsigned rank, uint32_t *axes);
/* -d / --device: OCL_REDUCE_DEVICE's syntax, for every context this process creates. */
void tool_select_device(const char *selector);
/* `text` as a JSON string, quoted and escaped; as XML character data (SVG), escaped. */
void tool_json_string(FILE *out, const char *text);
void tool_xml_text(FILE *out, const char *text);

/* Prints "ocl-reduce: <what>: <status name>: <detail>" to stderr and returns 1. */
int tool_fail(const char *what, ocl_reduce_status status, const ocl_reduce_context *ctx);

/* Stores the small integer v as element i of an array of a scalar type (exact in every type). */
void tool_store_integer(ocl_reduce_type type, void *data, size_t i, long long v);

/* Seconds on a monotonic clock. */
double tool_now(void);

/* Median of n values (sorts them). */
double tool_median(double *values, size_t n);

/* A context on the OpenCL backend, on the device OCL_REDUCE_DEVICE names, and its description
 * (native_context and native_device: the cl_context and cl_device_id an application of its own
 * would use). On failure *ctx is NULL and the status says why. */
ocl_reduce_status tool_opencl_context(ocl_reduce_context **ctx, ocl_reduce_context_info *info);

#ifdef __cplusplus
}
#endif

#endif /* ORX_TOOL_COMMON_H */
