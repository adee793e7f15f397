/* =================================================================================================
 * omp_windows.h: the CPU contender of bench_windows (omp_windows.c).
 * ============================================================================================== */
#ifndef ORX_OMP_WINDOWS_H
#define ORX_OMP_WINDOWS_H

#include <stddef.h>

#include "ocl_reduce.h"

/* Every window of `window` of the count f32 at x, reduced with SUM, MIN or MAX into out
 * (count - window + 1 results). Returns 0 for other operators or a bad window. */
int omp_windows(ocl_reduce_op op, const float *x, size_t count, size_t window, float *out);

#endif /* ORX_OMP_WINDOWS_H */
