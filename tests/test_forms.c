/* =================================================================================================
 * test_forms.c: every kind of operator on every entry point, and every entry point's sizes.
 *
 * Six operators, one of each kind: a scalar built-in (SUM on i32), a structured built-in
 * (ARGMIN on f32), a built-in whose state is not its result (MEAN_VAR on f64), the reproducible
 * sum (on f32), a commutative user operator (the sum of squares) and an order-preserving one
 * (2x2 matrix products), each through ocl_reduce, ocl_reduce_into, both segmented calls,
 * ocl_reduce_by_key (host memory, and buffers of exactly the runs), ocl_reduce_windows,
 * ocl_reduce_multi, reductions in parts, a group, and ocl_reduce_axes over views of a buffer
 * read in place (columns, rows apart, two passes), against host references on fresh random
 * data; pairs (a dot product, a count, the user pair operators), whole and in segments. Then each
 * entry point is given memory one byte too small, for its input, its results and its offsets: a
 * named status, a message with both sizes, and guard bytes intact.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_group.h"
#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/ordered_ops.h"
#include "support/pair_reference.h"
#include "support/structured.h"
#include "support/user_pairs.h"

#define MAX_RESULT 64
#define GUARD 0xc3

/* ---- The six kinds ---------------------------------------------------------------------- */

typedef enum kind { SCALAR, STRUCTURED, STATE, REPRODUCIBLE, COMMUTATIVE, ORDERED, KINDS } kind;
static const char *const kind_names[KINDS] = {
    "sum i32", "argmin f32", "mean_var f64", "sum_reproducible f32", "user squares",
    "user matrix product"};
static ocl_reduce_operator *squares, *matrix;

static ocl_reduce_op op_of(kind k) {
  switch (k) {
  case SCALAR: return OCL_REDUCE_SUM;
  case STRUCTURED: return OCL_REDUCE_ARGMIN;
  case STATE: return OCL_REDUCE_MEAN_VAR;
  case REPRODUCIBLE: return OCL_REDUCE_SUM_REPRODUCIBLE;
  case COMMUTATIVE: return squares;
  default: return matrix;
  }
}
static int built_in(kind k) { return k != COMMUTATIVE && k != ORDERED; }
static ocl_reduce_type type_of(kind k) {
  switch (k) {
  case SCALAR: return OCL_REDUCE_I32;
  case STATE: return OCL_REDUCE_F64;
  case STRUCTURED:
  case REPRODUCIBLE: return OCL_REDUCE_F32;
  default: return OCL_REDUCE_OP_ELEMENT;
  }
}
static size_t elem_of(kind k) {
  return k == STATE         ? 8
         : built_in(k)      ? 4
         : k == COMMUTATIVE ? test_custom_descs[TEST_SQUARES].element_size
                            : test_ordered_descs[TEST_MATRIX].element_size;
}
static size_t result_of(kind k) { return ocl_reduce_result_size(op_of(k), type_of(k)); }

static void *fill(kind k, size_t n) {
  void *data = malloc(n * elem_of(k) + 1);
  assert_non_null(data);
  if (k == COMMUTATIVE)
    test_custom_fill(TEST_SQUARES, data, n);
  else if (k == ORDERED)
    test_ordered_fill(TEST_MATRIX, data, n);
  else
    test_fill(data, n, op_of(k), type_of(k), MODE_RANDOM);
  return data;
}

/* Whether `got` is the reduction of n elements at data; `first` is the index of data[0] in the
 * input (ARGMIN's index counts from there in windows). */
static int matches(kind k, const void *data, size_t n, const void *got, uint64_t first, char *why,
                   size_t size) {
  unsigned char want[MAX_RESULT];
  switch (k) {
  case COMMUTATIVE:
    test_custom_reference(TEST_SQUARES, data, n, want);
    snprintf(why, size, "not the sum of the squares");
    return memcmp(got, want, result_of(k)) == 0;
  case ORDERED:
    snprintf(why, size, "not the ordered product");
    return test_ordered_matches(TEST_MATRIX, data, n, got);
  case STRUCTURED: {
    ocl_reduce_arg arg;
    memcpy(&arg, got, sizeof arg);
    if (n > 0)
      arg.index -= first;
    return test_result_matches(&arg, data, n, op_of(k), type_of(k), why, size);
  }
  default: return test_result_matches(got, data, n, op_of(k), type_of(k), why, size);
  }
}

