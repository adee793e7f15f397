/* =================================================================================================
 * test_trust.c: what argument checks cannot see (issue 54). Two user operators whose 64-bit text
 * hashes are equal (constructed here) each run their own program in one context; operator text
 * may not redefine the library's macros (refused by name) and its own macros end where it ends;
 * destroyed, foreign and doubly destroyed handles get OCL_REDUCE_ERROR_MISUSE or nothing, never a
 * read of freed memory (the sanitizer pass runs this); and an ARGMIN/ARGMAX index_base whose
 * indices would overflow is refused; and groups that finish by a second launch (what an OpenCL
 * 1.x device takes, which orders nothing between work-groups) give the last group's bits.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "exec/user_operator.h"
#include "support/custom_ops.h"
#include "support/fixture.h"

enum { N = 1000 };
static int32_t data[N];

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  for (int i = 0; i < N; i++)
    data[i] = (int32_t)(test_rng_next() % 2001) - 1000;
  return 0;
}

/* ---- Operators with equal hashes ------------------------------------------------------------ */

/* A commutative operator on int of identity(), map() and combine() in `source`. */
static ocl_reduce_operator_desc int_operator(const char *source) {
  ocl_reduce_operator_desc d = OCL_REDUCE_OPERATOR_DESC_INIT;
  d.source = source;
  d.element_type = d.state_type = "int";
  d.identity = "identity";
  d.map = "map";
  d.combine = "combine";
  d.element_size = d.state_size = sizeof(int32_t);
  d.commutative = 1;
  return d;
}

/* The library's view of an operator's text: its names' block, source, and the 64-bit hash the
 * program cache keyed user operators by before 0.3 (and still rejects by quickly). */
static orx_operator operator_of(const char *source, char **text) {
  const ocl_reduce_operator_desc d = int_operator(source);
  orx_operator op;
  assert_int_equal(orx_operator_of_desc(&d, &op, text), OCL_REDUCE_OK);
  return op;
}

/* The step orx_hash takes per 8-byte word, undone: the word that takes state `from` to `to`. */
static uint64_t word_between(uint64_t from, uint64_t to) {
  uint64_t x = to; /* undo x ^= x >> 29 */
  for (int i = 0; i < 3; i++)
    x = to ^ (x >> 29);
  uint64_t inverse = 1; /* of the odd multiplier, mod 2^64 (Newton's iteration) */
  for (int i = 0; i < 6; i++)
    inverse *= 2 - 0x100000001b3u * inverse;
  return (x * inverse) ^ from;
}

static const char COMBINE_SUM[] = "int combine(int a, int b) { return a + b; }\n";
static const char COMBINE_MAX[] = "int combine(int a, int b) { return a > b ? a : b; }\n";
static const char COMMON[] = "int identity(void) { return %s; }\n"
                             "int map(int x, ulong i) { return x; }\n";

/* Source = functions, a comment "/" "*" padding, 8 free bytes, "*" "/": for max, the 8 bytes
 * (printable, no "*" or "/") that give max's text sum's hash, found by varying the padding. */
static void colliding_sources(const char *names, char *sum, char *max, size_t size) {
  char head[512];
  snprintf(head, sizeof head, "%s", COMBINE_SUM);
  snprintf(head + strlen(head), sizeof head - strlen(head), COMMON, "0");
  size_t length = strlen(head);
  snprintf(head + length, sizeof head - length, "/*%*s", (int)((8 - (length + 2) % 8) % 8), "");
  snprintf(sum, size, "%sAAAAAAAA*/\n", head);
  const uint64_t target = orx_hash(orx_hash(ORX_HASH_SEED, names, strlen(names)), sum,
                                   strlen(head) + 8);
  for (unsigned attempt = 0;; attempt++) {
    snprintf(head, sizeof head, "%s", COMBINE_MAX);
    snprintf(head + strlen(head), sizeof head - strlen(head), COMMON, "-2147483647 - 1");
    length = strlen(head);
    snprintf(head + length, sizeof head - length, "/* %08x", attempt);
    length = strlen(head);
    snprintf(head + length, sizeof head - length, "%*s", (int)((8 - length % 8) % 8), "");
    const uint64_t from = orx_hash(orx_hash(ORX_HASH_SEED, names, strlen(names)), head,
                                   strlen(head));
    uint64_t word = word_between(from, target);
    char bytes[9] = {0};
    memcpy(bytes, &word, 8);
    int printable = 1;
    for (int i = 0; i < 8; i++)
      printable &= bytes[i] >= 0x20 && bytes[i] < 0x7f && bytes[i] != '*' && bytes[i] != '/';
    if (printable) {
      snprintf(max, size, "%s%s*/\n", head, bytes);
      return;
    }
  }
}

