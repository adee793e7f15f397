/* =================================================================================================
 * entry.h: how a public call enters a context (entry.c). Contexts may be shared by threads: a
 * call checks that its context is live (base/handles.h: a destroyed one is MISUSE, its block
 * never freed), takes the context's lock for the whole call, checks again under it, and lets go
 * at the end. Calls on one context therefore run one at a time; calls on different contexts run
 * at once. A destroy waits for the call in flight (it takes the lock before its teardown). On
 * the thread that made the context, the check and the biased lock cost 6-11 ns a call in all
 * (the H200 machine's host; docs/perf/h200-shared-context-call-cost.txt). The lock is not
 * recursive: no public function calls another on the same context.
 * ============================================================================================== */
#ifndef ORX_ENTRY_H
#define ORX_ENTRY_H

#include <stdint.h>

#include "base/errors.h"

/* Enters `function` on ctx: INVALID_ARGUMENT for NULL, MISUSE when ctx is not a live context
 * (both recorded for the thread); else OK, holding ctx until orx_context_leave. */
ocl_reduce_status orx_context_enter(ocl_reduce_context *ctx, const char *function);
void orx_context_leave(ocl_reduce_context *ctx);
/* As orx_context_enter, also for a context the application destroyed that something made on it
 * keeps (ocl_reduce_host_free: pinned memory outlives its context). */
ocl_reduce_status orx_context_enter_destroyed(ocl_reduce_context *ctx, const char *function);

/* Enters `function` on ctx for the rest of the calling block: returns the failure from the
 * caller, else leaves when the block ends, after a return's value is computed, by whichever
 * return (GCC's and Clang's cleanup attribute: every compiler the library builds with). */
void orx_context_leave_scope(ocl_reduce_context **entered);
#define ORX_ENTER(ctx, function) ORX_ENTER_AS(ctx, function, orx_context_enter)
#define ORX_ENTER_AS(ctx, function, enter)                                                         \
  ocl_reduce_context *orx_entered_ __attribute__((cleanup(orx_context_leave_scope))) = NULL;       \
  do {                                                                                             \
    ocl_reduce_context *orx_entering_ = (ocl_reduce_context *)(uintptr_t)(ctx);                    \
    ORX_FORWARD(enter(orx_entering_, (function)));                                                 \
    orx_entered_ = orx_entering_;                                                                  \
  } while (0)

/* Checks that buf is a live buffer, and reads its context (NULL for a group's buffer) into
 * *owner: MISUSE naming `function` and `name`, recorded on ctx (NULL: the
 * thread), when it is not. */
ocl_reduce_status orx_buffer_check(ocl_reduce_context *ctx, const ocl_reduce_buffer *buf,
                                   const char *function, const char *name,
                                   ocl_reduce_context **owner);

/* Enters a call on buf alone (write, read, native): checks it, takes its context's lock
 * (*owner: the context; NULL for a group's buffer), and checks it again under the lock, where no
 * destroy can be half done. orx_buffer_leave(*owner) after an OK. */
ocl_reduce_status orx_buffer_enter(const ocl_reduce_buffer *buf, const char *function,
                                   ocl_reduce_context **owner);
void orx_buffer_leave(ocl_reduce_context *owner);

#endif /* ORX_ENTRY_H */
