/* =================================================================================================
 * test_axes.c: ocl_reduce_axes and ocl_reduce_shape_dense. Random views (ranks 1-5, extents with
 * 0 and 1, dense, permuted, strided and repeating strides, random axes) of host memory and of a
 * buffer at an offset (read in place and gathered, both forced, on every device), for a scalar
 * built-in (SUM on i32: exact), a structured one (ARGMIN on f32: the row-major position within
 * the reduced axes), a state (MEAN_VAR on f64), a user operator on 1-byte elements (a histogram)
 * and an order-preserving one (2x2 matrix products: row-major order of the reduced axes), and
 * 16-bit elements (SUM of f16, ARGMAX of bf16) in the random views and the column sums,
 * against the host: each result's elements gathered in that order and reduced by the suite's
 * references. Column sums of a 5000 x 300 matrix, and tall and wide ones for every kind. Every
 * bad shape, axis set and size refused by name, with the output untouched.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_group.h"
#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/ordered_ops.h"
#include "support/structured.h"

#define MAX_RESULT 64

/* The 16-bit kinds (SUM of f16 into f32, ARGMAX of bf16: its element and index) run in the
 * random views and the column sums only: their kernels are the f32 ones, read narrow. */
typedef enum kind {
  SCALAR,
  STRUCTURED,
  STATE,
  BYTES,
  ORDERED,
  HALF_SUM,
  HALF_ARGMAX,
  KINDS
} kind;
#define FULL_KINDS HALF_SUM /* the kinds every test runs */
static const char *const kind_names[KINDS] = {"sum i32",
                                              "argmin f32",
                                              "mean_var f64",
                                              "user histogram of bytes",
                                              "user matrix product",
                                              "sum f16",
                                              "argmax bf16"};
static ocl_reduce_operator *histogram, *matrix;

static ocl_reduce_op op_of(kind k) {
  return k == SCALAR || k == HALF_SUM ? OCL_REDUCE_SUM
         : k == STRUCTURED            ? OCL_REDUCE_ARGMIN
         : k == HALF_ARGMAX           ? OCL_REDUCE_ARGMAX
         : k == STATE                 ? OCL_REDUCE_MEAN_VAR
         : k == BYTES                 ? histogram
                                      : matrix;
}
static ocl_reduce_type type_of(kind k) {
  return k == SCALAR        ? OCL_REDUCE_I32
         : k == STATE       ? OCL_REDUCE_F64
         : k == STRUCTURED  ? OCL_REDUCE_F32
         : k == HALF_SUM    ? OCL_REDUCE_F16
         : k == HALF_ARGMAX ? OCL_REDUCE_BF16
                            : OCL_REDUCE_OP_ELEMENT;
}
static size_t elem_of(kind k) {
  return k == ORDERED                       ? test_ordered_descs[TEST_MATRIX].element_size
         : k == BYTES                       ? 1 /* the gather's bytewise copy */
         : k == STATE                       ? 8
         : k == HALF_SUM || k == HALF_ARGMAX ? 2
                                             : 4;
}
static size_t result_of(kind k) { return ocl_reduce_result_size(op_of(k), type_of(k)); }

static void *fill(kind k, size_t n) {
  void *data = malloc((n ? n : 1) * elem_of(k));
  assert_non_null(data);
  if (k == ORDERED)
    test_ordered_fill(TEST_MATRIX, data, n);
  else if (k == BYTES)
    test_custom_fill(TEST_HISTOGRAM, data, n);
  else
    test_fill(data, n, op_of(k), type_of(k), MODE_RANDOM);
  return data;
}

/* ---- The host's view ------------------------------------------------------------------------ */

enum { MAX_POSITIONS = 16384 };

/* Element offsets of every position of the axes in `mask`, in row-major order of those axes (the
 * outer axes vary slowest); returns how many. */
static size_t positions(const ocl_reduce_shape *s, uint32_t mask, uint64_t *out) {
  static uint64_t before[MAX_POSITIONS];
  size_t count = 1;
  out[0] = 0;
  for (unsigned k = 0; k < s->rank; k++) {
    if (!((mask >> k) & 1u))
      continue;
    memcpy(before, out, count * sizeof *out);
    size_t next = 0;
    for (size_t p = 0; p < count; p++)
      for (uint64_t i = 0; i < s->extents[k]; i++)
        out[next++] = before[p] + i * s->strides[k];
    count = next;
  }
  return count;
}

