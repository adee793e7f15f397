/* =================================================================================================
 * plan_by_key.c: how a reduce-by-key call runs (plan_by_key.h). The one-pass kernel
 * (kernels/by_key.cl) reads the keys and values once; the other calls read the keys to the host,
 * find the runs there and reduce them as segments by offsets (run_by_key.c), which reads the keys
 * twice and moves them over the bus: docs/design/reduce-by-key.md, Decision 1. Pure functions of
 * their arguments.
 * ============================================================================================== */
#include "planner/plan_by_key.h"

/* CUDA's static shared memory ends at 48 KiB: the tile and its scan stay in 40. */
#define ORX_KEY_LOCAL_BYTES 40960u
/* A chunk's pairs, where a work-item walks each (ORX_KEY_CHUNKS). */
#define ORX_KEY_CHUNK 16384u

int orx_plan_by_key_pass(const orx_target *target, const orx_request *request) {
  /* A single pass needs tiles that wait on the tiles before them (lib/orx_lookback.cl). */
  if (request->pair.on || target->caps->device_sync == ORX_SYNC_NONE ||
      target->forced.by_key_pass == 0)
    return ORX_BY_KEY_ON_HOST;
  /* A user operator's map takes each element's index in its run, which a tile knows only once the
   * tiles before it are summed (ARGMIN's index is taken from the input's position, and rebased as
   * its run is stored: ORX_KEY_STARTS): the pass finds the runs' starts, and the segments' kernels
   * reduce the runs, index by index, in order where the operator asks it. */
  if (request->op.id == ORX_OP_CUSTOM)
    return ORX_BY_KEY_STARTS;
  /* CPU devices too, in chunks (by_chunks below): PoCL 5 on 16 cores, 2^24 i32/f32 pairs in
   * buffers, end to end against an OpenMP loop, the kernel 1.03-2.17x where the runs found on the
   * host took 0.02-0.09x (docs/perf/h200-by-key.txt). */
  return ORX_BY_KEY_PASS;
}

int orx_plan_by_key_stages(const orx_target *target, uint64_t n, uint64_t room,
                           unsigned key_bytes, unsigned result_bytes) {
  if (target->forced.key_stage >= 0)
    return target->forced.key_stage;
  /* No room: the count alone answers (a caller asking for the size), where the pass would read
   * the values too. Else staged where the runs' keys and results take no more bytes than the keys
   * (no more scratch than that either): the count reads the keys twice (one apart), the copy the
   * runs once and writes them once. H200, 2^26 pairs, outputs of exactly the runs, end to end,
   * staged against counted: CUDA i32/f32 in runs of 8 / 32 / 1000 378 / 338 / 309 us against
   * 432 / 412 / 392, i64/f64 in runs of 32 719 against 856; NVIDIA's OpenCL 420 / 377 / 351
   * against 479 / 462 / 442, 695 against 821; in runs of 2 (the rule's edge) equal. CPU devices
   * copy in one thread (PoCL 5, 16 cores, 2^24 pairs): in runs of 32 / 1000 4.4 / 3.6 ms against
   * 4.8 / 4.3, in runs of 8 7.0 against 6.1, so there the runs must take 8 times fewer bytes
   * (docs/perf/h200-by-key.txt). */
  const uint64_t bytes = room * (key_bytes + result_bytes);
  const unsigned cpu = target->caps->type == OCL_REDUCE_DEVICE_CPU;
  return room > 0 && (cpu ? 8 : 1) * bytes <= n * key_bytes;
}

orx_request orx_by_key_count_request(const orx_plan *tiles, unsigned key_bytes, int pass) {
  orx_request request = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_U64);
  request.entry = ORX_ENTRY_BY_KEY;
  request.key_bytes = key_bytes;
  request.key_pass = pass;
  request.key_tile_wg = (int)tiles->policy.wg_size;
  request.key_tile_run = (int)tiles->key_run;
  return request;
}

orx_request orx_by_key_starts_request(unsigned key_bytes) {
  orx_request request = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_U64);
  request.entry = ORX_ENTRY_BY_KEY;
  request.key_bytes = key_bytes;
  request.key_positions = 1;
  return request;
}

