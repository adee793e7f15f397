/* =================================================================================================
 * bench_mpi.c: the MPI component's all-reduce (ocl_reduce_mpi_allreduce) against the hand-written
 * way, in the same run: each rank reduces its own buffer with ocl_reduce_buffer_reduce and the
 * ranks add the scalars with MPI_Allreduce. Both reduce the same device-resident f32 data per
 * rank. The library's way carries every operator, order and reproducibility; this measures what
 * that costs. Not installed; run under mpiexec:
 *   mpiexec -n 4 bench_mpi [--n COUNT] [--reps N] [--gpus G]
 * --gpus G puts rank r on CUDA device r % G (one rank per GPU); otherwise every rank takes
 * OCL_REDUCE_DEVICE's device. Each call starts after a barrier; its time is the slowest rank's.
 * --segments L: the segmented all-reduce instead (ocl_reduce_mpi_segments_allreduce of each
 * rank's COUNT / L segments, every rank's results into a buffer of its own), against the two
 * hand-written forms: ocl_reduce_segments into host memory, MPI_Allgatherv there and
 * ocl_reduce_buffer_write; and where MPI is CUDA-aware, into a device buffer gathered from
 * device memory (ocl_reduce_buffer_native).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_mpi.h"
#include "tool_common.h"

static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* One call of a contender ("way"); 0 where it failed. */
typedef int (*bench_way)(void *arg, int way);

/* Every way timed reps times into times[way], sorted: blocks of 5 calls each way, alternating,
 * after one untimed call each, and a round of warm-up first; a call's time is the slowest
 * rank's. */
