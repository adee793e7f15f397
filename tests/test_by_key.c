/* =================================================================================================
 * test_by_key.c: reductions of the runs of equal keys (ocl_reduce_by_key) against a sequential
 * host reference: the runs found by comparing each key with the one before it, each run's values
 * reduced by the operator's reference (support/structured.h; the user operators' own folds).
 *
 * Every built-in operator on every type, over keys of each width whose runs are 1-3 long, 31-33
 * and 255-257 long (around subgroups and work-groups), a few thousand long, random 1-64, and equal
 * keys apart (separate runs); inputs and outputs in host memory and in buffers at offsets, buffers
 * through both plans (the one-pass kernel forced where the device would not take it, the runs
 * found on the host forced where it would) and through both forms of the kernel (tiles, loading
 * through local memory or straight into registers, and chunks of 64 pairs), every other case
 * each; the patterns also with host inputs into buffers and buffers into host outputs; all keys
 * equal, all distinct, runs of 1-2 over 2^18 elements, one pair, none; NaN values;
 * order-preserving and user operators in every placement, their runs' starts found by the kernel
 * or the runs found on the host; the CROSS_DEVICE bits of each run against ocl_reduce of
 * that run alone. Sizing: outputs of exactly the runs, one fewer (OUTPUT_TOO_SMALL, the count,
 * nothing written: checked byte by byte), none. Argument errors, each leaving the outputs
 * untouched.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_group.h"
#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/ordered_ops.h"
#include "support/structured.h"

static ocl_reduce_context *cross_ctx; /* OCL_REDUCE_DETERMINISM=cross_device */
/* The two plans forced (plan_by_key.h): the one-pass kernel wherever the device orders
 * work-groups (the planner's choice there), and the runs found on the host. */
static ocl_reduce_context *pass_ctx, *runs_ctx;
/* The one-pass kernel's two forms forced, whichever the device takes: tiles a work-group scans
 * (GPUs'), and chunks a work-item walks (CPU devices'), here of 64 pairs, so that a few thousand
 * pairs join through a look-back over a hundred chunks. The tiles' look-back joins its windows in
 * local memory (CUDA's), forced on NVIDIA's OpenCL too, they take tiles by ticket (every device
 * but NVIDIA's OpenCL), and scan their work-items' summaries through local memory (forced on
 * NVIDIA's warps too). */
static ocl_reduce_context *tiles_ctx, *chunks_ctx;
/* Tiles whose loads go straight into registers (key_direct: CUDA's), whose look-back joins its
 * windows by a warp's shuffles (key_warp_join: NVIDIA's OpenCL's), that are their groups' ids
 * (key_in_order: NVIDIA's OpenCL's), and that scan by warps' shuffles (key_warp_scan: NVIDIA's),
 * forced where they can. */
static ocl_reduce_context *direct_ctx;
/* Tiles whose runs are counted first (key_counted: lib/orx_key_counted.cl), where the others
 * above are forced to the look-back. Not forced to 16-byte loads (key_direct: NVIDIA's, whose
 * runs of the suite take them): PoCL 3.1 gave wrong run counts from such programs (kernels of
 * 777d8cb too) where the buffers' offset took the loads through local memory, and compiled the
 * count's unrolled loop for more than half an hour. */
static ocl_reduce_context *counted_ctx;
static ocl_reduce_context *cross_pass_ctx; /* cross_device, the one-pass kernel forced */
/* Host memory copied to the device, where CPU devices would view it where it lies. */
static ocl_reduce_context *uploads_ctx;

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  cross_ctx = test_context_cross_device();
  pass_ctx = test_context_with_policy("by_key=pass");
  runs_ctx = test_context_with_policy("by_key=runs");
  tiles_ctx =
      test_context_with_policy("by_key=pass,key_chunks=0,key_warp_join=0,key_in_order=0,"
                               "key_counted=0,key_warp_scan=0");
  chunks_ctx = test_context_with_policy("by_key=pass,key_chunks=1,key_run=64");
  direct_ctx =
      test_context_with_policy("by_key=pass,key_chunks=0,key_direct=1,key_warp_join=1,"
                               "key_in_order=1,key_counted=0,key_warp_scan=1");
  counted_ctx = test_context_with_policy("by_key=pass,key_chunks=0,key_counted=1");
  uploads_ctx = test_context_with_policy("by_key=pass,host_views=0");
  setenv("OCL_REDUCE_DETERMINISM", "cross_device", 1);
  cross_pass_ctx = test_context_with_policy("by_key=pass");
  unsetenv("OCL_REDUCE_DETERMINISM");
  return cross_ctx && pass_ctx && runs_ctx && tiles_ctx && chunks_ctx && direct_ctx &&
                 counted_ctx && cross_pass_ctx && uploads_ctx
             ? 0
             : -1;
}

static int teardown(void **state) {
  ocl_reduce_context_destroy(cross_ctx);
  ocl_reduce_context_destroy(pass_ctx);
  ocl_reduce_context_destroy(runs_ctx);
  ocl_reduce_context_destroy(tiles_ctx);
  ocl_reduce_context_destroy(chunks_ctx);
  ocl_reduce_context_destroy(direct_ctx);
  ocl_reduce_context_destroy(counted_ctx);
  ocl_reduce_context_destroy(cross_pass_ctx);
  ocl_reduce_context_destroy(uploads_ctx);
  return test_teardown(state);
}

/* ---- Keys --------------------------------------------------------------------------------- */

static const ocl_reduce_type key_types[] = {OCL_REDUCE_I32, OCL_REDUCE_U32, OCL_REDUCE_I64,
                                            OCL_REDUCE_U64};

/* count keys of key_type whose runs have the lengths in `lengths` (n of them, summing to count),
 * each run's key differing from the one before it; run 3's key is run 1's again (equal keys
 * apart), and keys of 8 bytes differ from their neighbours in the high half only now and then. */
