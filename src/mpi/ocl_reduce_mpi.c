/* =================================================================================================
 * ocl_reduce_mpi.c: reductions across MPI ranks (include/ocl_reduce_mpi.h). A client of the
 * library's public API only: each rank reduces its part to a state (ocl_reduce_partial), the
 * states travel as bytes in one fixed-size record per rank, with the rank's status and message,
 * so that every rank takes the same decision; the root combines them in rank order and sends the
 * outcome back: a built-in operator's on its calling thread (ocl_reduce_final_host), a user
 * operator's on its device (ocl_reduce_final).
 * ============================================================================================== */
#include "ocl_reduce_mpi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_call.h"
#include "mpi/mpi_device.h"

/* The root's combine of the ranks' `bytes`-byte states in rank order: a built-in operator's on
 * the calling thread, where the device's final stage took an upload, a launch and a read (some
 * 20-27 us: the component's overhead against a hand-written MPI_Allreduce on H200s); a user
 * operator's, or a built-in's without a host build, on the root's device. */
static ocl_reduce_status combine(const mpi_call *c, const unsigned char *states, size_t bytes,
                                 void *result, size_t result_bytes, char *message,
                                 size_t capacity) {
  const ocl_reduce_input in = ocl_reduce_host_input(states, (size_t)c->size * bytes);
  const ocl_reduce_output out = ocl_reduce_host_output(result, result_bytes);
  ocl_reduce_status status = OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION;
  const ocl_reduce_context *reporter = NULL; /* whose last error tells a failure */
  if (orx_mpi_builtin_index(c->op) >= 0) {
    /* A context of CROSS_DEVICE determinism makes float SUM's states SUM_REPRODUCIBLE's. */
    const ocl_reduce_op as_run =
        c->op == OCL_REDUCE_SUM && bytes != ocl_reduce_state_size(NULL, c->op, c->type)
            ? OCL_REDUCE_SUM_REPRODUCIBLE
            : c->op;
    status = ocl_reduce_final_host(as_run, c->type, in, (size_t)c->size, out);
  }
  if (status == OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION) {
    status = ocl_reduce_final(c->ctx, c->op, c->type, in, (size_t)c->size, out);
    reporter = c->ctx;
  }
  if (status != OCL_REDUCE_OK)
    snprintf(message, capacity, "rank %d, combining: %s", c->root,
             ocl_reduce_last_error(reporter));
  return status;
}

/* ---- Whole arrays ------------------------------------------------------------------------- */

/* This rank's record: its part reduced to a state (its first element is element `base` of the
 * whole array), or the failure every rank will see. */
static void part_here(const mpi_call *c, size_t count, uint64_t base, int receives, size_t bytes,
                      rank_record *mine) {
  const size_t needed = ocl_reduce_result_size(c->op, c->type);
  orx_mpi_record_operator(mine, c, bytes);
  mine->to_buffer = receives && c->result.buffer;
  const ocl_reduce_output state = ocl_reduce_host_output(mine->state, bytes);
  char room_text[96], own[192];
  const size_t result_bytes = orx_mpi_result_room(c, room_text, sizeof room_text);
  snprintf(own, sizeof own, "%s, and one result of %s is %zu bytes", room_text,
           ocl_reduce_op_name(c->op), needed);
  ocl_reduce_status status;
  if (!c->ctx)
    orx_mpi_record_failure(mine, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                           c->of_group ? "group is NULL" : "ctx is NULL");
  else if (!c->result.host && !c->result.buffer && receives)
    orx_mpi_record_failure(mine, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "result is NULL");
  else if (receives && needed > 0 && result_bytes < needed)
    orx_mpi_record_failure(mine, c, OCL_REDUCE_ERROR_INVALID_ARGUMENT, own);
  else if (bytes > MAX_BYTES)
    orx_mpi_record_failure(mine, c, OCL_REDUCE_ERROR_INTERNAL, "a state above 64 bytes");
  else if ((status = c->group ? ocl_reduce_group_partial(c->group, c->op, c->type, c->input, count,
                                                         base, state)
                              : ocl_reduce_partial(c->ctx, c->op, c->type, c->input, count, base,
                                                   state)) != OCL_REDUCE_OK)
    orx_mpi_record_failure(mine, c, status, NULL);
}

/* The root's reply from every rank's record: the verdict, and where every rank succeeded, the
 * states combined in rank order. */
static void root_reply_of(const mpi_call *c, const rank_record *all, size_t bytes,
                          root_reply *reply) {
  reply->status = orx_mpi_judge(c, all, c->root, reply->message, sizeof reply->message);
  for (int r = 0; r < c->size; r++)
    reply->to_buffer |= all[r].to_buffer;
  /* The states in rank order, packed. */
  unsigned char *states = reply->status == OCL_REDUCE_OK ? malloc((size_t)c->size * bytes) : NULL;
  if (reply->status == OCL_REDUCE_OK && !states)
    reply->status = OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY;
  for (int r = 0; states && r < c->size; r++)
    memcpy(states + (size_t)r * bytes, all[r].state, bytes);
  if (states)
    reply->status = combine(c, states, bytes, reply->result, sizeof reply->result, reply->message,
                            sizeof reply->message);
  free(states);
}

