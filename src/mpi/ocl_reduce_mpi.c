/* =================================================================================================
 * ocl_reduce_mpi.c: reductions across MPI ranks (include/ocl_reduce_mpi.h). A client of the
 * library's public API only: each rank reduces its part to a state (ocl_reduce_partial), the
 * states travel as bytes in one fixed-size record per rank, with the rank's status and message,
 * so that every rank takes the same decision; the root combines them in rank order
 * (ocl_reduce_final) and sends the outcome back.
 * ============================================================================================== */
#include "ocl_reduce_mpi.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest state or result that travels: a user operator's state is at most 64 bytes, and
 * every built-in state fits. */
#define MAX_BYTES 64
#define MESSAGE_BYTES 480

static _Thread_local char last_error[MESSAGE_BYTES + 64];

const char *ocl_reduce_mpi_last_error(void) { return last_error; }

static ocl_reduce_status fail(ocl_reduce_status status, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, args);
  va_end(args);
  return status;
}

/* Results go to host memory: MPI's collectives move them. */
#define BUFFER_RESULTS "results are a buffer; they go to host memory, which MPI's collectives move"

/* What a rank tells the root (or every rank) of its part. Plain bytes: every rank runs the same
 * library version on the same byte order (ocl_reduce.h, "Reductions in parts"). */
typedef struct rank_record {
  int32_t status;
  int32_t op, type; /* -1 for a user operator */
  int32_t root;
  uint64_t out_bytes;      /* one state (whole arrays) or one result (segments) */
  uint64_t segment_length; /* segments */
  uint64_t segment_count;
  int32_t results_missing; /* segments: results is NULL */
  uint64_t results_bytes;  /* segments: the bytes of results */
  char message[MESSAGE_BYTES];
  unsigned char state[MAX_BYTES];
} rank_record;

/* The root's answer to every rank. */
typedef struct root_reply {
  int32_t status;
  char message[MESSAGE_BYTES];
  unsigned char result[MAX_BYTES];
} root_reply;

/* One collective call as this rank makes it. */
typedef struct mpi_call {
  const char *function;
  ocl_reduce_context *ctx; /* the rank's context; with a group, its first device's */
  ocl_reduce_group *group; /* the rank's group of devices, or NULL */
  int of_group;            /* a _group entry point (its group may be NULL: refused) */
  ocl_reduce_op op;
  ocl_reduce_type type;
  ocl_reduce_input input;
  int buffer_results; /* results given as a buffer: refused, by every rank alike */
  int root;
  MPI_Comm comm;
  int rank, size;
} mpi_call;

static ocl_reduce_status mpi_failed(const mpi_call *c, const char *what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return fail(OCL_REDUCE_ERROR_BACKEND, "%s: %s failed: %s", c->function, what, text);
}

