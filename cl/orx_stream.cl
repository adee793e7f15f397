/* =================================================================================================
 * orx_stream.cl: how one work-item reads its share of the input and accumulates it.
 *
 * The input is viewed as `nvec` aligned vectors of ORX_VEC elements. The host chooses the layout by
 * device type (ORX_STREAM):
 *
 *   ORX_STREAM_STRIDED (GPUs): work-item w of W takes vectors w, w + W, w + 2W, ... so that
 *     neighbouring work-items read neighbouring vectors (coalesced), ORX_UNROLL loads in flight.
 *   ORX_STREAM_CHUNK (CPUs): work-item w takes one contiguous run of vectors. CPU implementations
 *     run a work-group's work-items one after another, so a strided loop would jump through
 *     memory; on PoCL it is 10-40x slower than a contiguous run.
 *
 * Each load feeds one of ORX_UNROLL independent vector accumulators (more loads in flight, shorter
 * dependency chains); they are combined in a fixed order at the end.
 * ============================================================================================== */
#ifndef ORX_STREAM_CL
#define ORX_STREAM_CL

#define ORX_STREAM_STRIDED 0
#define ORX_STREAM_CHUNK 1

#ifndef ORX_STREAM
#define ORX_STREAM ORX_STREAM_STRIDED
#endif
#ifndef ORX_UNROLL
#define ORX_UNROLL 1
#endif
/* Qualifier of a pointer into global memory passed to a helper function. */
#ifndef ORX_GLOBAL_PTR
#define ORX_GLOBAL_PTR __global
#endif

/* Accumulates vectors [begin, end) with step `step` of `in` (step 1: a contiguous run). */
ORX_INLINE TV orx_stream_range(ORX_GLOBAL_PTR const TV *in, ulong begin, ulong end, ulong step) {
  TV acc[ORX_UNROLL];
  for (int u = 0; u < ORX_UNROLL; u++)
    acc[u] = orx_splat_v(ORX_IDENTITY);
  ulong v = begin;
  if (end > begin) {
    const ulong span = (ulong)(ORX_UNROLL - 1) * step;
    for (; v < end && end - v > span; v += (ulong)ORX_UNROLL * step) {
      TV x[ORX_UNROLL];
      for (int u = 0; u < ORX_UNROLL; u++)
        x[u] = in[v + (ulong)u * step];
      for (int u = 0; u < ORX_UNROLL; u++)
        acc[u] = orx_combine_v(acc[u], x[u]);
    }
  }
  for (; v < end; v += step)
    acc[0] = orx_combine_v(acc[0], in[v]);
  for (int u = 1; u < ORX_UNROLL; u++)
    acc[0] = orx_combine_v(acc[0], acc[u]);
  return acc[0];
}

/* This work-item's share of `nvec` vectors, as work-item `item` of `items`. */
ORX_INLINE TV orx_stream_share(ORX_GLOBAL_PTR const TV *in, ulong nvec, ulong item, ulong items) {
#if ORX_STREAM == ORX_STREAM_CHUNK
  /* Balanced split: the first nvec % items work-items take one vector more. */
  const ulong per = nvec / items, extra = nvec % items;
  const ulong begin = item * per + (item < extra ? item : extra);
  const ulong end = begin + per + (item < extra ? 1 : 0);
  return orx_stream_range(in, begin, end, 1);
#else
  return orx_stream_range(in, item, nvec, items);
#endif
}

/* Folds a vector accumulator into two independent partials: *even of components 0, 2, 4, ... and
 * *odd of components 1, 3, 5, ... (for ORX_VEC == 1, *odd is the identity). */
ORX_INLINE void orx_fold_pair(TV v, T *even, T *odd) {
  T c[ORX_VEC];
  ORX_STORE_V(v, c);
  T e = c[0];
#if ORX_VEC > 1
  T o = c[1];
  for (int j = 2; j < ORX_VEC; j += 2) {
    e = orx_combine(e, c[j]);
    o = orx_combine(o, c[j + 1]);
  }
#else
  T o = ORX_IDENTITY;
#endif
  *even = e;
  *odd = o;
}

#endif /* ORX_STREAM_CL */
