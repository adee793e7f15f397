/* =================================================================================================
 * windows.cl: sliding-window reductions. Window j (0 <= j < n_out) is elements [j, j + window) of
 * the launch's input in + in_offset, and its result goes to out[out_index + j]; element p has
 * index first_index + p in the call (state operators map elements with it, and blocks are counted
 * from it). ORX_WIN_ALGO picks how results are computed (the ids in orx_contract.h):
 *
 *   DIRECT   a work-item per window, folding its elements in order (ORX_WIN_RUN windows per
 *            work-item, a work-group's width apart, so that each step has as many loads in flight).
 *   SHUFFLE  lane groups of ORX_MR_Q lanes take ORX_MR_Q consecutive windows at a time; each lane
 *            folds its share of a window (elements lane, lane + q, ...), and a butterfly per
 *            window combines the shares: the standard reduction, as the paper's §7 runs it.
 *   MR       the same shares, the q windows reduced together by the iterative multireduction
 *            (§3): window i enters as soon as it is folded, and merges with the pending ones as a
 *            binary counter carries, so only log2(q) + 1 values wait in registers.
 *   BLOCKS   van Herk / Gil-Werman in local-memory tiles (lib/orx_window_scan.cl): a tile of
 *            ORX_WG_SIZE * ORX_WIN_RUN elements gives the tile minus window - 1 results (rounded
 *            down to whole runs where ORX_WIN_WORDS reads runs in 16-byte words, or where
 *            ORX_WIN_WHOLE_RUNS: windows of whole runs).
 *   LONG     windows longer than a tile: a suffix within a tile, the totals of the whole tiles
 *            between, a tile's head and a prefix within a tile (lib/orx_window_long.cl), in two
 *            launches: the first (ORX_WIN_TOTALS) leaves each tile's total and head in `scratch`.
 *   SERIAL   the same, a work-item per block, each scan a sequential loop (CPUs; `scratch`: window
 *            states per work-item).
 *   SPANS    a window longer than two runs of ORX_WIN_RUN as its head (a suffix within its first
 *            run), the whole runs between and its tail (a prefix within its last run), in the
 *            tiles of BLOCKS (lib/orx_window_spans.cl): four combines per element.
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups; window >= 1; the input holds
 * n_out + window - 1 elements. Results are deterministic (each algorithm fixes its order).
 * ============================================================================================== */
#include "lib/orx_window_scan.cl"
#include "lib/orx_window_spans.cl"
#include "lib/orx_window_long.cl"
#include "lib/orx_multireduce.cl"

#define ORX_WINDOWS_ARGS                                                                           \
  __global const ORX_ELEM_T *ORX_RESTRICT in, ulong in_offset, ulong n_out, ulong window,          \
      ulong first_index, __global ORX_RESULT_T *out, ulong out_index, __global A *scratch,        \
      uint epoch

/* Block k of the launch (SERIAL) starts at ORX_WIN_BLOCK_START(k) for k >= 1, block 0 at
 * position 0: `phase` = first_index % window positions of block 0 lie before the launch. */
#define ORX_WIN_BLOCK_START(k) ((k) * window - phase)

#if ORX_WIN_ALGO == ORX_WIN_DIRECT

/* A work-group takes ORX_WIN_RUN * ORX_WG_SIZE consecutive windows at a time, a work-item every
 * ORX_WG_SIZE-th of them: each step of the fold issues ORX_WIN_RUN coalesced loads. No barrier
 * between the steps: one had PoCL vectorize a step across the work-group on CPUs (2026-11-23),
 * then cost 1.2-4.0x on PoCL 3.1 and 5 and 1.2-1.9x on Intel's CPU runtime at windows of 2-4
 * (docs/perf/cpu-windows-direct-no-barrier.txt). */
