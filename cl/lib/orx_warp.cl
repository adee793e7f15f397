/* =================================================================================================
 * orx_warp.cl: NVIDIA's warps of 32 lanes, in the words of the compiler at hand: CUDA's
 * intrinsics through NVRTC (__CUDACC__), inline PTX through NVIDIA's OpenCL (__NV_CL_C_VERSION,
 * which its compiler defines). Keyed on the compiler rather than on the plan's subgroup
 * implementation, so that a kernel may shuffle within a warp and still read no subgroup define:
 * such a kernel is one program on every path of a device, built once (exec/program.c). The warp
 * paths of lib/orx_subgroup.cl and reduce by key's warp join and warp scan (kernels/by_key.cl)
 * shuffle here.
 * ORX_WARP_SHUFFLE: 1 where orx_warp_shuffle_xor and orx_warp_shuffle_up exist.
 * ============================================================================================== */
#ifndef ORX_WARP_CL
#define ORX_WARP_CL

#include "lib/orx_dialect.cl"

#define ORX_WARP_SIZE 32
/* orx_warp_shuffle_xor(x, mask): 32 bits from lane (lane ^ mask) of the warp, a butterfly with
 * every lane a member. orx_warp_shuffle_up(x, delta): from lane (lane - delta), a lane below
 * delta its own x. */
#if defined(__CUDACC__)
#define ORX_WARP_SHUFFLE 1
#define orx_warp_shuffle_xor(x, mask)                                                              \
  __shfl_xor_sync(0xffffffffu, (uint)(x), (int)(mask), ORX_WARP_SIZE)
#define orx_warp_shuffle_up(x, delta)                                                              \
  __shfl_up_sync(0xffffffffu, (uint)(x), (uint)(delta), ORX_WARP_SIZE)
#elif defined(__NV_CL_C_VERSION)
#define ORX_WARP_SHUFFLE 1
ORX_INLINE uint orx_warp_shuffle_xor(uint x, uint mask) {
  uint r;
  __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"
                   : "=r"(r)
                   : "r"(x), "r"(mask));
  return r;
}
ORX_INLINE uint orx_warp_shuffle_up(uint x, uint delta) {
  uint r;
  __asm__ volatile("shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;" : "=r"(r) : "r"(x), "r"(delta));
  return r;
}
#else
#define ORX_WARP_SHUFFLE 0
#endif

#endif /* ORX_WARP_CL */
