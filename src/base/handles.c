/* =================================================================================================
 * handles.c: handles' blocks and their pools (handles.h).
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* syscall in strict C11 */
#include "base/handles.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<linux/membarrier.h>)
#include <linux/membarrier.h>
#define ORX_HAVE_MEMBARRIER 1
#endif
#endif
#endif

#include "base/util.h"

static struct {
  pthread_mutex_t lock;
  orx_handle *free;
} pools[ORX_HANDLE_KINDS] = {
    {PTHREAD_MUTEX_INITIALIZER, NULL},
    {PTHREAD_MUTEX_INITIALIZER, NULL},
    {PTHREAD_MUTEX_INITIALIZER, NULL},
    {PTHREAD_MUTEX_INITIALIZER, NULL},
};
_Static_assert(ORX_HANDLE_KINDS == 4, "a pool per kind");

void *orx_handle_new(orx_handle_kind kind, size_t size) {
  pthread_mutex_lock(&pools[kind].lock);
  orx_handle *h = pools[kind].free;
  if (h)
    pools[kind].free = h->next_free;
  pthread_mutex_unlock(&pools[kind].lock);
  if (h) {
    /* The header stays: its lock may be held by a call that is about to find the block dead. */
    memset((char *)h + sizeof *h, 0, size - sizeof *h);
  } else {
    if (!(h = orx_calloc(1, size)))
      return NULL;
    if (kind == ORX_HANDLE_CONTEXT)
      orx_lock_bias(&h->lock);
  }
  h->next_free = NULL;
  atomic_store_explicit(&h->state, orx_handle_state_of(kind, ORX_HANDLE_LIVE),
                        memory_order_release);
  return h;
}

int orx_handle_kill(void *handle, orx_handle_kind kind, int orphan) {
  if (!handle)
    return 0;
  orx_handle *h = handle;
  unsigned live = orx_handle_state_of(kind, ORX_HANDLE_LIVE);
  /* Read first: a stray pointer may be to memory that a locked instruction could not write. */
  if (atomic_load_explicit(&h->state, memory_order_relaxed) != live)
    return 0;
  return atomic_compare_exchange_strong_explicit(
      &h->state, &live, orphan ? orx_handle_state_of(kind, ORX_HANDLE_ORPHAN) : 0u,
      memory_order_acq_rel, memory_order_relaxed);
}

void orx_handle_free(void *handle, orx_handle_kind kind) {
  orx_handle *h = handle;
  atomic_store_explicit(&h->state, 0u, memory_order_release);
  pthread_mutex_lock(&pools[kind].lock);
  h->next_free = pools[kind].free;
  pools[kind].free = h;
  pthread_mutex_unlock(&pools[kind].lock);
}

void orx_lock_wait(orx_lock *lock) {
  /* Marks the lock as waited for, and sleeps while it is held; whoever gives it wakes one. */
  for (unsigned seen = atomic_exchange_explicit(&lock->word, 2u, memory_order_acquire); seen;
       seen = atomic_exchange_explicit(&lock->word, 2u, memory_order_acquire)) {
#if defined(__linux__)
    syscall(SYS_futex, &lock->word, FUTEX_WAIT_PRIVATE, 2u, NULL, NULL, 0);
#else
    sched_yield();
#endif
  }
}

void orx_lock_wake(orx_lock *lock) {
#if defined(__linux__)
  syscall(SYS_futex, &lock->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
  (void)lock;
#endif
}

/* ---- The lock's bias (handles.h) ---------------------------------------------------------- */

#if defined(__SANITIZE_THREAD__)
#define ORX_BIAS_POSSIBLE 0 /* ThreadSanitizer does not know membarrier's fences */
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ORX_BIAS_POSSIBLE 0
#endif
#endif
#if !defined(ORX_BIAS_POSSIBLE) && defined(ORX_HAVE_MEMBARRIER) && defined(SYS_membarrier)
#define ORX_BIAS_POSSIBLE 1
#endif
#if !defined(ORX_BIAS_POSSIBLE)
#define ORX_BIAS_POSSIBLE 0
#endif

#if ORX_BIAS_POSSIBLE
static int bias_available;
static pthread_once_t bias_once = PTHREAD_ONCE_INIT;
/* The process registers once for the expedited membarrier (the kernel then interrupts only the
 * CPUs that run its threads); a kernel or a seccomp filter without it leaves the bias off. */
static void register_membarrier(void) {
  bias_available =
      syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 ? 1 : 0;
}
#endif

void orx_lock_bias(orx_lock *lock) {
#if ORX_BIAS_POSSIBLE
  pthread_once(&bias_once, register_membarrier);
  if (!bias_available)
    return;
  atomic_store_explicit(&lock->owner, orx_thread_token(), memory_order_relaxed);
  atomic_store_explicit(&lock->biased, ORX_BIAS_ON, memory_order_relaxed);
#else
  (void)lock;
#endif
}

/* Waits a while, then longer: what is waited for (the owner's call) may take milliseconds. */
static void pause_for(unsigned round) {
  if (round < 64) {
    sched_yield();
    return;
  }
  const struct timespec wait = {0, 50 * 1000};
  nanosleep(&wait, NULL);
}

void orx_lock_revoke(orx_lock *lock) {
  unsigned on = ORX_BIAS_ON;
  if (atomic_compare_exchange_strong_explicit(&lock->biased, &on, ORX_BIAS_REVOKING,
                                              memory_order_seq_cst, memory_order_acquire)) {
#if ORX_BIAS_POSSIBLE
    /* Registered: orx_lock_bias turned the bias on only then; it cannot fail. */
    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
#endif
    for (unsigned round = 0; atomic_load_explicit(&lock->inside, memory_order_acquire); round++)
      pause_for(round);
    /* Release: what the owner did by the bias happens before any later holder's call. */
    atomic_store_explicit(&lock->biased, ORX_BIAS_OFF, memory_order_release);
    return;
  }
  for (unsigned round = 0; atomic_load_explicit(&lock->biased, memory_order_acquire); round++)
    pause_for(round);
}
