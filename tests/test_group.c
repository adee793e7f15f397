/* =================================================================================================
 * test_group.c: groups of devices (ocl_reduce_group_*). The device under test stands in for
 * several: three contexts on it make a group with uneven shares and a least part of 1 KiB, so that
 * arrays of a few thousand elements spread over all three. Every operator on every type, the user
 * operators (order-preserving ones combined in device order), segments cut by whole segments,
 * from host memory and from group buffers, against the host references and, where the header
 * promises the same bits whatever the split, against one device's own result. The reproducible
 * sum gives the same bits on one, two and three devices. Where PoCL and Intel's CPU runtime are
 * both present, a group of the two (measured shares) reduces too.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ocl_reduce_group.h"
#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/ordered_ops.h"
#include "support/structured.h"

#define DEVICES 3
#define MAX_RESULT 64
#define MAX_ELEMENTS 30000
/* Parts of a KiB; seams of short windows staged, of long ones (group_windows.c) not. */
#define SMALL_PARTS "part_kib=1,seam_kib=4"

static ocl_reduce_context *members[DEVICES], *cross_members[DEVICES];
static ocl_reduce_group *group, *cross_group;
static int has_fp64;

static const double host_weights[DEVICES] = {1.0, 2.0, 1.0};
static const double resident_weights[DEVICES] = {3.0, 1.0, 2.0};

static ocl_reduce_group *group_of(ocl_reduce_context **contexts, size_t count) {
  ocl_reduce_group *g = NULL;
  if (ocl_reduce_group_create_from(contexts, count, &g) != OCL_REDUCE_OK) {
    fprintf(stderr, "group: %s\n", ocl_reduce_last_error(NULL));
    return NULL;
  }
  if (count == DEVICES &&
      (ocl_reduce_group_set_shares(g, OCL_REDUCE_SHARES_HOST, host_weights) != OCL_REDUCE_OK ||
       ocl_reduce_group_set_shares(g, OCL_REDUCE_SHARES_RESIDENT, resident_weights) !=
           OCL_REDUCE_OK)) {
    ocl_reduce_group_destroy(g);
    return NULL;
  }
  return g;
}

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  if (ocl_reduce_context_query(test_ctx, &info) != OCL_REDUCE_OK)
    return -1;
  has_fp64 = info.has_fp64;
  for (int d = 0; d < DEVICES; d++) {
    members[d] = test_context_with_policy(SMALL_PARTS);
    setenv("OCL_REDUCE_DETERMINISM", "cross_device", 1);
    cross_members[d] = test_context_with_policy(SMALL_PARTS);
    unsetenv("OCL_REDUCE_DETERMINISM");
    if (!members[d] || !cross_members[d])
      return -1;
  }
  group = group_of(members, DEVICES);
  cross_group = group_of(cross_members, DEVICES);
  return group && cross_group ? 0 : -1;
}

static int teardown(void **state) {
  ocl_reduce_group_destroy(group);
  ocl_reduce_group_destroy(cross_group);
  for (int d = 0; d < DEVICES; d++) {
    ocl_reduce_context_destroy(members[d]);
    ocl_reduce_context_destroy(cross_members[d]);
  }
  return test_teardown(state);
}

#define GROUP_OK(call, what)                                                                       \
  do {                                                                                             \
    const ocl_reduce_status status_ = (call);                                                      \
    if (status_ != OCL_REDUCE_OK)                                                                  \
      fail_msg("%s: %s: %s (%s)", what, #call, ocl_reduce_status_name(status_),                    \
               ocl_reduce_last_error(NULL));                                                       \
  } while (0)

/* The group buffer of g holding data (n elements of elem bytes, cut in granules), checked by
 * reading it back. */
static ocl_reduce_buffer *spread(ocl_reduce_group *g, const void *data, size_t n, size_t elem,
                                 size_t granule, const char *what) {
  ocl_reduce_buffer *b = NULL;
  GROUP_OK(ocl_reduce_group_buffer_create(g, elem, n, granule, &b), what);
  GROUP_OK(ocl_reduce_buffer_write(b, 0, data, n * elem), what);
  unsigned char *back = malloc(n * elem + 1);
  assert_non_null(back);
  GROUP_OK(ocl_reduce_buffer_read(b, 0, back, n * elem), what);
  if (n && memcmp(back, data, n * elem) != 0)
    fail_msg("%s: the group buffer reads back other data than was written", what);
  free(back);
  return b;
}

/* ---- Built-in operators, whole arrays ------------------------------------------------------- */

static void check_result(ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n,
                         const void *got, const void *whole, const char *what) {
  char why[256] = "";
  int ok = test_result_matches(got, data, n, op, type, why, sizeof why);
  if (ok && test_split_keeps_bits(op, type, MODE_RANDOM) &&
      memcmp(got, whole, ocl_reduce_result_size(op, type)) != 0) {
    ok = 0;
    snprintf(why, sizeof why, "not the bits of one device's reduction");
  }
  if (!ok)
    fail_msg("%s: %s", what, why);
}

static int light_case(ocl_reduce_op op, ocl_reduce_type type) {
  if (op == OCL_REDUCE_ARGMIN || op == OCL_REDUCE_MEAN_VAR)
    return type == OCL_REDUCE_F32;
  return (op == OCL_REDUCE_SUM || op == OCL_REDUCE_MAX) &&
         (type == OCL_REDUCE_I32 || type == OCL_REDUCE_F64);
}

static void check_op_type(ocl_reduce_op op, ocl_reduce_type type) {
  if ((test_light() && !light_case(op, type)) || (type == OCL_REDUCE_F64 && !has_fp64)) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1 or no fp64\n");
    skip();
  }
  const size_t elem = ocl_reduce_type_size(type), sizes[] = {0, 5, test_rng_below(MAX_ELEMENTS)};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    const size_t n = sizes[k];
    void *data = malloc((n + 1) * elem);
    assert_non_null(data);
    test_fill(data, n, op, type, MODE_RANDOM);
    char what[128];
    snprintf(what, sizeof what, "%s %s, %zu elements", ocl_reduce_op_name(op),
             ocl_reduce_type_name(type), n);
    unsigned char whole[MAX_RESULT], got[MAX_RESULT];
    if (ocl_reduce(test_ctx, op, type, data, n, whole, sizeof whole) != OCL_REDUCE_OK)
      fail_msg("%s: one device: %s", what, ocl_reduce_last_error(test_ctx));
    GROUP_OK(ocl_reduce_group_reduce(group, op, type, ocl_reduce_host_input(data, n * elem), n,
                                     ocl_reduce_host_output(got, sizeof got)),
             what);
    check_result(op, type, data, n, got, whole, what);
    ocl_reduce_buffer *b = spread(group, data, n, elem, 1, what);
    memset(got, 0xA5, sizeof got);
    GROUP_OK(ocl_reduce_group_reduce(group, op, type, ocl_reduce_buffer_input(b, 0), n,
                                     ocl_reduce_host_output(got, sizeof got)),
             what);
    check_result(op, type, data, n, got, whole, what);
    ocl_reduce_buffer_destroy(b);
    free(data);
  }
}

