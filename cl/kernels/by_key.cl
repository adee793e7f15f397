/* =================================================================================================
 * by_key.cl: reduce by key in one pass over the keys and values (docs/design/reduce-by-key.md,
 * Decision 1): a run is a maximal stretch of equal keys; run r's key goes to keys_out[r] and the
 * reduction of its values to out[r], in order, and the number of runs to the scratch's word 1.
 *
 *   1. A work-group takes the next tile (lib/orx_lookback.cl's ticket) of ORX_KEY_RUN elements per
 *      work-item, loads its keys and values through local memory (coalesced) into each
 *      work-item's registers, ORX_KEY_RUN consecutive elements each, and each work-item
 *      summarizes them: how many runs start there (heads: the element 0, and every element whose
 *      key differs from the one before) and the value of the last run it reaches, from that run's
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
 *      tile's with the last run.
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
 * Launch: get_local_size(0) == ORX_WG_SIZE, ceil(n / (ORX_WG_SIZE * ORX_KEY_RUN)) groups, n > 0.
 * ============================================================================================== */
#include "lib/orx_lookback.cl"
#include "lib/orx_ops.cl"

#if ORX_STATE || ORX_PAIR_OP != ORX_PAIR_NONE
#error "by_key.cl: scalar operators of one input"
#endif

#if ORX_KEY_BYTES == 8
typedef ulong orx_key;
#else
typedef uint orx_key;
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
} orx_key_part;

ORX_INLINE orx_key_part orx_key_join(orx_key_part a, orx_key_part b) {
  orx_key_part r;
  r.heads = a.heads + b.heads;
  r.value = b.heads ? b.value : orx_combine(a.value, b.value);
  return r;
}

#define ORX_KEY_WORDS 4

/* Publishes summary s in the words at `at` under `tag`. */
ORX_INLINE void orx_key_publish(ORX_GLOBAL_PTR ulong *at, uint tag, orx_key_part s) {
  const ORX_BITS_T bits = ORX_AS_BITS(s.value);
  orx_tagged_store(at, tag, (uint)s.heads);
  orx_tagged_store(at + 1, tag, (uint)(s.heads >> 32));
  orx_tagged_store(at + 2, tag, (uint)bits);
#if ORX_TYPE_BYTES == 8
  orx_tagged_store(at + 3, tag, (uint)((ulong)bits >> 32));
#endif
}

/* Reads the summary at `at`: 1 when every word holds `tag` (it was published), else 0. */
ORX_INLINE int orx_key_read(ORX_GLOBAL_PTR ulong *at, uint tag, orx_key_part *s) {
  const ulong w0 = orx_tagged_load(at), w1 = orx_tagged_load(at + 1);
  const ulong w2 = orx_tagged_load(at + 2);
  int published = (uint)(w0 >> 32) == tag && (uint)(w1 >> 32) == tag && (uint)(w2 >> 32) == tag;
#if ORX_TYPE_BYTES == 8
  const ulong w3 = orx_tagged_load(at + 3);
  published = published && (uint)(w3 >> 32) == tag;
  const ORX_BITS_T bits = (ORX_BITS_T)(w2 & 0xffffffffu) | (ORX_BITS_T)(w3 & 0xffffffffu) << 32;
#else
  const ORX_BITS_T bits = (ORX_BITS_T)(w2 & 0xffffffffu);
#endif
  s->heads = (w0 & 0xffffffffu) | (w1 & 0xffffffffu) << 32;
  s->value = ORX_FROM_BITS(bits);
  return published;
}

/* Tiles a look-back reads at once, a work-item each. Each window costs a round trip to memory
 * and a join per tile in work-item 0; H200, CUDA, 2^26 i32/f32 pairs in runs of 1000: windows
 * of 8 tiles 305 us, 16 296 us, 32 327 us, 128 459 us (kernel time). */
#define ORX_KEY_WINDOW (ORX_WG_SIZE < 16 ? ORX_WG_SIZE : 16)

/* What a look-back window holds in local memory: per tile read, 0 (not published yet), 1 (an
 * AGGREGATE) or 2 (a PREFIX) and its summary; the nearest tile not joined yet; whether done. */
