/* =================================================================================================
 * half_floats.c: the 16-bit floats' conversions as the public API gives them (ocl_reduce.h), the
 * host's own (base/half.c).
 * ============================================================================================== */
#include <math.h>

#include "base/half.h"
#include "ocl_reduce.h"

uint16_t ocl_reduce_half_from_float(ocl_reduce_type type, float value) {
  return type == OCL_REDUCE_F16 ? orx_f32_to_f16(value)
         : type == OCL_REDUCE_BF16 ? orx_f32_to_bf16(value)
                                   : 0;
}

float ocl_reduce_float_from_half(ocl_reduce_type type, uint16_t bits) {
  return type == OCL_REDUCE_F16 ? orx_f16_to_f32(bits)
         : type == OCL_REDUCE_BF16 ? orx_bf16_to_f32(bits)
                                   : NAN;
}
