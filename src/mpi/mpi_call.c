/* =================================================================================================
 * mpi_call.c: the MPI component's checks and records (mpi_call.h, which says what each does).
 * ============================================================================================== */
#include "mpi/mpi_call.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_device.h"
#include "ocl_reduce_mpi.h"

static _Thread_local char last_error[MESSAGE_BYTES + 64];

const char *ocl_reduce_mpi_last_error(void) { return last_error; }

ocl_reduce_status orx_mpi_fail(ocl_reduce_status status, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, args);
  va_end(args);
  return status;
}

ocl_reduce_status orx_mpi_failed(const mpi_call *c, const char *what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return orx_mpi_fail(OCL_REDUCE_ERROR_BACKEND, "%s: %s failed: %s", c->function, what, text);
}

/* What every rank tells every other before any collective that depends on it: its local checks,
 * its root and its operator (a user operator by a digest of its text). */
typedef struct agreement {
  int32_t status;
  int32_t root;
  int32_t op;              /* the built-in's index, -1 for a user operator */
  int32_t has_digest;      /* a live user operator: digest is its text's */
  unsigned char digest[32];
  char message[MESSAGE_BYTES];
} agreement;

/* This rank's checks that need no other rank, into mine. */
static void check_here(const mpi_call *c, agreement *mine) {
  memset(mine, 0, sizeof *mine);
  mine->root = c->root;
  mine->op = orx_mpi_builtin_index(c->op);
  const char *variable = NULL;
  if (c->root < 0 || c->root >= c->size) {
    mine->status = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    snprintf(mine->message, sizeof mine->message, "root %d is not a rank of comm (%d ranks)",
             c->root, c->size);
  } else if (!orx_mpi_cuda_setting_valid(&variable)) {
    mine->status = OCL_REDUCE_ERROR_INVALID_OPTION;
    snprintf(mine->message, sizeof mine->message,
             "OCL_REDUCE_MPI_CUDA_AWARE is '%.200s', not auto or off", variable);
  } else if (mine->op < 0 && c->op) {
    const ocl_reduce_status s = ocl_reduce_operator_digest(c->op, mine->digest);
    /* A dead operator is the part's own check's to report (naming it as every call does). */
    mine->has_digest = s == OCL_REDUCE_OK;
    if (s != OCL_REDUCE_OK && s != OCL_REDUCE_ERROR_MISUSE) {
      mine->status = s;
      snprintf(mine->message, sizeof mine->message, "%.400s", ocl_reduce_last_error(NULL));
    }
  }
}