#define GROUP_TEST(OP, TYPE)                                                                       \
  static void test_##OP##_##TYPE##_over_the_group(void **state) {                                  \
    (void)state;                                                                                   \
    check_op_type(OCL_REDUCE_##OP, OCL_REDUCE_##TYPE);                                             \
  }
TEST_OP_TYPES(GROUP_TEST)
TEST_STRUCTURED_OP_TYPES(GROUP_TEST)

/* ---- Segments -------------------------------------------------------------------------------- */

static void check_segments(ocl_reduce_op op, ocl_reduce_type type, size_t length) {
  const size_t elem = ocl_reduce_type_size(type), result = ocl_reduce_result_size(op, type);
  const size_t count = length ? 1 + test_rng_below(MAX_ELEMENTS / length) : 40;
  unsigned char *data = malloc(count * length * elem + 1);
  unsigned char *got = malloc(count * result), *got_buffer = malloc(count * result);
  assert_true(data && got && got_buffer);
  test_fill(data, count * length, op, type, MODE_RANDOM);
  char what[128];
  snprintf(what, sizeof what, "%s %s, %zu segments of %zu", ocl_reduce_op_name(op),
           ocl_reduce_type_name(type), count, length);
  GROUP_OK(ocl_reduce_group_segments(group, op, type,
                                     ocl_reduce_host_input(data, count * length * elem), count,
                                     length, ocl_reduce_host_output(got, count * result)),
           what);
  ocl_reduce_buffer *b = spread(group, data, count * length, elem, length ? length : 1, what);
  GROUP_OK(ocl_reduce_group_segments(group, op, type, ocl_reduce_buffer_input(b, 0), count, length,
                                     ocl_reduce_host_output(got_buffer, count * result)),
           what);
  /* Results left on the devices, in a group buffer that follows the segments: from the group
   * buffer, and from host memory (cut by the results' parts). */
  unsigned char *resident = malloc(2 * count * result);
  assert_non_null(resident);
  ocl_reduce_buffer *results = NULL;
  if (length) {
    GROUP_OK(ocl_reduce_group_buffer_create_results(b, length, result, &results), what);
    GROUP_OK(ocl_reduce_group_segments(group, op, type, ocl_reduce_buffer_input(b, 0), count,
                                       length, ocl_reduce_buffer_output(results, 0)),
             what);
    assert_int_equal(ocl_reduce_buffer_read(results, 0, resident, count * result), OCL_REDUCE_OK);
    memset(resident + count * result, 0, count * result);
    GROUP_OK(ocl_reduce_group_segments(group, op, type,
                                       ocl_reduce_host_input(data, count * length * elem), count,
                                       length, ocl_reduce_buffer_output(results, 0)),
             what);
    assert_int_equal(ocl_reduce_buffer_read(results, 0, resident + count * result, count * result),
                     OCL_REDUCE_OK);
    ocl_reduce_buffer_destroy(results);
  }
  ocl_reduce_buffer_destroy(b);
  static const char *const from[] = {"host memory", "a group buffer",
                                     "a group buffer into a group buffer",
                                     "host memory into a group buffer"};
  for (size_t s = 0; s < count; s++) {
    const unsigned char *segment = data + s * length * elem;
    for (int k = 0; k < (length ? 4 : 2); k++) {
      char why[256] = "";
      const unsigned char *r = (k == 0   ? got
                                : k == 1 ? got_buffer
                                         : resident + (size_t)(k - 2) * count * result) +
                               s * result;
      if (!test_result_matches(r, segment, length, op, type, why, sizeof why))
        fail_msg("%s, from %s: segment %zu: %s", what, from[k], s, why);
    }
  }
  free(data);
  free(got);
  free(got_buffer);
  free(resident);
}

static void test_segments_are_cut_whole(void **state) {
  (void)state;
  const size_t lengths[] = {0, 1, 7, 32, 300};
  for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
    check_segments(OCL_REDUCE_SUM, OCL_REDUCE_I32, lengths[l]);
    check_segments(OCL_REDUCE_MAX, OCL_REDUCE_F32, lengths[l]);
    check_segments(OCL_REDUCE_ARGMIN, OCL_REDUCE_F32, lengths[l]);
  }
}

/* ---- The reproducible sum, whatever the devices ---------------------------------------------- */

static void test_reproducible_sum_does_not_depend_on_the_devices(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++) {
    const ocl_reduce_type type = t ? OCL_REDUCE_F64 : OCL_REDUCE_F32;
    if (type == OCL_REDUCE_F64 && !has_fp64)
      continue;
    const size_t n = 1000 + test_rng_below(MAX_ELEMENTS), elem = ocl_reduce_type_size(type);
    void *data = malloc(n * elem);
    assert_non_null(data);
    test_fill(data, n, OCL_REDUCE_SUM, type, MODE_RANDOM);
    unsigned char one[8], got[8];
    assert_int_equal(ocl_reduce(cross_members[0], OCL_REDUCE_SUM, type, data, n, one, sizeof one),
                     OCL_REDUCE_OK);
    for (size_t devices = 1; devices <= DEVICES; devices++) {
      ocl_reduce_group *g = group_of(cross_members, devices);
      assert_non_null(g);
      GROUP_OK(ocl_reduce_group_reduce(g, OCL_REDUCE_SUM, type,
                                       ocl_reduce_host_input(data, n * elem), n,
                                       ocl_reduce_host_output(got, sizeof got)),
               "cross_device sum");
      if (memcmp(got, one, elem) != 0)
        fail_msg("%s sum of %zu over %zu devices: other bits than one device's",
                 ocl_reduce_type_name(type), n, devices);
      ocl_reduce_group_destroy(g);
    }
    /* And the three-device group with other shares. */
    const double weights[DEVICES] = {5.0, 0.0, 1.0};
    GROUP_OK(ocl_reduce_group_set_shares(cross_group, OCL_REDUCE_SHARES_HOST, weights), "shares");
    GROUP_OK(ocl_reduce_group_reduce(cross_group, OCL_REDUCE_SUM, type,
                                     ocl_reduce_host_input(data, n * elem), n,
                                     ocl_reduce_host_output(got, sizeof got)),
             "cross_device sum");
    if (memcmp(got, one, elem) != 0)
      fail_msg("%s sum over shares 5:0:1: other bits than one device's",
               ocl_reduce_type_name(type));
    free(data);
  }
}

