/* =================================================================================================
 * mpi_segments.c: the segmented all-reduce across ranks (ocl_reduce_mpi_segments_allreduce):
 * each rank reduces its own segments, every rank sees every rank's record and decides alike, and
 * MPI_Allgatherv puts every rank's results, in rank order, into every rank's results: host
 * memory, a buffer through host memory, or with a CUDA-aware MPI a CUDA buffer directly.
 * ============================================================================================== */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_call.h"
#include "mpi/mpi_device.h"

/* Where this rank's segment results are made and gathered from: host memory, or with a
 * CUDA-aware MPI and a CUDA buffer for the results, a device buffer (written into the results
 * only by the gather, after every rank has agreed). */
typedef struct local_results {
  unsigned char *host;
  ocl_reduce_buffer *device;
  uint64_t address, results_address; /* device: both sides of the gather */
} local_results;

/* This rank's results' memory for `bytes`, and the output that fills it; a failure is recorded. */
static ocl_reduce_output make_local(const mpi_call *c, size_t bytes, rank_record *mine,
                                    local_results *l) {
  memset(l, 0, sizeof *l);
  if (c->ctx && orx_mpi_device_memory(c->ctx, c->result.buffer, &l->results_address)) {
    const ocl_reduce_status status = orx_mpi_device_results(c->ctx, bytes ? bytes : 1, &l->device);
    if (status != OCL_REDUCE_OK) {
      orx_mpi_record_failure(mine, c, status, NULL);
      return ocl_reduce_host_output(NULL, 0);
    }
    ocl_reduce_buffer_native(l->device, NULL, &l->address); /* a CUDA context's buffer */
    return ocl_reduce_buffer_output(l->device, 0);
  }
  l->host = malloc(bytes + 1);
  if (!l->host)
    orx_mpi_record_failure(mine, c, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  return ocl_reduce_host_output(l->host, bytes);
}

static void free_local(local_results *l) {
  free(l->host);
  orx_mpi_device_results_done(l->device);
}

/* This rank's record, and its segments reduced into local memory (make_local), or the failure
 * every rank will see. */
static void segments_here(const mpi_call *c, size_t segment_count, size_t segment_length,
                          size_t bytes, rank_record *mine, local_results *local) {
  orx_mpi_record_operator(mine, c, bytes);
  mine->segment_length = segment_length;
  mine->segment_count = segment_count;
  mine->results_missing = !c->result.host && !c->result.buffer;
  mine->results_bytes = mine->results_missing ? 0 : orx_mpi_result_room(c, NULL, 0);
  memset(local, 0, sizeof *local);
  const ocl_reduce_output out = segment_count <= INT_MAX
                                    ? make_local(c, segment_count * bytes, mine, local)
                                    : ocl_reduce_host_output(NULL, 0);
  mine->to_buffer = c->result.buffer != NULL;
  mine->device_gather = local->device != NULL;
  ocl_reduce_status status = OCL_REDUCE_OK;
  if (!c->ctx)
    orx_mpi_record_failure(mine, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "ctx is NULL");
  else if (segment_count > INT_MAX)
    orx_mpi_record_failure(mine, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                           "segment_count is above INT_MAX (MPI's counts)");
  else if (mine->status == OCL_REDUCE_OK &&
           ((status = ocl_reduce_segments(c->ctx, c->op, c->type, c->input, segment_count,
                                          segment_length, out)) != OCL_REDUCE_OK ||
            /* MPI reads the device's results: they must be there. */
            (local->device && (status = ocl_reduce_finish(c->ctx)) != OCL_REDUCE_OK)))
    orx_mpi_record_failure(mine, c, status, NULL);
}

/* Every rank's verdict on all records, alike: a rank's failure, results that cannot hold every
 * segment's, more segments than MPI counts. *total: the segments of all ranks; *to_buffer: some
 * rank's buffer is written after the gather (through host memory). */
static ocl_reduce_status judge_segments(const mpi_call *c, const rank_record *all, size_t bytes,
                                        char *message, size_t capacity, uint64_t *total,
                                        int *to_buffer) {
  ocl_reduce_status status = orx_mpi_judge(c, all, 0, message, capacity);
  *total = 0;
  *to_buffer = 0;
  for (int r = 0; r < c->size; r++) { /* a buffer that MPI fills needs no write after */
    *total += all[r].segment_count;
    *to_buffer |= all[r].to_buffer && !all[r].device_gather;
  }
  const uint64_t n = *total;
  for (int r = 0; status == OCL_REDUCE_OK && n > 0 && r < c->size; r++)
    if (all[r].results_missing) {
      snprintf(message, capacity, "rank %d: results is NULL", r);
      status = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    } else if (bytes > 0 && n <= UINT64_MAX / bytes && all[r].results_bytes < n * bytes) {
      snprintf(message, capacity,
               "rank %d: results %s %llu bytes, and %llu results of %zu bytes need %llu", r,
               all[r].to_buffer ? "(a buffer) hold" : "is",
               (unsigned long long)all[r].results_bytes, (unsigned long long)n, bytes,
               (unsigned long long)(n * bytes));
      status = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    }
  if (status == OCL_REDUCE_OK && n > INT_MAX) {
    snprintf(message, capacity, "%llu segments in all: above INT_MAX (MPI's counts)",
             (unsigned long long)n);
    status = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
  }
  return status;
}

/* Every rank's results, in rank order, from `from` into every rank's `into`. */
static ocl_reduce_status gather_results(const mpi_call *c, const rank_record *all,
                                        size_t segment_count, size_t bytes, void *from,
                                        void *into) {
  int *counts = malloc((size_t)c->size * sizeof *counts);
  int *displacements = malloc((size_t)c->size * sizeof *displacements);
  /* Every rank allocates alike, so a failure here is every rank's too (or MPI aborts). */
  if (!counts || !displacements) {
    fprintf(stderr, "%s: out of host memory\n", c->function);
    MPI_Abort(c->comm, 1);
    free(counts);
    free(displacements);
    return OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
  }
  int at = 0;
  for (int r = 0; r < c->size; r++) {
    counts[r] = (int)all[r].segment_count;
    displacements[r] = at;
    at += counts[r];
  }
  MPI_Datatype one_result;
  int code = MPI_Type_contiguous((int)bytes, MPI_BYTE, &one_result);
  if (code == MPI_SUCCESS)
    code = MPI_Type_commit(&one_result);
  if (code == MPI_SUCCESS) {
    code = MPI_Allgatherv(from, (int)segment_count, one_result, into, counts, displacements,
                          one_result, c->comm);
    MPI_Type_free(&one_result);
  }
  free(counts);
  free(displacements);
  return code == MPI_SUCCESS ? OCL_REDUCE_OK : orx_mpi_failed(c, "MPI_Allgatherv", code);
}

/* Results bound for a buffer through host memory gather there first (*gathered, where this
 * rank's are), the space agreed on before the gather so that no rank is left in it alone. */
static ocl_reduce_status stage_space(const mpi_call *c, const rank_record *mine, size_t bytes,
                                     unsigned char **gathered) {
  const int staged = mine->to_buffer && !mine->device_gather;
  *gathered = staged ? malloc(bytes) : NULL;
  const ocl_reduce_status status =
      orx_mpi_agree(c, staged && !*gathered ? OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY : OCL_REDUCE_OK,
                    "out of host memory for the results on their way to the buffer");
  if (status != OCL_REDUCE_OK) {
    free(*gathered);
    *gathered = NULL;
  }
  return status;
}

ocl_reduce_status orx_mpi_reduce_segments(mpi_call *c, size_t segment_count,
                                          size_t segment_length) {
  ocl_reduce_status status = orx_mpi_begin(c);
  if (status != OCL_REDUCE_OK)
    return status;
  const size_t bytes = c->ctx ? ocl_reduce_result_size(c->op, c->type) : 0;
  rank_record mine;
  local_results local;
  segments_here(c, segment_count, segment_length, bytes, &mine, &local);
  /* Every rank sees every record and decides alike. */
  rank_record *all = orx_mpi_gather_space(c, sizeof *all);
  int code =
      MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, c->comm);
  if (code != MPI_SUCCESS) {
    free(all);
    free_local(&local);
    return orx_mpi_failed(c, "MPI_Allgather", code);
  }
  char message[MESSAGE_BYTES];
  uint64_t total = 0;
  int to_buffer = 0;
  status = judge_segments(c, all, bytes, message, sizeof message, &total, &to_buffer);
  unsigned char *gathered = NULL;
  if (status == OCL_REDUCE_OK && total > 0 && to_buffer &&
      (status = stage_space(c, &mine, (size_t)total * bytes, &gathered)) != OCL_REDUCE_OK) {
    free(all);
    free_local(&local);
    return status;
  }
  if (status == OCL_REDUCE_OK && total > 0) {
    void *from = local.device ? (void *)(uintptr_t)local.address : (void *)local.host;
    void *into = local.device       ? (void *)(uintptr_t)(local.results_address + c->result.offset)
                 : c->result.buffer ? (void *)gathered
                                    : c->result.host;
    status = gather_results(c, all, segment_count, bytes, from, into);
  }
  free(all);
  free_local(&local);
  if (status != OCL_REDUCE_OK) {
    free(gathered);
    return status == OCL_REDUCE_ERROR_BACKEND
               ? status
               : orx_mpi_fail(status, "%s: %.400s", c->function, message);
  }
  if (!to_buffer)
    return OCL_REDUCE_OK;
  const ocl_reduce_status written =
      gathered ? ocl_reduce_buffer_write(c->result.buffer, c->result.offset, gathered,
                                         (size_t)total * bytes)
               : OCL_REDUCE_OK;
  free(gathered);
  return orx_mpi_agree(c, written, WRITE_FAILED);
}
