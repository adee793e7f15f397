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
#include <string.h>

#include "ocl_reduce.h"

/* The two widenings are inline and free of branches, so that the host kernels' loops over 16-bit
 * elements vectorize (src/host/host_prelude.h's vload_half): as a call per element, an f16 sum
 * of 2^24 from host memory on the calling thread and the context's took 10.3 ms on 2 cores
 * (PoCL 3.1's device: 0.7-1.0 ms; docs/perf/h200-half-step3.txt). */
static inline uint32_t orx_half_float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static inline float orx_half_bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
/* An f16's exponent and mantissa shifted into an f32's places are that f32 with an exponent 112
 * too small. Infinities and NaNs take the top exponent (NaNs quiet, the payload's bits kept);
 * subnormals and zeros are m * 2^-24, the f32 1.m * 2^-14 less 2^-14 (exact). The three are
 * chosen by masks, not ?: (which GCC 12 kept as branches: no vector of them). */
static inline float orx_f16_to_f32(uint16_t h) {
  const uint32_t magnitude = (uint32_t)(h & 0x7fffu) << 13;
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exponent = magnitude & 0x0f800000u;
  const uint32_t normal = magnitude + (112u << 23);
  const uint32_t quiet = (uint32_t)((magnitude & 0x7fe000u) != 0) << 22;
  const uint32_t special = (normal + (112u << 23)) | quiet;
  const uint32_t tiny = orx_half_float_bits(orx_half_bits_float(magnitude + (113u << 23)) -
                                            orx_half_bits_float(113u << 23));
  const uint32_t is_special = 0u - (uint32_t)(exponent == 0x0f800000u);
  const uint32_t is_tiny = 0u - (uint32_t)(exponent == 0);
  return orx_half_bits_float(sign | (special & is_special) | (tiny & is_tiny) |
                             (normal & ~(is_special | is_tiny)));
}
static inline float orx_bf16_to_f32(uint16_t h) { return orx_half_bits_float((uint32_t)h << 16); }
uint16_t orx_f32_to_f16(float f);
uint16_t orx_f32_to_bf16(float f);
/* By the type (f16 or bf16; any other type: 0, and NaN), as ocl_reduce_half_from_float and
 * ocl_reduce_float_from_half give them. */
uint16_t orx_half_from_f32(ocl_reduce_type type, float f);
float orx_half_to_f32(ocl_reduce_type type, uint16_t h);

#endif /* ORX_HALF_H */
