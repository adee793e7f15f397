/* =================================================================================================
 * orx_repro.cl: SUM_REPRODUCIBLE, a float sum whose bits do not depend on the order in which
 * elements and partial sums are combined, so every device, path, work-group size and launch
 * shape gives the same result (binned summation, after Demmel and Nguyen's ReproBLAS).
 *
 * The grid. Bin i (i = ORX_RP_BIN_MIN .. ORX_RP_BIN_MAX) has the unit u(i) = 2^(e(i) - P + 1),
 * e(i) = ORX_RP_E_BOTTOM + i * W: bins are W bits apart, and the lowest bin's unit is the least
 * denormal, so every element is a whole number of units of the lowest bin. A state covers K
 * consecutive bins below its top bin `bin`: fold j is bin `bin` - j. An element x enters a state
 * whose top bin satisfies |x| < 2^(e(bin) + W - P); the top bin of a state is the least one for
 * which every element it holds satisfies that (a state raises its bin when a larger element
 * comes, dropping its lowest folds), so the top bin of a reduction depends only on max |x|.
 *
 * An element splits into one piece per fold: fold j takes the rest of x (what the folds above
 * left) rounded to a whole number of u(bin - j), ties to even; what is left below the lowest fold
 * is dropped. A piece depends only on x and its bin, so the sum of a fold's pieces
 * is the same in any order, and exact: folds keep whole numbers of units as 64-bit integers
 * (`units`). Dropping folds when the top bin rises drops whole folds, the same ones whatever the
 * order. The result is the exact sum of the folds rounded once to the nearest float (ties to
 * even): a function of the input's values alone.
 *
 * Error bound: each element loses less than half a unit of the lowest fold, u(bin - K + 1) / 2,
 * and max |x| >= 2^(e(bin) - P) (else the top bin would be lower), so
 *   |result - exact sum| <= n * 2^(-(K-1) W) * max|x| + ulp(result) / 2,
 * with (K-1) W = 39 bits for f32 and 72 for f64, against the 24 and 53 bits of one rounding.
 * Folds hold up to 2^63 units: n < 2^51 elements (f32) and 2^40 (f64) stay exact.
 *
 * Extraction: elements are scaled by 2^(F - e(bin)) first, so that fold j's unit is the unit in
 * the last place of the constant anchor 1.5 * 2^(F - j W), in the middle of its binade: adding
 * the rest to the anchor rounds it to the fold's unit (ties to even, whatever the order, as the
 * anchor is a constant), and the sum's bits less the anchor's count the piece's units. Streaming
 * (lanes): the pieces go into chains of float accumulators, one per fold and vector component,
 * that start at their fold's anchor and stay in its binade, so adding a piece is exact and the
 * bits less the anchor's count the units (Demmel and Nguyen's indexed sums, with the piece
 * taken from a constant anchor rather than the accumulator: that needs no tie breaker, which
 * cost an integer operation per fold and, on CPUs, denormal assists). Every ORX_RP_FLUSH_EVERY
 * deposits, before the accumulators could leave their binade, their units move into the 64-bit
 * folds.
 *
 * NaN and infinities are counted aside: a NaN, or +inf with -inf, gives NaN (0x7fc00000 /
 * 0x7ff8000000000000, whatever the input's payload); +inf or -inf gives that infinity. A finite
 * exact sum beyond the largest float rounds to an infinity, as IEEE rounding does. An exact zero
 * is +0.0. Arithmetic is addition and subtraction of floats and integer operations only (no
 * products to contract, no division), so IEEE rounding gives the same bits everywhere; devices
 * that flush denormal inputs to zero see denormal elements as zero.
 * ============================================================================================== */
#ifndef ORX_REPRO_CL
#define ORX_REPRO_CL

#if !ORX_IS_FLOAT
#error "SUM_REPRODUCIBLE takes float types"
#endif

