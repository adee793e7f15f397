/* =================================================================================================
 * repro_reference.h: host references for the reproducible float sum (OCL_REDUCE_SUM_REPRODUCIBLE,
 * and SUM under OCL_REDUCE_CROSS_DEVICE), computed from the header's definition, independently of
 * the kernels' way: the top bin from max |x| first, each element's pieces at that bin as long
 * double quotients rounded to nearest (halfway to even), the folds' exact sum in a big integer,
 * rounded once to nearest even. And the exact sum of floats, for error bounds.
 * ============================================================================================== */
#ifndef ORX_TEST_REPRO_REFERENCE_H
#define ORX_TEST_REPRO_REFERENCE_H

#include <stddef.h>

#include "ocl_reduce.h"

/* The reproducible sum of n elements of type (F32 or F64) at data, written to result (one
 * element). */
void test_repro_sum(const void *data, size_t n, ocl_reduce_type type, void *result);

/* The exact sum of the finite elements, rounded to long double (64 significant bits), and
 * max |x| over them. */
long double test_exact_sum(const void *data, size_t n, ocl_reduce_type type,
                           long double *max_abs);

/* The header's bound on |result - exact|: n * 2^-(K-1)W * max|x| + ulp(result) / 2. */
long double test_repro_bound(size_t n, ocl_reduce_type type, long double max_abs,
                             long double result);

#endif /* ORX_TEST_REPRO_REFERENCE_H */