static int matches(kind k, const void *data, size_t n, const void *got, char *why, size_t size) {
  if (k == ORDERED) {
    snprintf(why, size, "not the ordered product");
    return test_ordered_matches(TEST_MATRIX, data, n, got);
  }
  if (k == BYTES) {
    unsigned char want[MAX_RESULT];
    test_custom_reference(TEST_HISTOGRAM, data, n, want);
    snprintf(why, size, "not the histogram");
    return memcmp(got, want, result_of(k)) == 0;
  }
  return test_result_matches(got, data, n, op_of(k), type_of(k), why, size);
}

/* Checks every result of a view against the host: the kept positions in row-major order, each
 * one's reduced positions gathered in row-major order. */
static void check_results(kind k, const void *data, const ocl_reduce_shape *s, uint32_t axes,
                          const unsigned char *got, const char *what) {
  const uint32_t all = (1u << s->rank) - 1;
  uint64_t *kept = malloc(MAX_POSITIONS * sizeof *kept),
           *reduced = malloc(MAX_POSITIONS * sizeof *reduced);
  assert_non_null(kept);
  assert_non_null(reduced);
  const size_t results = positions(s, all & ~axes, kept), length = positions(s, axes, reduced);
  const size_t elem = elem_of(k);
  unsigned char *run = malloc((length ? length : 1) * elem);
  assert_non_null(run);
  char why[256];
  for (size_t r = 0; r < results; r++) {
    for (size_t j = 0; j < length; j++)
      memcpy(run + j * elem, (const char *)data + (kept[r] + reduced[j]) * elem, elem);
    if (!matches(k, run, length, got + r * result_of(k), why, sizeof why))
      fail_msg("%s, %s: result %zu of %zu (%zu elements): %s", kind_names[k], what, r, results,
               length, why);
  }
  free(run);
  free(kept);
  free(reduced);
}

/* ---- Random views ------------------------------------------------------------------------- */

/* A random view of rank 1-5 (extents 0-5, 0 and 1 now and then, at most 1024 positions): dense,
 * dense with its axes' strides permuted, padded rows with a stride of 1 or 3 inside, or random
 * strides from 0 (repeats) to 6. Returns the elements it reaches. */
static uint64_t random_view(ocl_reduce_shape *s) {
  const ocl_reduce_shape init = OCL_REDUCE_SHAPE_INIT;
  *s = init;
  s->rank = 1 + (unsigned)test_rng_below(5);
  uint64_t product = 1;
  for (unsigned k = 0; k < s->rank; k++) {
    const uint64_t pick = test_rng_below(12);
    s->extents[k] = pick == 0 ? 0 : pick < 3 ? 1 : 2 + test_rng_below(4);
    while (s->extents[k] > 1 && product * s->extents[k] > 1024)
      s->extents[k]--;
    product *= s->extents[k] ? s->extents[k] : 1;
  }
  ocl_reduce_shape dense;
  assert_int_equal(ocl_reduce_shape_dense(s->rank, s->extents, &dense), OCL_REDUCE_OK);
  switch (test_rng_below(4)) {
  case 0: memcpy(s->strides, dense.strides, sizeof s->strides); break;
  case 1: /* the dense strides of the axes in another order */
    memcpy(s->strides, dense.strides, sizeof s->strides);
    for (unsigned k = s->rank; k-- > 1;) {
      const unsigned j = (unsigned)test_rng_below(k + 1);
      const uint64_t t = s->strides[k];
      s->strides[k] = s->strides[j];
      s->strides[j] = t;
    }
    break;
  case 2: { /* padded: each row of the innermost axis twice as far apart, 1 or 3 inside */
    const uint64_t inner = test_rng_below(2) ? 1 : 3;
    for (unsigned k = 0; k < s->rank; k++)
      s->strides[k] = k + 1 == s->rank ? inner : 2 * inner * dense.strides[k];
    break;
  }
  default:
    for (unsigned k = 0; k < s->rank; k++)
      s->strides[k] = test_rng_below(7);
  }
  uint64_t reach = 1;
  for (unsigned k = 0; k < s->rank; k++) {
    if (s->extents[k] == 0)
      return 0;
    reach += (s->extents[k] - 1) * s->strides[k];
  }
  return reach;
}

static size_t kept_positions(const ocl_reduce_shape *s, uint32_t axes) {
  size_t results = 1;
  for (unsigned k = 0; k < s->rank; k++)
    if (!((axes >> k) & 1u))
      results *= s->extents[k];
  return results;
}

/* Contexts whose buffers' views of the COLUMNS form are read in place, and gathered (forced:
 * each device has its default, plan_columns.c). */
static ocl_reduce_context *forced[3];
static const char *const forced_names[3] = {"a buffer, in place", "a buffer, gathered",
                                            "a buffer, in two passes where they apply"};

