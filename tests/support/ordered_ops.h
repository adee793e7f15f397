/* =================================================================================================
 * ordered_ops.h: order-preserving user operators (commutative == 0) whose results change with
 * any slip in the order of combining (ordered_ops.c): their OpenCL C, descriptors, data and
 * sequential host folds. test_ordered runs them on devices, test_cuda_kernels compiles them with
 * NVRTC. Each one's element is its state (map is the identity) and combine(a, b) applies a first.
 *
 *   MATRIX  2x2 matrix product over u32, wrapping: random matrices of odd determinant, so that
 *           no product degenerates to zero modulo 2^32 however long (exact)
 *   AFFINE  composition of affine maps x -> a x + b over f64, the solution of a linear recurrence
 *           (within the bound of test_ordered_bound)
 *   FSM     composition of transition tables of 16 states, 4 bits per state in a u64: random
 *           permutations, mostly, and now and then a table that merges states (exact)
 * ============================================================================================== */
#ifndef ORX_TEST_ORDERED_OPS_H
#define ORX_TEST_ORDERED_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

typedef enum test_ordered { TEST_MATRIX, TEST_AFFINE, TEST_FSM, TEST_ORDERED_COUNT } test_ordered;

typedef struct test_matrix {
  uint32_t m[4]; /* row-major: m[0] m[1] / m[2] m[3] */
} test_matrix;
typedef struct test_affine {
  double a, b; /* x -> a x + b */
} test_affine;

extern const ocl_reduce_operator_desc test_ordered_descs[TEST_ORDERED_COUNT];
extern const char *const test_ordered_names[TEST_ORDERED_COUNT];

/* n random elements for the operator. */
void test_ordered_fill(test_ordered w, void *data, size_t n);
/* The fold of n elements in index order on the host (AFFINE in long double). */
void test_ordered_reference(test_ordered w, const void *data, size_t n, void *out);
/* 1 when `got` is the fold of the n elements at data: equal bits for MATRIX and FSM; for AFFINE
 * within the rounding bound of any order of combining, |got - exact| <= 2 n u M componentwise,
 * M the fold of the elements' absolute values and u the unit roundoff 2^-53. */
int test_ordered_matches(test_ordered w, const void *data, size_t n, const void *got);

#endif /* ORX_TEST_ORDERED_OPS_H */
