/* =================================================================================================
 * bench_by_key.h: what bench_by_key.c shares with its CUDA anchor (cub_by_key.cu, or
 * cub_by_key_stub.c where the benchmark is built without it) and its Boost.Compute contender
 * (boost_by_key.cpp, or boost_by_key_stub.c): one reduce-by-key case.
 * ============================================================================================== */
#ifndef ORX_BENCH_BY_KEY_H
#define ORX_BENCH_BY_KEY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SUM (or ARGMIN, or an order-preserving operator) by key of `count` pairs: i32 keys and f32
 * values, or (wide) i64 keys and f64 values, in runs of `mean` keys on average (0: lengths random
 * in 1..64). */
typedef struct key_case {
  const char *name;
  int wide;
  size_t count;
  unsigned mean;
  int argmin; /* ARGMIN by key: the first least value of each run and its position */
  int exact;  /* ours with outputs of exactly the runs (counted first), not one per pair */
  int host;   /* ours with keys, values and outputs in host memory (the others' on the device) */
  int affine; /* an order-preserving operator: maps x -> a x + b (two f32s) composed in order,
                 first then second: (a1, b1) then (a2, b2) = (a2 a1, a2 b1 + b2); i32 keys */
} key_case;

/* CUB's DeviceReduce::ReduceByKey (cuda::std::plus) over the keys and values (host memory) on CUDA
 * device 0: its median device time into seconds[0], and its median end-to-end time into seconds[1]
 * (the call and its run count copied to the host, on the host's clock, as ours). Its run count
 * must be `runs` and each sum `want` exactly (the values are small multiples of 1/4). ARGMIN: the
 * best form CUB has, its ReduceByKey over an ArgIndexInputIterator with cub::ArgMin, whose indices
 * are the input's positions (a run's start away from ours): each must be `want`, the first least
 * value's position. Affine: ReduceByKey over float2 values with the same composition, each run's b
 * `want`. Returns 0 with why when there is no CUDA device, or no anchor built in. */
int cub_by_key_time(const key_case *c, const void *keys, const void *values, uint64_t runs,
                    const double *want, int rounds, double seconds[2], char *why,
                    size_t why_size);

/* Boost.Compute's reduce_by_key (plus, equal_to) of SUM cases on an OpenCL device, through the
 * given cl_context and cl_device_id (our context's) and a queue of its own: its median end-to-end
 * time (the call, then the queue's finish) into *seconds, its run count and sums checked as CUB's
 * are. Returns 0 with why when it fails or is not built in (boost_by_key_stub.c). */
int boost_by_key_time(const key_case *c, void *cl_context_handle, void *cl_device_handle,
                      const void *keys, const void *values, uint64_t runs, const double *want,
                      int rounds, double *seconds, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* ORX_BENCH_BY_KEY_H */
