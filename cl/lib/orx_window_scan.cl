/* =================================================================================================
 * orx_window_scan.cl: van Herk / Gil-Werman for sliding windows (kernels/windows.cl, ORX_WIN_BLOCKS
 * and ORX_WIN_LONG). Cut the input into blocks of `window` elements; then the window that starts
 * at element j ends in the next block, and its result is
 *     S[j] (+) P[j + window - 1]
 * where S[j] combines j up to the end of j's block (a suffix scan within blocks) and P[i] the
 * start of i's block up to i (a prefix scan within blocks); a window that starts a block is S[j]
 * alone. Three combines per result whatever the window's length, for every associative operator
 * (no inverse needed, so min and max too); a float sum keeps the error bound of a sum of
 * `window` terms, since S and P are each a sequential fold.
 *
 * Blocks start where (first_index + position) is a multiple of `window`, counted over the whole
 * call, so a batch boundary moves no block: results do not depend on how the host batches.
 *
 * A tile is ORX_WG_SIZE runs of ORX_WIN_RUN consecutive elements in local memory, run t for
 * work-item t. Each work-item scans its run in registers, both ways, restarting at block starts;
 * what crosses runs (the end of a block that began in an earlier run, the start of one that ends
 * in a later run) comes from a segmented Hillis-Steele scan over the runs' summaries in local
 * memory, with as many steps as a block spans runs. The stage keeps each run in a row of
 * ORX_WIN_RUN + 1 slots, so that work-items reading their own runs, or all the same offset of
 * every row, hit different banks. Where ORX_WIN_WORDS, a work-item reads its run straight from
 * global memory in 16-byte words instead (CUDA, aligned input).
 * ============================================================================================== */
#ifndef ORX_WINDOW_SCAN_CL
#define ORX_WINDOW_SCAN_CL

#include "lib/orx_ops.cl"
#include "lib/orx_words.cl"

#define ORX_WIN_TILE (ORX_WG_SIZE * ORX_WIN_RUN)
/* Slot of tile position q in the stage. */
#define ORX_WIN_AT(q) ((q) / ORX_WIN_RUN * (ORX_WIN_RUN + 1) + (q) % ORX_WIN_RUN)
#define ORX_WIN_STAGE_SLOTS (ORX_WG_SIZE * (ORX_WIN_RUN + 1))
#if ORX_WIN_RUN > 32
#error "ORX_WIN_RUN: a run's block starts are bits of a uint"
#endif
/* An element in place of those past the input, never mapped: states map only real elements. */
#if ORX_STATE
#define ORX_WIN_FILLER orx_zero_element()
#else
#define ORX_WIN_FILLER ORX_IDENTITY
#endif
/* Loops over a run keep it in registers where unrolled (GPUs: the host's ORX_UNROLL_SLOTS). */
#if ORX_UNROLL_SLOTS
#define ORX_WIN_UNROLL _Pragma("unroll")
#else
#define ORX_WIN_UNROLL
#endif

/* What a tile's scans share in local memory: the stage, and the runs' summaries, two buffers per
 * direction. */
typedef struct orx_win_local {
  A stage[ORX_WIN_STAGE_SLOTS];
  A fwd[2][ORX_WG_SIZE], bwd[2][ORX_WG_SIZE];
  uchar fwd_cut[2][ORX_WG_SIZE], bwd_cut[2][ORX_WG_SIZE];
} orx_win_local;

/* A tile: positions [start, start + n) of the launch's input, position p being element
 * first_index + p of the call; cuts: the block starts in this work-item's run, as bits of their
 * offsets in it (0 for a tile inside one block, ORX_WIN_LONG). */
typedef struct orx_win_tile {
  ulong start, first_index, window;
  uint n, cuts;
  uint phase; /* ORX_WIN_BLOCKS: (first_index + start) % window, the tile's offset in its block */
} orx_win_tile;

/* Whether blocks start only where runs do, in every run of the tile (the same for the whole
 * work-group): windows of whole runs in a tile that starts on a run of its block. Then the scans
 * within runs restart nowhere (orx_win_scan). */
#define ORX_WIN_CUTS_AT_RUN_STARTS(t) (ORX_WIN_WHOLE_RUNS && (t)->phase % ORX_WIN_RUN == 0)

