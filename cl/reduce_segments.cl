/* =================================================================================================
 * reduce_segments.cl: many independent reductions in one launch, one per segment of the input.
 * Segment s is `length` elements from element s * length (equal lengths), or elements
 * [offsets[s], offsets[s + 1]) (ORX_SEG_OFFSETS, CSR-style begin offsets); an empty segment gives
 * the identity. Result s goes to out[out_index + s].
 *
 * How many work-items share a segment depends on its length; the host picks one of (ORX_SEG_MODE):
 *
 *   ORX_SEG_LANE  one work-item per segment, for short segments on CPUs (no barrier anywhere:
 *                 each work-item takes a contiguous run of segments, ORX_STREAM_CHUNK) and very
 *                 short ones on GPUs (grid-stride over segments).
 *   ORX_SEG_MR    the multireduction (orx_multireduce.cl) for short and middling segments on GPUs:
 *                 groups of ORX_SEG_W lanes take ORX_SEG_W segments at a time (ORX_SEG_BATCH sets
 *                 of them when W is small). Lane j of a group reads elements j, j + W, j + 2W, ...
 *                 of each of its group's segments, so one load instruction reads W consecutive
 *                 elements (with W = 32 and 32-element segments, lane l reads element l of each
 *                 of 32 segments: every load is one coalesced 128-byte line), into v[r], one
 *                 accumulator per segment. The W reductions then merge while they exchange: W - 1
 *                 merges and 2(W - 1) shuffles instead of W log2(W), after which lane r holds
 *                 segment r and the W results are stored side by side (coalesced). Where the
 *                 segments allow (ORX_SEG_VECTOR), a lane loads a vector of ORX_VEC elements
 *                 where it would load one element, and W counts vectors.
 *   ORX_SEG_GROUP one work-group per segment for long segments: the whole-array code path
 *                 (orx_span_share and orx_wg_reduce2) on each segment in turn.
 * Segments too long for one work-group run as separate whole-array reductions (host side).
 *
 * Merges and trees put the lower lane's value first, and each work-item's accumulators combine in
 * a fixed order, so results are deterministic; a segment no longer than ORX_SEG_W (MR) is
 * combined in index order.
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups. For MR, ORX_SEG_W divides
 * ORX_WG_SIZE. `misalign`: (in + in_offset) lies misalign (mod ORX_VEC) elements past a vector
 * boundary. `bias` is subtracted from every offset (the host uploads a batch of segments to the
 * start of a staging buffer).
 * ============================================================================================== */
#define ORX_SEG_LANE 0
#define ORX_SEG_MR 1
#define ORX_SEG_GROUP 2

#ifndef ORX_SEG_MODE
#define ORX_SEG_MODE ORX_SEG_LANE
#endif
#ifndef ORX_SEG_OFFSETS
#define ORX_SEG_OFFSETS 0
#endif
#ifndef ORX_SEG_W
#define ORX_SEG_W 1
#endif
#ifndef ORX_KERNEL_ATTR
#define ORX_KERNEL_ATTR __attribute__((reqd_work_group_size(ORX_WG_SIZE, 1, 1)))
#endif

/* The segments a launch sees. */
typedef struct orx_segments {
  ORX_GLOBAL_PTR const T *base;     /* in + in_offset */
  ulong count, length;              /* length: equal-length segments only */
  ORX_GLOBAL_PTR const ulong *offsets; /* offsets + offsets_index: offsets only */
  ulong bias;
} orx_segments;

/* The multireduction's lane groups: ORX_SEG_BATCH sets of ORX_SEG_W segments each (the host
 * picks a batch that gives a lane 8 vector or 16 element loads at a time). Slot q of the lane
 * group whose first lane is work-item `group_first` of the block starting at segment `block`. */
#ifndef ORX_SEG_BATCH
#define ORX_SEG_BATCH 1
#endif
#define ORX_SEG_SLOTS (ORX_SEG_BATCH * ORX_SEG_W)
ORX_INLINE ulong orx_mr_slot(ulong block, uint group_first, uint q) {
  return block + (ulong)(q / ORX_SEG_W) * ORX_WG_SIZE + group_first + q % ORX_SEG_W;
}

/* What one load of a lane takes: a whole vector where the host found every segment aligned to
 * vectors and a whole number of them long (ORX_SEG_VECTOR; four times the bytes in flight per
 * load), else one element. A vector is folded in index order. */
#ifndef ORX_SEG_VECTOR
#define ORX_SEG_VECTOR 0
#endif
#if ORX_SEG_VECTOR
#define ORX_SEG_STEP ORX_VEC
#define orx_seg_load_t TV
#define ORX_SEG_LOAD(p, j) (((ORX_GLOBAL_PTR const TV *)(p))[j])
#define ORX_SEG_FOLD(x) orx_fold_op((x), ORX_OP_ID)
#else
#define ORX_SEG_STEP 1
#define orx_seg_load_t T
#define ORX_SEG_LOAD(p, j) ((p)[j])
#define ORX_SEG_FOLD(x) (x)
#endif

/* First element (relative to base) and length of segment s < count. */
ORX_INLINE void orx_segment(const orx_segments *g, ulong s, ulong *begin, ulong *n) {
#if ORX_SEG_OFFSETS
  const ulong first = g->offsets[s], end = g->offsets[s + 1];
  *begin = first - g->bias;
  *n = end - first;
#else
  *begin = s * g->length;
  *n = g->length;
#endif
}

