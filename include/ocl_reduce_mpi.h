/*
 * ocl_reduce_mpi: reductions across the ranks of an MPI communicator, each rank reducing its
 * share on its own device (an optional component: libocl_reduce_mpi, built where MPI is found).
 *
 * Every rank holds a part of one array: rank r's part follows rank r - 1's. Each rank reduces
 * its part on its context's device to a state (ocl_reduce_partial, with the index of its first
 * element from an exclusive scan of the ranks' counts), the states travel as bytes to rank
 * `root` (or 0), which combines them in rank order with ocl_reduce_final on its device; the
 * result goes back to every rank (all-reduce) or stays at the root. So:
 *   - every operator of the library works, user operators included (their states are bytes; the
 *     combine runs with the root's operator), order-preserving ones in rank order;
 *   - the result is deterministic, and every rank of an all-reduce gets the same bits;
 *   - with the reproducible sum (SUM_REPRODUCIBLE, or SUM in contexts created with
 *     OCL_REDUCE_CROSS_DEVICE on every rank) the bits do not depend on the number of ranks, nor
 *     on how the array is cut, nor on the devices.
 * Segmented all-reduce: each rank owns a range of whole segments (ranks in order), and every
 * rank receives all the segments' results, in order.
 *
 * Calls are collective: every rank of comm calls the same function with the same op, type,
 * root and segment length, and user operators made from the same descriptor. Counts may
 * differ, and may be 0. Inputs are host memory or buffers of the rank's context. Results are
 * host memory or a buffer (ocl_reduce_buffer_output; a group buffer too). Results bound for a
 * buffer arrive in host memory and are written into it before the call returns
 * (ocl_reduce_buffer_write), except where MPI moves device memory itself: with a CUDA-aware MPI
 * (ocl_reduce_mpi_cuda_aware), a segmented all-reduce into a CUDA buffer gathers the ranks'
 * results from device memory into it directly; that device memory is kept for the context's
 * next calls until MPI_Finalize (finalize MPI before destroying such contexts). A whole array's
 * state (a few bytes per rank) always travels through host memory.
 *
 * Errors: every rank returns the same status. Where a rank fails (an argument, its device), the
 * others learn it through the collective and return that rank's status (the lowest failing
 * rank's), and ocl_reduce_mpi_last_error() names the rank and gives its message. Results are
 * untouched on failure, except where a rank's write into its result buffer fails after the
 * collective (its device's failure): every rank then returns that rank's status, and the other
 * ranks' buffers hold the results. Ranks that disagree on op, type, root, state size or segment
 * length get OCL_REDUCE_ERROR_INVALID_ARGUMENT. MPI's own failures give OCL_REDUCE_ERROR_BACKEND
 * with MPI's error string (under MPI's default error handler, MPI aborts first).
 */
#ifndef OCL_REDUCE_MPI_H
#define OCL_REDUCE_MPI_H

#include <mpi.h>

#include "ocl_reduce.h"
#include "ocl_reduce_group.h"

#ifdef __cplusplus
extern "C" {
#endif

/* count elements of `input` on this rank, with any operator (a user operator: the same descriptor's
 * operator on every rank); the whole array's result to `result` (host memory or a buffer, room
 * for ocl_reduce_result_size bytes) on rank root; other ranks' result may be
 * ocl_reduce_host_output(NULL, 0). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_mpi_reduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                       ocl_reduce_type type, ocl_reduce_input input,
                                                       size_t count, ocl_reduce_output result,
                                                       int root, MPI_Comm comm);
/* The same, with the result on every rank (the same bits everywhere). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_mpi_allreduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                          ocl_reduce_type type,
                                                          ocl_reduce_input input, size_t count,
                                                          ocl_reduce_output result, MPI_Comm comm);
/* This rank's segment_count segments of segment_length elements (ocl_reduce_segments); every rank
 * receives the results of all ranks' segments in rank order into `results` (host memory or a
 * buffer, room for the sum of the ranks' segment counts, ocl_reduce_result_size bytes each). A
 * rank holds at most INT_MAX segments (MPI's counts). */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_mpi_segments_allreduce(
    ocl_reduce_context *ctx, ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input input,
    size_t segment_count, size_t segment_length, ocl_reduce_output results, MPI_Comm comm);

/* The same for a rank that owns several devices: its part (host memory or its group's buffer)
 * reduced over its group to one state, in device order (ocl_reduce_group_partial), then across
 * the ranks in rank order as above, combined on the root group's first device. So the result
 * follows the array's order through devices and ranks alike: order-preserving operators keep it,
 * and the reproducible sum gives the same bits for any number of ranks and devices. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_mpi_reduce_group(ocl_reduce_group *group,
                                                             ocl_reduce_op op, ocl_reduce_type type,
                                                             ocl_reduce_input input, size_t count,
                                                             ocl_reduce_output result, int root,
                                                             MPI_Comm comm);
OCL_REDUCE_API ocl_reduce_status ocl_reduce_mpi_allreduce_group(
    ocl_reduce_group *group, ocl_reduce_op op, ocl_reduce_type type, ocl_reduce_input input,
    size_t count, ocl_reduce_output result, MPI_Comm comm);

/* Whether the MPI library moves CUDA device memory, by its own account (Open MPI's
 * MPIX_Query_cuda_support, MPICH's MPIX_GPU_query_support): 1 or 0, asked once, after MPI_Init.
 * The environment variable OCL_REDUCE_MPI_CUDA_AWARE=off makes it 0 (every result through host
 * memory). */
OCL_REDUCE_API int ocl_reduce_mpi_cuda_aware(void);

/* The message of this thread's last failed ocl_reduce_mpi call ("" when none). */
OCL_REDUCE_API const char *ocl_reduce_mpi_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* OCL_REDUCE_MPI_H */
