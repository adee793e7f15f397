/* =================================================================================================
 * test_faults.c: the faults a device or driver produces, injected (src/exec/fault_inject.h) at
 * every site of a call in turn: the n-th device allocation, copy to or from the device, kernel
 * launch or wait fails, and the n-th host allocation, for n = 1, 2, ... until the call makes fewer
 * such calls than n. Each time the call returns the right result (it recovered) or the failure's
 * named status with a message, its host output's guard bytes untouched; and the same call right
 * after, unarmed, returns the right result: the context still works. Every form: host and buffer
 * memory, enqueued calls, segments, offsets, windows, multi, parts, reduce by key (host memory,
 * buffers with a run per pair and with exactly the runs, a user operator's runs' starts and
 * segments), a user operator's first use;
 * and a group whose second device fails, once at each site or at every call (lost); and the calls
 * that make contexts, buffers, operators and groups under each host allocation's failure.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/util.h"
#include "exec/context.h"
#include "exec/fault_inject.h"
#include "ocl_reduce_group.h"
#include "planner/plan_by_key.h"
#include "support/custom_ops.h"
#include "support/fixture.h"
#include "support/structured.h"

enum { N = 100003, GUARD = 32, MOST_SITES = 200 };

static float floats[N];
static int32_t ints[N];
static uint32_t squares_data[N];
static ocl_reduce_operator *squares;

/* One form's call: writes its results (bytes of them) to out. */
typedef struct form {
  const char *name;
  size_t bytes;
  ocl_reduce_status (*call)(ocl_reduce_context *ctx, unsigned char *out, size_t bytes);
} form;

static ocl_reduce_status whole_host(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  return ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, floats, N, out, bytes);
}

static ocl_reduce_status small_host(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  return ocl_reduce(ctx, OCL_REDUCE_ARGMIN, OCL_REDUCE_I32, ints, 77, out, bytes);
}

/* The buffers are made inside the call: their allocations and copies are sites too. */
static ocl_reduce_status buffer_enqueued(ocl_reduce_context *ctx, unsigned char *out,
                                         size_t bytes) {
  ocl_reduce_buffer *in = NULL, *results = NULL;
  ocl_reduce_status s = ocl_reduce_buffer_create(ctx, sizeof floats, &in);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_write(in, 0, floats, sizeof floats);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_create(ctx, 64, &results);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_into(ctx, OCL_REDUCE_MAX, OCL_REDUCE_F32, ocl_reduce_buffer_input(in, 3), N - 3,
                        ocl_reduce_buffer_output(results, 1));
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_finish(ctx);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_read(results, 4, out, bytes);
  ocl_reduce_buffer_destroy(results);
  ocl_reduce_buffer_destroy(in);
  return s;
}

static ocl_reduce_status segments(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  return ocl_reduce_segments(ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32,
                             ocl_reduce_host_input(ints, sizeof ints), 1000, 37,
                             ocl_reduce_host_output(out, bytes));
}

static ocl_reduce_status offsets(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  static const uint64_t at[] = {0, 5, 5, 900, 4000, 50000, N};
  return ocl_reduce_segments_offsets(
      ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, ocl_reduce_host_input(ints, sizeof ints), 6,
      ocl_reduce_host_input(at, sizeof at), ocl_reduce_host_output(out, bytes));
}

static ocl_reduce_status windows(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  return ocl_reduce_windows(ctx, OCL_REDUCE_MIN, OCL_REDUCE_I32,
                            ocl_reduce_host_input(ints, 5000 * sizeof ints[0]), 5000, 100,
                            ocl_reduce_host_output(out, bytes));
}

static ocl_reduce_status multi(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  static const ocl_reduce_op ops[] = {OCL_REDUCE_SUM, OCL_REDUCE_MIN, OCL_REDUCE_ARGMAX};
  return ocl_reduce_multi(ctx, ops, 3, OCL_REDUCE_F32, ocl_reduce_host_input(floats, sizeof floats),
                          N, ocl_reduce_host_output(out, bytes));
}

