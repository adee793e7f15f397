/* =================================================================================================
 * axes_columns.cl: an axes reduction read in place where the kept positions lie closer together
 * than the reduced ones (column sums: planner/plan_axes.h's COLUMNS form), and on CPU devices
 * any view that is neither whole nor rows (plan_columns.c). Each work-item owns ORX_COL_RUN
 * neighbouring kept positions and folds them along the reduced axes, so that the work-items of a
 * group, on neighbouring kept positions, read neighbouring elements at every step (coalesced on
 * GPUs; on CPUs a run is up to a page of a contiguous kept axis, and a work-item's straight
 * runs along the innermost reduced axis are sequential lines). PyTorch's Reduce.cuh reads
 * outer-axis reductions the same way.
 *
 * When kept positions are too few to fill the device, the reduced positions are cut into `parts`
 * contiguous chunks (row-major order), each folded by its own work-items into a state at
 * out[out_index + part * results + r]; the host then reduces those partials the same way, as a
 * `parts` x `results` view of states reduced along its outer axis (ORX_INPUT_STATES), until one
 * part is left. A work-item folds its chunk in order and partials combine in part order, so
 * order-preserving operators get the row-major fold, and the bits depend on `parts` only.
 * ORX_COL_FINISH: where that would be one more launch of one part, this launch finishes itself.
 * Its work-groups take tiles (a block of ORX_WG_SIZE runs, one part), write the tile's states to
 * partials[part * results + r], and count themselves on the block's counter (lib/orx_finish.cl);
 * the last of the block's `parts` tiles folds the block's partials in part order, as the launch
 * over them would (the same bits), into out[out_index + r].
 * State operators see an element's row-major position within the reduced axes (ARGMIN's index).
 *
 * dims + dims_index holds, as ulongs: the kept rank K, the reduced rank R, the kept extents and
 * strides (K each, outermost first), then the reduced ones (R each), as kernels/gather.cl reads.
 * Element (kept r, reduced j) is in[in_offset + offset of r + offset of j].
 *
 * ORX_COL_FLAT: the view has at most one kept axis and one reduced axis (d[1] == 1, d[0] <= 1).
 * ORX_COL_DIRECT: a run is absorbed straight from global memory, not from a copy (PoCL).
 * ORX_COL_TALL: such a view with few kept positions a row, read a work-group per part, rows
 * dealt to the parts in turn (orx_col_tall, below).
 *
 * Launch: get_local_size(0) == ORX_WG_SIZE, any number of groups (a grid-stride loop over the
 * (part, run) pairs, runs fastest; ORX_COL_TALL: over the parts, a group each; ORX_COL_FINISH:
 * over the tiles, blocks fastest, and counters[b] is zero for each block b); `aligned`:
 * ORX_COL_ALIGNED_IN where every run read starts on a vector boundary, ORX_COL_ALIGNED_OUT where
 * every run of results stored does.
 * ============================================================================================== */
#include "lib/orx_finish.cl"
#include "lib/orx_ops.cl"

/* Loops over a short run are unrolled, so that its accumulators stay in registers: as a loop,
 * PoCL kept them in memory, each row's sums waiting on the last row's stores (plan_columns.c). */
#if ORX_COL_RUN <= 64
#define ORX_COL_UNROLL _Pragma("unroll")
#else
#define ORX_COL_UNROLL
#endif

/* A run loads as one vector where every run of the launch starts on a vector boundary (the host
 * says so: `aligned`), and its results store as one likewise: scalar built-in operators over a
 * contiguous kept axis, ORX_COL_RUN == ORX_VEC (16 bytes on GPUs, as the whole-array kernels
 * load). */
#define ORX_COL_VECTOR                                                                             \
  (ORX_COL_RUN > 1 && ORX_COL_RUN == ORX_VEC && !ORX_STATE && ORX_TYPE_ID != ORX_CUSTOM)

/* Position p (row-major over `rank` axes: extents at d, strides at d + rank; p below their
 * product) as an index per axis and an element offset. 64-bit divisions cost GPUs dozens of
 * instructions: one axis and position 0 (every launch's common cases) take none. */
ORX_INLINE ulong orx_col_position(ORX_GLOBAL_PTR const ulong *d, ulong rank, ulong p,
                                  ulong *index) {
  if (rank == 1) {
    index[0] = p;
    return p * d[1];
  }
  ulong at = 0;
  for (ulong k = rank; k-- > 0;) {
    const ulong extent = d[k];
    index[k] = p ? p % extent : 0;
    at += index[k] * d[rank + k];
    p = p ? p / extent : 0;
  }
  return at;
}