#define CHECK(k, cond, ...)                                                                        \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      char what_[512];                                                                             \
      snprintf(what_, sizeof what_, __VA_ARGS__);                                                  \
      fail_msg("%s: %s", kind_names[k], what_);                                                    \
    }                                                                                              \
  } while (0)
#define OK(k, call)                                                                                \
  do {                                                                                             \
    const ocl_reduce_status s_ = (call);                                                           \
    CHECK(k, s_ == OCL_REDUCE_OK, "%s: %s (%s)", #call, ocl_reduce_status_name(s_),                \
          ocl_reduce_last_error(test_ctx));                                                        \
  } while (0)

static ocl_reduce_input host_in(kind k, const void *data, size_t n) {
  return ocl_reduce_host_input(data, n * elem_of(k));
}

/* ---- Every entry point ------------------------------------------------------------------- */

static void whole(kind k) {
  const size_t n = 1 + test_rng_below(5000), elem = elem_of(k), rsize = result_of(k);
  void *data = fill(k, n);
  unsigned char got[MAX_RESULT];
  char why[256];
  OK(k, ocl_reduce(test_ctx, op_of(k), type_of(k), data, n, got, rsize));
  CHECK(k, matches(k, data, n, got, 0, why, sizeof why), "ocl_reduce: %s", why);
  /* From a buffer at an offset into a buffer at an offset, read back. The 3 elements before the
   * offset are garbage that must not be read. The buffer is written whole: Oclgrind 21.10, which
   * runs this under its check of uninitialized values (scripts/oclgrind_light.sh), forgets what
   * was written before a write at an offset. */
  ocl_reduce_buffer *in = NULL, *out = NULL;
  unsigned char *whole = malloc((n + 3) * elem);
  assert_non_null(whole);
  memset(whole, 0x5a, 3 * elem);
  memcpy(whole + 3 * elem, data, n * elem);
  OK(k, ocl_reduce_buffer_create(test_ctx, (n + 3) * elem, &in));
  OK(k, ocl_reduce_buffer_write(in, 0, whole, (n + 3) * elem));
  free(whole);
  OK(k, ocl_reduce_buffer_create(test_ctx, 2 * rsize, &out));
  OK(k, ocl_reduce_into(test_ctx, op_of(k), type_of(k), ocl_reduce_buffer_input(in, 3), n,
                        ocl_reduce_buffer_output(out, 1)));
  OK(k, ocl_reduce_buffer_read(out, rsize, got, rsize));
  CHECK(k, matches(k, data, n, got, 0, why, sizeof why), "ocl_reduce_into, buffers: %s", why);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
  free(data);
}

static void segments(kind k) {
  const size_t count = 1 + test_rng_below(60), length = test_rng_below(70), elem = elem_of(k);
  const size_t rsize = result_of(k);
  uint64_t *offsets = malloc((count + 1) * sizeof *offsets);
  assert_non_null(offsets);
  offsets[0] = 0;
  for (size_t s = 0; s < count; s++)
    offsets[s + 1] = offsets[s] + (test_rng_below(5) == 0 ? 0 : test_rng_below(90));
  const size_t n =
      (size_t)offsets[count] > count * length ? (size_t)offsets[count] : count * length;
  void *data = fill(k, n);
  unsigned char *got = malloc(count * rsize);
  assert_non_null(got);
  char why[256];
  OK(k, ocl_reduce_segments(test_ctx, op_of(k), type_of(k), host_in(k, data, count * length), count,
                            length, ocl_reduce_host_output(got, count * rsize)));
  for (size_t s = 0; s < count; s++)
    CHECK(k,
          matches(k, (const char *)data + s * length * elem, length, got + s * rsize, 0, why,
                  sizeof why),
          "segment %zu of %zu: %s", s, length, why);
  OK(k, ocl_reduce_segments_offsets(test_ctx, op_of(k), type_of(k),
                                    host_in(k, data, (size_t)offsets[count]), count,
                                    ocl_reduce_host_input(offsets, (count + 1) * sizeof *offsets),
                                    ocl_reduce_host_output(got, count * rsize)));
  for (size_t s = 0; s < count; s++)
    CHECK(k,
          matches(k, (const char *)data + offsets[s] * elem, offsets[s + 1] - offsets[s],
                  got + s * rsize, 0, why, sizeof why),
          "offsets: segment %zu: %s", s, why);
  free(got);
  free(offsets);
  free(data);
}

/* Reduce by key over runs of 1-60 pairs (i32 keys): from host memory into host memory with room
 * for a run per pair, then from buffers at offsets into buffers of exactly the runs (which the
 * one pass stages or counts first: run_by_key_pass.c). ARGMIN's index counts from the run's
 * start. */