/* The bytes a pair's value takes in a tile's local memory (kernels/by_key.cl): positions 4,
 * ARGMIN and ARGMAX of 4-byte values 8 (their index from the tile's start or the run's:
 * ORX_STATE_NEAR), other operators their state. H200, CUDA, 2^26 i32/f32 pairs, ARGMIN in runs
 * of 32, ncu: tiles of 1024 pairs (16-byte states) 2.79 ms, of 2048 (8 bytes) 1.76, CUB 2.43
 * (docs/perf/h200-by-key.txt). */
static unsigned staged_bytes(const orx_plan *plan, unsigned value, int positions) {
  if (positions)
    return 4;
  const int arg = plan->op.id == ORX_OP_ARGMIN || plan->op.id == ORX_OP_ARGMAX;
  return arg && orx_type_size(plan->type) == 4 ? 8 : value;
}

/* Local memory of a work-group: the tile's keys and values (`staged` bytes each) with a padding
 * slot every 32, the run carried in (a state), the scan's summaries (heads, value, start), the
 * look-back's window of 16 tiles, a few words. */
static uint64_t local_bytes(unsigned wg, unsigned run, unsigned key, unsigned staged,
                            unsigned value) {
  const uint64_t tile = (uint64_t)wg * run, summary = 8 + value + 8;
  return (tile + tile / 32 + 1) * (key + staged) + value + (wg + 16 + 2) * summary + 16 * 4 + 64;
}

/* The summaries' 8-byte words in the scratch (kernels/by_key.cl): heads, a 32-bit word of the
 * value each (positions: none, all of theirs are the identity), and for ARGMIN, ARGMAX and
 * positions where their last run starts. */
static unsigned summary_words(unsigned value, int positions, int starts) {
  return 2 + (positions ? 0 : (value + 3) / 4) + (starts ? 2 : 0);
}

/* Whether a tile's work-items load their keys and elements straight into registers, 16 bytes at a
 * time (ORX_KEY_DIRECT), in place of through local memory: the kernel needs a work-item's keys
 * and elements to fill 16-byte words, and elements the kernel computes on as they are stored. */
static int loads_direct(const orx_target *target, const orx_request *request, unsigned key,
                        unsigned run) {
  const unsigned elem = (unsigned)orx_type_size(request->type);
  if (orx_type_is_narrow(request->type) || run * key % 16 || run * elem % 16)
    return 0;
  if (target->forced.key_direct >= 0)
    return target->forced.key_direct;
  /* NVIDIA's GPUs (fixed-width warps), CUDA and OpenCL. H200, 2^26 pairs, kernel time, direct
   * against through local memory: CUDA i32/f32 in runs of 1 386 us against 427, of 32 296
   * against 329, i64/f64 in runs of 32 671 against 702; NVIDIA's OpenCL i32/f32 in runs of 1-1000
   * 311-423 us against 346-471 (docs/perf/h200-by-key.txt; a first measurement of its staged
   * tiles' kernel had it losing, 438 against 372). Elsewhere unmeasured: through local memory. */
  return target->caps->warp_size > 0;
}

/* Whether a tile's first warp reads the look-back's windows of 32 tiles and joins them by
 * shuffles (ORX_KEY_WARP_JOIN), in place of windows of 16 one work-item joins from local memory:
 * NVIDIA's warps of 32 (inline PTX or CUDA) in tiles of a warp or more. NVIDIA's OpenCL takes
 * it, but for the two plans it was measured slower on. H200, 2^26 pairs, kernel us, windows of
 * 16 / joined by the warp (docs/perf/h200-by-key.txt): i32/f32 SUM runs of 8 349-350 / 328-329,
 * of 32 330-332 / 308, of 1000 309-310 / 285-286; i64/f64 SUM of 32 636-638 / 610-614; i32/f32
 * ARGMIN of 32 1406-1417 / 1217-1225; but i64/f64 ARGMIN of 32 (8-byte keys carrying starts)
 * 2152-2153 / 2234-2245, and the starts' pass of an order-preserving operator (positions) at
 * runs of 1-1000 608-983 / 614-1009. Through CUDA the warp's join was 7-9 % slower (i32/f32
 * runs of 32: 324-325 against 300-303), so CUDA keeps local memory's. */
