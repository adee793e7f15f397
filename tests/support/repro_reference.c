/* =================================================================================================
 * repro_reference.c: see repro_reference.h. Numbers too wide for any C type live in `wide`, a
 * two's-complement integer of 32-bit limbs, least significant first.
 * ============================================================================================== */
#include "support/repro_reference.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The format's facts as the header states them: significand bits, bits between bins, folds,
 * the least bin's exponent, the exponent of the least denormal. */
typedef struct repro_format {
  int p, w, k, e_bottom, denormal_low;
} repro_format;

static repro_format format_of(ocl_reduce_type type) {
  return type == OCL_REDUCE_F32 ? (repro_format){24, 13, 4, -126, -149}
                                : (repro_format){53, 24, 4, -1022, -1074};
}

static long double element(const void *data, size_t i, ocl_reduce_type type) {
  return type == OCL_REDUCE_F32 ? (long double)((const float *)data)[i]
                                : (long double)((const double *)data)[i];
}

#define WIDE_LIMBS 72 /* 2304 bits: every f64 from the least denormal up, and 64 bits more */
typedef struct wide {
  uint32_t limb[WIDE_LIMBS];
} wide;

/* w += (negative ? -1 : 1) * magnitude * 2^shift, carries and borrows through to the top. */
static void wide_add(wide *w, int negative, uint64_t magnitude, int shift) {
  const int at = shift / 32;
  const unsigned __int128 moved = (unsigned __int128)magnitude << (shift % 32);
  int64_t carry = 0; /* -1, 0 or 1 */
  for (int i = at; i < WIDE_LIMBS && (i < at + 3 || carry != 0); i++) {
    const int64_t part = i < at + 3 ? (int64_t)(uint32_t)(moved >> (32 * (i - at))) : 0;
    const int64_t v = (int64_t)w->limb[i] + (negative ? -part : part) + carry;
    w->limb[i] = (uint32_t)v;
    carry = (v - (int64_t)(uint32_t)v) / 4294967296LL;
  }
}

static int wide_bit(const wide *w, int i) { return (int)(w->limb[i / 32] >> (i % 32)) & 1; }

/* Makes w its magnitude; returns whether it was negative. */
static int wide_abs(wide *w) {
  if (!(w->limb[WIDE_LIMBS - 1] >> 31))
    return 0;
  uint64_t carry = 1;
  for (int i = 0; i < WIDE_LIMBS; i++) {
    const uint64_t sum = (uint64_t)(uint32_t)~w->limb[i] + carry;
    w->limb[i] = (uint32_t)sum;
    carry = sum >> 32;
  }
  return 1;
}

static int wide_top(const wide *w) {
  for (int i = 32 * WIDE_LIMBS - 1; i >= 0; i--)
    if (wide_bit(w, i))
      return i;
  return -1;
}

/* |w| * 2^low rounded to the format's nearest (ties to even), with sign. */
static long double wide_round(wide *w, int low, repro_format f) {
  const int negative = wide_abs(w), top = wide_top(w);
  if (top < 0)
    return 0.0L;
  int cut = top - (f.p - 1);
  if (cut < f.denormal_low - low)
    cut = f.denormal_low - low;
  uint64_t significand = 0;
  for (int i = top; i >= (cut > 0 ? cut : 0); i--)
    significand = significand << 1 | (uint64_t)wide_bit(w, i);
  if (cut > 0) {
    int sticky = 0;
    for (int i = 0; i < cut - 1; i++)
      sticky |= wide_bit(w, i);
    const int half = wide_bit(w, cut - 1);
    significand += (uint64_t)(half && (sticky || (significand & 1)));
  } else {
    cut = 0;
  }
  const long double value = ldexpl((long double)significand, low + cut);
  return negative ? -value : value;
}

/* The least bin whose top takes |x| (finite). */
static int bin_of(long double magnitude, repro_format f) {
  int bin = f.k - 1;
  while (!(magnitude < ldexpl(1.0L, f.e_bottom + bin * f.w + f.w - f.p)))
    bin++;
  return bin;
}

