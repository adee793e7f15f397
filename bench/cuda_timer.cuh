/* =================================================================================================
 * cuda_timer.cuh: the device time of a benchmark's CUDA anchors (cub_axes.cu, cub_pairs.cu): CUDA
 * events around each call on the default stream, the median of `rounds` after one untimed call.
 * ============================================================================================== */
#ifndef ORX_CUDA_TIMER_CUH
#define ORX_CUDA_TIMER_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace orx_bench {

struct timer {
  cudaEvent_t start, stop;
  timer() {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
  }
  ~timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  /* Median seconds of `rounds` runs of f after one untimed run; 0 on an error. */
  double median(int rounds, const std::function<cudaError_t()> &f) {
    std::vector<double> t;
    for (int r = -1; r < rounds; r++) {
      cudaEventRecord(start);
      if (f() != cudaSuccess)
        return 0;
      cudaEventRecord(stop);
      if (cudaEventSynchronize(stop) != cudaSuccess)
        return 0;
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      if (r >= 0)
        t.push_back(1e-3 * ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

} // namespace orx_bench

#endif /* ORX_CUDA_TIMER_CUH */