__kernel ORX_KERNEL_ATTR void orx_windows(ORX_WINDOWS_ARGS) {
  ORX_GLOBAL_PTR const ORX_ELEM_T *base = in + in_offset;
  (void)scratch;
  for (ulong tile = get_group_id(0) * ORX_WIN_TILE; tile < n_out;
       tile += get_num_groups(0) * ORX_WIN_TILE) { /* the same trips for the whole group */
    const ulong first = tile + get_local_id(0);
    A r[ORX_WIN_RUN];
    ORX_WIN_UNROLL
    for (uint i = 0; i < ORX_WIN_RUN; i++) {
      const ulong j = first + i * ORX_WG_SIZE;
      r[i] = j < n_out ? ORX_MAP(ORX_READ(base, j), first_index + j) : ORX_IDENTITY;
    }
    for (ulong k = 1; k < window; k++) {
      ORX_WIN_UNROLL
      for (uint i = 0; i < ORX_WIN_RUN; i++) {
        const ulong j = first + i * ORX_WG_SIZE;
        if (j < n_out)
          r[i] = orx_absorb(r[i], ORX_READ(base, j + k), first_index + j + k);
      }
    }
    ORX_WIN_UNROLL
    for (uint i = 0; i < ORX_WIN_RUN; i++) {
      const ulong j = first + i * ORX_WG_SIZE;
      if (j < n_out)
        ORX_WRITE_RESULT(out, out_index + j, r[i]);
    }
  }
}

#elif ORX_WIN_ALGO == ORX_WIN_SHUFFLE || ORX_WIN_ALGO == ORX_WIN_MR

#if ORX_MR_LANES != ORX_MR_Q || ORX_WG_SIZE % ORX_MR_Q
#error "windows: lane groups of ORX_MR_Q lanes, whole ones per work-group"
#endif
/* log2(ORX_MR_Q) + 1: the pending levels of the binary counter. */
#define ORX_WIN_LEVELS                                                                             \
  (ORX_MR_Q == 1 ? 1 : ORX_MR_Q == 2 ? 2 : ORX_MR_Q <= 4 ? 3 : ORX_MR_Q <= 8 ? 4                  \
   : ORX_MR_Q <= 16 ? 5 : ORX_MR_Q <= 32 ? 6 : 7)

/* This lane's share of the window at `start`: elements start + lane, + q, ... (identity where the
 * window has none, or past the last window). */
ORX_INLINE A orx_win_share(ORX_GLOBAL_PTR const ORX_ELEM_T *base, ulong start, ulong n_out,
                           ulong window, ulong first_index, uint lane) {
  A r = ORX_IDENTITY;
  if (start < n_out)
    for (ulong k = lane; k < window; k += ORX_MR_Q)
      r = orx_combine(r, ORX_MAP(ORX_READ(base, start + k), first_index + start + k));
  return r;
}

__kernel ORX_KERNEL_ATTR void orx_windows(ORX_WINDOWS_ARGS) {
  __local A exchange[2 * ORX_WG_SIZE];
  ORX_GLOBAL_PTR const ORX_ELEM_T *base = in + in_offset;
  const int shuffle = orx_mr_can_shuffle();
  const uint lane = (uint)get_local_id(0) % ORX_MR_Q;
  const ulong groups = get_global_size(0) / ORX_MR_Q;
  (void)scratch;
  /* Every lane group runs the same number of sets: merges may need the whole work-group. */
  const ulong sets = (n_out + ORX_MR_Q - 1) / ORX_MR_Q;
  const ulong rounds = (sets + groups - 1) / groups;
  for (ulong round = 0; round < rounds; round++) {
    const ulong first = (round * groups + get_global_id(0) / ORX_MR_Q) * ORX_MR_Q;
#if ORX_WIN_ALGO == ORX_WIN_SHUFFLE
    A mine = ORX_IDENTITY;
    for (uint i = 0; i < ORX_MR_Q; i++) {
      A x = orx_win_share(base, first + i, n_out, window, first_index, lane);
      for (uint mask = 1; mask < ORX_MR_Q; mask <<= 1)
        x = orx_mr_merge(x, x, mask, ORX_OP_ID, ORX_OP_ID, shuffle, exchange);
      if (lane == i)
        mine = x;
    }
#else
    /* pending[k]: windows of a finished run of 2^k, merged at level k; window i completes the
     * runs that its index's trailing one bits close. */
    A pending[ORX_WIN_LEVELS];
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
    for (uint i = 0; i < ORX_MR_Q; i++) {
      A x = orx_win_share(base, first + i, n_out, window, first_index, lane);
      uint k = 0;
#if ORX_UNROLL_SLOTS
#pragma unroll
#endif
      for (; (i >> k) & 1u; k++)
        x = orx_mr_merge(pending[k], x, 1u << k, ORX_OP_ID, ORX_OP_ID, shuffle, exchange);
      pending[k] = x;
    }
    const A mine = pending[ORX_WIN_LEVELS - 1];
#endif
    if (first + lane < n_out)
      ORX_WRITE_RESULT(out, out_index + first + lane, mine);
  }
}