/* One step past the end of the innermost axis: carries into the outer axes (index[last] has
 * reached its extent, *at is one past its last element). */
ORX_INLINE void orx_col_carry(ORX_GLOBAL_PTR const ulong *d, ulong rank, ulong *index,
                              ulong *at) {
  for (ulong k = rank; k-- > 0;) {
    if (index[k] < d[k])
      return;
    *at -= d[k] * d[rank + k]; /* unsigned: wraps back exactly */
    index[k] = 0;
    if (k > 0) {
      index[k - 1]++;
      *at += d[rank + k - 1];
    }
  }
}

/* The run of ORX_COL_RUN elements at p into c. */
ORX_INLINE_ALWAYS void orx_col_load(ORX_GLOBAL_PTR const ORX_ELEM_T *p, ulong aligned, T *c) {
#if ORX_COL_VECTOR
  if (aligned & ORX_COL_ALIGNED_IN) {
    ORX_STORE_V(ORX_READ_V((ORX_GLOBAL_PTR const ORX_ELEM_V *)p, 0), c);
    return;
  }
#else
  (void)aligned;
#endif
  ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
    c[k] = ORX_READ(p, k);
}

/* `n` runs from `at` on, `stride` apart, absorbed in order into acc (the first one the reduced
 * position i, each next one `pitch` positions on). Returns the offset past the last. Batches of
 * ORX_COL_STEPS runs are loaded into registers before any is absorbed, so that that many reads
 * are in flight whatever the compiler schedules (plan_columns.c). */
ORX_INLINE_ALWAYS ulong orx_col_straight(ORX_GLOBAL_PTR const ORX_ELEM_T *base, ulong at,
                                         ulong stride, ulong n, ulong i, ulong pitch,
                                         ulong aligned, A *acc) {
  ulong t = 0;
#if ORX_COL_STEPS > 1
  for (; t + ORX_COL_STEPS <= n; t += ORX_COL_STEPS) {
    T c[ORX_COL_STEPS][ORX_COL_RUN];
    for (uint u = 0; u < ORX_COL_STEPS; u++)
      orx_col_load(base + at + u * stride, aligned, c[u]);
    for (uint u = 0; u < ORX_COL_STEPS; u++)
      for (uint k = 0; k < ORX_COL_RUN; k++)
        acc[k] = orx_absorb(acc[k], c[u][k], i + (t + u) * pitch);
    at += ORX_COL_STEPS * stride;
  }
#endif
  for (; t < n; t++) {
#if ORX_COL_DIRECT && !ORX_COL_VECTOR
    ORX_GLOBAL_PTR const ORX_ELEM_T *c = base + at;
    ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
      acc[k] = orx_absorb(acc[k], ORX_READ(c, k), i + t * pitch);
#else
    T c[ORX_COL_RUN];
    orx_col_load(base + at, aligned, c);
    ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
      acc[k] = orx_absorb(acc[k], c[k], i + t * pitch);
#endif
    at += stride;
  }
  return at;
}

/* The results (or partial states) of the run of kept positions from first_kept into to[]. */
ORX_INLINE_ALWAYS void orx_col_store(ORX_GLOBAL_PTR ORX_RESULT_T *to, ulong results,
                                     ulong first_kept, ulong aligned, A *acc) {
  to += first_kept;
  const ulong n = results - first_kept < ORX_COL_RUN ? results - first_kept : ORX_COL_RUN;
#if ORX_COL_VECTOR && !ORX_NARROW_RESULT
  /* A whole run on a vector boundary is stored as one vector: stored element by element (a
   * loop of n), a warp wrote each 32-byte sector in four parts, and DRAM took half as many
   * bytes again (plan_columns.c). */
  if ((aligned & ORX_COL_ALIGNED_OUT) && n == ORX_COL_RUN) {
    *(ORX_GLOBAL_PTR TV *)to = ORX_LOAD_V(acc);
    return;
  }
#else
  (void)aligned;
#endif
#if ORX_COL_RUN <= 64
  /* A short run over the whole run, unrolled, so that acc is indexed by constants: a loop of n
   * indexed it at run time, which kept it on the stack (a store per batch of loads, nvcc).
   * H200, CUDA, f32 SUM of [2^4, 2^24] along axis 0: 280-281 -> 271 us (plan_columns.c). A
   * CPU's page-long run as a loop of n: as 1024 tests, PoCL 3.1 took [256, 64, 1024] along
   * axis 0 in 3.6-4.5 ms, not 2.0-2.1. */
  ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++) {
    if (k < n)
      ORX_WRITE_RESULT(to, k, acc[k]);
  }
