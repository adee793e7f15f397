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
 *                 groups of ORX_SEG_W lanes take ORX_MR_Q <= W segments at a time (ORX_SEG_BATCH
 *                 sets of them when W is small). Lane j of a group reads loads j, j + W, j + 2W,
 *                 ... of each of its group's segments, so one load instruction reads W consecutive
 *                 vectors or elements (with W = 8 vectors of 4 f32 and 32-element segments, lane l
 *                 reads vector l of each of 8 segments: every load is one coalesced 128-byte
 *                 line), into v[r], one accumulator per segment. The Q reductions then merge
 *                 while they exchange: Q - 1 merges and 2(Q - 1) shuffles instead of Q log2(Q),
 *                 and, where W > Q, log2(W / Q) plain butterfly levels. Lane r then holds segment
 *                 r and the Q results are stored side by side (coalesced). Q < W spreads a long
 *                 segment over more lanes without more registers per lane (each slot holds a
 *                 load and an accumulator).
 *   ORX_SEG_GROUP one work-group per segment for long segments: the whole-array code path
 *                 (orx_span_share and orx_wg_reduce2) on each segment in turn.
 *   ORX_SEG_STAGED equal lengths the multireduction cannot spread evenly over its lanes (33
 *                 elements span 9 vectors: a lane group of 16 leaves 7 idle): a work-group loads
 *                 a run of whole segments (ORX_SEG_STAGE elements at most) into local memory with
 *                 every lane reading consecutive vectors, then each work-item combines one
 *                 segment from local memory in index order and the results are stored side by
 *                 side.
 * Segments too long for one work-group run as separate whole-array reductions (host side).
 *
 * Merges and trees put the lower lane's value first, and each work-item's accumulators combine in
 * a fixed order, so results are deterministic; a segment that takes no more than ORX_SEG_W loads
 * (MR) is combined in index order.
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups. For MR, ORX_SEG_W divides
 * ORX_WG_SIZE. `misalign`: (in + in_offset) lies misalign (mod ORX_VEC) elements past a vector
 * boundary. `bias` is subtracted from every offset (the host uploads a batch of segments to the
 * start of a staging buffer).
 * ============================================================================================== */
#define ORX_SEG_LANE 0
#define ORX_SEG_MR 1
#define ORX_SEG_GROUP 2
#define ORX_SEG_STAGED 4

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

/* The multireduction's lane groups: ORX_SEG_W lanes each, taking ORX_SEG_BATCH sets of ORX_MR_Q
 * segments at a time (Q <= W; the host picks a batch that gives a lane 8 vector or 16 element loads
 * at a time). Slot q of lane group `group` in the block starting at segment `block`: a set spans
 * the work-group's lane groups, Q consecutive segments each. */
#ifndef ORX_SEG_BATCH
#define ORX_SEG_BATCH 1
#endif
#define ORX_SEG_SLOTS (ORX_SEG_BATCH * ORX_MR_Q)
#define ORX_SEG_SET ((ORX_WG_SIZE / ORX_SEG_W) * ORX_MR_Q)
ORX_INLINE ulong orx_mr_slot(ulong block, uint group, uint q) {
  return block + (ulong)(q / ORX_MR_Q) * ORX_SEG_SET + group * ORX_MR_Q + q % ORX_MR_Q;
}

/* What one load of a lane takes (ORX_SEG_VECTOR):
 *   ORX_SEG_ELEMENTS  one element;
 *   ORX_SEG_VECTORS   a whole vector of ORX_VEC elements, where the host found every segment
 *                     aligned to vectors and a whole number of them long (four times the bytes in
 *                     flight per load for f32);
 *   ORX_SEG_MASKED    a vector of the aligned grid, of which the elements outside the segment are
 *                     left out (any lengths, any start): a segment of n elements takes up to
 *                     (n + 2 ORX_VEC - 2) / ORX_VEC of them. A vector that reaches outside the
 *                     input is never read whole: its segment's elements are loaded one by one.
 * Vectors are folded in index order. Steps and positions in the loops count loads. */
