/* =================================================================================================
 * threads.c: threads woken per call (threads.h). They live as long as their owner: starting a
 * thread per call costs 10-50 us, against budgets of tens of microseconds (a group of GPUs
 * beating one, a staging piece of a few milliseconds split over eight threads).
 *
 * Waking a thread blocked on a condition variable costs some 30 us more (PoCL 5's machine: the
 * CPU host plan's grid; two H100s: a device's launch started later than the calling thread could
 * enqueue it itself). So, as OpenMP's runtimes do, a thread that finishes a call spins for the
 * next one for the planner's time (orx_plan_spin_ns: 250 us unless forced) before it blocks,
 * yielding the core to any other thread that wants it; and the calling thread spins as long for the
 * call's end. Back-to-back calls (a loop of reductions of 2^28 elements on a GPU is 200 us apart)
 * then find their threads awake; a caller with host work of its own before a call can wake them
 * first (orx_threads_wake), to spin for it as after a call.
 *
 * A shared call (orx_threads_share) is work that any subset of the indices covers: the calling
 * thread does its share and then closes the call, and a thread that was not there in time (asleep,
 * or kept off its core by another process's spinning threads) skips it. A thread joins a shared
 * call through its gate, one atomic word that holds the call's number, whether it is closed and
 * how many joined; it touches the call only once joined, and the caller returns once every
 * thread that joined has returned. Normal calls wait for every thread: their threads cannot fall
 * behind, and only a shared call may be overtaken by the next.
 * ============================================================================================== */
#include "base/threads.h"
#include "base/util.h"

#include "base/clock.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

struct orx_threads {
  pthread_mutex_t lock;
  /* Held by the one caller of a shared call: contexts that share the threads (thread_pools.c)
   * may call from several threads at once. */
  pthread_mutex_t caller;
  pthread_cond_t wake, done;
  size_t count, started_count;
  uint64_t spin_ns;  /* how long a thread spins for the next call, and the caller for the end */
  pthread_t *thread; /* by index; index 0 has none */
  unsigned char *started;
  /* The call in progress: fn and arg are written before `call` counts it (release), and read
   * after it is seen (acquire); a shared call's only after its gate is passed. */
  atomic_uint_fast64_t call; /* counts calls in steps of 2, bit 0 set for a shared call */
  atomic_size_t pending;     /* normal calls: started threads that have not finished it */
  atomic_uint_fast64_t gate; /* shared calls: (call & 0xffffffff) << 32 | CLOSED | joined */
  atomic_size_t finished;    /* shared calls: threads that joined and returned */
  atomic_int caller_asleep;  /* shared calls: the caller stopped spinning and waits on `done` */
  atomic_size_t spinning;    /* threads spinning for the next call */
  atomic_uint_fast64_t wakes; /* orx_threads_wake's calls: sleeping threads spin again */
  atomic_int stopping;
  orx_thread_task fn;
  void *arg;
};

#define SHARED_CALL 1u
#define GATE_CLOSED ((uint64_t)1 << 31)
#define GATE_JOINED ((uint64_t)GATE_CLOSED - 1)
#define GATE_OF(call) (((call)&0xffffffffu) << 32)

typedef struct thread_start {
  orx_threads *t;
  size_t index;
} thread_start;

/* Spins until done(t, value) or t->spin_ns have passed; whether done. */
static int spin_until(orx_threads *t, int (*done)(orx_threads *, uint64_t), uint64_t value) {
  if (t->spin_ns == 0)
    return done(t, value);
  const uint64_t start = orx_now_ns();
  for (unsigned i = 0;; i++) {
    if (done(t, value))
      return 1;
    if (i % 64 == 63) {
      if (orx_now_ns() - start >= t->spin_ns)
        return 0;
      sched_yield();
    }
  }
}

static int call_after(orx_threads *t, uint64_t seen) {
  return atomic_load_explicit(&t->call, memory_order_acquire) != seen ||
         atomic_load_explicit(&t->stopping, memory_order_relaxed);
}

