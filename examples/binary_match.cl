/* =================================================================================================
 * binary_match.cl: brute-force 2-nearest-neighbour matching of 512-bit binary descriptors
 * (Hamming distance), the use case of Parker & MacKinnon's §8, written on the library's
 * collectives (ocl_reduce_collectives.h). Built by examples/binary_match.c with
 * ocl_reduce_program_build, for OpenCL and CUDA alike.
 *
 * A work-group takes KNN_QUERIES queries (in local memory) and compares them with every train
 * descriptor: work-item w takes train descriptors w, w + ORX_WG_SIZE, ..., and keeps, for each of
 * its queries, the two nearest so far. One multireduction over the work-group then gives lane q
 * the two nearest of query q: KNN_QUERIES reductions at the cost of KNN_QUERIES - 1 combines and
 * shuffles plus one butterfly across the subgroups, where separate reductions would take
 * KNN_QUERIES times log2(ORX_WG_SIZE) exchanges.
 * ============================================================================================== */
#include "ocl_reduce_collectives.h"

#define KNN_WORDS 16        /* 32-bit words per descriptor: 512 bits */
#define KNN_QUERIES 32      /* queries per work-group: the multireduction's q */
#define KNN_INDEX_BITS 22   /* train indices below 2^22 */
#define KNN_NO_DISTANCE 1023u /* above every distance (at most 512) */

/* The two nearest train descriptors of a query among those seen: the nearest as one number,
 * distance << KNN_INDEX_BITS | index (so the lower index wins a tie), and the second's distance. */
typedef struct knn2 {
  uint best;
  uint second;
} knn2;

ORX_INLINE knn2 knn2_none(void) {
  knn2 r;
  r.best = 0xffffffffu;
  r.second = KNN_NO_DISTANCE;
  return r;
}

/* The two nearest of both sets: the nearer best, and the nearest of the rest. */
ORX_INLINE knn2 knn2_combine(knn2 a, knn2 b) {
  knn2 r;
  r.best = min(a.best, b.best);
  r.second = min(min(a.second, b.second), max(a.best, b.best) >> KNN_INDEX_BITS);
  return r;
}

#define ORX_COLL_NAME(name) knn2_##name
#define ORX_COLL_T knn2
#define ORX_COLL_COMBINE(a, b) knn2_combine(a, b)
#define ORX_COLL_IDENTITY knn2_none()
#include "ocl_reduce_collectives.inc"

/* out[2q], out[2q + 1]: query q's nearest (distance << 22 | index) and second-nearest distance. */
__kernel ORX_KERNEL_ATTR void knn2_match(__global const uint *ORX_RESTRICT queries,
                                         uint query_count,
                                         __global const uint *ORX_RESTRICT train,
                                         uint train_count, __global uint *out) {
  __local uint query_words[KNN_QUERIES * KNN_WORDS];
  __local knn2 scratch[ORX_COLL_SCRATCH];
  const uint lid = (uint)get_local_id(0);
  const uint first = (uint)get_group_id(0) * KNN_QUERIES;
  for (uint i = lid; i < KNN_QUERIES * KNN_WORDS; i += ORX_WG_SIZE) {
    const uint q = first + i / KNN_WORDS;
    query_words[i] = q < query_count ? queries[(ulong)q * KNN_WORDS + i % KNN_WORDS] : 0u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  knn2 near[KNN_QUERIES];
#pragma unroll
  for (uint q = 0; q < KNN_QUERIES; q++)
    near[q] = knn2_none();
  /* Rounds of one train descriptor per work-item, the same number for the whole work-group. */
  for (uint round = 0; round < train_count; round += ORX_WG_SIZE) {
    const uint t = round + lid;
    /* Each round reads every query's words anew: the barrier at its end keeps the compiler from
     * holding all 512 of them in registers (it would hoist their loads out of the loop), which
     * on the H200 took 255 registers per work-item and one work-group per SM. */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t >= train_count)
      continue;
    uint w[KNN_WORDS];
#pragma unroll
    for (uint k = 0; k < KNN_WORDS / 4; k++) {
      const uint4 v = vload4(0, train + (ulong)t * KNN_WORDS + 4 * k);
      w[4 * k] = v.x;
      w[4 * k + 1] = v.y;
      w[4 * k + 2] = v.z;
      w[4 * k + 3] = v.w;
    }
#pragma unroll
    for (uint q = 0; q < KNN_QUERIES; q++) {
      uint distance = 0;
#pragma unroll
      for (uint k = 0; k < KNN_WORDS; k++)
        distance += popcount(w[k] ^ query_words[q * KNN_WORDS + k]);
      const uint candidate = distance << KNN_INDEX_BITS | t;
      const uint loser = max(near[q].best, candidate);
      near[q].best = min(near[q].best, candidate);
      near[q].second = min(near[q].second, loser >> KNN_INDEX_BITS);
    }
  }

  /* Lane l of the work-group gets query (l mod KNN_QUERIES)'s two nearest. */
  const knn2 r = knn2_multireduce(near, KNN_QUERIES, ORX_WG_SIZE, scratch);
  if (lid < KNN_QUERIES && first + lid < query_count) {
    out[2 * (first + lid)] = r.best;
    out[2 * (first + lid) + 1] = r.second;
  }
}
