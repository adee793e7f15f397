/* =================================================================================================
 * by_key.cl: reduce by key in one pass over the keys and values (docs/design/reduce-by-key.md,
 * Decision 1): a run is a maximal stretch of equal keys; run r's key goes to keys_out[r] and the
 * reduction of its values to out[r], in order, and the number of runs to the scratch's word 1.
 *
 *   1. A work-group takes the next tile (lib/orx_lookback.cl's ticket; on NVIDIA's GPUs its id,
 *      ORX_KEY_IN_ORDER) of ORX_KEY_RUN elements per work-item, loads its keys and values into
 *      each work-item's registers, ORX_KEY_RUN consecutive elements each (through local memory,
 *      coalesced, or straight in 16-byte loads: ORX_KEY_DIRECT), and each work-item summarizes
 *      them: how many runs start there (heads: the element 0, and every element whose key
 *      differs from the one before) and the value of the last run it reaches, from that run's
 *      first element within it.
 *   2. Summaries join left to right as a segmented scan: (h1, v1) then (h2, v2) is (h1 + h2, v2)
 *      when h2 > 0, else (h1, v1 combined with v2). A scan over the work-group gives each
 *      work-item the summary of the tile's elements before its own, and the tile's own.
 *   3. The summary of everything before the tile comes from the tiles before it: the chained scan
 *      with decoupled look-back (Merrill and Garland; CUB's ReduceByKey). Each tile publishes its
 *      own summary at once (AGGREGATE) and its inclusive prefix once known (PREFIX); a tile reads
 *      the tiles before it a window at a time, joining AGGREGATEs back to the first PREFIX, so it
 *      rarely waits on more than its neighbours. Tile 0 publishes its PREFIX at once.
 *   4. Each work-item walks its elements again with the runs before it counted and its open run's
 *      value carried in; a head closes the run before it. The runs the tile closes are
 *      consecutive, so they are staged in local memory and written out coalesced (each work-item
 *      storing its own took 1.5 ms at runs of 1 on the H200, where CUB takes 0.4), the last
 *      tile's with the last run. Runs from `room` on are counted, not stored: outputs of fewer
 *      runs than pairs are scratch, copied out by the host once the count says they fit.
 *
 * Every combine is left to right, and the tiles depend only on ORX_KEY_RUN and ORX_WG_SIZE, so a
 * given input gives the same bits on every run. Keys are compared as bits (ORX_KEY_BYTES 4 or 8).
 *
 * The scratch (ulongs, src/planner/plan_by_key.c): word 0 the ticket counter (zero between
 * launches), word 1 the run count (written by the last tile), then per tile an AGGREGATE's and a
 * PREFIX's summary, ORX_KEY_WORDS tagged words each (lib/orx_lookback.cl): the heads' low and
 * high 32 bits, the value's. The tag is 2 * epoch for an AGGREGATE and 2 * epoch + 1 for a
 * PREFIX; the host passes a new epoch every launch, so words of earlier launches read as not
 * published and no launch needs them cleared (the host zeroes a new scratch, and again before the
 * epochs would wrap).
 *
 * CPU devices take the same steps in chunks that one work-item walks (ORX_KEY_CHUNKS: the kernel
 * at the end of this file).
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, ceil(n / (ORX_WG_SIZE * ORX_KEY_RUN)) groups, n > 0.
 * ============================================================================================== */
#include "lib/orx_lookback.cl"
#include "lib/orx_ops.cl"
#include "lib/orx_warp.cl"
#include "lib/orx_words.cl"

#if ORX_PAIR_OP != ORX_PAIR_NONE || (ORX_STATE && ORX_OP_ID == ORX_OP_CUSTOM)
#error "by_key.cl: built-in operators of one input"
#endif
/* Operators whose states hold an element's index (ARGMIN, ARGMAX) map each element with its
 * position in the input, which orders ties as the run's own positions would, and have the run's
 * start subtracted when the run is stored (ORX_STATE_REBASE): the summaries then carry where
 * their last run starts (ORX_KEY_STARTS, which the planner sets for them). */
#if ORX_KEY_STARTS != (defined(ORX_STATE_REBASE) || ORX_KEY_POSITIONS)
#error "by_key.cl: ORX_KEY_STARTS is for the operators that define ORX_STATE_REBASE, and positions"
#endif
/* ORX_KEY_POSITIONS: each run's result is where it starts (a u64: SUM over U64 of no values), and
 * out[runs] the count of pairs, offsets of the runs as segments for operators whose map takes the
 * index in the run (user operators; run_by_key_pass.c reduces those segments next). The values
 * are not read. */
#if ORX_KEY_POSITIONS && (ORX_TYPE_ID != ORX_U64 || ORX_OP_ID != ORX_OP_SUM)
#error "by_key.cl: ORX_KEY_POSITIONS are u64 SUM results"
#endif
#if ORX_KEY_POSITIONS
#define orx_key_value_at(base, i) ORX_IDENTITY
#else
#define orx_key_value_at(base, i) ORX_MAP(ORX_READ((base), (i)), (i))
#endif

#if ORX_KEY_BYTES == 8
typedef ulong orx_key_bits;
#else
typedef uint orx_key_bits;
#endif

#define ORX_KEY_TILE (ORX_WG_SIZE * ORX_KEY_RUN)
/* A slot of padding every 32 elements: work-item w reads elements w * ORX_KEY_RUN + j, which
 * without it fall into the same bank for every w of a warp. */
#define ORX_KEY_PAD(i) ((i) + ((i) >> 5))

/* The summary of a stretch of elements: the runs that start in it, and the value of its last run
 * from the stretch's first element on (or from that run's first, when it starts in it). */
typedef struct orx_key_part {
  ulong heads;
  A value;
#if ORX_KEY_STARTS
  ulong start; /* where the last run starts, when heads > 0 */
#endif
} orx_key_part;

