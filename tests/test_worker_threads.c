/* =================================================================================================
 * test_worker_threads.c: the library's fixed sets of threads (src/base/threads.h), which groups,
 * staging and the CPU host grid run their calls on. Every call runs each index exactly once and
 * returns after all have run: back to back (the threads spinning for the next call), after pauses
 * longer than their spin (asleep, woken), between shared calls, and at stop in either state. A
 * shared call (orx_threads_share) covers its pieces exactly once whoever comes, and no thread
 * touches it after it returned. orx_threads_awake turns true after a call, and after
 * orx_threads_wake without one, and false once the spin has passed. Shared calls from several
 * threads at once on one set, and the process's sets shared by contexts (thread_pools.c). A
 * shared call whose caller sleeps still ends. The claims of the host grid (claims.h): contiguous
 * ranges, each index's first claim its own range's first item, every item claimed once, alone and
 * shared. Needs no OpenCL device.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/claims.h"
#include "base/thread_pools.h"
#include "support/fixture.h"

enum { THREADS = 4, CALLS = 3000 };
#define SPIN_NS 250000u /* the planner's */

typedef struct tally {
  atomic_uint runs[THREADS]; /* per index, in all */
  unsigned call;             /* the call in progress, written between calls */
  atomic_uint seen[THREADS]; /* per index: the last call it ran */
  atomic_uint wrong;         /* an index that ran a call twice, or saw another call's number */
} tally;

static void count(void *arg, size_t index) {
  tally *t = arg;
  atomic_fetch_add(&t->runs[index], 1);
  if (atomic_exchange(&t->seen[index], t->call) == t->call)
    atomic_fetch_add(&t->wrong, 1);
}

/* A shared call's work: PIECES pieces claimed one by one, each counted; `open` while the call
 * is in progress, so that a thread that runs it after it returned shows. */
enum { PIECES = 64 };
typedef struct shared_work {
  atomic_uint next;
  atomic_uint done[PIECES];
  atomic_int open;
  atomic_uint late;    /* a thread in the call after it returned */
  atomic_uint helpers; /* pieces claimed by indices other than the caller's, in all */
} shared_work;

static void claim_pieces(void *arg, size_t index) {
  shared_work *w = arg;
  if (!atomic_load(&w->open))
    atomic_fetch_add(&w->late, 1);
  for (unsigned p; (p = atomic_fetch_add(&w->next, 1)) < PIECES;) {
    atomic_fetch_add(&w->done[p], 1);
    if (index != 0)
      atomic_fetch_add(&w->helpers, 1);
  }
  if (!atomic_load(&w->open))
    atomic_fetch_add(&w->late, 1);
}

static shared_work share_work;

/* One shared call of w: the first piece that did not run exactly once, or PIECES. */
static int shared_call_of(orx_threads *threads, shared_work *w) {
  atomic_store(&w->next, 0);
  for (int p = 0; p < PIECES; p++)
    atomic_store(&w->done[p], 0);
  atomic_store(&w->open, 1);
  orx_threads_share(threads, claim_pieces, w);
  atomic_store(&w->open, 0);
  int p = 0;
  while (p < PIECES && atomic_load(&w->done[p]) == 1)
    p++;
  return p;
}

/* One shared call; fails unless each piece ran once and none ran late. */
static void one_shared_call(orx_threads *threads) {
  const int p = shared_call_of(threads, &share_work);
  if (p < PIECES)
    fail_msg("a shared call ran piece %d %u times", p, atomic_load(&share_work.done[p]));
}

