/* =================================================================================================
 * omp_baseline.h: the CPU contender of the benchmark: OpenMP `parallel for simd reduction` loops
 * over host memory (omp_baseline.c, omp_structured.c), one per operator and type, compiled with
 * -O3 for each instruction set of the architecture and chosen at run time (omp_dispatch.c).
 * ============================================================================================== */
#ifndef ORX_OMP_BASELINE_H
#define ORX_OMP_BASELINE_H

#include <stddef.h>

#include "bench.h"
#include "ocl_reduce.h"


/* Reduces n elements of `type` at `data` with `op` into *result (one element of `type`).
 * Returns 0 when the combination has no baseline (AND/OR/XOR on floats); structured operators go
 * to omp_reduce_structured. */
int omp_reduce(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n, void *result);

/* omp_structured.c: ARGMIN, ARGMAX, MINMAX, MEAN_VAR and (f32) SUM_WIDE on f32 and f64, into
 * *result (ocl_reduce_result_size(op, type) bytes). Returns 0 for other combinations. */
int omp_reduce_structured(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n,
                          void *result);

/* The per-segment loop: count segments of `length` elements each, one result per segment in
 * results. SUM, MIN and MAX on every type; returns 0 for other operators. */
int omp_reduce_segments(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t count,
                        size_t length, void *results);

/* The instruction set the loops run with on this CPU: "x86-64-v4", "x86-64-v3", "baseline". */
const char *omp_instruction_set(void);

/* Threads the OpenMP loops use. */
int omp_threads(void);

/* Stops OpenMP's idle threads (which spin for milliseconds after each loop) until the next loop,
 * so that they take no CPU from other work measured meanwhile. */
void omp_rest(void);

/* Copy bandwidth in GB/s (bytes read + written per second) of an OpenMP parallel copy between two
 * buffers of `bytes` on huge pages: the CPU's memory system measured as a device's would be. */
double omp_copy_bandwidth(size_t bytes);

/* Host memory on transparent huge pages where the system grants them (free with free()). */
void *alloc_huge_pages(size_t bytes);

#endif /* ORX_OMP_BASELINE_H */