#define ORX_SEG_ELEMENTS 0
#define ORX_SEG_VECTORS 1
#define ORX_SEG_MASKED 2
#ifndef ORX_SEG_VECTOR
#define ORX_SEG_VECTOR ORX_SEG_ELEMENTS
#endif
#if ORX_SEG_VECTOR == ORX_SEG_ELEMENTS
#define orx_seg_load_t T
#else
#define orx_seg_load_t TV
#endif

/* The segments a launch sees. Positions are elements from base = in + in_offset, which lies
 * `misalign` elements past a vector boundary. Vectors of the aligned grid (vector i holds
 * positions i * ORX_VEC - misalign onwards) that the input holds whole: whole_count of them from
 * whole_first. */
typedef struct orx_segments {
  ORX_GLOBAL_PTR const T *base;
  ulong count, length;                 /* length: equal-length segments only */
  ORX_GLOBAL_PTR const ulong *offsets; /* offsets + offsets_index: offsets only */
  ulong bias, misalign;
  ulong total;                         /* elements the input holds from base */
  ulong whole_first, whole_count;
} orx_segments;

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

/* Loads a segment of n elements at `begin` takes. */
ORX_INLINE ulong orx_seg_steps(const orx_segments *g, ulong begin, ulong n) {
#if ORX_SEG_VECTOR != ORX_SEG_MASKED
  (void)g;
  (void)begin;
  return ORX_SEG_VECTOR == ORX_SEG_VECTORS ? n / ORX_VEC : n;
#else
  const ulong first = g->misalign + begin;
  return n ? (first + n + ORX_VEC - 1) / ORX_VEC - first / ORX_VEC : 0;
#endif
}

#if ORX_SEG_VECTOR == ORX_SEG_MASKED || ORX_SEG_MODE == ORX_SEG_STAGED
/* Vector vi of the aligned grid: loaded whole where the input holds all of it; else (at most
 * the input's first and last vectors) element by element, the identity in place of the elements
 * outside the input, which no segment uses. */
ORX_INLINE TV orx_seg_grid_load(const orx_segments *g, ulong vi) {
  if (vi - g->whole_first < g->whole_count)
    return ((ORX_GLOBAL_PTR const TV *)(g->base - g->misalign))[vi];
  T c[ORX_VEC];
  for (uint k = 0; k < ORX_VEC; k++) {
    const ulong at = vi * ORX_VEC + k - g->misalign; /* before base, it wraps past total */
    c[k] = at < g->total ? g->base[at] : ORX_IDENTITY;
  }
  return ORX_LOAD_V(c);
}
#endif

/* Load j of the segment at `begin`. */
ORX_INLINE orx_seg_load_t orx_seg_load(const orx_segments *g, ulong begin, ulong j) {
#if ORX_SEG_VECTOR == ORX_SEG_ELEMENTS
  return g->base[begin + j];
#elif ORX_SEG_VECTOR == ORX_SEG_VECTORS
  return ((ORX_GLOBAL_PTR const TV *)(g->base + begin))[j];
#else
  return orx_seg_grid_load(g, (g->misalign + begin) / ORX_VEC + j);
#endif
}

/* Load j (x) of the segment of n elements at `begin`, folded to one value. */
ORX_INLINE T orx_seg_fold(const orx_segments *g, orx_seg_load_t x, ulong begin, ulong n, ulong j) {
#if ORX_SEG_VECTOR != ORX_SEG_MASKED
  (void)g;
  (void)begin;
  (void)n;
  (void)j;
#if ORX_SEG_VECTOR == ORX_SEG_ELEMENTS
  return x;
#else
  return orx_fold_op(x, ORX_OP_ID);
#endif
#else
  const ulong skip = (g->misalign + begin) % ORX_VEC; /* components before the segment */
  T c[ORX_VEC];
  ORX_STORE_V(x, c);
  T r = ORX_IDENTITY;
  for (uint k = 0; k < ORX_VEC; k++) {
    /* Component k's position in the segment; before its start, it wraps past any length. */
    const ulong at = j * ORX_VEC + k - skip;
    if (at < n)
      r = orx_combine(r, c[k]);
  }
  return r;
#endif
}

