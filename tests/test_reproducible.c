/* =================================================================================================
 * test_reproducible.c: the reproducible float sum (OCL_REDUCE_SUM_REPRODUCIBLE, and SUM under
 * OCL_REDUCE_CROSS_DEVICE). Every result must be the bits of the definition's host evaluation
 * (support/repro_reference.c; for f16 and bf16, over their f32 values), whatever the way it is
 * computed: host memory, buffers at element offsets, segments by offsets and of equal lengths
 * under every segment strategy (the staged one's two passes among them), ocl_reduce_multi, and
 * contexts with forced work-group sizes, stream layouts, loads, chains, group counts and
 * finishes (f16 and bf16: whole arrays and equal segments as planned). Since each
 * run compares with the same host bits, runs on different implementations (registered per
 * implementation and path) compare with each other; the fixed inputs' bits are printed
 * ("# bits ...") so that the H200 script shows them side by side. Also: shuffled input gives the
 * same bits; long chains of the largest pieces keep their accumulators in range (flushes); the
 * error against the exact sum is within the header's bound and no larger than
 * the plain sum's on ill-conditioned data; NaN, infinities, overflow, denormals, zeros; the
 * option's errors.
 * ============================================================================================== */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fixture.h"
#include "support/repro_reference.h"

/* Contexts with forced launch shapes (OCL_REDUCE_POLICY syntax): the whole-array kernels'. */
static const char *const shapes[] = {"wg=64",           "wg=32,groups=3",  "stream=chunk",
                                     "stream=strided,vec=1,unroll=1", "stream=tiled,unroll=2",
                                     "finish=serial", "groups=5", "chains=2,unroll=4"};
#define SHAPES (sizeof shapes / sizeof shapes[0])
/* ... and the segment strategies. */
static const char *const segment_modes[] = {"seg=lane", "seg=mr", "seg=group", "seg=staged",
                                            "seg=launch"};
#define SEGMENT_MODES (sizeof segment_modes / sizeof segment_modes[0])
#define STAGED 3 /* segment_modes[STAGED] */
#define FEW_WORK_ITEMS 1 /* shapes[FEW_WORK_ITEMS] */

static ocl_reduce_context *shape_ctx[SHAPES], *segment_ctx[SEGMENT_MODES], *cross_ctx;

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  for (size_t k = 0; k < SHAPES; k++)
    if (!(shape_ctx[k] = test_context_with_policy(shapes[k])))
      return -1;
  for (size_t k = 0; k < SEGMENT_MODES; k++)
    if (!(segment_ctx[k] = test_context_with_policy(segment_modes[k])))
      return -1;
  cross_ctx = test_context_cross_device();
  return cross_ctx ? 0 : -1;
}

static int teardown(void **state) {
  for (size_t k = 0; k < SHAPES; k++)
    ocl_reduce_context_destroy(shape_ctx[k]);
  for (size_t k = 0; k < SEGMENT_MODES; k++)
    ocl_reduce_context_destroy(segment_ctx[k]);
  ocl_reduce_context_destroy(cross_ctx);
  return test_teardown(state);
}

/* Whether the device has double precision (else the f64 cases are skipped). */
static int has_f64(void) {
  double r;
  const ocl_reduce_status s =
      ocl_reduce(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F64, NULL, 0, &r, sizeof r);
  if (s == OCL_REDUCE_ERROR_NO_FP64) {
    printf("# skipped: the device has no double precision\n");
    return 0;
  }
  assert_int_equal(s, OCL_REDUCE_OK);
  return 1;
}

/* ---- Inputs ---------------------------------------------------------------------------------- */

