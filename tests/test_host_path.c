/* =================================================================================================
 * test_host_path.c: the host path of CPU devices (src/exec/host_run.c). Small arrays of host memory
 * reduce on the calling thread with the host plan, and the device runs the same plan under
 * OCL_REDUCE_POLICY=host=device: every built-in operator on every type it takes must give the same
 * bits both ways (sizes around the vector, chain and crossover boundaries; random data and the
 * special values), match the host references, and in cross-device mode give the definition's
 * bits. The calling thread ran a call exactly when the call copied nothing to the device
 * (ocl_reduce_context_info.bytes_to_device): arrays past the crossover, misaligned arrays and GPUs
 * copy. describe_plan says which plan runs where.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orx_contract.h"
#include "planner/host_plan.h"
#include "support/fixture.h"
#include "support/host_contexts.h"
#include "support/reference.h"
#include "support/repro_reference.h"

/* The host plan's crossovers (src/planner/host_plan.h): arrays of at most this many bytes, with a
 * scalar operator and with a state operator. */
/* The sizes the calling thread used to stop at, beyond one group of the host plan's grid. */
#define HOST_MAX_BYTES ((size_t)4 << 20)
#define HOST_MAX_STATE_BYTES ((size_t)256 << 10)

/* The calling thread runs host plans on host_ctx, the device on device_ctx; and in cross-device
 * mode. */
static test_host_contexts contexts;
static ocl_reduce_context *host_ctx, *device_ctx, *cross_ctx, *cross_device_ctx;
static int is_cpu, has_fp64;

static int setup(void **state) {
  if (test_setup(state) || test_host_contexts_open(&contexts))
    return -1;
  host_ctx = contexts.thread, device_ctx = contexts.device;
  cross_ctx = contexts.cross_thread, cross_device_ctx = contexts.cross_device;
  is_cpu = contexts.is_cpu, has_fp64 = contexts.has_fp64;
  return 0;
}

static int teardown(void **state) {
  test_host_contexts_close(&contexts);
  return test_teardown(state);
}

/* Reduces n elements at data on ctx into result (64 bytes, prefilled), and returns whether the
 * calling thread ran it (nothing went to the device). */
static int reduce_on(ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type,
                     const void *data, size_t n, unsigned char *result) {
  memset(result, 0xa5, 64);
  const uint64_t before = test_bytes_to_device(ctx);
  const ocl_reduce_status status = ocl_reduce(ctx, op, type, data, n, result, 64);
  if (status != OCL_REDUCE_OK)
    fail_msg("%s on %s, n=%zu: %s", ocl_reduce_op_name(op), ocl_reduce_type_name(type), n,
             ocl_reduce_last_error(ctx));
  return test_bytes_to_device(ctx) == before;
}

/* Whether two results are the same bits, but for which NaN (the headers promise no NaN's sign or
 * payload: x86 and the device's compiler may pick either operand's): floats word by word, the
 * words of the result's own type (MEAN_VAR's are doubles). */
static int same_result(const unsigned char *a, const unsigned char *b, size_t bytes,
                       ocl_reduce_op op, ocl_reduce_type type) {
  const int narrow = type == OCL_REDUCE_F16 || type == OCL_REDUCE_BF16; /* f32 sums, 16-bit MIN */
  const size_t word = narrow ? (bytes == 2 ? 2 : 4)
                      : type == OCL_REDUCE_F32 && op != OCL_REDUCE_MEAN_VAR ? 4
                                                                            : 8;
  for (size_t at = 0; at < bytes; at += word) {
    if (memcmp(a + at, b + at, word) == 0)
      continue;
    float fa = 0, fb = 0;
    double da = 0, db = 0;
    if (word == 2) {
      uint16_t ha, hb;
      memcpy(&ha, a + at, 2);
      memcpy(&hb, b + at, 2);
      fa = test_narrow_value(type, ha);
      fb = test_narrow_value(type, hb);
    } else if (word == 4) {
      memcpy(&fa, a + at, 4);
      memcpy(&fb, b + at, 4);
    } else {
      memcpy(&da, a + at, 8);
      memcpy(&db, b + at, 8);
    }
    const int both_nan = word <= 4 ? fa != fa && fb != fb : da != da && db != db;
    if (!both_nan)
      return 0;
  }
  return 1;
}