#define ORX_RP_K 4 /* folds */
#if ORX_TYPE_BYTES == 4
#define ORX_RP_P 24         /* significand bits */
#define ORX_RP_W 13         /* bits between bins */
#define ORX_RP_BIAS 127     /* exponent bias */
#define ORX_RP_E_BOTTOM -126
#define ORX_RP_F 30         /* the top fold's scaled anchor exponent */
#define ORX_RP_BIN_MAX 21   /* e(21) = 147: 2^128 < 2^(147 + 13 - 24) */
typedef int orx_rp_diff;    /* a fold accumulator's bits less its anchor's */
#else
#define ORX_RP_P 53
#define ORX_RP_W 24
#define ORX_RP_BIAS 1023
#define ORX_RP_E_BOTTOM -1022
#define ORX_RP_F 53
#define ORX_RP_BIN_MAX 87 /* e(87) = 1066: 2^1024 < 2^(1066 + 24 - 53) */
typedef long orx_rp_diff;
#endif
/* The least top bin: its lowest fold is bin 0, whose unit is the least denormal. */
#define ORX_RP_BIN_MIN (ORX_RP_K - 1)
/* Deposits an accumulator takes between flushes: pieces are at most 2^(W - 1) of its units and
 * it may move a quarter binade either way from its anchor. */
#define ORX_RP_FLUSH_EVERY (1 << (ORX_RP_P - ORX_RP_W - 2))
#define ORX_RP_NAN 1
#define ORX_RP_POS_INF 2
#define ORX_RP_NEG_INF 4

#define R ORX_VALUE_T
#define ORX_RP_BITS ORX_BITS_T

typedef struct orx_state {
  int bin;   /* the top bin */
  int flags; /* ORX_RP_NAN | ORX_RP_POS_INF | ORX_RP_NEG_INF seen */
  long units[ORX_RP_K];
} orx_state;

/* 2^e as a float, for e in the normal range. */
ORX_INLINE R orx_rp_pow2(int e) {
  return ORX_FROM_BITS((ORX_RP_BITS)(e + ORX_RP_BIAS) << (ORX_RP_P - 1));
}
/* Fold j's anchor, 1.5 * 2^(F - j W). Scaled elements stay below 2^(F + W - P). */
ORX_INLINE R orx_rp_anchor(int j) {
  return ORX_FROM_BITS((ORX_RP_BITS)(ORX_RP_F - j * ORX_RP_W + ORX_RP_BIAS) << (ORX_RP_P - 1) |
                       (ORX_RP_BITS)1 << (ORX_RP_P - 2));
}
/* What elements are multiplied by in a state of top bin `bin`: exact, a power of two. */
ORX_INLINE R orx_rp_scale(int bin) {
  return orx_rp_pow2(ORX_RP_F - ORX_RP_E_BOTTOM - bin * ORX_RP_W);
}
/* The least magnitude a state of top bin `bin` does not take: 2^(F + W - P) / orx_rp_scale(bin),
 * or infinity where that is above every float (the top bins take every finite element). CUDA
 * tests elements against it (orx_rp_fits). */
ORX_INLINE R orx_rp_bound(int bin) {
  const int e = ORX_RP_W - ORX_RP_P + ORX_RP_E_BOTTOM + bin * ORX_RP_W;
  return e > ORX_RP_BIAS ? ORX_FROM_BITS((ORX_RP_BITS)(2 * ORX_RP_BIAS + 1) << (ORX_RP_P - 1))
                         : orx_rp_pow2(e);
}
/* The least top bin that takes a finite |x| (the exponent field of a denormal reads as 0). */
ORX_INLINE int orx_rp_bin_of(R x) {
  const int field = (int)((ORX_AS_BITS(x) >> (ORX_RP_P - 1)) & (2 * ORX_RP_BIAS + 1));
  const int exponent = field ? field - ORX_RP_BIAS : -ORX_RP_BIAS; /* |x| < 2^(exponent + 1) */
  const int bin = (exponent - ORX_RP_E_BOTTOM - ORX_RP_W + ORX_RP_P) / ORX_RP_W + 1;
  return bin > ORX_RP_BIN_MIN ? bin : ORX_RP_BIN_MIN;
}
ORX_INLINE int orx_rp_flag_of(R x) {
  return x != x ? ORX_RP_NAN : x > 0 ? ORX_RP_POS_INF : ORX_RP_NEG_INF;
}

/* Moves the folds of a state whose top bin rises by `rise`: fold j becomes fold j + rise, the
 * ones that pass the lowest are dropped (constant indices: arrays stay in registers). */
ORX_INLINE void orx_rp_shift(long *units, int rise) {
  long moved[ORX_RP_K];
  for (int j = 0; j < ORX_RP_K; j++) {
    long v = 0;
    for (int i = 0; i <= j; i++)
      v = rise == j - i ? units[i] : v;
    moved[j] = v;
  }
  for (int j = 0; j < ORX_RP_K; j++)
    units[j] = moved[j];
}

