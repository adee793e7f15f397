/* =================================================================================================
 * clock.h: the monotonic clock the library times itself with (worker threads' spin, the host
 * plan's kernel time, program builds, a group's share measurement).
 * ============================================================================================== */
#ifndef ORX_CLOCK_H
#define ORX_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t orx_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#endif /* ORX_CLOCK_H */