static ocl_reduce_operator *make_operator(const char *source, const char *name) {
  ocl_reduce_operator_desc d = int_operator(source);
  d.name = name;
  ocl_reduce_operator *op = NULL;
  assert_int_equal(ocl_reduce_operator_create(&d, &op), OCL_REDUCE_OK);
  return op;
}

static void test_operators_with_one_hash_keep_their_programs(void **state) {
  (void)state;
  char *text = NULL;
  const orx_operator probe = operator_of(COMBINE_SUM, &text);
  char sum_text[1024], max_text[1024];
  colliding_sources(probe.names, sum_text, max_text, sizeof sum_text);
  free(text);
  /* The library's own hashes of the two texts are equal: only their whole texts differ. */
  char *sum_owned = NULL, *max_owned = NULL;
  const uint64_t sum_hash = operator_of(sum_text, &sum_owned).source_hash;
  const uint64_t max_hash = operator_of(max_text, &max_owned).source_hash;
  free(sum_owned);
  free(max_owned);
  assert_true(strcmp(sum_text, max_text) != 0);
  assert_true(sum_hash == max_hash);
  ocl_reduce_operator *sum = make_operator(sum_text, "sum_op"), *max = make_operator(max_text, "max_op");
  int64_t want_sum = 0;
  int32_t want_max = INT32_MIN;
  for (int i = 0; i < N; i++) {
    want_sum += data[i];
    want_max = data[i] > want_max ? data[i] : want_max;
  }
  for (int round = 0; round < 2; round++) {
    int32_t got = 0;
    assert_int_equal(ocl_reduce(test_ctx, sum, OCL_REDUCE_I32, data, N, &got, sizeof got),
                     OCL_REDUCE_OK);
    assert_int_equal(got, (int32_t)want_sum);
    assert_int_equal(ocl_reduce(test_ctx, max, OCL_REDUCE_I32, data, N, &got, sizeof got),
                     OCL_REDUCE_OK);
    assert_int_equal(got, want_max);
  }
  ocl_reduce_operator_destroy(sum);
  ocl_reduce_operator_destroy(max);
}

/* ---- Operator text and the library's macros ------------------------------------------------- */

/* An operator whose source adds `extra` to a plain sum's. */
static ocl_reduce_status sum_with(const char *extra, ocl_reduce_operator **op) {
  static char source[1024];
  snprintf(source, sizeof source, "%s\n%s", extra, COMBINE_SUM);
  snprintf(source + strlen(source), sizeof source - strlen(source), COMMON, "0");
  const ocl_reduce_operator_desc d = int_operator(source);
  *op = NULL; /* untouched by a refusal */
  return ocl_reduce_operator_create(&d, op);
}