/* The block starts in work-item lid's run of a tile `phase` positions into its block
 * (ORX_WIN_BLOCKS: window is at most half a tile, so 32 bits hold a run's offset in its block). */
ORX_INLINE uint orx_win_cut_bits(uint phase, uint w, uint lid) {
  const uint into = (phase + lid * ORX_WIN_RUN) % w;
  uint bits = 0;
  for (uint r = into ? w - into : 0; r < ORX_WIN_RUN; r += w)
    bits |= 1u << r;
  return bits;
}

/* Tile position lid + k * ORX_WG_SIZE, the k-th of a work-item's coalesced accesses, in the stage:
 * ORX_WG_SIZE is a multiple of ORX_WIN_RUN, so each step is whole rows further on. */
#define ORX_WIN_COALESCED_AT(lid, k)                                                               \
  (ORX_WIN_AT(lid) + (k) * (ORX_WG_SIZE / ORX_WIN_RUN) * (ORX_WIN_RUN + 1))

/* Loads a tile into the stage: tile position q holds launch position start + q - skip, for
 * skip <= q < n (a tile that starts before the launch's first element: ORX_WIN_SPANS), identities
 * elsewhere. `whole`: the tile is full (skip == 0, n == ORX_WIN_TILE), so no element needs a
 * test; a constant at each call, as skip is for BLOCKS and LONG. Every load of the work-item is in
 * flight before the first store (coalesced across the group). */
ORX_INLINE void orx_win_load_tile(ORX_GLOBAL_PTR const ORX_ELEM_T *base, const orx_win_tile *t,
                                  ORX_LOCAL_PTR A *stage, int whole, uint skip) {
  const uint lid = (uint)get_local_id(0);
  ORX_GLOBAL_PTR const ORX_ELEM_T *tile = base + t->start;
  T x[ORX_WIN_RUN];
  ORX_WIN_UNROLL
  for (uint k = 0; k < ORX_WIN_RUN; k++) {
    const uint q = lid + k * ORX_WG_SIZE;
    x[k] = whole || (q >= skip && q < t->n) ? ORX_READ(tile, q - skip) : ORX_WIN_FILLER;
  }
  ORX_WIN_UNROLL
  for (uint k = 0; k < ORX_WIN_RUN; k++) {
    const uint q = lid + k * ORX_WG_SIZE;
    stage[ORX_WIN_COALESCED_AT(lid, k)] =
        whole || (q >= skip && q < t->n) ? ORX_MAP(x[k], t->first_index + t->start + q - skip)
                                         : ORX_IDENTITY;
  }
}

ORX_INLINE void orx_win_load(ORX_GLOBAL_PTR const ORX_ELEM_T *base, const orx_win_tile *t,
                             ORX_LOCAL_PTR A *stage, uint skip) {
  if (t->n == ORX_WIN_TILE && !skip)
    orx_win_load_tile(base, t, stage, 1, 0u);
  else
    orx_win_load_tile(base, t, stage, 0, skip);
}

/* Rows of a BLOCKS tile's results (orx_win_finish): the k-th is result lid + k * ORX_WG_SIZE,
 * stored where k * ORX_WG_SIZE < left; `into` is the offset of the first in its block, and each
 * next one `step` further on in its block where `moves`. Called with constants where those are
 * known, so that the compiler drops their arithmetic. */
ORX_INLINE void orx_win_finish_rows(ORX_GLOBAL_PTR ORX_RESULT_T *out, uint left, uint into,
                                    int moves, uint step, uint w, const A *s,
                                    ORX_LOCAL_PTR const A *p) {
  const uint lid = (uint)get_local_id(0);
  ORX_WIN_UNROLL
  for (uint k = 0; k < ORX_WIN_RUN; k++) {
    const int keep = k * ORX_WG_SIZE < left;
    A r = s[k];
    if (keep && into)
      r = orx_combine(r, p[ORX_WIN_COALESCED_AT(0, k)]);
    if (keep)
      ORX_WRITE_RESULT(out, lid + k * ORX_WG_SIZE, r);
    if (moves)
      into = into + step >= w ? into + step - w : into + step;
  }
}

/* Operators for which x (+) x is x, bit for bit: combining a block start's S with P of its
 * block's end repeats the block, so their results skip the test (integer MIN and MAX, float ones
 * as order keys, AND, OR). Runs in words or of whole runs only: through local memory on NVIDIA's
 * OpenCL, windows of 1000 ran 1-2 % slower without the test, where CUDA's words ran 1-5 % faster
 * (docs/perf/h200-windows-whole-runs.txt). */
