/* =================================================================================================
 * handles.h: the memory of the handles the library gives out (contexts, buffers, user operators,
 * programs), and whether one is live (handles.c). Every handle begins with an orx_handle, whose
 * state a call reads before anything else of it: a destroyed handle, one destroyed twice, or one
 * of another kind gets OCL_REDUCE_ERROR_MISUSE, as SQLite answers SQLITE_MISUSE, and a pointer
 * the library never made gets it too wherever its first bytes can be read.
 *
 * A handle's memory never goes back to malloc: a destroyed handle's block waits in a pool of its
 * kind for the next handle, so the check above never reads freed memory, costs one load (a
 * registry under a lock cost some 60 ns a call, a tenth of a 2^10 reduction on a CPU), and the
 * memory kept is the most handles of each kind that were alive at once. A block that the pool
 * has given to a new handle of the same kind is that handle: no check can tell the two apart.
 * ============================================================================================== */
#ifndef ORX_HANDLES_H
#define ORX_HANDLES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef enum orx_handle_kind {
  ORX_HANDLE_CONTEXT,
  ORX_HANDLE_BUFFER,
  ORX_HANDLE_OPERATOR,
  ORX_HANDLE_PROGRAM,
  ORX_HANDLE_KINDS
} orx_handle_kind;

/* The calling thread's token: its thread pointer (one instruction), or pthread_self where the
 * compiler has no builtin for it. No two live threads share one; a thread that starts after
 * another has ended may take its token over. (Not a thread-local variable of the library's own:
 * the initial-exec model that would make one free puts all of the library's thread-local data in
 * static TLS, and dlopen then fails to load it.) */
#if defined(__has_builtin)
#if __has_builtin(__builtin_thread_pointer)
#define ORX_THREAD_POINTER 1
#endif
#endif
static inline uintptr_t orx_thread_token(void) {
#if defined(ORX_THREAD_POINTER)
  return (uintptr_t)__builtin_thread_pointer();
#else
  return (uintptr_t)pthread_self();
#endif
}

/* A context's call lock: one word, 0 free, 1 held, 2 held with waiters (Drepper's "mutex2"),
 * waiters sleeping in the kernel (futex); and a bias for the thread that made the block (lock
 * reservation: Kawachiya, Koseki & Onodera, OOPSLA 2002), which enters by a flag of its own, with
 * no locked instruction. Uncontended, the word's compare-and-swap and exchange cost 20-22 ns a
 * call on the H200 machine's Xeon, 3-5 % of a 2^10 reduction on PoCL's host path; the biased
 * entry 6-8 ns, against 5-7 ns with no lock (issue 54).
 *
 * The first time another thread takes the lock, it revokes the bias for good (orx_lock_revoke):
 * it marks it REVOKING, makes every thread of the process pass a full fence (membarrier), waits
 * until the owner is not `inside`, and marks it off; no thread but the owner passes before. The
 * owner sets `inside`, then reads `biased` again with only a compiler barrier between: the
 * membarrier turns that into a full fence, so either the owner sees the bias going or the
 * revoker sees it inside (the asymmetric Dekker pattern of userspace RCU). The bias is on only
 * where membarrier is (Linux 4.14 or later) and not under ThreadSanitizer, which does not know
 * it; a block from the pool keeps the bias of its first owner, revoked or not. Zero is free and
 * unbiased: a block needs no initialization. */
enum { ORX_BIAS_OFF = 0, ORX_BIAS_ON = 1, ORX_BIAS_REVOKING = 2 };
typedef struct orx_lock {
  atomic_uint word;
  atomic_uint biased;     /* ORX_BIAS_*: while ON, `owner` may enter by `inside` */
  atomic_uint inside;     /* 1 while the owner is in by the bias; written by the owner only */
  atomic_uintptr_t owner; /* the token of the thread that made the block */
} orx_lock;
void orx_lock_wait(orx_lock *lock);
void orx_lock_wake(orx_lock *lock);
/* Returns once the bias is off (revoking it, or waiting for the thread that does). */
void orx_lock_revoke(orx_lock *lock);
/* Biases a fresh lock to the calling thread where the bias is available. */
void orx_lock_bias(orx_lock *lock);