static void test_operator_macros_cannot_rewrite_the_library(void **state) {
  (void)state;
  /* The library's macros, its namespaces, an undefine; in comments and strings nothing counts. */
  static const struct {
    const char *text, *named;
  } refused[] = {
      {"#define get_group_id(x) 0", "get_group_id"},
      {"  #  define barrier(f) /* no */", "barrier"},
      {"#undef FLT_MAX", "FLT_MAX"},
      {"#define ORX_WG_SIZE 1", "ORX_WG_SIZE"},
      {"#define ORX_ANYTHING_NEW 1", "ORX_ANYTHING_NEW"},
      {"#define orx_helper 1", "orx_helper"},
      {"/* a comment */ #define OCL_REDUCE_X 2", "OCL_REDUCE_X"},
      {"#define \\\n get_local_id(x) 0", "get_local_id"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    ocl_reduce_operator *op = NULL;
    expect_error(sum_with(refused[i].text, &op), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
                 refused[i].named);
    expect_error(OCL_REDUCE_ERROR_INVALID_ARGUMENT, OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
                 "desc->source, line");
    assert_null(op);
  }
  /* Its own macros: used inside it, and ended after it. `lid`, `gid` and `n` are names of the
   * library's kernels' variables, `uint` one of OpenCL's types: left defined, they would break
   * the kernels after the operator (or, quietly, change what they compute). */
  int64_t want = 0;
  for (int i = 0; i < N; i++)
    want += data[i];
  ocl_reduce_operator *op = NULL;
  assert_int_equal(sum_with("#define lid 0\n#define gid 0\n#define n 1\n#define uint char\n"
                            "#define TWICE(x) ((x) + (x))\n"
                            "// #define get_group_id(x) 0: a comment, not a directive\n"
                            "#if 0\n#define inside_if_zero 1\n#endif\n",
                            &op),
                   OCL_REDUCE_OK);
  int32_t got = 0;
  assert_int_equal(ocl_reduce(test_ctx, op, OCL_REDUCE_I32, data, N, &got, sizeof got),
                   OCL_REDUCE_OK);
  assert_int_equal(got, (int32_t)want);
  ocl_reduce_operator_destroy(op);
}

/* ---- Misuse --------------------------------------------------------------------------------- */

static void test_destroyed_and_foreign_handles_are_misuse(void **state) {
  (void)state;
  int32_t result = 7;
  int64_t sum = 0;
  /* A destroyed context: MISUSE, result untouched; destroying it again is harmless. */
  ocl_reduce_context *gone = test_context_create();
  assert_non_null(gone);
  ocl_reduce_buffer *orphan = NULL;
  assert_int_equal(ocl_reduce_buffer_create(gone, sizeof data, &orphan), OCL_REDUCE_OK);
  ocl_reduce_context_destroy(gone);
  expect_error(ocl_reduce(gone, OCL_REDUCE_MAX, OCL_REDUCE_I32, data, N, &result, sizeof result),
               OCL_REDUCE_ERROR_MISUSE, NULL, "not a live context");
  assert_int_equal(result, 7);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  expect_error(ocl_reduce_context_query(gone, &info), OCL_REDUCE_ERROR_MISUSE, NULL, "ctx");
  assert_non_null(strstr(ocl_reduce_last_error(gone), "not a live context"));
  ocl_reduce_context_destroy(gone);
  /* Its buffer lives on (it holds the context), and goes once. */
  assert_int_equal(ocl_reduce_buffer_write(orphan, 0, data, sizeof data), OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(orphan);
  ocl_reduce_buffer_destroy(orphan);
  expect_error(ocl_reduce_buffer_write(orphan, 0, data, 4), OCL_REDUCE_ERROR_MISUSE, NULL,
               "not a live buffer");
  assert_true(ocl_reduce_buffer_size(orphan) == 0);
  /* A destroyed buffer given to a reduction: MISUSE naming it, not "another context's". */
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(test_ctx, sizeof data, &buf), OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(buf);
  expect_error(ocl_reduce_into(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32,
                               ocl_reduce_buffer_input(buf, 0), 10,
                               ocl_reduce_host_output(&sum, sizeof sum)),
               OCL_REDUCE_ERROR_MISUSE, test_ctx, "input is not a live buffer");
  /* A pointer the library never made, as a context and as a buffer. */
  char stray[4096];
  memset(stray, 0x5a, sizeof stray);
  expect_error(ocl_reduce(
                   (ocl_reduce_context *)stray, OCL_REDUCE_MAX, OCL_REDUCE_I32, data, N, &result,
                   sizeof result),
               OCL_REDUCE_ERROR_MISUSE, NULL, "ctx is not a live context");
  ocl_reduce_context_destroy((ocl_reduce_context *)stray);
  expect_error(ocl_reduce_buffer_read((ocl_reduce_buffer *)stray, 0, &result, 4),
               OCL_REDUCE_ERROR_MISUSE, NULL, "not a live buffer");
  ocl_reduce_buffer_destroy((ocl_reduce_buffer *)stray);
  assert_int_equal(result, 7);
  /* A destroyed operator: MISUSE; destroying it again is harmless. */
  ocl_reduce_operator *op = NULL;
  assert_int_equal(sum_with("", &op), OCL_REDUCE_OK);
  ocl_reduce_operator_destroy(op);
  expect_error(ocl_reduce(test_ctx, op, OCL_REDUCE_I32, data, N, &result, sizeof result),
               OCL_REDUCE_ERROR_MISUSE, test_ctx, "neither a built-in operator nor a live");
  ocl_reduce_operator_destroy(op);
  assert_int_equal(result, 7);
  /* The context under test still works. */
  assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, data, N, &result,
                              sizeof result),
                   OCL_REDUCE_OK);
}