/* The pieces of scaled element r (|r| < ORX_RP_LIMIT) in units of each fold, added to units. */
ORX_INLINE void orx_rp_deposit_units(long *units, R r) {
  for (int j = 0; j < ORX_RP_K; j++) {
    const R anchor = orx_rp_anchor(j), rounded = anchor + r;
    units[j] += (long)(orx_rp_diff)(ORX_AS_BITS(rounded) - ORX_AS_BITS(anchor));
    r -= rounded - anchor;
  }
}

ORX_INLINE orx_state orx_state_identity(void) {
  orx_state s;
  s.bin = ORX_RP_BIN_MIN;
  s.flags = 0;
  for (int j = 0; j < ORX_RP_K; j++)
    s.units[j] = 0;
  return s;
}
/* Raises s's top bin to `bin` (no lower than it is). */
ORX_INLINE void orx_rp_raise(orx_state *s, int bin) {
  if (bin > s->bin) {
    orx_rp_shift(s->units, bin - s->bin);
    s->bin = bin;
  }
}
ORX_INLINE orx_state orx_state_absorb(orx_state s, R x, ulong index) {
  (void)index;
  if (x - x != 0) {
    s.flags |= orx_rp_flag_of(x);
    return s;
  }
  orx_rp_raise(&s, orx_rp_bin_of(x));
  orx_rp_deposit_units(s.units, x * orx_rp_scale(s.bin));
  return s;
}
#define ORX_STATE_ABSORB orx_state_absorb
ORX_INLINE orx_state orx_state_map(R x, ulong index) {
  return orx_state_absorb(orx_state_identity(), x, index);
}
ORX_INLINE orx_state orx_state_combine(orx_state a, orx_state b) {
  orx_rp_raise(&a, b.bin);
  orx_rp_raise(&b, a.bin);
  a.flags |= b.flags;
  for (int j = 0; j < ORX_RP_K; j++)
    a.units[j] += b.units[j];
  return a;
}

#if !ORX_INPUT_STATES /* chains take elements */
/* ---- Lanes: a chain's float accumulators -----------------------------------------------------
 * A chain keeps one vector of accumulators per fold (component c of fold j's vector takes the
 * pieces of component c of each load), one bin for all of them, and the flushed folds. */
typedef struct orx_rp_chain {
  int bin, flags, deposits; /* deposits into each accumulator since the last flush */
  R scale, bound;           /* orx_rp_scale(bin), orx_rp_bound(bin) */
  TV acc[ORX_RP_K];         /* fold j: anchor j plus its pieces, per component */
  long units[ORX_RP_K];     /* the flushed folds of every component */
} orx_rp_chain;

/* Fold j's step on a vector: each component's rest rounded to the fold's unit against the
 * anchor, the piece added into the accumulator; returns the rests. OpenCL C computes on the
 * vectors; where vectors are plain structs (CUDA), component by component. (rest + anchor) -
 * anchor must not be reassociated: the library never builds with fast-math options. Fold 0
 * takes the element unscaled, and a compiler may contract x * scale into its two operations (CUDA
 * does: two FFMA, no FMUL): the same bits, as the product is exact unless it underflows, and an
 * underflowing one lies far below half the lowest unit. */
