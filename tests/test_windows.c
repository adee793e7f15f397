/* =================================================================================================
 * test_windows.c: sliding-window reductions (ocl_reduce_windows) for every operator x type against
 * a host reference per window (support/reference.h, support/structured.h), with the planner's
 * choice and with each algorithm forced (OCL_REDUCE_POLICY win=...): a fold per window, the
 * shuffle and multireduction lane groups, van Herk / Gil-Werman tiles (read through local memory,
 * and in 16-byte words), tiles shorter than the window with the totals of the whole tiles between
 * (long, after a launch of the tiles' totals and in one launch where the device allows it), a
 * work-item per block, and tiles of runs whose windows are a head, whole runs and a tail (spans).
 * The forced algorithms' host calls also run as a group runs a later device's part (results
 * counted from an element past the first).
 *
 * Shapes: windows of 1, 2, 3, 31-33, 100, around half a tile and a tile, several tiles long, and
 * 33-35 GPU tiles long (the edge of one launch on GPUs), over counts equal to the window, a little
 * longer, and many windows; a window at the input's first element is not the start of a block in
 * general, because inputs come from host memory (uploaded in pieces) and from buffers at element
 * offsets 0-3. Floats also take special values (NaN, infinities, signed zeros, overflowing
 * maxima) and are reduced twice, which must give the same bits. An order-preserving user operator
 * (2x2 matrix products) takes every algorithm too.
 * Argument errors come first: each leaves the results untouched.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/fault_inject.h"
#include "exec/run.h"
#include "support/fixture.h"
#include "support/ordered_ops.h"
#include "support/structured.h"

/* The algorithms, as OCL_REDUCE_POLICY names them ("" = the planner's choice), forced with keys=1:
 * float ARGMIN, ARGMAX and MINMAX in states of order keys on every device (the planner's choice on
 * CPU devices), and ARGMIN and ARGMAX of 4-byte elements packed (lib/orx_state_packed.cl, where
 * keys=1 alone takes them). */
static const char *const algos[] = {"",
                                    "win=direct,keys=1",
                                    "win=shuffle,keys=1",
                                    "win=mr,keys=1",
                                    "win=blocks,keys=1",
                                    "win=blocks,win_words=1,keys=1",
                                    "win=long,win_pass=0,keys=1",
                                    "win=long,win_pass=1,keys=1",
                                    "win=serial,keys=1",
                                    "win=spans,keys=1"};
#define ALGO_COUNT (sizeof algos / sizeof algos[0])
static ocl_reduce_context *contexts[ALGO_COUNT];
/* An order-preserving user operator (2x2 matrix products, exact): any slip in the order of a
 * window's combines changes its bits. */
static ocl_reduce_operator *matrix;

static int setup(void **state) {
  (void)state;
  test_rng_init();
  for (size_t a = 0; a < ALGO_COUNT; a++)
    if (!(contexts[a] = test_context_with_policy(algos[a])))
      return -1;
  return ocl_reduce_operator_create(&test_ordered_descs[TEST_MATRIX], &matrix) == OCL_REDUCE_OK
             ? 0
             : -1;
}

static int teardown(void **state) {
  (void)state;
  for (size_t a = 0; a < ALGO_COUNT; a++)
    ocl_reduce_context_destroy(contexts[a]);
  ocl_reduce_operator_destroy(matrix);
  return 0;
}

/* ---- One call, checked -------------------------------------------------------------------- */

typedef struct win_case {
  size_t algo; /* index into algos */
  ocl_reduce_op op;
  ocl_reduce_type type;
  test_mode data_mode;
  const void *data;
  size_t count, window;
  int on_device; /* input and results in buffers, at element offsets */
  /* Not 0: host input and results, called as a group calls a device for the results from its
   * element first_index on (kernels count runs and blocks from the call's first element). */
  uint64_t first_index;
} win_case;

/* The bytes of an element: the type's, or the matrix operator's (OCL_REDUCE_OP_ELEMENT). */
static size_t elem_bytes(const win_case *c) {
  return c->type == OCL_REDUCE_OP_ELEMENT ? test_ordered_descs[TEST_MATRIX].element_size
                                          : ocl_reduce_type_size(c->type);
}

