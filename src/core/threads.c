/* =================================================================================================
 * threads.c: threads woken per call (threads.h). They live as long as their owner: starting a
 * thread per call costs 10-50 us, against budgets of tens of microseconds (a group of GPUs
 * beating one, a staging piece of a few milliseconds split over eight threads).
 * ============================================================================================== */
#include "core/threads.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct orx_threads {
  pthread_mutex_t lock;
  pthread_cond_t wake, done;
  size_t count;
  pthread_t *thread; /* by index; index 0 has none */
  unsigned char *started;
  /* The call in progress. */
  uint64_t call;  /* counts calls: a thread runs each once */
  size_t pending; /* started threads that have not finished it */
  int stopping;
  orx_thread_task fn;
  void *arg;
};

typedef struct thread_start {
  orx_threads *t;
  size_t index;
} thread_start;

static void *thread_main(void *p) {
  orx_threads *t = ((thread_start *)p)->t;
  const size_t index = ((thread_start *)p)->index;
  free(p);
  uint64_t seen = 0;
  pthread_mutex_lock(&t->lock);
  for (;;) {
    while (t->call == seen && !t->stopping)
      pthread_cond_wait(&t->wake, &t->lock);
    if (t->stopping)
      break;
    seen = t->call;
    pthread_mutex_unlock(&t->lock);
    t->fn(t->arg, index);
    pthread_mutex_lock(&t->lock);
    if (--t->pending == 0)
      pthread_cond_signal(&t->done);
  }
  pthread_mutex_unlock(&t->lock);
  return NULL;
}

orx_threads *orx_threads_start(size_t count) {
  orx_threads *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->count = count ? count : 1;
  t->thread = calloc(t->count, sizeof *t->thread);
  t->started = calloc(t->count, 1);
  if (!t->thread || !t->started) {
    free(t->thread);
    free(t->started);
    free(t);
    return NULL;
  }
  pthread_mutex_init(&t->lock, NULL);
  pthread_cond_init(&t->wake, NULL);
  pthread_cond_init(&t->done, NULL);
  for (size_t i = 1; i < t->count; i++) {
    thread_start *start = malloc(sizeof *start);
    if (!start)
      continue;
    *start = (thread_start){t, i};
    t->started[i] = pthread_create(&t->thread[i], NULL, thread_main, start) == 0;
    if (!t->started[i])
      free(start);
  }
  return t;
}

size_t orx_threads_count(const orx_threads *t) { return t->count; }

void orx_threads_run(orx_threads *t, orx_thread_task fn, void *arg) {
  pthread_mutex_lock(&t->lock);
  t->fn = fn;
  t->arg = arg;
  t->pending = 0;
  for (size_t i = 1; i < t->count; i++)
    t->pending += t->started[i];
  t->call++;
  pthread_cond_broadcast(&t->wake);
  pthread_mutex_unlock(&t->lock);
  /* Index 0 here, then any index whose thread could not start. */
  for (size_t i = 0; i < t->count; i++)
    if (!t->started[i])
      fn(arg, i);
  pthread_mutex_lock(&t->lock);
  while (t->pending > 0)
    pthread_cond_wait(&t->done, &t->lock);
  pthread_mutex_unlock(&t->lock);
}

void orx_threads_stop(orx_threads *t) {
  if (!t)
    return;
  pthread_mutex_lock(&t->lock);
  t->stopping = 1;
  pthread_cond_broadcast(&t->wake);
  pthread_mutex_unlock(&t->lock);
  for (size_t i = 1; i < t->count; i++)
    if (t->started[i])
      pthread_join(t->thread[i], NULL);
  pthread_cond_destroy(&t->wake);
  pthread_cond_destroy(&t->done);
  pthread_mutex_destroy(&t->lock);
  free(t->thread);
  free(t->started);
  free(t);
}
