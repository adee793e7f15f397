/* =================================================================================================
 * bench_axes.h: what bench_axes.c shares with its CUDA anchors (cub_axes.cu, or cub_axes_stub.c
 * where the tool is built without nvcc): one view of an N-d array and the sums along its axes.
 * ============================================================================================== */
#ifndef ORX_BENCH_AXES_H
#define ORX_BENCH_AXES_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A view (extents and strides, outermost first) reduced along the axes whose bits are set: SUM
 * of i32, f32 or f64 over `reach` elements of input. */
typedef struct axes_case {
  const char *name;
  ocl_reduce_type type;
  unsigned rank;
  uint64_t extents[OCL_REDUCE_MAX_RANK], strides[OCL_REDUCE_MAX_RANK];
  uint32_t axes;
  uint64_t reach;   /* elements the view reaches */
  uint64_t results; /* kept positions */
  uint64_t length;  /* reduced positions per result */
} axes_case;

/* One anchor's median device time, or why it did not run. */
typedef struct axes_anchor {
  char name[64];
  double seconds; /* 0: did not run */
  char why[96];
} axes_anchor;

/* bench_axes.c: issue 55's cases (those whose name holds `filter`; `shift` halves their
 * outermost extent that many times), or one view (`name` prints it), side by side with whole
 * arrays and the anchors; 1 when a contender failed or differed from the host. */
int bench_axes_table(int rounds, const char *filter, unsigned shift);
int bench_axes_view(const char *name, const ocl_reduce_shape *shape, uint32_t axes,
                    ocl_reduce_type type, int rounds);

enum { AXES_ANCHORS = 4 };
/* CUDA device 0, the `reach` elements of `data` (host memory), the view's sums by each anchor that
 * applies: CUB's fixed-size segments (rows of the input itself), CUB's fixed-size segments over a
 * transform iterator that reads the view, CUB over a copy of the view in the segments' order (the
 * copy timed), cuBLAS Sgemv against a vector of ones (f32 matrices with one unit stride). Each
 * anchor's results must equal `want` (exact: the bench's inputs are 0 and 1). Returns 0 when no
 * CUDA device or no CUB contender, with why. */
int cub_axes_anchors(const axes_case *c, const void *data, const void *want, int rounds,
                     axes_anchor anchors[AXES_ANCHORS], char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* ORX_BENCH_AXES_H */