/* A generator of its own, seeded per input: the fixed inputs are the same in every run. */
static uint64_t mix(uint64_t *s) {
  *s += 0x9e3779b97f4a7c15ull;
  uint64_t z = *s;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static double unit(uint64_t *s) { return (double)(mix(s) >> 11) * 0x1p-53; }

typedef enum kind {
  KIND_UNIFORM,  /* uniform in [-1, 1) */
  KIND_CANCEL,   /* +-x pairs of all magnitudes up to 2^(range), and small noise: sum near 0 */
  KIND_WIDE,     /* random signs and exponents from the least normal to 2^100 (f32) or 2^980 */
  KIND_TINY,     /* denormals and the least normals */
  KIND_POSITIVE, /* growing positive values: rounding of a long sum */
  KIND_COUNT
} kind;
static const char *const kind_names[] = {"uniform", "cancel", "wide", "tiny", "positive"};

static double value_of(kind k, size_t i, ocl_reduce_type type, uint64_t *s) {
  const int f32 = type == OCL_REDUCE_F32;
  const int range = f32 ? 100 : 900;
  switch (k) {
  case KIND_UNIFORM:
    return 2 * unit(s) - 1;
  case KIND_CANCEL: {
    static double previous;
    if (i % 3 == 2)
      return ldexp(unit(s) - 0.5, -20);
    if (i % 3 == 0)
      previous = ldexp(1 + unit(s), (int)(mix(s) % (uint64_t)(2 * range)) - range);
    return i % 3 == 0 ? previous : -previous;
  }
  case KIND_WIDE:
    return ldexp((mix(s) & 1 ? -1 : 1) * (1 + unit(s)),
                 (int)(mix(s) % (uint64_t)(f32 ? 226 : 2000)) - (f32 ? 126 : 1020));
  case KIND_TINY:
    return ldexp((mix(s) & 1 ? -1 : 1) * unit(s), f32 ? -125 : -1021);
  default:
    return unit(s) * (double)(i + 1);
  }
}

/* n elements of kind k, from seed. */
static void *input(kind k, ocl_reduce_type type, size_t n, uint64_t seed) {
  void *data = malloc(n * 8 + 8);
  assert_non_null(data);
  for (size_t i = 0; i < n; i++) {
    const double v = value_of(k, i, type, &seed);
    if (type == OCL_REDUCE_F32)
      ((float *)data)[i] = (float)v;
    else
      ((double *)data)[i] = v;
  }
  return data;
}

static uint64_t bits_of(const void *value, ocl_reduce_type type) {
  uint64_t b = 0;
  memcpy(&b, value, ocl_reduce_type_size(type));
  return b;
}

/* ---- Every way of reducing the same input ------------------------------------------------- */

static void expect_bits(uint64_t got, uint64_t want, const char *way, const char *input_name) {
  if (got != want) {
    fprintf(stderr, "%s, %s: bits 0x%llx, the definition gives 0x%llx\n", input_name, way,
            (unsigned long long)got, (unsigned long long)want);
    fail();
  }
}

/* Whole array from host memory and from a buffer at element offset 5, on ctx. */
static void check_whole(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                        const void *data, size_t n, uint64_t want, const char *way,
                        const char *name) {
  const size_t elem = ocl_reduce_type_size(type);
  uint64_t got = 0;
  assert_int_equal(ocl_reduce(ctx, op, type, data, n, &got, sizeof got), OCL_REDUCE_OK);
  expect_bits(got, want, way, name);
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(ctx, (n + 5) * elem, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 5 * elem, data, n * elem), OCL_REDUCE_OK);
  got = 0;
  assert_int_equal(ocl_reduce_into(ctx, op, type, ocl_reduce_buffer_input(buf, 5), n,
                                   ocl_reduce_host_output(&got, sizeof got)),
                   OCL_REDUCE_OK);
  ocl_reduce_buffer_destroy(buf);
  expect_bits(got, want, way, name);
}