static ocl_reduce_status run_case(const win_case *c, void *results) {
  ocl_reduce_context *ctx = contexts[c->algo];
  const size_t elem = elem_bytes(c);
  const size_t rbytes = ocl_reduce_result_size(c->op, c->type);
  const size_t n_out = c->count - c->window + 1;
  if (c->first_index) {
    const ocl_reduce_input input = ocl_reduce_host_input(c->data, c->count * elem);
    const ocl_reduce_output output = ocl_reduce_host_output(results, n_out * rbytes);
    return orx_windows_checked(ctx, "ocl_reduce_windows", c->op, c->type, &input, c->count,
                               c->window, c->first_index, &output);
  }
  if (!c->on_device)
    return ocl_reduce_windows(ctx, c->op, c->type, ocl_reduce_host_input(c->data, c->count * elem),
                              c->count, c->window, ocl_reduce_host_output(results, n_out * rbytes));
  /* The input at an element offset of 0..3 (sometimes on a 16-byte boundary, where tiles read
   * words, win_words=1), the results at 0..2 results in. */
  const size_t in_at = c->count / 2 % 4, out_at = in_at % 3;
  ocl_reduce_buffer *in = NULL, *out = NULL;
  ocl_reduce_status s = ocl_reduce_buffer_create(ctx, (c->count + in_at) * elem, &in);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_write(in, in_at * elem, c->data, c->count * elem);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_create(ctx, (n_out + out_at) * rbytes, &out);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_windows(ctx, c->op, c->type, ocl_reduce_buffer_input(in, in_at), c->count,
                           c->window, ocl_reduce_buffer_output(out, out_at));
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_read(out, out_at * rbytes, results, n_out * rbytes);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
  return s;
}

/* Window j's result against the reference; 0 and why on a mismatch. */
static int window_matches(const win_case *c, const unsigned char *results, size_t j, char *why,
                          size_t size) {
  const size_t elem = elem_bytes(c);
  const size_t rbytes = ocl_reduce_result_size(c->op, c->type);
  const unsigned char *first = (const unsigned char *)c->data + j * elem;
  if (c->op == matrix) {
    snprintf(why, size, "not the sequential fold of the window's matrices");
    return test_ordered_matches(TEST_MATRIX, first, c->window, results + j * rbytes);
  }
  if (test_op_structured(c->op)) {
    unsigned char got[64];
    memcpy(got, results + j * rbytes, rbytes);
    if (c->op == OCL_REDUCE_ARGMIN || c->op == OCL_REDUCE_ARGMAX) {
      /* The index counts from the input's first element: the reference's from the window's. */
      ocl_reduce_arg *arg = (ocl_reduce_arg *)(void *)got;
      if (arg->index < j || arg->index >= j + c->window) {
        snprintf(why, size, "index %llu lies outside the window",
                 (unsigned long long)arg->index);
        return 0;
      }
      arg->index -= j;
    }
    return test_structured_matches(got, first, c->window, c->op, c->type, why, size);
  }
  const test_reference ref = test_reduce_host(first, c->window, c->op, c->type, c->data_mode);
  test_value got;
  memcpy(got.bytes, results + j * rbytes, rbytes);
  return test_matches(&got, &ref, c->op, c->type, why, size);
}

/* Windows whose references cost at most this many element visits are all checked, and so are
 * calls of at most 512 windows (the samples' first and last 64 would pass the last result);
 * beyond, the first and last 64 and 384 random ones. */
#define CHECK_ALL_VISITS ((size_t)1 << 21)

static int check_case(const win_case *c) {
  const size_t rbytes = ocl_reduce_result_size(c->op, c->type);
  const size_t n_out = c->count - c->window + 1;
  unsigned char *results = malloc(n_out * rbytes + 16);
  unsigned char *again = malloc(n_out * rbytes + 16);
  assert_non_null(results);
  assert_non_null(again);
  memset(results, 0xa5, n_out * rbytes + 16);
  char what[256], why[256];
  snprintf(what, sizeof what, "%s %s, %zu elements, window %zu, %s, %s, policy '%s'",
           c->op == matrix ? "matrix" : ocl_reduce_op_name(c->op),
           c->op == matrix ? "products" : ocl_reduce_type_name(c->type), c->count, c->window,
           test_mode_name(c->data_mode), c->on_device ? "buffers" : "host memory",
           algos[c->algo]);
  int failures = 0;
  ocl_reduce_status s = run_case(c, results);
  if (s != OCL_REDUCE_OK) {
    print_error("%s: %s: %s\n", what, ocl_reduce_status_name(s),
                ocl_reduce_last_error(contexts[c->algo]));
    failures = 1;
  }
  for (size_t i = n_out * rbytes; i < n_out * rbytes + 16 && !failures; i++)
    if (results[i] != 0xa5) {
      print_error("%s: wrote past the last result\n", what);
      failures = 1;
    }
  const int all = n_out <= 512 || n_out * c->window <= CHECK_ALL_VISITS;
  const size_t checks = all ? n_out : 512;
  for (size_t k = 0, reported = 0; k < checks && !failures; k++) {
    const size_t j = all || k < 64 ? k : k < 128 ? n_out - 1 - (k - 64) : test_rng_below(n_out);
    if (!window_matches(c, results, j, why, sizeof why)) {
      if (reported++ < 5)
        print_error("%s: window %zu: %s\n", what, j, why);
      if (reported >= 5)
        failures = 1;
    }
  }
  if (!failures && (c->type == OCL_REDUCE_F32 || c->type == OCL_REDUCE_F64)) {
    s = run_case(c, again);
    if (s != OCL_REDUCE_OK || memcmp(again, results, n_out * rbytes) != 0) {
      print_error("%s: a second run gave different bits (%s)\n", what, ocl_reduce_status_name(s));
      failures = 1;
    }
  }
  free(results);
  free(again);
  return failures;
}