/* The verdict every rank reaches alike from every rank's agreement. */
static ocl_reduce_status judge_agreements(const mpi_call *c, const agreement *all) {
  for (int r = 0; r < c->size; r++)
    if (all[r].status != OCL_REDUCE_OK)
      return orx_mpi_fail((ocl_reduce_status)all[r].status, "%s: rank %d: %.400s", c->function, r,
                          all[r].message);
  for (int r = 1; r < c->size; r++) {
    if (all[r].root != all[0].root)
      return orx_mpi_fail(OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                          "%s: rank %d's root is %d, rank 0's is %d: the ranks differ", c->function,
                          r, all[r].root, all[0].root);
    if (all[r].op != all[0].op || all[r].has_digest != all[0].has_digest ||
        memcmp(all[r].digest, all[0].digest, sizeof all[0].digest) != 0)
      return orx_mpi_fail(OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                          "%s: rank %d's operator differs from rank 0's (another operator, or a "
                          "user operator of another text, sizes or order)",
                          c->function, r);
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_mpi_begin(mpi_call *c) {
  if (c->comm == MPI_COMM_NULL)
    return orx_mpi_fail(OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: comm is MPI_COMM_NULL",
                        c->function);
  int code = MPI_Comm_rank(c->comm, &c->rank);
  if (code == MPI_SUCCESS)
    code = MPI_Comm_size(c->comm, &c->size);
  if (code != MPI_SUCCESS)
    return orx_mpi_failed(c, "MPI_Comm_rank", code);
  /* Every rank takes part in this exchange whatever it found: a rank that returned alone (a
   * root out of range, say) would leave the others waiting in the next collective. */
  agreement mine;
  check_here(c, &mine);
  agreement *all = orx_mpi_gather_space(c, sizeof *all);
  code = MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                       c->comm);
  const ocl_reduce_status status = code == MPI_SUCCESS ? judge_agreements(c, all)
                                                       : orx_mpi_failed(c, "MPI_Allgather", code);
  free(all);
  return status;
}

void orx_mpi_record_failure(rank_record *r, const mpi_call *c, ocl_reduce_status status,
                            const char *own) {
  r->status = status;
  /* A group reports its failures as the thread's. */
  snprintf(r->message, sizeof r->message, "%s",
           own ? own : ocl_reduce_last_error(c->of_group ? NULL : c->ctx));
}

int32_t orx_mpi_builtin_index(ocl_reduce_op op) {
  for (int32_t i = 0; i < OCL_REDUCE_BUILTIN_OPS; i++)
    if (op == OCL_REDUCE_BUILTIN_OP(i))
      return i;
  return -1;
}

void orx_mpi_record_operator(rank_record *r, const mpi_call *c, uint64_t out_bytes) {
  memset(r, 0, sizeof *r);
  r->op = orx_mpi_builtin_index(c->op);
  r->type = (int32_t)c->type;
  r->root = c->root;
  r->out_bytes = out_bytes;
}

ocl_reduce_status orx_mpi_judge(const mpi_call *c, const rank_record *all, int ref, char *message,
                                size_t capacity) {
  for (int r = 0; r < c->size; r++)
    if (all[r].status != OCL_REDUCE_OK) {
      snprintf(message, capacity, "rank %d: %.400s", r, all[r].message);
      return (ocl_reduce_status)all[r].status;
    }
  for (int r = 0; r < c->size; r++) {
    const rank_record *a = &all[r], *b = &all[ref];
    if (a->op != b->op || a->type != b->type || a->root != b->root ||
        a->out_bytes != b->out_bytes || a->segment_length != b->segment_length) {
      static const char differ[] =
          "%s: rank %d's operator, type, root, state size or segment length differ from rank %d's";
      snprintf(message, capacity, differ, c->function, r, ref);
      return OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    }
  }
  return OCL_REDUCE_OK;
}

/* Room for every rank's record. The other ranks are already in the collective: without these
 * few hundred bytes per rank the job cannot go on, and aborts (MPI's way) rather than hang. */
void *orx_mpi_gather_space(const mpi_call *c, size_t bytes) {
  void *all = calloc((size_t)c->size, bytes);
  if (!all) {
    fprintf(stderr, "%s: out of host memory for %d ranks' records\n", c->function, c->size);
    MPI_Abort(c->comm, 1);
  }
  return all;
}

size_t orx_mpi_result_room(const mpi_call *c, char *text, size_t capacity) {
  const ocl_reduce_output *out = &c->result;
  if (!out->buffer) {
    snprintf(text, capacity, "result_bytes is %zu", out->bytes);
    return out->bytes;
  }
  const size_t size = ocl_reduce_buffer_size(out->buffer);
  const size_t room = out->offset < size ? size - out->offset : 0;
  snprintf(text, capacity, "the result buffer holds %zu bytes past offset %zu", room, out->offset);
  return room;
}

ocl_reduce_status orx_mpi_agree(const mpi_call *c, ocl_reduce_status status, const char *message) {
  typedef struct outcome {
    int32_t status;
    char message[MESSAGE_BYTES];
  } outcome;
  outcome mine;
  memset(&mine, 0, sizeof mine);
  mine.status = status;
  if (status != OCL_REDUCE_OK)
    snprintf(mine.message, sizeof mine.message, "%s", message);
  outcome *all = orx_mpi_gather_space(c, sizeof *all);
  const int code =
      MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, c->comm);
  ocl_reduce_status agreed = OCL_REDUCE_OK;
  if (code != MPI_SUCCESS)
    agreed = orx_mpi_failed(c, "MPI_Allgather", code);
  for (int r = 0; code == MPI_SUCCESS && r < c->size && agreed == OCL_REDUCE_OK; r++)
    if (all[r].status != OCL_REDUCE_OK)
      agreed = orx_mpi_fail((ocl_reduce_status)all[r].status, "%s: rank %d: %.400s", c->function, r,
                            all[r].message);
  free(all);
  return agreed;
}