#if ORX_NATIVE_VECTORS
ORX_INLINE TV orx_rp_fold_v(TV *acc, TV rest, int j) {
  const R anchor = orx_rp_anchor(j);
  const TV piece = (rest + anchor) - anchor;
  *acc += piece;
  return rest - piece;
}
/* Fold 0's step on the unscaled vector x: its rest is x * scale. */
ORX_INLINE TV orx_rp_fold_first_v(TV *acc, TV x, R scale) {
  return orx_rp_fold_v(acc, x * scale, 0);
}
#else
ORX_INLINE TV orx_rp_fold_v(TV *acc, TV rest, int j) {
  const R anchor = orx_rp_anchor(j);
  R a[ORX_VEC], r[ORX_VEC];
  ORX_STORE_V(*acc, a);
  ORX_STORE_V(rest, r);
  for (int c = 0; c < ORX_VEC; c++) {
    const R piece = (r[c] + anchor) - anchor;
    a[c] += piece;
    r[c] -= piece;
  }
  *acc = ORX_LOAD_V(a);
  return ORX_LOAD_V(r);
}
ORX_INLINE TV orx_rp_fold_first_v(TV *acc, TV x, R scale) {
  const R anchor = orx_rp_anchor(0);
  R a[ORX_VEC], r[ORX_VEC];
  ORX_STORE_V(*acc, a);
  ORX_STORE_V(x, r);
  for (int c = 0; c < ORX_VEC; c++) {
    const R piece = (r[c] * scale + anchor) - anchor;
    a[c] += piece;
    r[c] = r[c] * scale - piece;
  }
  *acc = ORX_LOAD_V(a);
  return ORX_LOAD_V(r);
}
#endif
/* Whether a chain of this scale and bound takes every component of x (false for NaN): |x| <
 * bound, or |x * scale| < 2^(F + W - P), the same test. CUDA compares the elements themselves,
 * and its fold 0 contracts the product into its additions; OpenCL C tests the scaled vector's
 * bits, whose product fold 0 shares. H200, f32 and f64 sums of 2^16-2^28 (compare.sh's cross
 * table, two rounds, device time): the unscaled test and contracted product through CUDA
 * f32 1.014-1.032x at 2^22-2^28 (SASS: 40 FMUL and 15 FSEL fewer, FFMA in their place), f64
 * 1.00-1.01x; on NVIDIA's OpenCL, tested so too, 0.96-0.98x at f64 2^18-2^24 and f32 2^20
 * (docs/perf/h200-repro-cuda-unscaled-test.txt). */
ORX_INLINE int orx_rp_fits(TV x, R scale, R bound) {
#if ORX_NATIVE_VECTORS
  (void)bound;
  /* Magnitudes below the limit's bits (NaN's are above) leave the sign bit of the difference
   * set: the components' differences ANDed by halves, as all() went component by component on
   * PoCL (perf: 16 extractions and branches per load). */
  const ORX_BITS_TV magnitude_bits =
      ORX_AS_BITS_V(x * scale) & ~((ORX_RP_BITS)1 << (8 * ORX_TYPE_BYTES - 1));
  ORX_BITS_TV below =
      magnitude_bits - ORX_AS_BITS(orx_rp_pow2(ORX_RP_F + ORX_RP_W - ORX_RP_P));
#if ORX_VEC == 16
  const ORX_CAT(ORX_BITS_NAME, 8) below8 = below.lo & below.hi;
#elif ORX_VEC == 8
  const ORX_CAT(ORX_BITS_NAME, 8) below8 = below;
#endif
#if ORX_VEC >= 8
  const ORX_CAT(ORX_BITS_NAME, 4) below4 = below8.lo & below8.hi;
#elif ORX_VEC == 4
  const ORX_CAT(ORX_BITS_NAME, 4) below4 = below;
#endif
#if ORX_VEC >= 4
  const ORX_CAT(ORX_BITS_NAME, 2) below2 = below4.lo & below4.hi;
#elif ORX_VEC == 2
  const ORX_CAT(ORX_BITS_NAME, 2) below2 = below;
#endif
#if ORX_VEC >= 2
  const ORX_RP_BITS below1 = below2.lo & below2.hi;
#else
  const ORX_RP_BITS below1 = below;
#endif
  return (int)(below1 >> (8 * ORX_TYPE_BYTES - 1));
#else
  (void)scale;
  R c[ORX_VEC];
  ORX_STORE_V(x, c);
  int fits = 1;
  for (int k = 0; k < ORX_VEC; k++)
    fits &= fabs(c[k]) < bound; /* a compare of the magnitude, no select (CUDA's SASS) */
  return fits;
#endif
}

/* A chain's top bin, and what depends on it. */
ORX_INLINE void orx_rp_chain_set_bin(orx_rp_chain *l, int bin) {
  l->bin = bin;
  l->scale = orx_rp_scale(bin);
  l->bound = orx_rp_bound(bin);
}
ORX_INLINE orx_rp_chain orx_rp_chain_identity(void) {
  orx_rp_chain l;
  orx_rp_chain_set_bin(&l, ORX_RP_BIN_MIN);
  l.flags = 0;
  l.deposits = 0;
  for (int j = 0; j < ORX_RP_K; j++) {
    R anchors[ORX_VEC];
    for (int c = 0; c < ORX_VEC; c++)
      anchors[c] = orx_rp_anchor(j);
    l.acc[j] = ORX_LOAD_V(anchors);
    l.units[j] = 0;
  }
  return l;
}
/* The accumulators' units into the folds; the accumulators back to their anchors. Inlined, as
 * the slow step below, so that no pointer to the chain leaves the streaming loop: PoCL kept a
 * chain whose address went into a call in memory (perf, PoCL 3.1: 1.2x the time). */