static void pause_us(unsigned us) {
  struct timespec ts = {0, (long)us * 1000};
  nanosleep(&ts, NULL);
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Polls `awake` until it equals want, up to 2 s, yielding in between; `nudge` (a call)
 * again every millisecond, since the threads spin for a fraction of one and a loaded machine may
 * not run this thread then. Whether it did. */
static int becomes(orx_threads *threads, int want, void (*nudge)(orx_threads *)) {
  const double until = seconds() + 2.0;
  double next = seconds() + 1e-3;
  while (seconds() < until) {
    if (!!orx_threads_awake(threads) == want)
      return 1;
    if (nudge && seconds() > next) {
      nudge(threads);
      next = seconds() + 1e-3;
    }
    sched_yield();
  }
  return 0;
}

static tally call_tally;

static void one_call(orx_threads *threads) {
  call_tally.call++;
  orx_threads_run(threads, count, &call_tally);
}

/* Every index once per call, with the planner's spin or none (OCL_REDUCE_POLICY spin_us=0). */
static void every_index_once(uint64_t spin_ns) {
  orx_threads *threads = orx_threads_start(THREADS, spin_ns);
  assert_non_null(threads);
  assert_int_equal(orx_threads_count(threads), THREADS);
  tally *t = calloc(1, sizeof *t);
  assert_non_null(t);
  for (unsigned c = 1; c <= CALLS; c++) {
    t->call = c;
    orx_threads_run(threads, count, t);
    for (size_t i = 0; i < THREADS; i++)
      if (atomic_load(&t->runs[i]) != c)
        fail_msg("call %u: index %zu has run %u times", c, i, atomic_load(&t->runs[i]));
    /* Now and then past the spin, so that the threads sleep; shared calls in between, while
     * they spin or while they sleep (woken, they come late for it: they must not run it, nor
     * this call again, and the next call must still wait for every index). */
    if (c % 500 == 0)
      pause_us(2000);
    if (c % 3 == 0)
      one_shared_call(threads);
    if (c % 70 == 0) {
      pause_us(2000);
      one_shared_call(threads);
      pause_us(100);
    }
  }
  assert_int_equal(atomic_load(&t->wrong), 0);
  assert_int_equal(atomic_load(&share_work.late), 0);
  orx_threads_stop(threads);
  free(t);
}

static void test_every_index_runs_once_per_call(void **state) {
  (void)state;
  every_index_once(SPIN_NS);
}

static void test_every_index_runs_once_per_call_without_spinning(void **state) {
  (void)state;
  every_index_once(0);
}

/* One thread beside the caller: with more than the machine's cores, their spins after a poke
 * need not overlap (awake means every thread spins). */
static void test_awake_after_a_call_asleep_after_the_spin(void **state) {
  (void)state;
  orx_threads *threads = orx_threads_start(2, SPIN_NS);
  assert_non_null(threads);
  one_call(threads);
  if (!becomes(threads, 1, one_call))
    fail_msg("the threads did not spin after calls");
  if (!becomes(threads, 0, NULL))
    fail_msg("the threads still spin 2 s after a call");
  if (!becomes(threads, 1, one_shared_call))
    fail_msg("shared calls did not wake the threads");
  if (!becomes(threads, 0, NULL))
    fail_msg("the threads still spin 2 s after a shared call");
  if (!becomes(threads, 1, orx_threads_wake))
    fail_msg("orx_threads_wake did not wake the threads");
  if (!becomes(threads, 0, NULL))
    fail_msg("woken threads still spin 2 s later, without a call");
  const unsigned before = atomic_load(&call_tally.runs[1]);
  orx_threads_wake(threads);
  one_call(threads); /* at once after a wake */
  assert_int_equal(atomic_load(&call_tally.runs[1]), before + 1);
  orx_threads_stop(threads); /* while they may still spin */
  assert_int_equal(atomic_load(&call_tally.wrong), 0);
}

/* Shared calls back to back, and after pauses past the spin: every piece runs once and no thread
 * is in a call after it returned, whether the threads join (here they took 11-18 % of the
 * pieces) or come late; the share they took is printed, not required (a loaded machine may
 * leave all to the caller). */
static void test_shared_calls_take_whoever_comes(void **state) {
  (void)state;
  orx_threads *threads = orx_threads_start(THREADS, SPIN_NS);
  assert_non_null(threads);
  for (unsigned c = 0; c < CALLS; c++) {
    one_shared_call(threads);
    if (c % 1000 == 999)
      pause_us(2000); /* asleep: the next calls' callers may do all */
  }
  assert_int_equal(atomic_load(&share_work.late), 0);
  printf("# pieces the threads took: %u of %u\n", atomic_load(&share_work.helpers),
         (unsigned)CALLS * PIECES);
  orx_threads_stop(threads);
}

/* Shared calls whose caller does not spin for their end (spin 0): it sleeps whenever a thread that
 * joined is still working, and each such call must still end (the threads signal a sleeping
 * caller only, threads.c). */
static void test_shared_calls_with_a_sleeping_caller(void **state) {
  (void)state;
  orx_threads *threads = orx_threads_start(THREADS, 0);
  assert_non_null(threads);
  for (unsigned c = 0; c < CALLS; c++)
    one_shared_call(threads);
  assert_int_equal(atomic_load(&share_work.late), 0);
  orx_threads_stop(threads);
}

/* Shared calls from several threads at once on one set (contexts sharing the host plan's
 * threads, thread_pools.c): each call's pieces run once and no thread is in a call after it
 * returned, whichever caller has the threads. */
enum { CALLERS = 4, CALLER_CALLS = 3 * CALLS };
typedef struct caller {
  orx_threads *threads;
  pthread_barrier_t *start;
  shared_work work;
  unsigned wrong; /* calls with a piece run other than once */
} caller;

static void *shared_calls_from_a_thread(void *arg) {
  caller *c = arg;
  pthread_barrier_wait(c->start);
  for (unsigned i = 0; i < CALLER_CALLS; i++) {
    c->wrong += shared_call_of(c->threads, &c->work) < PIECES;
    if (i % 1000 == 999)
      pause_us(2000);
  }
  return NULL;
}

static void test_shared_calls_from_several_threads(void **state) {
  (void)state;
  orx_threads *threads = orx_threads_start(THREADS, SPIN_NS);
  assert_non_null(threads);
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, CALLERS);
  caller *callers = calloc(CALLERS, sizeof *callers);
  assert_non_null(callers);
  pthread_t thread[CALLERS];
  for (int i = 0; i < CALLERS; i++) {
    callers[i].threads = threads;
    callers[i].start = &start;
    assert_int_equal(pthread_create(&thread[i], NULL, shared_calls_from_a_thread, &callers[i]), 0);
  }
  for (int i = 0; i < CALLERS; i++) {
    pthread_join(thread[i], NULL);
    if (callers[i].wrong || atomic_load(&callers[i].work.late))
      fail_msg("caller %d: %u calls ran a piece other than once, %u late entries", i,
               callers[i].wrong, atomic_load(&callers[i].work.late));
  }
  pthread_barrier_destroy(&start);
  free(callers);
  orx_threads_stop(threads);
}