#if ORX_SEG_MODE == ORX_SEG_STAGED
/* Position of tile element i in the stage: one element of padding after every 32, so that work-
 * items reading their own segments at a stride of `length` elements hit different local-memory
 * banks (32-element segments would all hit one bank unpadded). A vector (ORX_VEC divides 32)
 * never straddles the padding. */
#define ORX_STAGE_AT(i) ((i) + (i) / 32)
#ifndef ORX_SEG_STAGE_LOADS
#define ORX_SEG_STAGE_LOADS 8
#endif
#endif

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
  g.misalign = misalign;
#if ORX_SEG_VECTOR == ORX_SEG_MASKED || ORX_SEG_MODE == ORX_SEG_STAGED
  { /* the vectors the input holds whole, for orx_seg_grid_load */
#if ORX_SEG_OFFSETS
    const ulong total = g.offsets[count] - bias; /* elements the input holds from base */
#else
    const ulong total = count * length;
#endif
    g.total = total;
    g.whole_first = misalign ? 1 : 0; /* misalign < ORX_VEC */
    const ulong whole_end = (misalign + total) / ORX_VEC;
    g.whole_count = whole_end > g.whole_first ? whole_end - g.whole_first : 0;
  }
#endif

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
  const uint lane = lid % ORX_SEG_W, group = lid / ORX_SEG_W;
  const int shuffle = orx_mr_can_shuffle();
  /* Each round, a work-group takes ORX_SEG_BATCH sets of segments. The loop is the same for
   * every work-item of the group (local-memory merges have barriers). */
  const ulong round = (ulong)ORX_SEG_BATCH * ORX_SEG_SET;
  for (ulong block = get_group_id(0) * round; block < count; block += get_num_groups(0) * round) {
    T v[ORX_SEG_SLOTS]; /* v[q]: this lane's share of slot q's segment */
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint q = 0; q < ORX_SEG_SLOTS; q++)
      v[q] = ORX_IDENTITY;
#if !ORX_SEG_OFFSETS
    /* Equal lengths: slot q's segment starts at s * length; a slot past the last segment reads
     * segment 0 (block < count, so it exists) and is ignored. No per-slot positions or lengths
     * live across the loop: on the H200, 56 registers instead of 80 for 8 vector slots, and
     * 32-element segments at 3.4-3.7 TB/s instead of 2.7-2.9. */
    /* The most loads a segment takes: one whose first element is the last of a vector. */
    const ulong steps = orx_seg_steps(&g, ORX_VEC - 1 - misalign, g.length);
    for (ulong j = lane; j < steps; j += ORX_SEG_W) {
      orx_seg_load_t x[ORX_SEG_SLOTS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const ulong s = orx_mr_slot(block, group, q);
        x[q] = orx_seg_load(&g, (s < count ? s : 0) * g.length, j);
      }
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const ulong s = orx_mr_slot(block, group, q);
        const T y = orx_combine(v[q], orx_seg_fold(&g, x[q], (s < count ? s : 0) * g.length,
                                                   g.length, j));
        v[q] = s < count ? y : v[q];
      }
    }
