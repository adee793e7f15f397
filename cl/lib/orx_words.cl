/* =================================================================================================
 * orx_words.cl: a work-item's run of consecutive elements of 4 or 8 bytes, read as 16-byte words
 * (one vector load per word on GPUs), for kernels whose work-items each own a run: the tiles of
 * reduce by key (kernels/by_key.cl, ORX_KEY_DIRECT) and of sliding windows (kernels/windows.cl,
 * ORX_WIN_WORDS). The run starts on a 16-byte boundary and holds a multiple of 16 bytes; callers
 * check the first and plan the second. The bits travel as uint or ulong, so that one helper
 * serves every type of the size.
 * ============================================================================================== */
#ifndef ORX_WORDS_CL
#define ORX_WORDS_CL

/* n elements of 4 bytes from p into bits[0, n). */
ORX_INLINE void orx_words_load4(ORX_GLOBAL_PTR const void *p, uint *bits, uint n) {
#pragma unroll
  for (uint q = 0; q < n / 4; q++) {
    const uint4 w = ((ORX_GLOBAL_PTR const uint4 *)p)[q];
    bits[4 * q] = w.x;
    bits[4 * q + 1] = w.y;
    bits[4 * q + 2] = w.z;
    bits[4 * q + 3] = w.w;
  }
}

/* n elements of 8 bytes from p into bits[0, n). */
ORX_INLINE void orx_words_load8(ORX_GLOBAL_PTR const void *p, ulong *bits, uint n) {
#pragma unroll
  for (uint q = 0; q < n / 2; q++) {
    const ulong2 w = ((ORX_GLOBAL_PTR const ulong2 *)p)[q];
    bits[2 * q] = w.x;
    bits[2 * q + 1] = w.y;
  }
}

/* Whether p lies on a 16-byte boundary. */
ORX_INLINE int orx_words_aligned(ORX_GLOBAL_PTR const void *p) { return ((ulong)p & 15) == 0; }

#endif /* ORX_WORDS_CL */