/* ---- Sweeps ------------------------------------------------------------------------------- */

/* Windows of tile / 2 + 1 elements are the longest a blocks tile of `tile` takes (the plans'
 * tiles: 512 to 4096 elements); one more, and they run LONG's tiles shorter than the window (on
 * GPUs 4096 from windows of 4098; on CPUs, forced, at most 1024, so that 2049 and longer cover
 * whole tiles between a window's ends). */
#define TILE_MAX 4096

/* Whether forced algorithm a runs windows this long in the sweeps. Lane groups fold each window's
 * share per lane: long windows on them cost the host's reference as much; the fold per window
 * even more. Spans take windows longer than two runs (of 4 elements at least) up to 4034: the
 * others run as forced blocks do, in the same kernels (CI's time). */
static int algo_runs(size_t a, size_t window) {
  if ((strstr(algos[a], "direct") || strstr(algos[a], "shuffle") || strstr(algos[a], "mr")) &&
      window > 258)
    return 0;
  /* LONG, in two launches and in one, takes windows longer than a tile (of 1024 at most on CPUs,
   * 4096 on GPUs): shorter ones run as forced blocks do. */
  if (strstr(algos[a], "long") && window <= 513)
    return 0;
  return !(strstr(algos[a], "spans") && (window <= 8 || window > 4034));
}

/* A case of algorithm a over `count` elements (at most max_count) of data; on_device and
 * first_index as the caller sets them. */
static win_case case_of(size_t a, ocl_reduce_op op, ocl_reduce_type type, const void *data,
                        size_t window, size_t count, size_t max_count) {
  win_case c;
  memset(&c, 0, sizeof c);
  c.algo = a;
  c.op = op;
  c.type = type;
  c.data = data;
  c.data_mode = MODE_RANDOM;
  c.window = window;
  c.count = count < max_count ? count : max_count;
  return c;
}

