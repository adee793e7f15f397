/* =================================================================================================
 * fuzz_mpi.c: the differential fuzzer across MPI ranks (fuzz.h; test_fuzz_mpi under mpiexec): the
 * MPI component's forms (ocl_reduce_mpi.h) with random subjects, built-in and user operators. Each
 * case draws what every rank must agree on from the run's generator, the same on every rank: the
 * subject, the whole array (every rank knows it), where it is cut into the ranks' parts (empty ones
 * too), the root, the segment length and each rank's segments. Then each rank draws where its own
 * memory lives from a generator of its own (host memory or a buffer at a random offset), calls,
 * and checks what it received against the host references of the whole array; an all-reduce's
 * result must also be the same bits on every rank. One case in eight is a mistake on one rank
 * (its input shorter than its count, or too little room for its results): every rank must return
 * the same named status with a message, and leave its results untouched.
 *   mpiexec -n R test_fuzz_mpi [--seconds T] [--seed S] [--case K]
 * The budget: T, else OCL_REDUCE_FUZZ_SECONDS, else 15 (8 where the suite is light); rank 0 keeps
 * the time, so that every rank runs the same cases.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz/fuzz.h"
#include "ocl_reduce_mpi.h"
#include "support/fixture.h"

enum { MOST = 1 << 18, MAX_RANKS = 64 };

static int rank, ranks;

/* The parts: rank r holds elements [first[r], first[r + 1]) of the whole (in segments, of
 * segment_length each). A quarter of the cuts repeat the one before: empty parts. */
static void cut(size_t n, size_t *first) {
  first[0] = 0;
  for (int r = 1; r < ranks; r++)
    first[r] = test_rng_below(4) == 0 ? first[r - 1] : (size_t)test_rng_below(n + 1);
  for (int r = 1; r < ranks; r++)
    for (int q = r; q > 1 && first[q] < first[q - 1]; q--) {
      const size_t t = first[q];
      first[q] = first[q - 1];
      first[q - 1] = t;
    }
  first[ranks] = n;
}

/* This rank's own generator for the rest of case k: where its memory lives. */
static void seed_own(const fuzz_run *run) {
  fuzz_seed_case(run->seed + 0x9e3779b97f4a7c15u * (uint64_t)(rank + 1), run->case_number);
}

/* Every rank's result of an all-reduce holds the same bits (rank 0's), where every rank's call
 * succeeded (every rank joins the collective all the same). */
static void check_same_bits(fuzz_run *run, const unsigned char *got, size_t size, int all_ok) {
  unsigned char all[MAX_RANKS * 64];
  MPI_Allgather(got, (int)size, MPI_BYTE, all, (int)size, MPI_BYTE, MPI_COMM_WORLD);
  for (int r = 1; r < ranks && all_ok; r++)
    if (memcmp(all, all + (size_t)r * size, size) != 0)
      fuzz_fail(run, "rank %d's result differs from rank 0's bits", r);
}

typedef enum form { ALLREDUCE, REDUCE, SEGMENTS } form;