ORX_INLINE orx_key_part orx_key_join(orx_key_part a, orx_key_part b) {
  orx_key_part r;
  r.heads = a.heads + b.heads;
  r.value = b.heads ? b.value : orx_combine(a.value, b.value);
#if ORX_KEY_STARTS
  r.start = b.heads ? b.start : a.start;
#endif
  return r;
}

/* The summary of no elements. */
ORX_INLINE orx_key_part orx_key_none(void) {
  orx_key_part r;
  r.heads = 0;
  r.value = ORX_IDENTITY;
#if ORX_KEY_STARTS
  r.start = 0;
#endif
  return r;
}

/* Where the last run of summary p starts (when p.heads > 0), and a run's value as stored. */
#if ORX_KEY_POSITIONS
#define orx_key_start_of(p) ((p).start)
#define orx_key_stored(value, run_start) (run_start)
#elif ORX_KEY_STARTS
#define orx_key_start_of(p) ((p).start)
#define orx_key_stored(value, run_start) ORX_STATE_REBASE((value), (run_start))
#else
#define orx_key_start_of(p) ((ulong)0)
#define orx_key_stored(value, run_start) (value)
#endif

/* The runs a tile closes as they wait in local memory to be written out (`staged`, the i-th from
 * the tile's first closed run at ORX_KEY_PAD(i)), and as written. Run i > 0 starts within the
 * tile; run 0 began before it (but in tile 0), where the last run of the tiles before does
 * (`behind`).
 *   - Positions wait as 4 bytes from the tile's first element: u64 left room for tiles of half the
 *     pairs in 40 KiB (2048 of 4-byte keys), whose look-back costs more (plan_by_key.c).
 *   - States whose index, taken from the run's start, fits 32 bits within a tile (ARGMIN and
 *     ARGMAX of 4-byte values: ORX_STATE_NEAR) wait in 8 bytes, not 16, and run 0, whose index
 *     may lie anywhere before the tile, whole in `carried`. H200, CUDA, 2^26 i32/f32 pairs in runs
 *     of 32, ncu: tiles of 1024 pairs took 2.79 ms, CUB's tiles of 384 2.43 (both wait on their
 *     look-backs, not on memory: 540 MB read). */
#if ORX_KEY_POSITIONS
typedef uint orx_key_staged;
#define ORX_KEY_NEAR 0
#elif defined(ORX_STATE_NEAR)
typedef ORX_STATE_NEAR orx_key_staged;
#define ORX_KEY_NEAR 1
#else
typedef A orx_key_staged;
#define ORX_KEY_NEAR 0
#endif
#if ORX_KEY_NEAR
typedef A orx_key_carried;
#else
typedef uchar orx_key_carried; /* not used */
#endif

ORX_INLINE void orx_key_stage(ORX_LOCAL_PTR orx_key_staged *staged,
                              ORX_LOCAL_PTR orx_key_carried *carried, uint i, A value,
                              ulong run_start, ulong tile_start) {
#if ORX_KEY_POSITIONS
  (void)carried;
  (void)value;
  staged[ORX_KEY_PAD(i)] = (uint)(run_start - tile_start);
#elif ORX_KEY_NEAR
  (void)tile_start;
  const A stored = orx_key_stored(value, run_start);
  if (i == 0)
    *carried = stored;
  else
    staged[ORX_KEY_PAD(i)] = ORX_STATE_TO_NEAR(stored, 0);
#else
  (void)carried;
  (void)tile_start;
  staged[ORX_KEY_PAD(i)] = orx_key_stored(value, run_start);
#endif
}

/* An element's state as it waits in the tile between its load and its work-item's registers
 * (loads through local memory), its index from the tile's first element. */
#if ORX_KEY_NEAR
#define orx_key_stage_loaded(value, tile_start) ORX_STATE_TO_NEAR((value), (tile_start))
#define orx_key_loaded(staged, tile_start) ORX_STATE_FROM_NEAR((staged), (tile_start))
#else
#define orx_key_stage_loaded(value, tile_start) (value)
#define orx_key_loaded(staged, tile_start) (staged)
#endif

#if ORX_KEY_POSITIONS
#define orx_key_unstage(staged, carried, i, tile_start, behind)                                   \
  ((i) == 0 && (tile_start) > 0 ? (behind).start : (tile_start) + (staged)[ORX_KEY_PAD(i)])
#elif ORX_KEY_NEAR
#define orx_key_unstage(staged, carried, i, tile_start, behind)                                   \
  ((i) == 0 ? *(carried) : ORX_STATE_FROM_NEAR((staged)[ORX_KEY_PAD(i)], 0))
#else
#define orx_key_unstage(staged, carried, i, tile_start, behind) ((staged)[ORX_KEY_PAD(i)])
#endif

/* Step 2, the work-group's scan of its work-items' summaries: `left`, for work-items past the
 * first, joins the tile's elements before the work-item's; `own` joins the whole tile's. Neither
 * joins a summary of no elements in, which would combine the identity into a value (-0.0 + 0.0 is
 * +0.0). */
#if ORX_KEY_WARP_SCAN
/* By shuffles within each warp (Hillis and Steele over its lanes), then the warps' summaries
 * through local memory, a barrier in all: the planner's choice on NVIDIA's warps
 * (plan_by_key.c). */
#if !ORX_WARP_SHUFFLE || ORX_WG_SIZE % ORX_WARP_SIZE
#error "ORX_KEY_WARP_SCAN: NVIDIA's warps of 32 (its OpenCL or CUDA), work-groups of whole warps"
#endif
#define ORX_KEY_WARPS (ORX_WG_SIZE / ORX_WARP_SIZE)
typedef struct orx_key_scan {
  orx_key_part warps[ORX_KEY_WARPS];
} orx_key_scan;

ORX_WORDS_UNION(orx_key_value_words, A, value);
/* A summary within a tile from lane (lane - delta): its heads fit 32 bits there. */
ORX_INLINE orx_key_part orx_key_part_shuffle_up(orx_key_part p, uint delta) {
  orx_key_value_words u;
  u.value = p.value;
#pragma unroll
  for (uint i = 0; i < sizeof(u.w) / 4; i++)
    u.w[i] = orx_warp_shuffle_up(u.w[i], delta);
  orx_key_part r;
  r.heads = orx_warp_shuffle_up((uint)p.heads, delta);
  r.value = u.value;
#if ORX_KEY_STARTS
  r.start = (ulong)orx_warp_shuffle_up((uint)p.start, delta) |
            (ulong)orx_warp_shuffle_up((uint)(p.start >> 32), delta) << 32;
#endif
  return r;
}