static void by_key(kind k) {
  const size_t n = 1 + test_rng_below(1500), elem = elem_of(k), rsize = result_of(k);
  int32_t *keys = malloc(n * sizeof *keys);
  uint64_t *heads = malloc((n + 1) * sizeof *heads);
  assert_true(keys && heads);
  size_t runs = 0;
  for (size_t i = 0; i < n; runs++) {
    const size_t length = 1 + test_rng_below(60);
    heads[runs] = i;
    for (size_t j = 0; j < length && i < n; j++)
      keys[i++] = (int32_t)(runs * 7 % 5); /* keys of runs apart may be equal */
  }
  heads[runs] = n;
  for (size_t r = 1; r < runs; r++) /* neighbours differ, so that each stretch is one run */
    if (keys[heads[r]] == keys[heads[r - 1]])
      for (size_t i = heads[r]; i < heads[r + 1]; i++)
        keys[i] = -1 - (int32_t)r;
  void *data = fill(k, n);
  int32_t *keys_out = malloc(n * sizeof *keys_out);
  unsigned char *got = malloc(n * rsize);
  assert_true(keys_out && got);
  char why[256];
  uint64_t found = 0;
  for (int in_buffers = 0; in_buffers < 2; in_buffers++) {
    ocl_reduce_buffer *kin = NULL, *vin = NULL, *kout = NULL, *rout = NULL;
    ocl_reduce_input keys_in = ocl_reduce_host_input(keys, n * sizeof *keys);
    ocl_reduce_input values_in = host_in(k, data, n);
    ocl_reduce_output keys_to = ocl_reduce_host_output(keys_out, n * sizeof *keys_out);
    ocl_reduce_output results_to = ocl_reduce_host_output(got, n * rsize);
    if (in_buffers) { /* written whole, for Oclgrind (see whole()) */
      unsigned char *padded = calloc(n + 2, elem > 4 ? elem : 4);
      assert_non_null(padded);
      memcpy(padded + 2 * sizeof *keys, keys, n * sizeof *keys);
      OK(k, ocl_reduce_buffer_create(test_ctx, (n + 2) * sizeof *keys, &kin));
      OK(k, ocl_reduce_buffer_write(kin, 0, padded, (n + 2) * sizeof *keys));
      memset(padded, 0, 2 * elem);
      memcpy(padded + 2 * elem, data, n * elem);
      OK(k, ocl_reduce_buffer_create(test_ctx, (n + 2) * elem, &vin));
      OK(k, ocl_reduce_buffer_write(vin, 0, padded, (n + 2) * elem));
      free(padded);
      OK(k, ocl_reduce_buffer_create(test_ctx, (runs + 1) * sizeof *keys, &kout));
      OK(k, ocl_reduce_buffer_create(test_ctx, (runs + 1) * rsize, &rout));
      keys_in = ocl_reduce_buffer_input(kin, 2);
      values_in = ocl_reduce_buffer_input(vin, 2);
      keys_to = ocl_reduce_buffer_output(kout, 1);
      results_to = ocl_reduce_buffer_output(rout, 1);
    }
    OK(k, ocl_reduce_by_key(test_ctx, op_of(k), type_of(k), OCL_REDUCE_I32, keys_in, values_in,
                            n, keys_to, results_to, &found));
    if (in_buffers) {
      OK(k, ocl_reduce_buffer_read(kout, sizeof *keys, keys_out, runs * sizeof *keys));
      OK(k, ocl_reduce_buffer_read(rout, rsize, got, runs * rsize));
    }
    CHECK(k, found == runs, "by key (%s): %llu runs, not %zu", in_buffers ? "buffers" : "host",
          (unsigned long long)found, runs);
    for (size_t r = 0; r < runs; r++) {
      CHECK(k, keys_out[r] == keys[heads[r]], "by key: run %zu's key", r);
      CHECK(k,
            matches(k, (const char *)data + heads[r] * elem, (size_t)(heads[r + 1] - heads[r]),
                    got + r * rsize, 0, why, sizeof why),
            "by key (%s): run %zu of %zu: %s", in_buffers ? "buffers" : "host", r, runs, why);
    }
    ocl_reduce_buffer_destroy(kin);
    ocl_reduce_buffer_destroy(vin);
    ocl_reduce_buffer_destroy(kout);
    ocl_reduce_buffer_destroy(rout);
  }
  free(keys);
  free(heads);
  free(keys_out);
  free(got);
  free(data);
}