/* Segments of random lengths (some empty, one long), each against its own definition's bits. */
static void check_segments(ocl_reduce_context *ctx, ocl_reduce_type type, const void *data,
                           size_t n, const char *way, const char *name) {
  const size_t elem = ocl_reduce_type_size(type);
  uint64_t offsets[40];
  size_t count = 0;
  uint64_t seed = n;
  offsets[0] = 0;
  while (count + 1 < 40 && offsets[count] < n) {
    const uint64_t length = count == 7 ? n / 3 : mix(&seed) % 70;
    offsets[count + 1] = offsets[count] + length < n ? offsets[count] + length : n;
    count++;
  }
  uint64_t got[40], want = 0;
  assert_int_equal(ocl_reduce_segments_offsets(ctx, OCL_REDUCE_SUM_REPRODUCIBLE, type,
                                               ocl_reduce_host_input(data, n * elem), count,
                                               ocl_reduce_host_input(offsets, TEST_BYTES(offsets)),
                                               ocl_reduce_host_output(got, TEST_BYTES(got))),
                   OCL_REDUCE_OK);
  for (size_t s = 0; s < count; s++) {
    test_repro_sum((const char *)data + offsets[s] * elem, offsets[s + 1] - offsets[s], type,
                   &want);
    expect_bits(bits_of((const char *)got + s * elem, type), bits_of(&want, type), way, name);
  }
}

/* Equal-length segments from host memory, each against its own definition's bits `want` (the
 * staged strategy's two passes among them: up to 4095 elements, the folds from 4096). */
static void check_equal_segments(ocl_reduce_context *ctx, ocl_reduce_type type, const void *data,
                                 size_t count, size_t length, const uint64_t *want,
                                 const char *way, const char *name) {
  const size_t elem = ocl_reduce_type_size(type);
  /* 16-bit floats' sums are f32s. */
  const size_t size = ocl_reduce_result_size(OCL_REDUCE_SUM_REPRODUCIBLE, type);
  void *got = malloc(count * size);
  assert_non_null(got);
  assert_int_equal(ocl_reduce_segments(ctx, OCL_REDUCE_SUM_REPRODUCIBLE, type,
                                       ocl_reduce_host_input(data, count * length * elem), count,
                                       length, ocl_reduce_host_output(got, count * size)),
                   OCL_REDUCE_OK);
  for (size_t s = 0; s < count; s++) {
    char what[96];
    snprintf(what, sizeof what, "%s, %zu segments of %zu, segment %zu", way, count, length, s);
    uint64_t bits = 0;
    memcpy(&bits, (const char *)got + s * size, size);
    expect_bits(bits, want[s], what, name);
  }
  free(got);
}

/* The segments of `length` that n elements hold whole, through every segment strategy (light
 * runs: the staged one only). */
static void check_every_equal_segments(ocl_reduce_type type, const void *data, size_t n,
                                       size_t length, const char *name) {
  const size_t elem = ocl_reduce_type_size(type), count = n / length;
  if (count == 0)
    return;
  uint64_t *want = malloc(count * sizeof *want);
  assert_non_null(want);
  for (size_t s = 0; s < count; s++) {
    uint64_t sum = 0;
    test_repro_sum((const char *)data + s * length * elem, length, type, &sum);
    want[s] = bits_of(&sum, type);
  }
  for (size_t m = 0; m < SEGMENT_MODES; m++)
    if (!test_light() || m == STAGED)
      check_equal_segments(segment_ctx[m], type, data, count, length, want, segment_modes[m],
                           name);
  free(want);
}

