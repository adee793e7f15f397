/* =================================================================================================
 * orx_split.cl: contiguous runs in order. Wherever several workers (work-items, lanes) share a
 * sequence, each takes one contiguous run and the runs follow the workers' order, so combining the
 * workers' results in worker order combines the sequence in index order: what order-preserving
 * operators (ORX_ORDERED) need, and harmless for the others.
 * ============================================================================================== */
#ifndef ORX_SPLIT_CL
#define ORX_SPLIT_CL

#include "lib/orx_dialect.cl"

/* Worker `item` of `items`'s run [*begin, *end) of `total` things: a balanced split, the first
 * total % items workers take one more. */
ORX_INLINE void orx_chunk_of(ulong total, ulong item, ulong items, ulong *begin, ulong *end) {
  const ulong per = total / items, extra = total % items;
  *begin = item * per + (item < extra ? item : extra);
  *end = *begin + per + (item < extra ? 1 : 0);
}

#endif /* ORX_SPLIT_CL */