static void windows(kind k) {
  const size_t n = 1 + test_rng_below(400), window = 1 + test_rng_below(n < 40 ? n : 40);
  const size_t rsize = result_of(k), results = n - window + 1, elem = elem_of(k);
  void *data = fill(k, n);
  unsigned char *got = malloc(results * rsize);
  assert_non_null(got);
  char why[256];
  OK(k, ocl_reduce_windows(test_ctx, op_of(k), type_of(k), host_in(k, data, n), n, window,
                           ocl_reduce_host_output(got, results * rsize)));
  for (size_t j = 0; j < results; j++)
    CHECK(k, matches(k, (const char *)data + j * elem, window, got + j * rsize, j, why, sizeof why),
          "window %zu of %zu elements (n %zu): %s", j, window, n, why);
  free(got);
  free(data);
}

static void multi(kind k) {
  const size_t n = 1 + test_rng_below(3000), rsize = result_of(k);
  void *data = fill(k, n);
  /* The operator twice, around a scalar built-in where the elements are a built-in type. */
  const int scalar_too = built_in(k);
  const ocl_reduce_op ops[3] = {op_of(k), scalar_too ? OCL_REDUCE_MAX : op_of(k), op_of(k)};
  unsigned char got[3 * MAX_RESULT];
  char why[256];
  OK(k, ocl_reduce_multi(test_ctx, ops, 3, type_of(k), host_in(k, data, n), n,
                         ocl_reduce_host_output(got, 3 * rsize)));
  CHECK(k, matches(k, data, n, got, 0, why, sizeof why), "multi, ops[0]: %s", why);
  CHECK(k, matches(k, data, n, got + 2 * rsize, 0, why, sizeof why), "multi, ops[2]: %s", why);
  if (scalar_too)
    CHECK(k, test_result_matches(got + rsize, data, n, OCL_REDUCE_MAX, type_of(k), why, sizeof why),
          "multi, max: %s", why);
  free(data);
}

static void parts(kind k) {
  const size_t n = 2 + test_rng_below(4000), elem = elem_of(k);
  const size_t state = ocl_reduce_state_size(test_ctx, op_of(k), type_of(k));
  void *data = fill(k, n);
  /* Three parts at random cuts (the middle one may be empty), in order. */
  const size_t a = test_rng_below(n), b = a + test_rng_below(n - a);
  const size_t begin[4] = {0, a, b, n};
  unsigned char states[3 * MAX_RESULT], merged[2 * MAX_RESULT], got[MAX_RESULT];
  for (int p = 0; p < 3; p++)
    OK(k,
       ocl_reduce_partial(test_ctx, op_of(k), type_of(k),
                          host_in(k, (const char *)data + begin[p] * elem, begin[p + 1] - begin[p]),
                          begin[p + 1] - begin[p], begin[p],
                          ocl_reduce_host_output(states + p * state, state)));
  char why[256];
  OK(k, ocl_reduce_final(test_ctx, op_of(k), type_of(k), ocl_reduce_host_input(states, 3 * state),
                         3, ocl_reduce_host_output(got, result_of(k))));
  CHECK(k, matches(k, data, n, got, 0, why, sizeof why), "three parts: %s", why);
  OK(k, ocl_reduce_merge(test_ctx, op_of(k), type_of(k), ocl_reduce_host_input(states, 2 * state),
                         2, ocl_reduce_host_output(merged, state)));
  memcpy(merged + state, states + 2 * state, state);
  OK(k, ocl_reduce_final(test_ctx, op_of(k), type_of(k), ocl_reduce_host_input(merged, 2 * state),
                         2, ocl_reduce_host_output(got, result_of(k))));
  CHECK(k, matches(k, data, n, got, 0, why, sizeof why), "merged parts: %s", why);
  free(data);
}

/* Two contexts on the device under test, parts of 1 KiB: the request spreads over both. */
static ocl_reduce_context *members[2];
static ocl_reduce_group *group;