/* The view of `data` reduced from a buffer on ctx, at its start when the view reaches a
 * multiple of 8 elements, else 2 elements in (garbage before; GPUs load short columns' runs
 * element by element then, else as vectors), into a buffer at result 0, 1 or 2 (GPUs store
 * short columns' runs as vectors only on a vector boundary), the results before untouched. */
static void buffer_view(ocl_reduce_context *ctx, const char *name, kind k, const void *data,
                        const ocl_reduce_shape *s, uint32_t axes, uint64_t reach) {
  const size_t elem = elem_of(k), rsize = result_of(k), results = kept_positions(s, axes);
  const size_t at = reach % 8 ? 2 : 0, out_at = (size_t)(reach % 3);
  const size_t out_bytes = (out_at + results ? out_at + results : 1) * rsize;
  unsigned char *whole = calloc(reach + 2, elem), *got = malloc(out_bytes);
  assert_non_null(whole);
  assert_non_null(got);
  memcpy(whole + at * elem, data, reach * elem);
  memset(got, 0xc3, out_bytes);
  ocl_reduce_buffer *buf = NULL, *res = NULL;
  assert_int_equal(ocl_reduce_buffer_create(ctx, (reach + 2) * elem, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, whole, (reach + 2) * elem), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_create(ctx, out_bytes, &res), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(res, 0, got, out_bytes), OCL_REDUCE_OK);
  const ocl_reduce_status st = ocl_reduce_axes(ctx, op_of(k), type_of(k),
                                               ocl_reduce_buffer_input(buf, at), s, axes,
                                               ocl_reduce_buffer_output(res, out_at));
  if (st != OCL_REDUCE_OK)
    fail_msg("%s: %s: %s (%s)", kind_names[k], name, ocl_reduce_status_name(st),
             ocl_reduce_last_error(ctx));
  assert_int_equal(ocl_reduce_buffer_read(res, 0, got, out_bytes), OCL_REDUCE_OK);
  for (size_t i = 0; i < out_at * rsize; i++)
    if (got[i] != 0xc3)
      fail_msg("%s: %s: byte %zu before the results was written", kind_names[k], name, i);
  check_results(k, data, s, axes, got + out_at * rsize, name);
  ocl_reduce_buffer_destroy(res);
  ocl_reduce_buffer_destroy(buf);
  free(whole);
  free(got);
}

/* A group of three contexts on the device under test, uneven shares and parts of a KiB, so
 * that views of a few hundred elements spread over all three (ocl_reduce_group_axes). */
#define MEMBERS 3
static ocl_reduce_context *members[MEMBERS];
static ocl_reduce_group *group;

/* The view reduced from host memory, by one context and by the group, then from a buffer on
 * each forced context. */
static void one_view(kind k, const ocl_reduce_shape *s, uint32_t axes, uint64_t reach) {
  const size_t elem = elem_of(k), rsize = result_of(k), results = kept_positions(s, axes);
  void *data = fill(k, (size_t)reach);
  unsigned char *got = malloc((results ? results : 1) * rsize);
  assert_non_null(got);
  const ocl_reduce_output out = ocl_reduce_host_output(got, results * rsize);
  const ocl_reduce_input in = ocl_reduce_host_input(data, reach * elem);
  ocl_reduce_status st = ocl_reduce_axes(test_ctx, op_of(k), type_of(k), in, s, axes, out);
  if (st != OCL_REDUCE_OK)
    fail_msg("%s: host memory: %s (%s)", kind_names[k], ocl_reduce_status_name(st),
             ocl_reduce_last_error(test_ctx));
  check_results(k, data, s, axes, got, "host memory");
  memset(got, 0xc3, results * rsize);
  if ((st = ocl_reduce_group_axes(group, op_of(k), type_of(k), in, s, axes, out)) !=
      OCL_REDUCE_OK)
    fail_msg("%s: a group: %s (%s)", kind_names[k], ocl_reduce_status_name(st),
             ocl_reduce_last_error(NULL));
  check_results(k, data, s, axes, got, "a group, host memory");
  for (int f = 0; f < 3; f++)
    buffer_view(forced[f], forced_names[f], k, data, s, axes, reach);
  free(got);
  free(data);
}

static int fp64 = 1; /* test_has_fp64(), at setup */

static void test_random_views(void **state) {
  (void)state;
  for (int k = 0; k < KINDS; k++)
    for (int round = 0; round < (test_light() ? 25 : 60) && (k != STATE || fp64); round++) {
      ocl_reduce_shape s;
      const uint64_t reach = random_view(&s);
      const uint32_t axes = 1 + (uint32_t)test_rng_below((1u << s.rank) - 1);
      one_view((kind)k, &s, axes, reach);
    }
}

