/* =================================================================================================
 * omp_baseline.c: OpenMP reduction loops, the CPU contender (see omp_baseline.h). Each is the plain
 * loop a C programmer would write: `#pragma omp parallel for simd reduction(op:acc)`.
 * ============================================================================================== */
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "omp_baseline.h"

#define OMP_PRAGMA(text) _Pragma(#text)
#define OMP_LOOP(NAME, T, INIT, REDUCTION, STEP)                                                   \
  static T NAME(const T *x, size_t n) {                                                            \
    T acc = INIT;                                                                                  \
    OMP_PRAGMA(omp parallel for simd reduction(REDUCTION : acc))                                   \
    for (size_t i = 0; i < n; i++)                                                                 \
      STEP;                                                                                        \
    return acc;                                                                                    \
  }

#define OMP_TYPE(SUFFIX, T, MIN, MAX)                                                              \
  OMP_LOOP(sum_##SUFFIX, T, (T)0, +, acc += x[i])                                \
  OMP_LOOP(prod_##SUFFIX, T, (T)1, *, acc *= x[i])                               \
  OMP_LOOP(min_##SUFFIX, T, MAX, min, acc = x[i] < acc ? x[i] : acc)              \
  OMP_LOOP(max_##SUFFIX, T, MIN, max, acc = x[i] > acc ? x[i] : acc)

#define OMP_BITS(SUFFIX, T)                                                                        \
  OMP_LOOP(and_##SUFFIX, T, (T)~(T)0, &, acc &= x[i])                             \
  OMP_LOOP(or_##SUFFIX, T, (T)0, |, acc |= x[i])                                  \
  OMP_LOOP(xor_##SUFFIX, T, (T)0, ^, acc ^= x[i])

/* Signed integer loops run in unsigned arithmetic, as the library does: wrapping is defined. */
OMP_TYPE(u32, uint32_t, 0, UINT32_MAX)
OMP_TYPE(u64, uint64_t, 0, UINT64_MAX)
OMP_LOOP(min_i32, int32_t, INT32_MAX, min, acc = x[i] < acc ? x[i] : acc)
OMP_LOOP(max_i32, int32_t, INT32_MIN, max, acc = x[i] > acc ? x[i] : acc)
OMP_LOOP(min_i64, int64_t, INT64_MAX, min, acc = x[i] < acc ? x[i] : acc)
OMP_LOOP(max_i64, int64_t, INT64_MIN, max, acc = x[i] > acc ? x[i] : acc)
OMP_TYPE(f32, float, -__builtin_inff(), __builtin_inff())
OMP_TYPE(f64, double, -__builtin_inf(), __builtin_inf())
OMP_BITS(u32, uint32_t)
OMP_BITS(u64, uint64_t)

int omp_reduce(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n, void *result) {
  const int wide = ocl_reduce_type_size(type) == 8;
  const int is_signed = type == OCL_REDUCE_I32 || type == OCL_REDUCE_I64;
#define RUN(FN, T)                                                                                 \
  do {                                                                                             \
    T r = FN((const T *)data, n);                                                                  \
    memcpy(result, &r, sizeof r);                                                                  \
    return 1;                                                                                      \
  } while (0)
  if (type == OCL_REDUCE_F32) {
    switch (op) {
    case OCL_REDUCE_SUM: RUN(sum_f32, float);
    case OCL_REDUCE_PROD: RUN(prod_f32, float);
    case OCL_REDUCE_MIN: RUN(min_f32, float);
    case OCL_REDUCE_MAX: RUN(max_f32, float);
    default: return 0;
    }
  }
  if (type == OCL_REDUCE_F64) {
    switch (op) {
    case OCL_REDUCE_SUM: RUN(sum_f64, double);
    case OCL_REDUCE_PROD: RUN(prod_f64, double);
    case OCL_REDUCE_MIN: RUN(min_f64, double);
    case OCL_REDUCE_MAX: RUN(max_f64, double);
    default: return 0;
    }
  }
  if (op == OCL_REDUCE_MIN && is_signed) {
    if (wide)
      RUN(min_i64, int64_t);
    RUN(min_i32, int32_t);
  }
  if (op == OCL_REDUCE_MAX && is_signed) {
    if (wide)
      RUN(max_i64, int64_t);
    RUN(max_i32, int32_t);
  }
  if (wide) {
    switch (op) {
    case OCL_REDUCE_SUM: RUN(sum_u64, uint64_t);
    case OCL_REDUCE_PROD: RUN(prod_u64, uint64_t);
    case OCL_REDUCE_MIN: RUN(min_u64, uint64_t);
    case OCL_REDUCE_MAX: RUN(max_u64, uint64_t);
    case OCL_REDUCE_AND: RUN(and_u64, uint64_t);
    case OCL_REDUCE_OR: RUN(or_u64, uint64_t);
    case OCL_REDUCE_XOR: RUN(xor_u64, uint64_t);
    }
  }
  switch (op) {
  case OCL_REDUCE_SUM: RUN(sum_u32, uint32_t);
  case OCL_REDUCE_PROD: RUN(prod_u32, uint32_t);
  case OCL_REDUCE_MIN: RUN(min_u32, uint32_t);
  case OCL_REDUCE_MAX: RUN(max_u32, uint32_t);
  case OCL_REDUCE_AND: RUN(and_u32, uint32_t);
  case OCL_REDUCE_OR: RUN(or_u32, uint32_t);
  case OCL_REDUCE_XOR: RUN(xor_u32, uint32_t);
  }
#undef RUN
  return 0;
}

int omp_threads(void) { return omp_get_max_threads(); }
