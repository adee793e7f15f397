/* =================================================================================================
 * omp_windows.c: the CPU contender of bench_windows: f32 sliding-window sums, minima and maxima
 * with OpenMP, by the algorithm the library's planner takes for the window (a fold per window up
 * to 4 elements, else van Herk / Gil-Werman: a suffix scan of each block of `window` elements into
 * a buffer, then the next block's prefix scan completing every window that starts in it).
 * Compiled with -O3 -march=native.
 * ============================================================================================== */
#include <stdint.h>
#include <stdlib.h>

#include "omp_windows.h"

/* One pair of loops per operator, so that the compiler sees the combine. */
#define OMP_SUM(a, b) ((a) + (b))
/* The library's minimum and maximum (IEEE 754-2019: NaN wins, -0.0 orders below +0.0), so that
 * both sides compute the same results. */
static inline float omp_min_max(float a, float b, int min) {
  union {
    float f;
    uint32_t u;
  } x = {a}, y = {b}, tie;
  tie.u = min ? x.u | y.u : x.u & y.u;
  return a != a ? a : b != b ? b : (min ? a < b : a > b) ? a : (min ? b < a : b > a) ? b : tie.f;
}
#define OMP_MIN(a, b) omp_min_max((a), (b), 1)
#define OMP_MAX(a, b) omp_min_max((a), (b), 0)
#define OMP_WINDOWS(name, COMBINE)                                                                 \
  /* A fold per window. */                                                                         \
  static void direct_##name(const float *x, size_t n_out, size_t window, float *out) {             \
    _Pragma("omp parallel for simd schedule(static)") for (size_t j = 0; j < n_out; j++) {         \
      float r = x[j];                                                                              \
      for (size_t k = 1; k < window; k++)                                                          \
        r = COMBINE(r, x[j + k]);                                                                  \
      out[j] = r;                                                                                  \
    }                                                                                              \
  }                                                                                                \
  /* Block b's windows [b w, (b + 1) w): suffixes of block b, then prefixes of block b + 1. */     \
  static void blocks_##name(const float *x, size_t n_out, size_t window, float *out) {             \
    const size_t count = n_out + window - 1, nblocks = (n_out + window - 1) / window;              \
    _Pragma("omp parallel") {                                                                      \
      float *suffix = malloc(window * sizeof *suffix);                                             \
      _Pragma("omp for schedule(static)") for (size_t b = 0; b < nblocks; b++) {                   \
        const size_t lo = b * window, end = lo + window < count ? lo + window : count;             \
        const size_t outs = n_out - lo < window ? n_out - lo : window;                             \
        float s = x[end - 1];                                                                      \
        suffix[end - 1 - lo] = s;                                                                  \
        for (size_t p = end - 1; p-- > lo;)                                                        \
          suffix[p - lo] = s = COMBINE(x[p], s);                                                   \
        out[lo] = suffix[0];                                                                       \
        float pre = x[lo + window];                                                                \
        for (size_t r = 1; r < outs; r++) {                                                        \
          pre = r == 1 ? pre : COMBINE(pre, x[lo + window + r - 1]);                               \
          out[lo + r] = COMBINE(suffix[r], pre);                                                   \
        }                                                                                          \
      }                                                                                            \
      free(suffix);                                                                                \
    }                                                                                              \
  }
OMP_WINDOWS(sum, OMP_SUM)
OMP_WINDOWS(min, OMP_MIN)
OMP_WINDOWS(max, OMP_MAX)

int omp_windows(ocl_reduce_op op, const float *x, size_t count, size_t window, float *out) {
  if ((op != OCL_REDUCE_SUM && op != OCL_REDUCE_MIN && op != OCL_REDUCE_MAX) || window == 0 ||
      window > count)
    return 0;
  const size_t n_out = count - window + 1;
  const int direct = window <= 4;
  if (op == OCL_REDUCE_SUM)
    (direct ? direct_sum : blocks_sum)(x, n_out, window, out);
  else if (op == OCL_REDUCE_MIN)
    (direct ? direct_min : blocks_min)(x, n_out, window, out);
  else
    (direct ? direct_max : blocks_max)(x, n_out, window, out);
  return 1;
}