static void *keys_of_runs(ocl_reduce_type key_type, const size_t *lengths, size_t n,
                          size_t count) {
  const size_t kb = ocl_reduce_type_size(key_type);
  unsigned char *keys = malloc(count * kb + 1);
  assert_non_null(keys);
  uint64_t key = test_rng_next(), first_keys[2] = {0, 0};
  size_t at = 0;
  for (size_t r = 0; r < n; r++) {
    uint64_t next = key + 1 + test_rng_below(1000);
    if (kb == 8 && r % 3 == 1)
      next = key ^ ((uint64_t)(1 + test_rng_below(255)) << 40); /* the low half stays */
    if (r == 3 && lengths[2] > 0)
      next = first_keys[1]; /* equal to run 1's: apart, so a run of its own */
    if (r < 2)
      first_keys[r] = next;
    key = next;
    for (size_t i = 0; i < lengths[r]; i++, at++) {
      if (kb == 4) {
        const uint32_t k32 = (uint32_t)key;
        memcpy(keys + at * 4, &k32, 4);
      } else {
        memcpy(keys + at * 8, &key, 8);
      }
    }
  }
  assert_int_equal(at, count);
  return keys;
}

/* Run lengths for a sweep: every pattern the kernels' boundaries care about, then random ones up
 * to `count` in all. Returns how many. */
static size_t sweep_lengths(size_t *lengths, size_t capacity, size_t count) {
  static const size_t fixed[] = {1, 2, 1, 3, 31, 32, 33, 255, 256, 257, 1, 4097, 1, 1};
  size_t n = 0, total = 0;
  for (; n < sizeof fixed / sizeof fixed[0] && total + fixed[n] <= count; n++)
    total += lengths[n] = fixed[n];
  while (total < count && n < capacity) {
    size_t len = 1 + test_rng_below(64);
    if (len > count - total)
      len = count - total;
    total += lengths[n++] = len;
  }
  assert_int_equal(total, count);
  return n;
}

/* ---- One call ------------------------------------------------------------------------------- */

typedef struct key_case {
  ocl_reduce_context *ctx;
  ocl_reduce_op op;
  ocl_reduce_type type, key_type;
  const void *keys, *values;
  size_t count;
  size_t key_room, result_room; /* runs the outputs hold */
  int on_device;                /* PLACED_*: where the inputs and outputs are */
} key_case;
/* Where a case's memory is: all host memory, all buffers (at element offsets 1-3), the inputs in
 * host memory and the outputs in buffers, or the other way round; or all buffers at offsets of 8
 * elements (16-byte boundaries). */
enum {
  PLACED_HOST = 0,
  PLACED_BUFFERS = 1,
  PLACED_HOST_INPUTS = 2,
  PLACED_HOST_OUTPUTS = 3,
  PLACED_ALIGNED_BUFFERS = 4
};

static const ocl_reduce_operator_desc *user_desc; /* the user operator's, while one runs */

/* Bytes of one value: the type's, or the user operator's element. */
static size_t value_bytes(const key_case *c) {
  return c->type == OCL_REDUCE_OP_ELEMENT ? user_desc->element_size
                                          : ocl_reduce_type_size(c->type);
}

/* The call; outputs land in keys_out and results (key_room / result_room of them, filled with
 * 0xa5 first, which stays wherever nothing was written). */
static ocl_reduce_status run_case(const key_case *c, void *keys_out, void *results,
                                  uint64_t *run_count) {
  const size_t kb = ocl_reduce_type_size(c->key_type);
  const size_t elem = value_bytes(c);
  const size_t rb = ocl_reduce_result_size(c->op, c->type);
  memset(keys_out, 0xa5, c->key_room * kb);
  memset(results, 0xa5, c->result_room * rb);
  const int aligned = c->on_device == PLACED_ALIGNED_BUFFERS;
  const int in_buffers = c->on_device == PLACED_BUFFERS || c->on_device == PLACED_HOST_OUTPUTS ||
                         aligned;
  const int out_buffers = c->on_device == PLACED_BUFFERS || c->on_device == PLACED_HOST_INPUTS ||
                          aligned;
  const size_t ka = aligned ? 8 : 1 + c->count % 3, va = aligned ? 8 : 2, koa = 3, ra = 1;
  ocl_reduce_buffer *kin = NULL, *vin = NULL, *kout = NULL, *rout = NULL;
  ocl_reduce_context *ctx = c->ctx;
  ocl_reduce_input keys = ocl_reduce_host_input(c->keys, c->count * kb);
  ocl_reduce_input values = ocl_reduce_host_input(c->values, c->count * elem);
  ocl_reduce_output keys_to = ocl_reduce_host_output(keys_out, c->key_room * kb);
  ocl_reduce_output results_to = ocl_reduce_host_output(results, c->result_room * rb);
  if (in_buffers) {
    assert_int_equal(ocl_reduce_buffer_create(ctx, (c->count + ka) * kb, &kin), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_create(ctx, (c->count + va) * elem + 1, &vin),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(kin, ka * kb, c->keys, c->count * kb),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(vin, va * elem, c->values, c->count * elem),
                     OCL_REDUCE_OK);
    keys = ocl_reduce_buffer_input(kin, ka);
    values = ocl_reduce_buffer_input(vin, va);
  }
  if (out_buffers) {
    assert_int_equal(ocl_reduce_buffer_create(ctx, (c->key_room + koa) * kb, &kout),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_create(ctx, (c->result_room + ra) * rb, &rout),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(kout, koa * kb, keys_out, c->key_room * kb),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(rout, ra * rb, results, c->result_room * rb),
                     OCL_REDUCE_OK);
    keys_to = ocl_reduce_buffer_output(kout, koa);
    results_to = ocl_reduce_buffer_output(rout, ra);
  }
  const ocl_reduce_status s = ocl_reduce_by_key(ctx, c->op, c->type, c->key_type, keys, values,
                                                c->count, keys_to, results_to, run_count);
  if (out_buffers) {
    assert_int_equal(ocl_reduce_buffer_read(kout, koa * kb, keys_out, c->key_room * kb),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_read(rout, ra * rb, results, c->result_room * rb),
                     OCL_REDUCE_OK);
  }
  ocl_reduce_buffer_destroy(kin);
  ocl_reduce_buffer_destroy(vin);
  ocl_reduce_buffer_destroy(kout);
  ocl_reduce_buffer_destroy(rout);
  return s;
}

/* Whether `size` bytes at p are all 0xa5 (nothing written). */
static int untouched(const void *p, size_t size) {
  const unsigned char *b = p;
  for (size_t i = 0; i < size; i++)
    if (b[i] != 0xa5)
      return 0;
  return 1;
}