static void same_bits_everywhere(ocl_reduce_type type) {
  if (type == OCL_REDUCE_F64 && !has_f64())
    return;
  const ocl_reduce_op rs = OCL_REDUCE_SUM_REPRODUCIBLE;
  const size_t sizes[] = {1000003, 4099};
  for (int k = 0; k < KIND_COUNT; k++)
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
      const size_t n = test_light() ? sizes[z] / 16 : sizes[z];
      void *data = input((kind)k, type, n, 1000 * (uint64_t)k + z);
      char name[64];
      snprintf(name, sizeof name, "%s %s n=%zu", kind_names[k], ocl_reduce_type_name(type), n);
      uint64_t want = 0;
      test_repro_sum(data, n, type, &want);
      want = bits_of(&want, type);
      check_whole(test_ctx, rs, type, data, n, want, "automatic", name);
      check_whole(cross_ctx, OCL_REDUCE_SUM, type, data, n, want, "cross_device SUM", name);
      /* Light runs (CI's other implementations, where each forced shape is a build of seconds):
       * one forced shape, and segments by offsets in the strategies that take them as planned
       * (forced staging of unequal lengths falls back to the multireduction). */
      for (size_t s = 0; s < SHAPES && (!test_light() || s < 1); s++)
        check_whole(shape_ctx[s], rs, type, data, n, want, shapes[s], name);
      for (size_t s = 0; s < SEGMENT_MODES; s++)
        if (!test_light() || s < STAGED)
          check_segments(segment_ctx[s], type, data, n, segment_modes[s], name);
      static const size_t lengths[] = {32, 33, 4095, 4096};
      for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        check_every_equal_segments(type, data, n, lengths[l], name);
      /* The same bits in every run on every implementation: the printed lines must agree. */
      printf("# bits %-28s 0x%0*llx\n", name, (int)(2 * ocl_reduce_type_size(type)),
             (unsigned long long)want);
      free(data);
    }
}

static void test_same_bits_everywhere_f32(void **state) {
  (void)state;
  same_bits_everywhere(OCL_REDUCE_F32);
}
static void test_same_bits_everywhere_f64(void **state) {
  (void)state;
  same_bits_everywhere(OCL_REDUCE_F64);
}

/* 16-bit floats: the definition over their f32 values, by every device (printed as for f32 and
 * f64), whole arrays through SUM_REPRODUCIBLE and CROSS_DEVICE's SUM, and equal segments. Values
 * uniform in [-1, 1), and of random signs and the type's own exponents (f16: 2^-16 .. 2^14,
 * subnormals among them; bf16: f32's). */
static void same_bits_everywhere_narrow(ocl_reduce_type type) {
  const int f16 = type == OCL_REDUCE_F16;
  const size_t sizes[] = {100003, 4099};
  for (int k = 0; k < 2; k++)
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
      const size_t n = test_light() ? sizes[z] / 16 : sizes[z];
      uint16_t *halves = malloc(n * sizeof *halves);
      float *values = malloc(n * sizeof *values);
      assert_true(halves && values);
      uint64_t seed = 7000 + 1000 * (uint64_t)k + z;
      for (size_t i = 0; i < n; i++) {
        const double sign = mix(&seed) & 1 ? -1 : 1;
        const int exponent = f16 ? (int)(mix(&seed) % 31) - 16 : (int)(mix(&seed) % 226) - 126;
        const double v = k == 0 ? 2 * unit(&seed) - 1 : ldexp(sign * (1 + unit(&seed)), exponent);
        halves[i] = ocl_reduce_half_from_float(type, (float)v);
        values[i] = ocl_reduce_float_from_half(type, halves[i]);
      }
      char name[64];
      snprintf(name, sizeof name, "%s %s n=%zu", k ? "wide" : "uniform", ocl_reduce_type_name(type),
               n);
      uint64_t want = 0;
      test_repro_sum(values, n, OCL_REDUCE_F32, &want);
      want = bits_of(&want, OCL_REDUCE_F32);
      check_whole(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, type, halves, n, want, "automatic",
                  name);
      check_whole(cross_ctx, OCL_REDUCE_SUM, type, halves, n, want, "cross_device SUM", name);
      const size_t length = 1000, count = n / length;
      uint64_t *wants = malloc(count * sizeof *wants);
      assert_non_null(wants);
      for (size_t s = 0; s < count; s++) {
        wants[s] = 0;
        test_repro_sum(values + s * length, length, OCL_REDUCE_F32, &wants[s]);
        wants[s] = bits_of(&wants[s], OCL_REDUCE_F32);
      }
      check_equal_segments(test_ctx, type, halves, count, length, wants, "segments", name);
      printf("# bits %-28s 0x%08llx\n", name, (unsigned long long)want);
      free(wants);
      free(halves);
      free(values);
    }
}

