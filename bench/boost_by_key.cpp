/* =================================================================================================
 * boost_by_key.cpp: bench_by_key.c's OpenCL contender (bench_by_key.h): Boost.Compute's
 * reduce_by_key (plus, equal_to) on our context's own device and cl_context, through a queue of
 * its own, the keys and values uploaded before the timing and its outputs holding a run per pair,
 * as an application writes it (issue 57's Boost.Compute ratio). Compiled only where its headers
 * are given (OCL_REDUCE_BOOST_INCLUDE: Debian's libboost1.74-dev, as scripts/h200/fetch_deps.sh
 * downloads it for the GPU machine, which has no Boost).
 * Timed end to end, as ours is: the call, then the queue's finish. Boost.Compute builds its
 * kernels on the first call, which the two rounds before the timed ones take.
 * ============================================================================================== */
#define CL_TARGET_OPENCL_VERSION 120
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/reduce_by_key.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/functional/operator.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <vector>

#include "bench_by_key.h"

namespace {

namespace bc = boost::compute;

template <typename K, typename V>
int time_typed(const key_case *c, bc::context &context, bc::command_queue &queue,
               const void *keys, const void *values, uint64_t runs, const double *want,
               int rounds, double *seconds, char *why, size_t why_size) {
  const K *hk = static_cast<const K *>(keys);
  const V *hv = static_cast<const V *>(values);
  bc::vector<K> k(hk, hk + c->count, queue), keys_out(c->count, context);
  bc::vector<V> v(hv, hv + c->count, queue), sums(c->count, context);
  queue.finish();
  std::vector<double> times;
  size_t found = 0;
  for (int r = -2; r < rounds; r++) {
    const auto start = std::chrono::steady_clock::now();
    const auto ends = bc::reduce_by_key(k.begin(), k.end(), v.begin(), keys_out.begin(),
                                        sums.begin(), bc::plus<V>(), bc::equal_to<K>(), queue);
    queue.finish();
    if (r >= 0)
      times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                          .count());
    found = static_cast<size_t>(ends.first - keys_out.begin());
  }
  if (found != runs) {
    snprintf(why, why_size, "its run count %zu, not %llu", found, (unsigned long long)runs);
    return 0;
  }
  std::vector<V> got(found);
  bc::copy(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(found), got.begin(), queue);
  for (size_t r = 0; r < found; r++) {
    if (static_cast<double>(got[r]) != want[r]) {
      snprintf(why, why_size, "its run %zu sums to %.9g, not %.9g", r,
               static_cast<double>(got[r]), want[r]);
      return 0;
    }
  }
  std::sort(times.begin(), times.end());
  *seconds = times[times.size() / 2];
  return 1;
}

} // namespace

extern "C" int boost_by_key_time(const key_case *c, void *cl_context_handle,
                                 void *cl_device_handle, const void *keys, const void *values,
                                 uint64_t runs, const double *want, int rounds, double *seconds,
                                 char *why, size_t why_size) {
  try {
    bc::context context(static_cast<cl_context>(cl_context_handle), true);
    bc::device device(static_cast<cl_device_id>(cl_device_handle), true);
    bc::command_queue queue(context, device);
    return c->wide ? time_typed<cl_long, cl_double>(c, context, queue, keys, values, runs, want,
                                                    rounds, seconds, why, why_size)
                   : time_typed<cl_int, cl_float>(c, context, queue, keys, values, runs, want,
                                                  rounds, seconds, why, why_size);
  } catch (const std::exception &e) {
    snprintf(why, why_size, "Boost.Compute failed: %s", e.what());
    return 0;
  }
}
