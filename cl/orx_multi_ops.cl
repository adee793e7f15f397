/* =================================================================================================
 * orx_multi_ops.cl: the operators of a kernel that reduces the same input with several operators
 * at once (reduce_multi.cl). The host defines ORX_MULTI_K (1..8) and, for k < 8, ORX_MULTI_OP_<k>
 * (numbered as in orx_ops.cl) and ORX_MULTI_IDENTITY_BITS_<k>; the slots from K on repeat operator
 * 0, so the padding reductions of the multireduction (a power of two of them) are harmless.
 *
 * Reduction k takes operator orx_multi_op(k). The kernels call it with k known at compile time
 * (unrolled loops), so each call folds to one operator.
 * ============================================================================================== */
#ifndef ORX_MULTI_OPS_CL
#define ORX_MULTI_OPS_CL

#ifndef ORX_MULTI_K
#define ORX_MULTI_K 1
#endif

/* Operator slots 1 .. 7 as switch cases (slot 0 is the default), ORX_MULTI_CASE defined by each
 * user. */
#define ORX_MULTI_CASES                                                                            \
  ORX_MULTI_CASE(1)                                                                                \
  ORX_MULTI_CASE(2)                                                                                \
  ORX_MULTI_CASE(3)                                                                                \
  ORX_MULTI_CASE(4)                                                                                \
  ORX_MULTI_CASE(5)                                                                                \
  ORX_MULTI_CASE(6)                                                                                \
  ORX_MULTI_CASE(7)

#define ORX_MULTI_CASE(k)                                                                          \
  case k:                                                                                          \
    return ORX_CAT(ORX_MULTI_OP_, k);
ORX_INLINE int orx_multi_op(uint k) {
  switch (k) {
    ORX_MULTI_CASES
  default:
    return ORX_MULTI_OP_0;
  }
}
#undef ORX_MULTI_CASE

#define ORX_MULTI_CASE(k)                                                                          \
  case k:                                                                                          \
    return ORX_FROM_BITS((ORX_BITS_T)(ORX_CAT(ORX_MULTI_IDENTITY_BITS_, k)));
ORX_INLINE T orx_multi_identity(uint k) {
  switch (k) {
    ORX_MULTI_CASES
  default:
    return ORX_FROM_BITS((ORX_BITS_T)(ORX_MULTI_IDENTITY_BITS_0));
  }
}
#undef ORX_MULTI_CASE

/* How the streaming code (orx_stream.cl) and the multireduction (orx_multireduce.cl) see them. */
#define ORX_STREAM_K ORX_MULTI_K
#define ORX_STREAM_OP(k) orx_multi_op(k)
#define ORX_STREAM_IDENTITY(k) orx_multi_identity(k)
#define ORX_MR_OP(r) orx_multi_op(r)

#endif /* ORX_MULTI_OPS_CL */
