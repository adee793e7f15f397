/* =================================================================================================
 * orx_window_spans.cl: sliding windows as a head, whole runs and a tail (kernels/windows.cl,
 * ORX_WIN_SPANS). Cut the input into runs of ORX_WIN_RUN elements, counted over the whole call
 * (run starts where first_index + position is a multiple of ORX_WIN_RUN). A window longer than two
 * runs starts in one run, ends in a later one, and covers every run between whole, so its result
 * is
 *     S[j] (+) M (+) P[j + window - 1]
 * where S[j] combines j up to the end of its run (a suffix scan within runs), P[i] the start of
 * i's run up to i (a prefix scan within runs), and M the runs between, whole: c or c + 1 of them,
 * c = (window - 1) / ORX_WIN_RUN - 1, the one more where j's offset in its run is at least
 * ORX_WIN_RUN - (window - 1) % ORX_WIN_RUN.
 *
 * Against BLOCKS (van Herk / Gil-Werman over blocks of `window` elements, orx_window_scan.cl): the
 * scans within runs never restart (no block starts inside a run, no test per element), nothing
 * crosses runs but the runs' totals, and M takes c combines per run from local memory, which
 * is c / ORX_WIN_RUN per element (a window of 1000 in runs of 32: one). Every element combines
 * four times. The order of every result's combines follows from its position in the call, the
 * window and the run's length alone, so batches and tiles do not change its bits.
 *
 * A tile is ORX_WG_SIZE runs in the stage, starting on a run of the call: tile position q holds
 * launch position start - lead + q, lead = first_index % ORX_WIN_RUN, and gives the results at
 * positions [lead, lead + orx_win_spans_per_tile) of it.
 * ============================================================================================== */
#ifndef ORX_WINDOW_SPANS_CL
#define ORX_WINDOW_SPANS_CL

#include "lib/orx_window_scan.cl"

/* What a tile shares in local memory: the stage, with one row more (the look-ahead of the run
 * that holds the tile's last result reaches ORX_WIN_RUN - 1 positions past the tile), and the
 * runs' totals. */
typedef struct orx_win_spans_local {
  A stage[ORX_WIN_STAGE_SLOTS + ORX_WIN_RUN + 1];
  A totals[ORX_WG_SIZE];
} orx_win_spans_local;

/* The results of a tile: whole runs, such that the last one's window ends inside the tile however
 * far into its run the launch starts (plan_windows.c computes the same). */
#define orx_win_spans_per_tile(window)                                                             \
  ((uint)((ORX_WIN_TILE - (window) - ORX_WIN_RUN + 2) / ORX_WIN_RUN * ORX_WIN_RUN))

/* The scans of the work-item's run x (from the stage): P goes over the run's row of the stage (no
 * other work-item reads that row), S stays in x, and the run's total to `totals`. */
ORX_INLINE void orx_win_spans_scans(ORX_LOCAL_PTR orx_win_spans_local *l, A *x) {
  const uint lid = (uint)get_local_id(0);
  ORX_LOCAL_PTR A *row = l->stage + lid * (ORX_WIN_RUN + 1);
  A p = x[0];
  row[0] = p;
  ORX_WIN_UNROLL
  for (uint r = 1; r < ORX_WIN_RUN; r++) {
    p = orx_combine(p, x[r]);
    row[r] = p;
  }
  ORX_WIN_UNROLL
  for (uint r = ORX_WIN_RUN - 1; r-- > 0;)
    x[r] = orx_combine(x[r], x[r + 1]);
  l->totals[lid] = x[0];
}

/* The work-item's results, in run order, over its S in x: S (+) M (+) P of the window's last
 * element, P from the stage. Only for runs that hold a result of the tile: then every run and
 * position read lies in the tile (or its extra row). */
ORX_INLINE void orx_win_spans_results(ORX_LOCAL_PTR const orx_win_spans_local *l, uint w, A *x) {
  const uint lid = (uint)get_local_id(0);
  const uint c = (w - 1) / ORX_WIN_RUN - 1; /* at least 1: windows longer than two runs */
  const uint more_from = ORX_WIN_RUN - (w - 1) % ORX_WIN_RUN; /* offsets that span c + 1 runs */
  A between = l->totals[lid + 1];
  for (uint k = 2; k <= c; k++)
    between = orx_combine(between, l->totals[lid + k]);
  const A between_more = orx_combine(between, l->totals[lid + c + 1]);
  /* P of position lid * ORX_WIN_RUN + r + w - 1: its slot is `ahead` + r, one more once the
   * position crosses into the next row, which it does at r == more_from for every work-item. */
  ORX_LOCAL_PTR const A *ahead = l->stage + ORX_WIN_AT(lid * ORX_WIN_RUN + w - 1);
  ORX_LOCAL_PTR const A *ahead_next_row = ahead + 1;
  ORX_WIN_UNROLL
  for (uint r = 0; r < ORX_WIN_RUN; r++) {
    const int more = r >= more_from;
    x[r] = orx_combine(orx_combine(x[r], more ? between_more : between),
                       (more ? ahead_next_row : ahead)[r]);
  }
}

#endif /* ORX_WINDOW_SPANS_CL */
