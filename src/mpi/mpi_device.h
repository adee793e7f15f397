/* =================================================================================================
 * mpi_device.h: device memory that MPI moves itself (mpi_device.c). A CUDA-aware MPI takes CUDA
 * device pointers in its collectives, so a segmented all-reduce into a CUDA buffer gathers the
 * ranks' results from device memory into device memory, without the trip through host memory
 * that every other MPI needs.
 * ============================================================================================== */
#ifndef ORX_MPI_DEVICE_H
#define ORX_MPI_DEVICE_H

#include <stdint.h>

#include "ocl_reduce.h"

/* Whether the MPI library moves CUDA device memory, by its own account (Open MPI's
 * MPIX_Query_cuda_support, MPICH's MPIX_GPU_query_support), unless OCL_REDUCE_MPI_CUDA_AWARE=off.
 * Asked once. */
int orx_mpi_cuda_aware(void);
/* Whether OCL_REDUCE_MPI_CUDA_AWARE is unset, empty, "auto" (ask MPI) or "off" (any case);
 * *value is its value. */
int orx_mpi_cuda_setting_valid(const char **value);
/* Whether a rank of context ctx hands MPI device memory for `buffer`: a CUDA-aware MPI, a CUDA
 * context (its own results' buffer has an address too) and a buffer of a CUDA context (not a
 * group's). *address: the buffer's CUdeviceptr. Taken at every size: with one rank per GPU
 * (two H200s, CUDA-aware Open MPI 4.1.4, docs/perf/mpi-cuda-aware.txt) the segmented all-reduce
 * took 1.5x less time than through host memory at 32 KiB of results per rank, 7.9x at 512 KiB,
 * 46x at 8 MiB. Ranks that share one GPU (two on an H100) gain from 2 MiB on and lose below
 * 512 KiB (32 KiB: 861-872 us against 622-630), where the driver's IPC costs outweigh the
 * bytes: a configuration that CUDA-aware MPI is not made for. */
int orx_mpi_device_memory(ocl_reduce_context *ctx, const ocl_reduce_buffer *buffer,
                          uint64_t *address);

/* A device buffer of ctx of at least `bytes` for this rank's results, kept for the context's next
 * calls until MPI_Finalize; give it back with orx_mpi_device_results_done. */
ocl_reduce_status orx_mpi_device_results(ocl_reduce_context *ctx, size_t bytes,
                                         ocl_reduce_buffer **out);
void orx_mpi_device_results_done(ocl_reduce_buffer *buffer); /* NULL is ignored */

#endif /* ORX_MPI_DEVICE_H */
