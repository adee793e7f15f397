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

/* A lock of one word: 0 free, 1 held, 2 held with waiters (Drepper's "mutex2"), inline for the
 * uncontended case, which costs one compare-and-swap and one exchange (some 8 ns here, against
 * some 13 ns for pthread_mutex_lock and _unlock), on a call that may take half a microsecond;
 * waiters sleep in the kernel (futex). Zero is free: a block needs no initialization. */
typedef struct orx_lock {
  atomic_uint word;
} orx_lock;
void orx_lock_wait(orx_lock *lock);
void orx_lock_wake(orx_lock *lock);
static inline void orx_lock_take(orx_lock *lock) {
  unsigned free_word = 0;
  if (!atomic_compare_exchange_strong_explicit(&lock->word, &free_word, 1u, memory_order_acquire,
                                               memory_order_relaxed))
    orx_lock_wait(lock);
}
static inline void orx_lock_give(orx_lock *lock) {
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
