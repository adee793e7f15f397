/* =================================================================================================
 * operator_probe.cl: what the device compiler makes of a user operator, before the library trusts
 * it on a context (its first use there, src/exec/user_operator.c). facts[0] receives sizeof the
 * element type, facts[1] sizeof the state; the host compares them with the sizes the
 * application gave, so a layout that differs between host and device fails there instead of
 * giving wrong results.
 *
 * The body calls identity(), map() (a pair operator's pair_map()) and combine() directly, so a
 * missing function or a wrong signature is a build error here, and each call names its role and the
 * signature it needs twice over, for every compiler's way of reporting: a #line marker (PoCL's
 * clang and NVRTC print it as the file: "combine: STATE combine(STATE a, STATE b):1:..."), and a
 * comment on the call's line (NVIDIA's OpenCL prints the line). The compiler's note then points at
 * the user's own function; the library's kernels, which include none of this, are not involved. The
 * host passes run = 0: nothing is computed, but the compiler cannot tell, so the calls must
 * compile.
 *
 * Alone (tests/test_kernel_files.c: the contract's defaults, a built-in operator), the probe
 * takes that operator through lib/orx_ops.cl.
 *
 * Launch: one work-item. states: room for one state.
 * ============================================================================================== */
#include "lib/orx_types.cl"

#if ORX_OP_ID == ORX_OP_CUSTOM
#define A ORX_STATE_T

/* Its own names start with orx_, which users may not take: no user function is shadowed. */
ORX_INLINE A orx_probe_roles(T orx_element) {
#line 1 "identity: STATE identity(void)"
  const A orx_none = ORX_STATE_IDENTITY(); /* identity: STATE identity(void) */
#ifdef ORX_STATE_PAIR_MAP /* a pair operator's, in place of map */
#line 1 "pair_map: STATE pair_map(ELEMENT a, ELEMENT b, ulong index)"
  const A orx_one = /* pair_map: STATE pair_map(ELEMENT a, ELEMENT b, ulong index) */
      ORX_STATE_PAIR_MAP(orx_element, orx_element, 0ul); /* pair_map(ELEMENT, ELEMENT, ulong) */
#else
#line 1 "map: STATE map(ELEMENT x, ulong index)"
  const A orx_one = ORX_STATE_MAP(orx_element, 0ul); /* map: STATE map(ELEMENT x, ulong index) */
#endif
#line 1 "combine: STATE combine(STATE a, STATE b)"
  return ORX_STATE_COMBINE(orx_none, orx_one); /* combine: STATE combine(STATE a, STATE b) */
}
#line 43 "kernels/operator_probe.cl"
#define ORX_PROBE(element) orx_probe_roles(element)
#else
#include "lib/orx_ops.cl"
#define ORX_PROBE(element) orx_combine(ORX_IDENTITY, ORX_MAP(element, 0))
#endif

__kernel void orx_operator_probe(__global ulong *facts, __global A *states, uint run) {
  facts[0] = sizeof(T);
  facts[1] = sizeof(A);
  if (run)
    states[0] = ORX_PROBE(*(__global const T *)(__global const void *)states);
}
