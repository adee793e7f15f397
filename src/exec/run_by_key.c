/* =================================================================================================
 * run_by_key.c: reductions of the runs of equal keys (ocl_reduce_by_key), once their arguments are
 * checked (run.h). The keys are read on the host, their runs found there and the values reduced
 * as segments by offsets (run_segments.c): every operator, type, path and determinism mode that
 * segments take, with their bits. This is the reference plan (docs/design/reduce-by-key.md,
 * step 1): it reads the keys twice where the one-pass kernel (run_by_key_pass.c) reads them once,
 * and it runs every call that kernel does not take (user operators, devices that do not order
 * work-groups, outputs one in host memory and one in a buffer, inputs larger than an allocation).
 *
 * Nothing is written before the runs are known to fit both outputs: the results first, then the
 * runs' keys, so that a failing reduction leaves keys_out as it was.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "base/ids.h"
#include "exec/context.h"
#include "exec/run.h"
#include "exec/staging.h"

/* Key i of `keys` (key_bytes 4 or 8), as bits. */
static uint64_t key_at(const unsigned char *keys, size_t key_bytes, size_t i) {
  if (key_bytes == 4) {
    uint32_t k;
    memcpy(&k, keys + i * 4, 4);
    return k;
  }
  uint64_t k;
  memcpy(&k, keys + i * 8, 8);
  return k;
}

uint64_t orx_key_runs(const unsigned char *keys, size_t key_bytes, size_t count,
                      uint64_t *heads) {
  uint64_t runs = 0;
  for (size_t i = 0; i < count; i++) {
    if (i > 0 && key_at(keys, key_bytes, i) == key_at(keys, key_bytes, i - 1))
      continue;
    if (heads)
      heads[runs] = i;
    runs++;
  }
  if (heads)
    heads[runs] = count;
  return runs;
}

void orx_key_gather(unsigned char *to, const unsigned char *keys, size_t key_bytes,
                    const uint64_t *heads, uint64_t runs) {
  /* In place where `to` is the keys' own memory: run r's head is at r or after it. */
  for (uint64_t r = 0; r < runs; r++)
    memmove(to + r * key_bytes, keys + heads[r] * key_bytes, key_bytes);
}

ocl_reduce_status orx_key_bytes(ocl_reduce_context *ctx, const char *function,
                                ocl_reduce_type key_type, size_t *bytes) {
  switch (key_type) {
  case OCL_REDUCE_I32:
  case OCL_REDUCE_U32: *bytes = 4; return OCL_REDUCE_OK;
  case OCL_REDUCE_I64:
  case OCL_REDUCE_U64: *bytes = 8; return OCL_REDUCE_OK;
  case OCL_REDUCE_F32:
  case OCL_REDUCE_F64:
  case OCL_REDUCE_F16:
  case OCL_REDUCE_BF16:
    return orx_fail(ctx, OCL_REDUCE_ERROR_UNSUPPORTED_OPERATION,
                    "%s: key_type %s: keys are i32, u32, i64 or u64 (compared as bits)", function,
                    orx_type_name(key_type));
  }
  return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: key_type %d is not a type",
                  function, (int)key_type);
}

/* The count keys on the host: host memory as it is, a buffer's read into *copy (the caller
 * frees it). */
static ocl_reduce_status host_keys(ocl_reduce_context *ctx, const orx_key_call *k, size_t count,
                                   const unsigned char **at, unsigned char **copy) {
  *copy = NULL;
  if (!k->keys.mem) {
    *at = k->keys.host;
    return OCL_REDUCE_OK;
  }
  const size_t bytes = count * k->key_bytes; /* fits: the input was resolved */
  if (!(*copy = orx_malloc(bytes)))
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  *at = *copy;
  return orx_download(ctx, k->keys.mem, k->keys.offset * k->key_bytes, *copy, bytes);
}

