/* =================================================================================================
 * claims.c: items claimed from per-thread ranges (claims.h). A claim is one atomic increment of a
 * range's `next`; a range whose `next` passed its end is finished (increments past it change
 * nothing that is read).
 * ============================================================================================== */
#include "base/claims.h"

#include <stdint.h>

void orx_claims_init(orx_claims *claims, size_t items, size_t ranges) {
  if (ranges < 1)
    ranges = 1;
  if (ranges > ORX_CLAIMS_MAX_RANGES)
    ranges = ORX_CLAIMS_MAX_RANGES;
  claims->ranges = ranges;
  /* Range r: [items * r / ranges, items * (r + 1) / ranges), without the products' overflow. */
  size_t begin = 0;
  for (size_t r = 0; r < ranges; r++) {
    const size_t end = items / ranges * (r + 1) + items % ranges * (r + 1) / ranges;
    atomic_init(&claims->range[r].next, begin);
    claims->range[r].end = end;
    begin = end;
  }
}

size_t orx_claims_next(orx_claims *claims, size_t index, size_t *visited) {
  const size_t ranges = claims->ranges;
  for (; *visited < ranges; ++*visited) {
    orx_claim_range *range = &claims->range[(index + *visited) % ranges];
    if (atomic_load_explicit(&range->next, memory_order_relaxed) >= range->end)
      continue;
    const size_t item = atomic_fetch_add_explicit(&range->next, 1, memory_order_relaxed);
    if (item < range->end)
      return item;
  }
  return SIZE_MAX;
}