ORX_INLINE void orx_key_scan_tile(ORX_LOCAL_PTR orx_key_scan *scan, orx_key_part part,
                                  orx_key_part *left, orx_key_part *own) {
  const uint lid = (uint)get_local_id(0);
  const uint lane = lid % ORX_WARP_SIZE, warp = lid / ORX_WARP_SIZE;
  orx_key_part inclusive = part;
#pragma unroll
  for (uint delta = 1; delta < ORX_WARP_SIZE; delta *= 2) {
    const orx_key_part below = orx_key_part_shuffle_up(inclusive, delta);
    if (lane >= delta)
      inclusive = orx_key_join(below, inclusive);
  }
  const orx_key_part in_warp = orx_key_part_shuffle_up(inclusive, 1); /* lanes past the first */
  if (lane == ORX_WARP_SIZE - 1)
    scan->warps[warp] = inclusive;
  barrier(CLK_LOCAL_MEM_FENCE);
  orx_key_part before = scan->warps[0]; /* the warps before this one's (warps past the first) */
  for (uint w = 1; w < warp; w++)
    before = orx_key_join(before, scan->warps[w]);
  *left = lane == 0 ? before : warp == 0 ? in_warp : orx_key_join(before, in_warp);
  orx_key_part all = scan->warps[0];
  for (uint w = 1; w < ORX_KEY_WARPS; w++)
    all = orx_key_join(all, scan->warps[w]);
  *own = all;
}
#else
/* Through local memory, a summary per work-item (Hillis and Steele, a barrier pair per step). */
typedef struct orx_key_scan {
  ulong heads[ORX_WG_SIZE];
  A values[ORX_WG_SIZE];
#if ORX_KEY_STARTS
  ulong starts[ORX_WG_SIZE];
#endif
} orx_key_scan;

ORX_INLINE void orx_key_put(ORX_LOCAL_PTR orx_key_scan *scan, uint i, orx_key_part p) {
  scan->heads[i] = p.heads;
  scan->values[i] = p.value;
#if ORX_KEY_STARTS
  scan->starts[i] = p.start;
#endif
}

ORX_INLINE orx_key_part orx_key_get(ORX_LOCAL_PTR orx_key_scan *scan, uint i) {
  orx_key_part p;
  p.heads = scan->heads[i];
  p.value = scan->values[i];
#if ORX_KEY_STARTS
  p.start = scan->starts[i];
#endif
  return p;
}

