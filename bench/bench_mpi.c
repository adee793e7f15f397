/* =================================================================================================
 * bench_mpi.c: the MPI component's all-reduce (ocl_reduce_mpi_allreduce) against the hand-written
 * way, in the same run: each rank reduces its own buffer with ocl_reduce_buffer_reduce and the
 * ranks add the scalars with MPI_Allreduce. Both reduce the same device-resident f32 data per
 * rank. The library's way carries every operator, order and reproducibility; this measures what
 * that costs. Not installed; run under mpiexec:
 *   mpiexec -n 4 bench_mpi [--n COUNT] [--reps N] [--gpus G]
 * --gpus G puts rank r on CUDA device r % G (one rank per GPU); otherwise every rank takes
 * OCL_REDUCE_DEVICE's device. Each call starts after a barrier; its time is the slowest rank's.
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_reduce_mpi.h"
#include "tool.h"

static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1, reps = 50, gpus = 0;
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
  }
  if (reps < 1 || reps > 10000 || n == 0) {
    if (rank == 0)
      fprintf(stderr, "usage: bench_mpi [--n COUNT] [--reps 1..10000] [--gpus G]\n");
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
  double *times[2] = {calloc((size_t)reps, sizeof(double)), calloc((size_t)reps, sizeof(double))};
  float results[2] = {0.0f, 0.0f};
  /* Blocks of 5 calls each way, alternating, after one untimed call each; warm-up first. */
  for (int round = -1, taken = 0; taken < reps; round++) {
    for (int way = 0; way < 2; way++)
      for (int call = -1; call < 5; call++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = tool_now();
        if (way == 0) {
          s = ocl_reduce_mpi_allreduce(
              ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(data, 0), n,
              ocl_reduce_host_output(&results[0], sizeof results[0]), MPI_COMM_WORLD);
        } else {
          float mine = 0.0f;
          s = ocl_reduce_into(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, ocl_reduce_buffer_input(data, 0),
                              n, ocl_reduce_host_output(&mine, sizeof mine));
          MPI_Allreduce(&mine, &results[1], 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        }
        double took = tool_now() - t0, slowest = 0.0;
        MPI_Allreduce(&took, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (s != OCL_REDUCE_OK) {
          fprintf(stderr, "bench_mpi: rank %d: %s\n", rank,
                  way ? ocl_reduce_last_error(ctx) : ocl_reduce_mpi_last_error());
          MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (round >= 0 && call >= 0 && taken + call < reps)
          times[way][taken + call] = slowest;
      }
    if (round >= 0)
      taken += 5;
  }
  if (rank == 0) {
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    ocl_reduce_context_query(ctx, &info);
    qsort(times[0], (size_t)reps, sizeof(double), compare);
    qsort(times[1], (size_t)reps, sizeof(double), compare);
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
  ocl_reduce_buffer_destroy(data);
  ocl_reduce_context_destroy(ctx);
  MPI_Finalize();
  return results[0] == results[1] ? 0 : 1;
}