#else
    /* Offsets: the lane group's longest segment sets the steps; a slot past its segment's end
     * loads the anchor (longest) segment's data, which another lane loads anyway, and ignores
     * it. */
    ulong longest = 0, anchor = 0;
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
      const ulong s = orx_mr_slot(block, group, q);
      ulong begin = 0, n = 0;
      if (s < count)
        orx_segment(&g, s, &begin, &n);
      const ulong steps = orx_seg_steps(&g, begin, n);
      anchor = steps > longest ? begin : anchor;
      longest = steps > longest ? steps : longest;
    }
    /* Column by column: each pass issues one load per slot before it combines any, so every load
     * is in flight at once. */
    for (ulong j = lane; j < longest; j += ORX_SEG_W) {
      orx_seg_load_t x[ORX_SEG_SLOTS];
      ulong begins[ORX_SEG_SLOTS], lengths[ORX_SEG_SLOTS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const ulong s = orx_mr_slot(block, group, q);
        ulong begin = anchor, n = 0;
        if (s < count)
          orx_segment(&g, s, &begin, &n);
        lengths[q] = j < orx_seg_steps(&g, begin, n) ? n : 0; /* 0: nothing of it here */
        begins[q] = lengths[q] ? begin : anchor;
        x[q] = orx_seg_load(&g, begins[q], j);
      }
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint q = 0; q < ORX_SEG_SLOTS; q++) {
        const T y = orx_combine(v[q], orx_seg_fold(&g, x[q], begins[q], lengths[q], j));
        v[q] = lengths[q] ? y : v[q];
      }
    }
#endif
    /* Lane r of each lane group (r < Q) ends with slot b * Q + r, stored side by side. */
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint b = 0; b < ORX_SEG_BATCH; b++) {
      const T x = orx_multireduce(v + b * ORX_MR_Q, lane, shuffle, scratch);
      const ulong s = orx_mr_slot(block, group, b * ORX_MR_Q + lane % ORX_MR_Q);
      if (lane < ORX_MR_Q && s < count)
        out[out_index + s] = x;
    }
  }

#elif ORX_SEG_MODE == ORX_SEG_STAGED
  __local T stage[ORX_STAGE_AT(ORX_SEG_STAGE + 2 * ORX_VEC)];
  const uint lid = (uint)get_local_id(0);
  /* Segments per tile: as many whole ones as the stage holds, one per work-item (the host
   * computes the same for the launch; length <= ORX_SEG_STAGE). */
  const ulong fit = ORX_SEG_STAGE / length;
  const ulong per_tile = fit < ORX_WG_SIZE ? fit : ORX_WG_SIZE;
  for (ulong first = get_group_id(0) * per_tile; first < count;
       first += get_num_groups(0) * per_tile) {
    const ulong n_seg = count - first < per_tile ? count - first : per_tile;
    const ulong from = misalign + first * length; /* the tile's first element on the grid */
    const ulong v0 = from / ORX_VEC;
    const uint n_vec = (uint)((from + n_seg * length + ORX_VEC - 1) / ORX_VEC - v0);
    /* Every load of the group reads consecutive vectors; ORX_SEG_STAGE_LOADS of them in flight
     * per work-item before any is stored. Vector i of the tile goes to stage position
     * i * ORX_VEC (one segment's elements stay in order). */
    for (uint i = lid; i < n_vec; i += ORX_WG_SIZE * ORX_SEG_STAGE_LOADS) {
      TV x[ORX_SEG_STAGE_LOADS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint k = 0; k < ORX_SEG_STAGE_LOADS; k++) {
        const uint at = i + k * ORX_WG_SIZE;
        x[k] = orx_seg_grid_load(&g, v0 + (at < n_vec ? at : 0));
      }
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (uint k = 0; k < ORX_SEG_STAGE_LOADS; k++) {
        const uint at = i + k * ORX_WG_SIZE;
        if (at < n_vec)
          ORX_STORE_V(x[k], stage + ORX_STAGE_AT(at * ORX_VEC));
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < n_seg) {
      const uint head = (uint)(from % ORX_VEC) + lid * (uint)length;
      T r = ORX_IDENTITY;
      for (uint j = 0; j < (uint)length; j++)
        r = orx_combine(r, stage[ORX_STAGE_AT(head + j)]);
      out[out_index + first + lid] = r;
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tile overwrites the stage */
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
