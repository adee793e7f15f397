/* =================================================================================================
 * orx_stream.cl: how one work-item reads its share of the input and accumulates it.
 *
 * The input is viewed as `nvec` aligned vectors of ORX_VEC elements. The host chooses the layout by
 * device type (ORX_STREAM, ids in orx_contract.h):
 *
 *   ORX_STREAM_STRIDED (GPUs): work-item w of W takes vectors w, w + W, w + 2W, ... so that
 *     neighbouring work-items read neighbouring vectors (coalesced), ORX_UNROLL loads in flight.
 *   ORX_STREAM_TILED (GPUs, CUB's layout): each work-group takes an even, contiguous share of the
 *     vectors, and its work-items stride through that share by the group size (coalesced).
 *   ORX_STREAM_CHUNK (CPUs): work-item w takes one contiguous run of vectors. CPU implementations
 *     run a work-group's work-items one after another, so a strided loop would jump through
 *     memory; on PoCL it is 10-40x slower than a contiguous run.
 *   ORX_STREAM_RUNS (the host plan): as CHUNK, the run read as ORX_UNROLL runs side by side,
 *     load u of each step from run u into chain u % ORX_CHAINS: one thread then keeps as many
 *     streams of memory in flight; a run that would make shorter runs than ORX_RUNS_MIN_VECTORS
 *     is read as CHUNK reads it (planner/host_plan.h has the measurements).
 *
 * Each load feeds one of ORX_UNROLL independent vector accumulators (more loads in flight, shorter
 * dependency chains); they are combined in a fixed order at the end. A kernel may reduce the same
 * input with several operators at once: its ORX_SLOTS operator slots (orx_ops.cl); single-operator
 * kernels have one, ORX_OP_ID. State operators (ORX_STATE) map each element with its index in
 * the reduction, so every function here knows the index of the elements it reads.
 * ============================================================================================== */
#ifndef ORX_STREAM_CL
#define ORX_STREAM_CL

#include "lib/orx_multireduce.cl" /* ORX_STREAM_WARP_TILES */
#include "lib/orx_ops.cl"
#include "lib/orx_split.cl"

/* The accumulator of one independent chain, per operator slot. Scalar operators: a vector of
 * ORX_VEC partials, combined component by component and folded at the end. State operators:
 * ORX_VEC lanes of states, lane j taking component j of every vector with its index, so that the
 * components make independent dependency chains as a scalar vector's do (folding each vector in
 * order first chained ORX_VEC combines per load: H200, f32 2^28, MINMAX at 0.71x and ARGMIN at
 * 0.75x of the f32 sum). A built-in operator may absorb a vector into its lanes its own, cheaper
 * way (ORX_STATE_LANES_ABSORB, lib/orx_state_ops.cl), and keep lanes of its own type, turned into
 * states once at the end (ORX_STATE_LANE_T). orx_absorb_into(op, &acc, x, first) takes the
 * vector x whose first element has index `first` (unused, so never computed, for scalar
 * operators); orx_merge_v combines two chains' accumulators. */
#if ORX_STATE && defined(ORX_STATE_CHAIN_T) && !ORX_INPUT_STATES
/* An operator may keep a whole chain its own way instead (ORX_STATE_CHAIN_T, with
 * ORX_STATE_CHAIN_IDENTITY(), ORX_STATE_CHAIN_ABSORB(&chain, x, first) taking the vector x of
 * indices first, first + 1, ..., ORX_STATE_CHAIN_MERGE(a, b) and ORX_STATE_CHAIN_STATE(l),
 * and optionally ORX_STATE_CHAIN_NEUTRAL, an element that a chain absorbs as nothing, with which
 * kernels may fill a partial vector): the reproducible sum's chains share one bin and one set
 * of exact folds between the vector's components (lib/orx_repro.cl). */
typedef ORX_STATE_CHAIN_T orx_lanes;
#define ORX_ACC_V orx_lanes
#define orx_acc_v_identity(k) ORX_STATE_CHAIN_IDENTITY()
/* In place: a chain is large, and copies of it in and out of a call that the compiler does not
 * inline were a third of PoCL's time (perf, PoCL 3.1, f32 2^22). */