/* Result r of a built-in operator against the reference of its run; 1 on a mismatch. */
static int builtin_mismatch(const key_case *c, const unsigned char *got, size_t first, size_t n,
                            size_t r) {
  const size_t elem = ocl_reduce_type_size(c->type);
  char why[256];
  if (test_result_matches(got, (const unsigned char *)c->values + first * elem, n, c->op,
                          c->type, why, sizeof why))
    return 0;
  print_error("%s %s, %s keys, %zu elements (%s): run %zu [%zu, +%zu): %s\n",
              ocl_reduce_op_name(c->op), ocl_reduce_type_name(c->type),
              ocl_reduce_type_name(c->key_type), c->count,
              (const char *[]){"host", "buffers", "host inputs", "host outputs",
                               "aligned buffers"}[c->on_device],
              r, first, n, why);
  return 1;
}

typedef int (*result_check)(const key_case *c, const unsigned char *got, size_t first, size_t n,
                            size_t r);

/* The runs of a case's outputs that are wrong, their keys against the keys at `heads` and their
 * results by `check`; the first five printed. */
static int runs_mismatch(const key_case *c, const unsigned char *keys_out,
                         const unsigned char *results, const size_t *heads, size_t runs,
                         result_check check) {
  const size_t kb = ocl_reduce_type_size(c->key_type), rb = ocl_reduce_result_size(c->op, c->type);
  int bad = 0;
  for (size_t r = 0; r < runs && bad < 5; r++) {
    if (memcmp(keys_out + r * kb, (const unsigned char *)c->keys + heads[r] * kb, kb) != 0) {
      print_error("run %zu: its key differs\n", r);
      bad++;
    }
    bad += check(c, results + r * rb, heads[r], heads[r + 1] - heads[r], r);
  }
  return bad;
}

/* Runs a case with room for every run (half the time for a run per element: the one-pass plan
 * writes those at once, into buffers or host memory viewed where it lies, and stages or counts
 * the runs first for the others) and checks the count, each run's key and result (by `check`),
 * and that nothing past the runs was written. */
static void check_case(key_case c, result_check check) {
  const size_t kb = ocl_reduce_type_size(c.key_type), rb = ocl_reduce_result_size(c.op, c.type);
  size_t *heads = malloc((c.count + 1) * sizeof *heads);
  assert_non_null(heads);
  const size_t runs = test_key_runs(c.keys, kb, c.count, heads);
  c.key_room = c.result_room = (test_rng_below(2) ? c.count : runs) + 2;
  unsigned char *keys_out = malloc(c.key_room * kb), *results = malloc(c.result_room * rb);
  assert_true(keys_out && results);
  uint64_t run_count = 12345;
  const ocl_reduce_status s = run_case(&c, keys_out, results, &run_count);
  if (s != OCL_REDUCE_OK)
    fail_msg("%s: %s (%s)", ocl_reduce_op_name(c.op), ocl_reduce_status_name(s),
             ocl_reduce_last_error(c.ctx));
  assert_int_equal(run_count, runs);
  const int bad = runs_mismatch(&c, keys_out, results, heads, runs, check);
  assert_true(untouched(keys_out + runs * kb, (c.key_room - runs) * kb));
  assert_true(untouched(results + runs * rb, (c.result_room - runs) * rb));
  free(heads);
  free(keys_out);
  free(results);
  assert_int_equal(bad, 0);
}

/* Runs a case whose outputs hold key_room keys and result_room results, fewer than its `runs`:
 * OUTPUT_TOO_SMALL, the count, and both outputs untouched. */
static void check_too_small(key_case c, size_t key_room, size_t result_room, size_t runs,
                            void *keys_out, void *results) {
  c.key_room = key_room;
  c.result_room = result_room;
  uint64_t got = 99;
  char expected[64];
  snprintf(expected, sizeof expected, "the keys form %zu runs", runs);
  expect_error(run_case(&c, keys_out, results, &got), OCL_REDUCE_ERROR_OUTPUT_TOO_SMALL, c.ctx,
               expected);
  assert_int_equal(got, runs);
  assert_true(untouched(keys_out, key_room * ocl_reduce_type_size(c.key_type)));
  assert_true(untouched(results, result_room * ocl_reduce_result_size(c.op, c.type)));
}

/* ---- Every built-in operator on every type ------------------------------------------------ */

/* op on type over the sweep's runs, keys of each width in turn, host memory and buffers. */
static void sweep_op(ocl_reduce_op op, ocl_reduce_type type) {
  /* Which key type and kernel form the case takes: each in turn over operators and types. */
  const size_t variant = (size_t)op * 3 + (size_t)type;
  /* Light runs (tests/discover_tests.cmake.in): every operator on two types (the segments'
   * kernels, which test_segments sweeps; this checks the runs around them). */
  if (test_light() && type != OCL_REDUCE_I32 && type != OCL_REDUCE_F16)
    return;
  if (type == OCL_REDUCE_F64 && !test_has_fp64())
    return;
  if (op == OCL_REDUCE_MEAN_VAR && !test_has_fp64())
    return;
  const size_t count = test_light() ? 6000 : 9000, elem = ocl_reduce_type_size(type);
  size_t lengths[9000];
  const size_t n = sweep_lengths(lengths, sizeof lengths / sizeof lengths[0], count);
  for (int on_device = 0; on_device < 2; on_device++) {
    const ocl_reduce_type key_type = key_types[(variant + (size_t)on_device) % 4];
    void *keys = keys_of_runs(key_type, lengths, n, count);
    void *values = malloc(count * elem);
    assert_non_null(values);
    test_fill(values, count, op, type, MODE_RANDOM);
    /* Buffers through the kernel's chunks every other operator and type, else its tiles: loaded
     * straight into registers (forced, from 16-byte boundaries) or as the planner loads them
     * (from offsets off those boundaries, which the direct loads leave to local memory), the
     * latter with the look-back and counted first in turns. One plan per case either way: CI's
     * time. */
    const int direct = variant % 4 == 0;
    ocl_reduce_context *device_ctx = variant % 2          ? chunks_ctx
                                     : direct             ? direct_ctx
                                     : variant % 8 == 2   ? counted_ctx
                                                          : tiles_ctx;
    const key_case c = {on_device ? device_ctx : test_ctx, op, type, key_type, keys, values, count,
                        0, 0, on_device && direct ? PLACED_ALIGNED_BUFFERS : on_device};
    check_case(c, builtin_mismatch);
    free(keys);
    free(values);
  }
}

#define SCALAR_TEST(OP, TYPE)                                                                      \
  static void test_##OP##_##TYPE(void **state) {                                                   \
    (void)state;                                                                                   \
    sweep_op(OCL_REDUCE_##OP, OCL_REDUCE_##TYPE);                                                  \
  }