/* Whether the calling thread takes n elements of host memory on this device: on CPU devices, any
 * number (src/planner/host_plan.h). */
static int host_takes(size_t n) { return is_cpu && n > 0; }

/* The same bits from the calling thread and from the device; the calling thread ran it where
 * expected (on CPU devices, aligned arrays), the device elsewhere. */
static void check_same_bits(ocl_reduce_context *thread_ctx, ocl_reduce_context *dev_ctx,
                            ocl_reduce_op op, ocl_reduce_type type, const void *data, size_t n,
                            const char *mode, unsigned char *result) {
  unsigned char on_device[64];
  const int host_ran = reduce_on(thread_ctx, op, type, data, n, result);
  const int device_ran_host = reduce_on(dev_ctx, op, type, data, n, on_device);
  const size_t bytes = ocl_reduce_result_size(op, type);
  if (host_ran != host_takes(n) || device_ran_host)
    fail_msg("%s on %s, n=%zu: the calling thread ran it %s, with host=device %s",
             ocl_reduce_op_name(op), ocl_reduce_type_name(type), n, host_ran ? "yes" : "no",
             device_ran_host ? "yes" : "no");
  if (!same_result(result, on_device, bytes, op, type)) {
    char a[64], b[64];
    test_format((const test_value *)result, type, a, sizeof a);
    test_format((const test_value *)on_device, type, b, sizeof b);
    fail_msg("%s on %s, n=%zu, %s data: the calling thread gave %s, the device %s",
             ocl_reduce_op_name(op), ocl_reduce_type_name(type), n, mode, a, b);
  }
}

static const size_t sizes[] = {1,  2,  3,  4,  5,  7,   8,   9,    15,   16,    17,    31,
                               32, 33, 63, 64, 65, 127, 255, 1000, 4097, 65539, 100003};
#define SIZES (sizeof sizes / sizeof sizes[0])

/* Every built-in operator on every type it takes, every size, the modes that apply. */
static void test_same_bits_every_operator(void **state) {
  (void)state;
  const size_t max_n = 100003;
  void *data = malloc(max_n * 8);
  assert_non_null(data);
  unsigned char result[64];
  for (int i = 0; i < OCL_REDUCE_BUILTIN_OPS; i++) {
    const ocl_reduce_op op = OCL_REDUCE_BUILTIN_OP(i);
    if (test_light() && op != OCL_REDUCE_SUM && op != OCL_REDUCE_MAX && op != OCL_REDUCE_ARGMIN &&
        op != OCL_REDUCE_SUM_REPRODUCIBLE)
      continue;
    for (int t = 0; t < OCL_REDUCE_TYPE_COUNT; t++) {
      const ocl_reduce_type type = (ocl_reduce_type)t;
      if (!ocl_reduce_result_size(op, type) || (type == OCL_REDUCE_F64 && !has_fp64))
        continue;
      for (int m = 0; m < MODE_COUNT; m++) {
        const test_mode mode = (test_mode)m;
        if (!test_mode_applies(mode, type) || (test_light() && mode != MODE_RANDOM))
          continue;
        for (size_t s = 0; s < SIZES; s++) {
          const size_t n = sizes[s];
          test_fill(data, n, op, type, mode);
          check_same_bits(host_ctx, device_ctx, op, type, data, n, test_mode_name(mode), result);
          /* The scalar operators against the host reference too. */
          if (test_op_structured(op))
            continue;
          const test_reference ref = test_reduce_host(data, n, op, type, mode);
          char why[256];
          if (!test_matches((const test_value *)result, &ref, op, type, why, sizeof why))
            fail_msg("%s on %s, n=%zu, %s data: %s", ocl_reduce_op_name(op),
                     ocl_reduce_type_name(type), n, test_mode_name(mode), why);
        }
      }
    }
  }
  free(data);
}

/* Arrays whose groups read their runs side by side (ORX_STREAM_RUNS: ORX_HOST_PLAN_MAX_GROUPS
 * groups of at least ORX_HOST_PLAN_UNROLL runs of ORX_RUNS_MIN_VECTORS vectors of
 * ORX_HOST_PLAN_LOAD_BYTES, 32 MiB today), and one a vector a run below that: the same bits from
 * the calling thread and the device, and the host references. The sizes come from the library's
 * own constants, so that a change of the threshold moves the test with it. */