/* ---- User operators -------------------------------------------------------------------------- */

static void test_user_operators_over_the_group(void **state) {
  (void)state;
  for (int ordered = 0; ordered < 2; ordered++) {
    const int count = ordered ? TEST_ORDERED_COUNT : TEST_CUSTOM_COUNT;
    for (int w = 0; w < count; w++) {
      const ocl_reduce_operator_desc *d = ordered ? &test_ordered_descs[w] : &test_custom_descs[w];
      const char *name = ordered ? test_ordered_names[w] : test_custom_names[w];
      ocl_reduce_operator *op = NULL;
      GROUP_OK(ocl_reduce_operator_create(d, &op), name);
      const size_t n = 1000 + test_rng_below(MAX_ELEMENTS), segments = 1 + n / 100;
      void *data = malloc(segments * 100 * d->element_size);
      unsigned char got[MAX_RESULT], want[MAX_RESULT];
      unsigned char *per_segment = malloc(segments * d->state_size);
      assert_true(data && per_segment);
      if (ordered)
        test_ordered_fill((test_ordered)w, data, segments * 100);
      else
        test_custom_fill((test_custom)w, data, segments * 100);
      for (int from_buffer = 0; from_buffer < 2; from_buffer++) {
        ocl_reduce_buffer *b =
            from_buffer ? spread(group, data, n, d->element_size, 1, name) : NULL;
        GROUP_OK(ocl_reduce_group_reduce(group, op, OCL_REDUCE_OP_ELEMENT,
                                         b ? ocl_reduce_buffer_input(b, 0)
                                           : ocl_reduce_host_input(data, n * d->element_size),
                                         n, ocl_reduce_host_output(got, sizeof got)),
                 name);
        ocl_reduce_buffer_destroy(b);
        if (!ordered)
          test_custom_reference((test_custom)w, data, n, want);
        if (ordered ? !test_ordered_matches((test_ordered)w, data, n, got)
                    : memcmp(got, want, d->state_size) != 0)
          fail_msg("%s, %zu elements from %s: not the fold of the whole array", name, n,
                   from_buffer ? "a group buffer" : "host memory");
      }
      GROUP_OK(ocl_reduce_group_segments(
                   group, op, OCL_REDUCE_OP_ELEMENT,
                   ocl_reduce_host_input(data, segments * 100 * d->element_size), segments, 100,
                   ocl_reduce_host_output(per_segment, segments * d->state_size)),
               name);
      for (size_t s = 0; s < segments; s++) {
        const void *segment = (const char *)data + s * 100 * d->element_size;
        const void *r = per_segment + s * d->state_size;
        if (!ordered)
          test_custom_reference((test_custom)w, segment, 100, want);
        if (ordered ? !test_ordered_matches((test_ordered)w, segment, 100, r)
                    : memcmp(r, want, d->state_size) != 0)
          fail_msg("%s: segment %zu of %zu: not the fold of its elements", name, s, segments);
      }
      free(data);
      free(per_segment);
      ocl_reduce_operator_destroy(op);
    }
  }
}

/* ---- Shares and parts ------------------------------------------------------------------------ */

static void test_shares_cut_contiguous_parts(void **state) {
  (void)state;
  double shares[DEVICES];
  GROUP_OK(ocl_reduce_group_shares(group, OCL_REDUCE_SHARES_RESIDENT, shares), "shares");
  for (int d = 0; d < DEVICES; d++)
    assert_true(shares[d] > resident_weights[d] / 6.0 - 1e-3 &&
                shares[d] < resident_weights[d] / 6.0 + 1e-3);
  /* 3:1:2 of 60000 elements in granules of 7 (1 KiB is 256 f32): contiguous, whole granules. */
  ocl_reduce_buffer *b = NULL;
  GROUP_OK(ocl_reduce_group_buffer_create(group, sizeof(float), 60004, 7, &b), "buffer");
  /* Its parts live on several devices: no one native handle. */
  void *native = NULL;
  assert_int_equal(ocl_reduce_buffer_native(b, &native, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(ocl_reduce_last_error(NULL), "group's buffer"));
  size_t next = 0;
  for (size_t d = 0; d < DEVICES; d++) {
    ocl_reduce_buffer *part = NULL;
    size_t first = 1, count = 1;
    GROUP_OK(ocl_reduce_group_buffer_part(b, d, &part, &first, &count), "part");
    assert_int_equal(first, next);
    assert_int_equal(count % 7, 0);
    assert_true(part != NULL && count > 0);
    /* The share it reports, within a granule at either end. */
    assert_true(count > 60004 * shares[d] - 15 && count < 60004 * shares[d] + 15);
    next += count;
  }
  assert_int_equal(next, 60004);
  ocl_reduce_buffer_destroy(b);
  /* 200 elements (800 bytes) are below the least part: the largest share takes them all. */
  GROUP_OK(ocl_reduce_group_buffer_create(group, sizeof(float), 200, 1, &b), "small buffer");
  for (size_t d = 0; d < DEVICES; d++) {
    ocl_reduce_buffer *part = NULL;
    size_t first = 0, count = 0;
    GROUP_OK(ocl_reduce_group_buffer_part(b, d, &part, &first, &count), "part");
    assert_int_equal(count, d == 0 ? 200 : 0);
    assert_true((part != NULL) == (d == 0));
  }
  ocl_reduce_buffer_destroy(b);
}

/* ---- Making groups --------------------------------------------------------------------------- */

/* A group made from a device list: the device under test twice (OCL_REDUCE_DEVICE's selector). */
static void test_group_from_a_device_list(void **state) {
  (void)state;
  const char *selector = getenv("OCL_REDUCE_DEVICE");
  char list[128];
  snprintf(list, sizeof list, "%s, %s", selector && *selector ? selector : "0:0",
           selector && *selector ? selector : "0:0");
  ocl_reduce_group *g = NULL;
  GROUP_OK(ocl_reduce_group_create(NULL, list, &g), list);
  assert_int_equal(ocl_reduce_group_size(g), 2);
  ocl_reduce_context_info mine = {.struct_size = sizeof mine}, theirs = mine;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &mine), OCL_REDUCE_OK);
  for (size_t d = 0; d < 2; d++) {
    assert_int_equal(ocl_reduce_context_query(ocl_reduce_group_context(g, d), &theirs),
                     OCL_REDUCE_OK);
    assert_string_equal(theirs.device_name, mine.device_name);
  }
  double shares[2];
  GROUP_OK(ocl_reduce_group_shares(g, OCL_REDUCE_SHARES_HOST, shares), "shares");
  assert_true(shares[0] == 0.5 && shares[1] == 0.5); /* one model: equal */
  assert_null(ocl_reduce_group_context(g, 2));
  int32_t data[3] = {1, 2, 3}, sum = 0;
  GROUP_OK(ocl_reduce_group_reduce(g, OCL_REDUCE_SUM, OCL_REDUCE_I32,
                                   ocl_reduce_host_input(data, TEST_BYTES(data)), 3,
                                   ocl_reduce_host_output(&sum, sizeof sum)),
           list);
  assert_int_equal(sum, 6);
  /* Its buffer outlives it: copies still run on both devices, and the last of the two frees. */
  enum { N = 3000 };
  int32_t *values = malloc(N * sizeof *values), *back = malloc(N * sizeof *back);
  assert_true(values && back);
  for (int i = 0; i < N; i++)
    values[i] = i * 7 - 1000;
  ocl_reduce_buffer *b = NULL;
  GROUP_OK(ocl_reduce_group_buffer_create(g, sizeof *values, N, 1, &b), "buffer");
  ocl_reduce_group_destroy(g);
  GROUP_OK(ocl_reduce_buffer_write(b, 0, values, N * sizeof *values), "write after the group");
  GROUP_OK(ocl_reduce_buffer_read(b, 0, back, N * sizeof *back), "read after the group");
  assert_memory_equal(values, back, N * sizeof *back);
  ocl_reduce_buffer_destroy(b);
  free(values);
  free(back);
}

