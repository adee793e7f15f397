/* =================================================================================================
 * orx_key_counted.cl: reduce by key's counted form (docs/design/reduce-by-key.md, Decision 1,
 * revised), the part of kernels/by_key.cl (which includes it after its own definitions) that its
 * one pass does not have. The runs are counted before any is stored, so no tile waits on another:
 *   ORX_KEY_COUNTED 1: a work-group counts the heads of ORX_KEY_GROUP tiles from the keys alone
 *                      and writes each tile's heads before it within them, and their total;
 *                   2: one work-group turns the groups' totals into the heads before each group,
 *                      and writes the run count;
 *                   3: the tiles (by_key.cl's kernel): each knows the heads before it, stores the
 *                      runs that start and end in it and the key of every run that ends in it,
 *                      and leaves its head partial (its elements before its first head) and its
 *                      last run's value and start for pass 4;
 *                   4: a work-item per tile with a head, but the last tile (which stores its own):
 *                      the tile's last run, its value combined in order with the head partials of
 *                      the tiles after it, up to the next tile with a head.
 * Each pass is a plan of its own with the same entry point (the launch layer's one per program).
 *
 * The scratch (ulongs, plan_by_key.c sizes it): word 1 the run count; then per group its heads
 * (after pass 2, the heads before it); per tile the heads before it within its group, its place
 * (the heads before it; after the last tile, every run), 1 where its head partial holds elements,
 * where its last run starts; then per tile its head partial and its last run's value, an A each.
 * ============================================================================================== */
#ifndef ORX_KEY_COUNTED_CL
#define ORX_KEY_COUNTED_CL

/* Tiles a work-group of pass 1 counts, and tiles pass 4 reads at once past a run's first two. */
#define ORX_KEY_GROUP 32
#define ORX_KEY_FIX_BATCH 16

typedef struct orx_key_counts {
  ORX_GLOBAL_PTR ulong *groups;  /* per group of tiles: its heads, then the heads before it */
  ORX_GLOBAL_PTR ulong *within;  /* per tile: the heads before it within its group */
  ORX_GLOBAL_PTR ulong *places;  /* per tile: the heads before it; then every run */
  ORX_GLOBAL_PTR ulong *filled;  /* per tile: 1 where its head partial holds elements */
  ORX_GLOBAL_PTR ulong *starts;  /* per tile: where its last run starts */
  ORX_GLOBAL_PTR A *head_parts;  /* per tile: its elements before its first head */
  ORX_GLOBAL_PTR A *tails;       /* per tile: its last run's value, from its start */
} orx_key_counts;

ORX_INLINE ulong orx_key_tiles_of(ulong n) {
  return (n + ORX_KEY_TILE - 1) / ORX_KEY_TILE;
}

ORX_INLINE orx_key_counts orx_key_counts_of(ORX_GLOBAL_PTR ulong *scratch, ulong n) {
  const ulong tiles = orx_key_tiles_of(n);
  orx_key_counts c;
  c.groups = scratch + 2;
  c.within = c.groups + (tiles + ORX_KEY_GROUP - 1) / ORX_KEY_GROUP;
  c.places = c.within + tiles;
  c.filled = c.places + tiles + 1;
  c.starts = c.filled + tiles;
  c.head_parts = (ORX_GLOBAL_PTR A *)(c.starts + tiles);
  c.tails = c.head_parts + tiles;
  return c;
}

#if ORX_KEY_COUNTED == 1
/* Pass 1: the heads among a work-item's share of the tile at `start`. With ORX_KEY_DIRECT, where
 * the keys lie on 16-byte boundaries and the tile is whole: 16-byte words ORX_WG_SIZE apart, so
 * that each load of a warp is coalesced, the key before each word read again (from cache); else
 * keys ORX_WG_SIZE apart. H200, CUDA, 2^26 i32 keys in runs of 32, ncu: 95 us with a key per
 * load, 77 in words; 82 with the key before from the lane below by a shuffle and the counts
 * summed by the warps' shuffles (a prototype's form; docs/perf/h200-by-key.txt). */
#define ORX_KEY_PER_WORD (16 / ORX_KEY_BYTES)
ORX_INLINE uint orx_key_heads_in(ORX_GLOBAL_PTR const orx_key_bits *keys, ulong start, ulong n,
                                 uint lid) {
  uint heads = 0;
#if ORX_KEY_DIRECT
  if (orx_words_aligned(keys) && start + ORX_KEY_TILE <= n) { /* the same in the work-group */
#pragma unroll
    for (uint q = 0; q < ORX_KEY_RUN / ORX_KEY_PER_WORD; q++) {
      const ulong at = start + (ulong)(q * ORX_WG_SIZE + lid) * ORX_KEY_PER_WORD;
      orx_key_bits k[ORX_KEY_PER_WORD];
#if ORX_KEY_BYTES == 8
      orx_words_load8(keys + at, k, ORX_KEY_PER_WORD);
#else
      orx_words_load4(keys + at, k, ORX_KEY_PER_WORD);
#endif
      const orx_key_bits before = orx_key_before(keys, at, n);
      heads += at == 0 || k[0] != before ? 1u : 0u;
#pragma unroll
      for (uint e = 1; e < ORX_KEY_PER_WORD; e++)
        heads += k[e] != k[e - 1] ? 1u : 0u;
    }
    return heads;
  }
#endif
  for (uint j = 0; j < ORX_KEY_RUN; j++) {
    const ulong i = start + (ulong)j * ORX_WG_SIZE + lid;
    if (i < n)
      heads += i == 0 || keys[i] != keys[i - 1] ? 1u : 0u;
  }
  return heads;
}
#endif

