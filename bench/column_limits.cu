// column_limits.cu: what a CUDA kernel written for one of issue 55's column views alone reaches on
// this GPU (partials added by atomics: no determinism, no other operator), against a hand-written
// whole-array sum of as many elements: the copy limit the columns kernel (cl/kernels/
// axes_columns.cl) is measured against, and the variants that tell what moves it (batches of
// loads, cache hints, scalar stores, the grid). f32 of 2^28 elements, medians of 15 by CUDA
// events. Not built by CMake; on the H200 machine: LIMITS=1 scripts/h200/axes.sh, or
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/column_limits.cu -o /tmp/column_limits
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e = (x);                                                                           \
    if (e != cudaSuccess) {                                                                        \
      printf("%s: %s\n", #x, cudaGetErrorString(e));                                               \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

__device__ float warp_sum(float v) {
  for (int o = 16; o; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void whole(const float4 *in, size_t n4, float *out) {
  float s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x) {
    float4 v = in[i];
    s += v.x + v.y + v.z + v.w;
  }
  s = warp_sum(s);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, s);
}

// [R, C] {0}, R small: a thread per float4 of a row, R loads in batches of B, all in registers;
// HINT: streaming loads and stores (__ldcs/__stcs); SCALAR: the result stored a float at a time.
template <int R, int B, bool HINT, bool SCALAR>
__global__ void wide_v(const float4 *in, size_t c4, size_t stride4, float4 *out) {
  for (size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x; c < c4;
       c += (size_t)gridDim.x * blockDim.x) {
    float4 s = make_float4(0, 0, 0, 0);
#pragma unroll
    for (int r0 = 0; r0 < R; r0 += B) {
      float4 v[B];
#pragma unroll
      for (int r = 0; r < B; r++)
        v[r] = HINT ? __ldcs(&in[(r0 + r) * stride4 + c]) : in[(r0 + r) * stride4 + c];
#pragma unroll
      for (int r = 0; r < B; r++) {
        s.x += v[r].x;
        s.y += v[r].y;
        s.z += v[r].z;
        s.w += v[r].w;
      }
    }
    if (SCALAR) {
      float *o = (float *)&out[c];
      o[0] = s.x;
      o[1] = s.y;
      o[2] = s.z;
      o[3] = s.w;
    } else if (HINT) {
      __stcs(&out[c], s);
    } else {
      out[c] = s;
    }
  }
}

// [R, C] {0}, columns (C floats) cut into P parts of rows: thread per column and part, 16 loads
// in flight, partials atomically added.
__global__ void parts(const float *in, size_t rows, size_t cols, size_t stride, size_t P,
                      float *out) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (t >= cols * P)
    return;
  size_t c = t % cols, p = t / cols;
  size_t first = p * rows / P, end = (p + 1) * rows / P;
  float s = 0;
  size_t r = first;
  for (; r + 16 <= end; r += 16) {
    float v[16];
#pragma unroll
    for (int u = 0; u < 16; u++)
      v[u] = in[(r + u) * stride + c];
#pragma unroll
    for (int u = 0; u < 16; u++)
      s += v[u];
  }
  for (; r < end; r++)
    s += in[r * stride + c];
  atomicAdd(&out[c], s);
}

// A thread's quarter (q: a float4) of the [R, 16] rows the grid deals it, summed.
__device__ float4 quarter_rows(const float4 *in, size_t rows, size_t q) {
  float4 s = make_float4(0, 0, 0, 0);
  for (size_t r = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) >> 2; r < rows;
       r += ((size_t)gridDim.x * blockDim.x) >> 2) {
    float4 v = in[r * 4 + q];
    s.x += v.x;
    s.y += v.y;
    s.z += v.z;
    s.w += v.w;
  }
  return s;
}

// [R, 16] {0}: four threads a row (a float4 each), blocks over rows, then atomics.
__global__ void tall16(const float4 *in, size_t rows, float *out) {
  const size_t q = threadIdx.x & 3;
  float4 s = quarter_rows(in, rows, q);
  // lanes with the same q: xor-shuffle over 4, 8, 16
  for (int o = 4; o < 32; o <<= 1) {
    s.x += __shfl_xor_sync(0xffffffffu, s.x, o);
    s.y += __shfl_xor_sync(0xffffffffu, s.y, o);
    s.z += __shfl_xor_sync(0xffffffffu, s.z, o);
    s.w += __shfl_xor_sync(0xffffffffu, s.w, o);
  }
  if ((threadIdx.x & 31) < 4) {
    atomicAdd(&out[q * 4 + 0], s.x);
    atomicAdd(&out[q * 4 + 1], s.y);
    atomicAdd(&out[q * 4 + 2], s.z);
    atomicAdd(&out[q * 4 + 3], s.w);
  }
}

// [R, 16] {0} deterministic: tall16's reads, the block's 64 lanes of each quarter combined in
// shared memory (a fixed tree), one partial of 16 a block, and the last block to finish folds
// the partials (threadfence and a counter, as cl/lib/orx_finish.cl): one launch, no atomics on
// the results. ATOMIC: the block's partial added atomically instead (16 atomics a block, not a
// warp's 16: tall16's end is 135k atomics on one 64-byte line).
// The block's 256 float4s combined over the lanes of each quarter (lanes 4 apart, a fixed tree):
// lanes 0-3 hold the four sums.
__device__ void block_quarters(float4 *sm, unsigned t, float4 s) {
  sm[t] = s;
  __syncthreads();
  for (unsigned h = 128; h >= 4; h >>= 1) {
    if (t < h) {
      float4 o = sm[t + h];
      sm[t].x += o.x;
      sm[t].y += o.y;
      sm[t].z += o.z;
      sm[t].w += o.w;
    }
    __syncthreads();
  }
}