typedef struct orx_key_window {
  uint kind[ORX_KEY_WINDOW];
  ulong heads[ORX_KEY_WINDOW];
  A values[ORX_KEY_WINDOW];
  long next;
  int done;
} orx_key_window;

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
  orx_key_part before;
  before.heads = 0;
  before.value = ORX_IDENTITY;
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
        w->heads[lid] = has_prefix ? prefix.heads : aggregate.heads;
        w->values[lid] = has_prefix ? prefix.value : aggregate.value;
      }
      w->kind[lid] = kind;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      uint j = 0;
      int done = 0;
      for (; j < ORX_KEY_WINDOW && w->kind[j] && !done; j++) {
        orx_key_part part;
        part.heads = w->heads[j];
        part.value = w->values[j];
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

__kernel ORX_KERNEL_ATTR void orx_by_key(__global const orx_key *ORX_RESTRICT keys,
                                         ulong keys_offset, ORX_IN_PARAMS(in), ulong in_offset,
                                         ulong n, __global orx_key *keys_out,
                                         ulong keys_out_index, __global ORX_RESULT_T *out,
                                         ulong out_index, __global ulong *scratch, uint epoch) {
  /* The tile's elements, then the runs it closes: a run per element, and the last run. */
  __local orx_key tile_keys[ORX_KEY_PAD(ORX_KEY_TILE) + 1];
  __local A tile_values[ORX_KEY_PAD(ORX_KEY_TILE) + 1];
  __local ulong scan_heads[ORX_WG_SIZE];
  __local A scan_values[ORX_WG_SIZE];
  __local uint tile_taken;
  __local orx_key_part tile_before;
  __local orx_key_window window;

  const uint lid = (uint)get_local_id(0), tiles = (uint)get_num_groups(0);
  ORX_IN base = ORX_IN_OPEN(in, in_offset);
  keys += keys_offset;
  ORX_GLOBAL_PTR ulong *words = scratch + 2;

  /* 1. The tile, its elements through local memory into registers, the work-item's summary. */
  if (lid == 0) {
    const uint t = orx_ticket((ORX_GLOBAL_PTR uint *)scratch);
    if (t == tiles - 1)
      orx_ticket_reset((ORX_GLOBAL_PTR uint *)scratch);
    tile_taken = t;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = tile_taken;
  const ulong start = (ulong)tile * ORX_KEY_TILE;
  const uint held = n - start < ORX_KEY_TILE ? (uint)(n - start) : ORX_KEY_TILE;
  for (uint j = 0; j < ORX_KEY_RUN; j++) {
    const uint i = j * ORX_WG_SIZE + lid;
    if (i < held) {
      tile_keys[ORX_KEY_PAD(i)] = keys[start + i];
      tile_values[ORX_KEY_PAD(i)] = ORX_READ(base, start + i);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint first = lid * ORX_KEY_RUN;
  const uint mine = held > first ? (held - first < ORX_KEY_RUN ? held - first : ORX_KEY_RUN) : 0;
  /* The key before the work-item's first element (work-item 0: the tile's, from global memory;
   * Intel's CPU runtime read a __local copy of it as 0). */
  const orx_key key_before = first ? tile_keys[ORX_KEY_PAD(first - 1)]
                             : start ? keys[start - 1]
                                     : 0;
  orx_key k[ORX_KEY_RUN];
  A v[ORX_KEY_RUN];
  orx_key_part part;
  part.heads = 0;
  part.value = ORX_IDENTITY; /* a work-item past the end: joins as nothing that is read */
#pragma unroll
  for (uint j = 0; j < ORX_KEY_RUN; j++) {
    k[j] = j < mine ? tile_keys[ORX_KEY_PAD(first + j)] : 0;
    v[j] = j < mine ? tile_values[ORX_KEY_PAD(first + j)] : ORX_IDENTITY;
    const int head = k[j] != (j ? k[j - 1] : key_before) || start + first + j == 0;
    if (j < mine) {
      part.heads += head ? 1u : 0u;
      part.value = head || j == 0 ? v[j] : orx_combine(part.value, v[j]);
    }
  }
  /* 2. The work-group's inclusive scan of the summaries (Hillis and Steele). */
  scan_heads[lid] = part.heads;
  scan_values[lid] = part.value;
  barrier(CLK_LOCAL_MEM_FENCE);
  orx_key_part scanned = part;
  for (uint step = 1; step < ORX_WG_SIZE; step *= 2) {
    orx_key_part left = part;
    if (lid >= step) {
      left.heads = scan_heads[lid - step];
      left.value = scan_values[lid - step];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= step) {
      scanned = orx_key_join(left, scanned);
      scan_heads[lid] = scanned.heads;
      scan_values[lid] = scanned.value;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  /* 3. The tiles before: tile 0 publishes its PREFIX at once, the others their AGGREGATE, then
   * their PREFIX once the look-back gave the summary before them. */
  orx_key_part own;
  own.heads = scan_heads[ORX_WG_SIZE - 1];
  own.value = scan_values[ORX_WG_SIZE - 1];
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
  barrier(CLK_LOCAL_MEM_FENCE);

  /* 4. The runs the tile closes, [closed, end), staged at local position r - closed (the tile's
   * elements are all in registers by now). `open` is the summary of every element before the
   * work-item's first: empty only before element 0, which starts a run. */
  const orx_key_part behind = tile_before;
  const ulong closed = behind.heads ? behind.heads - 1 : 0;
  const int last_tile = start + held == n;
  const ulong end = behind.heads + own.heads - (last_tile ? 0 : 1);
  orx_key_part open = behind;
  if (lid > 0) {
    orx_key_part left;
    left.heads = scan_heads[lid - 1];
    left.value = scan_values[lid - 1];
    open = tile > 0 ? orx_key_join(behind, left) : left;
  }
  ulong runs = open.heads;
  A acc = open.value;
  orx_key previous = key_before;
#pragma unroll
  for (uint j = 0; j < ORX_KEY_RUN; j++) {
    if (j < mine) {
      if (k[j] != previous || start + first + j == 0) {
        if (runs > 0) { /* the run before ends at the element before */
          tile_values[ORX_KEY_PAD((uint)(runs - 1 - closed))] = acc;
          tile_keys[ORX_KEY_PAD((uint)(runs - 1 - closed))] = previous;
        }
        runs++;
        acc = v[j];
      } else {
        acc = orx_combine(acc, v[j]);
      }
      previous = k[j];
    }
  }
  if (mine > 0 && last_tile && first + mine == held) { /* the last element ends the last run */
    tile_values[ORX_KEY_PAD((uint)(runs - 1 - closed))] = acc;
    tile_keys[ORX_KEY_PAD((uint)(runs - 1 - closed))] = previous;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint staged = (uint)(end - closed);
  for (uint i = lid; i < staged; i += ORX_WG_SIZE) {
    ORX_WRITE_RESULT(out, out_index + closed + i, tile_values[ORX_KEY_PAD(i)]);
    keys_out[keys_out_index + closed + i] = tile_keys[ORX_KEY_PAD(i)];
  }
  if (lid == 0 && last_tile)
    scratch[1] = end;
}