static void time_ways(bench_way run, void *arg, int ways, int reps, double **times) {
  for (int round = -1, taken = 0; taken < reps; round++) {
    for (int way = 0; way < ways; way++)
      for (int call = -1; call < 5; call++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = tool_now();
        const int ok = run(arg, way);
        double took = tool_now() - t0, slowest = 0.0;
        MPI_Allreduce(&took, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (!ok)
          MPI_Abort(MPI_COMM_WORLD, 1);
        if (round >= 0 && call >= 0 && taken + call < reps)
          times[way][taken + call] = slowest;
      }
    if (round >= 0)
      taken += 5;
  }
  for (int way = 0; way < ways; way++)
    qsort(times[way], (size_t)reps, sizeof(double), compare);
}

/* The whole array's ways: the library's all-reduce, and by hand. */
typedef struct whole_case {
  ocl_reduce_context *ctx;
  ocl_reduce_buffer *data;
  size_t n;
  float results[2];
  int rank;
} whole_case;

static int whole_way(void *arg, int way) {
  whole_case *c = arg;
  ocl_reduce_status s;
  if (way == 0) {
    s = ocl_reduce_mpi_allreduce(
        c->ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(c->data, 0), c->n,
        ocl_reduce_host_output(&c->results[0], sizeof(float)), MPI_COMM_WORLD);
  } else {
    float mine = 0.0f;
    s = ocl_reduce_into(c->ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(c->data, 0),
                        c->n, ocl_reduce_host_output(&mine, sizeof mine));
    MPI_Allreduce(&mine, &c->results[1], 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }
  if (s != OCL_REDUCE_OK)
    fprintf(stderr, "bench_mpi: rank %d: %s\n", c->rank,
            way ? ocl_reduce_last_error(c->ctx) : ocl_reduce_mpi_last_error());
  return s == OCL_REDUCE_OK;
}

/* The segmented all-reduce's ways (--segments). */
typedef struct segments_case {
  ocl_reduce_context *ctx;
  ocl_reduce_buffer *data, *results[3], *own; /* own: a rank's results on the device */
  size_t segments, length, total;             /* this rank's segments; every rank's */
  float *host_own, *host_all;
  int *counts, *displacements;
  int rank;
} segments_case;

static int segments_way(void *arg, int way) {
  segments_case *c = arg;
  ocl_reduce_status s = OCL_REDUCE_OK;
  int code = MPI_SUCCESS;
  if (way == 0) {
    s = ocl_reduce_mpi_segments_allreduce(
        c->ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(c->data, 0), c->segments,
        c->length, ocl_reduce_buffer_output(c->results[0], 0), MPI_COMM_WORLD);
  } else if (way == 1) { /* through host memory */
    s = ocl_reduce_segments(c->ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                            ocl_reduce_buffer_input(c->data, 0), c->segments, c->length,
                            ocl_reduce_host_output(c->host_own, c->segments * sizeof(float)));
    code = MPI_Allgatherv(c->host_own, (int)c->segments, MPI_FLOAT, c->host_all, c->counts,
                          c->displacements, MPI_FLOAT, MPI_COMM_WORLD);
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_buffer_write(c->results[1], 0, c->host_all, c->total * sizeof(float));
  } else { /* from device memory into device memory */
    uint64_t from = 0, into = 0;
    s = ocl_reduce_segments(c->ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32,
                            ocl_reduce_buffer_input(c->data, 0), c->segments, c->length,
                            ocl_reduce_buffer_output(c->own, 0));
    if (s == OCL_REDUCE_OK)
      s = ocl_reduce_finish(c->ctx);
    ocl_reduce_buffer_native(c->own, NULL, &from);
    ocl_reduce_buffer_native(c->results[2], NULL, &into);
    code = MPI_Allgatherv((void *)(uintptr_t)from, (int)c->segments, MPI_FLOAT,
                          (void *)(uintptr_t)into, c->counts, c->displacements, MPI_FLOAT,
                          MPI_COMM_WORLD);
  }
  if (s != OCL_REDUCE_OK || code != MPI_SUCCESS)
    fprintf(stderr, "bench_mpi: rank %d, way %d: %s\n", c->rank, way,
            way ? ocl_reduce_last_error(c->ctx) : ocl_reduce_mpi_last_error());
  return s == OCL_REDUCE_OK && code == MPI_SUCCESS;
}

/* --segments: the library against the hand-written forms; returns 0 when the results agree. */
static int bench_segments(ocl_reduce_context *ctx, ocl_reduce_buffer *data, size_t n, size_t length,
                          int reps, int rank, int ranks) {
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  const int ways = ocl_reduce_mpi_cuda_aware() && info.backend == OCL_REDUCE_BACKEND_CUDA ? 3 : 2;
  segments_case c = {
      .ctx = ctx, .data = data, .segments = n / length, .length = length, .rank = rank};
  c.total = c.segments * (size_t)ranks; /* every rank holds as many */
  c.host_own = malloc(c.segments * sizeof(float) + 1);
  c.host_all = malloc(c.total * sizeof(float) + 1);
  c.counts = malloc((size_t)ranks * sizeof(int));
  c.displacements = malloc((size_t)ranks * sizeof(int));
  int ok = c.host_own && c.host_all && c.counts && c.displacements && c.total <= 0x7fffffff;
  for (int r = 0; ok && r < ranks; r++) {
    c.counts[r] = (int)c.segments;
    c.displacements[r] = r * (int)c.segments;
  }
  for (int w = 0; ok && w < ways; w++)
    ok = ocl_reduce_buffer_create(ctx, c.total * sizeof(float), &c.results[w]) == OCL_REDUCE_OK;
  ok = ok && ocl_reduce_buffer_create(ctx, c.segments * sizeof(float), &c.own) == OCL_REDUCE_OK;
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) {
    fprintf(stderr, "bench_mpi: rank %d: %s\n", rank, ocl_reduce_last_error(ctx));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double *times[3];
  for (int w = 0; w < 3; w++)
    times[w] = calloc((size_t)reps, sizeof(double));
  time_ways(segments_way, &c, ways, reps, times);
  /* The ways' results, compared in host memory. */
  float *first = malloc(c.total * sizeof(float) + 1), *other = malloc(c.total * sizeof(float) + 1);
  int agree =
      first && other &&
      ocl_reduce_buffer_read(c.results[0], 0, first, c.total * sizeof(float)) == OCL_REDUCE_OK;
  for (int w = 1; agree && w < ways; w++)
    agree =
        ocl_reduce_buffer_read(c.results[w], 0, other, c.total * sizeof(float)) == OCL_REDUCE_OK &&
        memcmp(first, other, c.total * sizeof(float)) == 0;
  if (rank == 0) {
    printf("bench_mpi: %d ranks, %zu f32 segments of %zu per rank, rank 0 on %s (%s), CUDA-aware "
           "MPI: %s; results into a buffer on every rank; medians of %d calls, slowest rank\n",
           ranks, c.segments, length, info.device_name, info.backend_name,
           ocl_reduce_mpi_cuda_aware() ? "yes" : "no", reps);
    static const char *const names[3] = {"ocl_reduce_mpi_segments_allreduce",
                                         "by hand through host memory",
                                         "by hand from device memory"};
    for (int w = 0; w < ways; w++)
      printf("  %-36s %10.1f us (fastest %.1f)\n", names[w], 1e6 * times[w][reps / 2],
             1e6 * times[w][0]);
    for (int w = 1; w < ways; w++)
      printf("  speed of the library relative to %s (its time / ours, > 1: ours faster): %.3fx\n",
             names[w], times[w][reps / 2] / times[0][reps / 2]);
    printf("  results %s\n", agree ? "agree" : "DIFFER");
  }
  for (int w = 0; w < 3; w++) {
    free(times[w]);
    ocl_reduce_buffer_destroy(c.results[w]);
  }
  ocl_reduce_buffer_destroy(c.own);
  free(first);
  free(other);
  free(c.host_own);
  free(c.host_all);
  free(c.counts);
  free(c.displacements);
  return !agree;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1, reps = 50, gpus = 0;
  size_t length = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  unsigned long long n = 1ull << 30;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--n"))
      n = strtoull(argv[i + 1], NULL, 0);
    else if (!strcmp(argv[i], "--reps"))
      reps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--gpus"))
      gpus = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--segments"))
      length = strtoull(argv[i + 1], NULL, 0);
  }
  if (reps < 1 || reps > 10000 || n == 0 || length > n) {
    if (rank == 0)
      fprintf(
          stderr,
          "usage: bench_mpi [--n COUNT] [--reps 1..10000] [--gpus G] [--segments L <= COUNT]\n");
    MPI_Finalize();
    return 2;
  }
  char selector[32];
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  if (gpus > 0) {
    snprintf(selector, sizeof selector, "cuda:%d", rank % gpus);
    opts.device = selector;
  }
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_buffer *data = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(&opts, &ctx);
  float *host = malloc(n * sizeof *host);
  for (unsigned long long i = 0; host && i < n; i++)
    host[i] = (float)((i * 2654435761u) % 17) - 8.0f; /* small integers: exact in any order */
  if (s == OCL_REDUCE_OK && host)
    s = ocl_reduce_buffer_create(ctx, n * sizeof *host, &data);
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_buffer_write(data, 0, host, n * sizeof *host);
  free(host);
  int ok = s == OCL_REDUCE_OK, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) {
    fprintf(stderr, "bench_mpi: rank %d: %s\n", rank, ocl_reduce_last_error(ctx));
    MPI_Finalize();
    return 1;
  }
  if (length) {
    const int differ = bench_segments(ctx, data, n, length, reps, rank, ranks);
    MPI_Finalize(); /* first: a CUDA-aware MPI keeps handles to the context's memory till then */
    ocl_reduce_buffer_destroy(data);
    ocl_reduce_context_destroy(ctx);
    return differ;
  }
  double *times[2] = {calloc((size_t)reps, sizeof(double)), calloc((size_t)reps, sizeof(double))};
  whole_case w = {ctx, data, n, {0.0f, 0.0f}, rank};
  time_ways(whole_way, &w, 2, reps, times);
  const float *results = w.results;
  if (rank == 0) {
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    ocl_reduce_context_query(ctx, &info);
    const double lib = times[0][reps / 2], hand = times[1][reps / 2];
    printf("bench_mpi: %d ranks, %llu f32 per rank, rank 0 on %s (%s); medians of %d calls, "
           "slowest rank\n",
           ranks, n, info.device_name, info.backend_name, reps);
    printf("  ocl_reduce_mpi_allreduce              %10.1f us (fastest %.1f)\n", 1e6 * lib,
           1e6 * times[0][0]);
    printf("  buffer_reduce + MPI_Allreduce (hand)  %10.1f us (fastest %.1f)\n", 1e6 * hand,
           1e6 * times[1][0]);
    printf("  speed of the library relative to the hand-written form (its time / ours, > 1: ours "
           "faster): %.3fx; results %s (%g, %g)\n",
           hand / lib, results[0] == results[1] ? "agree" : "DIFFER", (double)results[0],
           (double)results[1]);
  }
  free(times[0]);
  free(times[1]);
  MPI_Finalize();
  ocl_reduce_buffer_destroy(data);
  ocl_reduce_context_destroy(ctx);
  return results[0] == results[1] ? 0 : 1;
}