template <bool ATOMIC>
__global__ void tall16_blocks(const float4 *in, size_t rows, float4 *partials, unsigned *counter,
                              float *out) {
  __shared__ float4 sm[256];
  __shared__ bool last;
  const unsigned t = threadIdx.x, q = t & 3;
  float4 s = quarter_rows(in, rows, q);
  block_quarters(sm, t, s);
  if (ATOMIC) {
    if (t < 4) {
      atomicAdd(&out[q * 4 + 0], sm[t].x);
      atomicAdd(&out[q * 4 + 1], sm[t].y);
      atomicAdd(&out[q * 4 + 2], sm[t].z);
      atomicAdd(&out[q * 4 + 3], sm[t].w);
    }
    return;
  }
  if (t < 4)
    partials[blockIdx.x * 4 + t] = sm[t];
  __syncthreads();
  if (t == 0) {
    __threadfence();
    last = atomicInc(counter, 0xffffffffu) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;
  __threadfence();
  s = make_float4(0, 0, 0, 0);
  for (unsigned g = t >> 2; g < gridDim.x; g += 64) {
    volatile float *v = (volatile float *)&partials[g * 4 + q];
    s.x += v[0];
    s.y += v[1];
    s.z += v[2];
    s.w += v[3];
  }
  block_quarters(sm, t, s);
  if (t < 4)
    ((float4 *)out)[t] = sm[t];
  if (t == 0)
    *counter = 0;
}

template <class F> static float median_us(F f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  f();
  CK(cudaDeviceSynchronize());
  for (int k = 0; k < 15; k++) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const size_t N = (size_t)1 << 28;
  float *in, *out;
  CK(cudaMalloc(&in, (N + (1 << 20)) * 4));
  CK(cudaMalloc(&out, (N / 4) * 4 + 4096));
  CK(cudaMemset(in, 0, (N + (1 << 20)) * 4));
  int sms;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int G = sms * 8, B = 256;
  float tw28 = median_us([&] { whole<<<G, B>>>((const float4 *)in, N / 4, out); });
  float tw26 = median_us([&] { whole<<<G, B>>>((const float4 *)in, N / 16, out); });
  printf("whole 2^28 %.1f us (%.2f TB/s), 2^26 %.1f us\n", tw28, N * 4 / tw28 / 1e6, tw26);
  // [2^4, 2^24] {0}
  {
    const size_t c4 = (N / 16) / 4;
    auto go = [&](const char *name, auto kernel) {
      for (int g : {G * 4, (int)((c4 + B - 1) / B)}) {
        float t = median_us([&] { kernel<<<g, B>>>((const float4 *)in, c4, c4, (float4 *)out); });
        printf("[2^4, 2^24] {0} %s grid %d: %.1f us, of whole %.3f\n", name, g, t, tw28 / t);
      }
    };
    go("plain 16", wide_v<16, 16, false, false>);
    go("plain 8", wide_v<16, 8, false, false>);
    go("plain scalar stores 8", wide_v<16, 8, false, true>);
    go("hints 8", wide_v<16, 8, true, false>);
    go("hints scalar stores 8", wide_v<16, 8, true, true>);
  }
  {
    size_t st = (N / 16 + 64) / 4;
    float t = median_us([&] {
      wide_v<16, 16, false, false>
          <<<G * 4, B>>>((const float4 *)in, (N / 16) / 4, st, (float4 *)out);
    });
    printf("[2^4, 2^24] rows 2^24+64 apart {0}: %.1f us, of whole %.3f\n", t, tw28 / t);
  }
  // [2^24, 2^4] {0}
  for (int g : {G, G * 2, G * 4}) {
    float t = median_us([&] { tall16<<<g, B>>>((const float4 *)in, N / 16, out); });
    printf("[2^24, 2^4] {0} tall16 grid %d: %.1f us, of whole %.3f\n", g, t, tw28 / t);
  }
  {
    float4 *partials;
    unsigned *counter;
    CK(cudaMalloc(&partials, (size_t)G * 16 * 4 * sizeof(float4)));
    CK(cudaMalloc(&counter, sizeof(unsigned)));
    CK(cudaMemset(counter, 0, sizeof(unsigned)));
    for (int g : {G / 2, G, G * 2, G * 4}) {
      float t = median_us([&] {
        tall16_blocks<false><<<g, B>>>((const float4 *)in, N / 16, partials, counter, out);
      });
      float ta = median_us([&] {
        tall16_blocks<true><<<g, B>>>((const float4 *)in, N / 16, partials, counter, out);
      });
      printf("[2^24, 2^4] {0} blocks+last grid %d: %.1f us, of whole %.3f; blocks+atomics %.1f us, "
             "%.3f\n", g, t, tw28 / t, ta, tw28 / ta);
    }
  }
  // [2^14, 2^14] {0} and the window [2^13, 2^13] of 2^14 {0}, in parts
  for (size_t P : {8, 16, 33, 64}) {
    size_t R = 1 << 14, C = 1 << 14;
    float t = median_us([&] { parts<<<(C * P + B - 1) / B, B>>>(in, R, C, C, P, out); });
    printf("[2^14, 2^14] {0} parts %zu: %.1f us, of whole %.3f\n", P, t, tw28 / t);
  }
  for (size_t P : {16, 33, 64, 128}) {
    size_t R = 1 << 13, C = 1 << 13;
    float t = median_us([&] { parts<<<(C * P + B - 1) / B, B>>>(in, R, C, 2 * C, P, out); });
    printf("window [2^13, 2^13] of 2^14 {0} parts %zu: %.1f us, of whole(2^26) %.3f\n", P, t,
           tw26 / t);
  }
  return 0;
}
