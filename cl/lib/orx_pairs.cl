/* =================================================================================================
 * orx_pairs.cl: two inputs read as one (ORX_PAIR_OP, docs/design/half-and-pairs.md, decision 3).
 *
 * A pair operator's kernel is the single-input kernel of SUM (of floats under CROSS_DEVICE,
 * SUM_REPRODUCIBLE, in state mode) over the pairs' values: T is the values' type (ORX_TYPE_ID:
 * f32 for 16-bit floats, u64 for COUNT_EQUAL, the elements' own type otherwise, integers on
 * their unsigned bits), and the input is a handle to both arrays, which every read maps. A user
 * pair operator's (ORX_PAIR_USER) is its own kernel with the pairs as elements: T holds both,
 * and its map is pair_map (lib/orx_types.cl, lib/orx_state.cl). The
 * inputs' elements are of ORX_PAIR_TYPE_ID, the side type S, computed on as SC (f32 for 16-bit
 * floats, loaded as lib/orx_types.cl loads them). Pointer arithmetic goes through ORX_IN_AT, so
 * that a kernel moves both arrays where it moved one. The host lays both out alike
 * (src/planner/plan_pairs.c: ORX_VEC divides the distance between their vector boundaries).
 *
 * Included by lib/orx_types.cl, which gives T, TV and the vector helpers.
 * ============================================================================================== */
#ifndef ORX_PAIRS_CL
#define ORX_PAIRS_CL

#if ORX_PAIR_OP == ORX_PAIR_USER
#if ORX_INPUT_STATES || ORX_SLOTS != 1 || ORX_OP_ID != ORX_OP_CUSTOM || ORX_VEC != 1
#error "a user pair operator reads its pairs one at a time, as its own elements"
#endif
#elif ORX_INPUT_STATES || ORX_SLOTS != 1 ||                                                    \
    (ORX_OP_ID != ORX_OP_SUM && ORX_OP_ID != ORX_OP_SUM_REPRODUCIBLE)
#error "pair operators run SUM (or SUM_REPRODUCIBLE) over their values, one operator"
#endif

/* x * y rounded as written. SUM_REPRODUCIBLE (CROSS_DEVICE) promises the same bits on every
 * device, so no compiler may fuse a pair's product into the accumulator's next addition. */
#if ORX_PAIR_OP == ORX_PAIR_USER /* the user's own arithmetic, as the source writes it */
#elif ORX_STATE && defined(__CUDACC__) /* CUDA: the round-to-nearest intrinsics never fuse */
ORX_INLINE float orx_pair_mul(float x, float y) { return __fmul_rn(x, y); }
ORX_INLINE double orx_pair_mul(double x, double y) { return __dmul_rn(x, y); }
#else /* OpenCL C, and the host's C (built with -ffp-contract=off) */
#if ORX_STATE
#pragma OPENCL FP_CONTRACT OFF
#endif
#define orx_pair_mul(x, y) ((x) * (y))
#endif

/* S and SC, and element i of a side as SC. */
#if ORX_PAIR_OP == ORX_PAIR_USER
#define ORX_SIDE_T ORX_ELEMENT_T
#define ORX_SIDE_C ORX_ELEMENT_T
#define orx_side_read(p, i) ((p)[i])
#elif ORX_PAIR_TYPE_ID == ORX_F16
#define ORX_SIDE_T half
#define ORX_SIDE_C float
#define orx_side_read(p, i) vload_half((i), (p))
#elif ORX_PAIR_TYPE_ID == ORX_BF16
#define ORX_SIDE_T ushort
#define ORX_SIDE_C float
#define orx_side_read(p, i) as_float((uint)(p)[i] << 16)
#else
#if ORX_PAIR_TYPE_ID == ORX_I32
#define ORX_SIDE_T int
#elif ORX_PAIR_TYPE_ID == ORX_U32
#define ORX_SIDE_T uint
#elif ORX_PAIR_TYPE_ID == ORX_I64
#define ORX_SIDE_T long
#elif ORX_PAIR_TYPE_ID == ORX_U64
#define ORX_SIDE_T ulong
#elif ORX_PAIR_TYPE_ID == ORX_F32
#define ORX_SIDE_T float
#elif ORX_PAIR_TYPE_ID == ORX_F64
#if ORX_NATIVE_VECTORS
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define ORX_SIDE_T double
#else
#error "ORX_PAIR_TYPE_ID must be one of ORX_I32 ... ORX_BF16"
#endif
#define ORX_SIDE_C ORX_SIDE_T
#define orx_side_read(p, i) ((p)[i])
#endif
#define ORX_SIDE_IS_FLOAT ORX_TYPE_IS_FLOAT_OF(ORX_PAIR_TYPE_ID)

/* Vector v of a side (its ORX_VEC elements from v * ORX_VEC, on a vector boundary) into c, in one
 * load of ORX_VEC elements. */