static void over_a_group(kind k) {
  const size_t n = 3000 + test_rng_below(5000), rsize = result_of(k), length = 50;
  void *data = fill(k, n);
  unsigned char got[MAX_RESULT];
  char why[256];
  const ocl_reduce_status s = ocl_reduce_group_reduce(group, op_of(k), type_of(k),
                                                      ocl_reduce_host_input(data, n * elem_of(k)),
                                                      n, ocl_reduce_host_output(got, rsize));
  CHECK(k, s == OCL_REDUCE_OK, "group: %s", ocl_reduce_last_error(NULL));
  CHECK(k, matches(k, data, n, got, 0, why, sizeof why), "group: %s", why);
  const size_t count = n / length;
  unsigned char *results = malloc(count * rsize);
  assert_non_null(results);
  CHECK(k,
        ocl_reduce_group_segments(group, op_of(k), type_of(k),
                                  ocl_reduce_host_input(data, n * elem_of(k)), count, length,
                                  ocl_reduce_host_output(results, count * rsize)) == OCL_REDUCE_OK,
        "group segments: %s", ocl_reduce_last_error(NULL));
  for (size_t g = 0; g < count; g++)
    CHECK(k,
          matches(k, (const char *)data + g * length * elem_of(k), length, results + g * rsize, 0,
                  why, sizeof why),
          "group segment %zu: %s", g, why);
  free(results);
  free(data);
}

/* Contexts whose buffers' views are read in place by the columns kernel, and in two passes where
 * they apply (forced, as OCL_REDUCE_POLICY's axes= says). */
static ocl_reduce_context *by_columns, *by_split;

/* The element offset of position p, row-major over the axes in `mask`. */
static uint64_t offset_of(const ocl_reduce_shape *v, uint32_t mask, uint64_t p) {
  uint64_t at = 0;
  for (unsigned a = v->rank; a-- > 0;)
    if ((mask >> a) & 1u) {
      at += p % v->extents[a] * v->strides[a];
      p /= v->extents[a];
    }
  return at;
}

/* A view of a buffer (written whole; the view starts 2 elements in) reduced on ctx, each result
 * checked against its elements gathered in row-major order of the reduced axes. */
static void buffer_axes(kind k, ocl_reduce_context *ctx, const char *how,
                        const ocl_reduce_shape *v, uint32_t axes) {
  const size_t elem = elem_of(k), rsize = result_of(k);
  uint64_t reach = 1, results = 1, length = 1;
  for (unsigned a = 0; a < v->rank; a++) {
    reach += (v->extents[a] - 1) * v->strides[a];
    *((axes >> a) & 1u ? &length : &results) *= v->extents[a];
  }
  unsigned char *data = fill(k, (size_t)reach + 2), *got = malloc((size_t)results * rsize);
  unsigned char *run = malloc((size_t)length * elem);
  assert_non_null(got);
  assert_non_null(run);
  ocl_reduce_buffer *in = NULL;
  OK(k, ocl_reduce_buffer_create(ctx, ((size_t)reach + 2) * elem, &in));
  OK(k, ocl_reduce_buffer_write(in, 0, data, ((size_t)reach + 2) * elem));
  OK(k, ocl_reduce_axes(ctx, op_of(k), type_of(k), ocl_reduce_buffer_input(in, 2), v, axes,
                        ocl_reduce_host_output(got, (size_t)results * rsize)));
  const uint32_t kept = ((1u << v->rank) - 1) & ~axes;
  char why[256];
  for (uint64_t r = 0; r < results; r++) {
    for (uint64_t j = 0; j < length; j++)
      memcpy(run + j * elem, data + (2 + offset_of(v, kept, r) + offset_of(v, axes, j)) * elem,
             elem);
    CHECK(k, matches(k, run, (size_t)length, got + r * rsize, 0, why, sizeof why),
          "axes, %s: result %llu: %s", how, (unsigned long long)r, why);
  }
  ocl_reduce_buffer_destroy(in);
  free(run);
  free(got);
  free(data);
}

/* Each way a buffer's view is read in place: columns (cut into parts, with the launches over
 * their partial states, where they are tall), rows a pitch apart, and a tensor's outer and inner
 * axes in two passes (or gathered, for the operators that have none). */
static void axes(kind k) {
  const ocl_reduce_shape columns = {sizeof columns, 2, {23, 9}, {9, 1}},
                         tall = {sizeof tall, 2, {300, 2}, {2, 1}},
                         apart = {sizeof apart, 2, {6, 10}, {13, 1}},
                         tensor = {sizeof tensor, 3, {3, 4, 5}, {20, 5, 1}};
  buffer_axes(k, by_columns, "columns", &columns, 1u);
  buffer_axes(k, by_columns, "tall columns", &tall, 1u);
  buffer_axes(k, test_ctx, "rows apart", &apart, 2u);
  buffer_axes(k, by_split, "a tensor's {0, 2}", &tensor, 5u);
}

static int fp64 = 1; /* test_has_fp64(), at setup */

#define FORM_TEST(FORM)                                                                            \
  static void test_##FORM(void **state) {                                                          \
    (void)state;                                                                                   \
    for (int k = 0; k < KINDS; k++)                                                                \
      for (int round = 0; round < (test_light() ? 1 : 3) && (k != STATE || fp64); round++)        \
        FORM((kind)k);                                                                             \
  }