static ocl_reduce_status parts(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  int64_t states[2];
  ORX_FORWARD(ocl_reduce_partial(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64,
                                 ocl_reduce_host_input(ints, 20000 * 4), 10000, 0,
                                 ocl_reduce_host_output(&states[0], 8)));
  ORX_FORWARD(ocl_reduce_partial(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64,
                                 ocl_reduce_host_input(ints + 20000, 20000 * 4), 10000, 10000,
                                 ocl_reduce_host_output(&states[1], 8)));
  return ocl_reduce_final(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64,
                          ocl_reduce_host_input(states, sizeof states), 2,
                          ocl_reduce_host_output(out, bytes));
}

static ocl_reduce_status user_operator(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  return ocl_reduce_into(ctx, squares, OCL_REDUCE_OP_ELEMENT,
                         ocl_reduce_host_input(squares_data, sizeof squares_data), N,
                         ocl_reduce_host_output(out, bytes));
}

/* Reduce by key: the keys' runs of 37 (RUNS of them), each run's key written to run_keys and the
 * run count checked (a wrong count fails as no injected fault does). */
enum { RUN_LENGTH = 37, RUNS = (N + RUN_LENGTH - 1) / RUN_LENGTH, MOST_BYTES = RUNS * 8 };
static int32_t run_of[N], run_keys[RUNS];

static ocl_reduce_status runs_checked(ocl_reduce_status s, uint64_t runs) {
  return s == OCL_REDUCE_OK && runs != RUNS ? OCL_REDUCE_ERROR_INTERNAL : s;
}

/* In host memory: the one pass into scratch of the outputs' room, its count read, the runs read
 * back. */
static ocl_reduce_status by_key_host(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  uint64_t runs = 0;
  const ocl_reduce_status s = ocl_reduce_by_key(
      ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, OCL_REDUCE_I32,
      ocl_reduce_host_input(run_of, sizeof run_of), ocl_reduce_host_input(ints, sizeof ints), N,
      ocl_reduce_host_output(run_keys, sizeof run_keys), ocl_reduce_host_output(out, bytes),
      &runs);
  return runs_checked(s, runs);
}

/* In buffers made inside the call, the outputs holding a run per pair (enqueued), or exactly the
 * runs (the one pass into scratch, its count read, the runs copied into them on the device). */
static ocl_reduce_status by_key_in_buffers(ocl_reduce_context *ctx, unsigned char *out,
                                           size_t bytes, size_t room) {
  ocl_reduce_buffer *k = NULL, *v = NULL, *ko = NULL, *vo = NULL;
  uint64_t runs = 0;
  ocl_reduce_status s = ocl_reduce_buffer_create(ctx, sizeof run_of, &k);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_write(k, 0, run_of, sizeof run_of);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_create(ctx, sizeof ints, &v);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_write(v, 0, ints, sizeof ints);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_create(ctx, room * sizeof run_of[0], &ko);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_create(ctx, room * sizeof ints[0], &vo);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_by_key(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, OCL_REDUCE_I32,
                          ocl_reduce_buffer_input(k, 0), ocl_reduce_buffer_input(v, 0), N,
                          ocl_reduce_buffer_output(ko, 0), ocl_reduce_buffer_output(vo, 0), &runs);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_finish(ctx);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_read(vo, 0, out, bytes);
  ocl_reduce_buffer_destroy(vo), ocl_reduce_buffer_destroy(ko);
  ocl_reduce_buffer_destroy(v), ocl_reduce_buffer_destroy(k);
  return runs_checked(s, runs);
}

static ocl_reduce_status by_key_buffers(ocl_reduce_context *ctx, unsigned char *out,
                                        size_t bytes) {
  return by_key_in_buffers(ctx, out, bytes, N);
}

static ocl_reduce_status by_key_exact(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  return by_key_in_buffers(ctx, out, bytes, RUNS);
}

/* A user operator: the runs' starts found by the pass, then their segments reduced. */
static ocl_reduce_status by_key_user(ocl_reduce_context *ctx, unsigned char *out, size_t bytes) {
  uint64_t runs = 0;
  const ocl_reduce_status s = ocl_reduce_by_key(
      ctx, squares, OCL_REDUCE_OP_ELEMENT, OCL_REDUCE_I32,
      ocl_reduce_host_input(run_of, sizeof run_of),
      ocl_reduce_host_input(squares_data, sizeof squares_data), N,
      ocl_reduce_host_output(run_keys, sizeof run_keys), ocl_reduce_host_output(out, bytes),
      &runs);
  return runs_checked(s, runs);
}