#else
  for (uint k = 0; k < n; k++)
    ORX_WRITE_RESULT(to, k, acc[k]);
#endif
}

#if ORX_COL_TALL
/* Tall columns (plan_columns.c): a 2-D view whose rows hold at most a quarter of a work-group's
 * worth of runs. The group's work-items are laid out as `runs` runs of a row side by side and
 * ORX_WG_SIZE / runs rows, and rows are dealt round-robin to (part, row of the group) pairs, so
 * that each step of the launch reads neighbouring whole rows: a dense view is read as the
 * whole-array kernels read it. Each part's work-items then combine their rows in local memory
 * (a fixed tree: rows h apart, h halving) and the first row stores the part's partial. Not for
 * order-preserving operators (rows dealt, not in order); state operators see each element's
 * row. PyTorch's Reduce.cuh reduces short rows with the same 2-D work-group. */
ORX_INLINE_ALWAYS void orx_col_tall(ORX_GLOBAL_PTR const ORX_ELEM_T *base, ulong kept_stride,
                                    ulong inner_stride, ulong results, ulong length, ulong parts,
                                    ulong aligned, ORX_GLOBAL_PTR ORX_RESULT_T *out,
                                    ORX_LOCAL_PTR A *scratch) {
  const uint lid = (uint)get_local_id(0);
  const uint runs = (uint)((results + ORX_COL_RUN - 1) / ORX_COL_RUN); /* a power of two */
  const uint rows = ORX_WG_SIZE / runs, row = lid / runs;
  const uint first_kept = (lid % runs) * ORX_COL_RUN;
  const ulong step = parts * rows;
  for (ulong part = get_group_id(0); part < parts; part += get_num_groups(0)) {
    A acc[ORX_COL_RUN];
    ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
      acc[k] = ORX_IDENTITY;
    const ulong first = part * rows + row;
    if (row < rows && first < length)
      orx_col_straight(base, first_kept * kept_stride + first * inner_stride,
                       step * inner_stride, (length - first - 1) / step + 1, first, step,
                       aligned, acc);
    ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
      scratch[k * ORX_WG_SIZE + lid] = acc[k];
    for (uint h = ORX_WG_SIZE / 2; h >= runs; h /= 2) {
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lid < h) {
        ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
          scratch[k * ORX_WG_SIZE + lid] =
              orx_combine(scratch[k * ORX_WG_SIZE + lid], scratch[k * ORX_WG_SIZE + lid + h]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < runs) {
      ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
        acc[k] = scratch[k * ORX_WG_SIZE + lid];
      orx_col_store(out + part * results, results, first_kept, aligned, acc);
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* the scratch's reads before the next part's writes */
  }
}
#endif

#if ORX_COL_FINISH
/* The last tile of a block: the results of the run from first_kept (a run never crosses the
 * end of the results: plan_columns.c), its `parts` partial states (written by this launch's
 * groups: read through volatile) folded in part order. One partial at a time: batches of four
 * (60 registers, ptxas sm_90, against 64) kept more reads in flight but were slower. H200, f32
 * SUM of the [2^13, 2^13] window of a [2^13, 2^14] matrix along axis 0 (33 parts), bench_axes
 * 3, one call, medians of 3 (docs/perf/h200-axes.txt run O): CUDA 78.8 -> 78.2 us, NVIDIA's
 * OpenCL 82.6 -> 78.0; the previous session's call 78.3 -> 75.5-76.1 through CUDA. */
ORX_INLINE_ALWAYS void orx_col_finish(ORX_GLOBAL_PTR volatile const A *partials, ulong results,
                                      ulong parts, ulong first_kept, ulong aligned,
                                      ORX_GLOBAL_PTR ORX_RESULT_T *out) {
  A acc[ORX_COL_RUN];
  ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
    acc[k] = ORX_IDENTITY;
  for (ulong p = 0; p < parts; p++)
    ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
      acc[k] = orx_combine(acc[k], orx_read_volatile(partials, p * results + first_kept + k));
  orx_col_store(out, results, first_kept, aligned, acc);
}
#endif

__kernel ORX_KERNEL_ATTR void orx_axes_columns(__global const ORX_ELEM_T *ORX_RESTRICT in,
                                               ulong in_offset, __global ORX_RESULT_T *out,
                                               ulong out_index, ulong results, ulong length,
                                               ulong parts, __global const ulong *ORX_RESTRICT dims,
                                               ulong dims_index, ulong aligned,
                                               __global A *partials, __global uint *counters) {
  ORX_GLOBAL_PTR const ulong *d = dims + dims_index;
  const ulong kept_rank = d[0], reduced_rank = d[1];
  ORX_GLOBAL_PTR const ulong *kept = d + 2, *reduced = d + 2 + 2 * kept_rank;
  ORX_GLOBAL_PTR const ORX_ELEM_T *base = in + in_offset;
  const ulong inner_extent = reduced[reduced_rank - 1];
  const ulong inner_stride = reduced[2 * reduced_rank - 1];
#if ORX_COL_TALL
  __local A scratch[ORX_COL_RUN * ORX_WG_SIZE];
  (void)inner_extent, (void)partials, (void)counters;
  orx_col_tall(base, kept_rank ? kept[1] : 0, inner_stride, results, length, parts, aligned,
               out + out_index, scratch);
#else
  /* A loop over (part, run) pairs; or, finishing in the launch, over tiles (a block of runs,
   * one part), whose groups then count on the block's counter. One body folds a chunk either
   * way, written out here: as a function, inlined, nvcc gave the kernel 56 registers, not 48. */
  const ulong runs = (results + ORX_COL_RUN - 1) / ORX_COL_RUN;
#if ORX_COL_FINISH
  __local uint is_last_group;
  const ulong blocks = (runs + ORX_WG_SIZE - 1) / ORX_WG_SIZE;
  for (ulong t = get_group_id(0); t < blocks * parts; t += get_num_groups(0)) {
    const ulong part = t / blocks, block = t - part * blocks;
    const ulong first_kept = (block * ORX_WG_SIZE + get_local_id(0)) * ORX_COL_RUN;
    if (first_kept < results) {
#else
  (void)partials, (void)counters;
  for (ulong g = get_global_id(0); g < runs * parts; g += get_global_size(0)) {
    const ulong part = parts == 1 ? 0 : g / runs, first_kept = (g - part * runs) * ORX_COL_RUN;
    {
#endif
      ulong first = part * (length / parts), end = first + length / parts;
      const ulong spare = length % parts; /* the first `spare` parts take one more */
      first += part < spare ? part : spare;
      end += part < spare ? part + 1 : spare;
      A acc[ORX_COL_RUN];
      ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
        acc[k] = ORX_IDENTITY;
#if ORX_COL_FLAT
      /* One kept axis (or none) and one reduced axis: no index per axis, one straight run (the
       * registers the general walk holds halved the resident warps on GPUs: plan_columns.c). */
      (void)inner_extent;
      const ulong at = (kept_rank ? first_kept * kept[1] : 0) + first * inner_stride;
      orx_col_straight(base, at, inner_stride, end - first, first, 1, aligned, acc);
#else
      ulong kept_index[ORX_MAX_RANK];
      /* ORX_COL_RUN > 1 only along a contiguous kept axis whose extent it divides: one run. */
      const ulong kept_at = orx_col_position(kept, kept_rank, first_kept, kept_index);
      ulong index[ORX_MAX_RANK];
      ulong at = orx_col_position(reduced, reduced_rank, first, index) + kept_at;
      for (ulong i = first; i < end;) {
        /* A straight run along the innermost reduced axis, then a carry into the outer ones. */
        const ulong left = inner_extent - index[reduced_rank - 1];
        const ulong steps = left < end - i ? left : end - i;
        at = orx_col_straight(base, at, inner_stride, steps, i, 1, aligned, acc);
        i += steps;
        index[reduced_rank - 1] += steps;
        orx_col_carry(reduced, reduced_rank, index, &at);
      }
#endif
#if ORX_COL_FINISH
      ORX_GLOBAL_PTR A *to = partials + part * results + first_kept;
      ORX_COL_UNROLL for (uint k = 0; k < ORX_COL_RUN; k++)
        to[k] = acc[k]; /* a run never crosses the end (plan_columns.c) */
    }
    if (orx_last_group(counters + block, ORX_WG_SIZE, (uint)parts, &is_last_group) &&
        first_kept < results)
      orx_col_finish(partials, results, parts, first_kept, aligned, out + out_index);
#else
      orx_col_store(out + out_index + part * results, results, first_kept, aligned, acc);
    }
#endif
  }
#endif
}