static inline int orx_lock_owned_here(const orx_lock *lock) {
  return atomic_load_explicit(&lock->owner, memory_order_relaxed) == orx_thread_token();
}
static inline void orx_lock_take(orx_lock *lock) {
  const unsigned bias = atomic_load_explicit(&lock->biased, memory_order_acquire);
  if (bias != ORX_BIAS_OFF) {
    if (bias == ORX_BIAS_ON && orx_lock_owned_here(lock)) {
      atomic_store_explicit(&lock->inside, 1u, memory_order_relaxed);
      atomic_signal_fence(memory_order_seq_cst);
      if (atomic_load_explicit(&lock->biased, memory_order_relaxed) == ORX_BIAS_ON)
        return;
      atomic_store_explicit(&lock->inside, 0u, memory_order_release);
    }
    orx_lock_revoke(lock);
  }
  unsigned free_word = 0;
  if (!atomic_compare_exchange_strong_explicit(&lock->word, &free_word, 1u, memory_order_acquire,
                                               memory_order_relaxed))
    orx_lock_wait(lock);
}
static inline void orx_lock_give(orx_lock *lock) {
  /* Only the owner ever sets `inside`, and only while in by the bias. */
  if (orx_lock_owned_here(lock) && atomic_load_explicit(&lock->inside, memory_order_relaxed)) {
    atomic_store_explicit(&lock->inside, 0u, memory_order_release);
    return;
  }
  if (atomic_exchange_explicit(&lock->word, 0u, memory_order_release) == 2u)
    orx_lock_wake(lock);
}

/* The first member of every handle. */
typedef struct orx_handle {
  atomic_uint state; /* orx_handle_state_of(kind, ...) while live; 0 in the pool */
  /* A context's call lock (exec/entry.h): kept through the pool, so that a call that found the
   * handle live and waits for the lock never waits on freed memory. */
  orx_lock lock;
  struct orx_handle *next_free;
} orx_handle;

/* A handle's states: live; destroyed by the application but kept by what was made on it (a
 * context's buffers, programs and pinned memory); and, once the last of those is gone, in the
 * pool (state 0). */
#define ORX_HANDLE_LIVE 0x6f72780u
#define ORX_HANDLE_ORPHAN 0x6f72790u
static inline unsigned orx_handle_state_of(orx_handle_kind kind, unsigned which) {
  return which + (unsigned)kind;
}

/* A zeroed block of `size` bytes for a new handle of `kind` (every handle of a kind has one
 * size), live; NULL when out of host memory. */
void *orx_handle_new(orx_handle_kind kind, size_t size);
/* Marks a live handle destroyed by the application: 1 for the one call that did, 0 when it was
 * not live (a second destroy, another kind, a stray pointer: nothing to do). `orphan`: what was
 * made on it keeps it (ORPHAN) until orx_handle_free. */
int orx_handle_kill(void *handle, orx_handle_kind kind, int orphan);
/* Gives the block back to its kind's pool. */
void orx_handle_free(void *handle, orx_handle_kind kind);

/* Whether handle is live as kind (orphans too when `orphans`). One acquire load. */
static inline int orx_handle_live(const void *handle, orx_handle_kind kind, int orphans) {
  if (!handle)
    return 0;
  const unsigned state =
      atomic_load_explicit(&((const orx_handle *)handle)->state, memory_order_acquire);
  return state == orx_handle_state_of(kind, ORX_HANDLE_LIVE) ||
         (orphans && state == orx_handle_state_of(kind, ORX_HANDLE_ORPHAN));
}

#endif /* ORX_HANDLES_H */
