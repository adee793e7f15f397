/* =================================================================================================
 * orx_window_long.cl: windows longer than a tile (kernels/windows.cl, ORX_WIN_LONG). Cut the input
 * into tiles of ORX_WIN_TILE elements, counted over the whole call (tile starts where
 * first_index + position is a multiple of ORX_WIN_TILE). With w - 1 = D * ORX_WIN_TILE + o
 * (D >= 1), the window of the result at position q of tile k covers the rest of tile k from q, the
 * D - 1 tiles between whole, the first o elements of tile k + D (its "head"), and then q + 1
 * elements more, so its result is
 *     S[q] (+) M[k] (+) P'[q]
 * S[q] combining q up to the end of tile k (a suffix scan within the tile), M[k] the tiles
 * between and the head, and P'[q] the first q + 1 elements of U_k, the tile's worth of elements
 * that starts w - 1 positions after tile k does (a prefix scan within U_k).
 *
 * Two launches. The first (ORX_WIN_TOTALS) writes each tile's total to `scratch` and its head
 * after them. The second takes a tile k of results at a time: the suffix scan of tile k, the
 * prefix scan of U_k, M[k] from `scratch`; two tile scans (orx_win_long_scan) and two combines
 * per result, whatever the window. U_k lies in other work-groups' tiles k of the same pass of the
 * grid, so its reads mostly hit the cache. S and P' of a result are at the same tile position, so
 * they meet in the work-item's registers. Every result's combines follow from its position in the
 * call, the window and the tile's shape alone, so batches do not change its bits.
 *
 * Against three scans per tile (tile k's S, then P of tiles k + D and k + D + 1 from and up to o,
 * staged in local memory for the results; before 2026-12-05): a third less scanning, and half the
 * local memory.
 * ============================================================================================== */
#ifndef ORX_WINDOW_LONG_CL
#define ORX_WINDOW_LONG_CL

#include "lib/orx_window_scan.cl"
#include "lib/orx_workgroup.cl"

/* What a tile shares in local memory: the scans' stage and summaries, the totals' partial
 * folds, and M. */
typedef struct orx_win_long_local {
  orx_win_local scan;
  A parts[ORX_WG_SIZE];
  uint ticket; /* ORX_WIN_ONE_PASS: the work-group's tile, counted from the last */
  A m;         /* ORX_WIN_ONE_PASS: M of the tile, as subgroup 0 awaited it */
} orx_win_long_local;

/* The ORX_WIN_TILE elements from launch position `start` into the stage, tile position `skip` on
 * (identities before it, and past the launch's `count` elements). */
ORX_INLINE void orx_win_long_load(ORX_GLOBAL_PTR const ORX_ELEM_T *base, ulong start, uint skip,
                                  ulong count, ulong first_index, ORX_LOCAL_PTR A *stage) {
  orx_win_tile t;
  t.start = start;
  const ulong left = count > start ? count - start : 0;
  t.n = (uint)(left < ORX_WIN_TILE - skip ? left + skip : ORX_WIN_TILE);
  t.first_index = first_index;
  t.window = 0; /* the load reads neither the window nor the cuts */
  t.cuts = t.phase = 0;
  orx_win_load(base, &t, stage, skip);
}

/* Tile k of the launch (tile position q is launch position k * ORX_WIN_TILE - lead + q). */
ORX_INLINE void orx_win_long_load_tile(ORX_GLOBAL_PTR const ORX_ELEM_T *base, ulong k, uint lead,
                                       ulong count, ulong first_index, ORX_LOCAL_PTR A *stage) {
  const uint skip = k ? 0u : lead;
  orx_win_long_load(base, k * ORX_WIN_TILE + skip - lead, skip, count, first_index, stage);
}

/* The scans a tile needs (orx_win_long_scan's `want`): P, S or both. */
#define ORX_WIN_LONG_P 1u
#define ORX_WIN_LONG_S 2u

#if ORX_SG_HAS_SHUFFLE
/* Work-item lid's exclusive carries from the other runs of the tile: *left combines the runs'
 * totals before it (P), *right those after it (S). A butterfly of shuffles within each subgroup
 * (at each level the lanes of the upper half take the lower half's total before their own), then
 * the subgroups' totals through local memory: one barrier, where the segmented scan over runs
 * (orx_win_scan) takes two per level. Returns the tile's total where P is wanted. */
