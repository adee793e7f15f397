/* =================================================================================================
 * omp_structured.c: the CPU contender for the structured operators (see omp_baseline.h), on f32
 * and f64: the loops a C programmer writes with OpenMP. ARGMIN and ARGMAX: each thread finds the
 * first extreme of its contiguous block, and the blocks merge in order. MINMAX: OpenMP's min and
 * max reductions in one loop. SUM_WIDE: a double accumulator. MEAN_VAR: Welford's update per
 * thread, Chan's merge of the threads. NaN gets no special care here (the benchmark's input is
 * small integers).
 * ============================================================================================== */
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "omp_baseline.h"

#define OMP_PRAGMA(text) _Pragma(#text)

/* The first index of the extreme (BEFORE(a, b): a is more extreme than b). */
#define OMP_ARG(NAME, T, START, BEFORE)                                                            \
  static void NAME(const T *x, size_t n, ocl_reduce_arg *out) {                                    \
    T best = START;                                                                                \
    uint64_t best_index = UINT64_MAX;                                                              \
    OMP_PRAGMA(omp parallel) {                                                                     \
      T mine = START;                                                                              \
      uint64_t mine_index = UINT64_MAX;                                                            \
      OMP_PRAGMA(omp for schedule(static))                                                         \
      for (size_t i = 0; i < n; i++)                                                               \
        if (BEFORE(x[i], mine) || mine_index == UINT64_MAX) {                                      \
          mine = x[i];                                                                             \
          mine_index = i;                                                                          \
        }                                                                                          \
      OMP_PRAGMA(omp critical)                                                                     \
      if (mine_index != UINT64_MAX &&                                                              \
          (best_index == UINT64_MAX || BEFORE(mine, best) ||                                       \
           (!BEFORE(best, mine) && mine_index < best_index))) {                                    \
        best = mine;                                                                               \
        best_index = mine_index;                                                                   \
      }                                                                                            \
    }                                                                                              \
    memset(out, 0, sizeof *out);                                                                   \
    memcpy(out, &best, sizeof best);                                                               \
    out->index = best_index;                                                                       \
  }

#define OMP_LESS(a, b) ((a) < (b))
#define OMP_GREATER(a, b) ((a) > (b))

#define OMP_MINMAX(NAME, T, LOWEST, HIGHEST)                                                       \
  static void NAME(const T *x, size_t n, T *out) {                                                 \
    T lo = HIGHEST, hi = LOWEST;                                                                   \
    OMP_PRAGMA(omp parallel for simd reduction(min : lo) reduction(max : hi))                      \
    for (size_t i = 0; i < n; i++) {                                                               \
      lo = x[i] < lo ? x[i] : lo;                                                                  \
      hi = x[i] > hi ? x[i] : hi;                                                                  \
    }                                                                                              \
    out[0] = lo;                                                                                   \
    out[1] = hi;                                                                                   \
  }

#define OMP_WIDE(NAME, T)                                                                          \
  static void NAME(const T *x, size_t n, double *out) {                                            \
    double acc = 0;                                                                                \
    OMP_PRAGMA(omp parallel for simd reduction(+ : acc))                                           \
    for (size_t i = 0; i < n; i++)                                                                 \
      acc += (double)x[i];                                                                         \
    *out = acc;                                                                                    \
  }

/* Chan et al.'s merge of b into a. */
static void moments_merge(ocl_reduce_moments *a, const ocl_reduce_moments *b) {
  if (b->count == 0)
    return;
  if (a->count == 0) {
    *a = *b;
    return;
  }
  const uint64_t count = a->count + b->count;
  const double delta = b->mean - a->mean, b_share = (double)b->count / (double)count;
  a->mean += delta * b_share;
  a->m2 += b->m2 + delta * delta * (double)a->count * b_share;
  a->count = count;
}

/* Per thread in `parts` (omp_get_max_threads() of them), merged in thread order. */
#define OMP_MOMENTS(NAME, T)                                                                       \
  static void NAME(const T *x, size_t n, ocl_reduce_moments *parts, ocl_reduce_moments *out) {     \
    const int threads = omp_get_max_threads();                                                     \
    memset(parts, 0, (size_t)threads * sizeof *parts);                                             \
    OMP_PRAGMA(omp parallel num_threads(threads)) {                                                \
      ocl_reduce_moments mine = {0, 0, 0};                                                         \
      OMP_PRAGMA(omp for schedule(static))                                                         \
      for (size_t i = 0; i < n; i++) {                                                             \
        const double v = (double)x[i], delta = v - mine.mean;                                      \
        mine.count++;                                                                              \
        mine.mean += delta / (double)mine.count;                                                   \
        mine.m2 += delta * (v - mine.mean);                                                        \
      }                                                                                            \
      parts[omp_get_thread_num()] = mine;                                                          \
    }                                                                                              \
    ocl_reduce_moments all = {0, 0, 0};                                                            \
    for (int t = 0; t < threads; t++)                                                              \
      moments_merge(&all, &parts[t]);                                                              \
    *out = all;                                                                                    \
  }

#define OMP_STRUCTURED_TYPE(SUFFIX, T, INF)                                                        \
  OMP_ARG(argmin_##SUFFIX, T, INF, OMP_LESS)                                                       \
  OMP_ARG(argmax_##SUFFIX, T, -INF, OMP_GREATER)                                                   \
  OMP_MINMAX(minmax_##SUFFIX, T, -INF, INF)                                                        \
  OMP_WIDE(wide_##SUFFIX, T)                                                                       \
  OMP_MOMENTS(moments_##SUFFIX, T)

OMP_STRUCTURED_TYPE(f32, float, __builtin_inff())
OMP_STRUCTURED_TYPE(f64, double, __builtin_inf())

int omp_reduce_structured(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n,
                          void *result) {
#define STRUCTURED(SUFFIX, T)                                                                      \
  switch (bench_op_index(op)) {                                                                                    \
  case B_ARGMIN: argmin_##SUFFIX((const T *)data, n, result); return 1;                   \
  case B_ARGMAX: argmax_##SUFFIX((const T *)data, n, result); return 1;                   \
  case B_MINMAX: minmax_##SUFFIX((const T *)data, n, result); return 1;                   \
  case B_MEAN_VAR: {                                                                      \
    ocl_reduce_moments *parts = malloc((size_t)omp_get_max_threads() * sizeof *parts);             \
    if (parts)                                                                                     \
      moments_##SUFFIX((const T *)data, n, parts, result);                                         \
    free(parts);                                                                                   \
    return parts != NULL;                                                                          \
  }                                                                                                \
  case B_SUM_WIDE:                                                                        \
    if (sizeof(T) != 4)                                                                            \
      return 0;                                                                                    \
    wide_##SUFFIX((const T *)data, n, result);                                                     \
    return 1;                                                                                      \
  default: return 0;                                                                               \
  }
  if (type == OCL_REDUCE_F32)
    STRUCTURED(f32, float)
  if (type == OCL_REDUCE_F64)
    STRUCTURED(f64, double)
#undef STRUCTURED
  return 0;
}