/* A group of two physical devices (two lanes, group_workers.c) from group buffers, results to
 * the host and to a group buffer: whole arrays, several operators, segments and windows against
 * one device, calls back to back (the group's thread spinning: whole arrays run a device on it,
 * shared tasks let it claim one) and after pauses (asleep: the calling thread enqueues both).
 * n: a multiple of 10. */
static void from_buffers_of_two_lanes(ocl_reduce_group *g, const int64_t *data, size_t n) {
  enum { LENGTH = 10, WINDOW = 7 };
  ocl_reduce_buffer *in = spread(g, data, n, sizeof *data, LENGTH, "two lanes"), *results = NULL;
  GROUP_OK(ocl_reduce_group_buffer_create_results(in, LENGTH, sizeof *data, &results), "results");
  const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_MAX};
  const size_t segments = n / LENGTH, windows = n - WINDOW + 1;
  int64_t want[3], got[3], *want_rows = malloc((segments + windows) * sizeof *want_rows),
                           *got_rows = malloc((segments + windows) * sizeof *got_rows);
  assert_true(want_rows && got_rows);
  const ocl_reduce_input whole = ocl_reduce_host_input(data, n * sizeof *data);
  assert_int_equal(ocl_reduce_multi(test_ctx, ops, 3, OCL_REDUCE_I64, whole, n,
                                    ocl_reduce_host_output(want, sizeof want)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_segments(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, whole, segments,
                                       LENGTH, ocl_reduce_host_output(want_rows, segments * 8)),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_windows(test_ctx, OCL_REDUCE_MAX, OCL_REDUCE_I64, whole, n, WINDOW,
                                      ocl_reduce_host_output(want_rows + segments, windows * 8)),
                   OCL_REDUCE_OK);
  const ocl_reduce_input from = ocl_reduce_buffer_input(in, 0);
  for (int call = 0; call < 6; call++) {
    if (call % 3 == 0) { /* past the threads' spin (250 us): asleep */
      const struct timespec pause = {0, 2000000};
      nanosleep(&pause, NULL);
    }
    memset(got, 0, sizeof got);
    GROUP_OK(ocl_reduce_group_reduce(g, OCL_REDUCE_SUM, OCL_REDUCE_I64, from, n,
                                     ocl_reduce_host_output(got, sizeof got[0])),
             "sum");
    if (got[0] != want[0])
      fail_msg("two lanes, call %d: sum %lld, one device %lld", call, (long long)got[0],
               (long long)want[0]);
    GROUP_OK(ocl_reduce_group_multi(g, ops, 3, OCL_REDUCE_I64, from, n,
                                    ocl_reduce_host_output(got, sizeof got)),
             "multi");
    if (memcmp(got, want, sizeof got) != 0)
      fail_msg("two lanes, call %d: multi other than one device's", call);
    memset(got_rows, 0, (segments + windows) * sizeof *got_rows);
    GROUP_OK(ocl_reduce_group_segments(g, OCL_REDUCE_SUM, OCL_REDUCE_I64, from, segments, LENGTH,
                                       ocl_reduce_buffer_output(results, 0)),
             "segments");
    GROUP_OK(ocl_reduce_buffer_read(results, 0, got_rows, segments * sizeof *got_rows), "read");
    GROUP_OK(ocl_reduce_group_windows(g, OCL_REDUCE_MAX, OCL_REDUCE_I64, from, n, WINDOW,
                                      ocl_reduce_host_output(got_rows + segments, windows * 8)),
             "windows");
    if (memcmp(got_rows, want_rows, (segments + windows) * sizeof *got_rows) != 0)
      fail_msg("two lanes, call %d: segments or windows other than one device's", call);
  }
  free(want_rows);
  free(got_rows);
  ocl_reduce_buffer_destroy(results);
  ocl_reduce_buffer_destroy(in);
}

/* PoCL and Intel's CPU runtime side by side, where both are present: measured shares, one
 * result. Run where PoCL is under test (the measurement is the same on every path). */
static void test_a_mixed_group(void **state) {
  (void)state;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(test_ctx, &info), OCL_REDUCE_OK);
  if (!strstr(info.platform_name, "Portable Computing Language")) {
    printf("# skipped: the PoCL runs take it\n");
    skip();
  }
  ocl_reduce_group *g = NULL;
  setenv("OCL_REDUCE_POLICY", SMALL_PARTS, 1);
  const ocl_reduce_status made = ocl_reduce_group_create(NULL, "pocl,intel", &g);
  unsetenv("OCL_REDUCE_POLICY");
  if (made == OCL_REDUCE_ERROR_NO_DEVICE || made == OCL_REDUCE_ERROR_NO_PLATFORM) {
    printf("# skipped: PoCL and Intel's runtime are not both present\n");
    skip();
  }
  GROUP_OK(made, "pocl,intel");
  double shares[2];
  GROUP_OK(ocl_reduce_group_shares(g, OCL_REDUCE_SHARES_HOST, shares), "shares");
  printf("# measured host shares: pocl %.3f, intel %.3f\n", shares[0], shares[1]);
  assert_true(shares[0] > 0.0 && shares[1] > 0.0 && shares[0] + shares[1] > 0.999);
  const size_t n = 100000;
  int64_t *data = malloc(n * sizeof *data);
  assert_non_null(data);
  test_fill(data, n, OCL_REDUCE_SUM, OCL_REDUCE_I64, MODE_RANDOM);
  ocl_reduce_arg got, want;
  GROUP_OK(ocl_reduce_group_reduce(g, OCL_REDUCE_ARGMAX, OCL_REDUCE_I64,
                                   ocl_reduce_host_input(data, n * sizeof *data), n,
                                   ocl_reduce_host_output(&got, sizeof got)),
           "argmax");
  assert_int_equal(
      ocl_reduce(test_ctx, OCL_REDUCE_ARGMAX, OCL_REDUCE_I64, data, n, &want, sizeof want),
      OCL_REDUCE_OK);
  assert_memory_equal(&got, &want, sizeof got);
  from_buffers_of_two_lanes(g, data, n);
  free(data);
  ocl_reduce_group_destroy(g);
}

