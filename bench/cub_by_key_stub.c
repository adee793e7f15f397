/* =================================================================================================
 * cub_by_key_stub.c: bench_by_key built without its CUDA anchor (cub_by_key.cu needs nvcc and
 * CUB: OCL_REDUCE_BENCH_BY_KEY_ANCHOR).
 * ============================================================================================== */
#include <stdio.h>

#include "bench_by_key.h"

int cub_by_key_time(const key_case *c, const void *keys, const void *values, uint64_t runs,
                    const double *want, int rounds, double seconds[2], char *why,
                    size_t why_size) {
  (void)c, (void)keys, (void)values, (void)runs, (void)want, (void)rounds, (void)seconds;
  snprintf(why, why_size, "built without the CUDA anchor (OCL_REDUCE_BENCH_BY_KEY_ANCHOR=OFF)");
  return 0;
}
