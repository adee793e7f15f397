/* =================================================================================================
 * host_alloc.c: the library's host memory (util.h): malloc and its kin, except that a test can
 * make the n-th allocation from its arming fail, in whichever thread it comes, to drive every
 * failure path of a call (tests/test_faults.c sweeps n). The host's twin of the device faults of
 * exec/fault_inject.h. Unarmed, an allocation costs one relaxed atomic load more.
 * ============================================================================================== */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static atomic_uint_fast64_t armed;  /* n, or 0: off */
static atomic_uint_fast64_t counted; /* allocations since the arming */
static atomic_int struck;

/* Whether this allocation is the armed one. */
static int fails(void) {
  const uint64_t n = atomic_load_explicit(&armed, memory_order_relaxed);
  if (n == 0)
    return 0;
  if ((uint64_t)atomic_fetch_add(&counted, 1) + 1 != n)
    return 0;
  atomic_store(&struck, 1);
  return 1;
}

void *orx_malloc(size_t bytes) { return fails() ? NULL : malloc(bytes); }

void *orx_calloc(size_t count, size_t size) { return fails() ? NULL : calloc(count, size); }

void *orx_realloc(void *memory, size_t bytes) { return fails() ? NULL : realloc(memory, bytes); }

void *orx_aligned_alloc(size_t alignment, size_t bytes) {
  return fails() ? NULL : aligned_alloc(alignment, bytes);
}

char *orx_strdup(const char *text) {
  const size_t bytes = strlen(text) + 1;
  char *copy = orx_malloc(bytes);
  if (copy)
    memcpy(copy, text, bytes);
  return copy;
}

uint64_t orx_host_fault_arm(uint64_t n) {
  atomic_store(&armed, 0);
  const uint64_t before = atomic_exchange(&counted, 0);
  atomic_store(&struck, 0);
  atomic_store(&armed, n);
  return before;
}

int orx_host_fault_struck(void) { return atomic_load(&struck); }
