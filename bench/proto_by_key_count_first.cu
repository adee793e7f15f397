// bench/proto_by_key_count_first.cu: a measurement prototype, not part of the library or its
// build. Reduce by key (SUM, i32 keys with f32 values and i64 with f64, 2^26 pairs) as passes
// that count the runs first, to learn whether that beats the one-pass kernel with its decoupled
// look-back (cl/kernels/by_key.cl) on an H200; docs/design/reduce-by-key.md, "Decision 1,
// revised", and docs/perf/h200-by-key.txt give the figures. Every variant checks its keys and
// sums against the host's.
//   count  k1s_count: a group counts the heads of 32 tiles from the keys alone and writes each
//          tile's heads before it within those 32, and their total;
//   tiles  k3s_tiles: each tile adds the totals before its 32, loads its pairs in 16-byte loads
//          into registers, and writes every run that starts and ends in it and each head's key
//          (staged in local memory, written coalesced), and its head partial (its values before
//          its first head) and tail partial (from its last head on);
//   fix    k4_fix: the run from each tile's last head, through the head partials after it.
// Beside it, the runs staged (2026-12-04): the tiles, not knowing their place, count their heads
// and, where a run has more than 4 pairs on average, write their runs at their own first
// element's position in a staging area and their run count (k3s_tiles<STAGE>); one group scans
// the counts (k2_scan); a group per tile copies its staged runs to their place, or where the
// tile was dense writes its runs from its pairs (k5_place); k4_fix as above. No key is read twice
// where runs are long: at runs of 32 the passes move 560 MB where counting first moves 784.
// The steps that led here (each pass's tile count first, a scan kernel, loads through local
// memory, runs stored by each work-item, a look-back over the count) are in docs/perf.
// Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/proto_by_key_count_first.cu -o proto && ./proto

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__);                                 \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

template <class K> struct alignas(16) vec {
  K e[16 / sizeof(K)];
};

// A segmented scan's element: whether a run starts in it, and the value from its last start.
template <class V> struct seg {
  unsigned f;
  V v;
};

// K1 by super-tiles of S tiles: each block counts the heads of its S tiles (no barrier between
// them), writes each tile's heads before it within the super-tile, and the super-tile's total.
template <int BT, int IT, int S, class K>
__global__ void __launch_bounds__(BT)
    k1s_count(const K *keys, size_t n, unsigned *local, unsigned *super, unsigned tiles) {
  constexpr int E = 16 / sizeof(K), NV = IT / E, TILE = BT * IT;
  const vec<K> *kv = (const vec<K> *)keys;
  unsigned cnt[S];
  const unsigned t0 = blockIdx.x * S;
#pragma unroll
  for (int s = 0; s < S; s++) {
    cnt[s] = 0;
    const size_t tbase = (size_t)(t0 + s) * TILE;
    if (tbase + TILE <= n) {
      vec<K> x[NV];
#pragma unroll
      for (int i = 0; i < NV; i++)
        x[i] = kv[tbase / E + i * BT + threadIdx.x];
#pragma unroll
      for (int i = 0; i < NV; i++) {
        size_t first = tbase + (size_t)(i * BT + threadIdx.x) * E;
        K prev = __shfl_up_sync(~0u, x[i].e[E - 1], 1);
        if ((threadIdx.x & 31) == 0)
          prev = first ? keys[first - 1] : K(0);
        cnt[s] += first == 0 || x[i].e[0] != prev;
#pragma unroll
        for (int e = 1; e < E; e++)
          cnt[s] += x[i].e[e] != x[i].e[e - 1];
      }
    } else {
      for (size_t j = tbase + threadIdx.x; j < n && j < tbase + TILE; j += BT)
        cnt[s] += j == 0 || keys[j] != keys[j - 1];
    }
  }
  __shared__ unsigned w[BT / 32][S];
#pragma unroll
  for (int s = 0; s < S; s++) {
    unsigned c = cnt[s];
    for (int o = 16; o; o >>= 1)
      c += __shfl_xor_sync(~0u, c, o);
    cnt[s] = c;
  }
  if ((threadIdx.x & 31) == 0)
#pragma unroll
    for (int s = 0; s < S; s++)
      w[threadIdx.x >> 5][s] = cnt[s];
  __syncthreads();
  if (threadIdx.x < 32) {
    // lane l: tile l of the super-tile (S <= 32)
    unsigned c = 0;
    if (threadIdx.x < S)
      for (int i = 0; i < BT / 32; i++)
        c += w[i][threadIdx.x];
    unsigned x = c;
    for (int o = 1; o < 32; o <<= 1) {
      unsigned y = __shfl_up_sync(~0u, x, o);
      if (threadIdx.x >= o)
        x += y;
    }
    if (threadIdx.x < S && t0 + threadIdx.x < tiles)
      local[t0 + threadIdx.x] = x - c;
    if (threadIdx.x == 31)
      super[blockIdx.x] = x;
  }
}