static void test_runs_side_by_side(void **state) {
  (void)state;
  const size_t run_step = (size_t)ORX_HOST_PLAN_MAX_GROUPS * ORX_HOST_PLAN_UNROLL *
                          ORX_HOST_PLAN_LOAD_BYTES; /* a vector more in every run */
  const size_t runs_bytes = run_step * ORX_RUNS_MIN_VECTORS;
  const ocl_reduce_type types[] = {OCL_REDUCE_F32, OCL_REDUCE_I32, OCL_REDUCE_F64, OCL_REDUCE_U64};
  const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MAX};
  void *data = malloc(runs_bytes + 4096);
  assert_non_null(data);
  unsigned char result[64];
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    const ocl_reduce_type type = types[t];
    if (type == OCL_REDUCE_F64 && !has_fp64)
      continue;
    const size_t elem = ocl_reduce_type_size(type);
    const size_t counts[] = {runs_bytes / elem + 13, (runs_bytes - run_step) / elem};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
      for (size_t c = 0; c < 2; c++) {
        const size_t n = counts[c];
        test_fill(data, n, ops[o], type, MODE_RANDOM);
        check_same_bits(host_ctx, device_ctx, ops[o], type, data, n, "random", result);
        const test_reference ref = test_reduce_host(data, n, ops[o], type, MODE_RANDOM);
        char why[256];
        if (!test_matches((const test_value *)result, &ref, ops[o], type, why, sizeof why))
          fail_msg("%s on %s, n=%zu: %s", ocl_reduce_op_name(ops[o]), ocl_reduce_type_name(type),
                   n, why);
      }
  }
  free(data);
}

/* Cross-device mode: SUM on floats is the reproducible sum, the definition's bits both ways. */
static void test_cross_device_bits(void **state) {
  (void)state;
  const size_t max_n = 100003;
  void *data = malloc(max_n * 8);
  assert_non_null(data);
  unsigned char result[64], expected[8];
  for (int t = OCL_REDUCE_F32; t <= OCL_REDUCE_F64; t++) {
    const ocl_reduce_type type = (ocl_reduce_type)t;
    if (type == OCL_REDUCE_F64 && !has_fp64)
      continue;
    for (test_mode mode = MODE_RANDOM; mode <= MODE_HUGE; mode++) {
      for (size_t s = 0; s < SIZES; s++) {
        const size_t n = sizes[s];
        test_fill(data, n, OCL_REDUCE_SUM, type, mode);
        check_same_bits(cross_ctx, cross_device_ctx, OCL_REDUCE_SUM, type, data, n,
                        test_mode_name(mode), result);
        test_repro_sum(data, n, type, expected);
        if (memcmp(result, expected, ocl_reduce_type_size(type)) != 0)
          fail_msg("cross-device sum on %s, n=%zu, %s data: not the definition's bits",
                   ocl_reduce_type_name(type), n, test_mode_name(mode));
      }
    }
  }
  free(data);
}

/* Large host arrays: around the sizes the calling thread used to stop at (4 MiB, 256 KiB), a
 * scalar and a state operator run on the host plan's grid on CPU devices, correct, and a float
 * sum over 2 and 3 groups with the bits of the device's run; the device also takes host arrays
 * into buffers, and misaligned arrays (through its aligned staging copy), with the host plan's
 * bits. */