ORX_INLINE A orx_win_long_carries(ORX_LOCAL_PTR orx_win_local *l, A p_total, A s_total,
                                  uint want, A *left, A *right) {
  const uint lane = orx_sg_lane(), sg = orx_sg_id(), sgs = orx_sg_count();
  A l_in = ORX_IDENTITY, r_in = ORX_IDENTITY;
  for (uint mask = 1; mask < orx_sg_size(); mask <<= 1) {
    const int upper = (lane & mask) != 0;
    if (want & ORX_WIN_LONG_P) {
      const A other = orx_sg_shuffle_xor(p_total, mask);
      if (upper)
        l_in = orx_combine(other, l_in);
      p_total = orx_combine(upper ? other : p_total, upper ? p_total : other);
    }
    if (want & ORX_WIN_LONG_S) {
      const A other = orx_sg_shuffle_xor(s_total, mask);
      if (!upper)
        r_in = orx_combine(r_in, other);
      s_total = orx_combine(upper ? other : s_total, upper ? s_total : other);
    }
  }
  if (lane == 0 && (want & ORX_WIN_LONG_P))
    l->fwd[0][sg] = p_total;
  if (lane == 0 && (want & ORX_WIN_LONG_S))
    l->bwd[0][sg] = s_total;
  barrier(CLK_LOCAL_MEM_FENCE);
  A before = ORX_IDENTITY, after = ORX_IDENTITY, total = ORX_IDENTITY;
  if (want & ORX_WIN_LONG_P) {
    for (uint i = 0; i < sgs; i++) {
      if (i == sg)
        before = total;
      total = orx_combine(total, l->fwd[0][i]);
    }
    *left = orx_combine(before, l_in);
  }
  if (want & ORX_WIN_LONG_S) {
    for (uint i = sgs; --i > sg;)
      after = orx_combine(l->bwd[0][i], after);
    *right = orx_combine(r_in, after);
  }
  return total;
}
#endif

/* The staged tile scanned: pre[r] = P (where `want` has ORX_WIN_LONG_P) and suf[r] = S (where it
 * has ORX_WIN_LONG_S) within the tile at the work-item's run offset r; returns the tile's total
 * where P is wanted (every work-item). Whole work-group, after the barrier that ends the load;
 * the stage may be written again once it returns. */
ORX_INLINE A orx_win_long_scan(ORX_LOCAL_PTR orx_win_local *l, A *pre, A *suf, uint want) {
  orx_win_staged_run(l->stage, pre);
#if ORX_SG_HAS_SHUFFLE
  if (want & ORX_WIN_LONG_S) {
    suf[ORX_WIN_RUN - 1] = pre[ORX_WIN_RUN - 1];
    ORX_WIN_UNROLL
    for (uint r = ORX_WIN_RUN - 1; r-- > 0;)
      suf[r] = orx_combine(pre[r], suf[r + 1]);
  }
  if (want & ORX_WIN_LONG_P) {
    ORX_WIN_UNROLL
    for (uint r = 1; r < ORX_WIN_RUN; r++)
      pre[r] = orx_combine(pre[r - 1], pre[r]);
  }
  A left = ORX_IDENTITY, right = ORX_IDENTITY;
  const A total = orx_win_long_carries(l, pre[ORX_WIN_RUN - 1],
                                       want & ORX_WIN_LONG_S ? suf[0] : ORX_IDENTITY, want, &left,
                                       &right);
  /* Every work-item's run is read, and every summary is read before the next scan's barriers. */
  ORX_WIN_UNROLL
  for (uint r = 0; r < ORX_WIN_RUN; r++) {
    if (want & ORX_WIN_LONG_P)
      pre[r] = orx_combine(left, pre[r]);
    if (want & ORX_WIN_LONG_S)
      suf[r] = orx_combine(suf[r], right);
  }
  return total;
#else
  orx_win_tile t;
  t.window = ORX_WIN_TILE; /* a tile inside one block: every step of the runs' scan */
  t.cuts = t.phase = 0;
  A total = ORX_IDENTITY, from_right = ORX_IDENTITY;
  (void)want;
  orx_win_scan(&t, l, pre, suf, &total, &from_right);
  return total;
#endif
}

#if ORX_WIN_ONE_PASS
/* LONG in one launch (ORX_WIN_ONE_PASS): the work-groups take tiles by ticket, from the last tile
 * down, and each publishes its tile's total and head (lib/orx_lookback.cl: each 32 bits of a
 * value in a word of its own, tagged with the launch's epoch) before it waits for those of the
 * tiles after it, which took earlier tickets: their groups run or ran, and publish before they
 * wait. Scratch: the ticket counter in word 0, then tile t's total in the ORX_WIN_LONG_WORDS
 * words from 1 + 2 * t * ORX_WIN_LONG_WORDS, its head in the next ORX_WIN_LONG_WORDS. */
#if !ORX_SG_HAS_SHUFFLE || ORX_SYNC == ORX_SYNC_NONE
#error "ORX_WIN_ONE_PASS: subgroups that shuffle and work-groups that order their writes"
#endif
#include "lib/orx_lookback.cl"

#define ORX_WIN_LONG_WORDS ((uint)((sizeof(A) + 3) / 4))
ORX_WORDS_UNION(orx_win_long_words, A, value);

