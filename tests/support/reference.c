/* =================================================================================================
 * reference.c: test data, host references and comparisons (reference.h). The references are
 * written from the documented semantics, not from the library's code: integers in exact unsigned
 * arithmetic, floats in long double, min/max in IEEE 754-2019 (NaN wins, -0.0 below +0.0).
 * ============================================================================================== */
#include "support/reference.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Random numbers (splitmix64) ------------------------------------------------------------ */

static uint64_t rng_state;

void test_rng_init(void) {
  const char *seed = getenv("OCL_REDUCE_TEST_SEED");
  rng_state = seed ? strtoull(seed, NULL, 0) : (uint64_t)time(NULL) ^ (uint64_t)clock();
  printf("# OCL_REDUCE_TEST_SEED=%" PRIu64 "\n", rng_state);
}

void test_rng_seed(uint64_t seed) { rng_state = seed; }

uint64_t test_rng_next(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

uint64_t test_rng_below(uint64_t bound) { return test_rng_next() % bound; }

double test_rng_unit(void) { return (double)(test_rng_next() >> 11) * 0x1p-53; }

/* ---- Data --------------------------------------------------------------------------------------- */

static const char *const mode_names[MODE_COUNT] = {
    [MODE_RANDOM] = "random",   [MODE_EXACT] = "exact", [MODE_CONSTANT] = "constant",
    [MODE_NAN] = "nan",         [MODE_INF] = "inf",     [MODE_INFS] = "+-inf",
    [MODE_ZEROS] = "signed-zeros", [MODE_HUGE] = "huge", [MODE_EXTREMES] = "extremes",
};

const char *test_mode_name(test_mode mode) { return mode_names[mode]; }

static int is_float(ocl_reduce_type type) {
  return type == OCL_REDUCE_F32 || type == OCL_REDUCE_F64 || type == OCL_REDUCE_F16 ||
         type == OCL_REDUCE_BF16;
}

/* 16-bit floats, converted here independently of the library: f16 by the compiler's _Float16
 * (IEEE's conversions), bf16 as an f32's top half rounded to nearest even. */
static int narrow(ocl_reduce_type type) {
  return type == OCL_REDUCE_F16 || type == OCL_REDUCE_BF16;
}

static uint16_t narrow_bits(ocl_reduce_type type, double x) {
  uint16_t h;
  if (type == OCL_REDUCE_F16) {
    const _Float16 f = (_Float16)x;
    memcpy(&h, &f, 2);
    return h;
  }
  const float f = (float)x;
  uint32_t u;
  memcpy(&u, &f, 4);
  if (isnan(f))
    return (uint16_t)((u >> 16) | 0x40u);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float test_narrow_value(ocl_reduce_type type, uint16_t h) {
  if (type == OCL_REDUCE_F16) {
    _Float16 f;
    memcpy(&f, &h, 2);
    return (float)f;
  }
  const uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Whether op's result on type is a 16-bit element (MIN and MAX), else an f32 (the sums). */
static int narrow_result(ocl_reduce_op op, ocl_reduce_type type) {
  return narrow(type) && (op == OCL_REDUCE_MIN || op == OCL_REDUCE_MAX);
}

int test_mode_applies(test_mode mode, ocl_reduce_type type) {
  switch (mode) {
  case MODE_RANDOM:
  case MODE_CONSTANT:
    return 1;
  case MODE_EXTREMES:
    return !is_float(type);
  default:
    return is_float(type);
  }
}

/* Per element, so not the library's ocl_reduce_type_size (a call into it per element was a tenth of
 * the sweeps' time). */
static int four_bytes(ocl_reduce_type type) {
  return type == OCL_REDUCE_I32 || type == OCL_REDUCE_U32 || type == OCL_REDUCE_F32;
}

static void put_int(void *data, size_t i, ocl_reduce_type type, uint64_t bits) {
  if (four_bytes(type))
    ((uint32_t *)data)[i] = (uint32_t)bits;
  else
    ((uint64_t *)data)[i] = bits;
}

static void put_float(void *data, size_t i, ocl_reduce_type type, double x) {
  if (narrow(type))
    ((uint16_t *)data)[i] = narrow_bits(type, x);
  else if (type == OCL_REDUCE_F32)
    ((float *)data)[i] = (float)x;
  else
    ((double *)data)[i] = x;
}

/* Random bits with each bit set with probability 15/16 (mostly ones) or 1/16 (mostly zeros), so
 * that AND and OR of many elements do not collapse to a constant at once. */
static uint64_t sparse_bits(int mostly_ones) {
  uint64_t r = test_rng_next() | test_rng_next() | test_rng_next() | test_rng_next();
  return mostly_ones ? r : ~r;
}

static void fill_int(void *data, size_t n, ocl_reduce_op op, ocl_reduce_type type,
                     test_mode mode) {
  const int wide = ocl_reduce_type_size(type) == 8;
  const int is_signed = type == OCL_REDUCE_I32 || type == OCL_REDUCE_I64;
  const uint64_t constant = test_rng_next() | 1;
  for (size_t i = 0; i < n; i++) {
    uint64_t v;
    if (mode == MODE_CONSTANT) {
      v = constant;
    } else if (mode == MODE_EXTREMES) {
      const uint64_t max = wide ? (is_signed ? (uint64_t)INT64_MAX : UINT64_MAX)
                                : (is_signed ? (uint64_t)INT32_MAX : UINT32_MAX);
      const uint64_t min = is_signed ? (wide ? (uint64_t)INT64_MIN : (uint64_t)(uint32_t)INT32_MIN)
                                     : 0;
      const uint64_t choices[] = {max, min, 0, 1, wide ? UINT64_MAX : UINT32_MAX, max - 1};
      v = choices[test_rng_below(6)];
    } else if (op == OCL_REDUCE_PROD) {
      v = test_rng_next() | 1; /* odd: the wrapped product never collapses to 0 */
    } else if (op == OCL_REDUCE_AND || op == OCL_REDUCE_OR) {
      v = sparse_bits(op == OCL_REDUCE_AND);
    } else {
      v = test_rng_next();
    }
    put_int(data, i, type, v);
  }
}

static void fill_float(void *data, size_t n, ocl_reduce_op op, ocl_reduce_type type,
                       test_mode mode) {
  const double max = type == OCL_REDUCE_F16   ? 65504.0
                     : type == OCL_REDUCE_F32 || type == OCL_REDUCE_BF16 ? FLT_MAX
                                                                         : DBL_MAX;
  const double constant = op == OCL_REDUCE_SUM ? 1.0 : op == OCL_REDUCE_PROD ? -1.0
                                                                             : 2 * test_rng_unit() - 1;
  /* EXACT sums: small integers whose partial sums stay exact (|sum| < 2^24 for f32). */
  const int range = (type == OCL_REDUCE_F32 && n > (1u << 20)) ? 1 : 8;
  /* EXACT products: +-1, with at most 60 factors of 2 or 1/2, so no partial product leaves range. */
  size_t scaled = 0;
  for (size_t i = 0; i < n; i++) {
    double x = 0;
    switch (mode) {
    case MODE_RANDOM:
      if (op == OCL_REDUCE_PROD) /* near 1: products of millions stay in range */
        x = 1.0 + (2 * test_rng_unit() - 1) * 0x1p-10;
      else
        x = 2 * test_rng_unit() - 1;
      break;
    case MODE_EXACT:
      if (op == OCL_REDUCE_PROD) {
        x = (test_rng_next() & 1) ? -1.0 : 1.0;
        if (scaled < 60 && test_rng_below(n / 60 + 1) == 0) {
          x *= (test_rng_next() & 1) ? 2.0 : 0.5;
          scaled++;
        }
      } else {
        x = (double)((int64_t)test_rng_below(2 * range + 1) - range);
      }
      break;
    case MODE_CONSTANT:
      x = constant;
      break;
    case MODE_NAN:
      /* NaNs of both signs: an implementation may order them by their bits. */
      x = test_rng_below(8) == 0 ? (test_rng_below(2) ? NAN : -NAN) : 2 * test_rng_unit() - 1;
      break;
    case MODE_INF:
      x = test_rng_below(8) == 0 ? INFINITY : 1 + test_rng_unit();
      break;
    case MODE_INFS: {
      uint64_t r = test_rng_below(8);
      x = r == 0 ? INFINITY : r == 1 ? -INFINITY : 1 + test_rng_unit();
      break;
    }
    case MODE_ZEROS:
      x = (test_rng_next() & 1) ? -0.0 : 0.0;
      break;
    case MODE_HUGE:
      x = max * (0.5 + 0.5 * test_rng_unit());
      break;
    default:
      break;
    }
    put_float(data, i, type, x);
  }
  /* Make the special value appear at least once, at a random place (also the first or last). */
  if (n > 0 && (mode == MODE_NAN || mode == MODE_INF || mode == MODE_INFS)) {
    size_t at = test_rng_below(3) == 0 ? (test_rng_next() & 1 ? 0 : n - 1) : test_rng_below(n);
    put_float(data, at, type, mode == MODE_NAN ? NAN : INFINITY);
    if (mode == MODE_INFS && n > 1)
      put_float(data, at == 0 ? n - 1 : 0, type, -INFINITY);
  }
}

void test_fill(void *data, size_t n, ocl_reduce_op op, ocl_reduce_type type, test_mode mode) {
  if (is_float(type))
    fill_float(data, n, op, type, mode);
  else
    fill_int(data, n, op, type, mode);
}

/* ---- References ------------------------------------------------------------------------------ */

static uint64_t get_bits(const void *data, size_t i, ocl_reduce_type type) {
  return four_bytes(type) ? ((const uint32_t *)data)[i] : ((const uint64_t *)data)[i];
}

static long double get_float(const void *data, size_t i, ocl_reduce_type type) {
  if (narrow(type))
    return test_narrow_value(type, ((const uint16_t *)data)[i]);
  return type == OCL_REDUCE_F32 ? ((const float *)data)[i] : ((const double *)data)[i];
}

/* Signed view of the low bits of an integer element. */
static int64_t as_signed(uint64_t bits, ocl_reduce_type type) {
  return type == OCL_REDUCE_I32 ? (int64_t)(int32_t)(uint32_t)bits : (int64_t)bits;
}

static test_reference reduce_int(const void *data, size_t n, ocl_reduce_op op,
                                 ocl_reduce_type type) {
  const int wide = ocl_reduce_type_size(type) == 8;
  const int is_signed = type == OCL_REDUCE_I32 || type == OCL_REDUCE_I64;
  const uint64_t mask = wide ? UINT64_MAX : UINT32_MAX;
  uint64_t acc;
  switch (test_op_index(op)) {
  case T_SUM: acc = 0; break;
  case T_PROD: acc = 1; break;
  case T_AND: acc = mask; break;
  case T_MIN: acc = is_signed ? (wide ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX) : mask; break;
  case T_MAX:
    acc = is_signed ? (wide ? (uint64_t)INT64_MIN : (uint64_t)(uint32_t)INT32_MIN) : 0;
    break;
  default: acc = 0; break;
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t x = get_bits(data, i, type);
    switch (test_op_index(op)) {
    case T_SUM: acc = (acc + x) & mask; break;
    case T_PROD: acc = (acc * x) & mask; break;
    case T_AND: acc &= x; break;
    case T_OR: acc |= x; break;
    case T_XOR: acc ^= x; break;
    case T_MIN:
      if (is_signed ? as_signed(x, type) < as_signed(acc, type) : x < acc)
        acc = x;
      break;
    case T_MAX:
      if (is_signed ? as_signed(x, type) > as_signed(acc, type) : x > acc)
        acc = x;
      break;
    default: /* structured operators: tests/support/structured.c */
      break;
    }
  }
  test_reference r;
  memset(&r, 0, sizeof r);
  if (wide)
    r.value.u64 = acc;
  else
    r.value.u32 = (uint32_t)acc;
  return r;
}

/* IEEE 754-2019 minimum (want_min) or maximum: NaN wins; -0.0 orders below +0.0. */
static long double ieee_minmax(long double a, long double b, int want_min) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == b) /* equal values differ at most in the sign of zero */
    return ((signbit(a) != 0) == want_min) ? a : b;
  return (a < b) == want_min ? a : b;
}

/* The result of op on type: 16-bit elements' sums are f32 (the library sums them in f32). */
static void set_float(test_value *v, ocl_reduce_op op, ocl_reduce_type type, long double x) {
  if (narrow_result(op, type)) {
    memset(v, 0, sizeof *v);
    const uint16_t h = narrow_bits(type, (double)x);
    memcpy(v->bytes, &h, 2);
  } else if (type == OCL_REDUCE_F32 || narrow(type))
    v->f32 = (float)x;
  else
    v->f64 = (double)x;
}

static test_reference reduce_float(const void *data, size_t n, ocl_reduce_op op,
                                   ocl_reduce_type type, test_mode mode) {
  test_reference r;
  memset(&r, 0, sizeof r);
  const long double unit = type == OCL_REDUCE_F64 ? 0x1p-53L : 0x1p-24L; /* 16-bit: f32 sums */
  long double acc = op == OCL_REDUCE_PROD ? 1.0L
                    : op == OCL_REDUCE_MIN ? (long double)INFINITY
                    : op == OCL_REDUCE_MAX ? -(long double)INFINITY
                                           : 0.0L;
  long double magnitude = 0; /* sum of |x|, for the error bound of sums */
  for (size_t i = 0; i < n && !isnan(acc); i++) { /* a NaN stays (x87 on it is slow, too) */
    long double x = get_float(data, i, type);
    switch (test_op_index(op)) {
    case T_SUM:
      acc += x;
      magnitude += fabsl(x);
      break;
    case T_PROD: acc *= x; break;
    case T_MIN:
    case T_MAX: acc = ieee_minmax(acc, x, op == OCL_REDUCE_MIN); break;
    default:
      break;
    }
  }
  set_float(&r.value, op, type, acc);
  /* Random reals. Sums: the bound of a tree reduction, (log2 n + 2) u sum|x|; the data are
   * zero-mean and symmetric under x -> -x, so rounding errors do not pile up one way, and real
   * errors stay far below it. Products: values near 1 (else they overflow) do pile up a one-sided
   * rounding bias, linear in n (about 1e-4 relative at n = 2^20 over 256 chains, also on the
   * host), so they get the bound for any evaluation order, (n + 1) u |p|. The same holds where
   * random reals are mixed with NaN or infinities and a result stays finite (a segment without
   * them). The exact modes check every element to the bit (by value: -0.0 == +0.0). */
  /* 16-bit elements' huge values: their f32 sums and products round rather than overflow. */
  const int random_reals = mode == MODE_RANDOM || mode == MODE_NAN || mode == MODE_INF ||
                           mode == MODE_INFS || /* random reals among the special values */
                           (narrow(type) && mode == MODE_HUGE);
  if (random_reals && op == OCL_REDUCE_SUM)
    r.tolerance = (double)((log2l((long double)n + 1) + 2) * unit * magnitude);
  else if (random_reals && op == OCL_REDUCE_PROD)
    r.tolerance = (double)(((long double)n + 1) * unit * fabsl(acc));
  return r;
}

test_reference test_reduce_host(const void *data, size_t n, ocl_reduce_op op,
                                ocl_reduce_type type, test_mode mode) {
  return is_float(type) ? reduce_float(data, n, op, type, mode) : reduce_int(data, n, op, type);
}

/* ---- Comparison ------------------------------------------------------------------------------- */

void test_format(const test_value *v, ocl_reduce_type type, char *buf, size_t size) {
  switch (type) {
  case OCL_REDUCE_F16:
  case OCL_REDUCE_BF16: { /* a 16-bit result's bits, or an f32 sum's */
    uint16_t h;
    memcpy(&h, v->bytes, 2);
    snprintf(buf, size, "0x%04x (%.5g) or f32 %a (%.9g)", h, (double)test_narrow_value(type, h),
             (double)v->f32, (double)v->f32);
    break;
  }
  case OCL_REDUCE_I32: snprintf(buf, size, "%" PRId32, v->i32); break;
  case OCL_REDUCE_U32: snprintf(buf, size, "%" PRIu32, v->u32); break;
  case OCL_REDUCE_I64: snprintf(buf, size, "%" PRId64, v->i64); break;
  case OCL_REDUCE_U64: snprintf(buf, size, "%" PRIu64, v->u64); break;
  case OCL_REDUCE_F32: snprintf(buf, size, "%a (%.9g)", (double)v->f32, (double)v->f32); break;
  case OCL_REDUCE_F64: snprintf(buf, size, "%a (%.17g)", v->f64, v->f64); break;
  }
}

int test_matches(const test_value *got, const test_reference *ref, ocl_reduce_op op,
                 ocl_reduce_type type, char *why, size_t why_size) {
  int ok;
  if (!is_float(type)) {
    ok = memcmp(got->bytes, ref->value.bytes, ocl_reduce_type_size(type)) == 0;
  } else {
    uint16_t gh, eh;
    memcpy(&gh, got->bytes, 2);
    memcpy(&eh, ref->value.bytes, 2);
    const int wide = type == OCL_REDUCE_F64;
    double g = narrow_result(op, type) ? test_narrow_value(type, gh) : wide ? got->f64 : got->f32;
    double e = narrow_result(op, type) ? test_narrow_value(type, eh) : wide ? ref->value.f64
                                                                        : ref->value.f32;
    if (isnan(e) || isnan(g))
      ok = isnan(e) && isnan(g);
    else if (op == OCL_REDUCE_MIN || op == OCL_REDUCE_MAX)
      ok = memcmp(got->bytes, ref->value.bytes, ocl_reduce_result_size(op, type)) == 0;
    else if (isinf(e) || isinf(g) || ref->tolerance == 0)
      ok = g == e;
    else
      ok = fabs(g - e) <= ref->tolerance;
  }
  if (!ok) {
    char a[80], b[80];
    test_format(got, type, a, sizeof a);
    test_format(&ref->value, type, b, sizeof b);
    snprintf(why, why_size, "got %s, expected %s (tolerance %g)", a, b, ref->tolerance);
  }
  return ok;
}

/* ---- Sizes ------------------------------------------------------------------------------------- */

static int compare_sizes(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

size_t test_sizes(test_shape shape, int large, size_t *sizes, size_t capacity) {
  size_t count = 0;
#define ADD(x)                                                                                     \
  do {                                                                                             \
    if (count < capacity)                                                                          \
      sizes[count++] = (x);                                                                        \
  } while (0)
  static const size_t fixed[] = {0,   1,   2,   3,   4,    5,    7,    8,     9,     15,     16,
                                 17,  31,  32,  33,  63,   64,   65,   127,   129,   1021,   4093,
                                 8191, 65521, 65537, 131071, 1000003};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    ADD(fixed[i]);
  for (int k = 10; k <= 20; k += 2) {
    ADD(((size_t)1 << k) - 1);
    ADD((size_t)1 << k);
    ADD(((size_t)1 << k) + 1);
  }
  if (shape.subgroup > 1) {
    ADD(shape.subgroup - 1);
    ADD(shape.subgroup);
    ADD(shape.subgroup + 1);
  }
  if (shape.work_group > 1) {
    ADD(shape.work_group - 1);
    ADD(shape.work_group);
    ADD(shape.work_group + 1);
    ADD(2 * (size_t)shape.work_group + 1);
  }
  if (large)
    ADD(((size_t)1 << 22) + 7);
#undef ADD
  qsort(sizes, count, sizeof *sizes, compare_sizes);
  size_t unique = 0;
  for (size_t i = 0; i < count; i++)
    if (unique == 0 || sizes[unique - 1] != sizes[i])
      sizes[unique++] = sizes[i];
  return unique;
}

_Static_assert(T_OPERATORS == OCL_REDUCE_BUILTIN_OPS,
               "every built-in operator has its T_ index and its reference here");

int test_op_index(ocl_reduce_op op) {
  for (int i = 0; i < OCL_REDUCE_BUILTIN_OPS; i++)
    if (op == OCL_REDUCE_BUILTIN_OP(i))
      return i;
  return -1;
}

int test_op_structured(ocl_reduce_op op) {
  switch (test_op_index(op)) {
  case T_ARGMIN:
  case T_ARGMAX:
  case T_MINMAX:
  case T_SUM_WIDE:
  case T_SUM_COMPENSATED:
  case T_MEAN_VAR:
  case T_SUM_REPRODUCIBLE: return 1;
  default: return 0;
  }
}

int test_split_keeps_bits(ocl_reduce_op op, ocl_reduce_type type, test_mode mode) {
  const int is_float = type == OCL_REDUCE_F32 || type == OCL_REDUCE_F64 || narrow(type);
  switch (test_op_index(op)) {
  case T_MIN:
  case T_MAX: return mode != MODE_NAN;
  case T_ARGMIN:
  case T_ARGMAX:
  case T_MINMAX:
  case T_SUM_REPRODUCIBLE: return 1;
  case T_SUM_COMPENSATED:
  case T_MEAN_VAR: return 0;
  default: return !is_float;
  }
}

size_t test_key_runs(const void *keys, size_t key_bytes, size_t n, size_t *heads) {
  const unsigned char *k = keys;
  size_t runs = 0;
  for (size_t i = 0; i < n; i++)
    if (i == 0 || memcmp(k + i * key_bytes, k + (i - 1) * key_bytes, key_bytes) != 0)
      heads[runs++] = i;
  heads[runs] = n;
  return runs;
}
