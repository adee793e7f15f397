/* =================================================================================================
 * pair_reference.c: host references for the pair operators (pair_reference.h), independent of
 * the library: elements read exactly (16-bit floats by test_narrow_value), integers in exact
 * modular arithmetic, counts of equal values, float sums in long double with their bound.
 * ============================================================================================== */
#include "support/pair_reference.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/reference.h"

int test_pair_is_float(ocl_reduce_type t) {
  return t == OCL_REDUCE_F32 || t == OCL_REDUCE_F64 || t == OCL_REDUCE_F16 ||
         t == OCL_REDUCE_BF16;
}

/* Element i of an input as a long double (floats), independently of the library; inputs may
 * lie off their type's alignment (read by bytes). */
static long double float_at(const void *data, size_t i, ocl_reduce_type t) {
  const unsigned char *p = (const unsigned char *)data + i * ocl_reduce_type_size(t);
  if (t == OCL_REDUCE_F16 || t == OCL_REDUCE_BF16) {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return test_narrow_value(t, h);
  }
  if (t == OCL_REDUCE_F32) {
    float f;
    memcpy(&f, p, sizeof f);
    return f;
  }
  double d;
  memcpy(&d, p, sizeof d);
  return d;
}
/* ... and an integer element's bits, sign-extended for signed types. */
static uint64_t int_at(const void *data, size_t i, ocl_reduce_type t) {
  const unsigned char *p = (const unsigned char *)data + i * ocl_reduce_type_size(t);
  uint32_t w;
  uint64_t d;
  switch (t) {
  case OCL_REDUCE_I32: memcpy(&w, p, sizeof w); return (uint64_t)(int64_t)(int32_t)w;
  case OCL_REDUCE_U32: memcpy(&w, p, sizeof w); return w;
  default: memcpy(&d, p, sizeof d); return d;
  }
}

void test_pair_fill(void *a, void *b, size_t n, ocl_reduce_type t, int special) {
  const size_t elem = ocl_reduce_type_size(t);
  for (size_t i = 0; i < n; i++) {
    for (int side = 0; side < 2; side++) {
      unsigned char *p = (unsigned char *)(side ? b : a) + i * elem;
      if (!test_pair_is_float(t)) {
        const uint64_t bits = test_rng_next();
        memcpy(p, &bits, elem);
        continue;
      }
      double v = (test_rng_unit() - 0.5) * 8.0;
      if (special && test_rng_below(8) == 0) {
        static const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-310, 3e-42};
        v = specials[test_rng_below(sizeof specials / sizeof specials[0])];
      }
      if (t == OCL_REDUCE_F64) {
        memcpy(p, &v, 8);
      } else if (t == OCL_REDUCE_F32) {
        const float f = (float)v;
        memcpy(p, &f, 4);
      } else {
        const uint16_t h = ocl_reduce_half_from_float(t, (float)v);
        memcpy(p, &h, 2);
      }
    }
    if (i % 5 == 0)
      memcpy((unsigned char *)b + i * elem, (unsigned char *)a + i * elem, elem);
  }
}

int test_pair_matches(int op, ocl_reduce_type t, const void *a, const void *b, size_t n,
                      const void *got, char *why, size_t why_size) {
  if (op == 3) { /* COUNT_EQUAL */
    uint64_t count = 0, result;
    for (size_t i = 0; i < n; i++)
      count += test_pair_is_float(t) ? float_at(a, i, t) == float_at(b, i, t)
                           : int_at(a, i, t) == int_at(b, i, t);
    memcpy(&result, got, 8);
    snprintf(why, why_size, "count %llu, expected %llu", (unsigned long long)result,
             (unsigned long long)count);
    return result == count;
  }
  if (!test_pair_is_float(t)) { /* wrapping, exact */
    const int wide = ocl_reduce_type_size(t) == 8, is_signed = t == OCL_REDUCE_I32 ||
                                                                t == OCL_REDUCE_I64;
    uint64_t sum = 0, result = 0;
    for (size_t i = 0; i < n; i++) {
      const uint64_t x = int_at(a, i, t), y = int_at(b, i, t);
      const int x_greater = is_signed ? (int64_t)x > (int64_t)y : x > y;
      const uint64_t d = x - y;
      sum += op == 0 ? x * y : op == 1 ? d * d : x_greater ? d : y - x;
    }
    memcpy(&result, got, wide ? 8 : 4);
    if (!wide) {
      sum &= 0xffffffffu;
      result &= 0xffffffffu;
    }
    snprintf(why, why_size, "0x%llx, expected 0x%llx", (unsigned long long)result,
             (unsigned long long)sum);
    return result == sum;
  }
  /* Floats: sums in f32 (f16, bf16, f32) or f64; each value rounds at most three times (a
   * squared difference: the difference, the square), then n - 1 additions (or fused ones), so
   * |error| <= (n + 2) u sum |value| to first order; (n + 3) covers the second. Roundings among
   * the subnormals (products of tiny values) err by up to half the smallest one, eta, each. */
  const int f64 = t == OCL_REDUCE_F64;
  const long double u = f64 ? 0x1p-53L : 0x1p-24L, eta = f64 ? 0x1p-1074L : 0x1p-149L;
  long double sum = 0, magnitude = 0;
  for (size_t i = 0; i < n; i++) {
    const long double x = float_at(a, i, t), y = float_at(b, i, t);
    const long double v = op == 0 ? x * y : op == 1 ? (x - y) * (x - y) : fabsl(x - y);
    sum += v;
    magnitude += fabsl(v);
  }
  double result;
  if (f64) {
    memcpy(&result, got, 8);
  } else {
    float r;
    memcpy(&r, got, 4);
    result = r;
  }
  snprintf(why, why_size, "%a, expected %La", result, sum);
  if (isnan(sum))
    return isnan(result);
  const long double largest = f64 ? DBL_MAX : FLT_MAX;
  if (isinf(sum) || fabsl(sum) > largest) /* infinite, or overflowing the result's type */
    return isinf(result) && (result > 0) == (sum > 0);
  const long double bound =
      (long double)(n + 3) * u * magnitude + (long double)(2 * n) * eta;
  return !isnan(result) && fabsl((long double)result - sum) <= bound;
}

void test_pair_values(int op, ocl_reduce_type t, const void *a, const void *b, size_t n,
                      void *values) {
  for (size_t i = 0; i < n; i++) {
    const long double x = float_at(a, i, t), y = float_at(b, i, t);
    if (t == OCL_REDUCE_F64) {
      const double p = (double)x, q = (double)y, d = p - q;
      const double v = op == 0 ? p * q : op == 1 ? d * d : fabs(d);
      memcpy((double *)values + i, &v, 8);
    } else {
      const float p = (float)x, q = (float)y, d = p - q;
      const float v = op == 0 ? p * q : op == 1 ? d * d : fabsf(d);
      memcpy((float *)values + i, &v, 4);
    }
  }
}
