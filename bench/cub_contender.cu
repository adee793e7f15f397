/* =================================================================================================
 * cub_contender.cu: cub::DeviceReduce and cub::DeviceSegmentedReduce as a benchmark contender
 * (bench.h), compiled with nvcc into the tool only; the library never depends on CUB. Device
 * time: CUDA events around the CUB call. End-to-end: the CUB call plus a cudaMemcpy of its result
 * to host memory, as an application would write it. Covers sum, min and max, and argmin and
 * argmax (whose results are rearranged into ocl_reduce_arg after the timing); temporary storage is
 * allocated in prepare, outside the timing. Without a usable GPU (no driver, no device) it reports
 * itself unavailable.
 *
 * It is compiled against the CCCL that OCL_REDUCE_CCCL_INCLUDE names (the newest, from PyPI's
 * nvidia-cuda-cccl, in scripts/h200/), else the toolkit's own, and uses what that CCCL offers:
 *   - CCCL 3.2 and newer: the fixed-size DeviceSegmentedReduce overloads (num_segments,
 *     segment_size), with the small-segment agents; older ones take begin and end offsets;
 *   - CCCL 3.4 and newer: the cross-device sum, DeviceReduce::Sum with gpu_to_gpu determinism
 *     (its environment API, which allocates its own temporary storage), against the
 *     reproducible sum (OCL_REDUCE_SUM_REPRODUCIBLE).
 * The contender's name carries the CCCL version, so that every table says which it measured. The
 * CUB calls themselves are in cub_reduce.cuh, instantiated per type in cub_reduce_*.cu.
 * ============================================================================================== */
#include "cub_reduce.cuh"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

#include "bench.h"

