/* =================================================================================================
 * omp_baseline.c: OpenMP reduction loops, the CPU contender (see omp_baseline.h). Each is the plain
 * loop a C programmer would write: `#pragma omp parallel for simd reduction(op:acc)`. Compiled
 * once per instruction set (tools/CMakeLists.txt), omp_dispatch.c choosing at run time.
 * ============================================================================================== */
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/half.h" /* the inline widenings */
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

/* 16-bit floats read into f32, as the library reduces them: SUM and PROD return the f32, MIN and
 * MAX the element (exact back from its f32 value). Widened by the library's own inline,
 * branch-free conversions (src/base/half.h), which vectorize on every instruction set: GCC 12
 * converts _Float16 one element at a time (7.5 GB/s on 2 cores, against 140 for bf16). */
static inline float f16_value(uint16_t bits) { return orx_f16_to_f32(bits); }
static inline float bf16_value(uint16_t bits) { return orx_bf16_to_f32(bits); }
static inline uint16_t f16_bits(float f) { return ocl_reduce_half_from_float(OCL_REDUCE_F16, f); }
static inline uint16_t bf16_bits(float f) {
  return ocl_reduce_half_from_float(OCL_REDUCE_BF16, f);
}

#define OMP_HALF_LOOP(NAME, VALUE, INIT, REDUCTION, STEP)                                          \
  static float NAME(const uint16_t *x, size_t n) {                                                 \
    float acc = INIT;                                                                              \
    OMP_PRAGMA(omp parallel for simd reduction(REDUCTION : acc))                                   \
    for (size_t i = 0; i < n; i++) {                                                               \
      const float v = VALUE(x[i]);                                                                 \
      STEP;                                                                                        \
    }                                                                                              \
    return acc;                                                                                    \
  }