/* Tile t's total (what 0) or head (what 1) in scratch. */
#define ORX_WIN_LONG_SLOT(scratch, t, what)                                                        \
  ((ORX_GLOBAL_PTR ulong *)(scratch) + 1 + (2 * (t) + (what)) * ORX_WIN_LONG_WORDS)

ORX_INLINE void orx_win_long_publish(ORX_GLOBAL_PTR ulong *slot, uint epoch, A x) {
  orx_win_long_words u;
  u.value = x;
  for (uint i = 0; i < ORX_WIN_LONG_WORDS; i++)
    orx_tagged_store(slot + i, epoch, u.w[i]);
}

/* The value a tile published at `slot` in this launch, once all its words are there. */
ORX_INLINE A orx_win_long_await(ORX_GLOBAL_PTR ulong *slot, uint epoch) {
  orx_win_long_words u;
  for (uint i = 0; i < ORX_WIN_LONG_WORDS; i++) {
    ulong word;
    do
      word = orx_tagged_load(slot + i);
    while ((uint)(word >> 32) != epoch);
    u.w[i] = (uint)word;
  }
  return u.value;
}

/* M of tile k (every work-item): the totals of tiles k + 1 .. k + D - 1 and the head of tile
 * k + D, as the tiles after k publish them. Awaited once U_k is scanned, by which time the tiles
 * after k, which took earlier tickets, have mostly published. Subgroup 0 alone awaits them, a
 * total a lane a round (consecutive lanes, consecutive words), each round's crossing the subgroup
 * lower lane first and folded after the rounds before; the others take M from local memory after
 * a barrier. Every subgroup awaiting a chunk of consecutive totals a lane (before 2026-12-06)
 * kept eight times the loads in flight, each warp's spread over 32 sectors, and ran a million
 * forced into one launch at 0.086 of the sum's rate; this way 0.315-0.325 (H100, f32, CUDA;
 * NVIDIA's OpenCL 0.307-0.323), and the windows that took one launch already 1.00-1.05x. Every
 * subgroup awaiting in rounds, with no barrier, ran a million at 0.26-0.27
 * (docs/perf/h100-windows-long-await.txt). A fold by the whole work-group (one total a
 * work-item, orx_workgroup_reduce) cost more than it saved: its code alone took NVIDIA's OpenCL
 * from 0.40 to 0.29 of the sum's rate at a window of 4098, whose tiles await no total. */
ORX_INLINE A orx_win_long_await_m(ORX_GLOBAL_PTR ulong *scratch, ulong k, ulong d, uint o,
                                  uint epoch, ORX_LOCAL_PTR A *shared_m) {
  if (orx_sg_id() == 0) {
    const uint lanes = orx_sg_size(), lane = orx_sg_lane();
    const ulong count = d - 1;
    A m = ORX_IDENTITY;
    for (ulong first = 0; first < count; first += lanes) {
      A a = ORX_IDENTITY;
      if (first + lane < count)
        a = orx_win_long_await(ORX_WIN_LONG_SLOT(scratch, k + 1 + first + lane, 0), epoch);
      m = orx_combine(m, orx_sg_reduce(a));
    }
    if (o)
      m = orx_combine(m, orx_win_long_await(ORX_WIN_LONG_SLOT(scratch, k + d, 1), epoch));
    if (lane == 0)
      *shared_m = m;
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* the next tile's write of M is barriers away: no second one */
  return *shared_m;
}

#endif

/* M[k] (every work-item) from what the first launch left in scratch: the totals of tiles
 * k + 1 .. k + D - 1, in order, then the head of tile k + D (after the launch's `tiles` totals)
 * where o > 0. Work-items fold chunks of about sqrt(D) totals, then each folds the chunks' folds
 * from local memory, so that windows of many tiles cost a few combines per result. */
ORX_INLINE A orx_win_long_m(ORX_GLOBAL_PTR const A *scratch, ulong k, ulong d, uint o,
                            ulong tiles, ORX_LOCAL_PTR A *parts) {
  const uint lid = (uint)get_local_id(0);
  const ulong count = d - 1;
  ulong chunk = 1;
  while (chunk * chunk < count || (count + chunk - 1) / chunk > ORX_WG_SIZE)
    chunk *= 2;
  const uint chunks = (uint)((count + chunk - 1) / chunk); /* 0 for none */
  if (lid < chunks) {
    const ulong from = lid * chunk, to = from + chunk < count ? from + chunk : count;
    A a = scratch[k + 1 + from];
    for (ulong i = from + 1; i < to; i++)
      a = orx_combine(a, scratch[k + 1 + i]);
    parts[lid] = a;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  A m = ORX_IDENTITY;
  for (uint i = 0; i < chunks; i++)
    m = orx_combine(m, parts[i]);
  barrier(CLK_LOCAL_MEM_FENCE); /* the parts read */
  return o ? orx_combine(m, scratch[tiles + k + d]) : m;
}

#endif /* ORX_WINDOW_LONG_CL */
