/* =================================================================================================
 * pair_reference.h: host references for the pair operators (ocl_reduce_pairs): data, the result
 * each operator must give (pair_reference.c), and the values a reproducible sum adds.
 * ============================================================================================== */
#ifndef ORX_TEST_PAIR_REFERENCE_H
#define ORX_TEST_PAIR_REFERENCE_H

#include <stddef.h>

#include "ocl_reduce.h"

/* Pair operators by their index i in OCL_REDUCE_PAIR_OP(i): 0 DOT, 1 SQUARED_DISTANCE,
 * 2 ABS_DISTANCE, 3 COUNT_EQUAL. */
int test_pair_is_float(ocl_reduce_type t);
/* n random elements of t into a and b; with `special` (floats), a few NaNs, infinities, signed
 * zeros and subnormals among them; every fifth b equal to its a, so that COUNT_EQUAL counts. */
void test_pair_fill(void *a, void *b, size_t n, ocl_reduce_type t, int special);
/* Whether `got` (a result's bytes) is operator op's over the n pairs: exact for integers and
 * counts; floats within (n + 3) u sum |value| of the long double sum (NaN for NaN, an infinity
 * of the same sign for an infinite or overflowing sum). Else 0, with why. */
int test_pair_matches(int op, ocl_reduce_type t, const void *a, const void *b, size_t n,
                      const void *got, char *why, size_t why_size);
/* The values a float pair operator (op 0 .. 2) sums, each rounded once per operation in the
 * sum's type (f32, or f64 for f64 elements), into `values`. */
void test_pair_values(int op, ocl_reduce_type t, const void *a, const void *b, size_t n,
                      void *values);

#endif /* ORX_TEST_PAIR_REFERENCE_H */