#if ORX_KEY_COUNTED == 1 || ORX_KEY_COUNTED == 2 || ORX_KEY_COUNTED == 4
#if ORX_WG_SIZE % 32 || ORX_KEY_CHUNKS
#error "orx_key_counted.cl: work-groups of a multiple of 32 work-items, tiles (not chunks)"
#endif
__kernel ORX_KERNEL_ATTR void orx_by_key(ORX_KEY_PARAMS) {
  const uint lid = (uint)get_local_id(0);
  const orx_key_counts c = orx_key_counts_of(scratch, n);
  const ulong tiles = orx_key_tiles_of(n);
  (void)in_offset;
  (void)keys_out;
  (void)keys_out_index;
  (void)epoch;
  (void)in;
#if ORX_KEY_COUNTED == 1
  /* Each work-item's heads in each tile, then per tile: 32 work-items' counts summed by each
   * work-item, those sums by the first. */
  __local uint parts[ORX_KEY_GROUP][ORX_WG_SIZE + 1];
  __local uint sums[ORX_KEY_GROUP][ORX_WG_SIZE / 32 + 1];
  (void)out;
  (void)out_index;
  (void)room;
  keys += keys_offset;
  const ulong first = (ulong)get_group_id(0) * ORX_KEY_GROUP;
  /* Every tile's loads issued before any is summed. H200, CUDA, 2^26 i64/f64 pairs in runs of 32,
   * end to end: 528 us with each tile summed before the next tile's loads, 491 so (two calls;
   * main's look-back took 520 and 517 in them). */
  uint heads[ORX_KEY_GROUP];
#pragma unroll
  for (uint s = 0; s < ORX_KEY_GROUP; s++)
    heads[s] = orx_key_heads_in(keys, (first + s) * ORX_KEY_TILE, n, lid);
  for (uint s = 0; s < ORX_KEY_GROUP; s++)
    parts[s][lid] = heads[s];
  barrier(CLK_LOCAL_MEM_FENCE);
  {
    const uint s = lid % 32, slice = lid / 32;
    uint sum = 0;
    for (uint w = 0; w < 32; w++)
      sum += parts[s][slice * 32 + w];
    sums[s][slice] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    ulong before = 0;
    for (uint s = 0; s < ORX_KEY_GROUP && first + s < tiles; s++) {
      uint heads = 0;
      for (uint slice = 0; slice < ORX_WG_SIZE / 32; slice++)
        heads += sums[s][slice];
      c.within[first + s] = before;
      before += heads;
    }
    c.groups[get_group_id(0)] = before;
  }
#elif ORX_KEY_COUNTED == 2
  /* One work-group: the groups' totals scanned ORX_WG_SIZE at a time (Hillis and Steele). */
  __local ulong sums[ORX_WG_SIZE];
  (void)keys;
  (void)keys_offset;
  (void)out;
  (void)out_index;
  (void)room;
  const ulong groups = (tiles + ORX_KEY_GROUP - 1) / ORX_KEY_GROUP;
  ulong carry = 0;
  for (ulong base = 0; base < groups; base += ORX_WG_SIZE) {
    const ulong g = base + lid;
    const ulong own = g < groups ? c.groups[g] : 0;
    ulong inclusive = own;
    sums[lid] = inclusive;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = 1; step < ORX_WG_SIZE; step *= 2) {
      const ulong left = lid >= step ? sums[lid - step] : 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      inclusive += left;
      sums[lid] = inclusive;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (g < groups)
      c.groups[g] = carry + inclusive - own;
    carry += sums[ORX_WG_SIZE - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    scratch[1] = carry;
#else
  /* A tile with a head, but the last: its last run, through the head partials after it. Most
   * runs end in the next tile or the one after; a longer walk (a run across many tiles) reads
   * ORX_KEY_FIX_BATCH tiles' words at once, a round trip to memory per batch, not per tile. */
  (void)keys;
  (void)keys_offset;
  const ulong t = get_global_id(0);
  if (t + 1 >= tiles || c.places[t + 1] == c.places[t])
    return;
  A acc = c.tails[t];
  ulong u = t + 1;
  int ended = 0;
  for (; u < tiles && u < t + 3 && !ended; u++) {
    if (c.filled[u])
      acc = orx_combine(acc, c.head_parts[u]);
    ended = c.places[u + 1] != c.places[u];
  }
  for (; u < tiles && !ended; u += ORX_KEY_FIX_BATCH) {
    ulong places[ORX_KEY_FIX_BATCH + 1], filled[ORX_KEY_FIX_BATCH];
    A parts[ORX_KEY_FIX_BATCH];
    const uint batch = tiles - u < ORX_KEY_FIX_BATCH ? (uint)(tiles - u) : ORX_KEY_FIX_BATCH;
    for (uint i = 0; i < batch; i++) {
      places[i] = c.places[u + i];
      filled[i] = c.filled[u + i];
      parts[i] = c.head_parts[u + i];
    }
    places[batch] = c.places[u + batch];
    for (uint i = 0; i < batch && !ended; i++) {
      if (filled[i])
        acc = orx_combine(acc, parts[i]);
      ended = places[i + 1] != places[i];
    }
  }
  const ulong run = c.places[t + 1] - 1;
  if (run < room)
    ORX_WRITE_RESULT(out, out_index + run, orx_key_stored(acc, c.starts[t]));
#endif
}
#endif /* passes 1, 2 and 4 */
#endif /* ORX_KEY_COUNTED_CL */