static void sweep(ocl_reduce_op op, ocl_reduce_type type) {
  /* Light runs (the sanitizer pass, and implementations after the first in CI): sums of i32, f32
   * and f64, max of i32, and two structured operators on f32. */
  if (test_light() &&
      !(op == OCL_REDUCE_SUM && (type == OCL_REDUCE_I32 || type == OCL_REDUCE_F64)) &&
      !(op == OCL_REDUCE_SUM && type == OCL_REDUCE_F32) &&
      !(op == OCL_REDUCE_MAX && type == OCL_REDUCE_I32) &&
      !((op == OCL_REDUCE_ARGMIN || op == OCL_REDUCE_MEAN_VAR) && type == OCL_REDUCE_F32)) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    skip();
  }
  const size_t tile = TILE_MAX;
  const size_t windows[] = {1,   2,   3,    31,   32,   33, 100, 257, 258,
                            513, 1025, 2049, 2050, 4097, 1 + test_rng_below(64),
                            64 + test_rng_below(2000), 3 * TILE_MAX + 5};
  const size_t elem = ocl_reduce_type_size(type);
  const size_t max_count = 4 * tile + 4097 + 5000;
  /* The structured operators that pick elements take the special values too (NaNs of both
   * signs, where the first NaN wins; signed zeros; infinities): floats keep their states' values
   * as order keys there (lib/orx_state_keys.cl). */
  const int extremes =
      op == OCL_REDUCE_ARGMIN || op == OCL_REDUCE_ARGMAX || op == OCL_REDUCE_MINMAX;
  void *data = malloc(max_count * elem);
  assert_non_null(data);
  int failures = 0;
  for (size_t a = 0; a < ALGO_COUNT && failures < 10; a++) {
    /* Every operator takes the planner's choice; the forced algorithms hold no per-operator
     * code beyond the combine they all share, and their code differs by element size and
     * float-ness only, so sum on i32, f32, u64 and f64, and max, argmin and mean_var on f32,
     * take them (kernel builds are most of this test's time); light runs force them on f32 sum
     * and argmin. */
    const int sum_types = type == OCL_REDUCE_I32 || type == OCL_REDUCE_F32 ||
                          type == OCL_REDUCE_U64 || type == OCL_REDUCE_F64;
    const int primary =
        test_light() ? type == OCL_REDUCE_F32 && (op == OCL_REDUCE_SUM || op == OCL_REDUCE_ARGMIN)
                     : (op == OCL_REDUCE_SUM && sum_types) ||
                           (type == OCL_REDUCE_F32 && (op == OCL_REDUCE_MAX ||
                                                       op == OCL_REDUCE_ARGMIN ||
                                                       op == OCL_REDUCE_MEAN_VAR)) ||
                           /* an integer's packed key, in the GPUs' tiles */
                           (op == OCL_REDUCE_ARGMAX && type == OCL_REDUCE_I32 &&
                            strstr(algos[a], "win=blocks,keys"));
    if (a != 0 && !primary)
      continue;
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
      const size_t window = windows[w];
      if (!algo_runs(a, window))
        continue;
      /* The tiles' edges (half a tile + 1, + 2) of the CPU plans and the random windows are for
       * the forced algorithms and full runs; light runs keep the GPU tile's edge and the rest. */
      const int edge = window == 257 || window == 258 || window == 513 || window == 1025;
      if ((edge && (a == 0 || test_light())) || (test_light() && w >= 14))
        continue;
      const size_t counts[] = {window, window + 1 + test_rng_below(window + 3),
                               window + 3 * tile + test_rng_below(5000)};
      for (size_t k = 0; k < 3; k++) {
        win_case c = case_of(a, op, type, data, window, counts[k], max_count);
        for (int dm = 0; dm < MODE_COUNT; dm++) {
          if (!test_mode_applies((test_mode)dm, type) || dm == MODE_EXACT ||
              (dm != MODE_RANDOM && (k != 2 || (window != 3 && window != 33))) ||
              (dm != MODE_RANDOM && test_op_structured(op) && !extremes))
            continue;
          c.data_mode = (test_mode)dm;
          c.on_device = (int)((w + k + (size_t)dm) % 2);
          /* The forced algorithms' host calls, but for indices, also as a group's later device. */
          if (a != 0 && !c.on_device && op != OCL_REDUCE_ARGMIN && op != OCL_REDUCE_ARGMAX)
            c.first_index = 1 + test_rng_below(100);
          test_fill(data, c.count, op, type, c.data_mode);
          failures += check_case(&c);
        }
      }
    }
  }
  free(data);
  assert_int_equal(failures, 0);
}

#define ORX_WINDOWS_TEST(OP, TYPE)                                                                 \
  static void test_##OP##_##TYPE(void **state) {                                                   \
    (void)state;                                                                                   \
    sweep(OCL_REDUCE_##OP, OCL_REDUCE_##TYPE);                                                     \
  }
TEST_OP_TYPES(ORX_WINDOWS_TEST)
TEST_STRUCTURED_OP_TYPES(ORX_WINDOWS_TEST)

/* An order-preserving operator through the planner's choice and every forced algorithm: each
 * window's combines in index order, however the algorithm splits the window (suffixes and
 * prefixes of blocks, runs and tiles, the totals between, a tile's head). Light runs take the
 * planner's choice and long windows as tiles. */