ORX_INLINE_ALWAYS void orx_rp_flush(orx_rp_chain *l) {
  for (int j = 0; j < ORX_RP_K; j++) {
    const R anchor = orx_rp_anchor(j);
    R a[ORX_VEC];
    ORX_STORE_V(l->acc[j], a);
    for (int c = 0; c < ORX_VEC; c++) {
      l->units[j] += (long)(orx_rp_diff)(ORX_AS_BITS(a[c]) - ORX_AS_BITS(anchor));
      a[c] = anchor;
    }
    l->acc[j] = ORX_LOAD_V(a);
  }
  l->deposits = 0;
}
ORX_INLINE orx_state orx_rp_chain_state(orx_rp_chain l) {
  orx_rp_flush(&l);
  orx_state s;
  s.bin = l.bin;
  s.flags = l.flags;
  for (int j = 0; j < ORX_RP_K; j++)
    s.units[j] = l.units[j];
  return s;
}
ORX_INLINE orx_rp_chain orx_rp_chain_merge(orx_rp_chain a, orx_rp_chain b) {
  const orx_state s = orx_state_combine(orx_rp_chain_state(a), orx_rp_chain_state(b));
  orx_rp_chain l = orx_rp_chain_identity();
  orx_rp_chain_set_bin(&l, s.bin);
  l.flags = s.flags;
  for (int j = 0; j < ORX_RP_K; j++)
    l.units[j] = s.units[j];
  return l;
}
/* The slow step of a vector that holds a NaN, an infinity or an element too large for the
 * chain's bin: non-finite elements are counted and become zeros, and the bin rises. */
ORX_INLINE_ALWAYS TV orx_rp_chain_admit(orx_rp_chain *l, TV v) {
  R x[ORX_VEC];
  ORX_STORE_V(v, x);
  int bin = l->bin;
  for (int c = 0; c < ORX_VEC; c++) {
    if (x[c] - x[c] != 0) {
      l->flags |= orx_rp_flag_of(x[c]);
      x[c] = 0;
    }
    const int need = orx_rp_bin_of(x[c]);
    bin = need > bin ? need : bin;
  }
  if (bin > l->bin) {
    orx_rp_flush(l);
    orx_rp_shift(l->units, bin - l->bin);
    orx_rp_chain_set_bin(l, bin);
  }
  return ORX_LOAD_V(x);
}
/* One vector (of indices first, first + 1, ...: unused) into the accumulators, fold by fold.
 * Inlined and unrolled, so that the accumulators stay in registers: PoCL kept this call, and
 * the loop over folds, with the accumulators in memory (perf, PoCL 3.1: 1.3x the time). */
ORX_INLINE_ALWAYS void orx_rp_chain_absorb(orx_rp_chain *l, TV x, ulong first) {
  (void)first;
  if (!orx_rp_fits(x, l->scale, l->bound))
    x = orx_rp_chain_admit(l, x); /* may raise the bin, and the scale with it */
  TV rest = orx_rp_fold_first_v(&l->acc[0], x, l->scale);
#pragma unroll
  for (int j = 1; j < ORX_RP_K; j++)
    rest = orx_rp_fold_v(&l->acc[j], rest, j);
  if (++l->deposits == ORX_RP_FLUSH_EVERY)
    orx_rp_flush(l);
}
#define ORX_STATE_CHAIN_T orx_rp_chain
#define ORX_STATE_CHAIN_IDENTITY orx_rp_chain_identity
#define ORX_STATE_CHAIN_ABSORB orx_rp_chain_absorb
#define ORX_STATE_CHAIN_MERGE orx_rp_chain_merge
#define ORX_STATE_CHAIN_STATE orx_rp_chain_state
#define ORX_STATE_CHAIN_NEUTRAL 0 /* zero adds nothing to any fold */
#endif /* !ORX_INPUT_STATES */

/* ---- The result: the folds' exact sum, rounded once -------------------------------------------
 * The sum is M * 2^(e(bin) - (K-1) W - P + 1) with M = sum of units[j] * 2^((K-1-j) W), at most
 * 2^(63 + 3 W + 2) in magnitude: three 64-bit words, two's complement, least significant first. */
