/* =================================================================================================
 * handles.c: handles' blocks and their pools (handles.h).
 * ============================================================================================== */
#define _DEFAULT_SOURCE /* syscall in strict C11 */
#include "base/handles.h"

#include <pthread.h>
#include <string.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#include <sched.h>
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