FORM_TEST(whole)
FORM_TEST(segments)
FORM_TEST(by_key)
FORM_TEST(windows)
FORM_TEST(multi)
FORM_TEST(parts)
FORM_TEST(over_a_group)
FORM_TEST(axes)

/* ---- Memory too small by one byte, on every entry point ----------------------------------- */

/* A result area of `bytes` followed by guard bytes, all GUARD. */
typedef struct guarded {
  unsigned char bytes[4 * MAX_RESULT + 16];
} guarded;

static void expect_guarded(const guarded *g) {
  for (size_t i = 0; i < sizeof g->bytes; i++)
    if (g->bytes[i] != GUARD)
      fail_msg("byte %zu of the output was written by a refused call", i);
}

/* The call fails with INVALID_ARGUMENT naming `name` and the two sizes. */
static void expect_short(ocl_reduce_status got, const char *name, size_t given, size_t needed) {
  char text[160];
  snprintf(text, sizeof text, "%s is %zu bytes", name, given);
  expect_error(got, OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, text);
  snprintf(text, sizeof text, "needs %zu", needed);
  expect_error(got, OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, text);
}

static void test_one_byte_short(void **state) {
  (void)state;
  for (int kk = 0; kk < KINDS; kk++) {
    const kind k = (kind)kk;
    if (k == STATE && !fp64)
      continue;
    const ocl_reduce_op op = op_of(k);
    const ocl_reduce_type type = type_of(k);
    const size_t n = 12, elem = elem_of(k), r = result_of(k);
    void *data = fill(k, n);
    guarded g;
    memset(&g, GUARD, sizeof g);
    const ocl_reduce_input in = host_in(k, data, n), in_short = host_in(k, data, n - 1);
    const ocl_reduce_input in_minus = ocl_reduce_host_input(data, n * elem - 1);
    const ocl_reduce_output one = ocl_reduce_host_output(g.bytes, r - 1);
    /* ocl_reduce: the result. */
    expect_error(ocl_reduce(test_ctx, op, type, data, n, g.bytes, r - 1),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "result_bytes is");
    /* ocl_reduce_into: the result, then the input. */
    expect_short(ocl_reduce_into(test_ctx, op, type, in, n, one), "result", r - 1, r);
    expect_short(
        ocl_reduce_into(test_ctx, op, type, in_minus, n, ocl_reduce_host_output(g.bytes, r)),
        "input", n * elem - 1, n * elem);
    /* Segments: 4 of 3 elements. */
    expect_short(ocl_reduce_segments(test_ctx, op, type, in, 4, 3,
                                     ocl_reduce_host_output(g.bytes, 4 * r - 1)),
                 "results", 4 * r - 1, 4 * r);
    expect_short(ocl_reduce_segments(test_ctx, op, type, in_minus, 4, 3,
                                     ocl_reduce_host_output(g.bytes, 4 * r)),
                 "input", n * elem - 1, n * elem);
    /* Offsets: 3 segments need 4 offsets; the last one past the input's elements. */
    uint64_t offsets[4] = {0, 5, 5, 12};
    expect_short(ocl_reduce_segments_offsets(test_ctx, op, type, in, 3,
                                             ocl_reduce_host_input(offsets, sizeof offsets - 1),
                                             ocl_reduce_host_output(g.bytes, 3 * r)),
                 "offsets", sizeof offsets - 1, sizeof offsets);
    expect_short(ocl_reduce_segments_offsets(test_ctx, op, type, in, 3,
                                             ocl_reduce_host_input(offsets, sizeof offsets),
                                             ocl_reduce_host_output(g.bytes, 3 * r - 1)),
                 "results", 3 * r - 1, 3 * r);
    expect_error(ocl_reduce_segments_offsets(test_ctx, op, type, in_short, 3,
                                             ocl_reduce_host_input(offsets, sizeof offsets),
                                             ocl_reduce_host_output(g.bytes, 3 * r)),
                 OCL_REDUCE_ERROR_BAD_OFFSETS, test_ctx, "reaches beyond the input's 11 elements");
    /* Windows of 5: 8 results. */
    expect_short(ocl_reduce_windows(test_ctx, op, type, in, n, 5,
                                    ocl_reduce_host_output(g.bytes, 8 * r - 1)),
                 "results", 8 * r - 1, 8 * r);
    expect_short(ocl_reduce_windows(test_ctx, op, type, in_minus, n, 5,
                                    ocl_reduce_host_output(g.bytes, 8 * r)),
                 "input", n * elem - 1, n * elem);
    /* Multi: two results. */
    const ocl_reduce_op two[2] = {op, op};
    expect_short(
        ocl_reduce_multi(test_ctx, two, 2, type, in, n, ocl_reduce_host_output(g.bytes, 2 * r - 1)),
        "results", 2 * r - 1, 2 * r);
    /* Parts: the state, and the states of the final combine. */
    const size_t st = ocl_reduce_state_size(test_ctx, op, type);
    expect_short(
        ocl_reduce_partial(test_ctx, op, type, in, n, 0, ocl_reduce_host_output(g.bytes, st - 1)),
        "state", st - 1, st);
    expect_short(ocl_reduce_final(test_ctx, op, type, ocl_reduce_host_input(g.bytes, 2 * st - 1), 2,
                                  ocl_reduce_host_output(g.bytes + 2 * MAX_RESULT, r)),
                 "states", 2 * st - 1, 2 * st);
    /* A group: the result and the input. */
    expect_error(ocl_reduce_group_reduce(group, op, type, ocl_reduce_host_input(data, n * elem), n,
                                         ocl_reduce_host_output(g.bytes, r - 1)),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "result_bytes is");
    expect_error(ocl_reduce_group_reduce(group, op, type, ocl_reduce_host_input(data, n * elem - 1),
                                         n, ocl_reduce_host_output(g.bytes, r)),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "input is");
    expect_guarded(&g);
    free(data);
  }
}