TEST_OP_TYPES(SCALAR_TEST)
TEST_STRUCTURED_OP_TYPES(SCALAR_TEST)
#undef SCALAR_TEST

/* ---- Patterns ------------------------------------------------------------------------------ */

/* i32 SUM (exact) over runs of the given lengths in each placement (i64 keys where the inputs are
 * host memory, u32 keys in buffers), through both plans and host memory copied. */
static void check_i32_sum(const size_t *lengths, size_t n) {
  size_t count = 0;
  for (size_t r = 0; r < n; r++)
    count += lengths[r];
  for (int on_device = 0; on_device < 4; on_device++) {
    const ocl_reduce_type key_type = on_device % 2 ? OCL_REDUCE_U32 : OCL_REDUCE_I64;
    void *keys = keys_of_runs(key_type, lengths, n, count);
    int32_t *values = malloc((count + 1) * sizeof *values);
    assert_non_null(values);
    /* From the allocation's second element: host memory off 16-byte boundaries. */
    test_fill(values + 1, count, OCL_REDUCE_SUM, OCL_REDUCE_I32, MODE_RANDOM);
    /* Each placement through both plans, and the pass with host memory copied to the device. */
    ocl_reduce_context *const plans[] = {pass_ctx, runs_ctx, uploads_ctx};
    for (int plan = 0; plan < 3; plan++) {
      const key_case c = {plans[plan], OCL_REDUCE_SUM, OCL_REDUCE_I32, key_type, keys,
                          values + 1, count, 0, 0, on_device};
      check_case(c, builtin_mismatch);
    }
    free(keys);
    free(values);
  }
}

static void test_patterns(void **state) {
  (void)state;
  static const size_t one[] = {1}, pair[] = {1, 1}, all_equal[] = {20000};
  check_i32_sum(one, 1);
  check_i32_sum(pair, 2);
  check_i32_sum(all_equal, 1);
  size_t distinct[3000];
  for (size_t r = 0; r < 3000; r++)
    distinct[r] = 1;
  check_i32_sum(distinct, 3000);
  /* Long runs over several work-groups, between short ones. */
  static const size_t long_runs[] = {70000, 1, 100003, 2, 65536};
  check_i32_sum(long_runs, sizeof long_runs / sizeof long_runs[0]);
  /* Runs of 1 and 2 over 2^18 + 3 elements: tens of the one-pass kernel's tiles, each closing
   * thousands of runs, whose look-back reads several windows. */
  const size_t short_count = 174764;
  size_t *short_runs = malloc(short_count * sizeof *short_runs);
  assert_non_null(short_runs);
  for (size_t r = 0; r < short_count; r++)
    short_runs[r] = 1 + r % 2 + (r == 0);
  check_i32_sum(short_runs, short_count);
  free(short_runs);
}

/* ARGMIN and ARGMAX of 4-byte values through tiles, which keep a run that starts within the tile
 * in 8 bytes (its index from the run's start) and the run carried in whole (kernels/by_key.cl):
 * long runs whose extreme lies tiles before the run ends (at its first element half the time),
 * between short ones, through both loads of the tiles: local memory (buffers at an offset) and
 * registers (forced, from 16-byte boundaries); and ARGMIN counted first, whose runs across tiles
 * are completed by their own pass (lib/orx_key_counted.cl). */
static void test_index_states_across_tiles(void **state) {
  (void)state;
  static const size_t lengths[] = {5000, 1, 2, 3, 9000, 31, 4097, 1, 7000, 64, 2, 1};
  const size_t n = sizeof lengths / sizeof lengths[0];
  size_t count = 0;
  for (size_t r = 0; r < n; r++)
    count += lengths[r];
  const ocl_reduce_op ops[] = {OCL_REDUCE_ARGMIN, OCL_REDUCE_ARGMAX};
  const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_I32};
  for (int form = 0; form < 3; form++) {
    const int arg_max = form == 1; /* forms 0 and 2: ARGMIN of F32 */
    const ocl_reduce_type key_type = arg_max ? OCL_REDUCE_U64 : OCL_REDUCE_I32;
    void *keys = keys_of_runs(key_type, lengths, n, count);
    void *values = malloc(count * 4);
    assert_non_null(values);
    test_fill(values, count, ops[arg_max], types[arg_max], MODE_RANDOM);
    size_t at = 0;
    for (size_t r = 0; r < n; at += lengths[r++])
      if (r % 2 == 0) { /* the run's first element is its extreme */
        if (types[arg_max] == OCL_REDUCE_F32)
          ((float *)values)[at] = arg_max ? 1e30f : -1e30f;
        else
          ((int32_t *)values)[at] = arg_max ? INT32_MAX : INT32_MIN;
      }
    ocl_reduce_context *ctx = form == 2 ? counted_ctx : arg_max ? direct_ctx : tiles_ctx;
    const key_case c = {ctx, ops[arg_max], types[arg_max], key_type, keys, values, count, 0, 0,
                        arg_max ? PLACED_ALIGNED_BUFFERS : PLACED_BUFFERS};
    check_case(c, builtin_mismatch);
    free(keys);
    free(values);
  }
}

/* NaN values: a run holding one gives NaN for MAX and SUM; the runs beside it do not. */
static void test_nan_values(void **state) {
  (void)state;
  static const size_t lengths[] = {5, 300, 7, 1, 40};
  const size_t count = 353;
  int32_t *keys = keys_of_runs(OCL_REDUCE_I32, lengths, 5, count);
  float values[353];
  for (size_t i = 0; i < count; i++)
    values[i] = (float)test_rng_unit();
  values[5 + 123] = __builtin_nanf("");
  const ocl_reduce_op ops[] = {OCL_REDUCE_MAX, OCL_REDUCE_SUM};
  for (size_t o = 0; o < 2; o++) {
    const key_case c = {o ? pass_ctx : test_ctx, ops[o], OCL_REDUCE_F32, OCL_REDUCE_I32, keys,
                        values, count, 0, 0, (int)o};
    check_case(c, builtin_mismatch);
    float got[8];
    int32_t runs_keys[8];
    uint64_t runs = 0;
    assert_int_equal(ocl_reduce_by_key(test_ctx, ops[o], OCL_REDUCE_F32, OCL_REDUCE_I32,
                                       ocl_reduce_host_input(keys, count * 4),
                                       ocl_reduce_host_input(values, sizeof values), count,
                                       ocl_reduce_host_output(runs_keys, sizeof runs_keys),
                                       ocl_reduce_host_output(got, sizeof got), &runs),
                     OCL_REDUCE_OK);
    assert_int_equal(runs, 5);
    assert_true(got[1] != got[1]);
    assert_true(got[0] == got[0] && got[2] == got[2] && got[4] == got[4]);
  }
  free(keys);
}

