/* =================================================================================================
 * cub_stub.c: the CUB contender when the tool is built without the CUDA toolkit: it reports
 * itself unavailable (cub_contender.cu is the real one).
 * ============================================================================================== */
#include <stdio.h>

#include "bench.h"

int contender_cub(contender *c, char *why, size_t why_size) {
  (void)c;
  snprintf(why, why_size, "the tool was built without the CUDA toolkit");
  return 0;
}

double cuda_copy_bandwidth(size_t bytes) {
  (void)bytes;
  return 0;
}

double cub_enqueued_sums(size_t n, int calls, int rounds, char *why, size_t why_size) {
  (void)n;
  (void)calls;
  (void)rounds;
  snprintf(why, why_size, "the tool was built without the CUDA toolkit");
  return -1;
}
