/* =================================================================================================
 * fuzz.c: what the fuzzer's drivers share (fuzz.h): a run's context, user operators and group,
 * each case's generator, and the reporting of failures with the command that replays them. The
 * drivers: fuzz_main.c (one process, every form of one context and a group) and fuzz_mpi.c (the
 * MPI component's forms, under mpiexec).
 * ============================================================================================== */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz/fuzz.h"
#include "support/fixture.h"

enum { PRINTED_FAILURES = 20 };

const char *fuzz_program = "test_fuzz";
const char *fuzz_launcher = "";

double fuzz_seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The environment that selects the context, as the replay command must give it. */
static void print_replay(const fuzz_run *run) {
  static const char *const names[] = {"OCL_REDUCE_BACKEND", "OCL_REDUCE_DEVICE",
                                      "OCL_REDUCE_PATH",    "OCL_REDUCE_SUBGROUP",
                                      "OCL_REDUCE_POLICY",  "OCL_REDUCE_DETERMINISM"};
  printf("  replay:");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const char *value = getenv(names[i]);
    if (value && value[0])
      printf(" %s='%s'", names[i], value);
  }
  printf(" %s%s --seed %llu --case %llu\n", fuzz_launcher, fuzz_program,
         (unsigned long long)run->seed, (unsigned long long)run->case_number);
}

void fuzz_fail(fuzz_run *run, const char *format, ...) {
  if (++run->mismatches > PRINTED_FAILURES)
    return;
  printf("FAIL case %llu (%s): ", (unsigned long long)run->case_number, run->what);
  va_list args;
  va_start(args, format);
  vprintf(format, args);
  va_end(args);
  printf("\n");
  print_replay(run);
  fflush(stdout);
}

int fuzz_call_ok(fuzz_run *run, ocl_reduce_status status, const char *call) {
  if (status == OCL_REDUCE_OK)
    return 1;
  if (status == OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION) {
    if (run->unsupported++ < PRINTED_FAILURES)
      printf("# unsupported, case %llu (%s): %s\n", (unsigned long long)run->case_number, run->what,
             ocl_reduce_last_error(run->ctx));
    return 0;
  }
  fuzz_fail(run, "%s returned %s: %s", call, ocl_reduce_status_name(status),
            ocl_reduce_last_error(strstr(call, "_group_") ? NULL : run->ctx));
  return 0;
}

int fuzz_on_group(fuzz_run *run, int all_host) {
  if (!run->group || !all_host || test_rng_below(3) != 0)
    return 0;
  run->on_group++;
  const size_t used = strlen(run->what);
  snprintf(run->what + used, sizeof run->what - used, ", on a group of %d", FUZZ_GROUP_SIZE);
  return 1;
}

static int create_group(fuzz_run *run) {
  for (int d = 0; d < FUZZ_GROUP_SIZE; d++)
    if (!(run->members[d] = test_context_with_policy("part_kib=1")))
      return 0;
  return ocl_reduce_group_create_from(run->members, FUZZ_GROUP_SIZE, &run->group) == OCL_REDUCE_OK;
}

static void destroy_group(fuzz_run *run) {
  ocl_reduce_group_destroy(run->group);
  for (int d = 0; d < FUZZ_GROUP_SIZE; d++)
    ocl_reduce_context_destroy(run->members[d]);
}

void fuzz_seed_case(uint64_t seed, uint64_t k) {
  test_rng_seed(seed ^ (k * 0xd1b54a32d192ed03u));
  (void)test_rng_next();
}

static int create_operators(fuzz_run *run) {
  for (int w = 0; w < TEST_ORDERED_COUNT; w++)
    if ((w != TEST_AFFINE || run->has_fp64) &&
        ocl_reduce_operator_create(&test_ordered_descs[w], &run->ordered[w]) != OCL_REDUCE_OK)
      return 0;
  for (int w = 0; w < TEST_CUSTOM_COUNT; w++)
    if (ocl_reduce_operator_create(&test_custom_descs[w], &run->custom[w]) != OCL_REDUCE_OK)
      return 0;
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++)
    if (ocl_reduce_operator_create(&test_user_pair_descs[w], &run->user_pairs[w]) !=
        OCL_REDUCE_OK)
      return 0;
  return 1;
}

static void destroy_operators(fuzz_run *run) {
  for (int w = 0; w < TEST_ORDERED_COUNT; w++)
    ocl_reduce_operator_destroy(run->ordered[w]);
  for (int w = 0; w < TEST_CUSTOM_COUNT; w++)
    ocl_reduce_operator_destroy(run->custom[w]);
  for (int w = 0; w < TEST_USER_PAIR_COUNT; w++)
    ocl_reduce_operator_destroy(run->user_pairs[w]);
}

int fuzz_run_open(fuzz_run *run, uint64_t seed, int with_group) {
  memset(run, 0, sizeof *run);
  run->seed = seed;
  run->ctx = test_context_create();
  if (!run->ctx)
    return 0;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  const int queried = ocl_reduce_context_query(run->ctx, &info) == OCL_REDUCE_OK;
  run->has_fp64 = info.has_fp64;
  if (!queried || !create_operators(run) || (with_group && !create_group(run))) {
    fprintf(stderr, "fuzz: setup failed: %s\n", ocl_reduce_last_error(run->ctx));
    return 0;
  }
  return 1;
}

void fuzz_run_close(fuzz_run *run) {
  destroy_operators(run);
  destroy_group(run);
  ocl_reduce_context_destroy(run->ctx);
}