ORX_INLINE void orx_rp_wide_shl(ulong *w, int shift) {
  for (; shift >= 64; shift -= 64) {
    w[2] = w[1];
    w[1] = w[0];
    w[0] = 0;
  }
  if (shift > 0) {
    w[2] = w[2] << shift | w[1] >> (64 - shift);
    w[1] = w[1] << shift | w[0] >> (64 - shift);
    w[0] <<= shift;
  }
}
ORX_INLINE void orx_rp_wide_add(ulong *w, long v, int shift) {
  ulong x[3];
  x[0] = (ulong)v;
  x[1] = x[2] = v < 0 ? ~(ulong)0 : 0;
  orx_rp_wide_shl(x, shift);
  ulong carry = 0;
  for (int k = 0; k < 3; k++) {
    const ulong s = w[k] + carry, t = s + x[k];
    carry = (ulong)(s < carry) + (ulong)(t < s);
    w[k] = t;
  }
}
/* The index of the highest set bit of a nonzero three-word number. */
ORX_INLINE int orx_rp_wide_top(const ulong *w) {
  int top = -1;
  for (int k = 0; k < 6; k++) {
    const uint word = (uint)(w[k / 2] >> (32 * (k % 2)));
    top = word ? 32 * k + 31 - (int)clz(word) : top;
  }
  return top;
}
ORX_INLINE R orx_state_result(orx_state s) {
  if ((s.flags & ORX_RP_NAN) || (s.flags & (ORX_RP_POS_INF | ORX_RP_NEG_INF)) ==
                                    (ORX_RP_POS_INF | ORX_RP_NEG_INF))
    return ORX_FROM_BITS((ORX_RP_BITS)(4 * ORX_RP_BIAS + 3) << (ORX_RP_P - 2)); /* quiet NaN */
  if (s.flags)
    return ORX_FROM_BITS((ORX_RP_BITS)(s.flags == ORX_RP_NEG_INF) << (8 * ORX_TYPE_BYTES - 1) |
                         (ORX_RP_BITS)(2 * ORX_RP_BIAS + 1) << (ORX_RP_P - 1));
  ulong w[3] = {0, 0, 0};
  for (int j = 0; j < ORX_RP_K; j++)
    orx_rp_wide_add(w, s.units[j], (ORX_RP_K - 1 - j) * ORX_RP_W);
  const int negative = (long)w[2] < 0;
  if (negative) { /* the magnitude */
    ulong carry = 1;
    for (int k = 0; k < 3; k++) {
      w[k] = ~w[k] + carry;
      carry = carry && w[k] == 0;
    }
  }
  if ((w[0] | w[1] | w[2]) == 0)
    return 0;
  const int low = ORX_RP_E_BOTTOM + s.bin * ORX_RP_W - (ORX_RP_K - 1) * ORX_RP_W - ORX_RP_P + 1;
  const int top = orx_rp_wide_top(w), denormal_low = ORX_RP_E_BOTTOM - ORX_RP_P + 1;
  /* The result's lowest significand bit, as a bit of M: P bits from the top, or the least
   * denormal's; M's bits below it are rounded off. */
  const int cut = top - (ORX_RP_P - 1) > denormal_low - low ? top - (ORX_RP_P - 1)
                                                            : denormal_low - low;
  ulong significand;
  if (cut <= 0) { /* exact: M has at most P bits, in w[0] */
    significand = w[0] << -cut;
  } else { /* M from its top bit into the top of three words, then round to nearest even */
    orx_rp_wide_shl(w, 191 - top);
    significand = w[2] >> (64 - ORX_RP_P);
    const ulong below = w[2] << ORX_RP_P;
    const int halfway = (int)(below >> 63);
    const int sticky = (below << 1) != 0 || w[1] != 0 || w[0] != 0;
    significand += (ulong)(halfway & (sticky | (int)(significand & 1)));
  }
  /* The significand with its leading bit added into the exponent field: one formula for
   * normal, denormal and carried-over results (a carry past the top bumps the exponent). */
  const long exponent_field = (long)(low + cut) + ORX_RP_P - 2 + ORX_RP_BIAS;
  const ulong inf = (ulong)(2 * ORX_RP_BIAS + 1) << (ORX_RP_P - 1);
  ulong bits = ((ulong)exponent_field << (ORX_RP_P - 1)) + significand;
  bits = exponent_field >= 2 * ORX_RP_BIAS + 1 || bits > inf ? inf : bits;
  return ORX_FROM_BITS((ORX_RP_BITS)bits |
                       (ORX_RP_BITS)negative << (8 * ORX_TYPE_BYTES - 1));
}
#define ORX_STATE_RESULT_T ORX_VALUE_T
#define ORX_STATE_RESULT orx_state_result

