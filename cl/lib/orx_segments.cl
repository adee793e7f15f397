/* =================================================================================================
 * orx_segments.cl: what the segmented kernels (kernels/segments_*.cl, one per strategy) share:
 * their arguments, where each segment lies, and loads from the aligned grid of vectors.
 *
 * Segment s is `length` elements from element s * pitch (equal lengths: rows of a matrix whose
 * rows start `pitch` elements apart, back to back when pitch == length, overlapping when it is
 * less), or elements [offsets[s], offsets[s + 1]) (ORX_SEG_OFFSETS, CSR-style begin offsets); an
 * empty segment gives the identity. Result s goes to out[out_index + s]. State operators see an
 * element's index in its segment.
 *
 * Every strategy takes ORX_SEGMENTS_ARGS, so that the host launches them alike:
 *   in, in_offset  the input (ORX_IN_PARAMS: two with a pair operator, the second at its own
 *                  offset): positions count from base = in + in_offset;
 *   misalign       base lies `misalign` (< ORX_VEC) elements past a vector boundary;
 *   count, length, pitch  segments, their length and the distance between their starts (equal
 *                  lengths; the planner stages, and folds runs of, only back-to-back ones);
 *   offsets, offsets_index, bias   offsets[offsets_index + s] - bias is where segment s starts
 *                  (the host uploads a batch of segments to the start of a staging buffer);
 *   out, out_index the results;
 *   per_round      segments a work-group takes at a time, where the host chooses it (STAGED: a
 *                  tile); the other strategies fix theirs at compile time.
 * ============================================================================================== */
#ifndef ORX_SEGMENTS_CL
#define ORX_SEGMENTS_CL

#include "lib/orx_ops.cl"

#define ORX_SEGMENTS_ARGS                                                                          \
  ORX_IN_PARAMS(in), ulong in_offset, ulong misalign, ulong count, ulong length, ulong pitch,     \
      __global const ulong *ORX_RESTRICT offsets, ulong offsets_index, ulong bias,                 \
      __global ORX_RESULT_T *out, ulong out_index, ulong per_round

/* The segments a launch sees. Vectors of the aligned grid (vector i holds positions
 * i * ORX_VEC - misalign onwards) that the input holds whole: whole_count of them from
 * whole_first (set by orx_segments_of with `grid`). */
typedef struct orx_segments {
  ORX_IN base;
  ulong count, length;                 /* length: equal-length segments only */
#if ORX_SEG_PITCH
  ulong pitch;                         /* equal lengths apart */
#endif
  ORX_GLOBAL_PTR const ulong *offsets; /* offsets + offsets_index: offsets only */
  ulong bias, misalign;
  ulong total;                         /* elements the input holds from base */
  ulong whole_first, whole_count;
} orx_segments;

/* Elements from one equal segment's start to the next's. */
#if ORX_SEG_PITCH
#define ORX_SEG_PITCH_OF(g) ((g)->pitch)
#else
#define ORX_SEG_PITCH_OF(g) ((g)->length)
#endif

/* The launch's segments; `grid` (a constant): also the range of whole vectors, which grid loads
 * need (one more global read with offsets, so only where they are used). */
ORX_INLINE orx_segments orx_segments_of(ORX_IN base, ulong misalign, ulong count,
                                        ulong length, ulong pitch,
                                        ORX_GLOBAL_PTR const ulong *offsets, ulong offsets_index,
                                        ulong bias, int grid) {
  orx_segments g;
  g.base = base;
  g.count = count;
  g.length = length;
#if ORX_SEG_PITCH
  g.pitch = pitch;
#else
  (void)pitch; /* the length */
#endif
  g.offsets = offsets + offsets_index;
  g.bias = bias;
  g.misalign = misalign;
  g.total = g.whole_first = g.whole_count = 0;
  if (grid) {
#if ORX_SEG_OFFSETS
    g.total = g.offsets[count] - bias; /* elements the input holds from base */
#else
    g.total = count ? (count - 1) * ORX_SEG_PITCH_OF(&g) + length : 0;
#endif
    g.whole_first = misalign ? 1 : 0; /* misalign < ORX_VEC */
    const ulong whole_end = (misalign + g.total) / ORX_VEC;
    g.whole_count = whole_end > g.whole_first ? whole_end - g.whole_first : 0;
  }
  return g;
}

/* First element (relative to base) and length of segment s < count. */
ORX_INLINE void orx_segment(const orx_segments *g, ulong s, ulong *begin, ulong *n) {
#if ORX_SEG_OFFSETS
  const ulong first = g->offsets[s], end = g->offsets[s + 1];
  *begin = first - g->bias;
  *n = end - first;
#else
  *begin = s * ORX_SEG_PITCH_OF(g);
  *n = g->length;
#endif
}

/* Vector vi of the aligned grid: loaded whole where the input holds all of it; else (at most the
 * input's first and last vectors) element by element, a filler in place of the elements outside
 * the input, which no segment uses: the identity of a scalar operator; for states, which map
 * only the elements of their segment, 0. */
#if ORX_STATE
#define ORX_GRID_FILLER orx_zero_element()
#else
#define ORX_GRID_FILLER ORX_IDENTITY
#endif
ORX_INLINE TV orx_seg_grid_load(const orx_segments *g, ulong vi) {
  if (vi - g->whole_first < g->whole_count)
    return ORX_READ_V(ORX_IN_AS_V(ORX_IN_BACK(g->base, g->misalign)), vi);
  T c[ORX_VEC];
  for (uint k = 0; k < ORX_VEC; k++) {
    const ulong at = vi * ORX_VEC + k - g->misalign; /* before base, it wraps past total */
    c[k] = at < g->total ? ORX_READ(g->base, at) : ORX_GRID_FILLER;
  }
  return ORX_LOAD_V(c);
}

#endif /* ORX_SEGMENTS_CL */
