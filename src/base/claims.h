/* =================================================================================================
 * claims.h: items 0 .. n-1 that the indices of a thread set (threads.h) share, each index first
 * claiming the items of its own range, the same range every call, then those left in the others'
 * (claims.c). The CPU host plan's grid claims its groups so (host_run.c): an array read call after
 * call is then read by the same threads, whose caches still hold it, as OpenMP's static schedule
 * reads it, while a late thread's range still falls to the others.
 * ============================================================================================== */
#ifndef ORX_CLAIMS_H
#define ORX_CLAIMS_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>

/* The most ranges: a thread set's indices beyond it share the ranges (index % ranges). */
#define ORX_CLAIMS_MAX_RANGES 64

/* A range's next unclaimed item and its end, on a cache line of its own: the threads claim from
 * their own ranges at once. */
typedef struct orx_claim_range {
  alignas(64) atomic_size_t next;
  size_t end;
} orx_claim_range;

typedef struct orx_claims {
  size_t ranges;
  orx_claim_range range[ORX_CLAIMS_MAX_RANGES];
} orx_claims;

/* Splits `items` into `ranges` contiguous ranges of sizes that differ by at most one (ranges is
 * clamped to 1 .. ORX_CLAIMS_MAX_RANGES); writes only the ranges it uses. Before the claims are
 * shared. */
void orx_claims_init(orx_claims *claims, size_t items, size_t ranges);
/* The next item for thread `index`, or SIZE_MAX when none is left: its own range's first, then
 * the next ranges' in turn. *visited (0 before the first claim) counts the ranges it finished.
 * Each item goes to one claim only. */
size_t orx_claims_next(orx_claims *claims, size_t index, size_t *visited);

#endif /* ORX_CLAIMS_H */
