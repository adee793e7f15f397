/* =================================================================================================
 * gather.cl: a strided N-d view copied into the dense order the segmented kernels read, for the
 * views of a buffer that no kernel reads in place yet (src/exec/run_axes.c): element
 * r * length + j of `out` is the view's element at kept position r (row-major over the kept axes)
 * and reduced position j (row-major over the reduced axes), in[in_offset + its offset].
 *
 * dims holds, as ulongs: the kept rank K, the reduced rank R, the kept extents and strides (K
 * each, outermost first), then the reduced ones (R each). Elements are `elem` bytes, copied as
 * uints when elem is a multiple of 4 (the host's buffers then keep them 4-byte aligned), else as
 * bytes. Any grid: each work-item takes every get_global_size(0)-th element.
 * ============================================================================================== */
#include "lib/orx_dialect.cl"

/* The element offset of position p (row-major) over `rank` axes: extents at d, strides after. */
ORX_INLINE ulong orx_gather_offset(ORX_GLOBAL_PTR const ulong *d, ulong rank, ulong p) {
  ulong at = 0;
  for (ulong k = rank; k-- > 0;) {
    const ulong extent = d[k];
    at += (p % extent) * d[rank + k];
    p /= extent;
  }
  return at;
}

__kernel void orx_gather(__global const uchar *in, ulong in_offset, __global uchar *out,
                         ulong results, ulong length, ulong elem, __global const ulong *dims) {
  const ulong kept_rank = dims[0], reduced_rank = dims[1];
  __global const ulong *kept = dims + 2;
  __global const ulong *reduced = dims + 2 + 2 * kept_rank;
  const ulong total = results * length;
  for (ulong g = get_global_id(0); g < total; g += get_global_size(0)) {
    const ulong r = g / length, j = g - r * length;
    const ulong from = in_offset + orx_gather_offset(kept, kept_rank, r) +
                       orx_gather_offset(reduced, reduced_rank, j);
    if (elem % 4 == 0) {
      __global const uint *src = (__global const uint *)(in + from * elem);
      __global uint *dst = (__global uint *)(out + g * elem);
      for (ulong w = 0; w < elem / 4; w++)
        dst[w] = src[w];
    } else {
      for (ulong b = 0; b < elem; b++)
        out[g * elem + b] = in[from * elem + b];
    }
  }
}