/* ---- Indices -------------------------------------------------------------------------------- */

static void test_index_base_that_would_overflow_is_refused(void **state) {
  (void)state;
  int want = 0;
  for (int i = 1; i < N; i++)
    want = data[i] > data[want] ? i : want;
  size_t state_bytes = ocl_reduce_state_size(test_ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_I32);
  assert_true(state_bytes > 0 && state_bytes <= 64);
  unsigned char part[64], untouched[64];
  memset(part, 0x6b, sizeof part);
  memcpy(untouched, part, sizeof part);
  const ocl_reduce_input in = ocl_reduce_host_input(data, sizeof data);
  const ocl_reduce_output out = ocl_reduce_host_output(part, state_bytes);
  /* The last index would be 2^64 - 1, the empty result's: refused, nothing written. */
  for (ocl_reduce_op op = OCL_REDUCE_ARGMIN; op != NULL;
       op = op == OCL_REDUCE_ARGMIN ? OCL_REDUCE_ARGMAX : NULL) {
    expect_error(ocl_reduce_partial(test_ctx, op, OCL_REDUCE_I32, in, N, UINT64_MAX - N + 1, out),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "index_base");
    expect_error(ocl_reduce_partial(test_ctx, op, OCL_REDUCE_I32, in, N, UINT64_MAX, out),
                 OCL_REDUCE_ERROR_INVALID_ARGUMENT, test_ctx, "index_base");
    assert_memory_equal(part, untouched, sizeof part);
  }
  /* One less: the highest base there is, and the index is exact. */
  assert_int_equal(ocl_reduce_partial(test_ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_I32, in, N,
                                      UINT64_MAX - N, out),
                   OCL_REDUCE_OK);
  ocl_reduce_arg arg;
  assert_int_equal(ocl_reduce_final(test_ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_I32,
                                    ocl_reduce_host_input(part, state_bytes), 1,
                                    ocl_reduce_host_output(&arg, sizeof arg)),
                   OCL_REDUCE_OK);
  assert_true(arg.index == UINT64_MAX - N + (uint64_t)want);
  assert_int_equal(arg.value.i32, data[want]);
  /* An operator that sees no index takes any base. */
  assert_int_equal(ocl_reduce_partial(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, in, N, UINT64_MAX,
                                      ocl_reduce_host_output(part, 64)),
                   OCL_REDUCE_OK);
}

/* ---- Groups that finish by launch ------------------------------------------------------------ */