/* One case: a valid call of one form, or (`mistake`) the same call with one rank's mistake. */
static void one_case(fuzz_run *run, form f, int mistake) {
  static const char *const names[] = {"ocl_reduce_mpi_allreduce", "ocl_reduce_mpi_reduce",
                                      "ocl_reduce_mpi_segments_allreduce"};
  const fuzz_subject s = fuzz_subject_pick(run, 1, 0);
  const size_t es = s.element_size, rs = s.result_size;
  size_t length = 1, first[MAX_RANKS + 1];
  if (f == SEGMENTS) {
    length = 1 + fuzz_size(4096);
    cut(fuzz_size(MOST / length), first); /* in segments */
  } else {
    cut(fuzz_size(MOST), first);
  }
  const size_t n = first[ranks] * length;
  const int root = (int)test_rng_below((uint64_t)ranks);
  int wrong_rank = (int)test_rng_below((uint64_t)ranks);
  int short_input = (int)test_rng_below(2);
  const size_t results = f == SEGMENTS ? first[ranks] : 1;
  if (results == 0)
    short_input = 1; /* no results to make room too small for */
  if (f == REDUCE && !short_input)
    wrong_rank = root; /* only the root's result has a size to get wrong */
  unsigned char *data = fuzz_data_for(&s, n);
  char name[128];
  fuzz_subject_name(&s, name, sizeof name);
  snprintf(run->what, sizeof run->what, "rank %d of %d: %s%s of %zu elements of %s, root %d", rank,
           ranks, mistake ? "refused: " : "", names[f], n, name, root);
  if (mistake)
    snprintf(run->what + strlen(run->what), sizeof run->what - strlen(run->what), ", rank %d's %s",
             wrong_rank, short_input ? "input short" : "results too small");

  seed_own(run);
  const size_t mine = (first[rank + 1] - first[rank]) * length; /* elements */
  fuzz_input in;
  fuzz_input_place(run, &in, data + first[rank] * length * es, mine * es, es, 0);
  const int receives = f != REDUCE || rank == root;
  fuzz_output out;
  fuzz_output_place(run, &out, receives ? results * rs : 0, rs, 1);
  ocl_reduce_input input = in.in;
  ocl_reduce_output output = receives ? out.out : ocl_reduce_host_output(NULL, 0);
  const int wrong = mistake && rank == wrong_rank;
  /* A short input: host memory a byte short of the count, or a count past a buffer's end (it
   * holds one element more) or past empty host memory. */
  size_t count = f == SEGMENTS ? first[rank + 1] - first[rank] : mine;
  if (wrong && short_input && input.host && mine > 0)
    input.bytes = mine * es - 1;
  else if (wrong && short_input)
    count += 2;
  if (wrong && !short_input)
    output = ocl_reduce_host_output(out.host + out.lead, results * rs - 1);
  ocl_reduce_status status;
  if (f == ALLREDUCE)
    status = ocl_reduce_mpi_allreduce(run->ctx, s.op, s.type, input, count, output, MPI_COMM_WORLD);
  else if (f == REDUCE)
    status =
        ocl_reduce_mpi_reduce(run->ctx, s.op, s.type, input, count, output, root, MPI_COMM_WORLD);
  else
    status = ocl_reduce_mpi_segments_allreduce(run->ctx, s.op, s.type, input, count, length, output,
                                               MPI_COMM_WORLD);

  /* Every rank's status, for the checks that need them all (collectives: every rank joins). */
  int statuses[MAX_RANKS], mine_status = (int)status;
  MPI_Allgather(&mine_status, 1, MPI_INT, statuses, 1, MPI_INT, MPI_COMM_WORLD);
  if (mistake) {
    /* A short host input and results too small are INVALID_ARGUMENT, a range past a buffer
     * OUT_OF_RANGE: every rank returns the wrong rank's. */
    run->refusals++;
    const ocl_reduce_status wanted = (ocl_reduce_status)statuses[wrong_rank];
    if (wanted != OCL_REDUCE_ERROR_INVALID_ARGUMENT && wanted != OCL_REDUCE_ERROR_OUT_OF_RANGE)
      fuzz_fail(run, "the wrong rank returned %s", ocl_reduce_status_name(wanted));
    else if (status != wanted)
      fuzz_fail(run, "returned %s, the wrong rank %s", ocl_reduce_status_name(status),
                ocl_reduce_status_name(wanted));
    const char *message = ocl_reduce_mpi_last_error();
    if (!message || !message[0])
      fuzz_fail(run, "refused with %s but no message", ocl_reduce_status_name(status));
    fuzz_output_take(run, &out, NULL, 1);
  } else {
    unsigned char *got = calloc(1, results * rs + 1);
    if (!got)
      abort();
    if (fuzz_call_ok(run, status, names[f]) && fuzz_output_take(run, &out, got, 0) && receives) {
      if (f == SEGMENTS) {
        for (size_t i = 0; i < results && run->mismatches < 50; i++)
          fuzz_check_result(run, &s, got + i * rs, data, i * length, length, 0, "segment", i);
      } else {
        fuzz_check_result(run, &s, got, data, 0, n, 0, "result", 0);
      }
    }
    int all_ok = 1;
    for (int r = 0; r < ranks; r++)
      all_ok &= statuses[r] == OCL_REDUCE_OK;
    if (f == ALLREDUCE)
      check_same_bits(run, got, rs, all_ok);
    free(got);
  }
  fuzz_output_free(&out);
  fuzz_input_free(&in);
  free(data);
}