// K3 with its prefix from the super-tiles' totals and its tile's place within its super-tile,
// the runs it closes staged in local memory and written coalesced (MODE COUNTED). The runs staged
// instead (MODE STAGE): a tile of more than DENSE heads (a run of a few pairs on average) only
// counts them and leaves its values to the place pass (dense[tile] 1); else its runs go to its
// own first element's position in the staging area (res and kout) and its run count to
// offs[tile]. MODE PLACE: a dense tile's runs at their place (offs[tile] scanned).
enum { COUNTED, STAGE, PLACE };

template <int BT, int IT, int S, class K, class V, int MODE>
__device__ void tile_runs(const K *keys, const V *vals, size_t n, const unsigned *local,
                          const unsigned *super, unsigned *offs, unsigned *dense, V *res, K *kout,
                          V *headp, V *tailp) {
  constexpr int TILE = BT * IT, EK = 16 / sizeof(K), EV = 16 / sizeof(V);
  __shared__ seg<V> ws[BT / 32];
  __shared__ unsigned wc[BT / 32];
  __shared__ unsigned wp[BT / 32];
  __shared__ K skey[TILE + TILE / 32];
  __shared__ V sres[TILE + TILE / 32];
  const size_t tbase = (size_t)blockIdx.x * TILE;
  const size_t g0 = tbase + (size_t)threadIdx.x * IT;
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const bool whole = tbase + TILE <= n;
  K k[IT];
  V v[IT];
  unsigned f[IT];
  if (whole) {
#pragma unroll
    for (int i = 0; i < IT / EK; i++) {
      vec<K> x = ((const vec<K> *)keys)[g0 / EK + i];
#pragma unroll
      for (int e = 0; e < EK; e++)
        k[i * EK + e] = x.e[e];
    }
  } else {
#pragma unroll
    for (int i = 0; i < IT; i++)
      k[i] = g0 + i < n ? keys[g0 + i] : (g0 + i > 0 && g0 + i - 1 < n ? keys[n - 1] : K(0));
  }
  auto load_values = [&]() {
    if (whole) {
#pragma unroll
      for (int i = 0; i < IT / EV; i++) {
        vec<V> x = ((const vec<V> *)vals)[g0 / EV + i];
#pragma unroll
        for (int e = 0; e < EV; e++)
          v[i * EV + e] = x.e[e];
      }
    } else {
#pragma unroll
      for (int i = 0; i < IT; i++)
        v[i] = g0 + i < n ? vals[g0 + i] : V(0);
    }
  };
  if (MODE != STAGE)
    load_values();
  // the heads before the tile's super-tile
  const unsigned sup = blockIdx.x / S;
  unsigned before = 0;
  for (unsigned j = threadIdx.x; j < sup && MODE == COUNTED; j += BT)
    before += super[j];
  const unsigned mine = MODE == COUNTED ? local[blockIdx.x] : MODE == PLACE ? offs[blockIdx.x] : 0;
  for (int o = 16; o; o >>= 1)
    before += __shfl_xor_sync(~0u, before, o);
  if (MODE == STAGE) {
    res += tbase;
    kout += tbase;
  }
  K prev = __shfl_up_sync(~0u, k[IT - 1], 1);
  if (lane == 0)
    prev = g0 > 0 ? keys[min(g0, n) - 1] : K(0);
  unsigned heads = 0;
#pragma unroll
  for (int i = 0; i < IT; i++) {
    f[i] = g0 + i < n && (g0 + i == 0 || k[i] != prev);
    prev = k[i];
    heads += f[i];
  }
  if (MODE == STAGE) { // dense: the heads counted, the values left to the place pass
    unsigned total = heads;
    for (int o = 16; o; o >>= 1)
      total += __shfl_xor_sync(~0u, total, o);
    if (lane == 0)
      wc[wid] = total;
    __syncthreads();
    total = 0;
    for (int w = 0; w < BT / 32; w++)
      total += wc[w];
    if (total > TILE / 4) {
      if (threadIdx.x == 0) {
        offs[blockIdx.x] = total;
        dense[blockIdx.x] = 1;
      }
      return;
    }
    if (threadIdx.x == 0)
      dense[blockIdx.x] = 0;
    __syncthreads();
    load_values();
  }
  unsigned any = 0;
  V run = V(0);
#pragma unroll
  for (int i = 0; i < IT; i++) {
    if (f[i]) {
      run = v[i];
      any = 1;
    } else
      run += v[i];
  }
  seg<V> x = {any, run};
  unsigned h = heads;
  for (int o = 1; o < 32; o <<= 1) {
    unsigned yf = __shfl_up_sync(~0u, x.f, o);
    V yv = __shfl_up_sync(~0u, x.v, o);
    unsigned yh = __shfl_up_sync(~0u, h, o);
    if (lane >= o) {
      x.v = x.f ? x.v : yv + x.v;
      x.f |= yf;
      h += yh;
    }
  }
  if (lane == 31) {
    ws[wid] = x;
    wc[wid] = h;
  }
  if (lane == 0)
    wp[wid] = before;
  __syncthreads();
  unsigned off = mine;
  for (int w = 0; w < BT / 32; w++)
    off += wp[w];
  seg<V> c = {0, V(0)};
  unsigned ch = 0, all = 0;
  for (int w = 0; w < BT / 32; w++) {
    if (w < wid) {
      c.v = ws[w].f ? ws[w].v : c.v + ws[w].v;
      c.f |= ws[w].f;
      ch += wc[w];
    }
    all += wc[w];
  }
  unsigned pf = __shfl_up_sync(~0u, x.f, 1);
  V pv = __shfl_up_sync(~0u, x.v, 1);
  unsigned ph = __shfl_up_sync(~0u, h, 1);
  if (lane > 0) {
    c.v = pf ? pv : c.v + pv;
    c.f |= pf;
    ch += ph;
  }
  unsigned rank = ch;
  V cur = c.v;
  unsigned curf = c.f;
#define PAD(i) ((i) + ((i) >> 5))
#pragma unroll
  for (int i = 0; i < IT; i++) {
    if (f[i]) {
      if (curf)
        sres[PAD(rank - 1)] = cur;
      else
        headp[blockIdx.x] = cur;
      skey[PAD(rank)] = k[i];
      rank++;
      cur = v[i];
      curf = 1;
    } else
      cur += v[i];
  }
  if (threadIdx.x == BT - 1) {
    if (curf)
      tailp[blockIdx.x] = cur;
    else
      headp[blockIdx.x] = cur;
    if (MODE != PLACE)
      offs[blockIdx.x] = MODE == STAGE ? all : off;
    if (blockIdx.x == gridDim.x - 1 && MODE == COUNTED)
      offs[blockIdx.x + 1] = off + all;
  }
  __syncthreads();
  for (unsigned j = threadIdx.x; j < all; j += BT) {
    kout[off + j] = skey[PAD(j)];
    if (j + 1 < all)
      res[off + j] = sres[PAD(j)];
  }
}