static const form forms[] = {
    {"whole array from host memory", 4, whole_host},
    {"a small argmin", sizeof(ocl_reduce_arg), small_host},
    {"buffer to buffer, enqueued", 4, buffer_enqueued},
    {"segments", 1000 * 4, segments},
    {"segments by offsets", 6 * 4, offsets},
    {"windows", 4901 * 4, windows},
    {"multi", 3 * sizeof(ocl_reduce_arg), multi},
    {"in parts", 8, parts},
    {"a user operator", 8, user_operator},
    {"reduce by key in host memory", RUNS * 4, by_key_host},
    {"reduce by key in buffers, enqueued", RUNS * 4, by_key_buffers},
    {"reduce by key into buffers of exactly the runs", RUNS * 4, by_key_exact},
    {"reduce by key with a user operator", RUNS * 8, by_key_user},
};

/* The faults a sweep injects: a device's, of each kind (exec/fault_inject.h), and the host's
 * allocations (base/util.h's orx_host_fault_arm), which count process-wide. */
#define HOST_ALLOCATION ORX_FAULT_KINDS
static const char *const kind_names[ORX_FAULT_KINDS + 1] = {"allocation", "write", "read",
                                                            "launch", "wait", "host allocation"};

static void arm(ocl_reduce_context *ctx, int kind, uint64_t n) {
  if (kind == HOST_ALLOCATION)
    orx_host_fault_arm(n);
  else
    assert_int_equal(orx_fault_arm(ctx, (orx_fault_kind)kind, n, NULL), OCL_REDUCE_OK);
}

/* Disarms; returns whether the fault struck, and the calls of its kind since the arming. */
static int disarm(ocl_reduce_context *ctx, int kind, uint64_t *calls) {
  if (kind == HOST_ALLOCATION) {
    const int struck = orx_host_fault_struck();
    *calls = orx_host_fault_arm(0);
    return struck;
  }
  const int struck = orx_fault_struck(ctx);
  assert_int_equal(orx_fault_arm(ctx, (orx_fault_kind)kind, 0, calls), OCL_REDUCE_OK);
  return struck;
}

/* Whether a failed call's status and message are the injected fault's. */
static int fault_reported(ocl_reduce_context *ctx, int kind, ocl_reduce_status s) {
  if (kind == HOST_ALLOCATION)
    return s == OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY && ocl_reduce_last_error(ctx)[0] != '\0';
  /* Not blamed on a user operator's text (user_operator.c: only build failures are). */
  return (s == OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY || s == OCL_REDUCE_ERROR_BACKEND) &&
         strstr(ocl_reduce_last_error(ctx), "injected fault") &&
         !strstr(ocl_reduce_last_error(ctx), "does not compile");
}

/* Reduce by key leaves a one pass it finds no device memory for to the runs found on the host
 * (run_by_key.c): a built-in operator's call from host memory, whose every device allocation is
 * the pass's where the device takes it, recovers from each one's fault (a user operator's first
 * call allocates for its probe before). */
static int recovers_from_allocations(ocl_reduce_context *ctx, const form *f) {
  orx_request request = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_I32);
  request.entry = ORX_ENTRY_BY_KEY;
  request.key_bytes = 4;
  return f->call == by_key_host &&
         orx_plan_by_key_pass(&ctx->target, &request) == ORX_BY_KEY_PASS;
}

/* Sweeps the fault over every site of kind in the form's call, each time on a fresh context, so
 * that the first call's allocations are sites too. */