/* The first case, the column sums of a 5000 x 300 row-major matrix; and tall columns
 * (10000 x 2, x 3): few kept positions, the reduced ones cut into parts whose partials take two
 * more launches (kernels/axes_columns.cl; three launches in all on CPU devices too); and short
 * ones (40 x 3000 from a buffer's start, 43 x 3004 from 2 elements in: vector runs on GPUs), for
 * every kind of operator, from host memory and from a buffer. */
static void test_column_sums(void **state) {
  (void)state;
  const uint64_t shapes[][2] = {{5000, 300}, {10000, 2}, {10000, 3}, {70, 3000}, {40, 3000},
                                {43, 3004}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    for (int k = 0; k < KINDS; k++) {
      if ((k == STATE && !fp64) || (i == 0 && k != SCALAR))
        continue;
      ocl_reduce_shape s;
      assert_int_equal(ocl_reduce_shape_dense(2, shapes[i], &s), OCL_REDUCE_OK);
      one_view((kind)k, &s, 1u, shapes[i][0] * shapes[i][1]);
    }
}

/* A [rows, length] view of a buffer, rows `pitch` elements apart (row = {rows, length, pitch}),
 * reduced along `axes` by ctx and checked (buffer_view). */
static void pitched_view(ocl_reduce_context *ctx, const char *name, kind k, const uint64_t *row,
                         uint32_t axes) {
  ocl_reduce_shape s = {sizeof s, 2, {row[0], row[1]}, {row[2], 1}};
  const uint64_t reach = (row[0] - 1) * row[2] + row[1];
  void *data = fill(k, (size_t)reach);
  buffer_view(ctx, name, k, data, &s, axes, reach);
  free(data);
}

/* Rows of a buffer apart (padded) or overlapping, read in place as equal segments with a pitch
 * by every segment strategy (forced; a stage, and runs of segments, take only rows back to back,
 * so those plans fall back), for every kind of operator: pitches that keep rows on vector
 * boundaries and pitches that do not. */
static void test_rows_with_a_pitch(void **state) {
  (void)state;
  static const char *const modes[] = {"seg=mr", "seg=group", "seg=lane", "seg=staged",
                                      "seg=launch"};
  const uint64_t rows[][3] = {/* rows, length, pitch */
                              {1000, 32, 40}, {300, 33, 37}, {64, 1000, 1024},
                              {200, 12, 5},   {3, 5000, 7001}};
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    ocl_reduce_context *ctx = test_context_with_policy(modes[m]);
    assert_non_null(ctx);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
      for (int k = 0; k < FULL_KINDS; k++) {
        if ((k == STATE && !fp64) || (m == 4 && i < 3 && k != SCALAR))
          continue;
        pitched_view(ctx, modes[m], (kind)k, rows[i], 2u);
      }
    ocl_reduce_context_destroy(ctx);
  }
}

/* Tall columns (kernels/axes_columns.cl, ORX_COL_TALL: a work-group reads short rows side by
 * side and combines them), forced on every device and off, for every kind of operator (the
 * order-preserving one keeps its own way): rows back to back and apart, runs that fill a group
 * or a fraction of one (one kept position too), and lengths that leave parts without rows. */
static void test_tall_columns(void **state) {
  (void)state;
  static const char *const modes[] = {"col_tall=1", "col_tall=0"};
  const uint64_t rows[][3] = {/* rows, kept extent, pitch */
                              {16000, 16, 16}, {3001, 64, 64}, {5000, 2, 2}, {999, 8, 11},
                              {70, 4, 4},      {16384, 1, 1},  {257, 32, 40}};
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    ocl_reduce_context *ctx = test_context_with_policy(modes[m]);
    assert_non_null(ctx);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
      for (int k = 0; k < FULL_KINDS; k++) {
        if ((k == STATE && !fp64) || (rows[i][0] * rows[i][1] > 100000 && k != SCALAR))
          continue;
        pitched_view(ctx, modes[m], (kind)k, rows[i], 1u);
      }
    ocl_reduce_context_destroy(ctx);
  }
}

/* The results of view s (reaching `reach` elements of data) by ctx, from a buffer, into got. */
static void reduce_buffer_view(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                               const void *data, size_t elem, const ocl_reduce_shape *s,
                               uint32_t axes, uint64_t reach, void *got, size_t got_bytes) {
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(ctx, reach * elem, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, data, reach * elem), OCL_REDUCE_OK);
  const ocl_reduce_status st = ocl_reduce_axes(ctx, op, type, ocl_reduce_buffer_input(buf, 0), s,
                                               axes, ocl_reduce_host_output(got, got_bytes));
  if (st != OCL_REDUCE_OK)
    fail_msg("%s (%s)", ocl_reduce_status_name(st), ocl_reduce_last_error(ctx));
  ocl_reduce_buffer_destroy(buf);
}