ORX_INLINE void orx_key_scan_tile(ORX_LOCAL_PTR orx_key_scan *scan, orx_key_part part,
                                  orx_key_part *left, orx_key_part *own) {
  const uint lid = (uint)get_local_id(0);
  orx_key_put(scan, lid, part);
  barrier(CLK_LOCAL_MEM_FENCE);
  orx_key_part scanned = part;
  for (uint step = 1; step < ORX_WG_SIZE; step *= 2) {
    const orx_key_part below = lid >= step ? orx_key_get(scan, lid - step) : part;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= step) {
      scanned = orx_key_join(below, scanned);
      orx_key_put(scan, lid, scanned);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *left = lid ? orx_key_get(scan, lid - 1) : part;
  *own = orx_key_get(scan, ORX_WG_SIZE - 1);
}
#endif /* ORX_KEY_WARP_SCAN */

/* A value as the 32-bit words it is published in: a scalar's bits, or a state's words through a
 * union. H200, 2^26 i64/f64 pairs in runs of 32, kernel time, bits against the union: CUDA 729
 * us against 774, NVIDIA's OpenCL 690 against 640. Positions publish none: their values are all
 * the identity (the summaries' heads and start say everything). */
#if ORX_KEY_POSITIONS
#define ORX_KEY_VALUE_WORDS 0
ORX_INLINE uint orx_key_value_word(A value, uint i) {
  (void)value;
  (void)i;
  return 0;
}
ORX_INLINE A orx_key_value_of(const ulong *w) {
  (void)w;
  return ORX_IDENTITY;
}
#elif ORX_STATE
#define ORX_KEY_VALUE_WORDS ORX_STATE_WORDS /* through lib/orx_state.cl's union */
ORX_INLINE uint orx_key_value_word(A value, uint i) {
  orx_state_words v;
  v.state = value;
  return v.w[i];
}
ORX_INLINE A orx_key_value_of(const ulong *w) {
  orx_state_words v;
  for (uint i = 0; i < ORX_KEY_VALUE_WORDS; i++)
    v.w[i] = (uint)w[i];
  return v.state;
}
#else
#define ORX_KEY_VALUE_WORDS (ORX_TYPE_BYTES / 4)
ORX_INLINE uint orx_key_value_word(A value, uint i) {
  return (uint)((ulong)ORX_AS_BITS(value) >> (32 * i));
}
ORX_INLINE A orx_key_value_of(const ulong *w) {
  ORX_BITS_T bits = (ORX_BITS_T)(w[0] & 0xffffffffu);
#if ORX_TYPE_BYTES == 8
  bits |= (ORX_BITS_T)(w[1] & 0xffffffffu) << 32;
#endif
  return ORX_FROM_BITS(bits);
}
#endif
/* A summary's words (ORX_KEY_WORDS, the planner's: it sizes the scratch): the heads', the
 * value's, the start's. */
#define ORX_KEY_VALUE_AT 2
#define ORX_KEY_START_AT (ORX_KEY_VALUE_AT + ORX_KEY_VALUE_WORDS)
typedef char orx_key_words_fit[ORX_KEY_WORDS >= ORX_KEY_START_AT + 2 * ORX_KEY_STARTS ? 1 : -1];

/* Publishes summary s in the words at `at` under `tag`. */
ORX_INLINE void orx_key_publish(ORX_GLOBAL_PTR ulong *at, uint tag, orx_key_part s) {
  orx_tagged_store(at, tag, (uint)s.heads);
  orx_tagged_store(at + 1, tag, (uint)(s.heads >> 32));
  for (uint i = 0; i < ORX_KEY_VALUE_WORDS; i++)
    orx_tagged_store(at + ORX_KEY_VALUE_AT + i, tag, orx_key_value_word(s.value, i));
#if ORX_KEY_STARTS
  orx_tagged_store(at + ORX_KEY_START_AT, tag, (uint)s.start);
  orx_tagged_store(at + ORX_KEY_START_AT + 1, tag, (uint)(s.start >> 32));
#endif
}

/* Reads the summary at `at`: 1 when every word holds `tag` (it was published), else 0. */
ORX_INLINE int orx_key_read(ORX_GLOBAL_PTR ulong *at, uint tag, orx_key_part *s) {
  ulong w[ORX_KEY_START_AT + 2 * ORX_KEY_STARTS];
  int published = 1;
  for (uint i = 0; i < ORX_KEY_START_AT + 2 * ORX_KEY_STARTS; i++) {
    w[i] = orx_tagged_load(at + i);
    published = published && (uint)(w[i] >> 32) == tag;
  }
  s->heads = (w[0] & 0xffffffffu) | (w[1] & 0xffffffffu) << 32;
  s->value = orx_key_value_of(w + ORX_KEY_VALUE_AT);
#if ORX_KEY_STARTS
  s->start = (w[ORX_KEY_START_AT] & 0xffffffffu) | (w[ORX_KEY_START_AT + 1] & 0xffffffffu) << 32;
#endif
  return published;
}

/* Tiles a look-back reads at once, a work-item each. Each window costs a round trip to memory
 * and a join per tile in work-item 0; H200, CUDA, 2^26 i32/f32 pairs in runs of 1000: windows
 * of 8 tiles 305 us, 16 296 us, 32 327 us, 128 459 us (kernel time). */
#define ORX_KEY_WINDOW (ORX_WG_SIZE < 16 ? ORX_WG_SIZE : 16)

/* What a look-back window holds in local memory: per tile read, 0 (not published yet), 1 (an
 * AGGREGATE) or 2 (a PREFIX) and its summary; the nearest tile not joined yet; whether done. */
/* Its summaries as whole structs (ORX_KEY_WINDOW_PARTS) or as an array per field: H200, 2^26
 * i32/f32 pairs in runs of 32, kernel time, structs against arrays: CUDA 378 us against 331,
 * NVIDIA's OpenCL 347 against 403 (the planner picks per backend, plan_by_key.c). */
typedef struct orx_key_window {
  uint kind[ORX_KEY_WINDOW];
#if ORX_KEY_WINDOW_PARTS
  orx_key_part parts[ORX_KEY_WINDOW];
#else
  ulong heads[ORX_KEY_WINDOW];
  A values[ORX_KEY_WINDOW];
#if ORX_KEY_STARTS
  ulong starts[ORX_KEY_WINDOW];
#endif
#endif
  long next;
  int done;
} orx_key_window;

ORX_INLINE void orx_key_window_put(ORX_LOCAL_PTR orx_key_window *w, uint i, orx_key_part p) {
#if ORX_KEY_WINDOW_PARTS
  w->parts[i] = p;
#else
  w->heads[i] = p.heads;
  w->values[i] = p.value;
#if ORX_KEY_STARTS
  w->starts[i] = p.start;
#endif
#endif
}

ORX_INLINE orx_key_part orx_key_window_get(ORX_LOCAL_PTR orx_key_window *w, uint i) {
#if ORX_KEY_WINDOW_PARTS
  return w->parts[i];
#else
  orx_key_part p;
  p.heads = w->heads[i];
  p.value = w->values[i];
#if ORX_KEY_STARTS
  p.start = w->starts[i];
#endif
  return p;
#endif
}

#if ORX_KEY_WARP_JOIN
/* Step 3 on NVIDIA's warps (the planner's choice, per backend and plan: plan_by_key.c): the
 * tile's first warp reads 32 tiles at once, a lane each, and joins them by butterfly shuffles
 * (CUB's TilePrefixCallbackOp), with no barrier between windows; the result in work-item 0 (tile
 * 0: none). H200, 2^26 i32/f32 pairs, kernel us against the window of 16 below: NVIDIA's OpenCL
 * runs of 1 419 against 425, of 8 330 against 352, of 32 309-311 against 333-334, of 1000
 * 287-288 against 312-315; CUDA 7-9 % slower (runs of 32 324-325 against 300-303), so CUDA keeps
 * the window below (docs/perf/h200-by-key.txt). */
#if !ORX_WARP_SHUFFLE || ORX_WG_SIZE < ORX_WARP_SIZE
#error "ORX_KEY_WARP_JOIN: NVIDIA's warps of 32 (its OpenCL or CUDA), work-groups of 32 or more"
#endif

/* A summary from lane (lane ^ mask), as 32-bit words. */
#define ORX_KEY_PART_WORDS ((sizeof(orx_key_part) + 3) / 4)
ORX_WORDS_UNION(orx_key_part_words, orx_key_part, part);
ORX_INLINE orx_key_part orx_key_part_shuffle_xor(orx_key_part p, uint mask) {
  orx_key_part_words u;
  u.part = p;
#pragma unroll
  for (uint i = 0; i < ORX_KEY_PART_WORDS; i++)
    u.w[i] = orx_warp_shuffle_xor(u.w[i], mask);
  return u.part;
}

ORX_INLINE orx_key_part orx_key_look_back(ORX_GLOBAL_PTR ulong *words, uint tile, uint epoch,
                                          ORX_LOCAL_PTR orx_key_window *w) {
  const uint lane = (uint)get_local_id(0);
  orx_key_part before = orx_key_none();
  (void)w;
  if (lane >= 32)
    return before;
  long next = (long)tile - 1;
  int joined = 0, done = tile == 0;
  while (!done) { /* the same trips in every lane: what ends the loop is the warp's minimum */
    const long p = next - (long)lane;
    uint kind = 0; /* 0: not published yet, 1: an AGGREGATE, 2: a PREFIX */
    orx_key_part part = orx_key_none();
    if (p >= 0) {
      orx_key_part prefix, aggregate;
      const int has_prefix =
          orx_key_read(words + (2 * p + 1) * ORX_KEY_WORDS, 2 * epoch + 1, &prefix);
      const int has_aggregate = orx_key_read(words + 2 * p * ORX_KEY_WORDS, 2 * epoch, &aggregate);
      kind = has_prefix ? 2 : has_aggregate ? 1 : 0;
      part = has_prefix ? prefix : aggregate;
    }
    /* The window ends before the nearest tile not published, or after the nearest PREFIX,
     * whichever comes first: the warp's least 2 * lane (not published) or 2 * lane + 1 (a
     * PREFIX); 64 where every tile read is an AGGREGATE. */
    uint least = kind == 0 ? 2 * lane : kind == 2 ? 2 * lane + 1 : 64u;
#pragma unroll
    for (uint mask = 1; mask < 32; mask <<= 1) {
      const uint other = orx_warp_shuffle_xor(least, mask);
      least = other < least ? other : least;
    }
    const uint end = (least + 1) / 2; /* lanes [0, end) join */
    /* Lane l holds the join of lanes [l, l + 2^k) after step k, where l is a multiple of 2^(k+1):
     * the farther tiles come first. Lanes past `end` are never joined (no identity needed). */
#pragma unroll
    for (uint mask = 1; mask < 32; mask <<= 1) {
      const orx_key_part farther = orx_key_part_shuffle_xor(part, mask);
      if ((lane & mask) == 0 && lane + mask < end)
        part = orx_key_join(farther, part);
    }
    if (end > 0) {
      before = joined ? orx_key_join(part, before) : part;
      joined = 1;
    }
    next -= (long)end;
    done = (int)(least & 1u);
  }
  return before;
}
#else
/* Step 3, called by every work-item: the summary of the elements before the tile, in work-item 0
 * (tile 0: none). Work-items w < ORX_KEY_WINDOW read tiles next - w at once; work-item 0 joins
 * them nearest first, up to the first PREFIX. A tile not published yet ends the window, and the
 * next window starts from it. One work-item reading one tile at a time took 1.5 ms for 2^26
 * pairs on the H200, where CUB takes 0.3: a long walk over AGGREGATEs per tile. Every work-item
 * runs the loop, tile 0 too, without a branch around it: PoCL 3.1 crashed running the loop's
 * barriers under `if (tile > 0)`. */
ORX_INLINE orx_key_part orx_key_look_back(ORX_GLOBAL_PTR ulong *words, uint tile, uint epoch,
                                          ORX_LOCAL_PTR orx_key_window *w) {
  const uint lid = (uint)get_local_id(0);
  orx_key_part before = orx_key_none();
  int joined = 0;
  if (lid == 0) {
    w->next = (long)tile - 1;
    w->done = tile == 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  while (!w->done) {
    if (lid < ORX_KEY_WINDOW) {
      const long p = w->next - (long)lid;
      uint kind = 0;
      if (p >= 0) {
        orx_key_part prefix, aggregate;
        const int has_prefix =
            orx_key_read(words + (2 * p + 1) * ORX_KEY_WORDS, 2 * epoch + 1, &prefix);
        const int has_aggregate =
            orx_key_read(words + 2 * p * ORX_KEY_WORDS, 2 * epoch, &aggregate);
        kind = has_prefix ? 2 : has_aggregate ? 1 : 0;
        orx_key_window_put(w, lid, has_prefix ? prefix : aggregate);
      }
      w->kind[lid] = kind;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      uint j = 0;
      int done = 0;
      for (; j < ORX_KEY_WINDOW && w->kind[j] && !done; j++) {
        const orx_key_part part = orx_key_window_get(w, j);
        before = joined ? orx_key_join(part, before) : part;
        joined = 1;
        done = w->kind[j] == 2;
      }
      w->next -= (long)j;
      w->done = done;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return before;
}
#endif /* ORX_KEY_WARP_JOIN */

/* The kernel's parameters, the same in every form and pass (the host passes one list). */
#define ORX_KEY_PARAMS                                                                             \
  __global const orx_key_bits *ORX_RESTRICT keys, ulong keys_offset, ORX_IN_PARAMS(in),           \
      ulong in_offset, ulong n, __global orx_key_bits *keys_out, ulong keys_out_index,             \
      __global ORX_RESULT_T *out, ulong out_index, ulong room, __global ulong *scratch, uint epoch

/* The key before element `at`, from global memory (none before element 0). Clamped, not guarded:
 * work-items past the input's end read its last key instead of past it, and the load stays
 * unconditional (`at && mine` cost NVIDIA's OpenCL 7-10 %). */
ORX_INLINE orx_key_bits orx_key_before(ORX_GLOBAL_PTR const orx_key_bits *keys, ulong at,
                                       ulong n) {
  return at ? keys[(at < n ? at : n) - 1] : 0;
}

#if ORX_KEY_COUNTED
#include "lib/orx_key_counted.cl"
#endif

#if ORX_KEY_COUNTED == 1 || ORX_KEY_COUNTED == 2 || ORX_KEY_COUNTED == 4
/* The counted form's passes but its tiles' (lib/orx_key_counted.cl). */
#elif !ORX_KEY_CHUNKS
#if ORX_KEY_COUNTED
typedef orx_key_counts orx_key_close_counts;
#else
typedef uchar orx_key_close_counts; /* not used */
#endif
/* Step 4 closes run i of the tile (from its first closed run): staged, or in the counted form the
 * run crossing into a tile past the first (i == 0), whose value so far is the tile's head partial
 * (empty where the tile starts with a head), kept for pass 4. */
ORX_INLINE void orx_key_close(ORX_LOCAL_PTR orx_key_staged *staged,
                              ORX_LOCAL_PTR orx_key_carried *carried, uint i, A value, int empty,
                              ulong run_start, ulong tile_start, uint tile,
                              orx_key_close_counts counts) {
#if ORX_KEY_COUNTED
  if (tile > 0 && i == 0) {
    counts.head_parts[tile] = value;
    counts.filled[tile] = !empty;
    return;
  }
#else
  (void)counts;
  (void)tile;
#endif
  (void)empty;
  orx_key_stage(staged, carried, i, value, run_start, tile_start);
}

#if ORX_KEY_DIRECT
/* Step 1's loads straight into registers (the planner's choice, per backend): each work-item reads
 * its ORX_KEY_RUN keys and elements in 16-byte loads, where the keys and the input lie on 16-byte
 * boundaries (a work-item's first element then does too); else through local memory. H200,
 * CUDA, 2^26 i32/f32 pairs in runs of 32, kernel time: 296 us so, 329 through local memory, 480
 * with a load per element (docs/perf/h200-by-key.txt). */
#if ORX_ELEM_TYPE_ID != ORX_NO_TYPE || ORX_INPUT_STATES || ORX_KEY_RUN * ORX_KEY_BYTES % 16 ||     \
    ORX_KEY_RUN * ORX_TYPE_BYTES % 16
#error "by_key.cl: ORX_KEY_DIRECT loads a work-item's keys and elements of T in 16-byte words"
#endif
/* The bits of a work-item's ORX_KEY_RUN keys and elements (lib/orx_words.cl). */
#if ORX_KEY_BYTES == 8
#define orx_key_key_quads(p, bits) orx_words_load8((p), (bits), ORX_KEY_RUN)
#else
#define orx_key_key_quads(p, bits) orx_words_load4((p), (bits), ORX_KEY_RUN)
#endif
#if ORX_TYPE_BYTES == 8
#define orx_key_value_quads(p, bits) orx_words_load8((p), (bits), ORX_KEY_RUN)
#else
#define orx_key_value_quads(p, bits) orx_words_load4((p), (bits), ORX_KEY_RUN)
#endif

/* A work-item's `mine` keys and mapped elements from `at` on (the tile's last work-items hold
 * fewer than ORX_KEY_RUN, loaded one at a time). Positions read the keys alone. */
ORX_INLINE void orx_key_load_direct(ORX_GLOBAL_PTR const orx_key_bits *keys,
                                    ORX_GLOBAL_PTR const T *base, ulong at, uint mine,
                                    orx_key_bits *k, A *v) {
  const int values = !ORX_KEY_POSITIONS;
  ORX_BITS_T bits[ORX_KEY_RUN];
  if (mine == ORX_KEY_RUN) {
    orx_key_key_quads(keys + at, k);
    if (values)
      orx_key_value_quads(base + at, bits);
  } else {
    for (uint j = 0; j < ORX_KEY_RUN; j++) {
      k[j] = j < mine ? keys[at + j] : 0;
      bits[j] = j < mine && values ? ORX_AS_BITS(base[at + j]) : 0;
    }
  }
#pragma unroll
  for (uint j = 0; j < ORX_KEY_RUN; j++)
    v[j] = j < mine && values ? ORX_MAP(ORX_FROM_BITS(bits[j]), at + j) : ORX_IDENTITY;
}
#endif

__kernel ORX_KERNEL_ATTR void orx_by_key(ORX_KEY_PARAMS) {
  /* The tile's elements, then the runs it closes: a run per element, and the last run. */
  __local orx_key_bits tile_keys[ORX_KEY_PAD(ORX_KEY_TILE) + 1];
  __local orx_key_staged tile_values[ORX_KEY_PAD(ORX_KEY_TILE) + 1];
  __local orx_key_carried tile_carried;
  __local orx_key_scan scan;
#if !ORX_KEY_IN_ORDER && !ORX_KEY_COUNTED
  __local uint tile_taken;
#endif
  __local orx_key_part tile_before;
  __local orx_key_window window;

  const uint lid = (uint)get_local_id(0);
  ORX_IN base = ORX_IN_OPEN(in, in_offset);
  keys += keys_offset;
  ORX_GLOBAL_PTR ulong *words = scratch + 2;

  /* 1. The tile, its elements into registers, the work-item's summary. NVIDIA's GPUs start
   * work-groups in the order of their ids (CUB's single-pass scans rely on it too), so there a
   * tile may be the group's id: a tile waits only on lower ids, whose groups have started. That
   * saves the ticket's atomic and a barrier before the loads (plan_by_key.c). */
#if ORX_KEY_IN_ORDER || ORX_KEY_COUNTED
  const uint tile = (uint)get_group_id(0);
#else
  if (lid == 0) {
    const uint t = orx_ticket((ORX_GLOBAL_PTR uint *)scratch);
    if (t == (uint)get_num_groups(0) - 1)
      orx_ticket_reset((ORX_GLOBAL_PTR uint *)scratch);
    tile_taken = t;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = tile_taken;
#endif
  const ulong start = (ulong)tile * ORX_KEY_TILE;
  const uint held = n - start < ORX_KEY_TILE ? (uint)(n - start) : ORX_KEY_TILE;
  const uint first = lid * ORX_KEY_RUN;
  const uint mine = held > first ? (held - first < ORX_KEY_RUN ? held - first : ORX_KEY_RUN) : 0;
  const ulong at = start + first;
  orx_key_bits k[ORX_KEY_RUN], key_before;
  A v[ORX_KEY_RUN];
#if ORX_KEY_DIRECT
  if (orx_words_aligned(keys) && orx_words_aligned(base)) { /* the same in the whole launch */
    key_before = orx_key_before(keys, at, n);
    orx_key_load_direct(keys, base, at, mine, k, v);
  } else
#endif
  {
    for (uint j = 0; j < ORX_KEY_RUN; j++) {
      const uint i = j * ORX_WG_SIZE + lid;
      if (i < held) {
        tile_keys[ORX_KEY_PAD(i)] = keys[start + i];
#if !ORX_KEY_POSITIONS
        tile_values[ORX_KEY_PAD(i)] =
            orx_key_stage_loaded(orx_key_value_at(base, start + i), start);
#endif
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The key before the work-item's first element (work-item 0: the tile's, from global memory;
     * Intel's CPU runtime read a __local copy of it as 0). Work-items past the input's end read
     * the tile's last key, which was written (Oclgrind's uninitialized-value check). */
    key_before = first ? tile_keys[ORX_KEY_PAD((first < held ? first : held) - 1)]
                 : start ? keys[start - 1] : 0;
#pragma unroll
    for (uint j = 0; j < ORX_KEY_RUN; j++) {
      k[j] = j < mine ? tile_keys[ORX_KEY_PAD(first + j)] : 0;
#if ORX_KEY_POSITIONS
      v[j] = ORX_IDENTITY;
#else
      v[j] = j < mine ? orx_key_loaded(tile_values[ORX_KEY_PAD(first + j)], start) : ORX_IDENTITY;
#endif
    }
  }
  orx_key_part part = orx_key_none(); /* a work-item past the end: joins as nothing read */
#pragma unroll
  for (uint j = 0; j < ORX_KEY_RUN; j++) {
    const int head = k[j] != (j ? k[j - 1] : key_before) || at + j == 0;
    if (j < mine) {
      part.heads += head ? 1u : 0u;
      part.value = head || j == 0 ? v[j] : orx_combine(part.value, v[j]);
#if ORX_KEY_STARTS
      part.start = head ? at + j : part.start;
#endif
    }
  }
  /* 2. The work-group's scan of the summaries. */
  orx_key_part left, own;
  orx_key_scan_tile(&scan, part, &left, &own);

  /* 3. The tiles before: tile 0 publishes its PREFIX at once, the others their AGGREGATE, then
   * their PREFIX once the look-back gave the summary before them. */
#if ORX_KEY_COUNTED
  /* The counted form: the heads before the tile are known (passes 1 and 2); the value of the run
   * crossing into it is pass 4's, so the tile keeps its head partial (step 4). */
  const orx_key_counts counts = orx_key_counts_of(scratch, n);
  (void)epoch;
  (void)words;
  (void)window;
  if (lid == 0) {
    orx_key_part b = orx_key_none();
    b.heads = counts.groups[tile / ORX_KEY_GROUP] + counts.within[tile];
    tile_before = b;
    counts.places[tile] = b.heads;
    if (start + held == n)
      counts.places[tile + 1] = b.heads + own.heads;
  }
#else
  const orx_key_close_counts counts = 0;
  if (lid == 0)
    orx_key_publish(words + (2 * (ulong)tile + (tile == 0)) * ORX_KEY_WORDS,
                    2 * epoch + (tile == 0), own);
  const orx_key_part before = orx_key_look_back(words, tile, epoch, &window);
  if (lid == 0) {
    if (tile > 0)
      orx_key_publish(words + (2 * (ulong)tile + 1) * ORX_KEY_WORDS, 2 * epoch + 1,
                      orx_key_join(before, own));
    tile_before = before;
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);

  /* 4. The runs the tile closes, [closed, end), staged at local position r - closed (the tile's
   * elements are all in registers by now). `open` is the summary of every element before the
   * work-item's first: empty only before element 0, which starts a run.
   *   CPU devices (ORX_KEY_RELOAD) read the work-item's keys and elements again here, from cache,
   * rather than hold them across the barriers above: PoCL keeps such values in arrays of a slot
   * per work-item in memory anyway, and PoCL 5's compile of this kernel was not deterministic: on
   * the H200 machine's Xeon, 25 of 992 fresh compiles of one program (work-groups of 64) gave
   * other binaries than the usual one, each of which gave wrong runs; the one inspected had no
   * per-work-item array for k[0], so every work-item compared against one work-item's key
   * (docs/perf/pocl5-by-key-compile.txt). */
  const orx_key_part behind = tile_before;
  const ulong closed = behind.heads ? behind.heads - 1 : 0;
  const int last_tile = start + held == n;
  const ulong end = behind.heads + own.heads - (last_tile ? 0 : 1);
  orx_key_part open = behind;
  if (lid > 0) {
    open = tile > 0 ? orx_key_join(behind, left) : left;
#if ORX_KEY_COUNTED
    /* No value is carried in: the elements before the work-item's are the run's from the tile's
     * first on (the identity joined in would change a run of -0.0 to +0.0). */
    open = left;
    open.heads += behind.heads;
#endif
  }
  ulong runs = open.heads, run_start = orx_key_start_of(open);
  A acc = open.value;
  /* The counted form's tile past the first: nothing yet in `acc` before its first element. */
  int acc_empty = ORX_KEY_COUNTED && tile > 0 && lid == 0;
#if ORX_KEY_RELOAD
  orx_key_bits previous = orx_key_before(keys, at, n); /* key_before, read again */
#else
  orx_key_bits previous = key_before;
#endif
#pragma unroll
  for (uint j = 0; j < ORX_KEY_RUN; j++) {
    if (j < mine) {
#if ORX_KEY_RELOAD
      const orx_key_bits key = keys[at + j];
      const A value = orx_key_value_at(base, at + j);
#else
      const orx_key_bits key = k[j];
      const A value = v[j];
#endif
      if (key != previous || at + j == 0) {
        if (runs > 0) { /* the run before ends at the element before */
          orx_key_close(tile_values, &tile_carried, (uint)(runs - 1 - closed), acc, acc_empty,
                        run_start, start, tile, counts);
          tile_keys[ORX_KEY_PAD((uint)(runs - 1 - closed))] = previous;
        }
        runs++;
        run_start = at + j;
        acc = value;
      } else {
        acc = acc_empty ? value : orx_combine(acc, value);
      }
      acc_empty = 0;
      previous = key;
    }
  }
  (void)run_start; /* read by ORX_STATE_REBASE only */
  if (mine > 0 && last_tile && first + mine == held) { /* the last element ends the last run */
    orx_key_close(tile_values, &tile_carried, (uint)(runs - 1 - closed), acc, 0, run_start, start,
                  tile, counts);
    tile_keys[ORX_KEY_PAD((uint)(runs - 1 - closed))] = previous;
  }
#if ORX_KEY_COUNTED
  if (mine > 0 && first + mine == held) { /* for pass 4: the tile's last run, or all of it */
    if (own.heads > 0) {
      counts.tails[tile] = acc;
      counts.starts[tile] = run_start;
    } else if (!last_tile) { /* (the last tile's closed its run above) */
      counts.head_parts[tile] = acc;
      counts.filled[tile] = 1;
    }
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  const ulong stored = end < room ? end : room; /* runs from `room` on are counted only */
  const uint staged = stored > closed ? (uint)(stored - closed) : 0u;
  for (uint i = lid; i < staged; i += ORX_WG_SIZE) {
    if (!ORX_KEY_COUNTED || tile == 0 || i > 0) /* the counted form: run 0's value is pass 4's */
      ORX_WRITE_RESULT(out, out_index + closed + i,
                       orx_key_unstage(tile_values, &tile_carried, i, start, behind));
    keys_out[keys_out_index + closed + i] = tile_keys[ORX_KEY_PAD(i)];
  }
  if (lid == 0 && last_tile) {
    scratch[1] = end;
#if ORX_KEY_POSITIONS
    ORX_WRITE_RESULT(out, out_index + end, n); /* where the last run ends */
#endif
  }
}
#else /* ORX_KEY_CHUNKS */

/* CPU devices: a tile is a chunk of ORX_KEY_RUN elements that one work-item walks in order, as a
 * thread of an OpenMP loop would (ORX_WG_SIZE 1). With the tiles' scan over work-items, through
 * local memory a barrier apart, PoCL 5 on 16 cores ran at 0.28-0.45x the speed of an OpenMP loop
 * (2^24 i32/f32 pairs); in chunks at 1.03-2.17x (docs/perf/h200-by-key.txt). The chunks join
 * through the same look-back as the tiles:
 *   1. the chunk's summary from its keys alone but for its last run's values: the runs that start
 *      in it, the last one's start (the chunk's first element when none does), and that run's
 *      value from there to the chunk's end;
 *   2. the look-back gives the summary of the chunks before;
 *   3. the walk again, over keys and values: each head closes the run before it (the first one
 *      too, whose value began in the chunks before), and the last chunk's end closes the last. */
#if ORX_WG_SIZE != 1
#error "by_key.cl: a chunk is walked by one work-item (ORX_WG_SIZE 1)"
#endif
__kernel ORX_KERNEL_ATTR void orx_by_key(ORX_KEY_PARAMS) {
  __local orx_key_window window;
  ORX_IN base = ORX_IN_OPEN(in, in_offset);
  keys += keys_offset;
  ORX_GLOBAL_PTR ulong *words = scratch + 2;
  const uint chunk = orx_ticket((ORX_GLOBAL_PTR uint *)scratch);
  if (chunk == (uint)get_num_groups(0) - 1)
    orx_ticket_reset((ORX_GLOBAL_PTR uint *)scratch);
  const ulong start = (ulong)chunk * ORX_KEY_TILE;
  const ulong stop = n - start < ORX_KEY_TILE ? n : start + ORX_KEY_TILE;
  const orx_key_bits key_before = start ? keys[start - 1] : 0;

  /* 1. The heads (a count without branches, which compilers vectorize), the last run's start (the
   * chunk's end walked back to it), and that run's value to the chunk's end. */
  orx_key_part own = orx_key_none();
  own.heads = start == 0;
  for (ulong i = start + (start == 0); i < stop; i++)
    own.heads += keys[i] != keys[i - 1] ? 1u : 0u;
  ulong last = stop - 1;
  while (last > start && keys[last] == keys[last - 1])
    last--;
  A acc = orx_key_value_at(base, last);
  for (ulong i = last + 1; i < stop; i++)
    acc = orx_combine(acc, orx_key_value_at(base, i));
  own.value = acc;
#if ORX_KEY_STARTS
  own.start = last;
#endif

  /* 2. The chunks before, as the tiles' (chunk 0 publishes its PREFIX at once). */
  orx_key_publish(words + (2 * (ulong)chunk + (chunk == 0)) * ORX_KEY_WORDS,
                  2 * epoch + (chunk == 0), own);
  const orx_key_part before = orx_key_look_back(words, chunk, epoch, &window);
  if (chunk > 0)
    orx_key_publish(words + (2 * (ulong)chunk + 1) * ORX_KEY_WORDS, 2 * epoch + 1,
                    orx_key_join(before, own));

  /* 3. The runs the chunk closes, each stored where it ends. */
  ulong runs = before.heads, run_start = orx_key_start_of(before);
  acc = before.value;
  orx_key_bits previous = key_before;
  for (ulong i = start; i < stop; i++) {
    const orx_key_bits key = keys[i];
    const A v = orx_key_value_at(base, i);
    if (key != previous || i == 0) {
      if (runs > 0 && runs <= room) {
        ORX_WRITE_RESULT(out, out_index + runs - 1, orx_key_stored(acc, run_start));
        keys_out[keys_out_index + runs - 1] = previous;
      }
      runs++;
      run_start = i;
      acc = v;
    } else {
      acc = orx_combine(acc, v);
    }
    previous = key;
  }
  (void)run_start; /* read by ORX_STATE_REBASE only */
  if (stop == n) {
    if (runs <= room) {
      ORX_WRITE_RESULT(out, out_index + runs - 1, orx_key_stored(acc, run_start));
      keys_out[keys_out_index + runs - 1] = previous;
    }
    scratch[1] = runs;
#if ORX_KEY_POSITIONS
    ORX_WRITE_RESULT(out, out_index + runs, n); /* where the last run ends */
#endif
  }
}
#endif /* ORX_KEY_CHUNKS */