/* ---- User operators -------------------------------------------------------------------------- */

static ocl_reduce_operator *user_op; /* the operator check_user's cases run */
static int user_ordered;             /* whether it is test_ordered's, else test_custom's */
static int user_kind;

static int user_mismatch(const key_case *c, const unsigned char *got, size_t first, size_t n,
                         size_t r) {
  unsigned char want[256];
  const ocl_reduce_operator_desc *d = user_desc;
  const unsigned char *values = (const unsigned char *)c->values + first * d->element_size;
  int ok;
  if (user_ordered) {
    ok = test_ordered_matches((test_ordered)user_kind, values, n, got);
  } else {
    test_custom_reference((test_custom)user_kind, values, n, want);
    ok = memcmp(got, want, d->state_size) == 0;
  }
  if (!ok)
    print_error("%s: run %zu [%zu, +%zu) differs\n", d->name ? d->name : "user operator", r, first,
                n);
  return !ok;
}

/* The user operator of `desc` over the sweep's runs, in every placement, through both plans. */
static void check_user(const ocl_reduce_operator_desc *desc, int ordered, int kind) {
  assert_int_equal(ocl_reduce_operator_create(desc, &user_op), OCL_REDUCE_OK);
  user_desc = desc;
  user_ordered = ordered;
  user_kind = kind;
  const size_t count = 3000;
  size_t lengths[3000];
  const size_t n = sweep_lengths(lengths, 3000, count);
  unsigned char *values = malloc(count * desc->element_size);
  assert_non_null(values);
  if (ordered)
    test_ordered_fill((test_ordered)kind, values, count);
  else
    test_custom_fill((test_custom)kind, values, count);
  for (int on_device = 0; on_device < 4; on_device++) {
    const ocl_reduce_type key_type = on_device % 2 ? OCL_REDUCE_U64 : OCL_REDUCE_I32;
    void *keys = keys_of_runs(key_type, lengths, n, count);
    /* Each placement through both plans: the runs' starts found by the kernel (in tiles, counted
     * first or not, or in chunks of 64 pairs), then their segments reduced; and the runs found on
     * the host. Host
     * inputs land in scratch on 16-byte boundaries, where tiles of direct_ctx load their keys
     * straight into registers. */
    for (int plan = 0; plan < 2; plan++) {
      ocl_reduce_context *pass = on_device == 3   ? counted_ctx
                                 : on_device == 1 ? chunks_ctx
                                 : on_device      ? direct_ctx
                                                  : tiles_ctx;
      const key_case c = {plan ? runs_ctx : pass, user_op, OCL_REDUCE_OP_ELEMENT, key_type, keys,
                          values, count, 0, 0, on_device};
      check_case(c, user_mismatch);
    }
    free(keys);
  }
  free(values);
  ocl_reduce_operator_destroy(user_op);
}

static void test_user_operators(void **state) {
  (void)state;
  check_user(&test_ordered_descs[TEST_MATRIX], 1, TEST_MATRIX);
  check_user(&test_ordered_descs[TEST_FSM], 1, TEST_FSM);
  check_user(&test_custom_descs[TEST_SQUARES], 0, TEST_SQUARES);
  check_user(&test_custom_descs[TEST_ABOVE], 0, TEST_ABOVE); /* the index from the run's start */
}

/* ---- Determinism --------------------------------------------------------------------------- */

/* f32 SUM of keys' runs on ctx into keys_out and sums (count of each); the runs. */
static uint64_t sum_runs(ocl_reduce_context *ctx, const int32_t *keys, const float *values,
                         size_t count, int32_t *keys_out, float *sums) {
  uint64_t runs = 0;
  assert_int_equal(ocl_reduce_by_key(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, OCL_REDUCE_I32,
                                     ocl_reduce_host_input(keys, count * 4),
                                     ocl_reduce_host_input(values, count * 4), count,
                                     ocl_reduce_host_output(keys_out, count * 4),
                                     ocl_reduce_host_output(sums, count * 4), &runs),
                   OCL_REDUCE_OK);
  return runs;
}

/* CROSS_DEVICE: each run's f32 SUM has the bits of ocl_reduce of that run alone (the reproducible
 * sum's), from host memory and through buffers (the one-pass kernel, forced); either mode: two
 * calls, the same bits. */