/* The f32 reduction of x by the built-in op, into 64 prefilled bytes. */
static ocl_reduce_status both(ocl_reduce_context *ctx, ocl_reduce_op op, const float *x, size_t n,
                              unsigned char *out) {
  memset(out, 0x5a, 64);
  return ocl_reduce(ctx, op, OCL_REDUCE_F32, x, n, out, 64);
}

/* Scalar, structured and user operators, and several at once: the same bits either way (the
 * combine order is the same), and right. */
static void test_finish_by_launch_gives_the_last_groups_bits(void **state) {
  (void)state;
  ocl_reduce_context *last = test_context_with_policy("host=off"); /* the device's own finish */
  ocl_reduce_context *launch = test_context_with_policy("host=off,finish=launch");
  enum { M = 300007 };
  float *x = malloc(M * sizeof *x);
  assert_non_null(x);
  double sum = 0;
  for (size_t i = 0; i < M; i++)
    sum += x[i] = (float)((int)(test_rng_next() % 2001) - 1000) / 8;
  /* A user operator: the sum of the squares of the elements' bits as uint. */
  ocl_reduce_operator *user = NULL;
  assert_int_equal(ocl_reduce_operator_create(&test_custom_descs[TEST_SQUARES], &user),
                   OCL_REDUCE_OK);
  const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MAX, OCL_REDUCE_ARGMIN,
                               OCL_REDUCE_MEAN_VAR, OCL_REDUCE_SUM_REPRODUCIBLE};
  unsigned char a[64], b[64];
  for (size_t k = 0; k < ORX_ARRAY_SIZE(ops); k++) {
    assert_int_equal(both(last, ops[k], x, M, a), OCL_REDUCE_OK);
    assert_int_equal(both(launch, ops[k], x, M, b), OCL_REDUCE_OK);
    assert_memory_equal(a, b, sizeof a);
  }
  memset(a, 0x5a, sizeof a);
  memset(b, 0x5a, sizeof b);
  assert_int_equal(ocl_reduce(last, user, OCL_REDUCE_OP_ELEMENT, x, M, a, 8), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce(launch, user, OCL_REDUCE_OP_ELEMENT, x, M, b, 8), OCL_REDUCE_OK);
  assert_memory_equal(a, b, sizeof a);
  unsigned char want[64];
  test_custom_reference(TEST_SQUARES, x, M, want);
  assert_memory_equal(b, want, test_custom_descs[TEST_SQUARES].state_size);
  float sums[2];
  assert_int_equal(both(launch, OCL_REDUCE_SUM_REPRODUCIBLE, x, M, b), OCL_REDUCE_OK);
  memcpy(&sums[0], b, sizeof(float));
  assert_true(sums[0] == (float)sum); /* eighths of integers: exact in double */
  const ocl_reduce_op several[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  memset(a, 0x5a, sizeof a);
  memset(b, 0x5a, sizeof b);
  assert_int_equal(ocl_reduce_multi(last, several, 3, OCL_REDUCE_F32,
                                    ocl_reduce_host_input(x, M * sizeof *x), M,
                                    ocl_reduce_host_output(a, sizeof a)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_multi(launch, several, 3, OCL_REDUCE_F32,
                                    ocl_reduce_host_input(x, M * sizeof *x), M,
                                    ocl_reduce_host_output(b, sizeof b)),
                   OCL_REDUCE_OK);
  assert_memory_equal(a, b, sizeof a);
  memcpy(sums, b, sizeof(float));
  assert_true(sums[0] == (float)sum);
  ocl_reduce_operator_destroy(user);
  free(x);
  ocl_reduce_context_destroy(launch);
  ocl_reduce_context_destroy(last);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_operators_with_one_hash_keep_their_programs),
      cmocka_unit_test(test_operator_macros_cannot_rewrite_the_library),
      cmocka_unit_test(test_destroyed_and_foreign_handles_are_misuse),
      cmocka_unit_test(test_index_base_that_would_overflow_is_refused),
      cmocka_unit_test(test_finish_by_launch_gives_the_last_groups_bits),
  };
  return TEST_RUN(tests, setup, test_teardown);
}