static void sweep(const form *f, int kind, const unsigned char *right, int *sites) {
  unsigned char out[MOST_BYTES + 2 * GUARD];
  for (uint64_t n = 1; n <= MOST_SITES; n++) {
    ocl_reduce_context *ctx = test_context_create();
    assert_non_null(ctx);
    memset(out, 0xa5, sizeof out);
    arm(ctx, kind, n);
    const ocl_reduce_status s = f->call(ctx, out + GUARD, f->bytes);
    uint64_t calls = 0;
    const int struck = disarm(ctx, kind, &calls);
    for (size_t i = 0; i < GUARD; i++)
      if (out[i] != 0xa5 || out[GUARD + f->bytes + i] != 0xa5)
        fail_msg("%s, %s fault %llu: bytes around the output written", f->name, kind_names[kind],
                 (unsigned long long)n);
    if (s != OCL_REDUCE_OK && kind == ORX_FAULT_ALLOC && recovers_from_allocations(ctx, f))
      fail_msg("%s, %s fault %llu: %s, where the runs found on the host recover: %s", f->name,
               kind_names[kind], (unsigned long long)n, ocl_reduce_status_name(s),
               ocl_reduce_last_error(ctx));
    if (s == OCL_REDUCE_OK) {
      if (memcmp(out + GUARD, right, f->bytes) != 0)
        fail_msg("%s, %s fault %llu (%s): OK with a wrong result", f->name, kind_names[kind],
                 (unsigned long long)n, struck ? "struck" : "not reached");
    } else {
      if (!struck || !fault_reported(ctx, kind, s))
        fail_msg("%s, %s fault %llu: %s: %s", f->name, kind_names[kind], (unsigned long long)n,
                 ocl_reduce_status_name(s), ocl_reduce_last_error(ctx));
      /* The context still works: the same call, unarmed. */
      memset(out, 0xa5, sizeof out);
      assert_int_equal(f->call(ctx, out + GUARD, f->bytes), OCL_REDUCE_OK);
      assert_memory_equal(out + GUARD, right, f->bytes);
    }
    ocl_reduce_context_destroy(ctx);
    if (!struck) { /* n is past the call's last site of this kind */
      *sites += (int)calls;
      return;
    }
  }
  fail_msg("%s: more than %d %s calls", f->name, MOST_SITES, kind_names[kind]);
}

static void test_every_fault_at_every_site(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
    const form *f = &forms[k];
    /* Filled as the sweep's outputs are: bytes a result does not cover (a multi slot's) too. */
    unsigned char right[MOST_BYTES];
    memset(right, 0xa5, sizeof right);
    assert_int_equal(f->call(test_ctx, right, f->bytes), OCL_REDUCE_OK);
    int sites = 0, host_sites = 0;
    for (int kind = 0; kind < HOST_ALLOCATION; kind++)
      sweep(f, kind, right, &sites);
    sweep(f, HOST_ALLOCATION, right, &host_sites);
    /* Every form allocates host memory on its first call (programs, scratch records). */
    assert_true(host_sites > 0);
    print_message("# %s: %d device sites and %d host allocations, each failed in turn\n",
                  f->name, sites, host_sites);
  }
}

/* A user operator whose first use fails mid-way (its program build, its size probe) is built
 * again by the next use: the first call of a fresh operator under each fault. */
static void test_first_use_of_an_operator(void **state) {
  (void)state;
  const unsigned char *data = (const unsigned char *)squares_data;
  uint64_t want = 0;
  test_custom_reference(TEST_SQUARES, data, N, &want);
  for (int kind = 0; kind < ORX_FAULT_KINDS; kind++)
    for (uint64_t n = 1; n <= 8; n++) {
      ocl_reduce_operator *fresh = NULL;
      assert_int_equal(ocl_reduce_operator_create(&test_custom_descs[TEST_SQUARES], &fresh),
                       OCL_REDUCE_OK);
      assert_int_equal(orx_fault_arm(test_ctx, (orx_fault_kind)kind, n, NULL), OCL_REDUCE_OK);
      uint64_t got = 0;
      const ocl_reduce_status s = ocl_reduce_into(test_ctx, fresh, OCL_REDUCE_OP_ELEMENT,
                                                  ocl_reduce_host_input(data, sizeof squares_data),
                                                  N, ocl_reduce_host_output(&got, sizeof got));
      assert_int_equal(orx_fault_arm(test_ctx, (orx_fault_kind)kind, 0, NULL), OCL_REDUCE_OK);
      assert_true(s == OCL_REDUCE_OK || s == OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY ||
                  s == OCL_REDUCE_ERROR_BACKEND);
      if (s == OCL_REDUCE_OK)
        assert_true(got == want);
      got = 0;
      assert_int_equal(ocl_reduce_into(test_ctx, fresh, OCL_REDUCE_OP_ELEMENT,
                                       ocl_reduce_host_input(data, sizeof squares_data), N,
                                       ocl_reduce_host_output(&got, sizeof got)),
                       OCL_REDUCE_OK);
      assert_true(got == want);
      ocl_reduce_operator_destroy(fresh);
    }
}