static void test_cross_device_bits(void **state) {
  (void)state;
  const size_t count = 9000;
  size_t lengths[9000];
  const size_t n = sweep_lengths(lengths, 9000, count);
  int32_t *keys = keys_of_runs(OCL_REDUCE_I32, lengths, n, count);
  float *values = malloc(count * sizeof *values), *got = malloc(count * sizeof *got);
  float *again = malloc(count * sizeof *again);
  int32_t *keys_out = malloc(count * sizeof *keys_out);
  assert_true(values && got && again && keys_out);
  test_fill(values, count, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
  const uint64_t runs = sum_runs(test_ctx, keys, values, count, keys_out, got);
  assert_int_equal(sum_runs(test_ctx, keys, values, count, keys_out, again), runs);
  assert_memory_equal(got, again, runs * sizeof *got);
  assert_int_equal(sum_runs(cross_ctx, keys, values, count, keys_out, got), runs);
  size_t first = 0;
  for (size_t r = 0; r < runs; r++) {
    size_t end = first + 1;
    while (end < count && keys[end] == keys[first])
      end++;
    float alone;
    assert_int_equal(ocl_reduce(cross_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, values + first,
                                end - first, &alone, sizeof alone),
                     OCL_REDUCE_OK);
    assert_memory_equal(&got[r], &alone, sizeof alone);
    first = end;
  }
  assert_int_equal(first, count);
  const key_case c = {cross_pass_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, OCL_REDUCE_I32, keys,
                      values, count, count, count, 1};
  float *sums = malloc(count * sizeof *sums);
  int32_t *run_keys = malloc(count * sizeof *run_keys);
  assert_true(sums && run_keys);
  uint64_t on_device = 0;
  assert_int_equal(run_case(&c, run_keys, sums, &on_device), OCL_REDUCE_OK);
  assert_int_equal(on_device, runs);
  assert_memory_equal(sums, got, runs * sizeof *got);
  free(sums);
  free(run_keys);
  free(keys);
  free(values);
  free(got);
  free(again);
  free(keys_out);
}

/* ---- Over a group ----------------------------------------------------------------------- */

/* The group's call with outputs of `room` runs (runs - 1: refused, nothing written), checked. */
static void check_group_call(ocl_reduce_group *group, const key_case *c, const size_t *heads,
                             size_t runs, size_t room, uint32_t *keys_out,
                             unsigned char *results) {
  const size_t elem = ocl_reduce_type_size(c->type), rb = ocl_reduce_result_size(c->op, c->type);
  const uint32_t *keys = c->keys;
  memset(keys_out, 0xa5, runs * 4);
  memset(results, 0xa5, runs * rb);
  uint64_t got = 0;
  const ocl_reduce_status st = ocl_reduce_group_by_key(
      group, c->op, c->type, OCL_REDUCE_U32, ocl_reduce_host_input(keys, c->count * 4),
      ocl_reduce_host_input(c->values, c->count * elem), c->count,
      ocl_reduce_host_output(keys_out, room * 4), ocl_reduce_host_output(results, room * rb),
      &got);
  assert_int_equal(got, runs);
  if (room < runs) {
    expect_error(st, OCL_REDUCE_ERROR_OUTPUT_TOO_SMALL, NULL, "ocl_reduce_group_by_key");
    assert_true(untouched(keys_out, runs * 4) && untouched(results, runs * rb));
    return;
  }
  assert_int_equal(st, OCL_REDUCE_OK);
  for (size_t r = 0; r < runs; r++) {
    assert_int_equal(keys_out[r], keys[heads[r]]);
    assert_int_equal(builtin_mismatch(c, results + r * rb, heads[r], heads[r + 1] - heads[r], r),
                     0);
  }
}

/* ocl_reduce_group_by_key over two contexts on the device: each run's key and result against the
 * reference (i32 SUM, f32 ARGMIN, f16 MAX), outputs one short refused, buffers refused. */
static void test_group_form(void **state) {
  (void)state;
  ocl_reduce_context *members[2] = {test_context_with_policy("part_kib=1"),
                                    test_context_with_policy("part_kib=1")};
  assert_true(members[0] && members[1]);
  ocl_reduce_group *group = NULL;
  assert_int_equal(ocl_reduce_group_create_from(members, 2, &group), OCL_REDUCE_OK);
  const size_t count = 9000;
  size_t lengths[9000], heads[9001];
  const size_t n = sweep_lengths(lengths, 9000, count);
  uint32_t *keys = keys_of_runs(OCL_REDUCE_U32, lengths, n, count);
  const size_t runs = test_key_runs(keys, 4, count, heads);
  const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_ARGMIN, OCL_REDUCE_MAX};
  const ocl_reduce_type types[] = {OCL_REDUCE_I32, OCL_REDUCE_F32, OCL_REDUCE_F16};
  unsigned char *values = malloc(count * 4), *results = malloc(runs * 16);
  uint32_t *keys_out = malloc(runs * 4);
  assert_true(values && results && keys_out);
  for (size_t o = 0; o < 3; o++) {
    test_fill(values, count, ops[o], types[o], MODE_RANDOM);
    const key_case c = {test_ctx, ops[o], types[o], OCL_REDUCE_U32, keys, values, count, 0, 0, 0};
    check_group_call(group, &c, heads, runs, runs - 1, keys_out, results);
    check_group_call(group, &c, heads, runs, runs, keys_out, results);
  }
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(members[0], count * 4, &buf), OCL_REDUCE_OK);
  uint64_t got = 0;
  expect_error(ocl_reduce_group_by_key(group, OCL_REDUCE_SUM, OCL_REDUCE_I32, OCL_REDUCE_U32,
                                       ocl_reduce_buffer_input(buf, 0),
                                       ocl_reduce_host_input(values, count * 4), count,
                                       ocl_reduce_host_output(keys_out, runs * 4),
                                       ocl_reduce_host_output(results, runs * 4), &got),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, NULL, "keys is a buffer");
  ocl_reduce_buffer_destroy(buf);
  ocl_reduce_group_destroy(group);
  ocl_reduce_context_destroy(members[0]);
  ocl_reduce_context_destroy(members[1]);
  free(keys);
  free(values);
  free(results);
  free(keys_out);
}

/* ---- Sizing -------------------------------------------------------------------------------- */

/* Outputs of exactly the runs: OK; one fewer in either, or none: OUTPUT_TOO_SMALL, the count,
 * nothing written; host memory and buffers. */
static void test_sizing(void **state) {
  (void)state;
  static const size_t lengths[] = {3, 1, 40, 2, 2, 9};
  const size_t count = 57, runs = 6;
  int64_t *keys = keys_of_runs(OCL_REDUCE_I64, lengths, runs, count);
  double values[57];
  for (size_t i = 0; i < count; i++)
    values[i] = (double)(i % 7);
  int64_t keys_out[8];
  double results[8];
  /* Host memory, then buffers through each plan (the one pass counts the runs first). */
  for (int form = 0; form < 3; form++) {
    ocl_reduce_context *ctx = form == 0 ? test_ctx : form == 1 ? runs_ctx : pass_ctx;
    key_case c = {ctx, OCL_REDUCE_MAX, OCL_REDUCE_F64, OCL_REDUCE_I64, keys, values,
                  count, runs, runs, form > 0};
    if (!test_has_fp64())
      c.type = OCL_REDUCE_I64, c.values = keys; /* i64 MAX of the keys themselves */
    uint64_t got = 0;
    assert_int_equal(run_case(&c, keys_out, results, &got), OCL_REDUCE_OK);
    assert_int_equal(got, runs);
    for (size_t r = 0, head = 0; r < runs; head += lengths[r++]) {
      assert_int_equal(keys_out[r], keys[head]);
      double most = values[head];
      for (size_t i = head + 1; i < head + lengths[r]; i++)
        most = values[i] > most ? values[i] : most;
      if (test_has_fp64()) /* else the keys' own MAX: the run's key */
        assert_true(results[r] == most);
    }
    const size_t rooms[][2] = {{runs - 1, runs}, {runs, runs - 1}, {0, 0}, {runs - 1, runs - 1}};
    for (size_t k = 0; k < 4; k++)
      check_too_small(c, rooms[k][0], rooms[k][1], runs, keys_out, results);
  }
  /* Asked with no outputs at all: the count. */
  uint64_t needed = 0;
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, OCL_REDUCE_I64,
                                 ocl_reduce_host_input(keys, count * 8),
                                 ocl_reduce_host_input(keys, count * 8), count,
                                 ocl_reduce_host_output(NULL, 0), ocl_reduce_host_output(NULL, 0),
                                 &needed),
               OCL_REDUCE_ERROR_OUTPUT_TOO_SMALL, test_ctx, "keys_out holds 0 keys");
  assert_int_equal(needed, runs);
  free(keys);
}