static void test_same_bits_everywhere_f16(void **state) {
  (void)state;
  same_bits_everywhere_narrow(OCL_REDUCE_F16);
}
static void test_same_bits_everywhere_bf16(void **state) {
  (void)state;
  same_bits_everywhere_narrow(OCL_REDUCE_BF16);
}

/* ---- Properties ---------------------------------------------------------------------------- */

static void shuffle(void *data, size_t n, size_t elem) {
  unsigned char tmp[8];
  for (size_t i = n - 1; i > 0; i--) {
    const size_t j = (size_t)test_rng_below(i + 1);
    memcpy(tmp, (char *)data + i * elem, elem);
    memcpy((char *)data + i * elem, (char *)data + j * elem, elem);
    memcpy((char *)data + j * elem, tmp, elem);
  }
}

/* Fresh data, shuffled: the same bits, which are the definition's. */
static void shuffled(ocl_reduce_type type) {
  if (type == OCL_REDUCE_F64 && !has_f64())
    return;
  const size_t elem = ocl_reduce_type_size(type);
  for (int k = 0; k < KIND_COUNT; k++) {
    const size_t n = 1 + (size_t)test_rng_below(test_light() ? 20000 : 300000);
    void *data = input((kind)k, type, n, test_rng_next());
    uint64_t first = 0, again = 0, want = 0;
    test_repro_sum(data, n, type, &want);
    assert_int_equal(
        ocl_reduce(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, type, data, n, &first, sizeof first),
        OCL_REDUCE_OK);
    shuffle(data, n, elem);
    assert_int_equal(
        ocl_reduce(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, type, data, n, &again, sizeof again),
        OCL_REDUCE_OK);
    expect_bits(bits_of(&first, type), bits_of(&want, type), "in order", kind_names[k]);
    expect_bits(bits_of(&again, type), bits_of(&want, type), "shuffled", kind_names[k]);
    free(data);
  }
}
static void test_shuffled_f32(void **state) {
  (void)state;
  shuffled(OCL_REDUCE_F32);
}
static void test_shuffled_f64(void **state) {
  (void)state;
  shuffled(OCL_REDUCE_F64);
}

/* Long chains of the largest pieces: f32 elements in [60, 64), the top of their bin, all
 * positive, so that every fold's accumulator takes nearly its largest piece, the same way, at
 * every deposit. Over 2^21 elements a work-item of the 96 of "wg=32,groups=3" takes thousands of
 * them: an accumulator that missed a flush would leave its binade (with orx_rp_chain_absorb's
 * flush removed, lib/orx_repro.cl, every other case here passed). Not lighter in light runs. */
static void test_long_chains(void **state) {
  (void)state;
  const size_t n = (size_t)1 << 21;
  float *x = malloc(n * sizeof *x);
  assert_non_null(x);
  uint64_t seed = 77;
  for (size_t i = 0; i < n; i++)
    x[i] = (float)(60 + 4 * unit(&seed));
  float want_value = 0;
  test_repro_sum(x, n, OCL_REDUCE_F32, &want_value);
  const uint64_t want = bits_of(&want_value, OCL_REDUCE_F32);
  check_whole(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F32, x, n, want, "automatic",
              "long chains");
  check_whole(shape_ctx[FEW_WORK_ITEMS], OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F32, x, n, want,
              shapes[FEW_WORK_ITEMS], "long chains");
  free(x);
}

static long double as_long_double(const void *value, ocl_reduce_type type) {
  return type == OCL_REDUCE_F32 ? (long double)*(const float *)value
                                : (long double)*(const double *)value;
}

/* Ill-conditioned data: within the header's bound of the exact sum, and no further from it than
 * the plain sum on the same device. */