namespace {

#if ORX_CUB_GPU_TO_GPU
constexpr bool ORX_CUB_GPU_TO_GPU_SUMS = true;
#else
constexpr bool ORX_CUB_GPU_TO_GPU_SUMS = false;
#endif
#if ORX_CUB_FIXED_SEGMENTS
constexpr bool ORX_CUB_FIXED_SEGMENT_SIZE = true;
#else
constexpr bool ORX_CUB_FIXED_SEGMENT_SIZE = false;
#endif

using orx_cub::cub_state;

double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

cudaError_t reduce_typed(const bench_case *bc, cub_state *s) {
  switch (bc->type) {
  case OCL_REDUCE_I32: return orx_cub::reduce<int32_t>(bc, s);
  case OCL_REDUCE_U32: return orx_cub::reduce<uint32_t>(bc, s);
  case OCL_REDUCE_I64: return orx_cub::reduce<int64_t>(bc, s);
  case OCL_REDUCE_U64: return orx_cub::reduce<uint64_t>(bc, s);
  case OCL_REDUCE_F32: return orx_cub::reduce<float>(bc, s);
  case OCL_REDUCE_F64: return orx_cub::reduce<double>(bc, s);
  case OCL_REDUCE_F16: return orx_cub::reduce_f16(bc, s);
  case OCL_REDUCE_BF16: return orx_cub::reduce_bf16(bc, s);
  }
  return cudaErrorNotSupported;
}

void cub_unprepare(contender *c) {
  cub_state *s = static_cast<cub_state *>(c->state);
  cudaFree(s->d_in);
  cudaFree(s->d_out);
  cudaFree(s->d_temp);
  cudaFree(s->d_offsets);
  s->d_in = s->d_out = s->d_temp = nullptr;
  s->d_offsets = nullptr;
  s->temp_bytes = 0;
}

int cub_prepare(contender *c, const bench_case *bc, char *why, size_t why_size) {
  cub_state *s = static_cast<cub_state *>(c->state);
  if (bc->op != OCL_REDUCE_SUM && bc->op != OCL_REDUCE_MIN && bc->op != OCL_REDUCE_MAX &&
      bc->op != OCL_REDUCE_ARGMIN && bc->op != OCL_REDUCE_ARGMAX &&
      bc->op != OCL_REDUCE_SUM_REPRODUCIBLE) {
    snprintf(why, why_size, "the CUB contender covers sum, min, max, argmin and argmax");
    return 0;
  }
  if (bc->op == OCL_REDUCE_SUM_REPRODUCIBLE &&
      (!ORX_CUB_GPU_TO_GPU_SUMS || bc->segment_length ||
       (bc->type != OCL_REDUCE_F32 && bc->type != OCL_REDUCE_F64))) {
    snprintf(why, why_size,
             "CUB's cross-device sum (gpu_to_gpu) is CCCL 3.4's and newer, of whole f32 and f64 "
             "arrays");
    return 0;
  }
  const size_t bytes = bc->n * ocl_reduce_type_size(bc->type);
  cudaError_t e = cudaMalloc(&s->d_in, bytes);
  if (e == cudaSuccess)
    e = cudaMemcpy(s->d_in, bc->host, bytes, cudaMemcpyHostToDevice);
  const size_t results = bc->segment_length ? bc->segment_count : 1;
  if (e == cudaSuccess)
    e = cudaMalloc(&s->d_out, results * sizeof(ocl_reduce_arg));
  if (e == cudaSuccess) /* the bytes of an ocl_reduce_arg's value that a 4-byte value leaves */
    e = cudaMemset(s->d_out, 0, results * sizeof(ocl_reduce_arg));
  if (e == cudaSuccess && bc->segment_length) {
    /* int offsets, or (fixed-size overloads) an int segment size */
    if ((ORX_CUB_FIXED_SEGMENT_SIZE ? bc->segment_length : bc->n) > (size_t)INT32_MAX) {
      snprintf(why, why_size, "CUB's segment offsets and sizes are int: beyond 2^31");
      cub_unprepare(c);
      return 0;
    }
  }
  if (e == cudaSuccess && bc->segment_length && !ORX_CUB_FIXED_SEGMENT_SIZE) {
    std::vector<int> offsets(bc->segment_count + 1);
    for (size_t i = 0; i <= bc->segment_count; i++)
      offsets[i] = (int)(i * bc->segment_length);
    e = cudaMalloc(&s->d_offsets, offsets.size() * sizeof(int));
    if (e == cudaSuccess)
      e = cudaMemcpy(s->d_offsets, offsets.data(), offsets.size() * sizeof(int),
                     cudaMemcpyHostToDevice);
  }
  if (e == cudaSuccess)
    e = reduce_typed(bc, s); /* sizes the temporary storage */
  if (e == cudaSuccess)
    e = cudaMalloc(&s->d_temp, s->temp_bytes ? s->temp_bytes : 1);
  if (e != cudaSuccess) {
    snprintf(why, why_size, "%s", cudaGetErrorString(e));
    cub_unprepare(c);
    return 0;
  }
  return 1;
}

int cub_run(contender *c, const bench_case *bc, bench_sample *sample, void *result) {
  cub_state *s = static_cast<cub_state *>(c->state);
  const double t0 = now();
  cudaEventRecord(s->start);
  cudaError_t e = reduce_typed(bc, s);
  cudaEventRecord(s->stop);
  const size_t results = bc->segment_length ? bc->segment_count : 1;
  const bool pairs = bc->segment_length && (bc->op == OCL_REDUCE_ARGMIN ||
                                            bc->op == OCL_REDUCE_ARGMAX);
  const size_t pair_bytes = 2 * ocl_reduce_type_size(bc->type); /* KeyValuePair<int, T> */
  const size_t size = pairs ? pair_bytes : ocl_reduce_result_size(bc->op, bc->type);
  std::vector<unsigned char> copied(pairs ? results * pair_bytes : 0);
  if (e == cudaSuccess)
    e = cudaMemcpy(pairs ? copied.data() : result, s->d_out, results * size,
                   cudaMemcpyDeviceToHost);
  sample->end_to_end_s = now() - t0;
  if (pairs) /* {int key; T value} (aligned to T) per segment, into ocl_reduce_arg */
    for (size_t i = 0; i < results; i++) {
      ocl_reduce_arg arg;
      std::memset(&arg, 0, sizeof arg);
      int key = 0;
      std::memcpy(&key, &copied[i * pair_bytes], sizeof key);
      std::memcpy(&arg, &copied[i * pair_bytes + pair_bytes - ocl_reduce_type_size(bc->type)],
                  ocl_reduce_type_size(bc->type));
      arg.index = (uint64_t)key;
      std::memcpy(static_cast<char *>(result) + i * sizeof arg, &arg, sizeof arg);
    }
  float ms = 0;
  if (e == cudaSuccess)
    e = cudaEventElapsedTime(&ms, s->start, s->stop);
  if (e != cudaSuccess) {
    fprintf(stderr, "ocl-reduce: CUB: %s\n", cudaGetErrorString(e));
    return 0;
  }
  sample->device_s = 1e-3 * ms;
  return 1;
}

void cub_destroy(contender *c) {
  cub_state *s = static_cast<cub_state *>(c->state);
  if (!s)
    return;
  cub_unprepare(c);
  cudaEventDestroy(s->start);
  cudaEventDestroy(s->stop);
  delete s;
}

const contender_ops cub_ops = {cub_prepare, cub_run, cub_unprepare, cub_destroy, nullptr, nullptr};

} // namespace

