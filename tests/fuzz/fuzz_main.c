/* =================================================================================================
 * fuzz_main.c: the differential fuzzer in one process (fuzz.h). Runs random cases on the context
 * the environment selects (as every device test: OCL_REDUCE_DEVICE, _PATH, _SUBGROUP, _POLICY) for
 * a time budget, one in eight of them invalid calls, and prints what it compared. Case k draws
 * everything from the generator seeded with (seed, k), so
 *   test_fuzz --seed S --case K     replays case K of a run with seed S (printed on a failure)
 *   test_fuzz --seconds T           runs for T seconds (else OCL_REDUCE_FUZZ_SECONDS, else 20, or
 *                                   12 with OCL_REDUCE_TEST_LIGHT=1: CI runs every implementation
 *                                   and path, about 2 minutes of fuzzing in all)
 *   test_fuzz --cases N             stops after N cases
 * Exits 1 on any mismatch, broken guard or unexpected status. The group's members are contexts
 * like the one under test, with parts of 1 KiB so that small arrays spread over both.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz/fuzz.h"
#include "support/fixture.h"

static int usage(void) {
  fprintf(stderr, "usage: %s [--seconds T] [--cases N] [--seed S] [--case K]\n", fuzz_program);
  return 2;
}

int main(int argc, char **argv) {
  fuzz_program = argv[0];
  const char *budget = getenv("OCL_REDUCE_FUZZ_SECONDS");
  double seconds = budget && budget[0] ? strtod(budget, NULL) : test_light() ? 12 : 20;
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
  if (!fuzz_run_open(&run, seed, 1))
    return 1;
  printf("# fuzz: seed %llu, %s\n", seed,
         replay  ? "one case"
         : cases ? "a number of cases"
                 : "a time budget");
  fflush(stdout);
  const double start = fuzz_seconds_now();
  unsigned long long ran = 0;
  for (uint64_t k = replay ? only : 0;; k++) {
    if (replay ? k > only : (cases ? ran >= cases : fuzz_seconds_now() - start >= seconds))
      break;
    run.case_number = k;
    fuzz_seed_case(seed, k);
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
         fuzz_seconds_now() - start, seed);
  fuzz_run_close(&run);
  return run.mismatches == 0 && ran > 0 ? 0 : 1;
}
