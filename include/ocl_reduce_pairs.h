/*
 * ocl_reduce_pairs.h: reductions of two inputs at once, included by ocl_reduce.h: a pair operator
 * maps each pair (a[i], b[i]) to a value and sums the values, in one pass over both inputs
 * (docs/API.md, "Pairs: dot products and distances").
 */
#ifndef OCL_REDUCE_PAIRS_H
#define OCL_REDUCE_PAIRS_H

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pair operators, for these calls only, in f32 for f16 and bf16, wrapping for integers.
 * Results: the type's (f32 for f16 and bf16); COUNT_EQUAL's a uint64_t. */
#define OCL_REDUCE_BUILTIN_PAIR_OPS 4 /* OCL_REDUCE_PAIR_OP(i), 0 <= i < this, lists them */
#define OCL_REDUCE_PAIR_OP(i) OCL_REDUCE_BUILTIN_OP(OCL_REDUCE_BUILTIN_OPS + (i))
#define OCL_REDUCE_DOT OCL_REDUCE_PAIR_OP(0)              /* sum of a * b */
#define OCL_REDUCE_SQUARED_DISTANCE OCL_REDUCE_PAIR_OP(1) /* sum of (a - b)^2 */
#define OCL_REDUCE_ABS_DISTANCE OCL_REDUCE_PAIR_OP(2)     /* sum of |a - b| */
#define OCL_REDUCE_COUNT_EQUAL OCL_REDUCE_PAIR_OP(3)      /* how many a == b (NaN equals nothing) */

/* A pair operator over count pairs (a[i], b[i]) of two inputs of one type, each host memory or a
 * buffer with its own offset (they may be the same, or overlap): one result. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_pairs(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                  ocl_reduce_type type, ocl_reduce_input a,
                                                  ocl_reduce_input b, size_t count,
                                                  ocl_reduce_output output);
/* ... in segment_count segments of segment_length pairs each, one result per segment. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_pairs_segments(
    ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input a,
    ocl_reduce_input b, size_t segment_count, size_t segment_length, ocl_reduce_output output);

#ifdef __cplusplus
}
#endif

#endif /* OCL_REDUCE_PAIRS_H */
