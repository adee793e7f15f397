/* =================================================================================================
 * structured.h: host references for the structured operators (ARGMIN, ARGMAX, MINMAX, SUM_WIDE,
 * SUM_COMPENSATED, MEAN_VAR, SUM_REPRODUCIBLE), computed independently of the library: sequential
 * first-index folds, exact integers, long double sums, a two-pass long double mean and M2 and the
 * reproducible sum's definition (repro_reference.h), each with the comparison the operator's
 * documentation promises (structured.c).
 * ============================================================================================== */
#ifndef ORX_TEST_STRUCTURED_H
#define ORX_TEST_STRUCTURED_H

#include <stddef.h>

#include "ocl_reduce.h"

/* Every structured operator on every type it is defined on, X(OP, TYPE) for OCL_REDUCE_<OP> and
 * OCL_REDUCE_<TYPE>. */
#define TEST_EVERY_TYPE(X, OP) X(OP, I32) X(OP, U32) X(OP, I64) X(OP, U64) X(OP, F32) X(OP, F64)
#define TEST_HALVES(X, OP) X(OP, F16) X(OP, BF16)
#define TEST_STRUCTURED_OP_TYPES(X)                                                                \
  TEST_EVERY_TYPE(X, ARGMIN)                                                                       \
  TEST_EVERY_TYPE(X, ARGMAX)                                                                       \
  TEST_EVERY_TYPE(X, MINMAX)                                                                       \
  X(SUM_WIDE, I32) X(SUM_WIDE, U32) X(SUM_WIDE, F32) X(SUM_COMPENSATED, F32)                       \
  X(SUM_COMPENSATED, F64) TEST_EVERY_TYPE(X, MEAN_VAR) X(SUM_REPRODUCIBLE, F32)                  \
  X(SUM_REPRODUCIBLE, F64) TEST_HALVES(X, ARGMIN) TEST_HALVES(X, ARGMAX) TEST_HALVES(X, MINMAX)   \
  TEST_HALVES(X, SUM_WIDE) TEST_HALVES(X, SUM_COMPENSATED) TEST_HALVES(X, MEAN_VAR)                \
  TEST_HALVES(X, SUM_REPRODUCIBLE)

/* Compares one result (ocl_reduce_result_size(op, type) bytes at got) of op over the n elements
 * of `data` with the reference; on a mismatch writes why and returns 0. */
int test_structured_matches(const void *got, const void *data, size_t n, ocl_reduce_op op,
                            ocl_reduce_type type, char *why, size_t why_size);

/* The same for any built-in operator: the scalar ones against test_reduce_host of random data
 * (MODE_RANDOM's rules), the structured ones as above. */
int test_result_matches(const void *got, const void *data, size_t n, ocl_reduce_op op,
                        ocl_reduce_type type, char *why, size_t why_size);

#endif /* ORX_TEST_STRUCTURED_H */