__kernel ORX_KERNEL_ATTR void orx_reduce_segments(__global const T *ORX_RESTRICT in,
                                                  ulong in_offset, ulong misalign, ulong count,
                                                  ulong length,
                                                  __global const ulong *ORX_RESTRICT offsets,
                                                  ulong offsets_index, ulong bias, __global T *out,
                                                  ulong out_index) {
  orx_segments g;
  g.base = in + in_offset;
  g.count = count;
  g.length = length;
  g.offsets = offsets + offsets_index;
  g.bias = bias;
  (void)misalign;

#if ORX_SEG_MODE == ORX_SEG_LANE
  /* A contiguous run of segments per work-item on CPUs, grid-stride on GPUs. */
  const ulong item = get_global_id(0), items = get_global_size(0);
#if ORX_STREAM == ORX_STREAM_CHUNK
  ulong first, end;
  orx_chunk_of(count, item, items, &first, &end);
  const ulong step = 1;
#else
  const ulong first = item, end = count, step = items;
#endif
  for (ulong s = first; s < end; s += step) {
    ulong begin, n;
    orx_segment(&g, s, &begin, &n);
    T a, b;
    orx_span_share(g.base + begin, n, orx_span_head(misalign + begin, n), 0, 1, &a, &b);
    out[out_index + s] = orx_combine(a, b);
  }

#elif ORX_SEG_MODE == ORX_SEG_MR
  __local T scratch[2 * ORX_WG_SIZE];
  const uint lid = (uint)get_local_id(0);
  const uint lane = lid % ORX_SEG_W;
  const int shuffle = orx_mr_can_shuffle();
  /* Each round, a work-group takes ORX_SEG_BATCH * ORX_WG_SIZE segments: each lane group
   * ORX_SEG_BATCH sets of ORX_SEG_W. The loop is the same for every work-item of the group
   * (local-memory merges have barriers). */
  const ulong round = (ulong)ORX_SEG_BATCH * ORX_WG_SIZE;
  for (ulong block = get_group_id(0) * round; block < count; block += get_num_groups(0) * round) {
    /* Slot q = b * ORX_SEG_W + r holds segment orx_mr_slot(block, lid - lane, q). Lengths and
     * positions below count loads (ORX_SEG_STEP elements each). */
    T v[ORX_SEG_SLOTS];
#if !ORX_SEG_OFFSETS && (ORX_SEG_W <= 8 || !ORX_SEG_VECTOR)
    /* Equal lengths: slot q's segment starts at s * length; a slot past the last segment reads
     * segment 0 (block < count, so it exists) and is ignored. No per-slot positions or lengths
     * live across the loop: on the H200, 56 registers instead of 80 for 8 vector slots, 56 instead
     * of 252 for 32 element slots, and 32-element segments at 3.4-3.7 TB/s instead of 2.7-2.9.
     * With 16 vector slots (64 elements and more) the general form below ran faster. */
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint q = 0; q < ORX_SEG_SLOTS; q++)
      v[q] = ORX_IDENTITY;
    const ulong steps = g.length / ORX_SEG_STEP;
    for (ulong j = lane; j < steps; j += ORX_SEG_W) {
      orx_seg_load_t x[ORX_SEG_SLOTS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const ulong s = orx_mr_slot(block, lid - lane, q);
        x[q] = ORX_SEG_LOAD(g.base + (s < count ? s : 0) * g.length, j);
      }
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const T y = orx_combine(v[q], ORX_SEG_FOLD(x[q]));
        v[q] = orx_mr_slot(block, lid - lane, q) < count ? y : v[q];
      }
    }
#else
    ulong longest = 0, anchor = 0; /* the lane group's longest segment and where it starts */
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
      v[q] = ORX_IDENTITY;
      const ulong s = orx_mr_slot(block, lid - lane, q);
      ulong begin = 0, n = 0;
      if (s < count)
        orx_segment(&g, s, &begin, &n);
      anchor = n > longest ? begin : anchor;
      longest = n > longest ? n : longest;
    }
    longest /= ORX_SEG_STEP;
    /* Column by column: each pass issues one load per slot before it combines any, all of them
     * valid addresses (a slot past its segment's end reads the anchor segment's element and
     * ignores it), so every load is in flight at once. */
    for (ulong j = lane; j < longest; j += ORX_SEG_W) {
      orx_seg_load_t x[ORX_SEG_SLOTS];
      int valid[ORX_SEG_SLOTS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const ulong s = orx_mr_slot(block, lid - lane, q);
        ulong begin = anchor, n = 0;
        if (s < count)
          orx_segment(&g, s, &begin, &n);
        valid[q] = j < n / ORX_SEG_STEP;
        x[q] = ORX_SEG_LOAD(g.base + (valid[q] ? begin : anchor), j);
      }
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const T y = orx_combine(v[q], ORX_SEG_FOLD(x[q]));
        v[q] = valid[q] ? y : v[q];
      }
    }
#endif
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint b = 0; b < ORX_SEG_BATCH; b++) {
      const T x = orx_multireduce(v + b * ORX_SEG_W, lane, shuffle, scratch);
      const ulong s = orx_mr_slot(block, lid - lane, b * ORX_SEG_W + lane);
      if (s < count)
        out[out_index + s] = x;
    }
  }

#else /* ORX_SEG_GROUP */
  __local T scratch[2 * ORX_WG_SIZE];
  const ulong lid = get_local_id(0);
  for (ulong s = get_group_id(0); s < count; s += get_num_groups(0)) {
    ulong begin, n;
    orx_segment(&g, s, &begin, &n);
    T a, b;
    orx_span_share(g.base + begin, n, orx_span_head(misalign + begin, n), lid, ORX_WG_SIZE, &a,
                   &b);
    const T r = orx_wg_reduce2(a, b, scratch);
    if (lid == 0)
      out[out_index + s] = r;
  }
#endif
}