#define ORX_WIN_IDEMPOTENT                                                                         \
  (!ORX_IS_FLOAT && !ORX_STATE && (ORX_WIN_WORDS || ORX_WIN_WHOLE_RUNS) &&                         \
   (ORX_OP_ID == ORX_OP_MIN || ORX_OP_ID == ORX_OP_MAX || ORX_OP_ID == ORX_OP_AND ||               \
    ORX_OP_ID == ORX_OP_OR))

/* The results of a BLOCKS tile, stored to out[0, n) in coalesced order: result q is S[q] where q
 * starts a block, else S[q] (+) P[q + window - 1]. `s` holds the work-item's S in that order (its
 * k-th, result lid + k * ORX_WG_SIZE), the stage P. In coalesced order every step is whole rows of
 * the stage further on for both, where a run's own look-ahead crossed into the next row at an
 * offset that differs by work-item: a select and an address per element (H200, window 32: a third
 * of the kernel's instructions). Whether q starts a block is counted here, a work-group's width
 * further on each step: read from local memory with the runs' cuts it ran 6 % slower (fewer
 * instructions, a load more in each result's chain). Where the window divides the work-group's
 * width (windows of whole runs), every result of a work-item lies at the same offset in its
 * block, and MIN, MAX, AND and OR need no test (ORX_WIN_IDEMPOTENT). */
ORX_INLINE void orx_win_finish(ORX_GLOBAL_PTR ORX_RESULT_T *out, uint n, const orx_win_tile *t,
                               const A *s, ORX_LOCAL_PTR const orx_win_local *l) {
  const uint lid = (uint)get_local_id(0);
  const uint w = (uint)t->window; /* at most half a tile */
  ORX_LOCAL_PTR const A *p = l->stage + ORX_WIN_AT(lid + w - 1);
  const uint left = n > lid ? n - lid : 0;
#if ORX_WIN_IDEMPOTENT
  orx_win_finish_rows(out, left, 1u, 0, 0u, w, s, p);
#else
  const uint step = ORX_WG_SIZE % w;
  const uint into = (t->phase + lid) % w; /* result lid's offset in its block */
#if ORX_WIN_WHOLE_RUNS
  if (!step) /* windows of 16 or 32 in work-groups of 256 */
    orx_win_finish_rows(out, left, into, 0, 0u, w, s, p);
  else
#endif
    orx_win_finish_rows(out, left, into, 1, step, w, s, p);
#endif
}

/* The work-item's run from registers into its row of the stage. */
ORX_INLINE void orx_win_stage_run(ORX_LOCAL_PTR A *stage, const A *run) {
  const uint lid = (uint)get_local_id(0);
  ORX_WIN_UNROLL
  for (uint r = 0; r < ORX_WIN_RUN; r++)
    stage[lid * (ORX_WIN_RUN + 1) + r] = run[r];
}

/* Stores `left` results of a tile, from the stage where each work-item put its run's, coalesced:
 * result i is tile position lead + i (SPANS and LONG). */
ORX_INLINE void orx_win_store_staged(ORX_GLOBAL_PTR ORX_RESULT_T *out, uint left, uint lead,
                                     ORX_LOCAL_PTR const A *stage) {
  const uint lid = (uint)get_local_id(0);
  ORX_LOCAL_PTR const A *results = stage + ORX_WIN_AT(lead + lid);
  ORX_WIN_UNROLL
  for (uint k = 0; k < ORX_WIN_RUN; k++)
    if (lid + k * ORX_WG_SIZE < left)
      ORX_WRITE_RESULT(out, lid + k * ORX_WG_SIZE, results[ORX_WIN_COALESCED_AT(0, k)]);
}

/* The work-item's run of the staged tile, into registers. */
ORX_INLINE void orx_win_staged_run(ORX_LOCAL_PTR const A *stage, A *run) {
  const uint lid = (uint)get_local_id(0);
  ORX_WIN_UNROLL
  for (uint r = 0; r < ORX_WIN_RUN; r++)
    run[r] = stage[lid * (ORX_WIN_RUN + 1) + r];
}

