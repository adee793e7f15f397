/* =================================================================================================
 * test_segments.c: segmented reductions (ocl_reduce_segments, ocl_reduce_segments_offsets) for
 * every operator x type, against a host reference per segment, in every way the library spreads
 * segments over work-items: the automatic choice, and each mode forced (one work-item per
 * segment, the multireduction, a work-group per segment, a whole-array launch per segment; see
 * sweep() for which operators take which).
 *
 * Segment lengths: 0, 1, 2, 3, 7, 31, 32, 33, 61, subgroup +- 1, work-group +- 1, 4096 and random
 * ones; counts 0, 1 and many. Offsets: random ragged segments with empty ones, a first offset
 * that is not 0, in host memory and in a buffer. Inputs and results alternate between host
 * memory and device buffers at element offsets that are not vector-aligned (host input is staged
 * aligned, so equal lengths of whole vectors reach the runs CPUs take them in). Floats are also
 * reduced twice, which must give the same bits.
 * ============================================================================================== */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"

/* The ways to spread segments, as OCL_REDUCE_POLICY names them ("" = automatic). */
static const char *const modes[] = {"",          "seg=lane",  "seg=mr",
                                    "seg=group", "seg=launch", "seg=staged"};
#define MODE_COUNT_SEG (sizeof modes / sizeof modes[0])

static ocl_reduce_context *contexts[MODE_COUNT_SEG];
static size_t lengths[32];
static size_t length_count;

/* A context per mode: the environment's policy (the test registration's) plus the mode. */
static int setup(void **state) {
  (void)state;
  test_rng_init();
  for (size_t m = 0; m < MODE_COUNT_SEG; m++)
    if (!(contexts[m] = test_context_with_policy(modes[m])))
      return -1;

  const test_shape shape = test_context_shape(contexts[0]);
  const size_t fixed[] = {0, 1, 2, 3, 7, 31, 32, 33, 61, 4096};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    lengths[length_count++] = fixed[i];
  if (shape.subgroup > 1) {
    lengths[length_count++] = shape.subgroup - 1;
    lengths[length_count++] = shape.subgroup + 1;
  }
  lengths[length_count++] = shape.work_group - 1;
  lengths[length_count++] = shape.work_group + 1;
  lengths[length_count++] = 4 + test_rng_below(60);
  lengths[length_count++] = 100 + test_rng_below(2000);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  for (size_t m = 0; m < MODE_COUNT_SEG; m++)
    ocl_reduce_context_destroy(contexts[m]);
  return 0;
}

/* ---- One call, checked ------------------------------------------------------------------------
 */

typedef struct seg_case {
  ocl_reduce_context *ctx;
  const char *mode;
  ocl_reduce_op op;
  ocl_reduce_type type;
  test_mode data_mode;
  const void *data;       /* the input, in host memory */
  size_t count;           /* segments */
  size_t length;          /* equal lengths, when offsets is NULL */
  const uint64_t *offsets; /* count + 1 offsets into data, or NULL */
  int on_device;          /* input (and offsets) in buffers, results in a buffer */
} seg_case;

static void describe(const seg_case *c, char *buf, size_t size) {
  snprintf(buf, size, "%s %s %s, %zu segments of %s%zu, %s, %s, mode '%s'",
           c->offsets ? "offsets" : "equal", ocl_reduce_op_name(c->op),
           ocl_reduce_type_name(c->type), c->count, c->offsets ? "ragged length, last " : "",
           c->offsets ? (size_t)(c->count ? c->offsets[c->count] - c->offsets[c->count - 1] : 0)
                      : c->length,
           test_mode_name(c->data_mode), c->on_device ? "buffers" : "host memory", c->mode);
}

/* Runs the case with results written to `results` (host memory), through buffers when
 * c->on_device. Returns the status. */
