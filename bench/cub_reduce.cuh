/* =================================================================================================
 * cub_reduce.cuh: the CUB calls of the CUB contender (cub_contender.cu), as templates over the
 * element type that cub_reduce_int32.cu, cub_reduce_int64.cu and cub_reduce_float.cu instantiate,
 * two types each (cub_reduce_half.cu: f16 and bf16). CUB's templates are most of the contender's compile time (about three minutes
 * of nvcc for the six types in one file, longer than the rest of the project's build at -j 2),
 * and three files build side by side.
 * ============================================================================================== */
#ifndef ORX_CUB_REDUCE_CUH
#define ORX_CUB_REDUCE_CUH

#include <cub/cub.cuh>
#include <cub/version.cuh>
#include <cuda_runtime.h>

#if CUB_VERSION >= 300200
#define ORX_CUB_FIXED_SEGMENTS 1
#include <cuda/std/utility>
#endif
#if CUB_VERSION >= 300400
#define ORX_CUB_GPU_TO_GPU 1
#include <cuda/std/execution>
#endif

#include <cstdint>
#include <type_traits>

#include "bench.h"

namespace orx_cub {

struct cub_state {
  void *d_in = nullptr, *d_out = nullptr, *d_temp = nullptr;
  int *d_offsets = nullptr; /* segmented cases before CCCL 3.2: segment_count + 1 begin offsets */
  size_t temp_bytes = 0;
  cudaEvent_t start = nullptr, stop = nullptr;
};

// The cross-device sum: CUB's reproducible accumulator, reached through the environment API only,
// which allocates its temporary storage with cudaMallocAsync (the device's default pool, which
// contender_cub keeps from handing memory back at each synchronization: CUB at its best).
template <typename T> cudaError_t gpu_to_gpu_sum(const T *in, T *out, size_t n) {
#if ORX_CUB_GPU_TO_GPU
  if constexpr (std::is_floating_point_v<T>) {
    const auto env = ::cuda::std::execution::env{
        ::cuda::execution::require(::cuda::execution::determinism::gpu_to_gpu)};
    return cub::DeviceReduce::Sum(in, out, (int64_t)n, env);
  }
#endif
  (void)in, (void)out, (void)n;
  return cudaErrorNotSupported;
}

// Each segment of one fixed length: the fixed-size overloads where the CCCL has them (argmin and
// argmax then write a cuda::std::pair<int, T>, laid out as a KeyValuePair<int, T>), else begin
// and end offsets, the end offsets being the next begin offsets, as CSR arrays are usually
// passed.
template <typename T> cudaError_t reduce_segments(const bench_case *bc, cub_state *s) {
  const T *in = static_cast<const T *>(s->d_in);
  T *out = static_cast<T *>(s->d_out);
#if ORX_CUB_FIXED_SEGMENTS
  const int64_t segments = (int64_t)bc->segment_count;
  const int length = (int)bc->segment_length;
  auto *pairs = static_cast<::cuda::std::pair<int, T> *>(s->d_out);
#define ORX_CUB_SEGMENTS segments, length
#else
  const int *begin = s->d_offsets, *end = s->d_offsets ? s->d_offsets + 1 : nullptr;
  const int segments = (int)bc->segment_count;
  auto *pairs = static_cast<cub::KeyValuePair<int, T> *>(s->d_out);
#define ORX_CUB_SEGMENTS segments, begin, end
#endif
  switch (bench_op_index(bc->op)) {
  case B_ARGMIN:
    return cub::DeviceSegmentedReduce::ArgMin(s->d_temp, s->temp_bytes, in, pairs,
                                              ORX_CUB_SEGMENTS);
  case B_ARGMAX:
    return cub::DeviceSegmentedReduce::ArgMax(s->d_temp, s->temp_bytes, in, pairs,
                                              ORX_CUB_SEGMENTS);
  case B_SUM:
    return cub::DeviceSegmentedReduce::Sum(s->d_temp, s->temp_bytes, in, out, ORX_CUB_SEGMENTS);
  case B_MIN:
    return cub::DeviceSegmentedReduce::Min(s->d_temp, s->temp_bytes, in, out, ORX_CUB_SEGMENTS);
  case B_MAX:
    return cub::DeviceSegmentedReduce::Max(s->d_temp, s->temp_bytes, in, out, ORX_CUB_SEGMENTS);
  default: return cudaErrorNotSupported;
  }
#undef ORX_CUB_SEGMENTS
}

// Runs (or, with d_temp null, sizes) the CUB reduction of the case's operator on type T: the
// whole array (DeviceReduce), or each segment (reduce_segments). Argmin and argmax of the whole
// array: DeviceReduce writes the value and the int64 index to separate places (here the two
// halves of an ocl_reduce_arg in d_out).
template <typename T> cudaError_t reduce(const bench_case *bc, cub_state *s) {
  const T *in = static_cast<const T *>(s->d_in);
  T *out = static_cast<T *>(s->d_out);
  auto *index = reinterpret_cast<int64_t *>(static_cast<char *>(s->d_out) + 8);
  if (bc->segment_length)
    return reduce_segments<T>(bc, s);
  switch (bench_op_index(bc->op)) {
  case B_SUM: return cub::DeviceReduce::Sum(s->d_temp, s->temp_bytes, in, out, bc->n);
  case B_MIN: return cub::DeviceReduce::Min(s->d_temp, s->temp_bytes, in, out, bc->n);
  case B_MAX: return cub::DeviceReduce::Max(s->d_temp, s->temp_bytes, in, out, bc->n);
  case B_ARGMIN:
    return cub::DeviceReduce::ArgMin(s->d_temp, s->temp_bytes, in, out, index, (int64_t)bc->n);
  case B_ARGMAX:
    return cub::DeviceReduce::ArgMax(s->d_temp, s->temp_bytes, in, out, index, (int64_t)bc->n);
  case B_SUM_REPRODUCIBLE: /* no temporary storage to size: the environment API allocates */
    return s->d_temp ? gpu_to_gpu_sum<T>(in, out, bc->n) : cudaSuccess;
  default: return cudaErrorNotSupported;
  }
}

// Instantiated in cub_reduce_*.cu only.
#define ORX_CUB_DECLARE(T) extern template cudaError_t reduce<T>(const bench_case *, cub_state *);
ORX_CUB_DECLARE(int32_t)
ORX_CUB_DECLARE(uint32_t)
ORX_CUB_DECLARE(int64_t)
ORX_CUB_DECLARE(uint64_t)
ORX_CUB_DECLARE(float)
ORX_CUB_DECLARE(double)
#undef ORX_CUB_DECLARE
/* f16 and bf16 (cub_reduce_half.cu, which alone includes their CUDA headers). */
cudaError_t reduce_f16(const bench_case *bc, cub_state *s);
cudaError_t reduce_bf16(const bench_case *bc, cub_state *s);

} // namespace orx_cub

#endif /* ORX_CUB_REDUCE_CUH */