/* Columns cut into parts whose one launch folds its own partials (kernels/axes_columns.cl,
 * ORX_COL_FINISH, forced: wherever the device orders work-groups), and the same views with a
 * launch over the partials (finish=launch), for every kind of operator: flat views, rows apart,
 * and two reduced axes; and an f32 sum of random floats (any other order rounds differently)
 * gives the same bits both ways. */
static void test_columns_finish_in_one_launch(void **state) {
  (void)state;
  static const char *const modes[] = {"col_finish=1", "finish=launch"};
  ocl_reduce_context *ctx[2];
  for (int m = 0; m < 2; m++)
    assert_non_null(ctx[m] = test_context_with_policy(modes[m]));
  const ocl_reduce_shape views[] = {
      {sizeof(ocl_reduce_shape), 2, {3000, 1000}, {1000, 1}},
      {sizeof(ocl_reduce_shape), 2, {640, 48}, {50, 1}},
      {sizeof(ocl_reduce_shape), 3, {2000, 6, 10}, {60, 10, 1}},
      {sizeof(ocl_reduce_shape), 3, {40, 50, 60}, {3000, 60, 1}},
  };
  const uint32_t axes[] = {1u, 1u, 1u, 3u};
  /* Whether the device orders work-groups: its whole-array plan finishes in the last group. */
  char text[2048];
  ocl_reduce_shape whole;
  assert_int_equal(ocl_reduce_shape_dense(1, (const uint64_t[]){1u << 20}, &whole), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_describe_axes(ctx[0], OCL_REDUCE_SUM, OCL_REDUCE_F32, &whole, 1u, 0,
                                            text, sizeof text),
                   OCL_REDUCE_OK);
  const int ordered = strstr(text, "finish=launch") == NULL;
  for (size_t v = 0; v < sizeof views / sizeof views[0]; v++) {
    const ocl_reduce_shape *s = &views[v];
    uint64_t reach = 1;
    for (unsigned k = 0; k < s->rank; k++)
      reach += (s->extents[k] - 1) * s->strides[k];
    for (int m = 0; m < 2; m++) {
      assert_int_equal(ocl_reduce_describe_axes(ctx[m], OCL_REDUCE_SUM, OCL_REDUCE_F32, s, axes[v],
                                                0, text, sizeof text),
                       OCL_REDUCE_OK);
      const char *want = m == 0 && ordered ? "(one launch)" : "launch(es) over their partial";
      if (!strstr(text, want))
        fail_msg("view %zu, policy \"%s\": \"%s\" lacks \"%s\"", v, modes[m], text, want);
      for (int k = 0; k < FULL_KINDS; k++) {
        if ((k == STATE && !fp64) || (reach > 100000 && k != SCALAR))
          continue;
        void *data = fill((kind)k, (size_t)reach);
        buffer_view(ctx[m], modes[m], (kind)k, data, s, axes[v], reach);
        free(data);
      }
    }
    const size_t results = kept_positions(s, axes[v]);
    float *data = malloc(reach * sizeof *data), *got[2];
    assert_non_null(data);
    test_fill(data, (size_t)reach, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
    for (int m = 0; m < 2; m++) {
      assert_non_null(got[m] = malloc(results * sizeof *got[m]));
      reduce_buffer_view(ctx[m], OCL_REDUCE_SUM, OCL_REDUCE_F32, data, sizeof *data, s, axes[v],
                         reach, got[m], results * sizeof *got[m]);
    }
    if (memcmp(got[0], got[1], results * sizeof *got[0]) != 0)
      fail_msg("view %zu: f32 sums differ between one launch and a launch over the partials", v);
    for (int m = 0; m < 2; m++)
      free(got[m]);
    free(data);
  }
  for (int m = 0; m < 2; m++)
    ocl_reduce_context_destroy(ctx[m]);
}

/* A tensor's outer and inner axes together ({0, 2}): on GPUs (and every device forced) rows
 * along the inner axis, then columns, for every kind of operator (those without two passes take
 * their usual way). */
static void test_outer_and_inner_axes(void **state) {
  (void)state;
  const uint64_t tensors[][3] = {{8, 6, 5}, {33, 7, 100}, {3, 1000, 17}, {300, 40, 3}};
  for (size_t i = 0; i < sizeof tensors / sizeof tensors[0]; i++)
    for (int k = 0; k < FULL_KINDS; k++) {
      if (k == STATE && !fp64)
        continue;
      ocl_reduce_shape s;
      assert_int_equal(ocl_reduce_shape_dense(3, tensors[i], &s), OCL_REDUCE_OK);
      one_view((kind)k, &s, 5u, tensors[i][0] * tensors[i][1] * tensors[i][2]);
    }
}

/* A group buffer's whole array and its rows back to back (the group's reduction and segments),
 * results to host memory and, for rows, to a group buffer; its other views refused by name with
 * the results untouched. */
static void test_group_buffer_views(void **state) {
  (void)state;
  enum { ROWS = 300, LENGTH = 37 };
  const uint64_t extents[2] = {ROWS, LENGTH};
  ocl_reduce_shape s;
  assert_int_equal(ocl_reduce_shape_dense(2, extents, &s), OCL_REDUCE_OK);
  void *data = fill(SCALAR, ROWS * LENGTH);
  ocl_reduce_buffer *b = NULL, *r = NULL;
  assert_int_equal(ocl_reduce_group_buffer_create(group, 4, ROWS * LENGTH, LENGTH, &b),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(b, 0, data, ROWS * LENGTH * 4), OCL_REDUCE_OK);
  int32_t got[ROWS];
  const ocl_reduce_input in = ocl_reduce_buffer_input(b, 0);
  const ocl_reduce_output out = ocl_reduce_host_output(got, sizeof got);
  assert_int_equal(ocl_reduce_group_axes(group, OCL_REDUCE_SUM, OCL_REDUCE_I32, in, &s, 3u, out),
                   OCL_REDUCE_OK);
  check_results(SCALAR, data, &s, 3u, (const unsigned char *)got, "a group buffer, whole");
  assert_int_equal(ocl_reduce_group_axes(group, OCL_REDUCE_SUM, OCL_REDUCE_I32, in, &s, 2u, out),
                   OCL_REDUCE_OK);
  check_results(SCALAR, data, &s, 2u, (const unsigned char *)got, "a group buffer, rows");
  assert_int_equal(ocl_reduce_group_buffer_create_results(b, LENGTH, 4, &r), OCL_REDUCE_OK);
  memset(got, 0, sizeof got);
  assert_int_equal(ocl_reduce_group_axes(group, OCL_REDUCE_SUM, OCL_REDUCE_I32, in, &s, 2u,
                                         ocl_reduce_buffer_output(r, 0)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_read(r, 0, got, sizeof got), OCL_REDUCE_OK);
  check_results(SCALAR, data, &s, 2u, (const unsigned char *)got, "a group buffer of results");
  memset(got, 0xc3, sizeof got);
  expect_error(ocl_reduce_group_axes(group, OCL_REDUCE_SUM, OCL_REDUCE_I32, in, &s, 1u, out),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, NULL, "host memory");
  for (size_t i = 0; i < sizeof got; i++)
    assert_int_equal(((unsigned char *)got)[i], 0xc3);
  ocl_reduce_buffer_destroy(r);
  ocl_reduce_buffer_destroy(b);
  free(data);
}

/* ---- Plans in words ------------------------------------------------------------------------ */

/* The form ocl_reduce_describe_axes gives a 2-D view of `extents` reducing `axes`, on ctx, starts
 * with `form`; the rest names the launch's kernel file. */
static void expect_described(ocl_reduce_context *ctx, const uint64_t *extents, uint32_t axes,
                             int from_host, const char *form, const char *file) {
  ocl_reduce_shape s;
  assert_int_equal(ocl_reduce_shape_dense(2, extents, &s), OCL_REDUCE_OK);
  char text[2048];
  assert_int_equal(ocl_reduce_describe_axes(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, &s, axes,
                                            from_host, text, sizeof text),
                   OCL_REDUCE_OK);
  if (strncmp(text, form, strlen(form)) != 0 || !strstr(text, file))
    fail_msg("[%llu, %llu] axes 0x%x: \"%s\" does not start with \"%s\" or lacks %s",
             (unsigned long long)extents[0], (unsigned long long)extents[1], axes, text, form,
             file);
}

/* Each form, and the gather's reasons, as ocl_reduce_axes takes them (describe.c); tall columns
 * in place are cut into parts. */
static void test_describe_names_each_form(void **state) {
  (void)state;
  const uint64_t square[2] = {300, 200}, tall[2] = {100000, 2}, none[2] = {0, 5};
  expect_described(test_ctx, square, 3u, 1, "whole array", "reduce_all.cl");
  expect_described(test_ctx, square, 2u, 1, "rows: 300 of 200", "segments_");
  expect_described(test_ctx, square, 1u, 1, "gathered (host memory", "segments_");
  expect_described(forced[0], square, 1u, 0, "columns in place", "axes_columns.cl");
  expect_described(forced[0], tall, 1u, 0, "columns in place", "launch(es) over their partial");
  expect_described(forced[1], square, 1u, 0, "gathered (as OCL_REDUCE_POLICY", "gather.cl");
  /* A tensor's outer and inner axes: rows along the inner one, then columns; ARGMIN has no two
   * passes (its results are not its elements). */
  ocl_reduce_shape t;
  const uint64_t tensor[3] = {8, 6, 5};
  assert_int_equal(ocl_reduce_shape_dense(3, tensor, &t), OCL_REDUCE_OK);
  char split_text[2048];
  assert_int_equal(ocl_reduce_describe_axes(forced[2], OCL_REDUCE_SUM, OCL_REDUCE_F32, &t, 5u, 0,
                                            split_text, sizeof split_text),
                   OCL_REDUCE_OK);
  assert_non_null(strstr(split_text, "two passes: rows along the innermost reduced axis, 48 of 5"));
  assert_non_null(strstr(split_text, "axes_columns.cl"));
  assert_int_equal(ocl_reduce_describe_axes(forced[2], OCL_REDUCE_ARGMIN, OCL_REDUCE_F32, &t, 5u,
                                            0, split_text, sizeof split_text),
                   OCL_REDUCE_OK);
  assert_int_not_equal(strncmp(split_text, "two passes", 10), 0);
  expect_described(test_ctx, none, 2u, 0, "nothing: no kept position", "");
  expect_described(test_ctx, none, 1u, 0, "identities: 5 results", "");
  /* A strided view: every second column of a 300 x 200 matrix, along its rows. */
  ocl_reduce_shape s = {sizeof s, 2, {300, 100}, {200, 2}};
  char text[2048];
  assert_int_equal(ocl_reduce_describe_axes(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, &s, 2u, 0,
                                            text, sizeof text),
                   OCL_REDUCE_OK);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_OK);
  const char *want = info.device_type == OCL_REDUCE_DEVICE_CPU
                         ? "in place (a CPU device"
                         : "gathered (its reduced positions are not one run";
  if (strncmp(text, want, strlen(want)) != 0)
    fail_msg("a strided view: \"%s\" does not start with \"%s\"", text, want);
  /* The same checks as ocl_reduce_axes. */
  expect_error(ocl_reduce_describe_axes(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, &s, 4u, 0, text,
                                        sizeof text),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "at or above");
  expect_error(ocl_reduce_describe_axes(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, &s, 1u, 0, NULL,
                                        0),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "text is NULL");
}

/* ---- Refusals ----------------------------------------------------------------------------- */

#define GUARD 0xc3

static void expect_refused(ocl_reduce_status got, const char *needle, const unsigned char *out,
                           size_t bytes) {
  expect_error(got, OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, needle);
  for (size_t i = 0; i < bytes; i++)
    if (out[i] != GUARD)
      fail_msg("byte %zu of the output was written by a refused call (%s)", i, needle);
}

static void test_bad_shapes_axes_and_sizes_are_refused_by_name(void **state) {
  (void)state;
  int32_t data[12] = {0};
  unsigned char out[64];
  memset(out, GUARD, sizeof out);
  const ocl_reduce_input in = ocl_reduce_host_input(data, sizeof data);
  const ocl_reduce_output o = ocl_reduce_host_output(out, sizeof out);
  ocl_reduce_shape s;
  const uint64_t extents[2] = {3, 4};
  assert_int_equal(ocl_reduce_shape_dense(2, extents, &s), OCL_REDUCE_OK);
  assert_int_equal(s.strides[0], 4);
  assert_int_equal(s.strides[1], 1);
#define AXES(shape, axes, input, output)                                                           \
  ocl_reduce_axes(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, input, shape, axes, output)
  expect_refused(AXES(NULL, 1u, in, o), "shape is NULL", out, sizeof out);
  ocl_reduce_shape bad = s;
  bad.struct_size = 8;
  expect_refused(AXES(&bad, 1u, in, o), "struct_size", out, sizeof out);
  bad = s;
  bad.rank = 0;
  expect_refused(AXES(&bad, 1u, in, o), "rank is 0", out, sizeof out);
  bad.rank = OCL_REDUCE_MAX_RANK + 1;
  expect_refused(AXES(&bad, 1u, in, o), "rank is 9", out, sizeof out);
  expect_refused(AXES(&s, 0u, in, o), "axes is 0", out, sizeof out);
  expect_refused(AXES(&s, 4u, in, o), "at or above", out, sizeof out);
  bad = s;
  bad.extents[0] = bad.extents[1] = (uint64_t)1 << 33;
  expect_refused(AXES(&bad, 3u, in, o), "overflow 64 bits", out, sizeof out);
  bad = s;
  bad.strides[0] = (uint64_t)1 << 63;
  expect_refused(AXES(&bad, 1u, in, o), "largest position", out, sizeof out);
  /* One element short: a 3 x 4 view needs 12. */
  expect_refused(AXES(&s, 1u, ocl_reduce_host_input(data, sizeof data - 4), o), "input", out,
                 sizeof out);
  /* Four column sums need 16 bytes. */
  expect_refused(AXES(&s, 1u, in, ocl_reduce_host_output(out, 15)), "output", out, sizeof out);
#undef AXES
  /* The group's, named as ocl_reduce_group_axes's, the output untouched. */
#define GROUP_AXES(shape, axes, input, output)                                                     \
  ocl_reduce_group_axes(group, OCL_REDUCE_SUM, OCL_REDUCE_I32, input, shape, axes, output)
#define GROUP_REFUSED(call, needle)                                                                \
  do {                                                                                             \
    expect_error(call, OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, needle);                           \
    for (size_t i = 0; i < sizeof out; i++)                                                        \
      assert_int_equal(out[i], GUARD);                                                             \
  } while (0)
  GROUP_REFUSED(GROUP_AXES(NULL, 1u, in, o), "ocl_reduce_group_axes: shape is NULL");
  GROUP_REFUSED(GROUP_AXES(&s, 4u, in, o), "at or above");
  GROUP_REFUSED(GROUP_AXES(&s, 1u, ocl_reduce_host_input(data, sizeof data - 4), o),
                "input is 44 bytes");
  GROUP_REFUSED(GROUP_AXES(&s, 1u, in, ocl_reduce_host_output(out, 15)), "results is 15 bytes");
  GROUP_REFUSED(ocl_reduce_group_axes(NULL, OCL_REDUCE_SUM, OCL_REDUCE_I32, in, &s, 1u, o),
                "group is NULL");
#undef GROUP_REFUSED
#undef GROUP_AXES
  /* ocl_reduce_shape_dense's own. */
  ocl_reduce_shape kept = s;
  expect_error(ocl_reduce_shape_dense(0, extents, &s), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "rank is 0");
  expect_error(ocl_reduce_shape_dense(2, NULL, &s), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "extents is NULL");
  expect_error(ocl_reduce_shape_dense(2, extents, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "shape is NULL");
  const uint64_t huge[3] = {2, (uint64_t)1 << 40, (uint64_t)1 << 40};
  expect_error(ocl_reduce_shape_dense(3, huge, &s), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "overflows 64 bits");
  assert_memory_equal(&s, &kept, sizeof s);
}

static int setup(void **state) {
  if (test_setup(state) != 0)
    return -1;
  fp64 = test_has_fp64();
  static const double weights[MEMBERS] = {1.0, 2.0, 1.0};
  for (int d = 0; d < MEMBERS; d++)
    if (!(members[d] = test_context_with_policy("part_kib=1")))
      return -1;
  if (ocl_reduce_group_create_from(members, MEMBERS, &group) != OCL_REDUCE_OK ||
      ocl_reduce_group_set_shares(group, OCL_REDUCE_SHARES_HOST, weights) != OCL_REDUCE_OK ||
      ocl_reduce_group_set_shares(group, OCL_REDUCE_SHARES_RESIDENT, weights) != OCL_REDUCE_OK)
    return -1;
  if (!(forced[0] = test_context_with_policy("axes=columns")) ||
      !(forced[1] = test_context_with_policy("axes=gather")) ||
      !(forced[2] = test_context_with_policy("axes=split")))
    return -1;
  return ocl_reduce_operator_create(&test_ordered_descs[TEST_MATRIX], &matrix) == OCL_REDUCE_OK &&
                 ocl_reduce_operator_create(&test_custom_descs[TEST_HISTOGRAM], &histogram) ==
                     OCL_REDUCE_OK
             ? 0
             : -1;
}

static int teardown(void **state) {
  ocl_reduce_operator_destroy(histogram);
  ocl_reduce_operator_destroy(matrix);
  for (int f = 0; f < 3; f++)
    ocl_reduce_context_destroy(forced[f]);
  ocl_reduce_group_destroy(group);
  for (int d = 0; d < MEMBERS; d++)
    ocl_reduce_context_destroy(members[d]);
  return test_teardown(state);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_views),
      cmocka_unit_test(test_column_sums),
      cmocka_unit_test(test_rows_with_a_pitch),
      cmocka_unit_test(test_tall_columns),
      cmocka_unit_test(test_columns_finish_in_one_launch),
      cmocka_unit_test(test_outer_and_inner_axes),
      cmocka_unit_test(test_group_buffer_views),
      cmocka_unit_test(test_describe_names_each_form),
      cmocka_unit_test(test_bad_shapes_axes_and_sizes_are_refused_by_name),
  };
  return TEST_RUN(tests, setup, teardown);
}