static void accuracy(ocl_reduce_type type) {
  if (type == OCL_REDUCE_F64 && !has_f64())
    return;
  for (int k = KIND_CANCEL; k <= KIND_WIDE; k++) {
    const size_t n = test_light() ? 50000 : 1000000;
    void *data = input((kind)k, type, n, test_rng_next());
    long double max_abs = 0;
    const long double exact = test_exact_sum(data, n, type, &max_abs);
    uint64_t repro = 0, plain = 0;
    assert_int_equal(
        ocl_reduce(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, type, data, n, &repro, sizeof repro),
        OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce(test_ctx, OCL_REDUCE_SUM, type, data, n, &plain, sizeof plain),
                     OCL_REDUCE_OK);
    const long double r = as_long_double(&repro, type), p = as_long_double(&plain, type);
    const long double repro_error = fabsl(r - exact), plain_error = fabsl(p - exact);
    printf("# %s %s n=%zu: exact %.6Lg, error reproducible %.3Lg, plain sum %.3Lg\n",
           kind_names[k], ocl_reduce_type_name(type), n, exact, repro_error, plain_error);
    assert_true(repro_error <= test_repro_bound(n, type, max_abs, r));
    assert_true(repro_error <= plain_error);
    free(data);
  }
}
static void test_accuracy_f32(void **state) {
  (void)state;
  accuracy(OCL_REDUCE_F32);
}
static void test_accuracy_f64(void **state) {
  (void)state;
  accuracy(OCL_REDUCE_F64);
}

/* ---- Special values ------------------------------------------------------------------------ */

static uint64_t reduce_f32(const float *x, size_t n) {
  float r = -1;
  assert_int_equal(
      ocl_reduce(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F32, x, n, &r, sizeof r),
      OCL_REDUCE_OK);
  return bits_of(&r, OCL_REDUCE_F32);
}
static uint64_t reduce_f64(const double *x, size_t n) {
  double r = -1;
  assert_int_equal(
      ocl_reduce(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F64, x, n, &r, sizeof r),
      OCL_REDUCE_OK);
  return bits_of(&r, OCL_REDUCE_F64);
}

static void test_special_values(void **state) {
  (void)state;
  const float big = 3.0e38f, least = 0x1p-149f;
  const float nan_payload = -nanf("0x123");
  const float overflow[] = {big, big}, back[] = {big, big, -big}, infs[] = {INFINITY, -INFINITY};
  const float with_nan[] = {1, nan_payload, 2}, pos_inf[] = {1, INFINITY, big, big};
  const float zeros[] = {-0.0f, -0.0f}, denormals[] = {least, 3 * least, -least, 0x1p-127f};
  assert_int_equal(reduce_f32(overflow, 2), 0x7f800000);   /* the exact sum is beyond max */
  assert_int_equal(reduce_f32(back, 3), bits_of(&big, OCL_REDUCE_F32)); /* no overflow on the way */
  assert_int_equal(reduce_f32(infs, 2), 0x7fc00000);       /* +inf - inf */
  assert_int_equal(reduce_f32(with_nan, 3), 0x7fc00000);   /* NaN, whatever its payload */
  assert_int_equal(reduce_f32(pos_inf, 4), 0x7f800000);
  assert_int_equal(reduce_f32(zeros, 2), 0);               /* an exact zero is +0.0 */
  assert_int_equal(reduce_f32(zeros, 0), 0);
  float d = 0;
  const uint64_t denormal_sum = reduce_f32(denormals, 4);
  d = 0x1p-149f * 3 + 0x1p-127f;
  assert_int_equal(denormal_sum, bits_of(&d, OCL_REDUCE_F32));
  /* Halfway pieces round to even: with max |x| = 1 the lowest fold's unit is 2^-45 (f32: top bin
   * 11, e = 17, lowest fold e = -22), so pieces of 0.5, 0.5, 1.5 and 2.5 units give 0 + 0 + 2 + 2
   * units (away from zero: 7). */
  const float h = 0x1p-46f, halves[] = {1, h, -1, h, 3 * h, 5 * h};
  d = 0x1p-43f;
  assert_int_equal(reduce_f32(halves, 6), bits_of(&d, OCL_REDUCE_F32));
  if (!has_f64())
    return;
  /* f64: top bin 44, e = 34, lowest fold e = -38: the unit is 2^-90. */
  const double dh = 0x1p-91, dhalves[] = {1, dh, -1, dh, 3 * dh, 5 * dh};
  double dwant = 0x1p-88;
  assert_int_equal(reduce_f64(dhalves, 6), bits_of(&dwant, OCL_REDUCE_F64));
  const double dbig = 1.7e308, dinfs[] = {-INFINITY, 1, -INFINITY};
  const double dback[] = {dbig, dbig, -dbig, -1e-300}, dleast[] = {0x1p-1074, 0x1p-1074};
  double want = dbig - 1e-300;
  assert_int_equal(reduce_f64(dback, 4), bits_of(&want, OCL_REDUCE_F64));
  assert_int_equal(reduce_f64(dinfs, 3), 0xfff0000000000000ull);
  want = 0x1p-1073;
  assert_int_equal(reduce_f64(dleast, 2), bits_of(&want, OCL_REDUCE_F64));
  /* One element is itself, for every kind of finite value. */
  uint64_t seed = 7;
  for (int k = 0; k < KIND_COUNT; k++)
    for (int i = 0; i < 50; i++) {
      const float x = (float)value_of((kind)k, 0, OCL_REDUCE_F32, &seed);
      const double y = value_of((kind)k, 0, OCL_REDUCE_F64, &seed);
      assert_int_equal(reduce_f32(&x, 1), bits_of(&x, OCL_REDUCE_F32));
      assert_int_equal(reduce_f64(&y, 1), bits_of(&y, OCL_REDUCE_F64));
    }
}

