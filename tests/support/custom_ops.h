/* =================================================================================================
 * custom_ops.h: the user operators the tests define (custom_ops.c): their OpenCL C, descriptors,
 * data and host folds. test_custom runs them on devices, test_cuda_kernels compiles them with
 * NVRTC.
 *
 *   SQUARES    sum of squares: uint elements, a ulong state (exact)
 *   BOX        the bounding box of {float x, y, z} points: a 6-float state
 *   ABOVE      elements above 0.5f: their count and the sum of their indices (checks map's index)
 *   HISTOGRAM  16 bins of uchar elements: a 64-byte state
 * ============================================================================================== */
#ifndef ORX_TEST_CUSTOM_OPS_H
#define ORX_TEST_CUSTOM_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

typedef enum test_custom {
  TEST_SQUARES,
  TEST_BOX,
  TEST_ABOVE,
  TEST_HISTOGRAM,
  TEST_CUSTOM_COUNT
} test_custom;

typedef struct test_point {
  float x, y, z;
} test_point;
typedef struct test_box {
  float lo[3], hi[3];
} test_box;

extern const ocl_reduce_operator_desc test_custom_descs[TEST_CUSTOM_COUNT];
extern const char *const test_custom_names[TEST_CUSTOM_COUNT];

/* n random elements for the operator. */
void test_custom_fill(test_custom w, void *data, size_t n);
/* The state of n elements, folded in order on the host (every combine here is exact). */
void test_custom_reference(test_custom w, const void *data, size_t n, void *out);

#endif /* ORX_TEST_CUSTOM_OPS_H */
