/* =================================================================================================
 * fuzz_subject.c: what a case reduces and how its result is judged (fuzz.h). Built-in operators
 * on every type they take, scalar ones also on the special-value modes (NaN, infinities, signed
 * zeros, extremes); user operators from tests/support, order-keeping and not. Judgement: exact for
 * integers, MIN, MAX, bitwise operators, ARGMIN/ARGMAX/MINMAX and user operators but AFFINE (its
 * own rounding bound); SUM_REPRODUCIBLE bit for bit against its host definition; float sums of
 * random reals within the rigorous bound of any order of addition, gamma(n - 1) sum |x|.
 * ============================================================================================== */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "support/structured.h"

/* F64 last: devices without double precision draw the others. */
static const ocl_reduce_type types[] = {OCL_REDUCE_I32, OCL_REDUCE_U32, OCL_REDUCE_I64,
                                        OCL_REDUCE_U64, OCL_REDUCE_F16, OCL_REDUCE_BF16,
                                        OCL_REDUCE_F32, OCL_REDUCE_F64};

ocl_reduce_type fuzz_pick_type(const fuzz_run *run) {
  const size_t choices = sizeof types / sizeof types[0] - (run->has_fp64 ? 0 : 1);
  return types[test_rng_below(choices)];
}

static test_mode pick_mode(ocl_reduce_op op, ocl_reduce_type type) {
  if (test_op_structured(op) || test_rng_below(3) != 0)
    return MODE_RANDOM;
  for (;;) {
    const test_mode mode = (test_mode)test_rng_below(MODE_COUNT);
    if (test_mode_applies(mode, type))
      return mode;
  }
}

static fuzz_subject builtin(ocl_reduce_op op, ocl_reduce_type type) {
  fuzz_subject s = {op,
                    type,
                    pick_mode(op, type),
                    -1,
                    -1,
                    ocl_reduce_type_size(type),
                    ocl_reduce_result_size(op, type)};
  return s;
}

fuzz_subject fuzz_subject_builtin(fuzz_run *run, ocl_reduce_type type) {
  for (;;) {
    const ocl_reduce_op op = OCL_REDUCE_BUILTIN_OP(test_rng_below(OCL_REDUCE_BUILTIN_OPS));
    if (ocl_reduce_result_size(op, type) != 0 && op != OCL_REDUCE_PROD) {
      fuzz_subject s = builtin(op, type);
      s.mode = MODE_RANDOM; /* one data for every operator of the call */
      (void)run;
      return s;
    }
  }
}

fuzz_subject fuzz_subject_pick(fuzz_run *run, int users, int index_free) {
  if (users && test_rng_below(4) == 0) {
    fuzz_subject s = {0};
    s.type = OCL_REDUCE_OP_ELEMENT;
    s.mode = MODE_RANDOM;
    s.ordered = s.custom = -1;
    const ocl_reduce_operator_desc *desc;
    if (test_rng_below(2) == 0) {
      do /* AFFINE is there only with fp64 */
        s.ordered = (int)test_rng_below(TEST_ORDERED_COUNT);
      while (!run->ordered[s.ordered]);
      s.op = run->ordered[s.ordered];
      desc = &test_ordered_descs[s.ordered];
    } else {
      do
        s.custom = (int)test_rng_below(TEST_CUSTOM_COUNT);
      while (index_free && s.custom == TEST_ABOVE);
      s.op = run->custom[s.custom];
      desc = &test_custom_descs[s.custom];
    }
    s.element_size = desc->element_size;
    s.result_size = desc->state_size;
    return s;
  }
  const ocl_reduce_type type = fuzz_pick_type(run);
  for (;;) {
    const ocl_reduce_op op = OCL_REDUCE_BUILTIN_OP(test_rng_below(OCL_REDUCE_BUILTIN_OPS));
    if (ocl_reduce_result_size(op, type) != 0)
      return builtin(op, type);
  }
}