/* A device of a group fails at each site in turn, or keeps failing (lost): the group's call
 * returns the named status (or the right sum), never hangs, and works again once the device
 * does. The group is two contexts on the device (as the group tests stand in for two devices). */
static void test_a_device_of_a_group_fails(void **state) {
  (void)state;
  /* part_kib: parts of 64 KiB are worth a device here (the default least part is 64 MiB). */
  ocl_reduce_context *contexts[2] = {test_context_with_policy("part_kib=64"),
                                     test_context_with_policy("part_kib=64")};
  assert_true(contexts[0] && contexts[1]);
  ocl_reduce_group *group = NULL;
  assert_int_equal(ocl_reduce_group_create_from(contexts, 2, &group), OCL_REDUCE_OK);
  enum { COUNT = 1 << 20 };
  uint64_t *values = malloc(COUNT * sizeof *values), want = 0, got = 0;
  assert_non_null(values);
  for (size_t i = 0; i < COUNT; i++)
    want += values[i] = test_rng_next();
  const ocl_reduce_input input = ocl_reduce_host_input(values, COUNT * sizeof *values);
  int sites = 0;
  for (int kind = 0; kind < ORX_FAULT_KINDS; kind++)
    for (uint64_t n = 1; n <= MOST_SITES; n++) {
      assert_int_equal(orx_fault_arm(contexts[1], (orx_fault_kind)kind, n, NULL), OCL_REDUCE_OK);
      got = 0;
      const ocl_reduce_status s = ocl_reduce_group_reduce(
          group, OCL_REDUCE_SUM, OCL_REDUCE_I64, input, COUNT, ocl_reduce_host_output(&got, 8));
      const int struck = orx_fault_struck(contexts[1]);
      assert_int_equal(orx_fault_arm(contexts[1], (orx_fault_kind)kind, 0, NULL), OCL_REDUCE_OK);
      if (s == OCL_REDUCE_OK)
        assert_true(got == want);
      else
        assert_true(struck &&
                    (s == OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY || s == OCL_REDUCE_ERROR_BACKEND));
      got = 0;
      assert_int_equal(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_I64, input, COUNT,
                                               ocl_reduce_host_output(&got, 8)),
                       OCL_REDUCE_OK);
      assert_true(got == want);
      if (!struck)
        break;
      sites++;
    }
  /* Lost: every launch fails, call after call. */
  for (int call = 0; call < 3; call++) {
    assert_int_equal(orx_fault_arm(contexts[1], ORX_FAULT_LAUNCH, 1, NULL), OCL_REDUCE_OK);
    expect_error(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_I64, input, COUNT,
                                         ocl_reduce_host_output(&got, 8)),
                 OCL_REDUCE_ERROR_BACKEND, NULL, "injected fault");
  }
  assert_int_equal(orx_fault_arm(contexts[1], ORX_FAULT_LAUNCH, 0, NULL), OCL_REDUCE_OK);
  got = 0;
  assert_int_equal(ocl_reduce_group_reduce(group, OCL_REDUCE_SUM, OCL_REDUCE_I64, input, COUNT,
                                           ocl_reduce_host_output(&got, 8)),
                   OCL_REDUCE_OK);
  assert_true(got == want);
  assert_true(sites > 0);
  print_message("# a group's second device: %d sites, each failed in turn; lost, 3 calls\n", sites);
  free(values);
  ocl_reduce_group_destroy(group);
  ocl_reduce_context_destroy(contexts[1]);
  ocl_reduce_context_destroy(contexts[0]);
}