template <int BT, int IT, int S, class K, class V, int MODE = COUNTED>
__global__ void __launch_bounds__(BT)
    k3s_tiles(const K *keys, const V *vals, size_t n, const unsigned *local, const unsigned *super,
              unsigned *offs, unsigned *dense, V *res, K *kout, V *headp, V *tailp) {
  tile_runs<BT, IT, S, K, V, MODE>(keys, vals, n, local, super, offs, dense, res, kout, headp,
                                   tailp);
}

template <class V>
__global__ void k4_fix(const unsigned *offs, unsigned tiles, const V *headp, const V *tailp,
                       V *res) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= tiles || offs[t + 1] == offs[t])
    return;
  V val = tailp[t];
  for (unsigned u = t + 1; u < tiles; u++) {
    val += headp[u];
    if (offs[u + 1] != offs[u])
      break;
  }
  res[offs[t + 1] - 1] = val;
}

// One group of 1024: the tiles' run counts (offs[t]) into the runs before each, and their total;
// each work-item 32 consecutive tiles' counts in 16-byte words, 32768 tiles a round.
__global__ void __launch_bounds__(1024) k2_scan(unsigned *offs, unsigned tiles) {
  __shared__ unsigned sums[1024];
  unsigned carry = 0;
  for (unsigned base = 0; base < tiles; base += 32 * 1024) {
    const unsigned first = base + threadIdx.x * 32;
    unsigned c[32], own = 0;
#pragma unroll
    for (int q = 0; q < 8; q++) {
      uint4 w = make_uint4(0, 0, 0, 0);
      if (first + 4 * q + 3 < tiles)
        w = ((const uint4 *)(offs + first))[q];
      if (first + 4 * q + 3 >= tiles) {
        w.x = first + 4 * q < tiles ? offs[first + 4 * q] : 0;
        w.y = first + 4 * q + 1 < tiles ? offs[first + 4 * q + 1] : 0;
        w.z = first + 4 * q + 2 < tiles ? offs[first + 4 * q + 2] : 0;
      }
      c[4 * q] = w.x;
      c[4 * q + 1] = w.y;
      c[4 * q + 2] = w.z;
      c[4 * q + 3] = w.w;
      own += w.x + w.y + w.z + w.w;
    }
    unsigned x = own;
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned y = __shfl_up_sync(~0u, x, o);
      if ((threadIdx.x & 31) >= o)
        x += y;
    }
    if ((threadIdx.x & 31) == 31)
      sums[threadIdx.x >> 5] = x;
    __syncthreads();
    unsigned warps = 0, all = 0;
    for (unsigned w = 0; w < 32; w++) {
      warps += w < (threadIdx.x >> 5) ? sums[w] : 0;
      all += sums[w];
    }
    unsigned before = carry + warps + x - own;
#pragma unroll
    for (int t = 0; t < 32; t++) {
      if (first + t < tiles)
        offs[first + t] = before;
      before += c[t];
    }
    carry += all;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    offs[tiles] = carry;
}