static int usage(void) {
  if (rank == 0)
    fprintf(stderr, "usage: mpiexec -n R %s [--seconds T] [--seed S] [--case K]\n", fuzz_program);
  MPI_Finalize();
  return 2;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  fuzz_program = argv[0];
  static char launcher[64];
  snprintf(launcher, sizeof launcher, "mpiexec -n %d ", ranks);
  fuzz_launcher = launcher;
  if (ranks > MAX_RANKS) {
    if (rank == 0)
      fprintf(stderr, "fuzz_mpi: at most %d ranks\n", MAX_RANKS);
    MPI_Finalize();
    return 2;
  }
  const char *budget = getenv("OCL_REDUCE_FUZZ_SECONDS");
  double seconds = budget && budget[0] ? strtod(budget, NULL) : test_light() ? 8 : 15;
  unsigned long long seed = (unsigned long long)time(NULL) ^ (unsigned long long)clock(), only = 0;
  int replay = 0;
  const char *env_seed = getenv("OCL_REDUCE_TEST_SEED");
  if (env_seed && env_seed[0])
    seed = strtoull(env_seed, NULL, 0);
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc)
      return usage();
    if (strcmp(argv[i], "--seconds") == 0)
      seconds = strtod(argv[i + 1], NULL);
    else if (strcmp(argv[i], "--seed") == 0)
      seed = strtoull(argv[i + 1], NULL, 0);
    else if (strcmp(argv[i], "--case") == 0)
      only = strtoull(argv[i + 1], NULL, 0), replay = 1;
    else
      return usage();
  }
  MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  fuzz_run run;
  int ok = fuzz_run_open(&run, seed, 0), all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  /* Subjects are drawn alike on every rank: fp64 only where every rank has it. */
  MPI_Allreduce(MPI_IN_PLACE, &run.has_fp64, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) {
    if (ok)
      fuzz_run_close(&run);
    MPI_Finalize();
    return 1;
  }
  if (rank == 0)
    printf("# fuzz_mpi: %d ranks, seed %llu, %s\n", ranks, seed,
           replay ? "one case" : "a time budget");
  fflush(stdout);
  const double start = fuzz_seconds_now();
  unsigned long long ran = 0;
  for (uint64_t k = replay ? only : 0;; k++) {
    int go = replay ? k == only : fuzz_seconds_now() - start < seconds;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!go)
      break;
    run.case_number = k;
    fuzz_seed_case(seed, k);
    const int mistake = test_rng_below(8) == 0;
    one_case(&run, (form)test_rng_below(3), mistake);
    ran++;
    if (replay && rank == 0)
      printf("# case %llu: %s\n", (unsigned long long)k, run.what);
  }
  unsigned long long totals[3] = {run.results, run.mismatches, run.refusals}, sums[3];
  MPI_Allreduce(totals, sums, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("# fuzz_mpi: %llu cases on %d ranks (%llu of them refused as they must be), %llu "
           "results compared on all ranks, %llu mismatches, %.1f s, seed %llu\n",
           ran, ranks, sums[2] / (unsigned long long)ranks, sums[0], sums[1],
           fuzz_seconds_now() - start, seed);
  fuzz_run_close(&run);
  MPI_Finalize();
  return sums[1] == 0 && ran > 0 ? 0 : 1;
}
