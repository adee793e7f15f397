/* =================================================================================================
 * cub_pairs.cu: the CUDA anchors of bench_pairs.c (bench_pairs.h), compiled with nvcc into that
 * benchmark only. Each is what an application writes for a dot product or a distance today:
 *   cublas dot       cublasSdot / cublasDdot, the result left on the device (DOT only);
 *   cub zip          DeviceReduce::TransformReduce over the two arrays zipped, the pair's value
 *                    computed by the transform (issue 56's anchor);
 *   cub segments     DeviceSegmentedReduce::Sum over a transform iterator of the zipped pairs, in
 *                    fixed-size segments (CCCL 3.2 and newer);
 *   cub offsets      the same by begin and end offsets (a counting iterator times the length).
 * Device time from CUDA events around each anchor's call; the median of `rounds` after one
 * untimed call. Temporary storage is allocated before the timing.
 * ============================================================================================== */
#include <cub/cub.cuh>
#include <cub/version.cuh>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include <cuda/std/functional>
#if ORX_HAVE_CUBLAS
#include <cublas_v2.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "bench_pairs.h"
#include "cuda_timer.cuh"

namespace {

/* A pair's value: a * b, or (a - b)^2. */
template <typename T> struct pair_value {
  int distance;
  __host__ __device__ T operator()(const thrust::tuple<T, T> &p) const {
    const T x = thrust::get<0>(p), y = thrust::get<1>(p);
    return distance ? (x - y) * (x - y) : x * y;
  }
};

/* Segment s's first pair. */
struct segment_start {
  int64_t length;
  __host__ __device__ int64_t operator()(int64_t s) const { return s * length; }
};

template <typename T> struct run {
  const pairs_case *c;
  T *a = nullptr, *b = nullptr, *out = nullptr;
  void *temp = nullptr;
  size_t temp_bytes = 0;

  cudaError_t grow(size_t need) {
    if (need <= temp_bytes)
      return cudaSuccess;
    cudaFree(temp);
    temp_bytes = need;
    return cudaMalloc(&temp, need);
  }
  auto zipped() const { return thrust::make_zip_iterator(thrust::make_tuple(a, b)); }
  auto values() const {
    return thrust::make_transform_iterator(zipped(), pair_value<T>{c->distance});
  }

  cudaError_t transform_reduce() {
    size_t need = 0;
    const pair_value<T> value{c->distance};
    const cuda::std::plus<T> add;
    cudaError_t e = cub::DeviceReduce::TransformReduce(nullptr, need, zipped(), out,
                                                       (int64_t)c->count, add, value, T(0));
    if (e == cudaSuccess)
      e = grow(need);
    return e != cudaSuccess ? e
                            : cub::DeviceReduce::TransformReduce(temp, temp_bytes, zipped(), out,
                                                                 (int64_t)c->count, add, value,
                                                                 T(0));
  }
#if CUB_VERSION >= 300200
  cudaError_t fixed_segments() {
    const int64_t segments = (int64_t)(c->count / c->segment);
    size_t need = 0;
    cudaError_t e = cub::DeviceSegmentedReduce::Sum(nullptr, need, values(), out, segments,
                                                    (int)c->segment);
    if (e == cudaSuccess)
      e = grow(need);
    return e != cudaSuccess ? e
                            : cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, values(), out,
                                                              segments, (int)c->segment);
  }
#endif
  cudaError_t offset_segments() {
    const int segments = (int)(c->count / c->segment);
    auto begin = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0),
                                                 segment_start{(int64_t)c->segment});
    size_t need = 0;
    cudaError_t e =
        cub::DeviceSegmentedReduce::Sum(nullptr, need, values(), out, segments, begin, begin + 1);
    if (e == cudaSuccess)
      e = grow(need);
    return e != cudaSuccess ? e
                            : cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, values(), out,
                                                              segments, begin, begin + 1);
  }
