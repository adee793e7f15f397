/* =================================================================================================
 * omp_support.c: what the OpenMP contender needs besides its loops (see omp_baseline.h): threads,
 * resting them, huge pages and the copy bandwidth. Compiled once, for any CPU of the
 * architecture.
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* madvise */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "omp_baseline.h"

int omp_threads(void) { return omp_get_max_threads(); }

void omp_rest(void) { (void)omp_pause_resource_all(omp_pause_soft); }

void *alloc_huge_pages(size_t bytes) {
  const size_t huge = (size_t)2 << 20;
  size_t rounded = (bytes + huge - 1) / huge * huge;
  void *p = aligned_alloc(huge, rounded);
#ifdef MADV_HUGEPAGE
  if (p)
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double omp_copy_bandwidth(size_t bytes) {
  char *a = alloc_huge_pages(bytes), *b = alloc_huge_pages(bytes);
  double best[9];
  int count = 0;
  if (a && b) {
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    for (int r = -2; r < 9; r++) {
      double t0 = omp_get_wtime();
#pragma omp parallel
      {
        size_t threads = (size_t)omp_get_num_threads(), me = (size_t)omp_get_thread_num();
        size_t chunk = (bytes / threads + 63) / 64 * 64;
        size_t begin = me * chunk < bytes ? me * chunk : bytes;
        size_t end = begin + chunk < bytes ? begin + chunk : bytes;
        memcpy(b + begin, a + begin, end - begin);
      }
      double t = omp_get_wtime() - t0;
      if (r >= 0)
        best[count++] = t;
    }
  }
  free(a);
  free(b);
  omp_rest();
  if (!count)
    return 0;
  qsort(best, (size_t)count, sizeof best[0], compare_doubles);
  return 2.0 * (double)bytes / best[count / 2] * 1e-9;
}