#define orx_absorb_into(op, acc, x, first) ORX_STATE_CHAIN_ABSORB((acc), (x), (first))
#define orx_merge_v(op, a, b) ORX_STATE_CHAIN_MERGE((a), (b))
#define orx_lanes_state(l) ORX_STATE_CHAIN_STATE(l)
#elif ORX_STATE
#if defined(ORX_STATE_LANE_T) && !ORX_INPUT_STATES
#define ORX_LANE_T ORX_STATE_LANE_T
#define orx_lane_identity() ORX_STATE_LANE_IDENTITY()
#define orx_lane_merge(a, b) ORX_STATE_LANE_MERGE((a), (b))
#define orx_lane_state(l) ORX_STATE_LANE_STATE(l)
#else
#define ORX_LANE_T A
#define orx_lane_identity() ORX_IDENTITY
#define orx_lane_merge(a, b) orx_combine((a), (b))
#define orx_lane_state(l) (l)
#endif
typedef struct orx_lanes {
  ORX_LANE_T lane[ORX_VEC];
} orx_lanes;
#define ORX_ACC_V orx_lanes
ORX_INLINE orx_lanes orx_lanes_identity(void) {
  orx_lanes l;
  for (int j = 0; j < ORX_VEC; j++)
    l.lane[j] = orx_lane_identity();
  return l;
}
ORX_INLINE orx_lanes orx_lanes_absorb(orx_lanes l, TV x, ulong first) {
  T c[ORX_VEC];
  ORX_STORE_V(x, c);
#if defined(ORX_STATE_LANES_ABSORB) && !ORX_INPUT_STATES
  ORX_STATE_LANES_ABSORB(l.lane, c, first);
#else
  for (int j = 0; j < ORX_VEC; j++)
    l.lane[j] = orx_absorb(l.lane[j], c[j], first + (ulong)j);
#endif
  return l;
}
ORX_INLINE orx_lanes orx_lanes_merge(orx_lanes a, orx_lanes b) {
  for (int j = 0; j < ORX_VEC; j++)
    a.lane[j] = orx_lane_merge(a.lane[j], b.lane[j]);
  return a;
}
#define orx_acc_v_identity(k) orx_lanes_identity()
#define orx_absorb_v(op, acc, x, first) orx_lanes_absorb((acc), (x), (first))
#define orx_merge_v(op, a, b) orx_lanes_merge((a), (b))
#define orx_absorb_into(op, acc, x, first) (*(acc) = orx_absorb_v((op), *(acc), (x), (first)))

#endif
#if ORX_STATE
/* The ORX_VEC elements of x, whose first has index `first`, mapped and combined in index order
 * (segment kernels: one load of a segment). */
ORX_INLINE A orx_fold_mapped(TV x, ulong first) {
  T c[ORX_VEC];
  ORX_STORE_V(x, c);
  A r = ORX_MAP(c[0], first);
  for (int j = 1; j < ORX_VEC; j++)
    r = orx_absorb(r, c[j], first + (ulong)j);
  return r;
}
#else
#define ORX_ACC_V TV
#define orx_acc_v_identity(k) orx_splat_v(orx_slot_identity(k))
#define orx_absorb_v(op, acc, x, first) orx_combine_op_v((op), (acc), (x))
#define orx_merge_v(op, a, b) orx_combine_op_v((op), (a), (b))
#define orx_absorb_into(op, acc, x, first) (*(acc) = orx_absorb_v((op), *(acc), (x), (first)))
#endif

/* A chain's accumulator while a work-item streams (orx_stream_range): ORX_CHAIN_V, an ORX_ACC_V
 * of values, or integer keys (lib/orx_keys.cl). */
#include "lib/orx_keys.cl"

/* ORX_LOADS_IN_PLACE (the host's build, src/host/host_prelude.h): each load goes into its chain
 * as it comes, not first into an array of the ORX_UNROLL loads; the same chains, the same order. */
#ifndef ORX_LOADS_IN_PLACE
#define ORX_LOADS_IN_PLACE 0
#endif