// A group per tile: a dense tile's runs from its pairs (tile_runs PLACE), another's staged runs
// to their place (all but its last run's value, which k4_fix completes next).
template <int BT, int IT, class K, class V>
__global__ void __launch_bounds__(BT)
    k5_place(const K *keys, const V *vals, size_t n, unsigned *offs, const unsigned *dense,
             const K *staged_keys, const V *staged, V *headp, V *tailp, K *kout, V *res) {
  constexpr int TILE = BT * IT;
  const unsigned t = blockIdx.x, off = offs[t], all = offs[t + 1] - off;
  if (dense[t]) {
    tile_runs<BT, IT, 32, K, V, PLACE>(keys, vals, n, nullptr, nullptr, offs, nullptr, res, kout,
                                       headp, tailp);
    return;
  }
  const size_t from = (size_t)t * TILE;
  for (unsigned j = threadIdx.x; j < all; j += BT) {
    kout[off + j] = staged_keys[from + j];
    if (j + 1 < all)
      res[off + j] = staged[from + j];
  }
}

template <class V> __global__ void read_all(const V *a, size_t n, V *out) {
  const float4 *p = (const float4 *)a;
  size_t nv = n * sizeof(V) / 16;
  float s = 0;
  size_t i = blockIdx.x * (size_t)blockDim.x * 8 + threadIdx.x;
  for (; i + 7 * blockDim.x < nv; i += (size_t)gridDim.x * blockDim.x * 8) {
    float4 x[8];
#pragma unroll
    for (int u = 0; u < 8; u++)
      x[u] = p[i + u * blockDim.x];
#pragma unroll
    for (int u = 0; u < 8; u++)
      s += x[u].x + x[u].y + x[u].z + x[u].w;
  }
  if (s == -12345.f)
    *(float *)out = s;
}

