/* =================================================================================================
 * host_combine.c: states combined on the calling thread (host_combine.h). One group of the host
 * kernel's grid, one work-item: its chains and their order depend on the count alone, so a
 * combine's bits do too.
 * ============================================================================================== */
#include "exec/host_combine.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/half.h"
#include "base/ids.h"
#include "exec/memory.h"

int orx_call_is_scalar(const orx_op_call *call) {
  return call->builtin >= 0 && !orx_operator_is_state(&call->op) &&
         call->state_bytes == call->elem && call->result_bytes == call->elem;
}

/* 16-bit elements under a scalar built-in: f32 states, which the f32 kernel combines as its
 * elements; MIN and MAX narrow the result back, exactly (it is one of the elements). */
static int narrow_scalar(const orx_op_call *call) {
  return orx_type_is_narrow(call->type) && call->builtin >= 0 && !orx_operator_is_state(&call->op);
}

const orx_host_kernel *orx_host_combiner(const orx_op_call *call, int to_state) {
  if (call->builtin < 0)
    return NULL;
  const int scalar = orx_call_is_scalar(call) || narrow_scalar(call);
  const orx_stage stage = scalar ? ORX_STAGE_WHOLE : to_state ? ORX_STAGE_MERGE : ORX_STAGE_FINAL;
  /* State operators on 16-bit elements: their own kernels, which read f32 states and store
   * results of elements narrow (host_kernel.inc). */
  const ocl_reduce_type type = !scalar && orx_type_is_narrow(call->type)
                                   ? call->type
                                   : orx_compute_type(call->builtin, call->type);
  const orx_host_kernel *k = orx_host_kernel_of((unsigned)call->builtin, type, stage);
  if (!k || !k->reduce || (!scalar && k->accumulator_bytes != call->state_bytes))
    return NULL;
  return k;
}

ocl_reduce_status orx_host_combine(const orx_host_kernel *k, const orx_op_call *call, int to_state,
                                   const void *states, size_t count, void *out) {
  const size_t out_bytes = to_state ? call->state_bytes : call->result_bytes;
  alignas(16) unsigned char value[ORX_RESULT_SLOT_BYTES];
  const int narrow = narrow_scalar(call);
  if (count == 0 && (orx_call_is_scalar(call) || narrow)) {
    /* As a device's final stage: the contract's identity bits (of the f32 state, to a state). */
    orx_write_identity(call->builtin, narrow && to_state ? OCL_REDUCE_F32 : call->type, value);
    memcpy(out, value, out_bytes);
    return OCL_REDUCE_OK;
  }
  /* The kernel reads states as its accumulators, aligned to 16. */
  const size_t bytes = count * call->state_bytes;
  void *copy = NULL;
  if ((uintptr_t)states % 16 != 0) {
    if (!(copy = orx_aligned_alloc(16, (bytes + 15) / 16 * 16)))
      return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY,
                      "%s: out of host memory for an aligned copy of %zu states", orx_call_name(),
                      count);
    states = memcpy(copy, states, bytes);
  }
  k->reduce(states, NULL, count, 0, NULL, NULL, 0, 1, value);
  if (narrow && !to_state && out_bytes == 2) {
    float f;
    memcpy(&f, value, sizeof f);
    const uint16_t h = orx_half_from_f32(call->type, f);
    memcpy(value, &h, 2);
  }
  memcpy(out, value, out_bytes);
  free(copy);
  return OCL_REDUCE_OK;
}