/* Every chain of every operator slot at its identity. */
ORX_INLINE void orx_chains_identity(ORX_CHAIN_V part[ORX_CHAINS][ORX_SLOTS]) {
  for (int u = 0; u < ORX_CHAINS; u++)
    for (int k = 0; k < ORX_SLOTS; k++)
      part[u][k] = orx_chain_identity(k);
}

/* The chains merged in a fixed order into acc[k]. One operator's keys merge into a variable and
 * become values once; the other accumulators merge into acc[k] (merging them into part[0][k]
 * instead cost NVRTC's work-group-per-segment kernel 7-14 % on the H200), a multi-operator
 * kernel's keys becoming values at the end. */
ORX_INLINE void orx_chains_merge(ORX_CHAIN_V part[ORX_CHAINS][ORX_SLOTS], ORX_ACC_V *acc) {
  for (int k = 0; k < ORX_SLOTS; k++) {
#if ORX_KEY_CHAINS
    ORX_CHAIN_V merged = part[0][k];
    for (int u = 1; u < ORX_CHAINS; u++)
      merged = orx_chain_merge(orx_slot_op(k), merged, part[u][k]);
    acc[k] = orx_chain_value(orx_slot_op(k), merged);
#else
    acc[k] = part[0][k];
    for (int u = 1; u < ORX_CHAINS; u++)
      acc[k] = orx_chain_merge(orx_slot_op(k), acc[k], part[u][k]);
    acc[k] = orx_chain_value(orx_slot_op(k), acc[k]);
#endif
  }
}

/* The ORX_UNROLL loads x of vectors v, v + step, ... into the chains, load u into chain
 * u % ORX_CHAINS (unrolled by force through CUDA: lib/orx_cuda_prelude.cl). */
ORX_INLINE void orx_absorb_loads(ORX_CHAIN_V part[ORX_CHAINS][ORX_SLOTS], const TV *x, ulong v,
                                 ulong step, ulong first) {
  ORX_UNROLL_LOADS
  for (int u = 0; u < ORX_UNROLL; u++)
    for (int k = 0; k < ORX_SLOTS; k++)
      orx_chain_absorb(orx_slot_op(k), &part[u % ORX_CHAINS][k], x[u],
                       first + (v + (ulong)u * step) * ORX_VEC);
}

/* Accumulates vectors [begin, end) with step `step` of `in` (step 1: a contiguous run) into
 * acc[k], one per operator slot; vector v's first element has index first + v * ORX_VEC. */
ORX_INLINE void orx_stream_range(ORX_IN_V ORX_IN_RESTRICT in, ulong begin,
                                 ulong end, ulong step, ulong first, ORX_ACC_V *acc) {
  ORX_CHAIN_V part[ORX_CHAINS][ORX_SLOTS];
  orx_chains_identity(part);
  ulong v = begin;
  if (end > begin) {
    const ulong span = (ulong)(ORX_UNROLL - 1) * step, stride = (ulong)ORX_UNROLL * step;
#if ORX_PREFETCH
    /* The next loads are issued before these are absorbed, so that a work-item whose absorbing
     * takes long still has loads in flight meanwhile (state operators, see plan_state.c). */
    if (end - v > span) {
      TV x[ORX_UNROLL];
      for (int u = 0; u < ORX_UNROLL; u++)
        x[u] = ORX_READ_V(in, v + (ulong)u * step);
      for (;;) {
        const int more = end - v > stride + span;
        TV next[ORX_UNROLL];
        if (more)
          for (int u = 0; u < ORX_UNROLL; u++)
            next[u] = ORX_READ_V(in, v + stride + (ulong)u * step);
        orx_absorb_loads(part, x, v, step, first);
        v += stride;
        if (!more)
          break;
        for (int u = 0; u < ORX_UNROLL; u++)
          x[u] = next[u];
      }
    }
#elif ORX_LOADS_IN_PLACE
    for (; v < end && end - v > span; v += stride)
      for (int u = 0; u < ORX_UNROLL; u++)
        for (int k = 0; k < ORX_SLOTS; k++)
          orx_chain_absorb(orx_slot_op(k), &part[u % ORX_CHAINS][k],
                           ORX_READ_V(in, v + (ulong)u * step),
                           first + (v + (ulong)u * step) * ORX_VEC);
#else
    for (; v < end && end - v > span; v += stride) {
      TV x[ORX_UNROLL];
      for (int u = 0; u < ORX_UNROLL; u++)
        x[u] = ORX_READ_V(in, v + (ulong)u * step);
      orx_absorb_loads(part, x, v, step, first);
    }
#endif
  }
  for (; v < end; v += step)
    for (int k = 0; k < ORX_SLOTS; k++)
      orx_chain_absorb(orx_slot_op(k), &part[0][k], ORX_READ_V(in, v), first + v * ORX_VEC);
  orx_chains_merge(part, acc);
}