void fuzz_subject_name(const fuzz_subject *s, char *text, size_t size) {
  if (s->ordered >= 0)
    snprintf(text, size, "%s (user, order kept)", test_ordered_names[s->ordered]);
  else if (s->custom >= 0)
    snprintf(text, size, "%s (user, commutative)", test_custom_names[s->custom]);
  else
    snprintf(text, size, "%s %s (%s)", ocl_reduce_op_name(s->op), ocl_reduce_type_name(s->type),
             test_mode_name(s->mode));
}

void fuzz_subject_fill(const fuzz_subject *s, void *data, size_t n) {
  if (s->ordered >= 0)
    test_ordered_fill((test_ordered)s->ordered, data, n);
  else if (s->custom >= 0)
    test_custom_fill((test_custom)s->custom, data, n);
  else
    test_fill(data, n, s->op, s->type, s->mode);
}

/* A float sum of random reals: |got - sum| <= gamma(n - 1) sum |x|, gamma(k) = k u / (1 - k u),
 * for every order of n - 1 additions in the type's precision. The long double reference adds
 * its own error, at most n 2^-63 sum |x|, to the bound. */
static int float_sum_matches(const fuzz_subject *s, const void *got, const void *data, size_t n,
                             char *why, size_t why_size) {
  const int f32 = s->type == OCL_REDUCE_F32;
  long double sum = 0, magnitude = 0;
  for (size_t i = 0; i < n; i++) {
    const long double x = f32 ? ((const float *)data)[i] : ((const double *)data)[i];
    sum += x;
    magnitude += fabsl(x);
  }
  float g32;
  double g64;
  memcpy(f32 ? (void *)&g32 : (void *)&g64, got, f32 ? sizeof g32 : sizeof g64);
  const long double value = f32 ? g32 : g64;
  const long double u = f32 ? 0x1p-24L : 0x1p-53L;
  const long double k = n > 0 ? (long double)(n - 1) : 0;
  const long double bound = k * u / (1 - k * u) * magnitude + (long double)n * 0x1p-63L * magnitude;
  if (isfinite((double)value) && fabsl(value - sum) <= bound)
    return 1;
  snprintf(why, why_size, "got %.17Lg, sum %.17Lg, |error| %.3Lg above the bound %.3Lg", value, sum,
           fabsl(value - sum), bound);
  return 0;
}

int fuzz_subject_matches(const fuzz_subject *s, const void *got, const void *data, size_t n,
                         uint64_t first, char *why, size_t why_size) {
  if (s->ordered >= 0) {
    if (test_ordered_matches((test_ordered)s->ordered, data, n, got))
      return 1;
    snprintf(why, why_size, "not the fold in index order");
    return 0;
  }
  if (s->custom >= 0) {
    unsigned char want[64];
    test_custom_reference((test_custom)s->custom, data, n, want);
    if (memcmp(got, want, s->result_size) == 0)
      return 1;
    snprintf(why, why_size, "not the host's fold");
    return 0;
  }
  const int index = test_op_index(s->op);
  if (index == T_ARGMIN || index == T_ARGMAX) {
    ocl_reduce_arg arg;
    memcpy(&arg, got, sizeof arg);
    if (arg.index != UINT64_MAX) {
      if (arg.index < first) {
        snprintf(why, why_size, "index %llu before the range's first, %llu",
                 (unsigned long long)arg.index, (unsigned long long)first);
        return 0;
      }
      arg.index -= first;
    }
    return test_result_matches(&arg, data, n, s->op, s->type, why, why_size);
  }
  if (index == T_SUM && s->mode == MODE_RANDOM &&
      (s->type == OCL_REDUCE_F32 || s->type == OCL_REDUCE_F64))
    return float_sum_matches(s, got, data, n, why, why_size);
  if (test_op_structured(s->op) || s->mode == MODE_RANDOM)
    return test_result_matches(got, data, n, s->op, s->type, why, why_size);
  const test_reference ref = test_reduce_host(data, n, s->op, s->type, s->mode);
  test_value v;
  memset(&v, 0, sizeof v);
  memcpy(v.bytes, got, s->result_size); /* 16-bit elements sum to f32 */
  return test_matches(&v, &ref, s->op, s->type, why, why_size);
}