/* ---- Running ------------------------------------------------------------------------------ */

static int setup(void **state) {
  if (test_setup(state) != 0)
    return -1;
  if (ocl_reduce_operator_create(&test_custom_descs[TEST_SQUARES], &squares) != OCL_REDUCE_OK ||
      ocl_reduce_operator_create(&test_ordered_descs[TEST_MATRIX], &matrix) != OCL_REDUCE_OK)
    return -1;
  fp64 = test_has_fp64();
  if (!(by_columns = test_context_with_policy("axes=columns")) ||
      !(by_split = test_context_with_policy("axes=split")))
    return -1;
  for (int d = 0; d < 2; d++)
    if (!(members[d] = test_context_with_policy("part_kib=1")))
      return -1;
  return ocl_reduce_group_create_from(members, 2, &group) == OCL_REDUCE_OK ? 0 : -1;
}

/* Pairs (ocl_reduce_pairs, _segments): a dot product of f32 and a count of equal f16, whole and
 * in segments of 33 and 1000, with the inputs in buffers whose vector boundaries lie apart (the
 * narrower vectors) or in host memory, against the host. Under Oclgrind this is what checks the
 * pair kernels' reads of both inputs. */
static void test_pairs(void **state) {
  (void)state;
  static const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_F16};
  static const size_t lengths[] = {0, 33, 1000};
  const size_t n = 2000;
  int failures = 0;
  for (int k = 0; k < 2; k++) {
    const int op = k ? 3 : 0; /* COUNT_EQUAL, DOT */
    const ocl_reduce_type t = types[k];
    const size_t elem = ocl_reduce_type_size(t), rsize = k ? 8 : 4;
    unsigned char a[2000 * 4], b[2000 * 4], got[64 * 8];
    test_pair_fill(a, b, n, t, 0);
    ocl_reduce_buffer *ba = NULL, *bb = NULL;
    assert_int_equal(ocl_reduce_buffer_create(test_ctx, (n + 3) * elem, &ba), OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_create(test_ctx, (n + 3) * elem, &bb), OCL_REDUCE_OK);
    /* Each buffer in one write of all its bytes: after several writes at offsets, Oclgrind
     * 21.10 takes parts of what the earlier ones wrote as uninitialized (a one-input sum of such
     * a buffer is reported alike, and every result is right). */
    unsigned char whole[2003 * 4];
    memset(whole, 0, sizeof whole);
    memcpy(whole + elem, a, n * elem);
    assert_int_equal(ocl_reduce_buffer_write(ba, 0, whole, (n + 3) * elem), OCL_REDUCE_OK);
    memset(whole, 0, sizeof whole);
    memcpy(whole + 2 * elem, b, n * elem);
    assert_int_equal(ocl_reduce_buffer_write(bb, 0, whole, (n + 3) * elem), OCL_REDUCE_OK);
    for (size_t l = 0; l < 3; l++) {
      const size_t length = lengths[l], count = length ? n / length : 1;
      const ocl_reduce_input in_a = l == 1 ? ocl_reduce_host_input(a, n * elem)
                                           : ocl_reduce_buffer_input(ba, 1);
      const ocl_reduce_input in_b = ocl_reduce_buffer_input(bb, 2);
      const ocl_reduce_output out = ocl_reduce_host_output(got, count * rsize);
      const ocl_reduce_status s =
          length ? ocl_reduce_pairs_segments(test_ctx, OCL_REDUCE_PAIR_OP(op), t, in_a, in_b,
                                             count, length, out)
                 : ocl_reduce_pairs(test_ctx, OCL_REDUCE_PAIR_OP(op), t, in_a, in_b, n, out);
      assert_int_equal(s, OCL_REDUCE_OK);
      char why[160];
      for (size_t r = 0; r < count; r++)
        if (!test_pair_matches(op, t, a + r * length * elem, b + r * length * elem,
                               length ? length : n, got + r * rsize, why, sizeof why)) {
          print_error("%s of %s, segments of %zu: result %zu: %s\n",
                      ocl_reduce_op_name(OCL_REDUCE_PAIR_OP(op)), ocl_reduce_type_name(t), length,
                      r, why);
          failures++;
          break;
        }
    }
    ocl_reduce_buffer_destroy(ba);
    ocl_reduce_buffer_destroy(bb);
  }
  assert_int_equal(failures, 0);
}