extern "C" int contender_cub(contender *c, char *why, size_t why_size) {
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    snprintf(why, why_size, "%s", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
    return 0;
  }
  /* The pool that CUB's environment API allocates from keeps what it freed (gpu_to_gpu_sum). */
  cudaMemPool_t pool = nullptr;
  uint64_t keep_all = UINT64_MAX;
  if (cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess)
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all);
  cub_state *s = new cub_state;
  cudaEventCreate(&s->start);
  cudaEventCreate(&s->stop);
  std::memset(c, 0, sizeof *c);
  c->ops = &cub_ops;
  c->state = s;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  /* The device's name cut to what the contender's name has room for. */
  snprintf(c->name, sizeof c->name, "CUB Device[Segmented]Reduce (CCCL %d.%d.%d, CUDA %d.%d, %.40s)",
           CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION, CUDART_VERSION / 1000,
           (CUDART_VERSION % 1000) / 10, prop.name);
  return 1;
}

extern "C" double cuda_copy_bandwidth(size_t bytes) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    return 0;
  void *a = nullptr, *b = nullptr;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float best[12];
  int count = 0;
  if (cudaMalloc(&a, bytes) == cudaSuccess && cudaMalloc(&b, bytes) == cudaSuccess) {
    cudaMemset(a, 0, bytes);
    for (int r = -2; r < 12; r++) {
      cudaEventRecord(start);
      cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      if (r >= 0)
        best[count++] = ms;
    }
  }
  cudaFree(a);
  cudaFree(b);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (!count)
    return 0;
  /* The median; an insertion sort, as gcc 12's -Warray-bounds misreads std::sort on 12. */
  for (int i = 1; i < count; i++)
    for (int j = i; j > 0 && best[j - 1] > best[j]; j--)
      std::swap(best[j - 1], best[j]);
  return 2.0 * (double)bytes / (1e-3 * best[count / 2]) * 1e-9;
}

// `calls` cub::DeviceReduce::Sum of the same n f32 device elements, each into its own output,
// back to back on one stream, then one wait: the median seconds of `rounds` (after one untimed
// round), or a negative number with the reason. The temporary storage is allocated once
// (CUB asks for it per call; an application reusing one allocation does the same).
extern "C" double cub_enqueued_sums(size_t n, int calls, int rounds, char *why, size_t why_size) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    snprintf(why, why_size, "no CUDA device");
    return -1;
  }
  std::vector<float> host(n);
  for (size_t i = 0; i < n; i++)
    host[i] = (float)(i % 17);
  float *d_in = nullptr, *d_out = nullptr;
  void *d_temp = nullptr;
  size_t temp_bytes = 0;
  cudaStream_t stream = nullptr;
  double best = -1;
  std::vector<double> times;
  if (cudaStreamCreate(&stream) == cudaSuccess &&
      cudaMalloc(&d_in, n * sizeof(float)) == cudaSuccess &&
      cudaMalloc(&d_out, (size_t)calls * sizeof(float)) == cudaSuccess &&
      cudaMemcpy(d_in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess &&
      cub::DeviceReduce::Sum(nullptr, temp_bytes, d_in, d_out, (int)n, stream) == cudaSuccess &&
      cudaMalloc(&d_temp, temp_bytes) == cudaSuccess) {
    for (int r = -1; r < rounds; r++) {
      const double t0 = now();
      for (int c = 0; c < calls; c++)
        cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out + c, (int)n, stream);
      const cudaError_t e = cudaStreamSynchronize(stream);
      const double seconds = now() - t0;
      if (e != cudaSuccess) {
        snprintf(why, why_size, "%s", cudaGetErrorString(e));
        times.clear();
        break;
      }
      if (r >= 0)
        times.push_back(seconds);
    }
    if (!times.empty()) {
      std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
      best = times[times.size() / 2];
    }
    std::vector<float> out(calls);
    cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
    double expected = 0;
    for (size_t i = 0; i < n; i++)
      expected += host[i];
    for (int c = 0; c < calls && best >= 0; c++)
      if (out[c] != (float)expected) {
        snprintf(why, why_size, "CUB's sum %d is %g, not %g", c, out[c], expected);
        best = -1;
      }
  } else {
    snprintf(why, why_size, "CUDA allocation or CUB sizing failed");
  }
  cudaFree(d_temp);
  cudaFree(d_out);
  cudaFree(d_in);
  if (stream)
    cudaStreamDestroy(stream);
  return best;
}