static ocl_reduce_status reduce_parts(mpi_call *c, size_t count, int everyone) {
  ocl_reduce_status status = orx_mpi_begin(c);
  if (status != OCL_REDUCE_OK)
    return status;
  /* Where this rank's part starts in the whole array. */
  uint64_t mine = count, base = 0;
  int code = MPI_Exscan(&mine, &base, 1, MPI_UINT64_T, MPI_SUM, c->comm);
  if (code != MPI_SUCCESS)
    return orx_mpi_failed(c, "MPI_Exscan", code);
  if (c->rank == 0)
    base = 0; /* MPI leaves rank 0's undefined */
  const size_t bytes = c->ctx ? ocl_reduce_state_size(c->ctx, c->op, c->type) : 0;
  const int receives = everyone || c->rank == c->root;
  rank_record mine_record;
  part_here(c, count, base, receives, bytes, &mine_record);
  rank_record *all = c->rank == c->root ? orx_mpi_gather_space(c, sizeof *all) : NULL;
  root_reply reply;
  memset(&reply, 0, sizeof reply);
  code = MPI_Gather(&mine_record, (int)sizeof mine_record, MPI_BYTE, all, (int)sizeof mine_record,
                    MPI_BYTE, c->root, c->comm);
  if (code != MPI_SUCCESS) {
    free(all);
    return orx_mpi_failed(c, "MPI_Gather", code);
  }
  if (all)
    root_reply_of(c, all, bytes, &reply);
  free(all);
  code = MPI_Bcast(&reply, (int)sizeof reply, MPI_BYTE, c->root, c->comm);
  if (code != MPI_SUCCESS)
    return orx_mpi_failed(c, "MPI_Bcast", code);
  if (reply.status != OCL_REDUCE_OK)
    return orx_mpi_fail((ocl_reduce_status)reply.status, "%s: %.400s", c->function, reply.message);
  const size_t needed = ocl_reduce_result_size(c->op, c->type);
  ocl_reduce_status written = OCL_REDUCE_OK;
  if (receives && !c->result.buffer)
    memcpy(c->result.host, reply.result, needed);
  else if (receives) /* through host memory, where MPI moved it */
    written = ocl_reduce_buffer_write(c->result.buffer, c->result.offset, reply.result, needed);
  return reply.to_buffer ? orx_mpi_agree(c, written, WRITE_FAILED) : written;
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
  c.result = result;
  return reduce_parts(&c, count, 0);
}

ocl_reduce_status ocl_reduce_mpi_allreduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                           ocl_reduce_type type, ocl_reduce_input input,
                                           size_t count, ocl_reduce_output result, MPI_Comm comm) {
  mpi_call c = make_call("ocl_reduce_mpi_allreduce", ctx, op, type, input, 0, comm);
  c.result = result;
  return reduce_parts(&c, count, 1);
}

/* A rank's group: its part reduced over the group's devices to one state (in device order), the
 * states then combined across ranks as a context's are, on the root group's first device. */
static mpi_call group_call(const char *function, ocl_reduce_group *group, ocl_reduce_op op,
                           ocl_reduce_type type, ocl_reduce_input input, int root, MPI_Comm comm,
                           const ocl_reduce_output *result) {
  mpi_call c = make_call(function, ocl_reduce_group_context(group, 0), op, type, input, root, comm);
  c.group = group;
  c.of_group = 1;
  c.result = *result;
  return c;
}

ocl_reduce_status ocl_reduce_mpi_reduce_group(ocl_reduce_group *group, ocl_reduce_op op,
                                              ocl_reduce_type type, ocl_reduce_input input,
                                              size_t count, ocl_reduce_output result, int root,
                                              MPI_Comm comm) {
  mpi_call c =
      group_call("ocl_reduce_mpi_reduce_group", group, op, type, input, root, comm, &result);
  return reduce_parts(&c, count, 0);
}

ocl_reduce_status ocl_reduce_mpi_allreduce_group(ocl_reduce_group *group, ocl_reduce_op op,
                                                 ocl_reduce_type type, ocl_reduce_input input,
                                                 size_t count, ocl_reduce_output result,
                                                 MPI_Comm comm) {
  mpi_call c =
      group_call("ocl_reduce_mpi_allreduce_group", group, op, type, input, 0, comm, &result);
  return reduce_parts(&c, count, 1);
}

ocl_reduce_status ocl_reduce_mpi_segments_allreduce(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                    ocl_reduce_type type, ocl_reduce_input input,
                                                    size_t segment_count, size_t segment_length,
                                                    ocl_reduce_output results, MPI_Comm comm) {
  mpi_call c = make_call("ocl_reduce_mpi_segments_allreduce", ctx, op, type, input, 0, comm);
  c.result = results;
  return orx_mpi_reduce_segments(&c, segment_count, segment_length);
}
