/*
 * ocl_reduce_by_key.h: reductions of the runs of equal keys, included by ocl_reduce.h: a key
 * column beside the values says where each run begins (docs/API.md, "Reduce by key").
 */
#ifndef OCL_REDUCE_BY_KEY_H
#define OCL_REDUCE_BY_KEY_H

#include "ocl_reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The runs of count (key, value) pairs: a run is a maximal stretch of consecutive equal keys
 * (key_type i32, u32, i64 or u64, compared as bits; equal keys apart are separate runs). Run r's
 * key goes to keys_out[r] and op over its values, in order, to results_out[r] (a result of
 * ocl_reduce_result_size(op, type) bytes; ARGMIN's index counts from the run's start); the number
 * of runs to *run_count. Outputs that hold fewer runs than there are give
 * OCL_REDUCE_ERROR_OUTPUT_TOO_SMALL with *run_count the number needed, and stay untouched: ask
 * with outputs of 0 bytes to size them exactly. count == 0: no runs. With both outputs in
 * buffers and run_count in ocl_reduce_host_alloc's memory the call may return once enqueued (see
 * "Enqueueing" in ocl_reduce.h; keys and values in host memory are read before it returns):
 * *run_count is then written with the results, so read it after ocl_reduce_finish (or once a
 * marker enqueued after the call has completed, or after a blocking read of an output). With
 * run_count elsewhere the call returns once the count is known. */
OCL_REDUCE_API ocl_reduce_status ocl_reduce_by_key(ocl_reduce_context *ctx, ocl_reduce_op op,
                                                   ocl_reduce_type type, ocl_reduce_type key_type,
                                                   ocl_reduce_input keys, ocl_reduce_input values,
                                                   size_t count, ocl_reduce_output keys_out,
                                                   ocl_reduce_output results_out,
                                                   uint64_t *run_count);

#ifdef __cplusplus
}
#endif

#endif /* OCL_REDUCE_BY_KEY_H */