static void test_crossover_and_alignment(void **state) {
  (void)state;
  const struct {
    ocl_reduce_op op;
    ocl_reduce_type type;
    size_t last;
  } cases[] = {{OCL_REDUCE_SUM, OCL_REDUCE_I32, HOST_MAX_BYTES / 4},
               {OCL_REDUCE_ARGMIN, OCL_REDUCE_I32, HOST_MAX_STATE_BYTES / 4}};
  unsigned char *bytes = malloc((HOST_MAX_BYTES / 4 + 2) * 4);
  assert_non_null(bytes);
  unsigned char result[64];
  for (size_t c = 0; c < 2; c++) {
    for (size_t n = cases[c].last; n <= cases[c].last + 1; n++) {
      test_fill(bytes, n, cases[c].op, cases[c].type, MODE_RANDOM);
      const int host_ran = reduce_on(host_ctx, cases[c].op, cases[c].type, bytes, n, result);
      if (host_ran != is_cpu)
        fail_msg("%s of %zu elements: the calling thread ran it %s",
                 ocl_reduce_op_name(cases[c].op), n, host_ran ? "yes" : "no");
      /* SUM against the exact sum; ARGMIN, on distinct-enough data, against the first minimum. */
      if (cases[c].op == OCL_REDUCE_SUM) {
        const test_reference ref =
            test_reduce_host(bytes, n, cases[c].op, cases[c].type, MODE_RANDOM);
        char why[256];
        if (!test_matches((const test_value *)result, &ref, cases[c].op, cases[c].type, why,
                          sizeof why))
          fail_msg("i32 sum of %zu elements: %s", n, why);
      } else {
        const int32_t *x = (const int32_t *)(void *)bytes;
        size_t first = 0;
        for (size_t i = 1; i < n; i++)
          first = x[i] < x[first] ? i : first;
        ocl_reduce_arg arg;
        memcpy(&arg, result, sizeof arg);
        if (arg.index != first || arg.value.i32 != x[first])
          fail_msg("i32 argmin of %zu elements: %d at %llu, expected %d at %zu", n, arg.value.i32,
                   (unsigned long long)arg.index, x[first], first);
      }
    }
  }
  /* A float sum over the grid's groups: the device's run of the same plan has its bits. */
  for (size_t n = (HOST_MAX_BYTES / 4) / 4 + 3; n <= HOST_MAX_BYTES / 4; n += HOST_MAX_BYTES / 8) {
    test_fill(bytes, n, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
    check_same_bits(host_ctx, device_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, bytes, n, "random",
                    result);
  }
  /* Into a buffer, host memory goes to the device with the host plan: the same bits. */
  ocl_reduce_buffer *out = NULL;
  assert_int_equal(ocl_reduce_buffer_create(host_ctx, 64, &out), OCL_REDUCE_OK);
  for (size_t n = 1; n <= 1001; n += 250) {
    test_fill(bytes, n, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
    unsigned char in_buffer[64];
    reduce_on(host_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, bytes, n, result);
    assert_int_equal(ocl_reduce_into(host_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                     ocl_reduce_host_input(bytes, n * 4), n,
                                     ocl_reduce_buffer_output(out, 0)),
                     OCL_REDUCE_OK);
    assert_int_equal(ocl_reduce_buffer_read(out, 0, in_buffer, 4), OCL_REDUCE_OK);
    if (!same_result(result, in_buffer, 4, OCL_REDUCE_SUM, OCL_REDUCE_F32))
      fail_msg("f32 sum of %zu elements into a buffer: not the host plan's bits", n);
  }
  ocl_reduce_buffer_destroy(out);
  /* Misaligned for its type, an array goes to the device with the host plan: the same bits. */
  static float aligned[1001];
  for (size_t n = 1; n <= 1001; n += 250) {
    /* Filled aligned, then copied one byte past an aligned address (a float * there would be
     * undefined behaviour in the test itself). */
    test_fill(aligned, n, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
    const unsigned char *misaligned = bytes + 1;
    memcpy(bytes + 1, aligned, n * sizeof aligned[0]);
    unsigned char on_device[64];
    if (reduce_on(host_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, misaligned, n, result))
      fail_msg("f32 sum of %zu misaligned elements: the calling thread ran it", n);
    reduce_on(device_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, misaligned, n, on_device);
    if (!same_result(result, on_device, 4, OCL_REDUCE_SUM, OCL_REDUCE_F32))
      fail_msg("f32 sum of %zu misaligned elements: not the host plan's bits", n);
  }
  free(bytes);
}

/* A buffer of a CPU device lives in host memory the library allocated, which the calling thread
 * reads in place into a host result: the host plan's bits, as from host memory, at any element
 * offset, up to its crossover (128 MiB: N is past the 512 KiB at which a buffer's result into a
 * buffer leaves the host plan); nothing is built (nothing launched). It waits for the work
 * enqueued before: a buffer the device is still writing (segment results) is read once written. */
static void test_buffers_on_the_calling_thread(void **state) {
  (void)state;
  enum { N = (1 << 20) + 5, OFFSET = 3 };
  float *data = malloc((N + OFFSET) * sizeof *data);
  assert_non_null(data);
  test_fill(data, N + OFFSET, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
  ocl_reduce_context *fresh = test_context_with_policy("host=thread");
  assert_non_null(fresh);
  /* The query itself builds the f32 sum on subgroup paths (its subgroup size): counted first. */
  const uint64_t builds_before = test_kernel_builds(fresh);
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(fresh, (N + OFFSET) * sizeof *data, &buf),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, data, (N + OFFSET) * sizeof *data),
                   OCL_REDUCE_OK);
  const size_t counts[] = {1, 17, 4097, 70001, N};
  for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
    for (size_t offset = 0; offset <= OFFSET; offset += OFFSET) {
      unsigned char from_buffer[64], from_host[64];
      memset(from_buffer, 0x5a, sizeof from_buffer);
      assert_int_equal(ocl_reduce_into(fresh, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                                       ocl_reduce_buffer_input(buf, offset), counts[k],
                                       ocl_reduce_host_output(from_buffer, sizeof from_buffer)),
                       OCL_REDUCE_OK);
      reduce_on(host_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, data + offset, counts[k], from_host);
      /* Elsewhere the device's plan splits a buffer at an element offset by its vectors, and
       * staged host memory from its start: the sum rounds in another order. */
      const test_reference ref =
          test_reduce_host(data + offset, counts[k], OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
      char why[256] = "not the host plan's bits";
      if (is_cpu ? !same_result(from_buffer, from_host, 4, OCL_REDUCE_SUM, OCL_REDUCE_F32)
                 : !test_matches((const test_value *)from_buffer, &ref, OCL_REDUCE_SUM,
                                 OCL_REDUCE_F32, why, sizeof why))
        fail_msg("f32 sum of %zu elements of a buffer from element %zu: %s", counts[k], offset,
                 why);
    }
  }
  /* The state operators whose host kernels read like scalar ones (ARGMIN, ARGMAX, MINMAX,
   * SUM_WIDE) up to the same crossover: past the 1 MiB at which the others stop, their bits as
   * from host memory, and none launched either (planner/host_plan.h). Elsewhere the exact ones
   * only (a GPU's plans for a buffer and for host memory may round SUM_WIDE in other orders). */
  static const ocl_reduce_op states[] = {OCL_REDUCE_ARGMIN, OCL_REDUCE_ARGMAX, OCL_REDUCE_MINMAX,
                                         OCL_REDUCE_SUM_WIDE};
  for (size_t o = 0; o < sizeof states / sizeof states[0] - !is_cpu; o++) {
    unsigned char from_buffer[64], from_host[64];
    memset(from_buffer, 0x5a, sizeof from_buffer);
    assert_int_equal(ocl_reduce_into(fresh, states[o], OCL_REDUCE_F32,
                                     ocl_reduce_buffer_input(buf, OFFSET), N,
                                     ocl_reduce_host_output(from_buffer, sizeof from_buffer)),
                     OCL_REDUCE_OK);
    reduce_on(host_ctx, states[o], OCL_REDUCE_F32, data + OFFSET, N, from_host);
    const size_t bytes = ocl_reduce_result_size(states[o], OCL_REDUCE_F32);
    if (memcmp(from_buffer, from_host, bytes) != 0)
      fail_msg("%s of %d f32 elements of a buffer: not the host plan's bits",
               ocl_reduce_op_name(states[o]), (int)N);
  }
  if (is_cpu && test_kernel_builds(fresh) != builds_before)
    fail_msg("reductions of a CPU device's buffer built %llu kernels: they launched",
             (unsigned long long)(test_kernel_builds(fresh) - builds_before));
  /* Segment sums of pairs into a buffer (enqueued), then that buffer reduced: every pair's sum. */
  enum { PAIRS = 5000 };
  int32_t *pairs = malloc(2 * PAIRS * sizeof *pairs);
  assert_non_null(pairs);
  int64_t expected = 0;
  for (size_t i = 0; i < 2 * PAIRS; i++)
    expected += pairs[i] = (int32_t)(i % 1000) - 300;
  ocl_reduce_buffer *sums = NULL;
  assert_int_equal(ocl_reduce_buffer_create(fresh, PAIRS * sizeof(int32_t), &sums), OCL_REDUCE_OK);
  for (int round = 0; round < 3; round++) {
    assert_int_equal(ocl_reduce_segments(fresh, OCL_REDUCE_SUM, OCL_REDUCE_I32,
                                         ocl_reduce_host_input(pairs, 2 * PAIRS * sizeof *pairs),
                                         PAIRS, 2, ocl_reduce_buffer_output(sums, 0)),
                     OCL_REDUCE_OK);
    int32_t total = 0;
    assert_int_equal(ocl_reduce_into(fresh, OCL_REDUCE_SUM, OCL_REDUCE_I32,
                                     ocl_reduce_buffer_input(sums, 0), PAIRS,
                                     ocl_reduce_host_output(&total, sizeof total)),
                     OCL_REDUCE_OK);
    assert_int_equal(total, (int32_t)expected);
    for (size_t i = 0; i < 2 * PAIRS; i++) /* the next round's sums differ */
      pairs[i] += 1;
    expected += 2 * PAIRS;
  }
  ocl_reduce_buffer_destroy(sums);
  ocl_reduce_buffer_destroy(buf);
  ocl_reduce_context_destroy(fresh);
  free(pairs);
  free(data);
}

/* One input's equal segments on CPU devices: on the calling thread from host memory into host
 * memory, scalar operators, segments of at least 32 f32 elements (one step of the host plan's
 * loads): nothing copied to the device, no kernel built, each segment the bits of ocl_reduce over
 * it alone. Shorter segments and host=off take the device's segment plans (state operators too:
 * test_planner), and so do segments below 128 elements where the device's plan reads the memory
 * where it lies (whole vectors: segment_views.c), as ocl_reduce_describe_plan says, and a
 * buffer's below 128 elements (from 128 on, the bits of each segment's own ocl_reduce); every
 * result against the host reference. */
/* Whether ocl_reduce_describe_plan says the calling thread runs segments from host memory. */
static int described_on_host(ocl_reduce_context *ctx, ocl_reduce_op op, size_t count,
                             size_t length) {
  char text[1024];
  assert_int_equal(ocl_reduce_describe_plan(ctx, op, OCL_REDUCE_F32, count * length, length, text,
                                            sizeof text),
                   OCL_REDUCE_OK);
  return strstr(text, "the calling thread runs it") != NULL;
}

static void test_segments_on_the_calling_thread(void **state) {
  (void)state;
  static const size_t lengths[] = {31, 32, 128, 1000};
  static const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MAX};
  enum { MOST = 70000 };
  float *data = malloc(MOST * sizeof *data);
  float *got = malloc(MOST * sizeof *got);
  assert_true(data && got);
  test_fill(data, MOST, OCL_REDUCE_SUM, OCL_REDUCE_F32, MODE_RANDOM);
  ocl_reduce_context *fresh = test_context_with_policy("host=thread");
  ocl_reduce_context *off = test_context_with_policy("host=off");
  assert_true(fresh && off);
  ocl_reduce_buffer *buf = NULL;
  assert_int_equal(ocl_reduce_buffer_create(fresh, MOST * sizeof *data, &buf), OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce_buffer_write(buf, 0, data, MOST * sizeof *data), OCL_REDUCE_OK);
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    const ocl_reduce_op op = ops[o];
    const size_t result = ocl_reduce_result_size(op, OCL_REDUCE_F32);
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      const size_t length = lengths[l], count = MOST / length;
      const size_t bytes = count * length * sizeof *data;
      for (int from = 0; from < 3; from++) { /* host memory, a buffer, host memory with host=off */
        ocl_reduce_context *ctx = from == 2 ? off : fresh;
        const uint64_t copied = test_bytes_to_device(ctx), builds = test_kernel_builds(ctx);
        if (ocl_reduce_segments(
                ctx, op, OCL_REDUCE_F32,
                from == 1 ? ocl_reduce_buffer_input(buf, 0) : ocl_reduce_host_input(data, bytes),
                count, length, ocl_reduce_host_output(got, count * sizeof *got)) != OCL_REDUCE_OK)
          fail_msg("%s, segments of %zu: %s", ocl_reduce_op_name(op), length,
                   ocl_reduce_last_error(ctx));
        const int thread_ran =
            test_bytes_to_device(ctx) == copied && test_kernel_builds(ctx) == builds;
        const int expected = is_cpu && (from == 1 ? length >= 128
                                                  : from == 0 &&
                                                        described_on_host(ctx, op, count, length));
        if (from == 0 && is_cpu && (length < 32 || length >= 128) && expected != (length >= 32))
          fail_msg("%s, segments of %zu: described as %son the calling thread",
                   ocl_reduce_op_name(op), length, expected ? "" : "not ");
        /* A buffer's run on the device copies nothing either: only host memory tells. */
        if (from != 1 && thread_ran != expected)
          fail_msg("%s, segments of %zu (%s): the calling thread ran them %s",
                   ocl_reduce_op_name(op), length, from == 1 ? "a buffer" : "host memory",
                   thread_ran ? "yes" : "no");
        for (size_t r = 0; r < count; r++) {
          const test_reference ref =
              test_reduce_host(data + r * length, length, op, OCL_REDUCE_F32, MODE_RANDOM);
          char why[256] = "";
          test_value value; /* a union of 8-byte alignment: the result copied in */
          memset(&value, 0, sizeof value);
          memcpy(&value, &got[r], sizeof got[r]);
          if (!test_matches(&value, &ref, op, OCL_REDUCE_F32, why, sizeof why))
            fail_msg("%s, segment %zu of %zu: %s", ocl_reduce_op_name(op), r, length, why);
          unsigned char alone[64];
          if (!expected || (r % 97 != 0 && r + 1 != count))
            continue;
          reduce_on(fresh, op, OCL_REDUCE_F32, data + r * length, length, alone);
          if (!same_result(alone, (const unsigned char *)&got[r], result, op, OCL_REDUCE_F32))
            fail_msg("segment %zu of %zu: not the bits of its own ocl_reduce", r, length);
        }
      }
    }
  }
  ocl_reduce_buffer_destroy(buf);
  ocl_reduce_context_destroy(fresh);
  ocl_reduce_context_destroy(off);
  free(data);
  free(got);
}

