/* =================================================================================================
 * cub_axes.cu: the CUDA anchors of bench_axes.c (bench_axes.h), compiled with nvcc into the
 * benchmark only. CUB has no reduction along axes (CCCL issue #9030), so each anchor is a way an
 * application would write one with CUB or cuBLAS today:
 *   cub rows       DeviceSegmentedReduce's fixed-size segments over the input itself, where the
 *                  view's results are rows one after another;
 *   cub iterator   the same segments over a transform iterator that reads element j of segment s
 *                  where the view has it (a strided read for an outer axis);
 *   cub copy       the view copied into the segments' order by a plain kernel, then the segments;
 *                  the copy is timed;
 *   cublas sgemv   y = A x with x all ones (f32 matrices with a unit stride on one axis).
 * Device time from CUDA events around each anchor's calls; the median of `rounds` after one
 * untimed call. Temporary storage is allocated before the timing.
 * ============================================================================================== */
#include <cub/cub.cuh>
#include <cub/version.cuh>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#if ORX_HAVE_CUBLAS
#include <cublas_v2.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "bench_axes.h"
#include "cuda_timer.cuh"

namespace {

/* Axes with their extents and strides, outermost first; extent-1 axes dropped and row-major
 * neighbours merged, as the library's planner does, so that the iterator divides least. */
struct dims {
  int rank = 0;
  int64_t extents[OCL_REDUCE_MAX_RANK] = {}, strides[OCL_REDUCE_MAX_RANK] = {};
  void append(int64_t extent, int64_t stride) {
    if (extent == 1)
      return;
    if (rank > 0 && strides[rank - 1] == extent * stride) {
      extents[rank - 1] *= extent;
      strides[rank - 1] = stride;
      return;
    }
    extents[rank] = extent;
    strides[rank] = stride;
    rank++;
  }
};

/* Where element j of segment s lies. */
struct view_map {
  dims kept, reduced;
  int64_t length;
  __host__ __device__ int64_t operator()(int64_t i) const {
    int64_t s = i / length, j = i - s * length, at = 0;
    for (int k = kept.rank - 1; k >= 0; k--) {
      at += (s % kept.extents[k]) * kept.strides[k];
      s /= kept.extents[k];
    }
    for (int k = reduced.rank - 1; k >= 0; k--) {
      at += (j % reduced.extents[k]) * reduced.strides[k];
      j /= reduced.extents[k];
    }
    return at;
  }
};

template <typename T> struct view_read {
  const T *in;
  view_map map;
  __host__ __device__ T operator()(int64_t i) const { return in[map(i)]; }
};

template <typename T> __global__ void copy_view(const T *in, view_map map, T *out, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    out[i] = in[map(i)];
}

template <typename T> struct run {
  const axes_case *c;
  view_map map;
  T *in = nullptr, *out = nullptr, *dense = nullptr;
  void *temp = nullptr;
  size_t temp_bytes = 0;

  /* The fixed-size segments over `input`, with temporary storage sized on first use. */
  template <typename It> cudaError_t segments(It input) {
    size_t need = 0;
    cudaError_t e = cub::DeviceSegmentedReduce::Sum(nullptr, need, input, out,
                                                    (int64_t)c->results, (int)c->length);
    if (e == cudaSuccess && need > temp_bytes) {
      cudaFree(temp);
      e = cudaMalloc(&temp, need);
      temp_bytes = need;
    }
    return e != cudaSuccess ? e
                            : cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, input, out,
                                                              (int64_t)c->results, (int)c->length);
  }
  cudaError_t copied() {
    const int64_t n = (int64_t)(c->results * c->length);
    copy_view<T><<<132 * 8, 256>>>(in, map, dense, n);
    return segments(dense);
  }
};

/* Whether the anchor's results equal want; else says why. */
template <typename T>
bool same(const T *out, const void *want, size_t n, axes_anchor *a) {
  std::vector<T> got(n);
  if (cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess) {
    snprintf(a->why, sizeof a->why, "the results could not be read");
    return false;
  }
  if (memcmp(got.data(), want, n * sizeof(T)) != 0) {
    snprintf(a->why, sizeof a->why, "results differ from ocl_reduce's");
    return false;
  }
  return true;
}

