/* =================================================================================================
 * describe.h: the plan a call would run, in one line of words (describe.c), for
 * ocl_reduce_describe_plan and ocl_reduce_describe_axes: the planner's plan (plan_describe.c)
 * and what execution adds to it (host memory run by the calling thread, an axes view's form).
 * ============================================================================================== */
#ifndef ORX_DESCRIBE_H
#define ORX_DESCRIBE_H

#include <stddef.h>

#include "exec/io.h"
#include "planner/plan_axes.h"

/* count elements, whole (segment_length 0) or in equal segments, from host memory. */
void orx_describe_request(const ocl_reduce_context *ctx, const orx_op_call *call, size_t count,
                          size_t segment_length, char *text, size_t capacity);

/* A pair operator over count pairs, whole or in equal segments, from host memory: the plan of
 * ocl_reduce_pairs (or ocl_reduce_pairs_segments), and who runs it. */
void orx_describe_pairs(const ocl_reduce_context *ctx, const orx_pair_call *call, size_t count,
                        size_t segment_length, char *text, size_t capacity);

/* An axes reduction of a checked layout, from host memory (from_host) or a buffer: its form, why,
 * and the plans of its launches. */
void orx_describe_axes(const ocl_reduce_context *ctx, const orx_op_call *call,
                       const orx_axes_layout *l, int from_host, char *text, size_t capacity);

#endif /* ORX_DESCRIBE_H */