/* Outputs of exactly the runs, and of one fewer, over runs of 1-40 that cross tiles and chunks:
 * through scratch (the kernel stores the runs before the room and counts the rest, in tiles and
 * in chunks) and counted first, in buffers and host memory: the runs, or OUTPUT_TOO_SMALL with
 * the count and nothing written. */
static void test_exact_outputs(void **state) {
  (void)state;
  enum { COUNT = 20000 };
  static size_t lengths[COUNT];
  size_t runs = 0, count = 0;
  while (count < COUNT) {
    const size_t length = 1 + (size_t)test_rng_below(40);
    lengths[runs++] = count + length > COUNT ? COUNT - count : length;
    count += lengths[runs - 1];
  }
  uint32_t *keys = keys_of_runs(OCL_REDUCE_U32, lengths, runs, count);
  int32_t *values = malloc(count * sizeof *values);
  uint32_t *keys_out = malloc(runs * sizeof *keys_out);
  const size_t rb = ocl_reduce_result_size(OCL_REDUCE_SUM, OCL_REDUCE_I32);
  unsigned char *results = malloc(runs * rb);
  size_t *heads = malloc((count + 1) * sizeof *heads);
  assert_true(values && keys_out && results && heads);
  assert_int_equal(test_key_runs(keys, sizeof *keys, count, heads), runs);
  test_fill(values, count, OCL_REDUCE_SUM, OCL_REDUCE_I32, MODE_RANDOM);
  /* The kernel's runs through scratch (key_stage=1), in tiles (their look-back's, and the
   * counted form's) and in chunks of 64 pairs, and the runs counted first (key_stage=0); made
   * here and destroyed before the test returns. */
  ocl_reduce_context *contexts[] = {
      test_context_with_policy("by_key=pass,key_chunks=0,key_stage=1,key_counted=0"),
      test_context_with_policy("by_key=pass,key_chunks=0,key_stage=1,key_counted=1"),
      test_context_with_policy("by_key=pass,key_chunks=1,key_run=64,key_stage=1"),
      test_context_with_policy("by_key=pass,key_stage=0")};
  assert_true(contexts[0] && contexts[1] && contexts[2] && contexts[3]);
  for (size_t x = 0; x < 4; x++)
    for (int on_device = 0; on_device < 2; on_device++) {
      key_case c = {contexts[x], OCL_REDUCE_SUM, OCL_REDUCE_I32, OCL_REDUCE_U32, keys, values,
                    count, runs, runs, on_device ? PLACED_BUFFERS : PLACED_HOST};
      uint64_t got = 0;
      assert_int_equal(run_case(&c, keys_out, results, &got), OCL_REDUCE_OK);
      assert_int_equal(got, runs);
      assert_int_equal(
          runs_mismatch(&c, (unsigned char *)keys_out, results, heads, runs, builtin_mismatch), 0);
      check_too_small(c, runs - 1, runs - 1, runs, keys_out, results);
    }
  for (size_t x = 0; x < 4; x++)
    ocl_reduce_context_destroy(contexts[x]);
  free(keys);
  free(values);
  free(keys_out);
  free(results);
  free(heads);
}

/* No elements: no runs, the outputs as they were; keys_out may be the keys' own host memory. */
/* Buffers everywhere, outputs with a run per element: the call may return once enqueued, and
 * *run_count is the runs' by the time ocl_reduce_finish returns (each plan). */
static void test_run_count_after_finish(void **state) {
  (void)state;
  const size_t count = 5000;
  size_t lengths[5000];
  const size_t n = sweep_lengths(lengths, count, count);
  uint32_t *keys = keys_of_runs(OCL_REDUCE_U32, lengths, n, count);
  ocl_reduce_context *contexts[] = {pass_ctx, runs_ctx};
  for (int p = 0; p < 2; p++) {
    ocl_reduce_context *ctx = contexts[p];
    ocl_reduce_buffer *kin = NULL, *kout = NULL, *rout = NULL;
    assert_int_equal(ocl_reduce_buffer_create(ctx, count * 4, &kin), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_create(ctx, count * 4, &kout), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_create(ctx, count * 4, &rout), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(kin, 0, keys, count * 4), OCL_REDUCE_OK);
    /* The count in pinned memory, which the backends may read into once the call returned, and
     * in a variable, which the call fills before it returns. */
    uint64_t *pinned = NULL, on_stack = UINT64_MAX;
    assert_int_equal(ocl_reduce_host_alloc(ctx, sizeof *pinned, (void **)&pinned),
                     OCL_REDUCE_OK);
    *pinned = UINT64_MAX;
    for (int where = 0; where < 2; where++) {
      uint64_t *runs = where ? &on_stack : pinned;
      assert_int_equal(ocl_reduce_by_key(ctx, OCL_REDUCE_XOR, OCL_REDUCE_U32, OCL_REDUCE_U32,
                                         ocl_reduce_buffer_input(kin, 0),
                                         ocl_reduce_buffer_input(kin, 0), count,
                                         ocl_reduce_buffer_output(kout, 0),
                                         ocl_reduce_buffer_output(rout, 0), runs),
                       OCL_REDUCE_OK);
      if (where)
        assert_int_equal(*runs, n);
      assert_int_equal(ocl_reduce_finish(ctx), OCL_REDUCE_OK);
      assert_int_equal(*runs, n);
    }
    ocl_reduce_host_free(ctx, pinned);
    ocl_reduce_buffer_destroy(kin);
    ocl_reduce_buffer_destroy(kout);
    ocl_reduce_buffer_destroy(rout);
  }
  free(keys);
}

