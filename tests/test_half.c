/* =================================================================================================
 * test_half.c: the host's 16-bit float conversions (src/base/half.h). f16 against GCC's _Float16
 * (its conversions are IEEE's, rounding to nearest even): every one of the 65,536 patterns to
 * f32 and back, and f32 values from every binade around f16's range, its midpoints (ties to
 * even), and random bits. bf16 against a reference in double arithmetic: the nearer of the two
 * bf16 values around each f32, ties to the even one. NaNs compare as NaNs of the same sign.
 * Needs no OpenCL device.
 * ============================================================================================== */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/half.h"
#include "support/fixture.h"
#include "support/reference.h"

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static uint16_t gcc_f16_bits(float f) {
  const _Float16 h = (_Float16)f;
  uint16_t u;
  memcpy(&u, &h, sizeof u);
  return u;
}

static int f16_is_nan(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu); }

/* f32 -> f16 of f against GCC's: the same bits, or NaNs of the same sign. */
static void expect_f16_of(float f) {
  const uint16_t ours = orx_f32_to_f16(f), gcc = gcc_f16_bits(f);
  if (ours == gcc || (f16_is_nan(ours) && f16_is_nan(gcc) && (ours ^ gcc) < 0x8000u))
    return;
  fail_msg("f32 0x%08x -> f16: 0x%04x, _Float16 gives 0x%04x", (unsigned)bits(f), ours, gcc);
}

static void test_every_f16_to_f32_and_back(void **state) {
  (void)state;
  for (uint32_t h = 0; h < 0x10000u; h++) {
    _Float16 g;
    const uint16_t h16 = (uint16_t)h;
    memcpy(&g, &h16, sizeof g);
    const float ours = orx_f16_to_f32(h16), gcc = (float)g;
    if (f16_is_nan(h16)) {
      assert_true(isnan(ours) && signbit(ours) == signbit(gcc));
      assert_true(f16_is_nan(orx_f32_to_f16(ours)));
      continue;
    }
    if (bits(ours) != bits(gcc))
      fail_msg("f16 0x%04x -> f32 0x%08x, _Float16 gives 0x%08x", (unsigned)h, (unsigned)bits(ours),
               (unsigned)bits(gcc));
    assert_int_equal(orx_f32_to_f16(ours), h16); /* exact both ways */
  }
}

static void test_f32_to_f16_rounds_to_nearest_even(void **state) {
  (void)state;
  /* Each f16 value's neighbourhood: the midpoints to the next (ties), and the f32 values one
   * ulp around them, across the subnormals, the normals and the overflow to infinity. */
  for (uint32_t h = 0; h < 0x7c00u; h++) {
    const float lo = orx_f16_to_f32((uint16_t)h), hi = orx_f16_to_f32((uint16_t)(h + 1));
    const float mid = (float)(((double)lo + (double)hi) / 2); /* exact: f16 has 11 bits */
    for (int sign = 0; sign < 2; sign++) {
      const float s = sign ? -1.0f : 1.0f;
      expect_f16_of(s * mid);
      expect_f16_of(s * nextafterf(mid, 0.0f));
      expect_f16_of(s * nextafterf(mid, INFINITY));
      expect_f16_of(s * lo);
    }
  }
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 65504.0f, 65519.99f,
                            65520.0f, 1e30f, -1e30f, 1e-30f, 5.9604645e-8f, 2.9802322e-8f,
                            2.9802326e-8f, 1.0f, 3.0f / 7.0f, FLT_MAX, FLT_MIN, FLT_TRUE_MIN};
  for (size_t k = 0; k < sizeof specials / sizeof *specials; k++) {
    expect_f16_of(specials[k]);
    expect_f16_of(-specials[k]);
  }
  /* Random bits, every exponent. */
  for (int k = 0; k < 1 << 20; k++)
    expect_f16_of(from_bits((uint32_t)test_rng_next()));
}

/* The bf16 nearest f in double arithmetic, ties to the even pattern. Past the largest finite,
 * infinity stands where the next value would be (2^128), as IEEE's rounding has it. */
static uint16_t reference_bf16(float f) {
  const uint32_t u = bits(f);
  const uint16_t down = (uint16_t)(u >> 16), up = (uint16_t)(down + 1);
  if (isinf(f)) /* exact (and the distances below would be inf - inf) */
    return down;
  const double d = f, below = orx_bf16_to_f32(down);
  const double above = (down & 0x7fffu) == 0x7f7fu ? copysign(ldexp(1.0, 128), d)
                                                    : (double)orx_bf16_to_f32(up);
  const double to_below = fabs(d - below), to_above = fabs(above - d); /* exact in double */
  if (to_below != to_above)
    return to_below < to_above ? down : up;
  return (down & 1u) ? up : down;
}

static void expect_bf16_of(float f) {
  const uint16_t ours = orx_f32_to_bf16(f);
  if (isnan(f)) {
    assert_true(isnan(orx_bf16_to_f32(ours)));
    assert_int_equal(ours >> 15, bits(f) >> 31);
    return;
  }
  const uint16_t want = reference_bf16(f);
  if (ours != want)
    fail_msg("f32 0x%08x -> bf16 0x%04x, the nearest is 0x%04x", (unsigned)bits(f), ours, want);
}

static void test_bf16_both_ways(void **state) {
  (void)state;
  for (uint32_t h = 0; h < 0x10000u; h++) { /* every pattern to f32 and back, exactly */
    const float f = orx_bf16_to_f32((uint16_t)h);
    assert_int_equal(bits(f), h << 16);
    if (!isnan(f))
      assert_int_equal(orx_f32_to_bf16(f), h);
    else
      assert_true(isnan(orx_bf16_to_f32(orx_f32_to_bf16(f))));
  }
  for (uint32_t h = 0; h < 0x7f80u; h++) /* ties, and one f32 ulp around them */
    for (uint32_t low = 0x7fffu; low <= 0x8001u; low++) {
      expect_bf16_of(from_bits(h << 16 | low));
      expect_bf16_of(from_bits((h | 0x8000u) << 16 | low));
    }
  for (int k = 0; k < 1 << 20; k++)
    expect_bf16_of(from_bits((uint32_t)test_rng_next()));
  expect_bf16_of(FLT_MAX);
  expect_bf16_of(-FLT_MAX);
  expect_bf16_of(INFINITY); /* random bits hit them once in about 2048 runs */
  expect_bf16_of(-INFINITY);
  expect_bf16_of(NAN);
  expect_bf16_of(from_bits(0x7f800001u)); /* a NaN whose payload the rounding would clear */
}

int main(void) {
  test_rng_init();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_f16_to_f32_and_back),
      cmocka_unit_test(test_f32_to_f16_rounds_to_nearest_even),
      cmocka_unit_test(test_bf16_both_ways),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
