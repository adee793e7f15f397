/* =================================================================================================
 * bench_pairs.h: what bench_pairs.c shares with its CUDA anchors (cub_pairs.cu, or
 * cub_pairs_stub.c where the benchmark is built without them): one pair reduction and the
 * anchors' times.
 * ============================================================================================== */
#ifndef ORX_BENCH_PAIRS_H
#define ORX_BENCH_PAIRS_H

#include <stddef.h>

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DOT or SQUARED_DISTANCE of `count` pairs of f32 or f64, whole (segment 0) or in segments of
 * `segment` pairs. */
typedef struct pairs_case {
  const char *name;
  int distance; /* 0: DOT, 1: SQUARED_DISTANCE */
  ocl_reduce_type type;
  size_t count, segment;
} pairs_case;

/* One anchor's median device time, or why it did not run. */
typedef struct pairs_anchor {
  char name[64];
  double seconds; /* 0: did not run */
  char why[96];
} pairs_anchor;

enum { PAIRS_ANCHORS = 3 };
/* CUDA device 0, the pairs of a and b (host memory): for whole arrays cuBLAS Sdot / Ddot (DOT)
 * and CUB's DeviceReduce::TransformReduce over the two arrays zipped; for segments CUB's
 * DeviceSegmentedReduce::Sum over a transform iterator of the zipped pairs, by fixed-size
 * segments and by offsets. Each anchor's results must be within `tolerance` (relative) of
 * `want` (doubles, one per result). Returns 0 when no CUDA device or anchors, with why. */
int cub_pairs_anchors(const pairs_case *c, const void *a, const void *b, const double *want,
                      double tolerance, int rounds, pairs_anchor anchors[PAIRS_ANCHORS], char *why,
                      size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* ORX_BENCH_PAIRS_H */
