/* =================================================================================================
 * cub_axes_stub.c: the CUDA anchors of bench_axes.c where the tool is built without nvcc.
 * ============================================================================================== */
#include <stdio.h>

#include "bench_axes.h"

int cub_axes_anchors(const axes_case *c, const void *data, const void *want, int rounds,
                     axes_anchor anchors[AXES_ANCHORS], char *why, size_t why_size) {
  (void)c, (void)data, (void)want, (void)rounds, (void)anchors;
  snprintf(why, why_size, "built without the CUB contender (OCL_REDUCE_BENCH_CUB=ON and nvcc)");
  return 0;
}