#if ORX_WIN_WORDS
#if ORX_STATE || ORX_ELEM_TYPE_ID != ORX_NO_TYPE || ORX_INPUT_STATES ||                         \
    ORX_WIN_RUN * ORX_TYPE_BYTES % 16
#error "ORX_WIN_WORDS: runs of elements of T (or of its keys) in 16-byte words"
#endif
#if ORX_TYPE_BYTES == 8
#define orx_win_words_load orx_words_load8
#else
#define orx_win_words_load orx_words_load4
#endif
/* Elements from their bits: float keys (ORX_ELEM_KEYS) are read as bits. */
#if ORX_ELEM_KEYS
#define ORX_WIN_ELEM_OF_BITS(b) (b)
#else
#define ORX_WIN_ELEM_OF_BITS(b) ORX_FROM_BITS(b)
#endif

/* The work-item's run of the tile at `tile` (positions lid * ORX_WIN_RUN on), mapped, in words;
 * identities past t->n, where the run is read an element at a time. */
ORX_INLINE void orx_win_words_run(ORX_GLOBAL_PTR const ORX_ELEM_T *tile, const orx_win_tile *t,
                                  A *run) {
  const uint q0 = (uint)get_local_id(0) * ORX_WIN_RUN;
  ORX_ELEM_T e[ORX_WIN_RUN];
  /* A whole run maps every element with no test (an element's tests cost as much as its scans). */
  if (q0 + ORX_WIN_RUN <= t->n) {
    ORX_BITS_T bits[ORX_WIN_RUN];
    orx_win_words_load(tile + q0, bits, ORX_WIN_RUN);
    ORX_WIN_UNROLL
    for (uint r = 0; r < ORX_WIN_RUN; r++) {
      e[r] = ORX_WIN_ELEM_OF_BITS(bits[r]);
      run[r] = ORX_MAP(ORX_READ(e, r), t->first_index + t->start + q0 + r);
    }
  } else {
    ORX_WIN_UNROLL
    for (uint r = 0; r < ORX_WIN_RUN; r++) {
      e[r] = tile[q0 + r < t->n ? q0 + r : 0];
      run[r] = q0 + r < t->n ? ORX_MAP(ORX_READ(e, r), t->first_index + t->start + q0 + r)
                             : ORX_IDENTITY;
    }
  }
}

#endif

/* The scans within a run (orx_win_scan): S right to left, P left to right, each restarting at
 * the block starts of `cuts` (a run's offsets as bits; one at offset 0 restarts nothing inside). */
ORX_INLINE void orx_win_run_scans(uint cuts, A *pre, A *suf) {
  suf[ORX_WIN_RUN - 1] = pre[ORX_WIN_RUN - 1];
  ORX_WIN_UNROLL
  for (uint r = ORX_WIN_RUN - 1; r-- > 0;)
    suf[r] = (cuts >> (r + 1)) & 1u ? pre[r] : orx_combine(pre[r], suf[r + 1]);
  ORX_WIN_UNROLL
  for (uint r = 1; r < ORX_WIN_RUN; r++)
    if (!((cuts >> r) & 1u))
      pre[r] = orx_combine(pre[r - 1], pre[r]);
}

/* What other runs carry into this one's scans: P before its first block start, S from its last
 * block start on. */
ORX_INLINE void orx_win_run_carries(uint first_cut, uint last_cut, A from_left, A from_right,
                                    A *pre, A *suf) {
  ORX_WIN_UNROLL
  for (uint r = 0; r < ORX_WIN_RUN; r++) {
    if (r < first_cut)
      pre[r] = orx_combine(from_left, pre[r]);
    if (r >= last_cut)
      suf[r] = orx_combine(suf[r], from_right);
  }
}

/* The work-item's run, scanned: on entry pre[r] holds its element at run offset r (staged or
 * read in words), on return pre[r] = P and suf[r] = S there.
 * carry_in_fwd (P of the position before the tile) and carry_in_bwd (S of the position after it)
 * continue a block across tiles; the returned values continue it to the next tile each way
 * (P of the tile's last position, S of its first). Whole work-group; ends with a barrier. */