void test_repro_sum(const void *data, size_t n, ocl_reduce_type type, void *result) {
  const repro_format f = format_of(type);
  int nan = 0, pos_inf = 0, neg_inf = 0, bin = f.k - 1;
  /* The top of the bin so far: only elements at or above it look for theirs (each step of that
   * search an ldexpl, which for every element was most of the suites' time in this reference). */
  long double top = ldexpl(1.0L, f.e_bottom + bin * f.w + f.w - f.p);
  for (size_t i = 0; i < n; i++) {
    const long double x = element(data, i, type);
    if (isnan(x))
      nan = 1;
    else if (isinf(x))
      *(x > 0 ? &pos_inf : &neg_inf) = 1;
    else if (!(fabsl(x) < top)) {
      bin = bin_of(fabsl(x), f);
      top = ldexpl(1.0L, f.e_bottom + bin * f.w + f.w - f.p);
    }
  }
  long double sum;
  if (nan || (pos_inf && neg_inf)) {
    sum = NAN;
  } else if (pos_inf || neg_inf) {
    sum = pos_inf ? INFINITY : -INFINITY;
  } else {
    /* Each element's pieces at the top bin, fold by fold, in units of the fold. */
    int64_t units[8] = {0};
    long double unit[8];
    for (int j = 0; j < f.k; j++)
      unit[j] = ldexpl(1.0L, f.e_bottom + (bin - j) * f.w - (f.p - 1));
    for (size_t i = 0; i < n; i++) {
      long double rest = element(data, i, type);
      if (isinf(rest))
        continue;
      for (int j = 0; j < f.k; j++) {
        /* Nearest, halfway to even (the default rounding mode; rintl rather than nearbyintl,
         * which saves and restores the floating-point environment: most of the tests' time). */
        const long double piece = rintl(rest / unit[j]);
        units[j] += (int64_t)piece;
        rest -= piece * unit[j];
      }
    }
    wide w;
    memset(&w, 0, sizeof w);
    for (int j = 0; j < f.k; j++)
      wide_add(&w, units[j] < 0, units[j] < 0 ? 0 - (uint64_t)units[j] : (uint64_t)units[j],
               (f.k - 1 - j) * f.w);
    sum = wide_round(&w, f.e_bottom + bin * f.w - (f.k - 1) * f.w - (f.p - 1), f);
  }
  if (type == OCL_REDUCE_F32) {
    float v = (float)sum;
    if (isnan(v)) {
      const uint32_t quiet = 0x7fc00000u;
      memcpy(&v, &quiet, 4);
    }
    memcpy(result, &v, 4);
  } else {
    double v = (double)sum;
    if (isnan(v)) {
      const uint64_t quiet = 0x7ff8000000000000ull;
      memcpy(&v, &quiet, 8);
    }
    memcpy(result, &v, 8);
  }
}

long double test_exact_sum(const void *data, size_t n, ocl_reduce_type type,
                           long double *max_abs) {
  const repro_format f = format_of(type);
  wide w;
  memset(&w, 0, sizeof w);
  long double biggest = 0;
  for (size_t i = 0; i < n; i++) {
    const long double x = element(data, i, type);
    if (!isfinite(x) || x == 0)
      continue;
    biggest = fabsl(x) > biggest ? fabsl(x) : biggest;
    int e;
    frexpl(fabsl(x), &e); /* |x| = m * 2^(e - p), m an integer below 2^p */
    uint64_t m = (uint64_t)ldexpl(fabsl(x), f.p - e);
    int shift = e - f.p - f.denormal_low;
    for (; shift < 0; shift++)
      m >>= 1; /* denormals: only zero bits go */
    wide_add(&w, x < 0, m, shift);
  }
  *max_abs = biggest;
  const int negative = wide_abs(&w), top = wide_top(&w);
  long double sum = 0;
  for (int i = top; i >= 0 && i > top - 64; i--)
    sum += ldexpl((long double)wide_bit(&w, i), i + f.denormal_low);
  return negative ? -sum : sum;
}

long double test_repro_bound(size_t n, ocl_reduce_type type, long double max_abs,
                             long double result) {
  const repro_format f = format_of(type);
  int e = 0;
  frexpl(fabsl(result), &e);
  const long double half_ulp = result == 0 ? 0 : ldexpl(1.0L, e - f.p - 1);
  return (long double)n * ldexpl(max_abs, -(f.k - 1) * f.w) + half_ulp;
}
