/* An all-reduce across the ranks through the installed MPI component: rank r holds 1000
 * integers r * 1000 + 1 ... (r + 1) * 1000, so the sum is n (n + 1) / 2 for n = 1000 ranks. */
#include <ocl_reduce_mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  long long data[1000];
  for (int i = 0; i < 1000; i++)
    data[i] = (long long)rank * 1000 + i + 1;
  ocl_reduce_context *ctx = NULL;
  ocl_reduce_status s = ocl_reduce_context_create(NULL, &ctx);
  long long sum = 0;
  if (s == OCL_REDUCE_OK)
    s = ocl_reduce_mpi_allreduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64,
                                 ocl_reduce_host_input(data, sizeof data), 1000,
                                 ocl_reduce_host_output(&sum, sizeof sum), MPI_COMM_WORLD);
  const long long n = 1000LL * ranks, want = n * (n + 1) / 2;
  if (s != OCL_REDUCE_OK || sum != want) {
    fprintf(stderr, "mpi_consumer: rank %d: %s, sum %lld (want %lld): %s\n", rank,
            ocl_reduce_status_name(s), sum, want, ocl_reduce_mpi_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 0)
    printf("mpi_consumer: %d ranks, sum %lld\n", ranks, sum);
  ocl_reduce_context_destroy(ctx);
  MPI_Finalize();
  return 0;
}
