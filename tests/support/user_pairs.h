/* =================================================================================================
 * user_pairs.h: the user pair operators the tests define (user_pairs.c): OpenCL C with a
 * pair_map in place of map, their descriptors, data and host folds. test_pair_operators runs
 * them on devices, test_cuda_kernels compiles them with NVRTC.
 *
 *   ARGMAX_PRODUCT  the largest a * b of int pairs and its first index: a {long, ulong} state
 *                   (checks pair_map's index)
 *   HASH            an order-preserving polynomial hash of uint pairs (a non-commutative
 *                   combine: any reordering changes it)
 *   POINTS          the squared distances of {int x, y} points summed in a ulong (struct
 *                   elements, read one pair at a time)
 *   ROWS            HASH of rows of 16 uints (64-byte elements, the largest: pairs of 128)
 * Every fold is exact, so devices must give the host's bits.
 * ============================================================================================== */
#ifndef ORX_TEST_USER_PAIRS_H
#define ORX_TEST_USER_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

typedef enum test_user_pair {
  TEST_PAIR_ARGMAX_PRODUCT,
  TEST_PAIR_HASH,
  TEST_PAIR_POINTS,
  TEST_PAIR_ROWS,
  TEST_USER_PAIR_COUNT
} test_user_pair;

extern const ocl_reduce_operator_desc test_user_pair_descs[TEST_USER_PAIR_COUNT];
extern const char *const test_user_pair_names[TEST_USER_PAIR_COUNT];

/* n random elements of the operator into each of a and b (some pairs equal). */
void test_user_pair_fill(test_user_pair w, void *a, void *b, size_t n);
/* The state of the n pairs, folded in order on the host from the operator's identity. */
void test_user_pair_reference(test_user_pair w, const void *a, const void *b, size_t n,
                              void *out);

#endif /* ORX_TEST_USER_PAIRS_H */