static void test_ordered_operator(void **state) {
  (void)state;
  const size_t windows[] = {2,    3,    33,   100, 1025, 2049, 4097, 64 + test_rng_below(5000),
                            3 * TILE_MAX + 5};
  const size_t elem = test_ordered_descs[TEST_MATRIX].element_size;
  const size_t max_count = 4 * TILE_MAX + 4097 + 5000;
  void *data = malloc(max_count * elem);
  assert_non_null(data);
  int failures = 0;
  for (size_t a = 0; a < ALGO_COUNT && failures < 10; a++) {
    if (test_light() && a != 0 && !strstr(algos[a], "win=long"))
      continue;
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
      const size_t window = windows[w];
      if (!algo_runs(a, window))
        continue;
      /* The window, a little more, and several tiles more. */
      const size_t counts[] = {window, window + 1 + test_rng_below(window + 3),
                               window + 3 * TILE_MAX + test_rng_below(5000)};
      for (size_t k = 0; k < 3; k++) {
        win_case c = case_of(a, matrix, OCL_REDUCE_OP_ELEMENT, data, window, counts[k], max_count);
        c.on_device = (int)((w + k) % 2);
        if (a != 0 && !c.on_device)
          c.first_index = 1 + test_rng_below(100);
        test_ordered_fill(TEST_MATRIX, data, c.count);
        failures += check_case(&c);
      }
    }
  }
  free(data);
  assert_int_equal(failures, 0);
}

/* Windows of many tiles on GPUs (tiles of 4096, warps of 32): 33 tiles and 2 elements, whose
 * tiles await 32 totals (one round of subgroup 0) and a tile's head, 34 tiles and one (33 totals,
 * two rounds in tiles of 4096, no head) and 35 tiles and 100, both in tiles of 8192 on NVIDIA's;
 * then the edge of one launch there, 258 tiles (256 totals, 8 rounds, and a head), and one more
 * (257 totals, no head), which the planner leaves to two launches (full runs only). The
 * planner's choice and LONG forced both ways, on exact i32 sums and (full runs, windows of 35
 * tiles and fewer) the order-preserving matrix products. On CPUs, whose tiles are shorter, they
 * are windows of over a hundred tiles. */
static void test_many_tiles_between(void **state) {
  (void)state;
  const size_t windows[] = {33 * TILE_MAX + 2, 34 * TILE_MAX + 1, 35 * TILE_MAX + 100,
                            258 * TILE_MAX, 258 * TILE_MAX + 1};
  const size_t max_count = 258 * TILE_MAX + 1 + 2 * TILE_MAX + 5000;
  void *data = malloc(max_count * test_ordered_descs[TEST_MATRIX].element_size);
  int32_t *ints = malloc(max_count * sizeof *ints);
  assert_non_null(data);
  assert_non_null(ints);
  int failures = 0;
  for (size_t a = 0; a < ALGO_COUNT && failures < 10; a++) {
    if (a != 0 && !strstr(algos[a], "win=long"))
      continue;
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
      const size_t window = windows[w];
      if (test_light() && window > 35 * TILE_MAX + 100)
        continue; /* the references' 10^9 element visits: full runs only (CI's time) */
      /* A little more than the window (a tile of results), and two tiles and more. */
      const size_t counts[] = {window + 1 + test_rng_below(TILE_MAX),
                               window + 2 * TILE_MAX + test_rng_below(5000)};
      for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; i < counts[k]; i++)
          ints[i] = (int32_t)test_rng_below(2001) - 1000; /* sums of 1.06e6 stay exact */
        win_case c = case_of(a, OCL_REDUCE_SUM, OCL_REDUCE_I32, ints, window, counts[k],
                             max_count);
        c.on_device = (int)((w + k) % 2);
        failures += check_case(&c);
        if (test_light() || window > 35 * TILE_MAX + 100)
          continue; /* the matrices' references: windows of 35 tiles and fewer */
        c = case_of(a, matrix, OCL_REDUCE_OP_ELEMENT, data, window, counts[k], max_count);
        c.on_device = (int)((w + k + 1) % 2);
        test_ordered_fill(TEST_MATRIX, data, c.count);
        failures += check_case(&c);
      }
    }
  }
  free(ints);
  free(data);
  assert_int_equal(failures, 0);
}

/* A call on buffers is one batch, so the same launches whatever its count: one window, and over
 * two tiles of them and one more (one of the two is not whole tiles or runs; such a call once
 * took a second launch for its last part tile). Each forced algorithm on f32 sums, whose programs
 * the sweeps build too, checked; launches counted through the injected faults' table
 * (exec/fault_inject.h), never struck. */