/* The devices OCL_REDUCE_DEVICES lists (the GPUs of a multi-GPU machine,
 * scripts/h200/multi_gpu.sh), with parts of 1 KiB: an order-preserving operator, ARGMAX, MINMAX and
 * the reproducible sum over them against one device. Skipped where the variable is not set. */
static void test_the_listed_devices(void **state) {
  (void)state;
  const char *listed = getenv("OCL_REDUCE_DEVICES");
  if (!listed || !*listed) {
    printf("# skipped: OCL_REDUCE_DEVICES is not set\n");
    skip();
  }
  ocl_reduce_group *g = NULL;
  setenv("OCL_REDUCE_POLICY", SMALL_PARTS, 1);
  const ocl_reduce_status made = ocl_reduce_group_create(NULL, NULL, &g);
  unsetenv("OCL_REDUCE_POLICY");
  if (made == OCL_REDUCE_ERROR_PATH_UNSUPPORTED) {
    /* The path this test runs on (OCL_REDUCE_PATH, set per test by ctest) is another
     * implementation's: the listed devices' own tests take them. */
    printf("# skipped: %s\n", ocl_reduce_last_error(NULL));
    skip();
  }
  GROUP_OK(made, listed);
  printf("# %zu listed devices: %s\n", ocl_reduce_group_size(g), listed);
  const size_t n = 200000;
  float *data = malloc(n * sizeof *data);
  assert_non_null(data);
  test_fill(data, n, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
  const ocl_reduce_op ops[] = {OCL_REDUCE_ARGMAX, OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_MINMAX};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    unsigned char got[MAX_RESULT], want[MAX_RESULT];
    GROUP_OK(ocl_reduce_group_reduce(g, ops[k], OCL_REDUCE_F32,
                                     ocl_reduce_host_input(data, n * sizeof *data), n,
                                     ocl_reduce_host_output(got, sizeof got)),
             ocl_reduce_op_name(ops[k]));
    assert_int_equal(ocl_reduce(test_ctx, ops[k], OCL_REDUCE_F32, data, n, want, sizeof want),
                     OCL_REDUCE_OK);
    if (memcmp(got, want, ocl_reduce_result_size(ops[k], OCL_REDUCE_F32)) != 0)
      fail_msg("%s over %s: other bits than one device's", ocl_reduce_op_name(ops[k]), listed);
  }
  ocl_reduce_operator *op = NULL;
  GROUP_OK(ocl_reduce_operator_create(&test_ordered_descs[0], &op), "ordered");
  void *items = malloc(n * test_ordered_descs[0].element_size);
  unsigned char got[MAX_RESULT];
  assert_non_null(items);
  test_ordered_fill((test_ordered)0, items, n);
  GROUP_OK(
      ocl_reduce_group_reduce(g, op, OCL_REDUCE_OP_ELEMENT,
                              ocl_reduce_host_input(items, n * test_ordered_descs[0].element_size),
                              n, ocl_reduce_host_output(got, sizeof got)),
      "ordered");
  if (!test_ordered_matches((test_ordered)0, items, n, got))
    fail_msg("%s over %s: not the fold of the whole array", test_ordered_names[0], listed);
  free(items);
  free(data);
  ocl_reduce_operator_destroy(op);
  ocl_reduce_group_destroy(g);
}

/* ---- Windows, offsets, multi and parts over the group --------------------------------------- */

/* The operators whose results a group must give with the bits of one device: order-independent
 * built-ins and an order-preserving user operator (kept in index order). */
typedef struct form_case {
  ocl_reduce_op op;
  ocl_reduce_type type;
  int ordered_user; /* the matrix product (test_ordered_descs[TEST_MATRIX]) */
} form_case;

static void *form_data(const form_case *f, size_t n, size_t *elem) {
  *elem = f->ordered_user ? test_ordered_descs[TEST_MATRIX].element_size
                          : ocl_reduce_type_size(f->type);
  void *data = malloc(n * *elem + 1);
  assert_non_null(data);
  if (f->ordered_user)
    test_ordered_fill(TEST_MATRIX, data, n);
  else
    test_fill(data, n, f->op, f->type, MODE_RANDOM);
  return data;
}

/* Windows over a buffer of group g, to host memory and to a group buffer of window results: one
 * device's bits. A long window makes seams that span whole parts. */
static void check_windows_from_a_group_buffer(ocl_reduce_group *g, const form_case *f,
                                              const void *data, size_t n, size_t elem,
                                              size_t window) {
  const char *name = ocl_reduce_op_name(f->op);
  const size_t r = ocl_reduce_result_size(f->op, f->type), n_out = n - window + 1;
  unsigned char *one = malloc(n_out * r), *got = malloc(2 * n_out * r);
  assert_true(one && got);
  GROUP_OK(ocl_reduce_windows(test_ctx, f->op, f->type, ocl_reduce_host_input(data, n * elem), n,
                              window, ocl_reduce_host_output(one, n_out * r)),
           name);
  ocl_reduce_buffer *in = spread(g, data, n, elem, 1, name), *results = NULL;
  memset(got, 0xA5, 2 * n_out * r);
  GROUP_OK(ocl_reduce_group_windows(g, f->op, f->type, ocl_reduce_buffer_input(in, 0), n, window,
                                    ocl_reduce_host_output(got, n_out * r)),
           name);
  GROUP_OK(ocl_reduce_group_buffer_create_window_results(in, window, r, &results), name);
  GROUP_OK(ocl_reduce_group_windows(g, f->op, f->type, ocl_reduce_buffer_input(in, 0), n, window,
                                    ocl_reduce_buffer_output(results, 0)),
           name);
  GROUP_OK(ocl_reduce_buffer_read(results, 0, got + n_out * r, n_out * r), name);
  for (int k = 0; k < 2; k++)
    if (memcmp(one, got + k * n_out * r, n_out * r) != 0)
      fail_msg("%s: windows of %zu over a group buffer of %zu, to %s: other bits than one "
               "device's",
               name, window, n, k ? "a group buffer" : "host memory");
  ocl_reduce_buffer_destroy(results);
  ocl_reduce_buffer_destroy(in);
  free(one);
  free(got);
}

