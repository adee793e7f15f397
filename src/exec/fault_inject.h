/* =================================================================================================
 * fault_inject.h: faults a device or driver produces, on demand, for tests (fault_inject.c). Once
 * armed on a context, the n-th backend call of one kind from then on fails as the real one
 * would: a device allocation with OUT_OF_DEVICE_MEMORY, a copy, launch or wait with
 * ERROR_BACKEND. The context's operations go through a copy of its backend's table that counts
 * the calls; unarmed contexts (every application's) never see it. tests/test_faults.c sweeps n
 * over every site of each call.
 * ============================================================================================== */
#ifndef ORX_FAULT_INJECT_H
#define ORX_FAULT_INJECT_H

#include <stdint.h>

#include "ocl_reduce.h"

typedef enum orx_fault_kind {
  ORX_FAULT_ALLOC,  /* alloc, alloc_host_visible, alloc_pinned */
  ORX_FAULT_WRITE,  /* copies into device memory: from the host, blocking or enqueued, and on it */
  ORX_FAULT_READ,   /* device to host copies, blocking or enqueued */
  ORX_FAULT_LAUNCH, /* kernel launches */
  ORX_FAULT_WAIT,   /* finish, enqueue_marker, wait_marker: the event and wait calls */
  ORX_FAULT_KINDS
} orx_fault_kind;

/* The n-th call of `kind` from now fails (n >= 1), once; n == 0 disarms. Returns the number of
 * calls of that kind since the previous arming: a sweep over n has passed every site of a call
 * once the call makes fewer calls than n. INTERNAL where no fault table can be made. */
ocl_reduce_status orx_fault_arm(ocl_reduce_context *ctx, orx_fault_kind kind, uint64_t n,
                                uint64_t *calls_before);
/* Whether the armed fault has struck since it was armed. */
int orx_fault_struck(const ocl_reduce_context *ctx);
/* Frees the context's fault table (orx_context_release). */
void orx_fault_forget(ocl_reduce_context *ctx);

#endif /* ORX_FAULT_INJECT_H */
