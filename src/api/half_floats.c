/* =================================================================================================
 * half_floats.c: the 16-bit floats' conversions as the public API gives them (ocl_reduce.h), the
 * host's own (base/half.c).
 * ============================================================================================== */
#include "base/half.h"
#include "ocl_reduce.h"

uint16_t ocl_reduce_half_from_float(ocl_reduce_type type, float value) {
  return orx_half_from_f32(type, value);
}

float ocl_reduce_float_from_half(ocl_reduce_type type, uint16_t bits) {
  return orx_half_to_f32(type, bits);
}