#if ORX_STREAM == ORX_STREAM_RUNS
/* Accumulates vectors [begin, end) of `in` as ORX_UNROLL runs of (end - begin) / ORX_UNROLL
 * vectors side by side, load u of step i reading vector i of run u into chain u % ORX_CHAINS; the
 * vectors the runs leave go into chain 0, as orx_stream_range's last ones do. */
ORX_INLINE void orx_stream_runs(ORX_IN_V ORX_IN_RESTRICT in, ulong begin, ulong end, ulong first,
                                ORX_ACC_V *acc) {
  ORX_CHAIN_V part[ORX_CHAINS][ORX_SLOTS];
  orx_chains_identity(part);
  const ulong run = (end - begin) / ORX_UNROLL;
  for (ulong i = 0; i < run; i++)
    for (int u = 0; u < ORX_UNROLL; u++) {
      const ulong v = begin + (ulong)u * run + i;
      for (int k = 0; k < ORX_SLOTS; k++)
        orx_chain_absorb(orx_slot_op(k), &part[u % ORX_CHAINS][k], ORX_READ_V(in, v),
                         first + v * ORX_VEC);
    }
  for (ulong v = begin + (ulong)ORX_UNROLL * run; v < end; v++)
    for (int k = 0; k < ORX_SLOTS; k++)
      orx_chain_absorb(orx_slot_op(k), &part[0][k], ORX_READ_V(in, v), first + v * ORX_VEC);
  orx_chains_merge(part, acc);
}
#endif

#if ORX_ORDERED && (ORX_VEC != 1 || ORX_CHAINS != 1 || ORX_STREAM == ORX_STREAM_STRIDED ||        \
                    ORX_STREAM == ORX_STREAM_TILED || ORX_STREAM == ORX_STREAM_RUNS)
#error "ORX_ORDERED takes one element per load, one chain and a stream of contiguous runs"
#endif

#if (ORX_STREAM == ORX_STREAM_TRANSPOSED || ORX_STREAM == ORX_STREAM_WARP_TILES) && ORX_VEC != 1
#error "ORX_STREAM_TRANSPOSED and ORX_STREAM_WARP_TILES read one element per load"
#endif

#if ORX_STREAM == ORX_STREAM_TRANSPOSED
/* ORX_STREAM_TRANSPOSED: work-item w of W takes the contiguous run [w * per, (w + 1) * per) of
 * the input (per = ceil(n / W); the last runs may be short or empty), as CHUNK does, but reads it
 * through local memory: each round, the work-group loads the next ORX_PIECE elements of every
 * one of its work-items' runs, consecutive work-items reading consecutive elements of a piece
 * (64-byte pieces: whole sectors), into a stage of one row per work-item; then each work-item
 * absorbs its own row in index order. Reading the runs directly leaves consecutive work-items
 * per - 1 elements apart: H200, f32 sum of 2^26 through CUDA, 2.6 TB/s against the grid-stride
 * loop's 3.9 TB/s. */
#define ORX_PIECE ORX_PIECE_OF(sizeof(T))
/* A row holds a piece and padding: with a row of a piece alone, work-items reading their rows
 * side by side would hit the same local-memory banks. Both by what the stage holds, T: states
 * where the kernel reads them (an operator's elements may be smaller; the host sizes the stage
 * by its state then, plan_state.c), a user pair operator's pairs. */