#elif ORX_WIN_ALGO == ORX_WIN_BLOCKS

/* Tiles start on whole runs in words, so that each run lies on 16-byte boundaries where the
 * input's first element does, and for windows of whole runs, so that blocks start only where runs
 * do in every tile. */
#define ORX_WIN_TILES_ON_RUNS (ORX_WIN_WORDS || ORX_WIN_WHOLE_RUNS)

__kernel ORX_KERNEL_ATTR void orx_windows(ORX_WINDOWS_ARGS) {
  __local orx_win_local l;
  ORX_GLOBAL_PTR const ORX_ELEM_T *base = in + in_offset;
  const uint lid = (uint)get_local_id(0);
  const ulong count = n_out + window - 1;
  /* The host keeps window <= tile / 2 + 1 (orx_win_per_tile). */
  const ulong per_tile = (ORX_WIN_TILE - window + 1) / (ORX_WIN_TILES_ON_RUNS ? ORX_WIN_RUN : 1) *
                         (ORX_WIN_TILES_ON_RUNS ? ORX_WIN_RUN : 1);
#if ORX_WIN_WORDS
  const int words = orx_words_aligned(base); /* the same in the whole launch */
#else
  const int words = 0;
#endif
  (void)scratch;
  for (ulong start = get_group_id(0) * per_tile; start < n_out;
       start += get_num_groups(0) * per_tile) {
    orx_win_tile t;
    t.start = start;
    t.first_index = first_index;
    t.window = window;
    t.n = (uint)(count - start < ORX_WIN_TILE ? count - start : ORX_WIN_TILE);
    t.phase = (uint)((first_index + start) % window);
    t.cuts = orx_win_cut_bits(t.phase, (uint)window, lid);
    /* The barrier stays outside the branches on `words` (uniform, but PoCL has miscompiled
     * barriers in branches). */
    A pre[ORX_WIN_RUN], suf[ORX_WIN_RUN];
    if (!words)
      orx_win_load(base, &t, l.stage, 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
#if ORX_WIN_WORDS
    if (words)
      orx_win_words_run(base + start, &t, pre);
    else
#endif
      orx_win_staged_run(l.stage, pre);
    A carry_fwd = ORX_IDENTITY, carry_bwd = ORX_IDENTITY;
    orx_win_scan(&t, &l, pre, suf, &carry_fwd, &carry_bwd);
    /* S through the stage into coalesced order, then P to the stage, then the results
     * (orx_win_finish). */
    orx_win_stage_run(l.stage, suf);
    barrier(CLK_LOCAL_MEM_FENCE);
    ORX_WIN_UNROLL
    for (uint k = 0; k < ORX_WIN_RUN; k++)
      suf[k] = l.stage[ORX_WIN_COALESCED_AT(lid, k)];
    barrier(CLK_LOCAL_MEM_FENCE);
    orx_win_stage_run(l.stage, pre);
    barrier(CLK_LOCAL_MEM_FENCE);
    orx_win_finish(out + out_index + start,
                   (uint)(n_out - start < per_tile ? n_out - start : per_tile), &t, suf, &l);
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tile overwrites the stage */
  }
}

#elif ORX_WIN_ALGO == ORX_WIN_LONG

/* Where LONG's totals and heads lie in `scratch`: tile k's total at k, its head (the first o
 * elements) at tiles + k, for the tiles of the launch's n_out + window - 1 elements. */
#define ORX_WIN_LONG_TILES(lead, count) (((lead) + (count) + ORX_WIN_TILE - 1) / ORX_WIN_TILE)

#if ORX_WIN_TOTALS

/* LONG's first launch: the total and the head of each tile of the launch. */
__kernel ORX_KERNEL_ATTR void orx_windows(ORX_WINDOWS_ARGS) {
  __local orx_win_local l;
  ORX_GLOBAL_PTR const ORX_ELEM_T *base = in + in_offset;
  const ulong count = n_out + window - 1;
  const uint lead = (uint)(first_index % ORX_WIN_TILE);
  const uint o = (uint)((window - 1) % ORX_WIN_TILE);
  const ulong tiles = ORX_WIN_LONG_TILES(lead, count);
  const uint q0 = (uint)get_local_id(0) * ORX_WIN_RUN;
  (void)out, (void)out_index;
  for (ulong k = get_group_id(0); k < tiles; k += get_num_groups(0)) {
    orx_win_long_load_tile(base, k, lead, count, first_index, l.stage);
    barrier(CLK_LOCAL_MEM_FENCE);
    A pre[ORX_WIN_RUN], suf[ORX_WIN_RUN];
    const A total = orx_win_long_scan(&l, pre, suf, ORX_WIN_LONG_P);
    if (get_local_id(0) == 0)
      scratch[k] = total;
    ORX_WIN_UNROLL
    for (uint r = 0; r < ORX_WIN_RUN; r++)
      if (q0 + r + 1 == o)
        scratch[tiles + k] = pre[r];
    /* The scan read the stage before its last barrier: the next tile may overwrite it. */
  }
}

#else

/* The steps of a tile of results (S of tile k, then P' of U_k) are one loop, so that the scan has
 * one call site (PoCL 3.1 miscompiles a second copy of a function with barriers; PoCL 5.0 failed
 * an assertion). Where subgroups shuffle on GPUs the loop is unrolled, so that each step's scan
 * computes only its own direction. */
#if ORX_SG_HAS_SHUFFLE && ORX_UNROLL_SLOTS
#define ORX_WIN_LONG_STEPS_UNROLL _Pragma("unroll")
#else
#define ORX_WIN_LONG_STEPS_UNROLL
#endif

/* LONG's second launch (lib/orx_window_long.cl): a tile of results at a time, over the totals and
 * heads the first launch left in scratch; or, where ORX_WIN_ONE_PASS, the only launch, whose
 * work-groups take every tile by ticket, publish its total and head, and wait for those of the
 * tiles after it. */
__kernel ORX_KERNEL_ATTR void orx_windows(ORX_WINDOWS_ARGS) {
  __local orx_win_long_local l;
  ORX_GLOBAL_PTR const ORX_ELEM_T *base = in + in_offset;
  const ulong count = n_out + window - 1;
  /* The host keeps window > ORX_WIN_TILE: D >= 1. */
  const ulong tiles_between = (window - 1) / ORX_WIN_TILE;
  const uint o = (uint)((window - 1) % ORX_WIN_TILE);
  const uint lead = (uint)(first_index % ORX_WIN_TILE);
  const ulong tiles = (lead + n_out + ORX_WIN_TILE - 1) / ORX_WIN_TILE;
  const ulong tiles_in = ORX_WIN_LONG_TILES(lead, count);
#if ORX_WIN_ONE_PASS
  /* Tickets: every tile of the input, the last first; each group then takes one ticket past
   * them, and the group that takes the last of those resets the counter for the next launch. */
  ORX_GLOBAL_PTR uint *counter = (ORX_GLOBAL_PTR uint *)scratch;
  for (;;) {
    if (get_local_id(0) == 0) {
      l.ticket = orx_ticket(counter);
      if (l.ticket == tiles_in + get_num_groups(0) - 1)
        orx_ticket_reset(counter);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l.ticket >= tiles_in)
      break;
    const ulong k = tiles_in - 1 - l.ticket;
    A m = ORX_IDENTITY; /* M[k], once the tiles after k have published */
#else
  (void)epoch;
  for (ulong k = get_group_id(0); k < tiles; k += get_num_groups(0)) {
    A m = orx_win_long_m(scratch, k, tiles_between, o, tiles_in, l.parts);
#endif
    /* Tile k's results at tile positions skip and on: launch positions from k * TILE - lead. */
    const uint skip = k ? 0u : lead;
    const ulong j0 = k * ORX_WIN_TILE + skip - lead;
    A s[ORX_WIN_RUN];
    ORX_WIN_LONG_STEPS_UNROLL
    for (uint step = 0; step < 2; step++) {
      A pre[ORX_WIN_RUN], suf[ORX_WIN_RUN];
      /* Tile k from launch position j0 (its tile position skip), then U_k, which starts
       * window - 1 positions after tile k: inside the launch, since window > ORX_WIN_TILE > lead.
       * One call of the load, as of the scan. */
      orx_win_long_load(base, step ? k * ORX_WIN_TILE + window - 1 - lead : j0, step ? 0u : skip,
                        count, first_index, l.scan.stage);
      barrier(CLK_LOCAL_MEM_FENCE);
#if ORX_WIN_ONE_PASS
      const A total = orx_win_long_scan(&l.scan, pre, suf,
                                        step ? ORX_WIN_LONG_P : ORX_WIN_LONG_P | ORX_WIN_LONG_S);
      /* Tile k's total and head out as soon as they are known; the tiles after k's awaited
       * once U_k is scanned (a tile past the results needs none). */
      if (step == 0) {
        if (get_local_id(0) == 0)
          orx_win_long_publish(ORX_WIN_LONG_SLOT(scratch, k, 0), epoch, total);
        const uint q0 = (uint)get_local_id(0) * ORX_WIN_RUN;
        ORX_WIN_UNROLL
        for (uint r = 0; r < ORX_WIN_RUN; r++)
          if (q0 + r + 1 == o)
            orx_win_long_publish(ORX_WIN_LONG_SLOT(scratch, k, 1), epoch, pre[r]);
      } else if (k < tiles) {
        m = orx_win_long_await_m((ORX_GLOBAL_PTR ulong *)scratch, k, tiles_between, o, epoch,
                                 &l.m);
      }
#else
      (void)orx_win_long_scan(&l.scan, pre, suf, step ? ORX_WIN_LONG_P : ORX_WIN_LONG_S);
#endif
      ORX_WIN_UNROLL
      for (uint r = 0; r < ORX_WIN_RUN; r++)
        s[r] = step ? orx_combine(orx_combine(s[r], m), pre[r]) : suf[r];
    }
    orx_win_stage_run(l.scan.stage, s);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* A tile past the results (ORX_WIN_ONE_PASS) stores none. */
    const ulong left = j0 >= n_out                       ? 0
                       : n_out - j0 < ORX_WIN_TILE - skip ? n_out - j0
                                                           : ORX_WIN_TILE - skip;
    orx_win_store_staged(out + out_index + j0, (uint)left, skip, l.scan.stage);
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tile overwrites the stage */
  }
}

#endif

#elif ORX_WIN_ALGO == ORX_WIN_SERIAL

/* A work-item takes a contiguous range of blocks, so that short windows pay for the block
 * arithmetic once per range. */
__kernel ORX_KERNEL_ATTR void orx_windows(ORX_WINDOWS_ARGS) {
  ORX_GLOBAL_PTR const ORX_ELEM_T *base = in + in_offset;
  ORX_GLOBAL_PTR A *suffixes = scratch + get_global_id(0) * window;
  const ulong phase = first_index % window;
  const ulong blocks = (phase + n_out + window - 1) / window;
  const ulong items = get_global_size(0), per_item = (blocks + items - 1) / items;
  const ulong k0 = get_global_id(0) * per_item;
  const ulong k1 = k0 + per_item < blocks ? k0 + per_item : blocks;
  ulong lo = k0 ? ORX_WIN_BLOCK_START(k0) : 0;
  const int first_whole = k0 || phase == 0; /* lo starts a block */
  for (ulong k = k0; k < k1; k++) {
    const ulong block_end = ORX_WIN_BLOCK_START(k + 1); /* <= count, since lo < n_out */
    const ulong hi = block_end < n_out ? block_end : n_out;
    /* The suffixes of the block, kept for its windows [lo, hi). */
    A s = ORX_MAP(ORX_READ(base, block_end - 1), first_index + block_end - 1);
    if (block_end - 1 < hi)
      suffixes[block_end - 1 - lo] = s;
    for (ulong p = block_end - 1; p-- > lo;) {
      s = orx_combine(ORX_MAP(ORX_READ(base, p), first_index + p), s);
      if (p < hi)
        suffixes[p - lo] = s;
    }
    if (k > k0 || first_whole) /* the window at lo is the whole block */
      ORX_WRITE_RESULT(out, out_index + lo, s);
    /* The next block's prefixes complete the others: window j takes P[j + window - 1]. */
    A pre = ORX_IDENTITY;
    for (ulong p = block_end; p < hi + window - 1; p++) {
      pre = orx_absorb(pre, ORX_READ(base, p), first_index + p);
      if (p + 1 >= window + lo)
        ORX_WRITE_RESULT(out, out_index + p + 1 - window,
                         orx_combine(suffixes[p + 1 - window - lo], pre));
    }
    lo = block_end;
  }
}

#elif ORX_WIN_ALGO == ORX_WIN_SPANS

__kernel ORX_KERNEL_ATTR void orx_windows(ORX_WINDOWS_ARGS) {
  __local orx_win_spans_local l;
  ORX_GLOBAL_PTR const ORX_ELEM_T *base = in + in_offset;
  const uint lid = (uint)get_local_id(0);
  const ulong count = n_out + window - 1;
  /* The host keeps 2 * ORX_WIN_RUN < window and a tile's results at least a run. */
  const uint w = (uint)window, per_tile = orx_win_spans_per_tile(window);
  const uint lead = (uint)(first_index % ORX_WIN_RUN); /* launch position 0's offset in its run */
  (void)scratch;
  for (ulong start = get_group_id(0) * per_tile; start < n_out;
       start += get_num_groups(0) * per_tile) {
    /* Tile position q is launch position start - lead + q: the launch's first tile starts
     * before its first element, there at tile position `lead` (skip). */
    const uint skip = start ? 0u : lead;
    orx_win_tile t;
    t.start = start + skip - lead;
    t.n = (uint)(count - t.start + skip < ORX_WIN_TILE ? count - t.start + skip : ORX_WIN_TILE);
    t.first_index = first_index;
    t.window = window;
    t.cuts = t.phase = 0;
    orx_win_load(base, &t, l.stage, skip);
    barrier(CLK_LOCAL_MEM_FENCE);
    A x[ORX_WIN_RUN];
    orx_win_staged_run(l.stage, x);
    orx_win_spans_scans(&l, x);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid * ORX_WIN_RUN < lead + per_tile) /* a run that holds results */
      orx_win_spans_results(&l, w, x);
    barrier(CLK_LOCAL_MEM_FENCE);
    orx_win_stage_run(l.stage, x);
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong left = n_out - start < per_tile ? n_out - start : per_tile;
    orx_win_store_staged(out + out_index + start, (uint)left, lead, l.stage);
    barrier(CLK_LOCAL_MEM_FENCE); /* the next tile overwrites the stage */
  }
}

#else
#error "ORX_WIN_ALGO must be one of the ORX_WIN_ ids"
#endif
