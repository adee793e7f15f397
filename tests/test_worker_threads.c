/* =================================================================================================
 * test_worker_threads.c: the library's fixed sets of threads (src/core/threads.h), which groups,
 * staging and the CPU host grid run their calls on. Every call runs each index exactly once and
 * returns after all have run: back to back (the threads spinning for the next call), after pauses
 * longer than their spin (asleep, woken), after pokes that bring no call, and at stop in either
 * state. orx_threads_awake turns true after a call and false once the spin has passed. Needs no
 * OpenCL device.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core/threads.h"
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

static void pause_us(unsigned us) {
  struct timespec ts = {0, (long)us * 1000};
  nanosleep(&ts, NULL);
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Polls `awake` until it equals want, up to 2 s, yielding in between; `nudge` (a call or a poke)
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
    /* Now and then past the spin, so that the threads sleep; now and then a poke while they
     * spin, or while they sleep (they wake without a call, and must not run this one again). */
    if (c % 500 == 0)
      pause_us(2000);
    if (c % 300 == 0)
      orx_threads_poke(threads);
    if (c % 70 == 0) {
      pause_us(2000);
      orx_threads_poke(threads);
      pause_us(100);
    }
  }
  assert_int_equal(atomic_load(&t->wrong), 0);
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
  if (!becomes(threads, 1, orx_threads_poke))
    fail_msg("pokes did not wake the threads");
  orx_threads_stop(threads); /* while they may still spin */
  assert_int_equal(atomic_load(&call_tally.wrong), 0);
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
  orx_threads_poke(one);
  orx_threads_stop(one);
  orx_threads_stop(NULL);
  orx_threads *asleep = orx_threads_start(THREADS, SPIN_NS);
  assert_non_null(asleep);
  pause_us(20000);
  orx_threads_stop(asleep);
  free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_index_runs_once_per_call),
      cmocka_unit_test(test_every_index_runs_once_per_call_without_spinning),
      cmocka_unit_test(test_awake_after_a_call_asleep_after_the_spin),
      cmocka_unit_test(test_one_index_and_stop_asleep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