ORX_INLINE void orx_win_scan(const orx_win_tile *t, ORX_LOCAL_PTR orx_win_local *l, A *pre,
                             A *suf, A *carry_fwd, A *carry_bwd) {
  const uint lid = (uint)get_local_id(0);
  const uint cuts = t->cuts;
  /* The first block start in the run (ORX_WIN_RUN if none), and the last (0 if none: every
   * suffix continues into the next run). */
  const uint first_cut = cuts ? 31u - clz(cuts & (0u - cuts)) : ORX_WIN_RUN;
  const uint last_cut = cuts ? 31u - clz(cuts) : 0u;
  /* Within the run: S right to left, P left to right, each restarting at block starts; with
   * none inside any run, each a plain chain of combines. */
  if (ORX_WIN_CUTS_AT_RUN_STARTS(t))
    orx_win_run_scans(0u, pre, suf);
  else
    orx_win_run_scans(cuts, pre, suf);
  /* The runs' summaries: forward, what the run passes on (P of its last element) and whether a
   * block starts in it; backward, what it passes back (its elements before its first block
   * start). */
  const uchar cut = first_cut < ORX_WIN_RUN;
  A fwd = pre[ORX_WIN_RUN - 1];
  A bwd = first_cut == 0 ? ORX_IDENTITY : suf[0];
  uchar fwd_cut = cut, bwd_cut = cut;
  /* No barrier before the summaries: their buffers were last read before the barrier that ends
   * the previous call, and the stage, which the runs were read from, is next written after the
   * barriers of the steps below (H200, CUDA, window 32: 1-2 % faster without one here). */
  /* Segmented inclusive scans over the runs, forward and backward. A block spans at most
   * w / ORX_WIN_RUN + 2 runs; a tile inside one block needs every step. */
  const ulong reach = t->window < ORX_WIN_TILE ? t->window / ORX_WIN_RUN + 2 : ORX_WG_SIZE;
  uint cur = 0;
  for (uint d = 1; d < reach && d < ORX_WG_SIZE; d <<= 1) {
    l->fwd[cur][lid] = fwd;
    l->fwd_cut[cur][lid] = fwd_cut;
    l->bwd[cur][lid] = bwd;
    l->bwd_cut[cur][lid] = bwd_cut;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= d && !fwd_cut) {
      fwd = orx_combine(l->fwd[cur][lid - d], fwd);
      fwd_cut = l->fwd_cut[cur][lid - d];
    }
    if (lid + d < ORX_WG_SIZE && !bwd_cut) {
      bwd = orx_combine(bwd, l->bwd[cur][lid + d]);
      bwd_cut = l->bwd_cut[cur][lid + d];
    }
    cur ^= 1;
  }
  l->fwd[cur][lid] = fwd;
  l->fwd_cut[cur][lid] = fwd_cut;
  l->bwd[cur][lid] = bwd;
  l->bwd_cut[cur][lid] = bwd_cut;
  barrier(CLK_LOCAL_MEM_FENCE);
  /* Exclusive carries: from the run before (or the tile before) and the run after. */
  A from_left = *carry_fwd, from_right = *carry_bwd;
  if (lid > 0)
    from_left = l->fwd_cut[cur][lid - 1] ? l->fwd[cur][lid - 1]
                                         : orx_combine(from_left, l->fwd[cur][lid - 1]);
  if (lid + 1 < ORX_WG_SIZE)
    from_right = l->bwd_cut[cur][lid + 1] ? l->bwd[cur][lid + 1]
                                          : orx_combine(l->bwd[cur][lid + 1], from_right);
  if (!ORX_WIN_CUTS_AT_RUN_STARTS(t))
    orx_win_run_carries(first_cut, last_cut, from_left, from_right, pre, suf);
  else if (cuts) /* a block starts the run and ends at its end or later */
    orx_win_run_carries(0u, 0u, from_left, from_right, pre, suf);
  else
    orx_win_run_carries(ORX_WIN_RUN, 0u, from_left, from_right, pre, suf);
  /* What continues into the next tiles (meaningful when the tile has no block start). */
  *carry_fwd = l->fwd_cut[cur][ORX_WG_SIZE - 1]
                   ? l->fwd[cur][ORX_WG_SIZE - 1]
                   : orx_combine(*carry_fwd, l->fwd[cur][ORX_WG_SIZE - 1]);
  *carry_bwd = l->bwd_cut[cur][0] ? l->bwd[cur][0] : orx_combine(l->bwd[cur][0], *carry_bwd);
  barrier(CLK_LOCAL_MEM_FENCE); /* the summaries read */
}

#endif /* ORX_WINDOW_SCAN_CL */
