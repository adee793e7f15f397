/* =================================================================================================
 * thread_pools.c: threads shared by the process's contexts (thread_pools.h). Each context once
 * started its own threads for the CPU host plan, one per compute unit, and they spin for 250 us
 * after a call (threads.c). Two contexts on one CPU used in turns, as a program with a plain and
 * a profiling context does, then had twice as many threads spinning on the same cores: on PoCL
 * 5's 16 cores, calls 25-40 % slower than one context's (docs/perf/pocl5-host-grid-contexts.txt).
 * Contexts now share one set per size and spin; calls from several threads at once each go on,
 * the one that finds the set busy on its calling thread alone (orx_threads_share).
 *
 * The list is short (one entry per device size and spin policy in use) and touched only when a
 * context starts or drops its threads, under one process-wide lock.
 * ============================================================================================== */
#include "base/thread_pools.h"
#include "base/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct thread_pool {
  struct thread_pool *next;
  size_t count, acquired;
  uint64_t spin_ns;
  pid_t pid; /* the process whose threads they are: a forked child has none of them */
  orx_threads *threads;
} thread_pool;

static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
static thread_pool *pools; /* under pools_lock */

orx_threads *orx_thread_pool_acquire(size_t count, uint64_t spin_ns) {
  pthread_mutex_lock(&pools_lock);
  const pid_t pid = getpid();
  thread_pool *p = pools;
  while (p && (p->count != count || p->spin_ns != spin_ns || p->pid != pid))
    p = p->next;
  if (!p) { /* a new set: its threads first, then its entry */
    orx_threads *started = orx_threads_start(count, spin_ns);
    if (started && (p = orx_calloc(1, sizeof *p)) != NULL) {
      *p = (thread_pool){pools, count, 0, spin_ns, pid, started};
      pools = p;
    } else if (started) {
      orx_threads_stop(started);
    }
  }
  orx_threads *threads = p ? p->threads : NULL;
  if (p)
    p->acquired++;
  pthread_mutex_unlock(&pools_lock);
  return threads;
}

void orx_thread_pool_release(orx_threads *threads) {
  if (!threads)
    return;
  pthread_mutex_lock(&pools_lock);
  thread_pool **at = &pools;
  while (*at && (*at)->threads != threads)
    at = &(*at)->next;
  thread_pool *last = *at && --(*at)->acquired == 0 ? *at : NULL;
  if (last)
    *at = last->next;
  pthread_mutex_unlock(&pools_lock);
  /* Joined outside the lock, which other contexts' starts and ends need meanwhile; a forked
   * child's copy of its parent's set is left alone (its threads are not the child's). */
  if (last && last->pid == getpid()) {
    orx_threads_stop(last->threads);
    free(last);
  }
}