/* The process's sets for the host plan: one per size and spin, counted, stopped by the last
 * release (and started again by the next acquire). */
static void test_pools_shared_per_size_and_spin(void **state) {
  (void)state;
  orx_threads *a = orx_thread_pool_acquire(THREADS, SPIN_NS);
  orx_threads *b = orx_thread_pool_acquire(THREADS, SPIN_NS);
  orx_threads *no_spin = orx_thread_pool_acquire(THREADS, 0);
  orx_threads *two = orx_thread_pool_acquire(2, SPIN_NS);
  assert_non_null(a);
  assert_ptr_equal(a, b);
  assert_true(no_spin && no_spin != a);
  assert_true(two && two != a && two != no_spin);
  assert_int_equal(orx_threads_count(two), 2);
  orx_thread_pool_release(b);
  one_shared_call(a); /* still held once */
  orx_thread_pool_release(a);
  orx_thread_pool_release(no_spin);
  orx_thread_pool_release(two);
  orx_thread_pool_release(NULL);
  orx_threads *again = orx_thread_pool_acquire(THREADS, SPIN_NS);
  assert_non_null(again);
  assert_int_equal(orx_threads_count(again), THREADS);
  one_shared_call(again);
  orx_thread_pool_release(again);
  assert_int_equal(atomic_load(&share_work.late), 0);
}

static void test_one_index_and_stop_asleep(void **state) {
  (void)state;
  orx_threads *one = orx_threads_start(1, SPIN_NS); /* the calling thread alone */
  assert_non_null(one);
  tally *t = calloc(1, sizeof *t);
  assert_non_null(t);
  t->call = 1;
  orx_threads_run(one, count, t);
  assert_int_equal(atomic_load(&t->runs[0]), 1);
  assert_true(orx_threads_awake(one)); /* no thread to wake */
  one_shared_call(one);
  orx_threads_stop(one);
  orx_threads_stop(NULL);
  orx_threads *asleep = orx_threads_start(THREADS, SPIN_NS);
  assert_non_null(asleep);
  pause_us(20000);
  orx_threads_stop(asleep);
  free(t);
}