ORX_INLINE void orx_side_read_v(ORX_GLOBAL_PTR const ORX_SIDE_T *p, ulong v, ORX_SIDE_C *c) {
#if ORX_VEC == 1
  c[0] = orx_side_read(p, v);
#elif ORX_PAIR_TYPE_ID == ORX_F16 && ORX_NATIVE_VECTORS /* lib/orx_types.cl's forms */
  ORX_CAT(vstore, ORX_VEC)(orx_narrow_f16_v(p, v), 0, c);
#elif ORX_PAIR_TYPE_ID == ORX_F16 /* the CUDA prelude's vload_halfN: one load */
  ORX_CAT(vstore, ORX_VEC)(ORX_CAT(vload_half, ORX_VEC)(v, p), 0, c);
#elif ORX_PAIR_TYPE_ID == ORX_BF16 && ORX_NATIVE_VECTORS && ORX_NARROW_SPLIT
  ORX_CAT(vstore, ORX_VEC)(orx_narrow_bf16_v(p, v), 0, c);
#elif ORX_PAIR_TYPE_ID == ORX_BF16
  const ORX_CAT(ushort, ORX_VEC) bits = ((ORX_GLOBAL_PTR const ORX_CAT(ushort, ORX_VEC) *)p)[v];
  ushort u[ORX_VEC];
  ORX_CAT(vstore, ORX_VEC)(bits, 0, u);
  for (int k = 0; k < ORX_VEC; k++)
    c[k] = as_float((uint)u[k] << 16);
#else
  ORX_CAT(vstore, ORX_VEC)(((ORX_GLOBAL_PTR const ORX_CAT(ORX_SIDE_T, ORX_VEC) *)p)[v], 0, c);
#endif
}

/* The value of one pair, as T. Integers: the differences and products of their unsigned bits
 * wrap as SUM does; |a - b| is exact before it wraps. NaN is equal to nothing, -0 to +0. */
ORX_INLINE T orx_pair_value(ORX_SIDE_C a, ORX_SIDE_C b) {
#if ORX_PAIR_OP == ORX_PAIR_USER /* the pair itself, which the operator's pair_map maps */
  T p;
  p.a = a;
  p.b = b;
  return p;
#elif ORX_PAIR_OP == ORX_PAIR_DOT && ORX_SIDE_IS_FLOAT
  return orx_pair_mul((T)a, (T)b);
#elif ORX_PAIR_OP == ORX_PAIR_DOT
  return (T)a * (T)b;
#elif ORX_PAIR_OP == ORX_PAIR_SQUARED_DISTANCE && ORX_SIDE_IS_FLOAT
  const T d = (T)a - (T)b;
  return orx_pair_mul(d, d);
#elif ORX_PAIR_OP == ORX_PAIR_SQUARED_DISTANCE
  const T d = (T)a - (T)b;
  return d * d;
#elif ORX_PAIR_OP == ORX_PAIR_ABS_DISTANCE && ORX_SIDE_IS_FLOAT
  return fabs((T)a - (T)b);
#elif ORX_PAIR_OP == ORX_PAIR_ABS_DISTANCE
  return a > b ? (T)a - (T)b : (T)b - (T)a;
#elif ORX_PAIR_OP == ORX_PAIR_COUNT_EQUAL
  return a == b ? (T)1 : (T)0;
#else
#error "ORX_PAIR_OP must be one of the ORX_PAIR_ ids"
#endif
}

/* The input: both arrays, moved together. */
typedef struct orx_in {
  ORX_GLOBAL_PTR const ORX_SIDE_T *a;
  ORX_GLOBAL_PTR const ORX_SIDE_T *b;
} orx_in;
ORX_INLINE orx_in orx_in_make(ORX_GLOBAL_PTR const ORX_SIDE_T *a,
                              ORX_GLOBAL_PTR const ORX_SIDE_T *b) {
  orx_in p;
  p.a = a;
  p.b = b;
  return p;
}
ORX_INLINE orx_in orx_in_at(orx_in p, ulong k) { return orx_in_make(p.a + k, p.b + k); }
ORX_INLINE orx_in orx_in_back(orx_in p, ulong k) { return orx_in_make(p.a - k, p.b - k); }

/* Vector v of pairs' values: both sides loaded whole, then mapped component by component. */
ORX_INLINE TV orx_pair_read_v(orx_in p, ulong v) {
  ORX_SIDE_C x[ORX_VEC], y[ORX_VEC];
  orx_side_read_v(p.a, v, x);
  orx_side_read_v(p.b, v, y);
  T c[ORX_VEC];
  for (int k = 0; k < ORX_VEC; k++)
    c[k] = orx_pair_value(x[k], y[k]);
  return ORX_LOAD_V(c);
}

/* What lib/orx_types.cl defines for one input (its comment says what each is). */
#define ORX_ELEM_T ORX_SIDE_T
#define ORX_IN orx_in
#define ORX_IN_V orx_in
#define ORX_IN_RESTRICT
#define ORX_IN_AT(p, k) orx_in_at((p), (k))
#define ORX_IN_BACK(p, k) orx_in_back((p), (k))
#define ORX_IN_AS_V(p) (p)
#define ORX_READ(p, i) orx_pair_value(orx_side_read((p).a, (i)), orx_side_read((p).b, (i)))
#define ORX_READ_V(p, v) orx_pair_read_v((p), (v))
/* A kernel's input parameters: a, then b and b's offset (a's is the kernel's own argument). */
#define ORX_IN_PARAMS(name)                                                                        \
  __global const ORX_SIDE_T *ORX_RESTRICT name, __global const ORX_SIDE_T *ORX_RESTRICT name##_b, \
      ulong name##_b_offset
#define ORX_IN_OPEN(name, offset) orx_in_make((name) + (offset), (name##_b) + (name##_b_offset))

#endif /* ORX_PAIRS_CL */