#if ORX_HAVE_CUBLAS
  cublasStatus_t dot(cublasHandle_t h) {
    if constexpr (sizeof(T) == 4)
      return cublasSdot(h, (int)c->count, a, 1, b, 1, out);
    else
      return cublasDdot(h, (int)c->count, a, 1, b, 1, out);
  }
#endif
};

/* Whether the device's results are `want`'s within the tolerance. */
template <typename T>
bool matches(const T *out, size_t results, const double *want, double tolerance, char *why,
             size_t why_size) {
  std::vector<T> got(results);
  if (cudaMemcpy(got.data(), out, results * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess) {
    snprintf(why, why_size, "reading its results failed");
    return false;
  }
  for (size_t r = 0; r < results; r++)
    if (std::fabs((double)got[r] - want[r]) > tolerance * std::fabs(want[r])) {
      snprintf(why, why_size, "result %zu is %.9g, not %.9g", r, (double)got[r], want[r]);
      return false;
    }
  return true;
}

template <typename T>
int anchors_typed(const pairs_case *c, const void *a, const void *b, const double *want,
                  double tolerance, int rounds, pairs_anchor *anchors, char *why,
                  size_t why_size) {
  run<T> r;
  r.c = c;
  const size_t bytes = c->count * sizeof(T), results = c->segment ? c->count / c->segment : 1;
  if (cudaMalloc(&r.a, bytes) != cudaSuccess || cudaMalloc(&r.b, bytes) != cudaSuccess ||
      cudaMalloc(&r.out, results * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(r.a, a, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(r.b, b, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
    snprintf(why, why_size, "device memory for %zu pairs: %s", c->count,
             cudaGetErrorString(cudaGetLastError()));
    cudaFree(r.a), cudaFree(r.b), cudaFree(r.out);
    return 0;
  }
  orx_bench::timer t;
  int n = 0;
  const auto measure = [&](const char *name, const std::function<cudaError_t()> &f) {
    pairs_anchor *x = &anchors[n++];
    snprintf(x->name, sizeof x->name, "%s", name);
    x->seconds = t.median(rounds, f);
    if (x->seconds == 0)
      snprintf(x->why, sizeof x->why, "%s", cudaGetErrorString(cudaGetLastError()));
    else if (!matches(r.out, results, want, tolerance, x->why, sizeof x->why))
      x->seconds = 0;
  };
  if (!c->segment) {
#if ORX_HAVE_CUBLAS
    if (!c->distance) {
      cublasHandle_t h = nullptr;
      if (cublasCreate(&h) == CUBLAS_STATUS_SUCCESS &&
          cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE) == CUBLAS_STATUS_SUCCESS)
        measure(sizeof(T) == 4 ? "cublas sdot" : "cublas ddot", [&] {
          return r.dot(h) == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
        });
      if (h)
        cublasDestroy(h);
    }
#endif
    measure("cub transform_reduce zip", [&] { return r.transform_reduce(); });
  } else {
#if CUB_VERSION >= 300200
    measure("cub segments fixed", [&] { return r.fixed_segments(); });
#endif
    measure("cub segments offsets", [&] { return r.offset_segments(); });
  }
  cudaFree(r.a), cudaFree(r.b), cudaFree(r.out), cudaFree(r.temp);
  return 1;
}

} // namespace

extern "C" int cub_pairs_anchors(const pairs_case *c, const void *a, const void *b,
                                 const double *want, double tolerance, int rounds,
                                 pairs_anchor anchors[PAIRS_ANCHORS], char *why,
                                 size_t why_size) {
  memset(anchors, 0, PAIRS_ANCHORS * sizeof *anchors);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    snprintf(why, why_size, "no CUDA device");
    return 0;
  }
  if (c->type == OCL_REDUCE_F32)
    return anchors_typed<float>(c, a, b, want, tolerance, rounds, anchors, why, why_size);
  if (c->type == OCL_REDUCE_F64)
    return anchors_typed<double>(c, a, b, want, tolerance, rounds, anchors, why, why_size);
  snprintf(why, why_size, "the anchors take f32 and f64");
  return 0;
}
