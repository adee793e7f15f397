/* =================================================================================================
 * half.h: the 16-bit floats (IEEE binary16, "f16", and bfloat16, "bf16") as the host reads and
 * writes them: to f32 exactly (every 16-bit value is an f32), and from f32 rounded to nearest,
 * ties to even (the kernels convert only exact values back: lib/orx_types.cl). NaN stays NaN
 * with its sign (quiet, its payload's high bits kept); infinities and signed zeros are kept.
 * docs/design/half-and-pairs.md says where they are used.
 * ============================================================================================== */
#ifndef ORX_HALF_H
#define ORX_HALF_H

#include <stdint.h>

#include "ocl_reduce.h"

float orx_f16_to_f32(uint16_t h);
uint16_t orx_f32_to_f16(float f);
float orx_bf16_to_f32(uint16_t h);
uint16_t orx_f32_to_bf16(float f);
/* By the type (f16 or bf16; any other type: 0, and NaN), as ocl_reduce_half_from_float and
 * ocl_reduce_float_from_half give them. */
uint16_t orx_half_from_f32(ocl_reduce_type type, float f);
float orx_half_to_f32(ocl_reduce_type type, uint16_t h);

#endif /* ORX_HALF_H */