static ocl_reduce_status run_case(const seg_case *c, void *results) {
  const size_t elem = ocl_reduce_type_size(c->type), rsize = ocl_reduce_result_size(c->op, c->type);
  const size_t total = c->offsets ? (size_t)c->offsets[c->count] : c->count * c->length;
  if (!c->on_device) {
    /* Exactly the memory the request needs: a check of one byte too many would fail. */
    const ocl_reduce_input in = ocl_reduce_host_input(c->data, total * elem);
    const ocl_reduce_output out =
        ocl_reduce_host_output(results, c->count * rsize);
    if (c->offsets)
      return ocl_reduce_segments_offsets(c->ctx, c->op, c->type, in, c->count,
                                         ocl_reduce_host_input(c->offsets, (c->count + 1) * 8),
                                         out);
    return ocl_reduce_segments(c->ctx, c->op, c->type, in, c->count, c->length, out);
  }
  /* Input at an element offset of 1..3, results at 1..2, offsets at 1 in their own buffer. */
  const size_t in_at = 1 + c->count % 3, out_at = 1 + c->count % 2;
  ocl_reduce_buffer *in = NULL, *out = NULL, *offs = NULL;
  ocl_reduce_status s = ocl_reduce_buffer_create(c->ctx, (total + in_at) * elem, &in);
  if (s == OCL_REDUCE_OK && total)
    s = ocl_reduce_buffer_write(in, in_at * elem, c->data, total * elem);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_create(c->ctx, (c->count + out_at) * rsize, &out);
  if (s == OCL_REDUCE_OK && c->offsets) {
    s = ocl_reduce_buffer_create(c->ctx, (c->count + 2) * 8, &offs);
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_buffer_write(offs, 8, c->offsets, (c->count + 1) * 8);
  }
  if (s == OCL_REDUCE_OK)
    s = c->offsets ? ocl_reduce_segments_offsets(c->ctx, c->op, c->type,
                                                 ocl_reduce_buffer_input(in, in_at), c->count,
                                                 ocl_reduce_buffer_input(offs, 1),
                                                 ocl_reduce_buffer_output(out, out_at))
                   : ocl_reduce_segments(c->ctx, c->op, c->type,
                                         ocl_reduce_buffer_input(in, in_at), c->count, c->length,
                                         ocl_reduce_buffer_output(out, out_at));
  if (s == OCL_REDUCE_OK && c->count)
    s = ocl_reduce_buffer_read(out, out_at * rsize, results, c->count * rsize);
  ocl_reduce_buffer_destroy(in);
  ocl_reduce_buffer_destroy(out);
  ocl_reduce_buffer_destroy(offs);
  return s;
}

/* Checks every segment's result against the host reference; returns the number of failures. */
static int check_case(const seg_case *c) {
  /* Results have their own size: 16-bit elements' sums are f32. */
  const size_t elem = ocl_reduce_type_size(c->type), rsize = ocl_reduce_result_size(c->op, c->type);
  unsigned char *results = malloc(c->count * rsize + 16);
  unsigned char *again = malloc(c->count * rsize + 16);
  assert_non_null(results);
  assert_non_null(again);
  memset(results, 0xa5, c->count * rsize + 16);
  char what[256], why[256];
  describe(c, what, sizeof what);
  int failures = 0;
  ocl_reduce_status s = run_case(c, results);
  if (s != OCL_REDUCE_OK) {
    print_error("%s: %s: %s\n", what, ocl_reduce_status_name(s), ocl_reduce_last_error(c->ctx));
    failures = 1;
  }
  /* Nothing past the last result is written. */
  for (size_t i = c->count * rsize; i < c->count * rsize + 16 && !failures; i++)
    if (results[i] != 0xa5) {
      print_error("%s: wrote past the last result\n", what);
      failures = 1;
    }
  const unsigned char *bytes = c->data;
  int reported = 0;
  for (size_t i = 0; i < c->count && !failures; i++) {
    const size_t begin = c->offsets ? (size_t)c->offsets[i] : i * c->length;
    const size_t n = c->offsets ? (size_t)(c->offsets[i + 1] - c->offsets[i]) : c->length;
    const test_reference ref = test_reduce_host(bytes + begin * elem, n, c->op, c->type,
                                                c->data_mode);
    test_value got;
    memcpy(got.bytes, results + i * rsize, rsize);
    if (!test_matches(&got, &ref, c->op, c->type, why, sizeof why)) {
      if (reported++ < 5)
        print_error("%s: segment %zu (elements [%zu, %zu)): %s\n", what, i, begin, begin + n, why);
      failures++;
    }
  }
  if (!failures && (c->type == OCL_REDUCE_F32 || c->type == OCL_REDUCE_F64)) {
    s = run_case(c, again);
    if (s != OCL_REDUCE_OK || memcmp(again, results, c->count * rsize) != 0) {
      print_error("%s: a second run gave different bits (%s)\n", what, ocl_reduce_status_name(s));
      failures++;
    }
  }
  free(results);
  free(again);
  return failures;
}