/* Ranges of sizes that differ by at most one, in order, covering the items; claims in turns by
 * every index: each index's first claim is its range's first item (where no range is empty, so
 * that none was stolen from), each item is claimed once, and then no index gets one. */
static void test_claims_split_and_claim_each_once(void **state) {
  (void)state;
  static const size_t item_counts[] = {0, 1, 5, 63, 64, 65, 130, 1000};
  static const size_t range_counts[] = {0, 1, 2, 3, 4, 16, 64, 100};
  static orx_claims claims;
  unsigned char taken[1000];
  for (size_t i = 0; i < sizeof item_counts / sizeof *item_counts; i++)
    for (size_t r = 0; r < sizeof range_counts / sizeof *range_counts; r++) {
      const size_t items = item_counts[i], asked = range_counts[r];
      orx_claims_init(&claims, items, asked);
      const size_t ranges = claims.ranges;
      assert_int_equal(ranges, asked < 1 ? 1 : asked > 64 ? 64 : asked);
      size_t visited[64] = {0}, begin[64];
      for (size_t k = 0; k < ranges; k++) {
        begin[k] = atomic_load(&claims.range[k].next);
        assert_int_equal(begin[k], k ? claims.range[k - 1].end : 0);
        const size_t size = claims.range[k].end - begin[k];
        assert_true(size == items / ranges || size == items / ranges + 1);
      }
      assert_int_equal(claims.range[ranges - 1].end, items);
      memset(taken, 0, sizeof taken);
      size_t claimed = 0;
      for (size_t turn = 0; claimed < items; turn++) {
        const size_t index = turn % ranges;
        const size_t item = orx_claims_next(&claims, index, &visited[index]);
        if (item == SIZE_MAX)
          continue;
        if (turn < ranges && items >= ranges) /* no range empty, so none stolen from yet */
          assert_int_equal(item, begin[index]);
        assert_true(item < items && !taken[item]);
        taken[item] = 1;
        claimed++;
      }
      for (size_t k = 0; k < ranges; k++)
        assert_true(orx_claims_next(&claims, k, &visited[k]) == SIZE_MAX);
    }
}

/* Claims shared by a set's threads, as the host grid shares its groups: each item once a call. */
typedef struct claimed_work {
  orx_claims claims;
  atomic_uint done[PIECES];
} claimed_work;

static void claim_ranges(void *arg, size_t index) {
  claimed_work *w = arg;
  size_t visited = 0;
  for (size_t item; (item = orx_claims_next(&w->claims, index, &visited)) != SIZE_MAX;)
    atomic_fetch_add(&w->done[item], 1);
}

static void test_claims_shared_by_threads(void **state) {
  (void)state;
  orx_threads *threads = orx_threads_start(THREADS, SPIN_NS);
  assert_non_null(threads);
  static claimed_work work;
  for (unsigned c = 0; c < CALLS; c++) {
    const unsigned items = PIECES - c % 7;
    orx_claims_init(&work.claims, items, THREADS);
    for (unsigned p = 0; p < PIECES; p++)
      atomic_store(&work.done[p], 0);
    orx_threads_share(threads, claim_ranges, &work);
    for (unsigned p = 0; p < PIECES; p++)
      if (atomic_load(&work.done[p]) != (p < items))
        fail_msg("call %u: piece %u claimed %u times", c, p, atomic_load(&work.done[p]));
  }
  orx_threads_stop(threads);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_index_runs_once_per_call),
      cmocka_unit_test(test_every_index_runs_once_per_call_without_spinning),
      cmocka_unit_test(test_awake_after_a_call_asleep_after_the_spin),
      cmocka_unit_test(test_shared_calls_take_whoever_comes),
      cmocka_unit_test(test_shared_calls_with_a_sleeping_caller),
      cmocka_unit_test(test_shared_calls_from_several_threads),
      cmocka_unit_test(test_pools_shared_per_size_and_spin),
      cmocka_unit_test(test_one_index_and_stop_asleep),
      cmocka_unit_test(test_claims_split_and_claim_each_once),
      cmocka_unit_test(test_claims_shared_by_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
