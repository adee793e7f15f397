/* =================================================================================================
 * run_by_key_count.c: the runs of a reduce-by-key call counted on the device before its pass
 * (run_by_key_pass.c), where the outputs might not hold them, and the status of outputs that do
 * not (both plans report it).
 * ============================================================================================== */
#include "exec/run.h"

ocl_reduce_status orx_key_outputs_too_small(ocl_reduce_context *ctx, const char *function,
                                            uint64_t runs, size_t keys_room,
                                            size_t results_room) {
  return orx_fail(ctx, OCL_REDUCE_ERROR_OUTPUT_TOO_SMALL,
                  "%s: the keys form %llu runs; keys_out holds %zu keys and results_out %zu "
                  "results (nothing written)",
                  function, (unsigned long long)runs, keys_room, results_room);
}

/* The runs of count > 0 keys on the device: count less the keys equal to the one before, which
 * COUNT_EQUAL counts over the keys against themselves one apart (equal bits). */
static ocl_reduce_status count_runs(ocl_reduce_context *ctx, const orx_io *keys,
                                    size_t key_bytes, size_t count, const char *function,
                                    uint64_t *runs) {
  uint64_t equal = 0;
  if (count > 1) {
    orx_pair_call pair;
    ORX_FORWARD(orx_resolve_pair(ctx, function, OCL_REDUCE_COUNT_EQUAL,
                                 key_bytes == 8 ? OCL_REDUCE_U64 : OCL_REDUCE_U32, &pair));
    const orx_io next = orx_io_from(keys, 1, key_bytes);
    const ocl_reduce_output output = ocl_reduce_host_output(&equal, sizeof equal);
    orx_io out;
    ORX_FORWARD(orx_resolve_output(ctx, function, "count", &output, sizeof equal, 1, &out));
    ORX_FORWARD(orx_run_pairs(ctx, &pair, keys, &next, count - 1, 0, 0, &out));
  }
  *runs = count - equal;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_key_count_fitting(ocl_reduce_context *ctx, const orx_key_call *k,
                                        const orx_seg_call *c, const orx_io *keys,
                                        uint64_t *runs, uint64_t *run_count) {
  ORX_FORWARD(count_runs(ctx, keys, k->key_bytes, (size_t)c->elements, c->function, runs));
  if (*runs <= k->keys_out.capacity && *runs <= c->out.capacity)
    return OCL_REDUCE_OK;
  *run_count = *runs;
  return orx_key_outputs_too_small(ctx, c->function, *runs, k->keys_out.capacity,
                                   c->out.capacity);
}
