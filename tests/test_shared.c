/* =================================================================================================
 * test_shared.c: one context shared by 8 threads (the one that made it among them), each making
 * 1,000 mixed calls at once (with OCL_REDUCE_TEST_LIGHT, 250): whole-array sums and maxima of
 * random lengths from host memory, equal segments, sliding windows, buffers made, written,
 * reduced and destroyed, context queries, and a call that fails on purpose, whose message each
 * thread must read as its own. Every result is checked against the host; with ThreadSanitizer
 * (OCL_REDUCE_SANITIZE=thread) the same run looks for data races in the library.
 * ============================================================================================== */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"

enum { THREADS = 8, CALLS = 1000, ELEMENTS = 4096, KINDS = 6 };

static int32_t data[ELEMENTS];

typedef struct worker {
  unsigned index;
  uint64_t seed;
  pthread_barrier_t *start;
  char problem[512]; /* the first failure, empty when none */
} worker;

static uint64_t next(uint64_t *s) {
  *s = *s * 6364136223846793005u + 1442695040888963407u;
  return *s >> 17;
}

#define CHECK(w, cond, ...)                                                                        \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      snprintf((w)->problem, sizeof (w)->problem, __VA_ARGS__);                                    \
      return 0;                                                                                    \
    }                                                                                              \
  } while (0)

static int64_t host_sum(size_t first, size_t n) {
  int64_t s = 0;
  for (size_t i = first; i < first + n; i++)
    s += data[i];
  return s;
}

static int32_t host_max(size_t first, size_t n) {
  int32_t m = INT32_MIN;
  for (size_t i = first; i < first + n; i++)
    m = data[i] > m ? data[i] : m;
  return m;
}

/* One call of kind `kind` on elements [first, first + n); 1 when it was right. */
static int one_call(worker *w, unsigned kind, size_t first, size_t n) {
  ocl_reduce_status s;
  switch (kind) {
  case 0: {
    int64_t got = 0;
    int64_t *wide = malloc(n * sizeof *wide);
    CHECK(w, wide, "out of memory");
    for (size_t i = 0; i < n; i++)
      wide[i] = data[first + i];
    s = ocl_reduce(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, wide, n, &got, sizeof got);
    free(wide);
    CHECK(w, s == OCL_REDUCE_OK && got == host_sum(first, n), "sum of %zu: %s, %lld",
          n, ocl_reduce_status_name(s), (long long)got);
    return 1;
  }
  case 1: {
    int32_t got = 0;
    s = ocl_reduce(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, data + first, n, &got, sizeof got);
    CHECK(w, s == OCL_REDUCE_OK && got == host_max(first, n), "max of %zu: %s", n,
          ocl_reduce_status_name(s));
    return 1;
  }
  case 2: { /* up to 8 equal segments */
    const size_t segments = 1 + n % 8, length = n / segments;
    int32_t got[8];
    s = ocl_reduce_segments(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32,
                            ocl_reduce_host_input(data + first, segments * length * 4), segments,
                            length, ocl_reduce_host_output(got, sizeof got));
    CHECK(w, s == OCL_REDUCE_OK, "segments: %s", ocl_reduce_status_name(s));
    for (size_t k = 0; k < segments && length; k++)
      CHECK(w, got[k] == host_max(first + k * length, length), "segment %zu of %zu", k, segments);
    return 1;
  }
  case 3: { /* a buffer of its own: made, written, reduced, destroyed */
    ocl_reduce_buffer *buf = NULL;
    s = ocl_reduce_buffer_create(test_ctx, n * sizeof(int32_t), &buf);
    CHECK(w, s == OCL_REDUCE_OK, "buffer_create: %s", ocl_reduce_status_name(s));
    s = ocl_reduce_buffer_write(buf, 0, data + first, n * sizeof(int32_t));
    int32_t got = 0;
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_into(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, ocl_reduce_buffer_input(buf, 0),
                          n, ocl_reduce_host_output(&got, sizeof got));
    ocl_reduce_buffer_destroy(buf);
    CHECK(w, s == OCL_REDUCE_OK && got == host_max(first, n), "buffer max of %zu: %s", n,
          ocl_reduce_status_name(s));
    return 1;
  }
  case 4: { /* a failure on purpose: its message is this thread's, naming its own count */
    int32_t got = 0;
    const size_t count = 1000000 * (w->index + 1) + first;
    s = ocl_reduce(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, NULL, count, &got, sizeof got);
    char mine[64];
    snprintf(mine, sizeof mine, "input is NULL and count is %zu", count);
    const char *message = ocl_reduce_last_error(test_ctx);
    CHECK(w, s == OCL_REDUCE_ERROR_INVALID_ARGUMENT && strstr(message, mine) && got == 0,
          "a failing call: %s, message '%s'", ocl_reduce_status_name(s), message);
    return 1;
  }
  default: { /* windows of 3 and a query */
    const size_t count = n < 3 ? 3 : n, windows = count - 2;
    int32_t *got = malloc(windows * sizeof *got);
    CHECK(w, got, "out of memory");
    s = ocl_reduce_windows(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32,
                           ocl_reduce_host_input(data, count * 4), count, 3,
                           ocl_reduce_host_output(got, windows * sizeof *got));
    int right = s == OCL_REDUCE_OK;
    for (size_t i = 0; i < windows && right; i++)
      right = got[i] == host_max(i, 3);
    free(got);
    CHECK(w, right, "windows of %zu: %s", count, ocl_reduce_status_name(s));
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    s = ocl_reduce_context_query(test_ctx, &info);
    CHECK(w, s == OCL_REDUCE_OK && info.device_name, "query: %s", ocl_reduce_status_name(s));
    return 1;
  }
  }
}