static void test_windows_offsets_multi_and_parts_over_the_group(void **state) {
  (void)state;
  ocl_reduce_operator *matrix = NULL;
  GROUP_OK(ocl_reduce_operator_create(&test_ordered_descs[TEST_MATRIX], &matrix), "matrix");
  const form_case cases[] = {{OCL_REDUCE_SUM, OCL_REDUCE_I32, 0},
                             {OCL_REDUCE_ARGMIN, OCL_REDUCE_F32, 0},
                             {OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F32, 0},
                             {matrix, OCL_REDUCE_OP_ELEMENT, 1}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const form_case *f = &cases[k];
    const char *name = ocl_reduce_op_name(f->op);
    const size_t n = 3000 + test_rng_below(MAX_ELEMENTS / 2), window = 1 + test_rng_below(60);
    size_t elem = 0;
    void *data = form_data(f, n, &elem);
    const size_t r = ocl_reduce_result_size(f->op, f->type), n_out = n - window + 1;
    unsigned char *one = malloc(n_out * r), *got = malloc(n_out * r);
    assert_true(one && got);
    /* Windows: the group's against one device's, bit for bit. */
    GROUP_OK(ocl_reduce_windows(test_ctx, f->op, f->type, ocl_reduce_host_input(data, n * elem), n,
                                window, ocl_reduce_host_output(one, n_out * r)),
             name);
    memset(got, 0xA5, n_out * r);
    GROUP_OK(ocl_reduce_group_windows(group, f->op, f->type, ocl_reduce_host_input(data, n * elem),
                                      n, window, ocl_reduce_host_output(got, n_out * r)),
             name);
    if (memcmp(one, got, n_out * r) != 0)
      fail_msg("%s: windows of %zu over %zu elements: other bits than one device's", name, window,
               n);
    check_windows_from_a_group_buffer(group, f, data, n, elem, window);
    check_windows_from_a_group_buffer(group, f, data, n, elem, n / 2 + test_rng_below(n / 2));
    /* Segments by offsets (empty ones too): each segment whole on one device. */
    const size_t count = 1 + test_rng_below(200);
    uint64_t *offsets = malloc((count + 1) * sizeof *offsets);
    assert_non_null(offsets);
    offsets[0] = test_rng_below(5);
    for (size_t s = 0; s < count; s++)
      offsets[s + 1] = offsets[s] + (test_rng_below(4) == 0 ? 0 : test_rng_below(2 * n / count));
    if (offsets[count] > n)
      offsets[count] = n;
    for (size_t s = count; s > 0; s--)
      if (offsets[s - 1] > offsets[s])
        offsets[s - 1] = offsets[s];
    one = realloc(one, count * r);
    got = realloc(got, count * r);
    assert_true(one && got);
    GROUP_OK(ocl_reduce_segments_offsets(
                 test_ctx, f->op, f->type, ocl_reduce_host_input(data, n * elem), count,
                 ocl_reduce_host_input(offsets, (count + 1) * sizeof *offsets),
                 ocl_reduce_host_output(one, count * r)),
             name);
    GROUP_OK(ocl_reduce_group_segments_offsets(
                 group, f->op, f->type, ocl_reduce_host_input(data, n * elem), count,
                 ocl_reduce_host_input(offsets, (count + 1) * sizeof *offsets),
                 ocl_reduce_host_output(got, count * r)),
             name);
    if (memcmp(one, got, count * r) != 0)
      fail_msg("%s: %zu segments by offsets: other bits than one device's", name, count);
    /* Parts: elements [a, n) reduced over the group to one state (its first at index a), after
     * [0, a) on one device, and the two combined: the whole array's result. */
    const size_t a = test_rng_below(n), st = ocl_reduce_state_size(test_ctx, f->op, f->type);
    unsigned char states[2 * MAX_RESULT], whole[MAX_RESULT], combined[MAX_RESULT];
    GROUP_OK(ocl_reduce_partial(test_ctx, f->op, f->type, ocl_reduce_host_input(data, a * elem), a,
                                0, ocl_reduce_host_output(states, st)),
             name);
    GROUP_OK(ocl_reduce_group_partial(
                 group, f->op, f->type,
                 ocl_reduce_host_input((const char *)data + a * elem, (n - a) * elem), n - a, a,
                 ocl_reduce_host_output(states + st, st)),
             name);
    GROUP_OK(ocl_reduce_final(test_ctx, f->op, f->type, ocl_reduce_host_input(states, 2 * st), 2,
                              ocl_reduce_host_output(combined, r)),
             name);
    GROUP_OK(ocl_reduce(test_ctx, f->op, f->type, data, n, whole, r), name);
    if (memcmp(whole, combined, r) != 0)
      fail_msg("%s: parts over the group: not the whole array's result", name);
    /* Multi: the operator twice (and MAX where the type has it), each as the group gives it. */
    const ocl_reduce_op ops[3] = {f->op, f->ordered_user ? f->op : OCL_REDUCE_MAX, f->op};
    unsigned char many[3 * MAX_RESULT], single[MAX_RESULT];
    const size_t slot =
        r > ocl_reduce_result_size(ops[1], f->type) ? r : ocl_reduce_result_size(ops[1], f->type);
    GROUP_OK(ocl_reduce_group_multi(group, ops, 3, f->type, ocl_reduce_host_input(data, n * elem),
                                    n, ocl_reduce_host_output(many, 3 * slot)),
             name);
    for (int m = 0; m < 3; m++) {
      GROUP_OK(ocl_reduce_group_reduce(group, ops[m], f->type,
                                       ocl_reduce_host_input(data, n * elem), n,
                                       ocl_reduce_host_output(single, sizeof single)),
               name);
      if (memcmp(many + m * slot, single, ocl_reduce_result_size(ops[m], f->type)) != 0)
        fail_msg("%s: multi, operator %d: not the group's reduction", name, m);
    }
    /* The same from a group buffer (cut by the other shares): states read from the devices,
     * and for SUM and MAX of i32 one pass per device; every operator here keeps its bits. */
    ocl_reduce_buffer *spread_data = spread(group, data, n, elem, 1, name);
    unsigned char from_buffer[3 * MAX_RESULT];
    memset(from_buffer, 0xA5, sizeof from_buffer);
    GROUP_OK(ocl_reduce_group_multi(group, ops, 3, f->type, ocl_reduce_buffer_input(spread_data, 0),
                                    n, ocl_reduce_host_output(from_buffer, 3 * slot)),
             name);
    for (int m = 0; m < 3; m++)
      if (memcmp(many + m * slot, from_buffer + m * slot,
                 ocl_reduce_result_size(ops[m], f->type)) != 0)
        fail_msg("%s: multi from a group buffer, operator %d: not the host input's bits", name, m);
    ocl_reduce_buffer_destroy(spread_data);
    free(offsets);
    free(one);
    free(got);
    free(data);
  }
  /* What these forms refuse, saying why; nothing written. */
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {-7, -7, -7, -7, -7, -7, -7, -7};
  expect_error(ocl_reduce_group_windows(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                        ocl_reduce_host_input(x, sizeof x), 8, 9,
                                        ocl_reduce_host_output(out, sizeof out)),
               OCL_REDUCE_ERROR_BAD_WINDOW, NULL, "window = 9");
  ocl_reduce_buffer *b = NULL, *wrong = NULL;
  GROUP_OK(ocl_reduce_group_buffer_create(group, sizeof(float), 8, 1, &b), "buffer");
  const uint64_t two[3] = {0, 4, 8};
  expect_error(ocl_reduce_group_segments_offsets(
                   group, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(b, 0), 2,
                   ocl_reduce_host_input(two, sizeof two), ocl_reduce_host_output(out, sizeof out)),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, NULL, "give it host memory");
  expect_error(ocl_reduce_group_buffer_create_window_results(b, 9, sizeof(float), &wrong),
               OCL_REDUCE_ERROR_BAD_WINDOW, NULL, "window = 9");
  assert_null(wrong);
  /* Window results laid out for another window: refused, naming a device. */
  GROUP_OK(ocl_reduce_group_buffer_create_window_results(b, 2, sizeof(float), &wrong), "buffer");
  expect_error(ocl_reduce_group_windows(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                        ocl_reduce_buffer_input(b, 0), 8, 3,
                                        ocl_reduce_buffer_output(wrong, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "_create_window_results(input, window");
  expect_error(ocl_reduce_group_windows(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                        ocl_reduce_buffer_input(b, 0), 7, 3,
                                        ocl_reduce_host_output(out, sizeof out)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "holds 8 elements");
  ocl_reduce_buffer_destroy(wrong);
  ocl_reduce_buffer_destroy(b);
  expect_error(ocl_reduce_group_windows(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                        ocl_reduce_host_input(x, sizeof x), 8, 3,
                                        ocl_reduce_host_output(out, 5 * sizeof(float))),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "results is 20 bytes");
  const uint64_t decreasing[3] = {0, 5, 3};
  expect_error(ocl_reduce_group_segments_offsets(
                   group, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_host_input(x, sizeof x), 2,
                   ocl_reduce_host_input(decreasing, sizeof decreasing),
                   ocl_reduce_host_output(out, sizeof out)),
               OCL_REDUCE_ERROR_BAD_OFFSETS, NULL, "offsets[2] = 3 is less than");
  for (int i = 0; i < 8; i++)
    assert_true(out[i] == -7.0f);
  ocl_reduce_operator_destroy(matrix);
}

/* Windows over a group buffer whose last parts hold no window's start, only elements that the
 * seams before them read, with the seams staged (up to 64 KiB): one device's bits. */
static void test_windows_over_parts_that_only_seams_read(void **state) {
  (void)state;
  ocl_reduce_context *contexts[DEVICES];
  for (int d = 0; d < DEVICES; d++) {
    contexts[d] = test_context_with_policy("part_kib=1,seam_kib=64");
    assert_non_null(contexts[d]);
  }
  ocl_reduce_group *g = group_of(contexts, DEVICES);
  assert_non_null(g);
  const form_case f = {OCL_REDUCE_SUM, OCL_REDUCE_I32, 0};
  const size_t n = 1536, windows[] = {520, 700, 1100, n};
  size_t elem = 0;
  void *data = form_data(&f, n, &elem);
  for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++)
    check_windows_from_a_group_buffer(g, &f, data, n, elem, windows[k]);
  free(data);
  ocl_reduce_group_destroy(g);
  for (int d = 0; d < DEVICES; d++)
    ocl_reduce_context_destroy(contexts[d]);
}

/* ---- Errors ---------------------------------------------------------------------------------- */

static void test_bad_arguments_are_named_and_leave_results_alone(void **state) {
  (void)state;
  float x[4] = {1, 2, 3, 4}, result = -7.0f;
  const ocl_reduce_input in = ocl_reduce_host_input(x, TEST_BYTES(x));
  ocl_reduce_group *g = NULL;
  expect_error(ocl_reduce_group_create(NULL, "no-such-device-here", &g), OCL_REDUCE_ERROR_NO_DEVICE,
               NULL, "device 0 ('no-such-device-here')");
  const char *selector = getenv("OCL_REDUCE_DEVICE");
  char list[128];
  snprintf(list, sizeof list, "%s,,%s", selector ? selector : "", selector ? selector : "");
  expect_error(ocl_reduce_group_create(NULL, selector && *selector ? list : ",", &g),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               selector && *selector ? "selector 1 is empty" : "selector 0 is empty");
  assert_null(g);
  expect_error(ocl_reduce_group_create_from(members, 0, &g), OCL_REDUCE_ERROR_INVALID_ARGUMENT,
               NULL, "count");
  ocl_reduce_context *twice[2] = {members[0], members[0]};
  expect_error(ocl_reduce_group_create_from(twice, 2, &g), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "contexts[1] is contexts[0]");
  ocl_reduce_context *mixed[2] = {members[0], cross_members[1]};
  expect_error(ocl_reduce_group_create_from(mixed, 2, &g), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "determinism");
  expect_error(ocl_reduce_group_reduce(NULL, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, 4,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "group");
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_AND, OCL_REDUCE_F32, in, 4,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, NULL, "integer types only");
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                       ocl_reduce_host_input(NULL, 0), 4,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "input is NULL");
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, 4,
                                       ocl_reduce_host_output(NULL, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "result");
  ocl_reduce_buffer *b = NULL, *other = NULL;
  assert_int_equal(ocl_reduce_group_buffer_create(group, sizeof(float), 4, 1, &b), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_group_buffer_create(cross_group, sizeof(float), 4, 1, &other),
                   OCL_REDUCE_OK);
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                       ocl_reduce_buffer_input(b, 0), 3,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "holds 4 elements");
  double wide = -7.0;
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F64,
                                       ocl_reduce_buffer_input(b, 0), 4,
                                       ocl_reduce_host_output(&wide, sizeof wide)),
               has_fp64 ? OCL_REDUCE_ERROR_INVALID_ARGUMENT : OCL_REDUCE_ERROR_NO_FP64, NULL,
               has_fp64 ? "elements are 4 bytes" : "double");
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                       ocl_reduce_buffer_input(other, 0), 4,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "another group");
  float pair[2] = {-7.0f, -7.0f};
  expect_error(ocl_reduce_group_segments(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                         ocl_reduce_buffer_input(b, 0), 2, 3,
                                         ocl_reduce_host_output(pair, sizeof pair)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "holds 4 elements");
  /* A group's buffer is an ocl_reduce_buffer: its copies are checked as any buffer's, one context's
   * calls refuse it, and a group reads neither a part of it nor one context's buffer, nor writes
   * its results to a buffer. */
  expect_error(ocl_reduce_buffer_write(b, 4, x, sizeof x), OCL_REDUCE_ERROR_OUT_OF_RANGE, NULL,
               "beyond the buffer's 16 bytes");
  expect_error(ocl_reduce_buffer_read(b, 0, NULL, 4), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "host pointer is NULL");
  assert_int_equal(ocl_reduce_buffer_size(b), sizeof x);
  GROUP_OK(ocl_reduce_buffer_write(b, 8, x, 8), "ranged write");
  float back[4] = {0, 0, 0, 0};
  GROUP_OK(ocl_reduce_buffer_read(b, 4, back, 12), "ranged read");
  assert_true(back[1] == 1.0f && back[2] == 2.0f);
  expect_error(ocl_reduce_into(members[0], OCL_REDUCE_SUM, OCL_REDUCE_F32,
                               ocl_reduce_buffer_input(b, 0), 4,
                               ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, members[0], "a group's buffer");
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                       ocl_reduce_buffer_input(b, 4), 3,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "from offset 0");
  ocl_reduce_buffer *single = NULL;
  assert_int_equal(ocl_reduce_buffer_create(members[0], sizeof x, &single), OCL_REDUCE_OK);
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                       ocl_reduce_buffer_input(single, 0), 4,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "a buffer of one context");
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, 4,
                                       ocl_reduce_buffer_output(single, 0)),
               OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, NULL, "host memory");
  expect_error(ocl_reduce_group_buffer_part(single, 0, NULL, NULL, NULL),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "not a group's");
  /* Segment results in buffers: a group's, of the right size, following the input's parts. */
  expect_error(ocl_reduce_group_segments(group, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, 2, 2,
                                         ocl_reduce_buffer_output(single, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "a buffer of one context");
  ocl_reduce_buffer *wrong = NULL, *results = NULL;
  assert_int_equal(ocl_reduce_group_buffer_create(group, sizeof(float), 3, 1, &wrong),
                   OCL_REDUCE_OK);
  expect_error(ocl_reduce_group_segments(group, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, 2, 2,
                                         ocl_reduce_buffer_output(wrong, 0)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "holds 3 elements of 4 bytes");
  expect_error(ocl_reduce_group_segments(group, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                         ocl_reduce_buffer_input(b, 0), 4, 1,
                                         ocl_reduce_buffer_output(wrong, 1)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "from offset 0");
  expect_error(ocl_reduce_group_buffer_create_results(single, 1, 4, &results),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "not a group's");
  expect_error(ocl_reduce_group_buffer_create_results(b, 0, 4, &results),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "segment_length is 0");
  assert_null(results);
  ocl_reduce_buffer_destroy(wrong);
  ocl_reduce_buffer_destroy(single);
  expect_error(ocl_reduce_group_buffer_create(group, 4, 10, 3, &other),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "granule");
  expect_error(ocl_reduce_group_buffer_part(b, DEVICES, NULL, NULL, NULL),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "index");
  ocl_reduce_buffer_destroy(b);
  assert_int_equal(ocl_reduce_group_buffer_create(cross_group, sizeof(float), 4, 1, &b),
                   OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(other);
  ocl_reduce_buffer_destroy(b);
  const double bad[DEVICES] = {1.0, -1.0, 1.0}, zeros[DEVICES] = {0.0, 0.0, 0.0};
  expect_error(ocl_reduce_group_set_shares(group, OCL_REDUCE_SHARES_HOST, bad),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "weights[1]");
  expect_error(ocl_reduce_group_set_shares(group, OCL_REDUCE_SHARES_HOST, zeros),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "all 0");
  expect_error(ocl_reduce_group_shares(group, (ocl_reduce_shares)7, NULL),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "which");
  expect_error(ocl_reduce_group_reduce(group, NULL, OCL_REDUCE_F32, in, 4,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "op is NULL");
  /* Sizes: a result smaller than one result, and host input shorter than the count. */
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_ARGMIN, OCL_REDUCE_F32, in, 4,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "result_bytes is 4");
  expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, 5,
                                       ocl_reduce_host_output(&result, sizeof result)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "input is 16 bytes");
  float two[2] = {-7.0f, -7.0f};
  expect_error(ocl_reduce_group_segments(group, OCL_REDUCE_SUM, OCL_REDUCE_F32, in, 4, 1,
                                         ocl_reduce_host_output(two, sizeof two)),
               OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL, "results is 8 bytes");
  assert_true(two[0] == -7.0f && two[1] == -7.0f);
  assert_true(result == -7.0f);
  assert_int_equal(ocl_reduce_group_size(NULL), 0);
  ocl_reduce_group_destroy(NULL);
  ocl_reduce_buffer_destroy(NULL);
}

int main(void) {
#define GROUP_ENTRY(OP, TYPE) cmocka_unit_test(test_##OP##_##TYPE##_over_the_group),
  const struct CMUnitTest tests[] = {
      TEST_OP_TYPES(GROUP_ENTRY) TEST_STRUCTURED_OP_TYPES(GROUP_ENTRY)
          cmocka_unit_test(test_segments_are_cut_whole),
      cmocka_unit_test(test_reproducible_sum_does_not_depend_on_the_devices),
      cmocka_unit_test(test_user_operators_over_the_group),
      cmocka_unit_test(test_windows_offsets_multi_and_parts_over_the_group),
      cmocka_unit_test(test_windows_over_parts_that_only_seams_read),
      cmocka_unit_test(test_shares_cut_contiguous_parts),
      cmocka_unit_test(test_group_from_a_device_list),
      cmocka_unit_test(test_a_mixed_group),
      cmocka_unit_test(test_the_listed_devices),
      cmocka_unit_test(test_bad_arguments_are_named_and_leave_results_alone),
  };
#undef GROUP_ENTRY
  return TEST_RUN(tests, setup, teardown);
}