/* ---- Sweeps -------------------------------------------------------------------------------------
 */

/* Elements per case, at most: enough for many work-groups' worth of short segments. */
#define CASE_ELEMENTS ((size_t)1 << 16)

/* Random ragged offsets: count segments of 0 .. max_length elements (about one in five empty),
 * starting at element `first`. Returns the elements the input must hold. */
static size_t ragged_offsets(uint64_t *offsets, size_t count, size_t first, size_t max_length) {
  offsets[0] = first;
  for (size_t i = 0; i < count; i++) {
    const size_t n = test_rng_below(5) == 0 ? 0 : test_rng_below(max_length + 1);
    offsets[i + 1] = offsets[i] + n;
  }
  return (size_t)offsets[count];
}

/* A whole-array launch per segment: a few dozen segments are enough to test it. */
static const size_t max_launches = 37;

static void sweep(ocl_reduce_op op, ocl_reduce_type type) {
  /* Light runs: sum on every type, max on a 4-byte and an 8-byte one. */
  if (test_light() && op != OCL_REDUCE_SUM &&
      !(op == OCL_REDUCE_MAX && (type == OCL_REDUCE_I32 || type == OCL_REDUCE_F64))) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    skip();
  }
  const size_t elem = ocl_reduce_type_size(type);
  void *data = malloc(CASE_ELEMENTS * 2 * elem);
  uint64_t *offsets = malloc((CASE_ELEMENTS + 1) * sizeof *offsets);
  assert_non_null(data);
  assert_non_null(offsets);
  int failures = 0, cases = 0;
  for (size_t m = 0; m < MODE_COUNT_SEG && failures < 10; m++) {
    /* Every operator takes the automatic choice and the multireduction. The other modes hold no
     * code of their own per operator (their combines are the whole-array kernel's, which
     * test_reduce covers for every operator); they run with sum, max and xor. Sums on f32 and
     * u64 also take every multireduction width (one kernel build each, 1 to 32); the others take
     * the widths of lengths 1, 3 and 33, which exercise the same code per operator and type.
     * Kernel builds are most of this test's time on some implementations. Light runs take sum
     * as the primary operator and max as another. */
    const int primary = test_light() ? op == OCL_REDUCE_SUM
                                     : op == OCL_REDUCE_SUM || op == OCL_REDUCE_MAX ||
                                           op == OCL_REDUCE_XOR;
    const int mr = strcmp(modes[m], "seg=mr") == 0;
    if (m != 0 && !mr && !primary)
      continue;
    seg_case c;
    memset(&c, 0, sizeof c);
    c.ctx = contexts[m];
    c.mode = modes[m];
    c.op = op;
    c.type = type;
    c.data = data;
    /* Equal lengths: counts many, 1 and 0, random data; special values on a few lengths. */
    for (size_t l = 0; l < length_count; l++) {
      c.length = lengths[l];
      /* Every multireduction width: sums only, on a 4-byte float and an 8-byte integer (the
       * widths' code differs by element size, not type); light runs on f32 alone. */
      const int every_width = op == OCL_REDUCE_SUM && (type == OCL_REDUCE_F32 ||
                                                       (!test_light() && type == OCL_REDUCE_U64));
      if (mr && !every_width && c.length != 1 && c.length != 3 && c.length != 33)
        continue;
      size_t many = c.length ? CASE_ELEMENTS / c.length : 1000;
      many = many < 1000 ? many : 1000 + test_rng_below(many - 999);
      if (many > max_launches && strcmp(c.mode, "seg=launch") == 0)
        many = max_launches;
      const size_t counts[] = {many, 1, 0};
      for (size_t k = 0; k < 3; k++) {
        c.count = counts[k];
        for (int dm = 0; dm < MODE_COUNT; dm++) {
          /* Special values on lengths 1, 32 (whole vectors: CPUs reduce runs of them at
           * once) and 33. */
          if (!test_mode_applies((test_mode)dm, type) || dm == MODE_EXACT ||
              (dm != MODE_RANDOM &&
               (k != 0 || (c.length != 1 && c.length != 32 && c.length != 33))))
            continue;
          c.data_mode = (test_mode)dm;
          c.on_device = (int)((l + k + (size_t)dm) % 2);
          test_fill(data, c.count * c.length, op, type, c.data_mode);
          failures += check_case(&c);
          cases++;
        }
      }
    }
    /* Offsets: short and long ragged segments, from host memory and from buffers (staging
     * takes equal lengths only: forced, offsets run the multireduction, tested above). */
    if (strcmp(c.mode, "seg=staged") == 0)
      continue;
    c.length = 0;
    c.data_mode = MODE_RANDOM;
    static const size_t max_lengths[] = {40, 3000};
    for (size_t k = 0; k < 2; k++) {
      c.count = CASE_ELEMENTS / (max_lengths[k] / 2 + 1) / 2;
      if (c.count > max_launches && strcmp(c.mode, "seg=launch") == 0)
        c.count = max_launches;
      const size_t first = test_rng_below(5);
      const size_t total = ragged_offsets(offsets, c.count, first, max_lengths[k]);
      test_fill(data, total, op, type, MODE_RANDOM);
      c.offsets = offsets;
      for (c.on_device = 0; c.on_device < 2; c.on_device++) {
        failures += check_case(&c);
        cases++;
      }
    }
  }
  free(data);
  free(offsets);
  if (failures)
    fail_msg("%d mismatches in %d cases of %s %s", failures, cases, ocl_reduce_op_name(op),
             ocl_reduce_type_name(type));
}