// Waits for the last of `count` events: the time from the first to it into `total`, and each
// interval between them into part[i] (none when part is null).
static void laps(cudaEvent_t *ev, int count, std::vector<float> *total, std::vector<float> *part) {
  CK(cudaEventSynchronize(ev[count - 1]));
  float ms;
  cudaEventElapsedTime(&ms, ev[0], ev[count - 1]);
  total->push_back(ms * 1000);
  for (int i = 1; part && i < count; i++) {
    cudaEventElapsedTime(&ms, ev[i - 1], ev[i]);
    part[i - 1].push_back(ms * 1000);
  }
}

template <class K, class V, int BT, int IT>
void run(const char *name, size_t n, int mean, int reps) {
  constexpr int TILE = BT * IT;
  std::vector<K> hk(n);
  std::vector<V> hv(n);
  srand(7);
  K key = 0;
  size_t i = 0;
  while (i < n) {
    size_t len = mean == 0 ? 1 + rand() % 64 : 1 + rand() % (2 * mean - 1);
    for (size_t j = 0; j < len && i < n; j++, i++) {
      hk[i] = key;
      hv[i] = V((rand() % 64) * 0.25);
    }
    key++;
  }
  std::vector<K> rk;
  std::vector<V> rv;
  for (size_t j = 0; j < n; j++) {
    if (j == 0 || hk[j] != hk[j - 1]) {
      rk.push_back(hk[j]);
      rv.push_back(V(0));
    }
    rv.back() += hv[j];
  }
  size_t tiles = (n + TILE - 1) / TILE;
  K *dk, *dko;
  V *dv, *dr, *hp, *tp;
  unsigned *cnt, *offs;
  CK(cudaMalloc(&dk, n * sizeof(K)));
  CK(cudaMalloc(&dv, n * sizeof(V)));
  CK(cudaMalloc(&dko, n * sizeof(K)));
  CK(cudaMalloc(&dr, n * sizeof(V)));
  CK(cudaMalloc(&hp, tiles * sizeof(V)));
  CK(cudaMalloc(&tp, tiles * sizeof(V)));
  CK(cudaMalloc(&cnt, tiles * 8));
  CK(cudaMalloc(&offs, (tiles + 1) * 4 + 16)); /* k2_scan reads whole 16-byte words */
  CK(cudaMemcpy(dk, hk.data(), n * sizeof(K), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, hv.data(), n * sizeof(V), cudaMemcpyHostToDevice));
  cudaEvent_t ev[4];
  for (cudaEvent_t &e : ev)
    cudaEventCreate(&e);
  std::vector<float> tt, t[3], tr;
  for (int r = 0; r < reps; r++) {
    cudaEventRecord(ev[0]);
    k1s_count<BT, IT, 32, K><<<(tiles + 31) / 32, BT>>>(dk, n, cnt, cnt + tiles, (unsigned)tiles);
    cudaEventRecord(ev[1]);
    k3s_tiles<BT, IT, 32, K, V>
        <<<tiles, BT>>>(dk, dv, n, cnt, cnt + tiles, offs, nullptr, dr, dko, hp, tp);
    cudaEventRecord(ev[2]);
    k4_fix<V><<<(tiles + 255) / 256, 256>>>(offs, (unsigned)tiles, hp, tp, dr);
    cudaEventRecord(ev[3]);
    laps(ev, 4, &tt, t);
    cudaEventRecord(ev[0]);
    read_all<K><<<132 * 4, 256>>>(dk, n, dko + n - 1);
    read_all<V><<<132 * 4, 256>>>(dv, n, dr + n - 1);
    cudaEventRecord(ev[1]);
    laps(ev, 2, &tr, nullptr);
  }
  CK(cudaGetLastError());
  auto med = [](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  // The runs and their sums against the host's; the pairs' and runs' bytes over the time.
  auto report = [&](const char *form, const std::vector<float> &total, const char *parts) {
    unsigned runs;
    CK(cudaMemcpy(&runs, offs + tiles, 4, cudaMemcpyDeviceToHost));
    std::vector<K> gk(runs);
    std::vector<V> gv(runs);
    CK(cudaMemcpy(gk.data(), dko, runs * sizeof(K), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gv.data(), dr, runs * sizeof(V), cudaMemcpyDeviceToHost));
    size_t bad = runs != rk.size();
    for (size_t j = 0; j < runs && j < rk.size() && bad < 5; j++)
      if (gk[j] != rk[j] || gv[j] != rv[j]) {
        if (!bad)
          printf("  first bad %zu: %g vs %g\n", j, (double)gv[j], (double)rv[j]);
        bad++;
      }
    double bytes = n * (sizeof(K) + sizeof(V)) + runs * (sizeof(K) + sizeof(V));
    printf("%s %-7s tile %5d runs of %4d: %8u runs  total %7.1f us (%s)  %5.0f GB/s  read-all "
           "%6.1f us  %s\n",
           name, form, TILE, mean, runs, med(total), parts, bytes / med(total) / 1e3, med(tr),
           bad ? "WRONG" : "ok");
  };
  char parts[96];
  snprintf(parts, sizeof parts, "count %6.1f tiles %6.1f fix %5.1f", med(t[0]), med(t[1]),
           med(t[2]));
  report("counted", tt, parts);
  // The runs staged: tiles into the staging area, their counts scanned, each tile's runs placed.
  K *sk;
  V *sv;
  unsigned *dense;
  CK(cudaMalloc(&sk, n * sizeof(K)));
  CK(cudaMalloc(&sv, n * sizeof(V)));
  CK(cudaMalloc(&dense, tiles * 4));
  CK(cudaMemset(dko, 0, n * sizeof(K))); /* so that the counted call's results cannot pass */
  CK(cudaMemset(dr, 0, n * sizeof(V)));
  tt.clear();
  for (std::vector<float> &part : t)
    part.clear();
  for (int r = 0; r < reps; r++) {
    cudaEventRecord(ev[0]);
    k3s_tiles<BT, IT, 32, K, V, STAGE>
        <<<tiles, BT>>>(dk, dv, n, nullptr, nullptr, offs, dense, sv, sk, hp, tp);
    cudaEventRecord(ev[1]);
    k2_scan<<<1, 1024>>>(offs, (unsigned)tiles);
    cudaEventRecord(ev[2]);
    k5_place<BT, IT, K, V><<<tiles, BT>>>(dk, dv, n, offs, dense, sk, sv, hp, tp, dko, dr);
    k4_fix<V><<<(tiles + 255) / 256, 256>>>(offs, (unsigned)tiles, hp, tp, dr);
    cudaEventRecord(ev[3]);
    laps(ev, 4, &tt, t);
  }
  CK(cudaGetLastError());
  snprintf(parts, sizeof parts, "tiles %6.1f scan %5.1f place+fix %6.1f", med(t[0]), med(t[1]),
           med(t[2]));
  report("staged", tt, parts);
  cudaFree(sk);
  cudaFree(sv);
  cudaFree(dense);
  cudaFree(dk);
  cudaFree(dv);
  cudaFree(dko);
  cudaFree(dr);
  cudaFree(hp);
  cudaFree(tp);
  cudaFree(cnt);
  cudaFree(offs);
}

int main() {
  const size_t n = (size_t)1 << 26;
  const int means[] = {1, 2, 8, 32, 256, 1000, 0}; /* 0: lengths 1 to 64 */
  for (int m : means)
    run<int, float, 128, 16>("i32/f32", n, m, 20);
  for (int m : means)
    run<long long, double, 128, 8>("i64/f64", n, m, 20);
  return 0;
}
