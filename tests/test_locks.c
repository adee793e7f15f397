/* =================================================================================================
 * test_locks.c: a context's call lock (src/base/handles.h), biased to the thread that made it.
 * The owner and other threads exclude each other: a count that they each raise under the lock,
 * with a pause between its read and its write, loses nothing, whether the first other thread
 * comes while the owner is in or not. A thread that revokes the bias waits for the owner to
 * leave. The bias is on for a fresh lock where the system has membarrier, and off for good once
 * another thread has taken the lock. Under ThreadSanitizer the bias is off and the same runs
 * check the plain lock. Needs no OpenCL device.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/handles.h"
#include "support/fixture.h"

enum { OTHERS = 3, ROUNDS = 20000 };

typedef struct shared {
  orx_lock lock;
  pthread_barrier_t start;
  unsigned count; /* raised under the lock only */
} shared;

/* count + 1, read and written apart, so that two threads in at once lose a raise. */
static void raise_count(shared *s) {
  const unsigned seen = s->count;
  for (volatile int i = 0; i < 20; i++) {
  }
  s->count = seen + 1;
}

static void take_and_raise(shared *s, unsigned rounds) {
  for (unsigned r = 0; r < rounds; r++) {
    orx_lock_take(&s->lock);
    raise_count(s);
    orx_lock_give(&s->lock);
  }
}

static void *other(void *arg) {
  shared *s = arg;
  pthread_barrier_wait(&s->start);
  take_and_raise(s, ROUNDS);
  return NULL;
}

/* Whether the bias could be on in this build and system: a fresh lock biased here says so. */
static int bias_available(void) {
  orx_lock probe;
  memset(&probe, 0, sizeof probe);
  orx_lock_bias(&probe);
  return atomic_load(&probe.biased) == ORX_BIAS_ON;
}

/* The owner (this thread) and OTHERS threads at once; `owner_first` rounds of the owner's run
 * before the others start, so that the first revocation finds it in, or not. */
static void run_together(unsigned owner_first) {
  shared s;
  memset(&s, 0, sizeof s);
  orx_lock_bias(&s.lock);
  const int biased = atomic_load(&s.lock.biased) == ORX_BIAS_ON;
  assert_int_equal(biased, bias_available());
  take_and_raise(&s, owner_first);
  pthread_barrier_init(&s.start, NULL, OTHERS + 1);
  pthread_t threads[OTHERS];
  for (int t = 0; t < OTHERS; t++)
    assert_int_equal(pthread_create(&threads[t], NULL, other, &s), 0);
  pthread_barrier_wait(&s.start);
  take_and_raise(&s, ROUNDS);
  for (int t = 0; t < OTHERS; t++)
    pthread_join(threads[t], NULL);
  pthread_barrier_destroy(&s.start);
  assert_int_equal(s.count, owner_first + (OTHERS + 1) * ROUNDS);
  assert_int_equal(atomic_load(&s.lock.biased), ORX_BIAS_OFF);
  assert_int_equal(atomic_load(&s.lock.word), 0);
}

static void test_owner_and_others_exclude_each_other(void **state) {
  (void)state;
  print_message("bias %s here\n", bias_available() ? "available" : "not available (plain lock)");
  for (unsigned run = 0; run < 8; run++)
    run_together(run * 1000);
}

typedef struct waiter {
  shared *s;
  atomic_int owner_left; /* set by the owner right before it gives the lock */
  int saw_owner_left;    /* what the waiter found once it had the lock */
} waiter;

static void *take_once(void *arg) {
  waiter *w = arg;
  orx_lock_take(&w->s->lock);
  w->saw_owner_left = atomic_load(&w->owner_left);
  orx_lock_give(&w->s->lock);
  return NULL;
}

static void test_revoking_waits_for_the_owner_to_leave(void **state) {
  (void)state;
  shared s;
  memset(&s, 0, sizeof s);
  orx_lock_bias(&s.lock);
  waiter w = {&s, 0, 0};
  orx_lock_take(&s.lock);
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, take_once, &w), 0);
  const struct timespec while_in = {0, 30 * 1000 * 1000};
  nanosleep(&while_in, NULL);
  atomic_store(&w.owner_left, 1);
  orx_lock_give(&s.lock);
  pthread_join(thread, NULL);
  assert_int_equal(w.saw_owner_left, 1);
  /* The owner goes on through the plain lock. */
  take_and_raise(&s, 10);
  assert_int_equal(s.count, 10);
  assert_int_equal(atomic_load(&s.lock.biased), ORX_BIAS_OFF);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_owner_and_others_exclude_each_other),
      cmocka_unit_test(test_revoking_waits_for_the_owner_to_leave),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