/* The calls that make objects, under each host allocation's failure in turn: a context, a
 * buffer, a user operator, a group of two devices. Each returns OUT_OF_HOST_MEMORY with a
 * message and leaves *out NULL, or makes a working object (LeakSanitizer, in CI's sanitizer
 * run, finds what a failure path would leave behind). */
static ocl_reduce_status make_context(void **out) {
  return ocl_reduce_context_create(NULL, (ocl_reduce_context **)out);
}
static ocl_reduce_status make_buffer(void **out) {
  return ocl_reduce_buffer_create(test_ctx, 4096, (ocl_reduce_buffer **)out);
}
static ocl_reduce_status make_operator(void **out) {
  return ocl_reduce_operator_create(&test_custom_descs[TEST_SQUARES],
                                    (ocl_reduce_operator **)out);
}
static ocl_reduce_context *pair[2]; /* the group's two devices (contexts on one) */
static ocl_reduce_status make_group(void **out) {
  return ocl_reduce_group_create_from(pair, 2, (ocl_reduce_group **)out);
}

static void destroy_made(int maker, void *made) {
  switch (maker) {
  case 0: ocl_reduce_context_destroy(made); break;
  case 1: ocl_reduce_buffer_destroy(made); break;
  case 2: ocl_reduce_operator_destroy(made); break;
  default: ocl_reduce_group_destroy(made); break;
  }
}

static void test_makers_under_host_allocation_faults(void **state) {
  (void)state;
  static const struct {
    const char *name;
    ocl_reduce_status (*make)(void **out);
  } makers[] = {{"a context", make_context},
                {"a buffer", make_buffer},
                {"an operator", make_operator},
                {"a group", make_group}};
  pair[0] = test_context_create();
  pair[1] = test_context_create();
  assert_true(pair[0] && pair[1]);
  for (int m = 0; m < 4; m++) {
    uint64_t n = 1, calls = 0;
    for (;; n++) {
      void *made = NULL;
      orx_host_fault_arm(n);
      const ocl_reduce_status s = makers[m].make(&made);
      const int struck = orx_host_fault_struck();
      calls = orx_host_fault_arm(0);
      if (s != OCL_REDUCE_OK) {
        if (!struck || s != OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY || made)
          fail_msg("%s, host allocation %llu: %s: %s", makers[m].name, (unsigned long long)n,
                   ocl_reduce_status_name(s), ocl_reduce_last_error(NULL));
      } else {
        assert_non_null(made);
        destroy_made(m, made);
      }
      if (!struck)
        break;
      assert_true(n < MOST_SITES);
    }
    assert_true(calls > 0);
    print_message("# making %s: %llu host allocations, each failed in turn\n", makers[m].name,
                  (unsigned long long)calls);
  }
  ocl_reduce_context_destroy(pair[1]);
  ocl_reduce_context_destroy(pair[0]);
}

static int setup(void **state) {
  if (test_setup(state))
    return -1;
  for (size_t i = 0; i < N; i++) {
    floats[i] = (float)(2 * test_rng_unit() - 1);
    ints[i] = (int32_t)test_rng_below(2000001) - 1000000;
    run_of[i] = (int32_t)(i / RUN_LENGTH) * 7;
  }
  test_custom_fill(TEST_SQUARES, squares_data, N);
  return ocl_reduce_operator_create(&test_custom_descs[TEST_SQUARES], &squares) == OCL_REDUCE_OK
             ? 0
             : -1;
}

static int teardown(void **state) {
  ocl_reduce_operator_destroy(squares);
  return test_teardown(state);
}

int main(void) {
  /* Every context here builds through the library's program cache, whose reads and writes fail
   * too: on PoCL as well, whose programs it leaves to PoCL's own cache otherwise. */
  test_policy_prepend("binaries=1");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_fault_at_every_site),
      cmocka_unit_test(test_first_use_of_an_operator),
      cmocka_unit_test(test_a_device_of_a_group_fails),
      cmocka_unit_test(test_makers_under_host_allocation_faults),
  };
  return TEST_RUN(tests, setup, teardown);
}