/* The special values again, each in a 32-element segment of its own (the rest zeros), through
 * every segment strategy (the staged one leaves NaN and infinities to the folds; light runs: staged
 * and automatic). */
static void test_special_values_in_segments(void **state) {
  (void)state;
  const float big = 3.0e38f, least = 0x1p-149f, h = 0x1p-46f;
  const float cases[][6] = {{1, -nanf("0x123"), 2},
                            {INFINITY, -INFINITY},
                            {1, INFINITY, big, big},
                            {-INFINITY, 1},
                            {big, big},
                            {big, big, -big},
                            {big, -big, big, least},
                            {least, 3 * least, -least, 0x1p-127f},
                            {1, h, -1, h, 3 * h, 5 * h},
                            {-0.0f, -0.0f}};
  enum { CASES = sizeof cases / sizeof cases[0], LENGTH = 32 };
  float x[CASES * LENGTH], got[CASES];
  memset(x, 0, sizeof x);
  for (size_t c = 0; c < CASES; c++)
    for (size_t i = 0; i < 6; i++)
      x[c * LENGTH + 5 * i] = cases[c][i]; /* spread over the segment's vectors */
  for (size_t m = 0; m <= SEGMENT_MODES; m++) {
    if (test_light() && m != STAGED && m != SEGMENT_MODES)
      continue; /* light runs: staged and automatic */
    ocl_reduce_context *ctx = m < SEGMENT_MODES ? segment_ctx[m] : test_ctx;
    const char *way = m < SEGMENT_MODES ? segment_modes[m] : "automatic";
    assert_int_equal(ocl_reduce_segments(ctx, OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F32,
                                         ocl_reduce_host_input(x, TEST_BYTES(x)), CASES, LENGTH,
                                         ocl_reduce_host_output(got, TEST_BYTES(got))),
                     OCL_REDUCE_OK);
    for (size_t c = 0; c < CASES; c++) {
      float want = 0;
      test_repro_sum(x + c * LENGTH, LENGTH, OCL_REDUCE_F32, &want);
      char name[32];
      snprintf(name, sizeof name, "special segment %zu", c);
      expect_bits(bits_of(&got[c], OCL_REDUCE_F32), bits_of(&want, OCL_REDUCE_F32), way, name);
    }
  }
}

