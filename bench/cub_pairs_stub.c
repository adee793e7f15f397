/* =================================================================================================
 * cub_pairs_stub.c: bench_pairs built without its CUDA anchors (cub_pairs.cu needs nvcc, CUB and
 * cuBLAS: OCL_REDUCE_BENCH_PAIR_ANCHORS).
 * ============================================================================================== */
#include <stdio.h>

#include "bench_pairs.h"

int cub_pairs_anchors(const pairs_case *c, const void *a, const void *b, const double *want,
                      double tolerance, int rounds, pairs_anchor anchors[PAIRS_ANCHORS], char *why,
                      size_t why_size) {
  (void)c, (void)a, (void)b, (void)want, (void)tolerance, (void)rounds, (void)anchors;
  snprintf(why, why_size, "built without the CUDA anchors (OCL_REDUCE_BENCH_PAIR_ANCHORS=OFF)");
  return 0;
}