static void *run_worker(void *arg) {
  worker *w = arg;
  w->problem[0] = '\0';
  pthread_barrier_wait(w->start);
  const unsigned calls = test_light() ? CALLS / 4 : CALLS;
  for (unsigned c = 0; c < calls; c++) {
    const size_t n = 1 + next(&w->seed) % (ELEMENTS / 2);
    const size_t first = next(&w->seed) % (ELEMENTS - n);
    if (!one_call(w, (unsigned)(next(&w->seed) % KINDS), first, n))
      break;
  }
  return NULL;
}

static void test_threads_share_one_context(void **state) {
  (void)state;
  for (int i = 0; i < ELEMENTS; i++)
    data[i] = (int32_t)(test_rng_next() % 2000001) - 1000000;
  /* Every kind once first, so that the threads race on calls, not only on first builds. */
  worker warm = {0};
  for (unsigned k = 0; k < KINDS; k++)
    if (!one_call(&warm, k, 0, 1000))
      fail_msg("warming up: %s", warm.problem);
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, THREADS);
  /* Worker 0 is this thread, which made the context: its calls go by the lock's bias until the
   * first call of another thread revokes it, while this one may be in (src/base/handles.h). */
  pthread_t threads[THREADS];
  worker workers[THREADS];
  for (unsigned t = 0; t < THREADS; t++) {
    workers[t] = (worker){t, test_rng_next(), &start, ""};
    if (t > 0)
      assert_int_equal(pthread_create(&threads[t], NULL, run_worker, &workers[t]), 0);
  }
  run_worker(&workers[0]);
  int failed = 0;
  for (unsigned t = 0; t < THREADS; t++) {
    if (t > 0)
      pthread_join(threads[t], NULL);
    if (workers[t].problem[0]) {
      print_error("thread %u: %s\n", t, workers[t].problem);
      failed = 1;
    }
  }
  pthread_barrier_destroy(&start);
  assert_false(failed);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_threads_share_one_context),
  };
  return TEST_RUN(tests, test_setup, test_teardown);
}