#define SWEEP_TEST(OP, TYPE)                                                                       \
  static void test_##OP##_##TYPE##_segments_match_host_reference(void **state) {                  \
    (void)state;                                                                                   \
    sweep(OCL_REDUCE_##OP, OCL_REDUCE_##TYPE);                                                     \
  }
TEST_OP_TYPES(SWEEP_TEST)

/* Segments larger than one upload through the staging buffer, from host memory: the batching of
 * whole segments, and a single segment reduced piece by piece. */
static void test_host_input_larger_than_one_upload(void **state) {
  (void)state;
  if (test_light()) {
    printf("# skipped: OCL_REDUCE_TEST_LIGHT=1\n");
    skip();
  }
  /* 3 segments of 7 Mi elements (batches of whole segments), then one of 17 Mi (in pieces); the
   * staging buffer holds 64 MiB, 16 Mi i32. */
  static const size_t shapes[][2] = {{3, ((size_t)7 << 20) + 5}, {1, ((size_t)17 << 20) + 3}};
  int32_t *data = malloc(((size_t)21 << 20) * 4 + 64);
  assert_non_null(data);
  for (size_t i = 0; i < ((size_t)21 << 20) + 16; i++)
    data[i] = (int32_t)test_rng_next();
  for (size_t k = 0; k < 2; k++) {
    const size_t count = shapes[k][0], length = shapes[k][1];
    for (size_t m = 0; m < MODE_COUNT_SEG; m++) {
      int32_t results[3];
      ocl_reduce_status s =
          ocl_reduce_segments(contexts[m], OCL_REDUCE_XOR, OCL_REDUCE_I32,
                              ocl_reduce_host_input(data, count * length * sizeof *data), count,
                              length, ocl_reduce_host_output(results, TEST_BYTES(results)));
      if (s != OCL_REDUCE_OK)
        fail_msg("mode '%s': %s: %s", modes[m], ocl_reduce_status_name(s),
                 ocl_reduce_last_error(contexts[m]));
      for (size_t i = 0; i < count; i++) {
        int32_t expected = 0;
        for (size_t j = 0; j < length; j++)
          expected ^= data[i * length + j];
        if (results[i] != expected)
          fail_msg("mode '%s', %zu segments of %zu: segment %zu: got %d, expected %d", modes[m],
                   count, length, i, results[i], expected);
      }
    }
  }
  free(data);
}