static void test_one_batch_one_launch(void **state) {
  (void)state;
  const size_t windows[] = {3, 100, TILE_MAX + 1};
  const size_t max_count = TILE_MAX + 1 + 2 * TILE_MAX + 5001;
  float *data = malloc(max_count * sizeof *data);
  assert_non_null(data);
  int failures = 0;
  for (size_t a = 1; a < ALGO_COUNT && failures < 10; a++) {
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
      const size_t window = windows[w], more = 2 * TILE_MAX + test_rng_below(5000);
      if (!algo_runs(a, window))
        continue;
      const size_t counts[] = {window, window + more, window + more + 1};
      uint64_t launches[3];
      for (size_t k = 0; k < 3; k++) {
        win_case c = case_of(a, OCL_REDUCE_SUM, OCL_REDUCE_F32, data, window, counts[k],
                             max_count);
        c.on_device = 1;
        test_fill(data, c.count, c.op, c.type, c.data_mode);
        assert_int_equal(orx_fault_arm(contexts[a], ORX_FAULT_LAUNCH, UINT64_MAX, NULL),
                         OCL_REDUCE_OK);
        failures += check_case(&c);
        assert_int_equal(orx_fault_arm(contexts[a], ORX_FAULT_LAUNCH, 0, &launches[k]),
                         OCL_REDUCE_OK);
      }
      if (!launches[0] || launches[1] != launches[0] || launches[2] != launches[0]) {
        print_error("window %zu, policy '%s': %llu, %llu and %llu launches for %zu, %zu and %zu "
                    "elements on buffers\n",
                    window, algos[a], (unsigned long long)launches[0],
                    (unsigned long long)launches[1], (unsigned long long)launches[2], counts[0],
                    counts[1], counts[2]);
        failures++;
      }
    }
  }
  free(data);
  assert_int_equal(failures, 0);
}

/* ---- Argument errors ---------------------------------------------------------------------- */

static void test_errors(void **state) {
  (void)state;
  ocl_reduce_context *ctx = contexts[0];
  float in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8];
  for (int i = 0; i < 8; i++)
    out[i] = -1.0f;
  expect_error(ocl_reduce_windows(NULL, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(in, TEST_BYTES(in)), 8, 3,
                                  ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "ctx is NULL");
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(in, TEST_BYTES(in)), 8, 0,
                                  ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_BAD_WINDOW, ctx, "window = 0");
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(in, TEST_BYTES(in)), 8, 9,
                                  ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_BAD_WINDOW, ctx, "window = 9, count = 8");
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(in, TEST_BYTES(in)), 0, 1,
                                  ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_BAD_WINDOW, ctx, "count = 0");
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_XOR, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(in, TEST_BYTES(in)), 8, 3,
                                  ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, ctx, "xor");
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(NULL, 0), 8, 3,
                                  ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, ctx, "input");
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_host_input(in, TEST_BYTES(in)), 8, 3,
                                  ocl_reduce_host_output(NULL, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, ctx, "results");
  /* Buffers: results beyond the buffer, and results over the input. */
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(ctx, 16 * sizeof(float), &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, in, sizeof in), OCL_REDUCE_OK);
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_buffer_input(buf, 0), 8, 3,
                                  ocl_reduce_buffer_output(buf, 12)),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, ctx, "results");
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_buffer_input(buf, 0), 8, 3,
                                  ocl_reduce_buffer_output(buf, 4)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, ctx, "overlap");
  expect_error(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                  ocl_reduce_buffer_input(buf, 10), 8, 3,
                                  ocl_reduce_host_output(out, TEST_BYTES(out))),
               OCL_REDUCE_ERROR_OUT_OF_RANGE, ctx, "input");
  ocl_reduce_buffer_destroy(buf);
  for (int i = 0; i < 8; i++)
    assert_true(out[i] == -1.0f); /* nothing written */
  /* The smallest call that works: one window of everything. */
  assert_int_equal(ocl_reduce_windows(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                      ocl_reduce_host_input(in, TEST_BYTES(in)), 8, 8,
                                      ocl_reduce_host_output(out, TEST_BYTES(out))),
                   OCL_REDUCE_OK);
  assert_true(out[0] == 36.0f && out[1] == -1.0f);
}

#define ORX_WINDOWS_ENTRY(OP, TYPE) cmocka_unit_test(test_##OP##_##TYPE),

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_errors),
                                     cmocka_unit_test(test_ordered_operator),
                                     cmocka_unit_test(test_many_tiles_between),
                                     cmocka_unit_test(test_one_batch_one_launch),
                                     TEST_OP_TYPES(ORX_WINDOWS_ENTRY)
                                         TEST_STRUCTURED_OP_TYPES(ORX_WINDOWS_ENTRY)};
  return TEST_RUN(tests, setup, teardown);
}