/* ocl_reduce_multi under cross_device: SUM is the reproducible sum, the others as they are. */
static void test_multi_cross_device(void **state) {
  (void)state;
  const size_t n = 100001;
  float *x = input(KIND_CANCEL, OCL_REDUCE_F32, n, 99);
  const ocl_reduce_op ops[] = {OCL_REDUCE_MAX, OCL_REDUCE_SUM, OCL_REDUCE_MIN};
  float got[3], want_sum, want_max = -INFINITY, want_min = INFINITY;
  assert_int_equal(ocl_reduce_multi(cross_ctx, ops, 3, OCL_REDUCE_F32,
                                    ocl_reduce_host_input(x, n * sizeof *x), n,
                                    ocl_reduce_host_output(got, TEST_BYTES(got))),
                   OCL_REDUCE_OK);
  test_repro_sum(x, n, OCL_REDUCE_F32, &want_sum);
  for (size_t i = 0; i < n; i++) {
    want_max = x[i] > want_max ? x[i] : want_max;
    want_min = x[i] < want_min ? x[i] : want_min;
  }
  assert_int_equal(bits_of(&got[1], OCL_REDUCE_F32), bits_of(&want_sum, OCL_REDUCE_F32));
  assert_true(got[0] == want_max && got[2] == want_min);
  free(x);
}

static void test_errors(void **state) {
  (void)state;
  const int i[] = {1, 2};
  int out = 7;
  expect_error(
      ocl_reduce(test_ctx, OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_I32, i, 2, &out, sizeof out),
      OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, test_ctx, "float types only");
  assert_int_equal(out, 7);
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.determinism = (ocl_reduce_determinism)7;
  ocl_reduce_context *ctx = NULL;
  expect_error(ocl_reduce_context_create(&opts, &ctx), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "opts->determinism");
  assert_null(ctx);
  setenv("OCL_REDUCE_DETERMINISM", "bitwise", 1);
  expect_error(ocl_reduce_context_create(NULL, &ctx), OCL_REDUCE_ERROR_INVALID_OPTION, NULL,
               "OCL_REDUCE_DETERMINISM");
  unsetenv("OCL_REDUCE_DETERMINISM");
  /* The option chosen in code wins over the environment. */
  setenv("OCL_REDUCE_DETERMINISM", "bitwise", 1);
  opts.determinism = OCL_REDUCE_RUN_TO_RUN;
  const ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  unsetenv("OCL_REDUCE_DETERMINISM");
  assert_int_equal(s, OCL_REDUCE_OK);
  ocl_reduce_context_destroy(ctx);
  assert_string_equal(ocl_reduce_op_name(OCL_REDUCE_SUM_REPRODUCIBLE), "sum_reproducible");
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_F64), 8);
  assert_int_equal(ocl_reduce_result_size(OCL_REDUCE_SUM_REPRODUCIBLE, OCL_REDUCE_U32), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_same_bits_everywhere_f32),
                                     cmocka_unit_test(test_same_bits_everywhere_f64),
                                     cmocka_unit_test(test_same_bits_everywhere_f16),
                                     cmocka_unit_test(test_same_bits_everywhere_bf16),
                                     cmocka_unit_test(test_shuffled_f32),
                                     cmocka_unit_test(test_shuffled_f64),
                                     cmocka_unit_test(test_long_chains),
                                     cmocka_unit_test(test_accuracy_f32),
                                     cmocka_unit_test(test_accuracy_f64),
                                     cmocka_unit_test(test_special_values),
                                     cmocka_unit_test(test_special_values_in_segments),
                                     cmocka_unit_test(test_multi_cross_device),
                                     cmocka_unit_test(test_errors)};
  return TEST_RUN(tests, setup, teardown);
}