/* Device outputs must not overlap what the call reads, nor each other. */
static ocl_reduce_status check_apart(ocl_reduce_context *ctx, const orx_key_call *k,
                                     const orx_seg_call *c, uint64_t runs) {
  const size_t key_bytes = k->key_bytes, keys_read = c->elements * key_bytes;
  const size_t keys_written = (size_t)runs * key_bytes;
  const size_t results_written = (size_t)runs * c->result_bytes;
  ORX_FORWARD(orx_check_apart(ctx, c->function, "keys_out", &k->keys_out, keys_written, key_bytes,
                              "the keys", &k->keys, keys_read, key_bytes));
  ORX_FORWARD(orx_check_apart(ctx, c->function, "keys_out", &k->keys_out, keys_written, key_bytes,
                              "the values", &c->in, c->elements * c->elem, c->elem));
  ORX_FORWARD(orx_check_apart(ctx, c->function, "results_out", &c->out, results_written,
                              c->result_bytes, "the keys", &k->keys, keys_read, key_bytes));
  return orx_check_apart(ctx, c->function, "results_out", &c->out, results_written,
                         c->result_bytes, "keys_out", &k->keys_out, keys_written, key_bytes);
}

/* The runs' keys into keys_out: host memory directly, a buffer through the staging uploads. */
static ocl_reduce_status write_keys(ocl_reduce_context *ctx, const orx_key_call *k,
                                    const unsigned char *keys, const uint64_t *heads,
                                    uint64_t runs) {
  const size_t key_bytes = k->key_bytes, bytes = (size_t)runs * key_bytes;
  unsigned char *to = k->keys_out.host_out, *staged = NULL;
  if (k->keys_out.mem && !(to = staged = orx_malloc(bytes)))
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  orx_key_gather(to, keys, key_bytes, heads, runs);
  ocl_reduce_status s = OCL_REDUCE_OK;
  if (staged)
    s = orx_uploads_done(ctx, orx_upload(ctx, k->keys_out.mem, k->keys_out.offset * key_bytes,
                                         staged, bytes));
  free(staged);
  return s;
}

/* Runs found, sized and reduced, once the keys are on the host. */
static ocl_reduce_status reduce_runs(ocl_reduce_context *ctx, const orx_key_call *k,
                                     orx_seg_call *c, const unsigned char *keys,
                                     uint64_t *run_count) {
  const uint64_t runs = orx_key_runs(keys, k->key_bytes, c->elements, NULL);
  if (runs > k->keys_out.capacity || runs > c->out.capacity) {
    *run_count = runs;
    return orx_key_outputs_too_small(ctx, c->function, runs, k->keys_out.capacity,
                                     c->out.capacity);
  }
  ORX_FORWARD(check_apart(ctx, k, c, runs));
  uint64_t *heads = orx_malloc(((size_t)runs + 1) * sizeof *heads);
  if (!heads)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  orx_key_runs(keys, k->key_bytes, c->elements, heads);
  c->count = (size_t)runs;
  c->by_offsets = 1;
  c->host_offsets = heads;
  c->reach = c->elements;
  ocl_reduce_status s = orx_run_segments(ctx, c);
  if (s == OCL_REDUCE_OK)
    s = write_keys(ctx, k, keys, heads, runs);
  if (s == OCL_REDUCE_OK)
    *run_count = runs;
  free(heads);
  return s;
}

ocl_reduce_status orx_run_by_key(ocl_reduce_context *ctx, const orx_key_call *k, orx_seg_call *c,
                                 uint64_t *run_count) {
  if (c->elements == 0) {
    *run_count = 0;
    return OCL_REDUCE_OK;
  }
  int taken = 0; /* one pass on the device, where the plan and the memory allow */
  const ocl_reduce_status pass = orx_run_by_key_pass(ctx, k, c, run_count, &taken);
  /* The pass holds whole inputs from host memory, and outputs of a run per pair, in device
   * memory; where the device has no room for them now, the runs found on the host take far less
   * (the values go up in pieces), as where one of them could never fit (run_by_key_pass.c). The
   * pass writes the outputs whole or not at all (host memory), or the runs plan writes every one
   * of them again (buffers). */
  if (taken && pass == OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY)
    orx_log("ocl_reduce_by_key: out of device memory for the one pass; the runs found on the host");
  else if (taken || pass != OCL_REDUCE_OK)
    return pass;
  const unsigned char *keys = NULL;
  unsigned char *copy = NULL;
  ocl_reduce_status s = host_keys(ctx, k, (size_t)c->elements, &keys, &copy);
  if (s == OCL_REDUCE_OK)
    s = reduce_runs(ctx, k, c, keys, run_count);
  free(copy);
  return s;
}
