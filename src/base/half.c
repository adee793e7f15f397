/* =================================================================================================
 * half.c: conversions between f32 and the 16-bit floats by their bits (half.h). f16 has 5
 * exponent bits (bias 15) and 10 mantissa bits; bf16 is the top half of an f32.
 * ============================================================================================== */
#include "base/half.h"

#include <math.h>
#include <string.h>

/* `value` >> `shift` rounded to nearest, ties to even (shift 1 .. 31). */
static uint32_t shift_to_even(uint32_t value, unsigned shift) {
  const uint32_t kept = value >> shift, rest = value & ((1u << shift) - 1);
  const uint32_t half = 1u << (shift - 1);
  return kept + (rest > half || (rest == half && (kept & 1u)));
}

uint16_t orx_f32_to_f16(float f) {
  const uint32_t u = orx_half_float_bits(f), sign = (u >> 16) & 0x8000u;
  const uint32_t exponent = (u >> 23) & 0xffu, mantissa = u & 0x7fffffu;
  if (exponent == 0xff) /* infinities; NaNs quiet */
    return (uint16_t)(sign | 0x7c00u | (mantissa ? 0x200u | mantissa >> 13 : 0));
  const int e = (int)exponent - 112; /* the f16 exponent field, before rounding */
  if (e >= 0x1f)
    return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) { /* a subnormal f16 or zero: the significand with its leading 1, shifted */
    if (e < -10)
      return (uint16_t)sign; /* below half the least subnormal */
    /* Carries into the exponent field make the least normal, as they should. */
    return (uint16_t)(sign | shift_to_even(mantissa | 0x800000u, (unsigned)(14 - e)));
  }
  /* Rounding may carry into the exponent, up to infinity: the bits add up to that. */
  return (uint16_t)(sign | (((uint32_t)e << 10) + shift_to_even(mantissa, 13)));
}

uint16_t orx_f32_to_bf16(float f) {
  const uint32_t u = orx_half_float_bits(f);
  if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu)) /* NaN: quiet, never rounded to inf */
    return (uint16_t)((u >> 16) | 0x40u);
  /* The low half rounded away, ties to even; a carry runs into the exponent (up to infinity). */
  return (uint16_t)(shift_to_even(u, 16));
}

uint16_t orx_half_from_f32(ocl_reduce_type type, float f) {
  return type == OCL_REDUCE_F16    ? orx_f32_to_f16(f)
         : type == OCL_REDUCE_BF16 ? orx_f32_to_bf16(f)
                                   : 0;
}

float orx_half_to_f32(ocl_reduce_type type, uint16_t h) {
  return type == OCL_REDUCE_F16    ? orx_f16_to_f32(h)
         : type == OCL_REDUCE_BF16 ? orx_bf16_to_f32(h)
                                   : NAN;
}
