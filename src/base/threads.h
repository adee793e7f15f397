/* =================================================================================================
 * threads.h: a fixed set of threads woken per call to run one task each, the calling thread
 * running the first, or to share one (threads.c). A group runs its devices' tasks on it
 * (group_workers.c), staging its host copies (staging.c), and the CPU host plan's grid shares
 * its groups (host_run.c).
 * ============================================================================================== */
#ifndef ORX_THREADS_H
#define ORX_THREADS_H

#include <stddef.h>
#include <stdint.h>

typedef struct orx_threads orx_threads;

/* fn(arg, index) for one index of a call, on the thread of that index. */
typedef void (*orx_thread_task)(void *arg, size_t index);

/* A set of `count` indices: the caller's (0) and count - 1 threads started now, which wait for
 * calls until orx_threads_stop, spinning for spin_ns after each before they sleep (threads.c;
 * orx_plan_spin_ns). A thread that cannot start leaves its index to the calling thread. NULL
 * when out of host memory. */
orx_threads *orx_threads_start(size_t count, uint64_t spin_ns);
/* Runs fn(arg, i) for every index i at once and returns when all have returned. */
void orx_threads_run(orx_threads *threads, orx_thread_task fn, void *arg);
/* Runs fn(arg, 0) on the calling thread, and fn(arg, i) on each thread that comes for the call
 * before that returns (waking those that sleep); returns when every fn that started has. For
 * work that fn claims piece by piece (an atomic counter), so that the calling thread alone
 * covers it: a thread that is late, asleep or kept off its core, costs the call nothing. Safe
 * from several threads at once: while one's call holds the threads, another's runs fn(arg, 0)
 * alone. */
void orx_threads_share(orx_threads *threads, orx_thread_task fn, void *arg);
size_t orx_threads_count(const orx_threads *threads);
/* Whether every thread is spinning for the next call (threads.c): one that runs now starts them
 * at once, where waking sleeping ones costs some 30 us. */
int orx_threads_awake(orx_threads *threads);
/* Wakes sleeping threads ahead of a call, to spin for it: a caller with host work of its own
 * before the call (some 10 us) then finds them awake, where a wake at the call costs some 17 us
 * more (two H100s). */
void orx_threads_wake(orx_threads *threads);
/* Stops and joins the threads; NULL is ignored. */
void orx_threads_stop(orx_threads *threads);

#endif /* ORX_THREADS_H */
