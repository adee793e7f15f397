/* =================================================================================================
 * fuzz.c: the differential fuzzer's driver (fuzz.h). Runs random cases on the context the
 * environment selects (as every device test: OCL_REDUCE_DEVICE, _PATH, _SUBGROUP, _POLICY) for a
 * time budget, one in eight of them invalid calls, and prints what it compared. Case k draws
 * everything from the generator seeded with (seed, k), so
 *   test_fuzz --seed S --case K     replays case K of a run with seed S (printed on a failure)
 *   test_fuzz --seconds T           runs for T seconds (else OCL_REDUCE_FUZZ_SECONDS, else 12, or
 *                                   5 with OCL_REDUCE_TEST_LIGHT=1: CI runs every implementation
 *                                   and path)
 *   test_fuzz --cases N             stops after N cases
 * Exits 1 on any mismatch, broken guard or unexpected status. The group's members are contexts
 * like the one under test, with parts of 1 KiB so that small arrays spread over both.
 * ============================================================================================== */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz/fuzz.h"
#include "support/fixture.h"

enum { PRINTED_FAILURES = 20 };

static const char *program_name = "test_fuzz";

static double seconds_now(void) {
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
  printf(" %s --seed %llu --case %llu\n", program_name, (unsigned long long)run->seed,
         (unsigned long long)run->case_number);
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

/* Case k's generator: the run's seed and k, mixed (splitmix64's steps). */
static void seed_case(uint64_t seed, uint64_t k) {
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
  return 1;
}

static void destroy_operators(fuzz_run *run) {
  for (int w = 0; w < TEST_ORDERED_COUNT; w++)
    ocl_reduce_operator_destroy(run->ordered[w]);
  for (int w = 0; w < TEST_CUSTOM_COUNT; w++)
    ocl_reduce_operator_destroy(run->custom[w]);
}

static int usage(void) {
  fprintf(stderr, "usage: %s [--seconds T] [--cases N] [--seed S] [--case K]\n", program_name);
  return 2;
}

int main(int argc, char **argv) {
  program_name = argv[0];
  const char *budget = getenv("OCL_REDUCE_FUZZ_SECONDS");
  double seconds = budget && budget[0] ? strtod(budget, NULL) : test_light() ? 5 : 12;
  unsigned long long cases = 0, only = 0,
                     seed = (unsigned long long)time(NULL) ^ (unsigned long long)clock();
  int replay = 0;
  const char *env_seed = getenv("OCL_REDUCE_TEST_SEED");
  if (env_seed && env_seed[0])
    seed = strtoull(env_seed, NULL, 0);
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc)
      return usage();
    if (strcmp(argv[i], "--seconds") == 0)
      seconds = strtod(argv[++i], NULL);
    else if (strcmp(argv[i], "--cases") == 0)
      cases = strtoull(argv[++i], NULL, 0);
    else if (strcmp(argv[i], "--seed") == 0)
      seed = strtoull(argv[++i], NULL, 0);
    else if (strcmp(argv[i], "--case") == 0)
      only = strtoull(argv[++i], NULL, 0), replay = 1;
    else
      return usage();
  }
  fuzz_run run;
  memset(&run, 0, sizeof run);
  run.seed = seed;
  run.ctx = test_context_create();
  if (!run.ctx)
    return 1;
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  const int queried = ocl_reduce_context_query(run.ctx, &info) == OCL_REDUCE_OK;
  run.has_fp64 = info.has_fp64;
  if (!queried || !create_operators(&run) || !create_group(&run)) {
    fprintf(stderr, "fuzz: setup failed: %s\n", ocl_reduce_last_error(run.ctx));
    return 1;
  }
  printf("# fuzz: seed %llu, %s\n", seed,
         replay  ? "one case"
         : cases ? "a number of cases"
                 : "a time budget");
  fflush(stdout);
  const double start = seconds_now();
  unsigned long long ran = 0;
  for (uint64_t k = replay ? only : 0;; k++) {
    if (replay ? k > only : (cases ? ran >= cases : seconds_now() - start >= seconds))
      break;
    run.case_number = k;
    seed_case(seed, k);
    if (test_rng_below(8) == 0)
      fuzz_invalid_case(&run);
    else
      fuzz_valid_case(&run);
    ran++;
    if (replay)
      printf("# case %llu: %s\n", (unsigned long long)k, run.what);
  }
  printf("# fuzz: %llu cases (%llu of them refused as they must be, %llu calls on the group), "
         "%llu results compared, %llu mismatches, %llu unsupported, %.1f s, seed %llu\n",
         ran, run.refusals, run.on_group, run.results, run.mismatches, run.unsupported,
         seconds_now() - start, seed);
  destroy_operators(&run);
  destroy_group(&run);
  ocl_reduce_context_destroy(run.ctx);
  return run.mismatches == 0 && ran > 0 ? 0 : 1;
}