static int all_done(orx_threads *t, uint64_t unused) {
  (void)unused;
  return atomic_load_explicit(&t->pending, memory_order_acquire) == 0;
}

static int shared_done(orx_threads *t, uint64_t joined) {
  return atomic_load_explicit(&t->finished, memory_order_acquire) == joined;
}

/* Joins shared call `call` unless its caller closed it (or has moved on): whether it did. */
static int join(orx_threads *t, uint64_t call) {
  uint64_t gate = atomic_load_explicit(&t->gate, memory_order_relaxed);
  do {
    if ((gate & ~(GATE_CLOSED | GATE_JOINED)) != GATE_OF(call) || (gate & GATE_CLOSED))
      return 0;
  } while (!atomic_compare_exchange_weak_explicit(&t->gate, &gate, gate + 1, memory_order_acquire,
                                                  memory_order_relaxed));
  return 1;
}

/* Signals a caller that stopped spinning (under the lock, so that the caller's test and wait
 * cannot fall between the count and the signal). */
static void signal_done(orx_threads *t) {
  pthread_mutex_lock(&t->lock);
  pthread_cond_signal(&t->done);
  pthread_mutex_unlock(&t->lock);
}

static void *thread_main(void *p) {
  orx_threads *t = ((thread_start *)p)->t;
  const size_t index = ((thread_start *)p)->index;
  free(p);
  uint64_t seen = 0;
  for (;;) {
    atomic_fetch_add(&t->spinning, 1);
    const int awake = spin_until(t, call_after, seen);
    atomic_fetch_sub(&t->spinning, 1);
    if (!awake) {
      const uint64_t wakes = atomic_load(&t->wakes);
      pthread_mutex_lock(&t->lock);
      while (!call_after(t, seen) && atomic_load(&t->wakes) == wakes)
        pthread_cond_wait(&t->wake, &t->lock);
      pthread_mutex_unlock(&t->lock);
      if (!call_after(t, seen))
        continue; /* woken ahead of a call: spin for it */
    }
    if (atomic_load(&t->stopping))
      break;
    seen = atomic_load_explicit(&t->call, memory_order_acquire);
    if (seen & SHARED_CALL) {
      if (!join(t, seen))
        continue; /* closed already: the caller did its work; spin for the next call */
      t->fn(t->arg, index);
      /* Signalled only to a caller that sleeps: every thread taking the lock at each call's end
       * queued them there. Sequentially consistent, the count and the caller's flag: either this
       * thread sees the flag, or the caller, after raising it, sees the count. */
      atomic_fetch_add(&t->finished, 1);
      if (atomic_load(&t->caller_asleep))
        signal_done(t);
      continue;
    }
    t->fn(t->arg, index);
    /* The last one out wakes a caller that stopped spinning. */
    if (atomic_fetch_sub_explicit(&t->pending, 1, memory_order_acq_rel) == 1)
      signal_done(t);
  }
  return NULL;
}

orx_threads *orx_threads_start(size_t count, uint64_t spin_ns) {
  orx_threads *t = orx_calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->count = count ? count : 1;
  t->spin_ns = spin_ns;
  t->thread = orx_calloc(t->count, sizeof *t->thread);
  t->started = orx_calloc(t->count, 1);
  if (!t->thread || !t->started) {
    free(t->thread);
    free(t->started);
    free(t);
    return NULL;
  }
  pthread_mutex_init(&t->lock, NULL);
  pthread_mutex_init(&t->caller, NULL);
  pthread_cond_init(&t->wake, NULL);
  pthread_cond_init(&t->done, NULL);
  atomic_init(&t->call, 0);
  atomic_init(&t->pending, 0);
  atomic_init(&t->gate, 0);
  atomic_init(&t->finished, 0);
  atomic_init(&t->caller_asleep, 0);
  atomic_init(&t->spinning, 0);
  atomic_init(&t->wakes, 0);
  atomic_init(&t->stopping, 0);
  for (size_t i = 1; i < t->count; i++) {
    thread_start *start = orx_malloc(sizeof *start);
    if (!start)
      continue;
    *start = (thread_start){t, i};
    t->started[i] = pthread_create(&t->thread[i], NULL, thread_main, start) == 0;
    if (!t->started[i])
      free(start);
    t->started_count += t->started[i];
  }
  return t;
}

