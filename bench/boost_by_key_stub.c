/* =================================================================================================
 * boost_by_key_stub.c: bench_by_key built without its Boost.Compute contender (boost_by_key.cpp
 * needs Boost's headers: OCL_REDUCE_BOOST_INCLUDE).
 * ============================================================================================== */
#include <stdio.h>

#include "bench_by_key.h"

int boost_by_key_time(const key_case *c, void *cl_context_handle, void *cl_device_handle,
                      const void *keys, const void *values, uint64_t runs, const double *want,
                      int rounds, double *seconds, char *why, size_t why_size) {
  (void)c, (void)cl_context_handle, (void)cl_device_handle, (void)keys, (void)values, (void)runs;
  (void)want, (void)rounds, (void)seconds;
  snprintf(why, why_size, "built without Boost's headers (OCL_REDUCE_BOOST_INCLUDE)");
  return 0;
}
