/* =================================================================================================
 * omp_dispatch.c: the OpenMP contender's loops for the CPU at hand. They are compiled once per
 * instruction set (tools/CMakeLists.txt renames each copy's entry points with its suffix), so
 * that the installed tool runs on any CPU of its architecture and still measures the best plain
 * C loop of this one: x86-64-v4 (AVX-512), x86-64-v3 (AVX2, FMA), else the architecture's
 * baseline.
 * ============================================================================================== */
#include "omp_baseline.h"

#define OMP_VARIANT_DECLARE(SUFFIX)                                                                \
  int omp_reduce_##SUFFIX(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n,    \
                          void *result);                                                           \
  int omp_reduce_structured_##SUFFIX(ocl_reduce_op op, ocl_reduce_type type, const void *data,   \
                                     size_t n, void *result);                                      \
  int omp_reduce_segments_##SUFFIX(ocl_reduce_op op, ocl_reduce_type type, const void *data,     \
                                   size_t count, size_t length, void *results);
OMP_VARIANT_DECLARE(base)
#ifdef ORX_OMP_X86_VARIANTS
OMP_VARIANT_DECLARE(v3)
OMP_VARIANT_DECLARE(v4)
#endif

/* 4: x86-64-v4, 3: x86-64-v3, 0: the baseline. */
static int level(void) {
#ifdef ORX_OMP_X86_VARIANTS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return 4;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("bmi2"))
    return 3;
#endif
  return 0;
}

const char *omp_instruction_set(void) {
  switch (level()) {
  case 4: return "x86-64-v4";
  case 3: return "x86-64-v3";
  default: return "baseline";
  }
}

#ifdef ORX_OMP_X86_VARIANTS
#define OMP_DISPATCH(NAME, ...)                                                                    \
  switch (level()) {                                                                               \
  case 4: return NAME##_v4(__VA_ARGS__);                                                           \
  case 3: return NAME##_v3(__VA_ARGS__);                                                           \
  default: return NAME##_base(__VA_ARGS__);                                                        \
  }
#else
#define OMP_DISPATCH(NAME, ...) return NAME##_base(__VA_ARGS__);
#endif

int omp_reduce(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n, void *result) {
  OMP_DISPATCH(omp_reduce, op, type, data, n, result)
}

int omp_reduce_structured(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n,
                          void *result) {
  OMP_DISPATCH(omp_reduce_structured, op, type, data, n, result)
}

int omp_reduce_segments(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t count,
                        size_t length, void *results) {
  OMP_DISPATCH(omp_reduce_segments, op, type, data, count, length, results)
}