size_t orx_threads_count(const orx_threads *t) { return t->count; }

int orx_threads_awake(orx_threads *t) {
  return atomic_load_explicit(&t->spinning, memory_order_relaxed) == t->started_count;
}

void orx_threads_wake(orx_threads *t) {
  if (orx_threads_awake(t))
    return;
  pthread_mutex_lock(&t->lock);
  atomic_fetch_add(&t->wakes, 1);
  pthread_cond_broadcast(&t->wake);
  pthread_mutex_unlock(&t->lock);
}

/* Publishes the next call (shared or not) and wakes sleeping threads for it. */
static void publish(orx_threads *t, orx_thread_task fn, void *arg, unsigned shared) {
  pthread_mutex_lock(&t->lock);
  t->fn = fn;
  t->arg = arg;
  const uint64_t call =
      ((atomic_load_explicit(&t->call, memory_order_relaxed) | SHARED_CALL) + 1) | shared;
  if (shared) {
    atomic_store_explicit(&t->finished, 0, memory_order_relaxed);
    atomic_store_explicit(&t->gate, GATE_OF(call), memory_order_relaxed);
  } else {
    atomic_store_explicit(&t->pending, t->started_count, memory_order_relaxed);
  }
  atomic_store_explicit(&t->call, call, memory_order_release);
  pthread_cond_broadcast(&t->wake);
  pthread_mutex_unlock(&t->lock);
}

void orx_threads_share(orx_threads *t, orx_thread_task fn, void *arg) {
  /* A call from another thread holds them: this one's work is covered by its caller alone, as
   * when the threads are late (waiting for the other call to end would idle this core). */
  if (t->started_count == 0 || pthread_mutex_trylock(&t->caller) != 0) {
    fn(arg, 0);
    return;
  }
  publish(t, fn, arg, SHARED_CALL);
  fn(arg, 0);
  const uint64_t joined =
      atomic_fetch_or_explicit(&t->gate, GATE_CLOSED, memory_order_acq_rel) & GATE_JOINED;
  if (!spin_until(t, shared_done, joined)) {
    pthread_mutex_lock(&t->lock);
    atomic_store(&t->caller_asleep, 1);
    while (atomic_load(&t->finished) != joined)
      pthread_cond_wait(&t->done, &t->lock);
    atomic_store(&t->caller_asleep, 0);
    pthread_mutex_unlock(&t->lock);
  }
  pthread_mutex_unlock(&t->caller);
}

void orx_threads_run(orx_threads *t, orx_thread_task fn, void *arg) {
  publish(t, fn, arg, 0);
  /* Index 0 here, then any index whose thread could not start. */
  for (size_t i = 0; i < t->count; i++)
    if (!t->started[i])
      fn(arg, i);
  if (spin_until(t, all_done, 0))
    return;
  pthread_mutex_lock(&t->lock);
  while (!all_done(t, 0))
    pthread_cond_wait(&t->done, &t->lock);
  pthread_mutex_unlock(&t->lock);
}

void orx_threads_stop(orx_threads *t) {
  if (!t)
    return;
  pthread_mutex_lock(&t->lock);
  atomic_store(&t->stopping, 1);
  pthread_cond_broadcast(&t->wake);
  pthread_mutex_unlock(&t->lock);
  for (size_t i = 1; i < t->count; i++)
    if (t->started[i])
      pthread_join(t->thread[i], NULL);
  pthread_cond_destroy(&t->wake);
  pthread_cond_destroy(&t->done);
  pthread_mutex_destroy(&t->caller);
  pthread_mutex_destroy(&t->lock);
  free(t->thread);
  free(t->started);
  free(t);
}