#define ORX_STAGE_ROW ORX_STAGE_ROW_OF(sizeof(T))
/* The stage, declared by each kernel that streams (OpenCL declares local memory in kernels). */
#define ORX_STREAM_STAGE(name) __local T name[ORX_WG_SIZE * ORX_STAGE_ROW]

/* Every work-item of the group calls this with the same n and items (it has barriers). */
ORX_INLINE void orx_stream_transposed(ORX_IN ORX_IN_RESTRICT in, ulong n,
                                      ulong item, ulong items, ulong first, ORX_LOCAL_PTR T *stage,
                                      ORX_ACC_V *acc) {
  const uint lid = (uint)get_local_id(0);
  const ulong per = (n + items - 1) / items, group_item = item - lid;
  const ulong rounds = (per + ORX_PIECE - 1) / ORX_PIECE;
  for (int k = 0; k < ORX_SLOTS; k++)
    acc[k] = orx_acc_v_identity(k);
  for (ulong r = 0; r < rounds; r++) {
    const ulong from = r * ORX_PIECE; /* the round's first position in each run */
    for (uint f = lid; f < ORX_WG_SIZE * ORX_PIECE; f += ORX_WG_SIZE) {
      const uint row = f / ORX_PIECE, j = f % ORX_PIECE;
      const ulong at = (group_item + row) * per + from + j;
      if (from + j < per && at < n)
        stage[row * ORX_STAGE_ROW + j] = ORX_READ(in, at);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong begin = item * per + from;
    for (uint j = 0; j < ORX_PIECE; j++)
      if (from + j < per && begin + j < n)
        for (int k = 0; k < ORX_SLOTS; k++)
          orx_absorb_into(orx_slot_op(k), &acc[k], stage[lid * ORX_STAGE_ROW + j],
                          first + begin + j);
    barrier(CLK_LOCAL_MEM_FENCE); /* the next round overwrites the stage */
  }
}
#else
#define ORX_STREAM_STAGE(name) __local T name[1]
#endif

#if ORX_STREAM == ORX_STREAM_WARP_TILES
#if !ORX_ORDERED || !ORX_STATE || ORX_MR_LANES != ORX_SG_SIZE ||                                   \
    (ORX_SG_IMPL != ORX_SG_NV_PTX && ORX_SG_IMPL != ORX_SG_CUDA)
#error "ORX_STREAM_WARP_TILES: order-preserving operators on warps, with ORX_MR_LANES a warp"
#endif
/* ORX_STREAM_WARP_TILES: warp w of W takes the contiguous run [w * per, (w + 1) * per) of the
 * input (per = ceil(n / W)) and reads it in blocks of ORX_MR_Q tiles of a warp's width: load q
 * of lane l is element q * ORX_SG_SIZE + l of the block, so that each load reads consecutive
 * elements. The multireduction (lib/orx_multireduce.cl) then reduces the Q tiles across the
 * lanes at once, each in lane order, with Q - 1 merges where Q separate warp reductions would
 * take Q log2(32) exchanges; lane q holds tile q, a butterfly over Q lanes combines the tiles in
 * order, and the block joins the warp's run. No barrier, no local memory, Q loads in flight per
 * lane. Lane 0 returns the run, the other lanes the identity. */
ORX_INLINE void orx_stream_warp_tiles(ORX_IN ORX_IN_RESTRICT in, ulong n,
                                      ulong item, ulong items, ulong first, ORX_ACC_V *acc) {
  const uint lane = orx_sg_lane();
  const ulong warps = items / ORX_SG_SIZE, per = (n + warps - 1) / warps;
  const ulong begin = item / ORX_SG_SIZE * per;
  const ulong end = begin + per < n ? begin + per : n;
  A run = ORX_IDENTITY;
  for (ulong block = begin; block < end; block += ORX_MR_Q * ORX_SG_SIZE) {
    A v[ORX_MR_Q];
#pragma unroll
    for (uint q = 0; q < ORX_MR_Q; q++) {
      const ulong at = block + q * ORX_SG_SIZE + lane;
      v[q] = at < end ? ORX_MAP(ORX_READ(in, at), first + at) : ORX_IDENTITY;
    }
    A x = orx_mr_reduce(v, lane, 1, (ORX_LOCAL_PTR A *)0);
    for (uint mask = 1; mask < ORX_MR_Q; mask <<= 1)
      x = orx_sg_exchange(x, mask);
    run = orx_combine(run, x);
  }
  acc[0] = orx_acc_v_identity(0);
  if (lane == 0)
    acc[0].lane[0] = run;
}
#endif

/* This work-item's share of `nvec` vectors, as work-item `item` of `items`, into acc[k]; the
 * first element of vector 0 has index `first`. `stage`: the kernel's ORX_STREAM_STAGE. */
ORX_INLINE void orx_stream_share(ORX_IN_V ORX_IN_RESTRICT in, ulong nvec,
                                 ulong item, ulong items, ulong first, ORX_LOCAL_PTR T *stage,
                                 ORX_ACC_V *acc) {
#if ORX_STREAM == ORX_STREAM_TRANSPOSED
  orx_stream_transposed(in, nvec, item, items, first, stage, acc);
#else
  (void)stage;
#endif
#if ORX_STREAM == ORX_STREAM_WARP_TILES
  orx_stream_warp_tiles(in, nvec, item, items, first, acc);
#endif
#if ORX_STREAM == ORX_STREAM_TILED
  /* The group's share: whole multiples of the group size, the last group takes what is left. */
  const ulong groups = get_num_groups(0), size = get_local_size(0);
  const ulong share = ((nvec + groups - 1) / groups + size - 1) / size * size;
  const ulong begin = get_group_id(0) * share;
  const ulong end = begin + share < nvec ? begin + share : nvec;
  (void)item;
  (void)items;
  orx_stream_range(in, begin + get_local_id(0), end, size, first, acc);
#elif ORX_STREAM == ORX_STREAM_CHUNK || ORX_STREAM == ORX_STREAM_RUNS
  ulong begin, end;
  orx_chunk_of(nvec, item, items, &begin, &end);
#if ORX_STREAM == ORX_STREAM_RUNS
  if ((end - begin) / ORX_UNROLL >= ORX_RUNS_MIN_VECTORS) {
    orx_stream_runs(in, begin, end, first, acc);
    return;
  }
#endif
  orx_stream_range(in, begin, end, 1, first, acc);
#elif ORX_STREAM == ORX_STREAM_STRIDED
  orx_stream_range(in, item, nvec, items, first, acc);
#endif
}

/* Elements before the first vector boundary of a span that starts `misaligned` elements past one
 * (at most n). */
ORX_INLINE ulong orx_span_head(ulong misaligned, ulong n) {
  const ulong head = (ORX_VEC - misaligned % ORX_VEC) % ORX_VEC;
  return head < n ? head : n;
}

/* A span of n elements at `base` whose element `head` (<= n) is the first on a vector boundary:
 * the whole vectors from there, and the loose elements before and after them. */
typedef struct orx_span {
  ulong head, nvec, tail_begin, loose;
} orx_span;

ORX_INLINE orx_span orx_span_of(ulong n, ulong head) {
  orx_span s;
  s.head = head;
  s.nvec = (n - head) / ORX_VEC;
  s.tail_begin = head + s.nvec * ORX_VEC;
  s.loose = head + (n - s.tail_begin);
  return s;
}

/* Index in the span of its loose element number r (< s.loose): the head first, then the tail. */
ORX_INLINE ulong orx_span_loose(const orx_span *s, ulong r) {
  return r < s->head ? r : s->tail_begin + (r - s->head);
}

#if ORX_STATE && !defined(ORX_STATE_CHAIN_T)
/* A state accumulator's lanes, combined in lane order. */
ORX_INLINE A orx_lanes_state(orx_lanes l) {
  A r = orx_lane_state(l.lane[0]);
  for (int j = 1; j < ORX_VEC; j++)
    r = orx_combine(r, orx_lane_state(l.lane[j]));
  return r;
}
#endif
#if ORX_STATE
#define orx_acc_fold(v, op) orx_lanes_state(v)
#else
#define orx_acc_fold(v, op) orx_fold_op((v), (op))
/* The ORX_VEC components of a vector folded with operator op, in index order. */
ORX_INLINE T orx_fold_op(TV v, int op) {
  T c[ORX_VEC];
  ORX_STORE_V(v, c);
  T r = c[0];
  for (int j = 1; j < ORX_VEC; j++)
    r = orx_combine_op(op, r, c[j]);
  return r;
}
/* The ORX_VEC elements of x folded with the kernel's operator (as for states: `first`, their
 * index, does not matter to scalar operators). */
#define orx_fold_mapped(x, first) orx_fold_op((x), ORX_OP_ID)
#endif

/* Work-item `item` of `items` reduces its share of a span with every operator of the kernel:
 * v[k] for operator orx_slot_op(k). The aligned vectors go through orx_stream_share, then at
 * most one of the loose elements. Element i of the span has index i. */
ORX_INLINE void orx_span_share_ops(ORX_IN ORX_IN_RESTRICT base, ulong n,
                                   ulong head, ulong item, ulong items, ORX_LOCAL_PTR T *stage,
                                   A *v) {
  const orx_span s = orx_span_of(n, head);
  ORX_ACC_V acc[ORX_SLOTS];
  orx_stream_share(ORX_IN_AS_V(ORX_IN_AT(base, head)), s.nvec, item, items, head, stage, acc);
  for (int k = 0; k < ORX_SLOTS; k++)
    v[k] = orx_acc_fold(acc[k], orx_slot_op(k));
  for (ulong r = item; r < s.loose; r += items) {
    const ulong at = orx_span_loose(&s, r);
    for (int k = 0; k < ORX_SLOTS; k++)
      v[k] = orx_combine_op(orx_slot_op(k), v[k], ORX_MAP(ORX_READ(base, at), at));
  }
}

/* Folds a vector accumulator into two independent partials: *even of components (or lanes) 0, 2,
 * 4, ... and *odd of components 1, 3, 5, ... (for ORX_VEC == 1, *odd is the identity). */
#if ORX_STATE && defined(ORX_STATE_CHAIN_T) && !ORX_INPUT_STATES
ORX_INLINE void orx_fold_pair(ORX_ACC_V v, A *even, A *odd) {
  *even = orx_lanes_state(v); /* one state per chain */
  *odd = ORX_IDENTITY;
}
#else
ORX_INLINE void orx_fold_pair(ORX_ACC_V v, A *even, A *odd) {
#if ORX_STATE
  A c[ORX_VEC];
  for (int j = 0; j < ORX_VEC; j++)
    c[j] = orx_lane_state(v.lane[j]);
#else
  T c[ORX_VEC];
  ORX_STORE_V(v, c);
#endif
  A e = c[0];
#if ORX_VEC > 1
  A o = c[1];
  for (int j = 2; j < ORX_VEC; j += 2) {
    e = orx_combine(e, c[j]);
    o = orx_combine(o, c[j + 1]);
  }
#else
  A o = ORX_IDENTITY;
#endif
  *even = e;
  *odd = o;
}
#endif

/* Work-item `item` of `items` reduces its share of the n elements at `base`, of which element
 * `head` (<= n) is the first on a vector boundary, like orx_span_share_ops for the one operator,
 * but returns two independent partials, as orx_fold_pair gives them. base[i] has index
 * first + i. */
ORX_INLINE void orx_span_share(ORX_IN ORX_IN_RESTRICT base, ulong n,
                               ulong head, ulong item, ulong items, ulong first,
                               ORX_LOCAL_PTR T *stage, A *a, A *b) {
  const orx_span s = orx_span_of(n, head);
  ORX_ACC_V acc[1];
  orx_stream_share(ORX_IN_AS_V(ORX_IN_AT(base, head)), s.nvec, item, items, first + head, stage,
                   acc);
  orx_fold_pair(acc[0], a, b);
  for (ulong r = item; r < s.loose; r += items) {
    const ulong at = orx_span_loose(&s, r);
    *a = orx_combine(*a, ORX_MAP(ORX_READ(base, at), first + at));
  }
}

#endif /* ORX_STREAM_CL */