static int joins_by_warp(const orx_target *target, unsigned wg_size, int chunks, unsigned key,
                         int starts, int positions) {
  const int sync = target->caps->device_sync;
  if (chunks || wg_size < 32 || target->caps->warp_size != 32 ||
      (sync != ORX_SYNC_PTX && sync != ORX_SYNC_CUDA))
    return 0;
  if (target->forced.key_warp_join >= 0)
    return target->forced.key_warp_join;
  return sync == ORX_SYNC_PTX && !positions && !(starts && key == 8);
}

/* Whether a tile scans its work-items' summaries by warp shuffles (ORX_KEY_WARP_SCAN): a barrier
 * and a summary per warp in local memory, where the scan through local memory takes a barrier
 * pair per step and a summary per work-item. NVIDIA's warps of 32 (inline PTX or CUDA), but
 * CUDA's tiles of 8-byte keys. H200, 2^26 pairs, us end to end, through local memory / by warps
 * (docs/perf/h200-by-key.txt): CUDA (counted) i32/f32 runs of 1 414 / 399, of 8 328 / 306, of
 * 1000 260 / 251, i32/f32 ARGMIN of 32 605 / 553; NVIDIA's OpenCL (look-back) i32/f32 runs of 8
 * 335 / 334, of 1000 296 / 289, i64/f64 of 32 655 / 597; but CUDA i64/f64 of 32 496 / 636 (88
 * registers, 2 groups of 256 an SM; capped at 4 groups, 510, against 526 so capped). */
static int scans_by_warp(const orx_target *target, unsigned wg_size, int chunks, unsigned key) {
  const int sync = target->caps->device_sync;
  if (chunks || wg_size % 32 || target->caps->warp_size != 32 ||
      (sync != ORX_SYNC_PTX && sync != ORX_SYNC_CUDA))
    return 0;
  if (target->forced.key_warp_scan >= 0)
    return target->forced.key_warp_scan;
  return !(sync == ORX_SYNC_CUDA && key == 8);
}

/* Whether a tile is its work-group's id (ORX_KEY_IN_ORDER) rather than a ticket taken as the group
 * starts: only where groups start in id order (NVIDIA's GPUs, as CUB's single-pass scans assume),
 * else a tile could wait on one whose group never starts. NVIDIA's OpenCL takes it. H200, 2^26
 * pairs, kernel us, ticket / id, two rounds (docs/perf/h200-by-key.txt): i32/f32 SUM runs of 1
 * 419-422 / 413-415, of 32 308-310 / 301-304, of 1000 286-287 / 279; i64/f64 SUM of 32 610-612 /
 * 598-600; ARGMIN, exact and host outputs 1-5 % faster alike. Through CUDA i32/f32 gained 1-2 %
 * but i64/f64 SUM lost 15 % (runs of 32: 675 against 791), so CUDA keeps the ticket. */
static int tiles_in_order(const orx_target *target, int chunks) {
  const int sync = target->caps->device_sync;
  if (chunks || target->caps->warp_size == 0 || (sync != ORX_SYNC_PTX && sync != ORX_SYNC_CUDA))
    return 0;
  if (target->forced.key_in_order >= 0)
    return target->forced.key_in_order;
  return sync == ORX_SYNC_PTX;
}

/* Whether the runs are counted first (ORX_KEY_COUNTED, docs/design/reduce-by-key.md, Decision 1,
 * revised): four launches and the keys read twice, but no tile waits on another. Where measured
 * faster than the look-back: H200, 2^26 pairs, kernel us, look-back / counted (tiles of 256 x 16,
 * docs/perf/h200-by-key.txt): CUDA i32/f32 runs of 1 390 / 418, of 32 297 / 301, of 1000 277 /
 * 266, i64/f64 of 1 856 / 720, of 32 671 / 510, i32/f32 ARGMIN of 32 1422 / 678. NVIDIA's OpenCL
 * took it once the tiles scanned by warps and the count read words: us end to end, i32/f32 runs
 * of 1 441 / 405, of 8 335 / 329, of 1000 293 / 276, i64/f64 of 32 606 / 530, the affine map's
 * of 1000 621 / 603. So NVIDIA's GPUs count first. */
