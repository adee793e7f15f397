/* =================================================================================================
 * operator_probe.cl: what the device compiler makes of an operator, before the library trusts it
 * (ocl_reduce_operator_create). facts[0] receives sizeof the element type T, facts[1] sizeof the
 * state A; the host compares them with the sizes the application gave, so a layout that differs
 * between host and device fails at creation instead of giving wrong results.
 *
 * The body also calls identity(), map() and combine() as the kernels do, so a missing function or
 * a wrong signature is a build error here. The host passes run = 0: nothing is computed, but the
 * compiler cannot tell, so the calls must compile.
 *
 * Launch: one work-item. states: room for one state.
 * ============================================================================================== */
#include "lib/orx_ops.cl"

__kernel void orx_operator_probe(__global ulong *facts, __global A *states, uint run) {
  facts[0] = sizeof(T);
  facts[1] = sizeof(A);
  if (run) {
    const T element = *(__global const T *)(__global const void *)states;
    states[0] = orx_combine(ORX_IDENTITY, ORX_MAP(element, 0));
  }
}