/* Each user pair operator (struct elements, a non-commutative combine, pair_map's index) on
 * inputs in buffers, whole and in segments of 33, against the host's folds: under Oclgrind,
 * what checks the kernels that read pairs as their elements. */
static void test_user_pairs(void **state) {
  (void)state;
  const size_t n = 1000;
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++) {
    const ocl_reduce_operator_desc *d = &test_user_pair_descs[w];
    ocl_reduce_operator *op = NULL;
    assert_int_equal(ocl_reduce_operator_create(d, &op), OCL_REDUCE_OK);
    unsigned char *ab = malloc(2 * n * d->element_size), got[1000 / 33 * 16], want[16];
    assert_non_null(ab);
    test_user_pair_fill((test_user_pair)w, ab, ab + n * d->element_size, n);
    ocl_reduce_buffer *buf = NULL; /* a then b, in one write (test_pairs says why) */
    assert_int_equal(ocl_reduce_buffer_create(test_ctx, 2 * n * d->element_size, &buf),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_write(buf, 0, ab, 2 * n * d->element_size), OCL_REDUCE_OK);
    const ocl_reduce_input a = ocl_reduce_buffer_input(buf, 0), b = ocl_reduce_buffer_input(buf, n);
    for (size_t length = 0; length <= 33; length += 33) {
      const size_t count = length ? n / length : 1;
      const ocl_reduce_output out = ocl_reduce_host_output(got, count * d->state_size);
      assert_int_equal(length ? ocl_reduce_pairs_segments(test_ctx, op, OCL_REDUCE_OP_ELEMENT, a,
                                                          b, count, length, out)
                              : ocl_reduce_pairs(test_ctx, op, OCL_REDUCE_OP_ELEMENT, a, b, n,
                                                 out),
                       OCL_REDUCE_OK);
      for (size_t r = 0; r < count; r++) {
        const size_t first = r * length * d->element_size;
        test_user_pair_reference((test_user_pair)w, ab + first, ab + n * d->element_size + first,
                                 length ? length : n, want);
        assert_memory_equal(got + r * d->state_size, want, d->state_size);
      }
    }
    ocl_reduce_buffer_destroy(buf);
    ocl_reduce_operator_destroy(op);
    free(ab);
  }
}

static int teardown(void **state) {
  ocl_reduce_context_destroy(by_columns);
  ocl_reduce_context_destroy(by_split);
  ocl_reduce_group_destroy(group);
  for (int d = 0; d < 2; d++)
    ocl_reduce_context_destroy(members[d]);
  ocl_reduce_operator_destroy(squares);
  ocl_reduce_operator_destroy(matrix);
  return test_teardown(state);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole),         cmocka_unit_test(test_segments),
      cmocka_unit_test(test_by_key),        cmocka_unit_test(test_windows),
      cmocka_unit_test(test_multi),         cmocka_unit_test(test_parts),
      cmocka_unit_test(test_over_a_group),  cmocka_unit_test(test_axes),
      cmocka_unit_test(test_pairs),         cmocka_unit_test(test_user_pairs),
      cmocka_unit_test(test_one_byte_short)};
  return TEST_RUN(tests, setup, teardown);
}