static int counts_first(const orx_target *target, const orx_request *request, int chunks) {
  if (chunks || request->key_pass)
    return 0;
  if (target->forced.key_counted >= 0)
    return target->forced.key_counted;
  const int sync = target->caps->device_sync;
  return target->caps->warp_size > 0 && (sync == ORX_SYNC_CUDA || sync == ORX_SYNC_PTX);
}

/* Whether the kernel walks chunks, a work-item each, in place of tiles a work-group scans. */
static int by_chunks(const orx_target *target) {
  if (target->forced.key_chunks >= 0)
    return target->forced.key_chunks;
  /* CPU devices: a work-group's scan through local memory costs them more than a walk in order.
   * PoCL 5 on 16 cores, 2^24 i32/f32 pairs, end to end against an OpenMP loop: chunks 1.03-2.17x,
   * tiles 0.28-0.45x (docs/perf/h200-by-key.txt). */
  return target->caps->type == OCL_REDUCE_DEVICE_CPU;
}

/* The elements per work-item of a tile, and its work-group (unless forced), within local memory.
 * Tiles of 256 work-items of 16 elements on GPUs where local memory holds them (4096 pairs of 4
 * bytes; 8 elements of 8 bytes), 64 work-items on CPUs. A launch's look-back costs grow with its
 * tiles: H200, 2^26 i32/f32 pairs in runs of 1000, 640 us in tiles of 2048, 380 in tiles of 4096
 * (before the look-back read its windows' words without fences). Counted through CUDA, 4-byte
 * values: tiles of 128 x 16 (H200, 2^26 i32/f32 pairs, kernel us, 256 / 128 work-items: runs of 1
 * 420 / 398, of 8 330 / 317, of 32 300 / 291, of 1000 261 / 253; docs/perf/h200-by-key.txt). */
static unsigned tile_shape(const orx_target *target, unsigned key, unsigned staged,
                           unsigned value, int counted, unsigned *wg_size) {
  const orx_caps *caps = target->caps;
  const int narrow_tiles = counted && caps->device_sync == ORX_SYNC_CUDA && value == 4;
  if (!target->forced.wg_size)
    *wg_size = caps->type == OCL_REDUCE_DEVICE_CPU ? 64 : narrow_tiles ? 128 : 256;
  unsigned run = target->forced.key_run ? target->forced.key_run : 16;
  const uint64_t room = caps->local_mem_bytes < ORX_KEY_LOCAL_BYTES ? caps->local_mem_bytes
                                                                   : ORX_KEY_LOCAL_BYTES;
  while (run > 1 && local_bytes(*wg_size, run, key, staged, value) > room)
    run /= 2;
  while (*wg_size > 32 && local_bytes(*wg_size, run, key, staged, value) > room)
    *wg_size /= 2;
  return run;
}