/* Checks what every rank can check alike (no communication: each takes the same decision). */
static ocl_reduce_status begin(mpi_call *c) {
  if (c->comm == MPI_COMM_NULL)
    return fail(OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: comm is MPI_COMM_NULL", c->function);
  int code = MPI_Comm_rank(c->comm, &c->rank);
  if (code == MPI_SUCCESS)
    code = MPI_Comm_size(c->comm, &c->size);
  if (code != MPI_SUCCESS)
    return mpi_failed(c, "MPI_Comm_rank", code);
  if (c->root < 0 || c->root >= c->size)
    return fail(OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: root %d is not a rank of comm (%d ranks)",
                c->function, c->root, c->size);
  return OCL_REDUCE_OK;
}

/* The record's status and message from a failed local step (the context's message, or the
 * call's own when there is no context). */
static void record_failure(rank_record *r, const mpi_call *c, ocl_reduce_status status,
                           const char *own) {
  r->status = status;
  /* A group reports its failures as the thread's. */
  snprintf(r->message, sizeof r->message, "%s",
           own ? own : ocl_reduce_last_error(c->of_group ? NULL : c->ctx));
}

/* A built-in operator's index (ocl_reduce.h's OCL_REDUCE_BUILTIN_OP), -1 for a user operator:
 * what ranks compare (a user operator is each rank's own). */
static int32_t builtin_index(ocl_reduce_op op) {
  for (int32_t i = 0; i < OCL_REDUCE_BUILTIN_OPS; i++)
    if (op == OCL_REDUCE_BUILTIN_OP(i))
      return i;
  return -1;
}

static void record_operator(rank_record *r, const mpi_call *c, uint64_t out_bytes) {
  memset(r, 0, sizeof *r);
  r->op = builtin_index(c->op);
  r->type = (int32_t)c->type;
  r->root = c->root;
  r->out_bytes = out_bytes;
}

/* The first failing rank, else the first that disagrees with rank `ref`: OK when all agree. */
static ocl_reduce_status judge(const mpi_call *c, const rank_record *all, int ref, char *message,
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
static rank_record *gather_space(const mpi_call *c) {
  rank_record *all = calloc((size_t)c->size, sizeof *all);
  if (!all) {
    fprintf(stderr, "%s: out of host memory for %d ranks' records\n", c->function, c->size);
    MPI_Abort(c->comm, 1);
  }
  return all;
}

/* ---- Whole arrays ------------------------------------------------------------------------- */

static ocl_reduce_status reduce_parts(mpi_call *c, size_t count, void *result, size_t result_bytes,
                                      int everyone) {
  ocl_reduce_status status = begin(c);
  if (status != OCL_REDUCE_OK)
    return status;
  /* Where this rank's part starts in the whole array. */
  uint64_t mine = count, base = 0;
  int code = MPI_Exscan(&mine, &base, 1, MPI_UINT64_T, MPI_SUM, c->comm);
  if (code != MPI_SUCCESS)
    return mpi_failed(c, "MPI_Exscan", code);
  if (c->rank == 0)
    base = 0; /* MPI leaves rank 0's undefined */
  const size_t bytes = c->ctx ? ocl_reduce_state_size(c->ctx, c->op, c->type) : 0;
  const size_t needed = ocl_reduce_result_size(c->op, c->type);
  const int receives = everyone || c->rank == c->root;
  rank_record mine_record;
  record_operator(&mine_record, c, bytes);
  const ocl_reduce_output state = ocl_reduce_host_output(mine_record.state, bytes);
  char own[160];
  snprintf(own, sizeof own, "result_bytes is %zu, and one result of %s is %zu bytes", result_bytes,
           ocl_reduce_op_name(c->op), needed);
  if (!c->ctx)
    record_failure(&mine_record, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                   c->of_group ? "group is NULL" : "ctx is NULL");
  else if (c->buffer_results)
    record_failure(&mine_record, c, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, BUFFER_RESULTS);
  else if (!result && receives)
    record_failure(&mine_record, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "result is NULL");
  else if (receives && needed > 0 && result_bytes < needed)
    record_failure(&mine_record, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT, own);
  else if (bytes > MAX_BYTES)
    record_failure(&mine_record, c, OCL_REDUCE_ERROR_INTERNAL, "a state above 64 bytes");
  else if ((status = c->group ? ocl_reduce_group_partial(c->group, c->op, c->type, c->input, count,
                                                         base, state)
                              : ocl_reduce_partial(c->ctx, c->op, c->type, c->input, count, base,
                                                   state)) != OCL_REDUCE_OK)
    record_failure(&mine_record, c, status, NULL);
  rank_record *all = c->rank == c->root ? gather_space(c) : NULL;
  root_reply reply;
  memset(&reply, 0, sizeof reply);
  code = MPI_Gather(&mine_record, (int)sizeof mine_record, MPI_BYTE, all, (int)sizeof mine_record,
                    MPI_BYTE, c->root, c->comm);
  if (code != MPI_SUCCESS) {
    free(all);
    return mpi_failed(c, "MPI_Gather", code);
  }
  if (all) {
    reply.status = judge(c, all, c->root, reply.message, sizeof reply.message);
    /* The states in rank order, packed, combined on the root's device. */
    unsigned char *states = reply.status == OCL_REDUCE_OK ? malloc((size_t)c->size * bytes) : NULL;
    if (reply.status == OCL_REDUCE_OK && !states)
      reply.status = OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
    for (int r = 0; states && r < c->size; r++)
      memcpy(states + (size_t)r * bytes, all[r].state, bytes);
    if (states) {
      const ocl_reduce_input in = ocl_reduce_host_input(states, (size_t)c->size * bytes);
      const ocl_reduce_output out = ocl_reduce_host_output(reply.result, sizeof reply.result);
      reply.status = ocl_reduce_final(c->ctx, c->op, c->type, in, (size_t)c->size, out);
      if (reply.status != OCL_REDUCE_OK)
        snprintf(reply.message, sizeof reply.message, "rank %d, combining: %s", c->root,
                 ocl_reduce_last_error(c->ctx));
    }
    free(states);
    free(all);
  }
  code = MPI_Bcast(&reply, (int)sizeof reply, MPI_BYTE, c->root, c->comm);
  if (code != MPI_SUCCESS)
    return mpi_failed(c, "MPI_Bcast", code);
  if (reply.status != OCL_REDUCE_OK)
    return fail((ocl_reduce_status)reply.status, "%s: %.400s", c->function, reply.message);
  if (receives)
    memcpy(result, reply.result, needed);
  return OCL_REDUCE_OK;
}

/* ---- Segments ------------------------------------------------------------------------------- */

static ocl_reduce_status reduce_segments(mpi_call *c, size_t segment_count, size_t segment_length,
                                         void *results, size_t results_bytes) {
  ocl_reduce_status status = begin(c);
  if (status != OCL_REDUCE_OK)
    return status;
  const size_t bytes = c->ctx ? ocl_reduce_result_size(c->op, c->type) : 0;
  rank_record mine;
  record_operator(&mine, c, bytes);
  mine.segment_length = segment_length;
  mine.segment_count = segment_count;
  mine.results_missing = !results;
  mine.results_bytes = results ? results_bytes : 0;
  unsigned char *local = malloc(segment_count * bytes + 1);
  const ocl_reduce_output out = ocl_reduce_host_output(local, segment_count * bytes);
  if (!c->ctx)
    record_failure(&mine, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "ctx is NULL");
  else if (c->buffer_results)
    record_failure(&mine, c, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION, BUFFER_RESULTS);
  else if (segment_count > INT_MAX)
    record_failure(&mine, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                   "segment_count is above INT_MAX (MPI's counts)");
  else if (!local)
    record_failure(&mine, c, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  else if ((status = ocl_reduce_segments(c->ctx, c->op, c->type, c->input, segment_count,
                                         segment_length, out)) != OCL_REDUCE_OK)
    record_failure(&mine, c, status, NULL);
  /* Every rank sees every record and decides alike. */
  rank_record *all = gather_space(c);
  int code =
      MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, c->comm);
  if (code != MPI_SUCCESS) {
    free(all);
    free(local);
    return mpi_failed(c, "MPI_Allgather", code);
  }
  char message[MESSAGE_BYTES];
  status = judge(c, all, 0, message, sizeof message);
  int *counts = NULL, *displacements = NULL;
  uint64_t total = 0;
  for (int r = 0; r < c->size; r++)
    total += all[r].segment_count;
  for (int r = 0; status == OCL_REDUCE_OK && total > 0 && r < c->size; r++)
    if (all[r].results_missing) {
      snprintf(message, sizeof message, "rank %d: results is NULL", r);
      status = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    } else if (bytes > 0 && total <= UINT64_MAX / bytes && all[r].results_bytes < total * bytes) {
      snprintf(message, sizeof message,
               "rank %d: results is %llu bytes, and %llu results of %zu bytes need %llu", r,
               (unsigned long long)all[r].results_bytes, (unsigned long long)total, bytes,
               (unsigned long long)(total * bytes));
      status = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
    }
  if (status == OCL_REDUCE_OK && total > INT_MAX) {
    snprintf(message, sizeof message, "%llu segments in all: above INT_MAX (MPI's counts)",
             (unsigned long long)total);
    status = OCL_REDUCE_ERROR_INVALID_ARGUMENT;
  }
  if (status == OCL_REDUCE_OK && total > 0) {
    counts = malloc((size_t)c->size * sizeof *counts);
    displacements = malloc((size_t)c->size * sizeof *displacements);
    /* Every rank allocates alike, so a failure here is every rank's too (or MPI aborts). */
    if (!counts || !displacements) {
      fprintf(stderr, "%s: out of host memory\n", c->function);
      MPI_Abort(c->comm, 1);
    }
    int at = 0;
    for (int r = 0; r < c->size; r++) {
      counts[r] = (int)all[r].segment_count;
      displacements[r] = at;
      at += counts[r];
    }
    MPI_Datatype one_result;
    code = MPI_Type_contiguous((int)bytes, MPI_BYTE, &one_result);
    if (code == MPI_SUCCESS)
      code = MPI_Type_commit(&one_result);
    if (code == MPI_SUCCESS) {
      code = MPI_Allgatherv(local, (int)segment_count, one_result, results, counts, displacements,
                            one_result, c->comm);
      MPI_Type_free(&one_result);
    }
    if (code != MPI_SUCCESS)
      status = mpi_failed(c, "MPI_Allgatherv", code);
  }
  free(counts);
  free(displacements);
  free(all);
  free(local);
  if (status != OCL_REDUCE_OK && status != OCL_REDUCE_ERROR_BACKEND)
    return fail(status, "%s: %.400s", c->function, message);
  return status;
}

/* ---- Entry points ---------------------------------------------------------------------------- */

static mpi_call make_call(const char *function, ocl_reduce_context *ctx, ocl_reduce_op op,
                          ocl_reduce_type type, ocl_reduce_input input, int root, MPI_Comm comm) {
  mpi_call c;
  memset(&c, 0, sizeof c);
  c.function = function;
  c.ctx = ctx;
  c.op = op;
  c.type = type;
  c.input = input;
  c.root = root;
  c.comm = comm;
  return c;
}

ocl_reduce_status ocl_reduce_mpi_reduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                        ocl_reduce_type type, ocl_reduce_input input, size_t count,
                                        ocl_reduce_output result, int root, MPI_Comm comm) {
  mpi_call c = make_call("ocl_reduce_mpi_reduce", ctx, op, type, input, root, comm);
  c.buffer_results = result.buffer != NULL;
  return reduce_parts(&c, count, result.host, result.bytes, 0);
}

ocl_reduce_status ocl_reduce_mpi_allreduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                           ocl_reduce_type type, ocl_reduce_input input,
                                           size_t count, ocl_reduce_output result, MPI_Comm comm) {
  mpi_call c = make_call("ocl_reduce_mpi_allreduce", ctx, op, type, input, 0, comm);
  c.buffer_results = result.buffer != NULL;
  return reduce_parts(&c, count, result.host, result.bytes, 1);
}

