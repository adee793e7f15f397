/* =================================================================================================
 * test_threads.c: contexts created by 8 threads at the same moment, as a process's first ones
 * (where PoCL 3.1's own device enumeration is not thread-safe: the library must serialize it) and
 * again once the implementation is up; each thread reduces on its context and checks the exact
 * sum. A process's first enumeration happens once, so children forked before any OpenCL call
 * repeat it. The threads destroy their contexts only once every thread has its result: with
 * PoCL 5.0, a context destroyed while another context of the process still ran the same kernel
 * made PoCL's own kernel cache assert ("pocl_release_dlhandle_cache: Assertion
 * `found->ref_count > 0'", 4 runs of 25 on the H200 machine), a PoCL bug apart from the
 * enumeration one. Then contexts of several threads reduce at once on the host plan's threads,
 * which the process's contexts share.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/fixture.h"

enum { THREADS = 8, ELEMENTS = 4099, ROUNDS = 3, FIRST_TIMES = 4 };

typedef struct worker {
  pthread_barrier_t *start, *done;
  int32_t *data;
  int64_t expected;
  char problem[512]; /* empty when the thread's context worked */
} worker;

static void *create_and_reduce(void *arg) {
  worker *w = arg;
  w->problem[0] = '\0';
  pthread_barrier_wait(w->start);
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  if (s != OCL_REDUCE_OK) {
    snprintf(w->problem, sizeof w->problem, "create: %s: %s", ocl_reduce_status_name(s),
             ocl_reduce_last_error(NULL));
    pthread_barrier_wait(w->done);
    return NULL;
  }
  int64_t sum = 0;
  s = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, w->data, ELEMENTS / 2, &sum, sizeof sum);
  if (s != OCL_REDUCE_OK)
    snprintf(w->problem, sizeof w->problem, "reduce: %s: %s", ocl_reduce_status_name(s),
             ocl_reduce_last_error(ctx));
  else if (sum != w->expected)
    snprintf(w->problem, sizeof w->problem, "sum %lld, expected %lld", (long long)sum,
             (long long)w->expected);
  pthread_barrier_wait(w->done);
  ocl_reduce_context_destroy(ctx);
  return NULL;
}

/* One round: 8 threads released together; the number of threads that failed, each printed. */
static int run_round(int32_t *data, int64_t expected) {
  pthread_barrier_t start, done;
  pthread_barrier_init(&start, NULL, THREADS);
  pthread_barrier_init(&done, NULL, THREADS);
  worker workers[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++) {
    workers[t] = (worker){.start = &start, .done = &done, .data = data, .expected = expected};
    if (pthread_create(&threads[t], NULL, create_and_reduce, &workers[t]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      abort();
    }
  }
  int failed = 0;
  for (int t = 0; t < THREADS; t++) {
    pthread_join(threads[t], NULL);
    if (workers[t].problem[0]) {
      fprintf(stderr, "# thread %d: %s\n", t, workers[t].problem);
      failed++;
    }
  }
  pthread_barrier_destroy(&start);
  pthread_barrier_destroy(&done);
  return failed;
}

static void test_threads_create_contexts_at_once(void **state) {
  (void)state;
  /* i64 pairs of random i32 halves: an exact sum to compare with. */
  const unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
  print_message("# seed %u\n", seed);
  srand(seed);
  int32_t *data = malloc(ELEMENTS * sizeof *data);
  assert_non_null(data);
  for (int i = 0; i < ELEMENTS; i++)
    data[i] = (int32_t)(rand() % 2001) - 1000;
  int64_t expected = 0;
  for (int i = 0; i + 1 < ELEMENTS; i += 2) {
    int64_t element;
    memcpy(&element, &data[i], sizeof element);
    expected += element;
  }
  /* Before this process touches OpenCL: children that each begin with the race. */
  for (int child = 0; child < FIRST_TIMES; child++) {
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
      _exit(run_round(data, expected) ? 1 : 0);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      fail_msg("first contexts of a fresh process, try %d: %s %d", child,
               WIFEXITED(status) ? "exit status" : "signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  }
  for (int round = 0; round < ROUNDS; round++)
    assert_int_equal(run_round(data, expected), 0);
  free(data);
}

/* Contexts on one CPU device share the host plan's threads (src/base/thread_pools.c): calls
 * from several threads at once, each on its own context, over arrays that the host plan's grid
 * splits into many groups, must each give the exact sum. Call c reduces the first
 * GRID_ELEMENTS - c elements. */
enum { GRID_ELEMENTS = 1 << 20, GRID_CALLS = 40, GRID_THREADS = 4 };

typedef struct grid_worker {
  pthread_barrier_t *start;
  const int32_t *data;
  const int64_t *expected; /* by call */
  char problem[512];       /* empty when every call gave its sum */
} grid_worker;

static void *reduce_on_own_context(void *arg) {
  grid_worker *w = arg;
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  pthread_barrier_wait(w->start);
  for (int c = 0; s == OCL_REDUCE_OK && c < GRID_CALLS && !w->problem[0]; c++) {
    int32_t sum = 0; /* |sum| < 2^31: no wrapping */
    s = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, w->data, GRID_ELEMENTS - c, &sum,
                   sizeof sum);
    if (s == OCL_REDUCE_OK && sum != w->expected[c])
      snprintf(w->problem, sizeof w->problem, "call %d: sum %d, expected %lld", c, sum,
               (long long)w->expected[c]);
  }
  if (s != OCL_REDUCE_OK)
    snprintf(w->problem, sizeof w->problem, "%s: %s", ocl_reduce_status_name(s),
             ocl_reduce_last_error(ctx));
  ocl_reduce_context_destroy(ctx);
  return NULL;
}

static void test_threads_share_the_host_grid(void **state) {
  (void)state;
  int32_t *data = malloc(GRID_ELEMENTS * sizeof *data);
  int64_t expected[GRID_CALLS], total = 0;
  assert_non_null(data);
  for (int i = 0; i < GRID_ELEMENTS; i++) {
    data[i] = (int32_t)(rand() % 2001) - 1000;
    total += data[i];
  }
  /* Call c sums the first GRID_ELEMENTS - c elements: one fewer than the call before it. */
  expected[0] = total;
  for (int c = 1; c < GRID_CALLS; c++)
    expected[c] = expected[c - 1] - data[GRID_ELEMENTS - c];
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, GRID_THREADS);
  grid_worker workers[GRID_THREADS];
  pthread_t threads[GRID_THREADS];
  for (int t = 0; t < GRID_THREADS; t++) {
    workers[t] = (grid_worker){.start = &start, .data = data, .expected = expected};
    assert_int_equal(pthread_create(&threads[t], NULL, reduce_on_own_context, &workers[t]), 0);
  }
  int failed = 0;
  for (int t = 0; t < GRID_THREADS; t++) {
    pthread_join(threads[t], NULL);
    if (workers[t].problem[0]) {
      print_error("# thread %d: %s\n", t, workers[t].problem);
      failed++;
    }
  }
  pthread_barrier_destroy(&start);
  free(data);
  assert_int_equal(failed, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_threads_create_contexts_at_once),
      cmocka_unit_test(test_threads_share_the_host_grid),
  };
  /* No fixture: its context would enumerate the devices before the threads do. */
  return TEST_RUN(tests, NULL, NULL);
}