void orx_plan_by_key(const orx_target *target, const orx_request *request, orx_plan *plan) {
  const orx_caps *caps = target->caps;
  orx_policy *p = &plan->policy;
  const unsigned key = request->key_bytes;
  const unsigned value =
      plan->op.state_bytes ? plan->op.state_bytes : (unsigned)orx_type_size(plan->type);
  const int positions = request->key_positions;
  const unsigned staged = staged_bytes(plan, value, positions);
  const int starts = positions || plan->op.id == ORX_OP_ARGMIN || plan->op.id == ORX_OP_ARGMAX;
  const int chunks = request->key_pass == 1 || request->key_pass == 2 ? 0 : by_chunks(target);
  int counted = request->key_pass || counts_first(target, request, chunks);
  p->vec = p->unroll = p->chains = 1;
  unsigned run;
  if (request->key_pass == 1 || request->key_pass == 2) {
    /* The counted form's count and its scan: the tiles' shape, whatever their values. */
    p->wg_size = (unsigned)request->key_tile_wg;
    run = (unsigned)request->key_tile_run;
  } else if (chunks) {
    /* A work-item per chunk, which needs no local memory but the look-back's window. PoCL 3.1, 2
     * cores, 2^22 i32/f32 pairs: chunks of 4096, 16384 and 65536 within the noise of each other;
     * 16384 leaves 16 cores a thousand chunks of 2^24 pairs to share. */
    p->wg_size = 1;
    run = target->forced.key_run ? target->forced.key_run : ORX_KEY_CHUNK;
  } else {
    run = tile_shape(target, key, staged, value, counted, &p->wg_size);
  }
  plan->key_run = run;
  int64_t *d = plan->defines;
  d[ORX_DEFINE_KEY_BYTES] = key;
  d[ORX_DEFINE_KEY_RUN] = run;
  d[ORX_DEFINE_KEY_STARTS] = starts;
  d[ORX_DEFINE_KEY_WORDS] = summary_words(value, positions, starts);
  d[ORX_DEFINE_KEY_CHUNKS] = chunks;
  d[ORX_DEFINE_KEY_DIRECT] = !chunks && loads_direct(target, request, key, run);
  /* CPU devices' tiles (forced: they take chunks) read their elements again after the look-back
   * rather than hold them across its barriers, which PoCL 5 at times compiled wrong (by_key.cl,
   * step 4). */
  d[ORX_DEFINE_KEY_RELOAD] = !chunks && caps->type == OCL_REDUCE_DEVICE_CPU;
  d[ORX_DEFINE_KEY_POSITIONS] = positions;
  /* The window's layout: H200, 2^26 i32/f32 pairs in runs of 32, kernel time, whole summaries
   * against an array per field: CUDA 378 us against 331, NVIDIA's OpenCL 347 against 403. */
  d[ORX_DEFINE_KEY_WINDOW_PARTS] = !caps->has_cuda_shuffle;
  d[ORX_DEFINE_KEY_WARP_JOIN] = joins_by_warp(target, p->wg_size, chunks, key, starts, positions);
  d[ORX_DEFINE_KEY_IN_ORDER] = tiles_in_order(target, chunks);
  /* (the counted form's passes but its tiles scan no summaries) */
  d[ORX_DEFINE_KEY_WARP_SCAN] =
      !request->key_pass && scans_by_warp(target, p->wg_size, chunks, key);
  counted = counted && p->wg_size % 32 == 0; /* the count's sums: warps of 32 work-items */
  d[ORX_DEFINE_KEY_COUNTED] = counted ? (request->key_pass ? request->key_pass : 3) : 0;
  if (counted) /* a tile is its group's id, and no look-back is read */
    d[ORX_DEFINE_KEY_IN_ORDER] = d[ORX_DEFINE_KEY_WARP_JOIN] = 0;
  d[ORX_DEFINE_SYNC] = p->sync;
}

uint64_t orx_by_key_tile(const orx_plan *plan) {
  return (uint64_t)plan->policy.wg_size * plan->key_run;
}

/* Per tile: an AGGREGATE's and a PREFIX's summary, ORX_KEY_WORDS tagged words of 8 bytes each
 * (kernels/by_key.cl), after the ticket and the run count. */
#define ORX_KEY_HEADER_BYTES (2 * 8)

/* The counted form's (lib/orx_key_counted.cl) takes per tile its heads before it within its group,
 * its place, whether its head partial holds elements, its last run's start, a value each for its
 * head partial and last run, and a group's heads (counted here as a word per tile, so that the
 * tiles a scratch holds follow from its bytes), and a last place after the header. */
static size_t tile_bytes(const orx_plan *plan) {
  if (plan->defines[ORX_DEFINE_KEY_COUNTED]) {
    const size_t value = plan->op.state_bytes ? plan->op.state_bytes : orx_type_size(plan->type);
    return 5 * 8 + 2 * ((value + 7) / 8 * 8);
  }
  return 2 * (size_t)plan->defines[ORX_DEFINE_KEY_WORDS] * 8;
}

static size_t header_bytes(const orx_plan *plan) {
  return ORX_KEY_HEADER_BYTES + (plan->defines[ORX_DEFINE_KEY_COUNTED] ? 8 : 0);
}

size_t orx_by_key_scratch_bytes(const orx_plan *plan, uint64_t tiles) {
  return header_bytes(plan) + (size_t)tiles * tile_bytes(plan);
}

uint64_t orx_by_key_scratch_tiles(const orx_plan *plan, size_t bytes) {
  return bytes < header_bytes(plan) ? 0 : (bytes - header_bytes(plan)) / tile_bytes(plan);
}