template <typename T>
int anchors_of(const axes_case *c, const void *data, const void *want, int rounds,
               axes_anchor *a) {
  run<T> r;
  r.c = c;
  for (unsigned k = 0; k < c->rank; k++)
    ((c->axes >> k) & 1u ? r.map.reduced : r.map.kept)
        .append((int64_t)c->extents[k], (int64_t)c->strides[k]);
  r.map.length = (int64_t)c->length;
  const dims &kd = r.map.kept, &rd = r.map.reduced;
  if (cudaMalloc(&r.in, c->reach * sizeof(T)) != cudaSuccess ||
      cudaMalloc(&r.out, c->results * sizeof(T)) != cudaSuccess ||
      cudaMalloc(&r.dense, c->results * c->length * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(r.in, data, c->reach * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess)
    return -1;
  orx_bench::timer t;
  snprintf(a[0].name, sizeof a[0].name, "cub rows (CUB %d)", CUB_VERSION);
  snprintf(a[1].name, sizeof a[1].name, "cub iterator");
  snprintf(a[2].name, sizeof a[2].name, "cub copy (copy timed)");
  snprintf(a[3].name, sizeof a[3].name, "cublas sgemv");
  const bool rows = kd.rank == 1 && rd.rank == 1 && rd.strides[0] == 1 &&
                    kd.strides[0] == (int64_t)c->length;
  if (rows) {
    a[0].seconds = t.median(rounds, [&] { return r.segments(r.in); });
    if (a[0].seconds && !same(r.out, want, c->results, &a[0]))
      a[0].seconds = 0;
  } else {
    snprintf(a[0].why, sizeof a[0].why, "the results are not rows one after another");
  }
  auto it = thrust::make_transform_iterator(thrust::make_counting_iterator<int64_t>(0),
                                            view_read<T>{r.in, r.map});
  a[1].seconds = t.median(rounds, [&] { return r.segments(it); });
  if (a[1].seconds && !same(r.out, want, c->results, &a[1]))
    a[1].seconds = 0;
  a[2].seconds = t.median(rounds, [&] { return r.copied(); });
  if (a[2].seconds && !same(r.out, want, c->results, &a[2]))
    a[2].seconds = 0;
#if ORX_HAVE_CUBLAS
  const bool matrix = c->type == OCL_REDUCE_F32 && kd.rank == 1 && rd.rank == 1 &&
                      (kd.strides[0] == 1 || rd.strides[0] == 1);
  if (matrix) {
    cublasHandle_t h;
    float *ones = nullptr;
    std::vector<float> host_ones((size_t)rd.extents[0], 1.0f);
    const float one = 1.0f, zero = 0.0f;
    if (cublasCreate(&h) == CUBLAS_STATUS_SUCCESS &&
        cudaMalloc(&ones, host_ones.size() * sizeof(float)) == cudaSuccess &&
        cudaMemcpy(ones, host_ones.data(), host_ones.size() * sizeof(float),
                   cudaMemcpyHostToDevice) == cudaSuccess) {
      /* Column-major A(i, j) at i + j * lda: columns (kept stride 1) are A x with A kept x
       * reduced; rows (reduced stride 1) are A^T x with A reduced x kept. */
      const bool columns = kd.strides[0] == 1;
      const int m = (int)(columns ? kd.extents[0] : rd.extents[0]);
      const int n = (int)(columns ? rd.extents[0] : kd.extents[0]);
      const int lda = (int)(columns ? rd.strides[0] : kd.strides[0]);
      float *in = reinterpret_cast<float *>(r.in), *out = reinterpret_cast<float *>(r.out);
      a[3].seconds = t.median(rounds, [&] {
        return cublasSgemv(h, columns ? CUBLAS_OP_N : CUBLAS_OP_T, m, n, &one, in, lda, ones, 1,
                           &zero, out, 1) == CUBLAS_STATUS_SUCCESS
                   ? cudaSuccess
                   : cudaErrorUnknown;
      });
      if (a[3].seconds && !same(r.out, want, c->results, &a[3]))
        a[3].seconds = 0;
    }
    cudaFree(ones);
    cublasDestroy(h);
  } else {
    snprintf(a[3].why, sizeof a[3].why, "not an f32 matrix with a unit stride");
  }
#else
  snprintf(a[3].why, sizeof a[3].why, "built without cuBLAS");
#endif
  cudaFree(r.in);
  cudaFree(r.out);
  cudaFree(r.dense);
  cudaFree(r.temp);
  return 1;
}

} // namespace

extern "C" int cub_axes_anchors(const axes_case *c, const void *data, const void *want,
                                int rounds, axes_anchor anchors[AXES_ANCHORS], char *why,
                                size_t why_size) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    snprintf(why, why_size, "no CUDA device");
    return 0;
  }
  memset(anchors, 0, AXES_ANCHORS * sizeof *anchors);
  int got = -1;
  switch (c->type) {
  case OCL_REDUCE_I32: got = anchors_of<int32_t>(c, data, want, rounds, anchors); break;
  case OCL_REDUCE_F32: got = anchors_of<float>(c, data, want, rounds, anchors); break;
  case OCL_REDUCE_F64: got = anchors_of<double>(c, data, want, rounds, anchors); break;
  default: snprintf(why, why_size, "i32, f32 and f64 only"); return 0;
  }
  if (got < 0) {
    snprintf(why, why_size, "CUDA: %s", cudaGetErrorString(cudaGetLastError()));
    return 0;
  }
  return 1;
}
