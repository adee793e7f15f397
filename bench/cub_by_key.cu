/* =================================================================================================
 * cub_by_key.cu: the CUDA anchor of bench_by_key.c (bench_by_key.h), compiled with nvcc into that
 * benchmark only: CUB's DeviceReduce::ReduceByKey with cuda::std::plus (ARGMIN: cub::ArgMin
 * over an ArgIndexInputIterator; affine: float2 maps composed in order), the keys' runs' keys and
 * results and the run count left on the device, as an application writes it (issue 57's anchor).
 * Device time from CUDA events around each call (cuda_timer.cuh), and end to end: the call and
 * the run count copied to the host, as an application needs it before it reads the runs, on the
 * host's clock (ours is timed so too). The temporary storage is allocated before the timing.
 * ============================================================================================== */
#include <cub/cub.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "bench_by_key.h"
#include "cuda_timer.cuh"

namespace {

/* SUM: the values and cuda::std::plus; ARGMIN: (position, value) pairs and cub::ArgMin; affine:
 * maps (a, b) composed in order, each run's b checked. */
template <typename V> struct sum_form {
  using value_t = V;
  using out_t = V;
  static V *values(V *v) { return v; }
  static cuda::std::plus<V> op() { return {}; }
  static double checked(const out_t &x) { return (double)x; }
};
template <typename V> struct argmin_form {
  using value_t = V;
  using out_t = cub::KeyValuePair<int64_t, V>;
  static cub::ArgIndexInputIterator<V *, int64_t> values(V *v) { return {v}; }
  static cub::ArgMin op() { return {}; }
  static double checked(const out_t &x) { return (double)x.key; }
};
struct affine_then { /* f, then g: x -> g.a (f.a x + f.b) + g.b */
  __host__ __device__ float2 operator()(const float2 &f, const float2 &g) const {
    return make_float2(g.x * f.x, g.x * f.y + g.y);
  }
};
struct affine_form {
  using value_t = float2;
  using out_t = float2;
  static float2 *values(float2 *v) { return v; }
  static affine_then op() { return {}; }
  static double checked(const out_t &x) { return (double)x.y; }
};

template <typename K, typename form>
int time_typed(const key_case *c, const void *keys, const void *values, uint64_t runs,
               const double *want, int rounds, double seconds[2], char *why, size_t why_size) {
  using V = typename form::value_t;
  using out_t = typename form::out_t;
  K *k_in = nullptr, *k_out = nullptr;
  V *v_in = nullptr;
  out_t *v_out = nullptr;
  int64_t *count = nullptr;
  void *temp = nullptr;
  size_t temp_bytes = 0;
  const size_t n = c->count;
  const auto op = form::op();
  cudaError_t e = cudaMalloc(&k_in, n * sizeof(K));
  if (e == cudaSuccess) e = cudaMalloc(&k_out, n * sizeof(K));
  if (e == cudaSuccess) e = cudaMalloc(&v_in, n * sizeof(V));
  if (e == cudaSuccess) e = cudaMalloc(&v_out, n * sizeof(out_t));
  if (e == cudaSuccess) e = cudaMalloc(&count, sizeof *count);
  if (e == cudaSuccess) e = cudaMemcpy(k_in, keys, n * sizeof(K), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(v_in, values, n * sizeof(V), cudaMemcpyHostToDevice);
  if (e == cudaSuccess)
    e = cub::DeviceReduce::ReduceByKey(nullptr, temp_bytes, k_in, k_out, form::values(v_in), v_out,
                                       count, op, (int64_t)n);
  if (e == cudaSuccess) e = cudaMalloc(&temp, temp_bytes);
  seconds[0] = seconds[1] = 0;
  const auto call = [&] {
    return cub::DeviceReduce::ReduceByKey(temp, temp_bytes, k_in, k_out, form::values(v_in), v_out,
                                          count, op, (int64_t)n);
  };
  int64_t got_runs = -1;
  if (e == cudaSuccess) {
    orx_bench::timer t;
    seconds[0] = t.median(rounds, call);
    std::vector<double> wall;
    for (int r = -1; r < rounds && seconds[0] > 0; r++) {
      const auto start = std::chrono::steady_clock::now();
      if (call() != cudaSuccess ||
          cudaMemcpy(&got_runs, count, sizeof got_runs, cudaMemcpyDeviceToHost) != cudaSuccess)
        seconds[0] = 0;
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      if (r >= 0)
        wall.push_back(took.count());
    }
    std::sort(wall.begin(), wall.end());
    seconds[1] = seconds[0] > 0 ? wall[wall.size() / 2] : 0;
  }
  std::vector<out_t> sums(runs);
  if (seconds[0] > 0 &&
      cudaMemcpy(&got_runs, count, sizeof got_runs, cudaMemcpyDeviceToHost) == cudaSuccess &&
      (uint64_t)got_runs == runs &&
      cudaMemcpy(sums.data(), v_out, runs * sizeof(out_t), cudaMemcpyDeviceToHost) ==
          cudaSuccess) {
    for (uint64_t r = 0; r < runs && seconds[0] > 0; r++)
      if (form::checked(sums[r]) != want[r]) {
        snprintf(why, why_size, "its run %llu gives %.9g, not %.9g", (unsigned long long)r,
                 form::checked(sums[r]), want[r]);
        seconds[0] = 0;
      }
  } else if (seconds[0] > 0) {
    snprintf(why, why_size, "its run count is %lld, not %llu", (long long)got_runs,
             (unsigned long long)runs);
    seconds[0] = 0;
  } else {
    snprintf(why, why_size, "%s", cudaGetErrorString(e != cudaSuccess ? e : cudaGetLastError()));
  }
  cudaFree(k_in), cudaFree(k_out), cudaFree(v_in), cudaFree(v_out), cudaFree(count);
  cudaFree(temp);
  return 1;
}

} // namespace

extern "C" int cub_by_key_time(const key_case *c, const void *keys, const void *values,
                               uint64_t runs, const double *want, int rounds, double seconds[2],
                               char *why, size_t why_size) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    snprintf(why, why_size, "no CUDA device");
    return 0;
  }
  if (c->affine)
    return time_typed<int32_t, affine_form>(c, keys, values, runs, want, rounds, seconds, why,
                                            why_size);
  if (c->argmin)
    return c->wide ? time_typed<int64_t, argmin_form<double>>(c, keys, values, runs, want, rounds,
                                                              seconds, why, why_size)
                   : time_typed<int32_t, argmin_form<float>>(c, keys, values, runs, want, rounds,
                                                             seconds, why, why_size);
  return c->wide ? time_typed<int64_t, sum_form<double>>(c, keys, values, runs, want, rounds,
                                                         seconds, why, why_size)
                 : time_typed<int32_t, sum_form<float>>(c, keys, values, runs, want, rounds,
                                                        seconds, why, why_size);
}