static void test_empty_and_in_place(void **state) {
  (void)state;
  static const size_t lengths[] = {3, 1, 40, 2, 2, 9};
  const size_t count = 57, runs = 6;
  int64_t *keys = keys_of_runs(OCL_REDUCE_I64, lengths, runs, count);
  int64_t keys_out[8];
  uint64_t needed = 7;
  memset(keys_out, 0xa5, sizeof keys_out);
  assert_int_equal(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, OCL_REDUCE_I64,
                                     ocl_reduce_host_input(NULL, 0),
                                     ocl_reduce_host_input(NULL, 0), 0,
                                     ocl_reduce_host_output(keys_out, sizeof keys_out),
                                     ocl_reduce_host_output(NULL, 0), &needed),
                   OCL_REDUCE_OK);
  assert_int_equal(needed, 0);
  assert_true(untouched(keys_out, sizeof keys_out));
  /* The runs' keys compacted in place. */
  int64_t *in_place = malloc(count * 8);
  assert_non_null(in_place);
  memcpy(in_place, keys, count * 8);
  int64_t sums[8];
  assert_int_equal(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, OCL_REDUCE_I64,
                                     ocl_reduce_host_input(in_place, count * 8),
                                     ocl_reduce_host_input(keys, count * 8), count,
                                     ocl_reduce_host_output(in_place, count * 8),
                                     ocl_reduce_host_output(sums, sizeof sums), &needed),
                   OCL_REDUCE_OK);
  size_t first = 0;
  for (size_t r = 0; r < runs; r++) {
    assert_int_equal(in_place[r], keys[first]);
    assert_int_equal(sums[r], (int64_t)((uint64_t)keys[first] * lengths[r])); /* wraps */
    first += lengths[r];
  }
  free(in_place);
  free(keys);
}

/* ---- Bad arguments ------------------------------------------------------------------------- */

static void test_bad_arguments(void **state) {
  (void)state;
  const int32_t keys[4] = {1, 1, 2, 3};
  const float values[4] = {1, 2, 3, 4};
  int32_t keys_out[4];
  float results[4];
  uint64_t runs = 77;
  memset(keys_out, 0xa5, sizeof keys_out);
  memset(results, 0xa5, sizeof results);
  const ocl_reduce_input k = ocl_reduce_host_input(keys, sizeof keys);
  const ocl_reduce_input v = ocl_reduce_host_input(values, sizeof values);
  const ocl_reduce_output ko = ocl_reduce_host_output(keys_out, sizeof keys_out);
  const ocl_reduce_output ro = ocl_reduce_host_output(results, sizeof results);
  const ocl_reduce_type s = OCL_REDUCE_F32;
  expect_error(ocl_reduce_by_key(NULL, OCL_REDUCE_SUM, s, OCL_REDUCE_I32, k, v, 4, ko, ro, &runs),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ocl_reduce_by_key");
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, s, OCL_REDUCE_F32, k, v, 4, ko, ro,
                                 &runs),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "key_type f32");
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, s, (ocl_reduce_type)99, k, v, 4, ko,
                                 ro, &runs),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "key_type 99");
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, s, OCL_REDUCE_I32, k, v, 4, ko, ro,
                                 NULL),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "run_count");
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, s, OCL_REDUCE_I32, k, v, 5, ko, ro,
                                 &runs),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "keys");
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, s, OCL_REDUCE_I32, k,
                                 ocl_reduce_host_input(values, 12), 4, ko, ro, &runs),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "values");
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, s, OCL_REDUCE_I32,
                                 ocl_reduce_host_input(NULL, 16), v, 4, ko, ro, &runs),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "keys");
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_DOT, s, OCL_REDUCE_I32, k, v, 4, ko, ro,
                                 &runs),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "ocl_reduce_by_key");
  expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_AND, s, OCL_REDUCE_I32, k, v, 4, ko, ro,
                                 &runs),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "ocl_reduce_by_key");
  assert_int_equal(runs, 77);
  assert_true(untouched(keys_out, sizeof keys_out) && untouched(results, sizeof results));
}

/* Device outputs over what the call reads, or over each other: refused, naming both. */
static void test_overlapping_outputs(void **state) {
  (void)state;
  const int32_t keys[4] = {1, 1, 2, 3};
  const float values[4] = {1, 2, 3, 4};
  const ocl_reduce_type s = OCL_REDUCE_F32;
  uint64_t runs = 77;
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, 64 * 4, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, keys, sizeof keys), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 16, values, sizeof values), OCL_REDUCE_OK);
  const ocl_reduce_input bk = ocl_reduce_buffer_input(buf, 0);
  const ocl_reduce_input bv = ocl_reduce_buffer_input(buf, 4);
  /* keys_out over the keys; results_out over the keys; results_out over keys_out. */
  const size_t places[][2] = {{2, 32}, {32, 1}, {32, 33}};
  const char *const named[] = {"keys_out", "results_out", "overlap keys_out"};
  for (size_t p = 0; p < 3; p++)
    expect_error(ocl_reduce_by_key(test_ctx, OCL_REDUCE_SUM, s, OCL_REDUCE_I32, bk, bv, 4,
                                   ocl_reduce_buffer_output(buf, places[p][0]),
                                   ocl_reduce_buffer_output(buf, places[p][1]), &runs),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, named[p]);
  int32_t after[16];
  assert_int_equal(ocl_reduce_buffer_read(buf, 0, after, sizeof after), OCL_REDUCE_OK);
  assert_memory_equal(after, keys, sizeof keys);
  assert_memory_equal(after + 4, values, sizeof values);
  ocl_reduce_buffer_destroy(buf);
  assert_int_equal(runs, 77);
}

int main(void) {
#define SCALAR_ENTRY(OP, TYPE) cmocka_unit_test(test_##OP##_##TYPE),
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_bad_arguments),
                                     cmocka_unit_test(test_overlapping_outputs),
                                     cmocka_unit_test(test_sizing),
                                     cmocka_unit_test(test_exact_outputs),
                                     cmocka_unit_test(test_run_count_after_finish),
                                     cmocka_unit_test(test_empty_and_in_place),
                                     cmocka_unit_test(test_patterns),
                                     cmocka_unit_test(test_nan_values),
                                     cmocka_unit_test(test_index_states_across_tiles),
                                     cmocka_unit_test(test_user_operators),
                                     cmocka_unit_test(test_cross_device_bits),
                                     cmocka_unit_test(test_group_form),
                                     TEST_OP_TYPES(SCALAR_ENTRY)
                                         TEST_STRUCTURED_OP_TYPES(SCALAR_ENTRY)};
#undef SCALAR_ENTRY
  return TEST_RUN(tests, setup, teardown);
}