/* Host input's results do not depend on where its memory lies: from every element offset of a
 * 64-byte line, f32 and f64 sums in segments of whole vectors (which CPU devices read where they
 * lie, in runs of segments: segment_views.c) and not, with a few segments past the last run,
 * give the bits of the first offset's; automatically and with a work-item per segment (the other
 * modes read a staged copy). Enough segments for a run on every work-item of a CPU device. */
static void test_host_input_bits_do_not_depend_on_its_address(void **state) {
  (void)state;
  static const size_t lengths_here[] = {16, 32, 33, 64, 1000};
  const size_t most_count = ((size_t)1 << 15) + 7, most = most_count * 64;
  double *data = malloc((most + 16) * sizeof *data), *first = malloc(most_count * sizeof *first);
  double *results = malloc(most_count * sizeof *results);
  assert_true(data && first && results);
  for (int t = 0; t < 2; t++) {
    const ocl_reduce_type type = t ? OCL_REDUCE_F64 : OCL_REDUCE_F32;
    const size_t elem = t ? sizeof(double) : sizeof(float), line = 64 / elem;
    for (size_t i = 0; i < most; i++) { /* random magnitudes, so that the order shows */
      const double x = ldexp(test_rng_unit() - 0.5, (int)test_rng_below(40) - 20);
      if (t)
        data[i] = x;
      else
        ((float *)data)[i] = (float)x;
    }
    for (size_t l = 0; l < sizeof lengths_here / sizeof *lengths_here; l++)
      for (size_t m = 0; m < 2; m++) /* "" and "seg=lane" */
        for (size_t at = 0; at < line; at++) {
          const size_t length = lengths_here[l], count = length < 100 ? most_count : 1007;
          const size_t bytes = count * length * elem;
          unsigned char *moved = (unsigned char *)data + at * elem;
          if (at) /* the same elements, at element offset `at` of the line */
            memmove(moved, moved - elem, bytes);
          ocl_reduce_status s = ocl_reduce_segments(
              contexts[m], OCL_REDUCE_SUM, type, ocl_reduce_host_input(moved, bytes), count,
              length, ocl_reduce_host_output(at ? results : first, count * elem));
          if (s != OCL_REDUCE_OK)
            fail_msg("mode '%s': %s: %s", modes[m], ocl_reduce_status_name(s),
                     ocl_reduce_last_error(contexts[m]));
          if (at && memcmp(results, first, count * elem) != 0)
            fail_msg("%s sum, mode '%s', %zu segments of %zu at element %zu of a line: not the "
                     "bits at element 0", ocl_reduce_type_name(type), modes[m], count, length, at);
          if (at == line - 1) /* back to the start of the line */
            memmove(data, moved, bytes);
        }
  }
  free(results);
  free(first);
  free(data);
}

#define ENTRY(OP, TYPE) cmocka_unit_test(test_##OP##_##TYPE##_segments_match_host_reference),

int main(void) {
  const struct CMUnitTest tests[] = {
      TEST_OP_TYPES(ENTRY) cmocka_unit_test(test_host_input_larger_than_one_upload),
      cmocka_unit_test(test_host_input_bits_do_not_depend_on_its_address)};
  return TEST_RUN(tests, setup, teardown);
}
