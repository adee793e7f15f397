/* =================================================================================================
 * plan_by_key.h: the plans of reduce by key (plan_by_key.c): which calls take the one-pass kernel
 * (kernels/by_key.cl), its tiles, grid and scratch.
 * ============================================================================================== */
#ifndef ORX_PLAN_BY_KEY_H
#define ORX_PLAN_BY_KEY_H

#include "planner/planner.h"

/* How a by-key request (entry BY_KEY: its operator, type and key_bytes) runs on devices that
 * order work-groups: built-in operators in one pass (ORX_BY_KEY_PASS); user operators, whose map
 * takes each element's index in its run, as the runs' starts found in that pass, then the runs
 * reduced as segments by those offsets on the device (ORX_BY_KEY_STARTS). by_key=runs forces the
 * runs found on the host (ORX_BY_KEY_ON_HOST, run_by_key.c), which the other devices take. */
enum { ORX_BY_KEY_ON_HOST = 0, ORX_BY_KEY_PASS = 1, ORX_BY_KEY_STARTS = 2 };
int orx_plan_by_key_pass(const orx_target *target, const orx_request *request);
/* Whether outputs with room for `room` < n runs of n pairs (or outputs in host memory with room
 * for `room` <= n) take the pass's runs through scratch of `room` runs (key_bytes and
 * result_bytes each), which the kernel fills as far as they reach while it counts them all,
 * copied or read out once the count says they fit; else the runs are counted first (the keys
 * against themselves one apart), and the kernel writes in place (or into scratch of exactly the
 * runs). */
int orx_plan_by_key_stages(const orx_target *target, uint64_t n, uint64_t room,
                           unsigned key_bytes, unsigned result_bytes);
/* The request of the pass that finds the runs' starts (ORX_BY_KEY_STARTS) of keys of key_bytes:
 * each run's result is where it starts, a u64 (ORX_KEY_POSITIONS). */
orx_request orx_by_key_starts_request(unsigned key_bytes);
/* The request of the counted form's pass 1 (each group of tiles' heads) or 2 (their scan) for the
 * tiles of plan `tiles` over keys of key_bytes: the same program for every operator and type. */
orx_request orx_by_key_count_request(const orx_plan *tiles, unsigned key_bytes, int pass);
/* The one-pass plan (plan->policy, type and operator set), with its defines. */
void orx_plan_by_key(const orx_target *target, const orx_request *request, orx_plan *plan);
/* Elements of a tile (a work-group's). */
uint64_t orx_by_key_tile(const orx_plan *plan);
/* The kernel's scratch (kernels/by_key.cl) under plan: its bytes for `tiles` tiles, and the
 * tiles `bytes` hold. A tile's words move with the plan's summary size, but every word carries
 * its launch's epoch, so a word of an earlier launch never reads as published: the host zeroes a
 * scratch once, when it is allocated (and when the launches' epochs run out). */
size_t orx_by_key_scratch_bytes(const orx_plan *plan, uint64_t tiles);
uint64_t orx_by_key_scratch_tiles(const orx_plan *plan, size_t bytes);

#endif /* ORX_PLAN_BY_KEY_H */