#if ORX_TYPE_BYTES == 4 && !ORX_INPUT_STATES && !ORX_PARTIAL_OUT
/* ---- A whole result in one work-item: two passes ------------------------------------------------
 * The pieces of x in folds 0..j add up to x rounded to fold j's unit (ties to even): fold j + 1
 * rounds a rest that differs from x by a multiple of 2^W of its units, an even number, which
 * leaves the rounding as it is. So the folds of a result whose top bin is B hold, in units of its
 * lowest fold U = u(B - K + 1), the sum of every element rounded to U, however they were split.
 * Where one work-item reduces all of a result's elements (a staged segment), a first pass finds
 * B (the largest magnitude's bin), and the second adds each element as one integer, x / U rounded
 * to even (|x / U| < 2^(K W - 1) = 2^51): one conversion per element instead of K folds (H200,
 * 32-element segments, see docs/PERFORMANCE.md). The same bits as the folds, by the above.
 * f32 only: an f64 element needs 95 bits. NaN, infinities and sums that could pass 2^63 units
 * (more than ORX_RP_TWO_PASS_MAX elements) take the folds. */
#define ORX_RP_TWO_PASS_MAX ((1 << (63 - (ORX_RP_K * ORX_RP_W - 1))) - 1)
typedef struct orx_rp_two_pass {
  uint top;            /* the largest magnitude's bits; NaN's and infinities' are above any other */
  int bin;             /* B */
  R scale_a, scale_b;  /* 1 / U as two factors: 2^149 (B = ORX_RP_BIN_MIN) is no float */
  long total;          /* the elements in units of U */
} orx_rp_two_pass;
ORX_INLINE orx_rp_two_pass orx_rp_two_pass_begin(void) {
  orx_rp_two_pass t;
  t.top = 0;
  t.bin = ORX_RP_BIN_MIN;
  t.scale_a = t.scale_b = 1;
  t.total = 0;
  return t;
}
ORX_INLINE void orx_rp_two_pass_scan(orx_rp_two_pass *t, R x) {
  const uint magnitude = ORX_AS_BITS(x) & 0x7fffffffu;
  t->top = magnitude > t->top ? magnitude : t->top;
}
/* After the first pass over `count` elements: whether the second applies (then it sets B). */
ORX_INLINE int orx_rp_two_pass_ready(orx_rp_two_pass *t, ulong count) {
  if (t->top >= 0x7f800000u || count > ORX_RP_TWO_PASS_MAX)
    return 0;
  t->bin = orx_rp_bin_of(ORX_FROM_BITS(t->top));
  /* U = 2^-k; either factor alone is a normal float. Scaling by each is exact unless a product
   * falls below the normal range, and then x / U is far below a half (0 either way). */
  const int k = (ORX_RP_K - 1) * ORX_RP_W + ORX_RP_P - 1 - ORX_RP_E_BOTTOM - t->bin * ORX_RP_W;
  t->scale_a = orx_rp_pow2(k - k / 2);
  t->scale_b = orx_rp_pow2(k / 2);
  return 1;
}
ORX_INLINE void orx_rp_two_pass_absorb(orx_rp_two_pass *t, R x) {
  t->total += convert_long_rte(x * t->scale_a * t->scale_b);
}
ORX_INLINE R orx_rp_two_pass_result(orx_rp_two_pass t) {
  orx_state s = orx_state_identity();
  s.bin = t.bin;
  s.units[ORX_RP_K - 1] = t.total;
  return orx_state_result(s);
}
#define ORX_STATE_TWO_PASS_T orx_rp_two_pass
#define ORX_STATE_TWO_PASS_BEGIN orx_rp_two_pass_begin
#define ORX_STATE_TWO_PASS_SCAN orx_rp_two_pass_scan
#define ORX_STATE_TWO_PASS_READY orx_rp_two_pass_ready
#define ORX_STATE_TWO_PASS_ABSORB orx_rp_two_pass_absorb
#define ORX_STATE_TWO_PASS_RESULT orx_rp_two_pass_result
#endif

#undef R
#endif /* ORX_REPRO_CL */