/* describe_plan names the host plan where it applies, and only there. */
static void test_describe_plan(void **state) {
  (void)state;
  char text[1024];
  const size_t counts[] = {1000, HOST_MAX_BYTES / 4, HOST_MAX_BYTES / 4 + 1};
  for (size_t k = 0; k < 3; k++) {
    assert_int_equal(ocl_reduce_describe_plan(host_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, counts[k],
                                              0, text, sizeof text),
                     OCL_REDUCE_OK);
    const int says_host = strstr(text, "calling thread") != NULL;
    if (says_host != is_cpu)
      fail_msg("describe_plan for %zu f32: \"%s\"", counts[k], text);
  }
  assert_int_equal(ocl_reduce_describe_plan(device_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, 1000, 0,
                                            text, sizeof text),
                   OCL_REDUCE_OK);
  if (is_cpu && !strstr(text, "host=device"))
    fail_msg("describe_plan under host=device: \"%s\"", text);
  /* test_ctx has host=off (the fixture's): the device's own plan. */
  assert_int_equal(ocl_reduce_describe_plan(test_ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, 1000, 0, text,
                                            sizeof text),
                   OCL_REDUCE_OK);
  if (strstr(text, "host memory"))
    fail_msg("describe_plan under host=off: \"%s\"", text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_bits_every_operator),
      cmocka_unit_test(test_cross_device_bits),
      cmocka_unit_test(test_runs_side_by_side),
      cmocka_unit_test(test_crossover_and_alignment),
      cmocka_unit_test(test_describe_plan),
      cmocka_unit_test(test_buffers_on_the_calling_thread),
      cmocka_unit_test(test_segments_on_the_calling_thread),
  };
  return TEST_RUN(tests, setup, teardown);
}
