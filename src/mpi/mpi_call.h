/* =================================================================================================
 * mpi_call.h: one collective call of the MPI component as a rank makes it, and what the ranks
 * exchange to take the same decision (mpi_call.c): the checks every rank makes alike, each
 * rank's record of its part and the root's reply. ocl_reduce_mpi.c's reductions build on it.
 * ============================================================================================== */
#ifndef ORX_MPI_CALL_H
#define ORX_MPI_CALL_H

#include <mpi.h>
#include <stdint.h>

#include "ocl_reduce.h"
#include "ocl_reduce_group.h"

/* The largest state or result that travels: a user operator's state is at most 64 bytes, and
 * every built-in state fits. */
#define MAX_BYTES 64
#define MESSAGE_BYTES 480

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
  int32_t to_buffer;       /* the result(s) go to a buffer: a write after the collective */
  int32_t device_gather;   /* segments: ... unless MPI gathers them there from device memory */
  char message[MESSAGE_BYTES];
  unsigned char state[MAX_BYTES];
} rank_record;

/* The root's answer to every rank. */
typedef struct root_reply {
  int32_t status;
  int32_t to_buffer; /* some rank writes the result into a buffer: orx_mpi_agree follows */
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
  ocl_reduce_output result; /* host memory, or a buffer written through host memory */
  int root;
  MPI_Comm comm;
  int rank, size;
} mpi_call;

/* The calling thread's message (ocl_reduce_mpi_last_error) from fmt; returns status. */
ocl_reduce_status orx_mpi_fail(ocl_reduce_status status, const char *fmt, ...);
/* BACKEND, naming the call, the MPI function `what` and MPI's text for `code`. */
ocl_reduce_status orx_mpi_failed(const mpi_call *c, const char *what, int code);
/* Checks what every rank can check alike (no communication: each takes the same decision), and
 * sets c's rank and size. */
ocl_reduce_status orx_mpi_begin(mpi_call *c);
/* The record's status and message from a failed local step (the context's message, or the
 * call's own when there is no context). */
void orx_mpi_record_failure(rank_record *r, const mpi_call *c, ocl_reduce_status status,
                            const char *own);
/* A built-in operator's index (ocl_reduce.h's OCL_REDUCE_BUILTIN_OP), -1 for a user operator:
 * what ranks compare (a user operator is each rank's own). */
int32_t orx_mpi_builtin_index(ocl_reduce_op op);
/* A fresh record of the call's operator, type and root, and the bytes of one state or result. */
void orx_mpi_record_operator(rank_record *r, const mpi_call *c, uint64_t out_bytes);
/* The first failing rank, else the first that disagrees with rank `ref`: OK when all agree. */
ocl_reduce_status orx_mpi_judge(const mpi_call *c, const rank_record *all, int ref, char *message,
                                size_t capacity);
/* Room for every rank's record of `bytes` (zeroed); aborts the job (MPI's way) rather than hang
 * where there is none. */
void *orx_mpi_gather_space(const mpi_call *c, size_t bytes);
/* The bytes c->result holds (a buffer's past its offset), and its description for messages
 * ("result_bytes is 4", "the result buffer holds 4 bytes past offset 8"; text may be NULL). */
size_t orx_mpi_result_room(const mpi_call *c, char *text, size_t capacity);
/* After a step each rank takes alone (staging results for a buffer, writing them into it): every
 * rank learns every rank's outcome and returns the first failing rank's status with its
 * `message`, OK when none failed, so that such calls keep "every rank returns the same status". */
ocl_reduce_status orx_mpi_agree(const mpi_call *c, ocl_reduce_status status, const char *message);

/* A rank's failed write of results into its buffer (after the collective: a device's failure),
 * as every rank reports it; the buffer's context has the write's own message. */
#define WRITE_FAILED                                                                               \
  "ocl_reduce_buffer_write of the results into the rank's buffer failed (its context's "           \
  "ocl_reduce_last_error says why)"

/* The segmented all-reduce of one call (mpi_segments.c). */
ocl_reduce_status orx_mpi_reduce_segments(mpi_call *c, size_t segment_count,
                                          size_t segment_length);

#endif /* ORX_MPI_CALL_H */