#define OMP_HALF(SUFFIX)                                                                           \
  OMP_HALF_LOOP(sum_##SUFFIX, SUFFIX##_value, 0.0f, +, acc += v)                                   \
  OMP_HALF_LOOP(prod_##SUFFIX, SUFFIX##_value, 1.0f, *, acc *= v)                                  \
  OMP_HALF_LOOP(min_##SUFFIX, SUFFIX##_value, __builtin_inff(), min, acc = v < acc ? v : acc)      \
  OMP_HALF_LOOP(max_##SUFFIX, SUFFIX##_value, -__builtin_inff(), max, acc = v > acc ? v : acc)
OMP_HALF(f16)
OMP_HALF(bf16)

/* SUM, PROD, MIN and MAX of 16-bit floats into *result; 0 for other operators. */
static int omp_reduce_half(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n,
                           void *result) {
  const int f16 = type == OCL_REDUCE_F16;
  const uint16_t *x = data;
  float value;
  switch (bench_op_index(op)) {
  case B_SUM: value = f16 ? sum_f16(x, n) : sum_bf16(x, n); break;
  case B_PROD: value = f16 ? prod_f16(x, n) : prod_bf16(x, n); break;
  case B_MIN: value = f16 ? min_f16(x, n) : min_bf16(x, n); break;
  case B_MAX: value = f16 ? max_f16(x, n) : max_bf16(x, n); break;
  default: return 0;
  }
  if (op == OCL_REDUCE_SUM || op == OCL_REDUCE_PROD) {
    memcpy(result, &value, sizeof value);
  } else {
    const uint16_t bits = f16 ? f16_bits(value) : bf16_bits(value);
    memcpy(result, &bits, sizeof bits);
  }
  return 1;
}

int omp_reduce(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n, void *result) {
  if (op > OCL_REDUCE_XOR)
    return omp_reduce_structured(op, type, data, n, result);
  /* Not through the integer loops below: their 2-byte elements would run past the array's end. */
  if (type == OCL_REDUCE_F16 || type == OCL_REDUCE_BF16)
    return omp_reduce_half(op, type, data, n, result);
  const int wide = ocl_reduce_type_size(type) == 8;
  const int is_signed = type == OCL_REDUCE_I32 || type == OCL_REDUCE_I64;
#define RUN(FN, T)                                                                                 \
  do {                                                                                             \
    T r = FN((const T *)data, n);                                                                  \
    memcpy(result, &r, sizeof r);                                                                  \
    return 1;                                                                                      \
  } while (0)
  if (type == OCL_REDUCE_F32) {
    switch (bench_op_index(op)) {
    case B_SUM: RUN(sum_f32, float);
    case B_PROD: RUN(prod_f32, float);
    case B_MIN: RUN(min_f32, float);
    case B_MAX: RUN(max_f32, float);
    default: return 0;
    }
  }
  if (type == OCL_REDUCE_F64) {
    switch (bench_op_index(op)) {
    case B_SUM: RUN(sum_f64, double);
    case B_PROD: RUN(prod_f64, double);
    case B_MIN: RUN(min_f64, double);
    case B_MAX: RUN(max_f64, double);
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
    switch (bench_op_index(op)) {
    case B_SUM: RUN(sum_u64, uint64_t);
    case B_PROD: RUN(prod_u64, uint64_t);
    case B_MIN: RUN(min_u64, uint64_t);
    case B_MAX: RUN(max_u64, uint64_t);
    case B_AND: RUN(and_u64, uint64_t);
    case B_OR: RUN(or_u64, uint64_t);
    case B_XOR: RUN(xor_u64, uint64_t);
    default: return 0;
    }
  }
  switch (bench_op_index(op)) {
  case B_SUM: RUN(sum_u32, uint32_t);
  case B_PROD: RUN(prod_u32, uint32_t);
  case B_MIN: RUN(min_u32, uint32_t);
  case B_MAX: RUN(max_u32, uint32_t);
  case B_AND: RUN(and_u32, uint32_t);
  case B_OR: RUN(or_u32, uint32_t);
  case B_XOR: RUN(xor_u32, uint32_t);
  default: break;
  }
#undef RUN
  return 0;
}

/* ---- Per-segment loops ------------------------------------------------------------------------ */

/* The loop over segments in parallel, each segment one simd reduction. */
#define OMP_SEGMENTS(NAME, T, INIT, REDUCTION, STEP)                                               \
  static void NAME(const T *x, size_t count, size_t length, T *out) {                              \
    OMP_PRAGMA(omp parallel for)                                                                   \
    for (size_t s = 0; s < count; s++) {                                                           \
      const T *seg = x + s * length;                                                               \
      T acc = INIT;                                                                                \
      OMP_PRAGMA(omp simd reduction(REDUCTION : acc))                                              \
      for (size_t i = 0; i < length; i++)                                                          \
        STEP;                                                                                      \
      out[s] = acc;                                                                                \
    }                                                                                              \
  }
#define OMP_SEGMENT_TYPE(SUFFIX, T, MIN, MAX)                                                      \
  OMP_SEGMENTS(seg_sum_##SUFFIX, T, (T)0, +, acc += seg[i])                                         \
  OMP_SEGMENTS(seg_min_##SUFFIX, T, MAX, min, acc = seg[i] < acc ? seg[i] : acc)                     \
  OMP_SEGMENTS(seg_max_##SUFFIX, T, MIN, max, acc = seg[i] > acc ? seg[i] : acc)

OMP_SEGMENT_TYPE(u32, uint32_t, 0, UINT32_MAX)
OMP_SEGMENT_TYPE(u64, uint64_t, 0, UINT64_MAX)
OMP_SEGMENT_TYPE(i32, int32_t, INT32_MIN, INT32_MAX)
OMP_SEGMENT_TYPE(i64, int64_t, INT64_MIN, INT64_MAX)
OMP_SEGMENT_TYPE(f32, float, -__builtin_inff(), __builtin_inff())
OMP_SEGMENT_TYPE(f64, double, -__builtin_inf(), __builtin_inf())

int omp_reduce_segments(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t count,
                        size_t length, void *results) {
  if (op != OCL_REDUCE_SUM && op != OCL_REDUCE_MIN && op != OCL_REDUCE_MAX)
    return 0;
  /* Signed sums run unsigned, as the library's do (wrapping is defined). */
  if (op == OCL_REDUCE_SUM && type == OCL_REDUCE_I32)
    type = OCL_REDUCE_U32;
  if (op == OCL_REDUCE_SUM && type == OCL_REDUCE_I64)
    type = OCL_REDUCE_U64;
#define SEGMENTS(SUFFIX, T)                                                                        \
  do {                                                                                             \
    if (op == OCL_REDUCE_SUM)                                                                      \
      seg_sum_##SUFFIX((const T *)data, count, length, (T *)results);                              \
    else if (op == OCL_REDUCE_MIN)                                                                 \
      seg_min_##SUFFIX((const T *)data, count, length, (T *)results);                              \
    else                                                                                           \
      seg_max_##SUFFIX((const T *)data, count, length, (T *)results);                              \
    return 1;                                                                                      \
  } while (0)
  switch (type) {
  case OCL_REDUCE_I32: SEGMENTS(i32, int32_t);
  case OCL_REDUCE_U32: SEGMENTS(u32, uint32_t);
  case OCL_REDUCE_I64: SEGMENTS(i64, int64_t);
  case OCL_REDUCE_U64: SEGMENTS(u64, uint64_t);
  case OCL_REDUCE_F32: SEGMENTS(f32, float);
  case OCL_REDUCE_F64: SEGMENTS(f64, double);
  case OCL_REDUCE_F16: /* no OpenMP loop of 16-bit segments yet */
  case OCL_REDUCE_BF16: return 0;
  }
#undef SEGMENTS
  return 0;
}
