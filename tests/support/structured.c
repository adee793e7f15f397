/* =================================================================================================
 * structured.c: host references of the structured operators (structured.h).
 * ============================================================================================== */
#include "support/structured.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/reference.h"
#include "support/repro_reference.h"

/* Element i as the reference sees it. */
typedef struct element {
  uint64_t bits;  /* the element's bits, zero-extended */
  int64_t s;      /* integers: the value, signed types sign-extended */
  long double f;  /* the value */
  int is_nan;
} element;

/* The element's bits by a constant-width load, then what its type makes of them: the references
 * call this for every element, several times per check (a memcpy of the library's width per
 * element was most of the sweeps' checking time). */
static element element_at(const void *data, size_t i, ocl_reduce_type type) {
  element e = {0, 0, 0.0L, 0};
  const unsigned char *p = (const unsigned char *)data;
  const int four = type == OCL_REDUCE_I32 || type == OCL_REDUCE_U32 || type == OCL_REDUCE_F32;
  const int two = type == OCL_REDUCE_F16 || type == OCL_REDUCE_BF16;
  uint32_t low = 0;
  if (two) {
    uint16_t h;
    memcpy(&h, p + 2 * i, 2);
    e.bits = low = h;
  } else if (four) {
    memcpy(&low, p + 4 * i, 4);
    e.bits = low;
  } else {
    memcpy(&e.bits, p + 8 * i, 8);
  }
  float f32;
  double f64;
  switch (type) {
  case OCL_REDUCE_I32: e.s = (int32_t)low, e.f = e.s; break;
  case OCL_REDUCE_U32: e.s = low, e.f = low; break;
  case OCL_REDUCE_I64: e.s = (int64_t)e.bits, e.f = (long double)e.s; break;
  case OCL_REDUCE_U64: e.s = (int64_t)e.bits, e.f = (long double)e.bits; break;
  case OCL_REDUCE_F32: memcpy(&f32, &low, 4), e.f = f32, e.is_nan = isnan(f32); break;
  case OCL_REDUCE_F64: memcpy(&f64, &e.bits, 8), e.f = f64, e.is_nan = isnan(f64); break;
  case OCL_REDUCE_F16:
  case OCL_REDUCE_BF16:
    f32 = test_narrow_value(type, (uint16_t)low), e.f = f32, e.is_nan = isnan(f32);
    break;
  }
  return e;
}

/* Whether a is strictly before b in ARGMIN's (want_min) or ARGMAX's order: NaN first, then the
 * extreme value, -0.0 below +0.0. Ties are not before: the earlier index stays. */
static int strictly_before(element a, element b, ocl_reduce_type type, int want_min) {
  if (a.is_nan || b.is_nan)
    return a.is_nan && !b.is_nan;
  const int is_float = type == OCL_REDUCE_F32 || type == OCL_REDUCE_F64 ||
                       type == OCL_REDUCE_F16 || type == OCL_REDUCE_BF16;
  if (!is_float && type == OCL_REDUCE_U64)
    return want_min ? a.bits < b.bits : a.bits > b.bits;
  if (!is_float)
    return want_min ? a.s < b.s : a.s > b.s;
  if (a.f != b.f)
    return want_min ? a.f < b.f : a.f > b.f;
  const int a_negative = signbit(a.f) != 0, b_negative = signbit(b.f) != 0;
  return want_min ? a_negative && !b_negative : !a_negative && b_negative;
}

static int check_arg(const void *got, const void *data, size_t n, ocl_reduce_op op,
                     ocl_reduce_type type, char *why, size_t size) {
  const int want_min = op == OCL_REDUCE_ARGMIN;
  ocl_reduce_arg r;
  memcpy(&r, got, sizeof r);
  /* count == 0: MIN's / MAX's identity and no index. */
  test_reference identity = test_reduce_host(data, 0, want_min ? OCL_REDUCE_MIN : OCL_REDUCE_MAX,
                                             type, MODE_RANDOM);
  uint64_t best = UINT64_MAX, want_bits = identity.value.u64;
  if (ocl_reduce_type_size(type) == 4)
    want_bits = identity.value.u32;
  if (ocl_reduce_type_size(type) == 2) /* a 16-bit element in the value's first 2 bytes */
    want_bits = identity.value.u64 & 0xffffu;
  element best_element;
  memset(&best_element, 0, sizeof best_element);
  for (size_t i = 0; i < n; i++) {
    const element x = element_at(data, i, type);
    if (best == UINT64_MAX || strictly_before(x, best_element, type, want_min)) {
      best = i;
      best_element = x;
      want_bits = x.bits;
    }
  }
  /* A 16-bit NaN may come back as another NaN (docs/API.md: NVIDIA's conversions give one NaN);
   * the value's other 6 bytes stay zero. */
  const int any_nan = ocl_reduce_type_size(type) == 2 && best != UINT64_MAX &&
                      best_element.is_nan && r.value.u64 <= 0xffffu &&
                      element_at(&r.value, 0, type).is_nan;
  if (r.index != best || (r.value.u64 != want_bits && !any_nan)) {
    snprintf(why, size, "got value bits 0x%llx at index %llu, expected 0x%llx at %llu",
             (unsigned long long)r.value.u64, (unsigned long long)r.index,
             (unsigned long long)want_bits, (unsigned long long)best);
    return 0;
  }
  return 1;
}

