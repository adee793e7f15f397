/* =================================================================================================
 * orx_window_long.cl: windows longer than a tile (kernels/windows.cl, ORX_WIN_LONG). Cut the input
 * into tiles of ORX_WIN_TILE elements, counted over the whole call (tile starts where
 * first_index + position is a multiple of ORX_WIN_TILE). A window of w > ORX_WIN_TILE elements
 * starts in one tile, ends in a later one and covers every tile between whole, so its result is
 *     S[j] (+) M (+) P[j + w - 1]
 * as SPANS has it with runs (orx_window_spans.cl), tiles here: S[j] combines j up to the end of
 * its tile, P[i] the start of i's tile up to i, and M the D - 1 or D tiles between,
 * D = (w - 1) / ORX_WIN_TILE, the one more for results at tile offsets of ORX_WIN_TILE - o and
 * on, o = (w - 1) % ORX_WIN_TILE.
 *
 * Two launches. The first (ORX_WIN_TOTALS) writes each tile's total to `scratch`. The second takes
 * a tile k of results at a time: the suffix scan of tile k, the prefix scans of tiles k + D (from
 * offset o) and k + D + 1 (up to o), the totals between from `scratch`; three tile scans
 * (orx_win_scan) and three combines per result, whatever the window. The tiles k + D and k + D + 1
 * are other work-groups' tiles k in the same pass of the grid, so their second reads mostly hit
 * the cache. Every result's combines follow from its position in the call, the window and the
 * tile's shape alone, so batches do not change its bits.
 *
 * Against the work-group per block of `window` results this replaces (0.04-0.06 of the
 * whole-array sum's rate on an H100 at windows of 3000-100000): that wrote and read back every
 * suffix in global memory, a work-item's run apart.
 * ============================================================================================== */
#ifndef ORX_WINDOW_LONG_CL
#define ORX_WINDOW_LONG_CL

#include "lib/orx_window_scan.cl"

/* What a tile shares in local memory: the scans' stage and summaries, P of each result's window
 * end by the result's tile position (in the stage's layout), and the totals' partial folds. */
typedef struct orx_win_long_local {
  orx_win_local scan;
  A ahead[ORX_WIN_STAGE_SLOTS];
  A parts[ORX_WG_SIZE];
} orx_win_long_local;

/* Tile k of the launch (tile position q is launch position k * ORX_WIN_TILE - lead + q) into the
 * stage; identities outside the launch's `count` elements. */
ORX_INLINE void orx_win_long_load(ORX_GLOBAL_PTR const ORX_ELEM_T *base, ulong k, uint lead,
                                  ulong count, ulong first_index, ORX_LOCAL_PTR A *stage) {
  const uint skip = k ? 0u : lead;
  orx_win_tile t;
  t.start = k * ORX_WIN_TILE + skip - lead; /* the launch position of tile position skip */
  const ulong left = count > t.start ? count - t.start : 0;
  t.n = (uint)(left < ORX_WIN_TILE - skip ? left + skip : ORX_WIN_TILE);
  t.first_index = first_index;
  t.window = 0; /* the load reads neither the window nor the cuts */
  t.cuts = t.phase = 0;
  orx_win_load(base, &t, stage, skip);
}

/* The staged tile scanned: pre[r] = P and suf[r] = S within the tile at the work-item's run
 * offset r; returns the tile's total (every work-item). Whole work-group, after the barrier that
 * ends the load; ends with a barrier. */
ORX_INLINE A orx_win_long_scan(ORX_LOCAL_PTR orx_win_local *l, A *pre, A *suf) {
  orx_win_tile t;
  t.window = ORX_WIN_TILE; /* a tile inside one block: every step of the runs' scan */
  t.cuts = t.phase = 0;
  A total = ORX_IDENTITY, from_right = ORX_IDENTITY;
  orx_win_staged_run(l->stage, pre);
  orx_win_scan(&t, l, pre, suf, &total, &from_right);
  return total;
}

/* The totals of `count` consecutive whole tiles, in order (every work-item): work-items fold
 * chunks of about sqrt(count) of them from global memory, then each folds the chunks' folds from
 * local memory, so that windows of many tiles cost a few combines per result. */
ORX_INLINE A orx_win_long_between(ORX_GLOBAL_PTR const A *totals, ulong count,
                                  ORX_LOCAL_PTR A *parts) {
  const uint lid = (uint)get_local_id(0);
  ulong chunk = 1;
  while (chunk * chunk < count || (count + chunk - 1) / chunk > ORX_WG_SIZE)
    chunk *= 2;
  const uint chunks = (uint)((count + chunk - 1) / chunk); /* 0 for none */
  if (lid < chunks) {
    const ulong from = lid * chunk, to = from + chunk < count ? from + chunk : count;
    A a = totals[from];
    for (ulong i = from + 1; i < to; i++)
      a = orx_combine(a, totals[i]);
    parts[lid] = a;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  A m = ORX_IDENTITY;
  for (uint i = 0; i < chunks; i++)
    m = orx_combine(m, parts[i]);
  barrier(CLK_LOCAL_MEM_FENCE); /* the parts read */
  return m;
}

/* P of the tile just scanned (pre) into `ahead` where results of tile k take it: tile positions
 * [from, to) of the tile go to result positions shifted by `shift` (mod ORX_WIN_TILE). */
ORX_INLINE void orx_win_long_ahead(ORX_LOCAL_PTR A *ahead, const A *pre, uint from, uint to,
                                   uint shift) {
  const uint q0 = (uint)get_local_id(0) * ORX_WIN_RUN;
  ORX_WIN_UNROLL
  for (uint r = 0; r < ORX_WIN_RUN; r++)
    if (q0 + r >= from && q0 + r < to)
      ahead[ORX_WIN_AT((q0 + r + shift) % ORX_WIN_TILE)] = pre[r];
}

/* The work-item's results over its S in s: S (+) M (+) P, M = `between` for the results at tile
 * positions below `more_from`, else `between_more`. */
ORX_INLINE void orx_win_long_results(ORX_LOCAL_PTR const A *ahead, A *s, uint more_from,
                                     A between, A between_more) {
  const uint q0 = (uint)get_local_id(0) * ORX_WIN_RUN;
  ORX_WIN_UNROLL
  for (uint r = 0; r < ORX_WIN_RUN; r++)
    s[r] = orx_combine(orx_combine(s[r], q0 + r < more_from ? between : between_more),
                       ahead[ORX_WIN_AT(q0 + r)]);
}

#endif /* ORX_WINDOW_LONG_CL */