/* A rank's group: its part reduced over the group's devices to one state (in device order), the
 * states then combined across ranks as a context's are, on the root group's first device. */
static mpi_call group_call(const char *function, ocl_reduce_group *group, ocl_reduce_op op,
                           ocl_reduce_type type, ocl_reduce_input input, int root, MPI_Comm comm,
                           const ocl_reduce_output *result) {
  mpi_call c = make_call(function, ocl_reduce_group_context(group, 0), op, type, input, root, comm);
  c.group = group;
  c.of_group = 1;
  c.buffer_results = result->buffer != NULL;
  return c;
}

ocl_reduce_status ocl_reduce_mpi_reduce_group(ocl_reduce_group *group, ocl_reduce_op op,
                                              ocl_reduce_type type, ocl_reduce_input input,
                                              size_t count, ocl_reduce_output result, int root,
                                              MPI_Comm comm) {
  mpi_call c =
      group_call("ocl_reduce_mpi_reduce_group", group, op, type, input, root, comm, &result);
  return reduce_parts(&c, count, result.host, result.bytes, 0);
}

ocl_reduce_status ocl_reduce_mpi_allreduce_group(ocl_reduce_group *group, ocl_reduce_op op,
                                                 ocl_reduce_type type, ocl_reduce_input input,
                                                 size_t count, ocl_reduce_output result,
                                                 MPI_Comm comm) {
  mpi_call c =
      group_call("ocl_reduce_mpi_allreduce_group", group, op, type, input, 0, comm, &result);
  return reduce_parts(&c, count, result.host, result.bytes, 1);
}

ocl_reduce_status ocl_reduce_mpi_segments_allreduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                    ocl_reduce_type type, ocl_reduce_input input,
                                                    size_t segment_count, size_t segment_length,
                                                    ocl_reduce_output results, MPI_Comm comm) {
  mpi_call c = make_call("ocl_reduce_mpi_segments_allreduce", ctx, op, type, input, 0, comm);
  c.buffer_results = results.buffer != NULL;
  return reduce_segments(&c, segment_count, segment_length, results.host, results.bytes);
}