static int check_minmax(const void *got, const void *data, size_t n, ocl_reduce_type type,
                        char *why, size_t size) {
  const size_t elem = ocl_reduce_type_size(type);
  const ocl_reduce_op parts[2] = {OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  for (int k = 0; k < 2; k++) {
    test_value v;
    memset(&v, 0, sizeof v);
    memcpy(&v, (const unsigned char *)got + k * elem, elem);
    const test_reference ref = test_reduce_host(data, n, parts[k], type, MODE_RANDOM);
    char part[192];
    if (!test_matches(&v, &ref, parts[k], type, part, sizeof part)) {
      snprintf(why, size, "%s half: %s", k ? "max" : "min", part);
      return 0;
    }
  }
  return 1;
}

/* The exact sum (long double holds every i32/u32 sum and f32 sum here exactly enough) and the sum
 * of magnitudes, for the error bounds; NaN where an element is NaN or infinities of both signs
 * meet, else an infinity where one is. Only finite elements enter the long double sums: x87
 * arithmetic on an infinity or a NaN takes a microcode assist per element, and such sums were
 * most of test_operators' time on Intel's runtime with its programs cached (the compensated and
 * wide sums' sweeps, 4-6 s each). */
typedef struct terms {
  long double sum, magnitude;
  int nan, positive_inf, negative_inf;
} terms;

static void add_term(terms *t, long double x) {
  if (isfinite(x)) {
    t->sum += x;
    t->magnitude += fabsl(x);
  } else if (isnan(x)) {
    t->nan = 1;
  } else if (x > 0) {
    t->positive_inf = 1;
  } else {
    t->negative_inf = 1;
  }
}

static void sums(const void *data, size_t n, ocl_reduce_type type, long double *sum,
                 long double *magnitude, int *any_nan) {
  terms t = {0, 0, 0, 0, 0};
  if (type == OCL_REDUCE_F32)
    for (size_t i = 0; i < n; i++)
      add_term(&t, ((const float *)data)[i]);
  else if (type == OCL_REDUCE_F64)
    for (size_t i = 0; i < n; i++)
      add_term(&t, ((const double *)data)[i]);
  else
    for (size_t i = 0; i < n; i++)
      add_term(&t, element_at(data, i, type).f);
  const int infinite = t.positive_inf || t.negative_inf;
  *sum = t.nan || (t.positive_inf && t.negative_inf) ? (long double)NAN
         : t.positive_inf                            ? (long double)INFINITY
         : t.negative_inf                            ? -(long double)INFINITY
                                                     : t.sum;
  *magnitude = t.nan || infinite ? (long double)INFINITY : t.magnitude;
  *any_nan = t.nan;
}

/* Float result `got` against `want` within tolerance, with NaN and infinities exact. */
static int close_to(long double got, long double want, long double tolerance, char *why,
                    size_t size) {
  if (isnan(want) ? isnan(got) : isinf(want) ? got == want : fabsl(got - want) <= tolerance)
    return 1;
  snprintf(why, size, "got %.21Lg, expected %.21Lg within %.3Lg", got, want, tolerance);
  return 0;
}

static int check_sum_wide(const void *got, const void *data, size_t n, ocl_reduce_type type,
                          char *why, size_t size) {
  if (type == OCL_REDUCE_I32 || type == OCL_REDUCE_U32) {
    uint64_t want = 0, r;
    memcpy(&r, got, 8);
    for (size_t i = 0; i < n; i++)
      want += (uint64_t)element_at(data, i, type).s; /* i32 sign-extended, u32 zero-extended */
    if (r != want) {
      snprintf(why, size, "got %lld (0x%llx), expected %lld", (long long)r,
               (unsigned long long)r, (long long)want);
      return 0;
    }
    return 1;
  }
  double r;
  memcpy(&r, got, 8);
  long double sum, magnitude;
  int any_nan;
  sums(data, n, type, &sum, &magnitude, &any_nan);
  /* A tree of double additions: n roundings of at most 2^-53 of the running magnitudes. */
  const long double tolerance = (long double)(n + 1) * 0x1p-52L * magnitude;
  return close_to(r, any_nan ? NAN : (long double)(double)sum, tolerance, why, size);
}

static int check_sum_compensated(const void *got, const void *data, size_t n,
                                 ocl_reduce_type type, char *why, size_t size) {
  long double sum, magnitude;
  int any_nan;
  sums(data, n, type, &sum, &magnitude, &any_nan);
  const int f32 = type != OCL_REDUCE_F64; /* 16-bit elements sum in f32 too */
  long double r, want;
  if (f32) {
    float v;
    memcpy(&v, got, 4);
    r = v;
    want = (float)sum;
  } else {
    double v;
    memcpy(&v, got, 8);
    r = v;
    want = (double)sum;
  }
  /* Compensated: a few ulps of the sum, plus the second-order term n^2 eps^2 sum |x|. */
  const long double eps = f32 ? 0x1p-24L : 0x1p-53L;
  const long double tolerance =
      4 * eps * fabsl(want) + 4 * (long double)n * (long double)n * eps * eps * magnitude;
  return close_to(r, any_nan ? NAN : want, tolerance, why, size);
}

/* SUM_REPRODUCIBLE: exactly the bits of the definition's host evaluation. */
static int check_sum_reproducible(const void *got, const void *data, size_t n,
                                  ocl_reduce_type type, char *why, size_t size) {
  const size_t bytes = type == OCL_REDUCE_F64 ? 8 : 4; /* 16-bit elements: an f32 */
  uint64_t want = 0, have = 0;
  if (ocl_reduce_type_size(type) == 2) { /* the definition over their f32 values */
    float *values = malloc((n ? n : 1) * sizeof *values);
    if (!values) {
      snprintf(why, size, "out of host memory");
      return 0;
    }
    for (size_t i = 0; i < n; i++)
      values[i] = (float)element_at(data, i, type).f;
    test_repro_sum(values, n, OCL_REDUCE_F32, &want);
    free(values);
  } else {
    test_repro_sum(data, n, type, &want);
  }
  memcpy(&have, got, bytes);
  if (have == want)
    return 1;
  snprintf(why, size, "bits 0x%llx, the definition gives 0x%llx", (unsigned long long)have,
           (unsigned long long)want);
  return 0;
}

static int check_mean_var(const void *got, const void *data, size_t n, ocl_reduce_type type,
                          char *why, size_t size) {
  ocl_reduce_moments r;
  memcpy(&r, got, sizeof r);
  long double mean = 0, m2 = 0;
  for (size_t i = 0; i < n; i++)
    mean += element_at(data, i, type).f;
  mean = n ? mean / (long double)n : 0;
  for (size_t i = 0; i < n; i++) {
    const long double d = element_at(data, i, type).f - mean;
    m2 += d * d;
  }
  if (r.count != n) {
    snprintf(why, size, "count %llu, expected %zu", (unsigned long long)r.count, n);
    return 0;
  }
  /* Double precision throughout: the mean within 1e-12 of its scale, M2 within 1e-9 of
   * itself (plus what the mean's rounding adds over n elements). */
  const long double spread = n ? sqrtl(m2 / (long double)n) : 0;
  const long double scale = fabsl(mean) > spread ? fabsl(mean) : spread;
  char part[160];
  if (!close_to(r.mean, mean, 1e-12L * scale, part, sizeof part)) {
    snprintf(why, size, "mean: %s", part);
    return 0;
  }
  if (!close_to(r.m2, m2, 1e-9L * m2 + 1e-24L * (long double)n * scale * scale, part,
                sizeof part)) {
    snprintf(why, size, "m2: %s", part);
    return 0;
  }
  return 1;
}

int test_structured_matches(const void *got, const void *data, size_t n, ocl_reduce_op op,
                            ocl_reduce_type type, char *why, size_t why_size) {
  switch (test_op_index(op)) {
  case T_ARGMIN:
  case T_ARGMAX: return check_arg(got, data, n, op, type, why, why_size);
  case T_MINMAX: return check_minmax(got, data, n, type, why, why_size);
  case T_SUM_WIDE: return check_sum_wide(got, data, n, type, why, why_size);
  case T_SUM_COMPENSATED: return check_sum_compensated(got, data, n, type, why, why_size);
  case T_MEAN_VAR: return check_mean_var(got, data, n, type, why, why_size);
  case T_SUM_REPRODUCIBLE: return check_sum_reproducible(got, data, n, type, why, why_size);
  default:
    snprintf(why, why_size, "%s is not a structured operator", ocl_reduce_op_name(op));
    return 0;
  }
}

int test_result_matches(const void *got, const void *data, size_t n, ocl_reduce_op op,
                        ocl_reduce_type type, char *why, size_t why_size) {
  if (test_op_structured(op))
    return test_structured_matches(got, data, n, op, type, why, why_size);
  const test_reference ref = test_reduce_host(data, n, op, type, MODE_RANDOM);
  test_value v;
  memcpy(v.bytes, got, ocl_reduce_result_size(op, type));
  return test_matches(&v, &ref, op, type, why, why_size);
}
