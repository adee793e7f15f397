/* =================================================================================================
 * run_by_key_pass.c: reduce by key in one pass on the device (kernels/by_key.cl), for the calls
 * the planner gives it (plan_by_key.h) whose keys, values and outputs are buffers with room for a
 * run per element: the kernel writes each run where it ends, before the count of runs is known,
 * so outputs that hold fewer runs than elements take run_by_key.c's plan, which counts first.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "exec/launch.h"
#include "exec/run.h"
#include "exec/staging.h"
#include "planner/plan_by_key.h"

/* Epochs a scratch counts before it is zeroed again: a tag holds 2 * epoch + 1 at most, in a
 * u32. */
#define ORX_KEY_EPOCHS 0x7fffffffu

static orx_request request_of(const orx_key_call *k, const orx_seg_call *c) {
  orx_request request;
  memset(&request, 0, sizeof request);
  request.entry = ORX_ENTRY_BY_KEY;
  request.type = c->type;
  request.op = c->op;
  request.key_bytes = (unsigned)k->key_bytes;
  return request;
}

/* Whether the call's memory lets the kernel write in place: buffers everywhere, room for a run
 * per element, no output sharing memory with what the call reads or with the other output. */
static int fits_in_place(const orx_key_call *k, const orx_seg_call *c) {
  const size_t n = (size_t)c->elements, kb = k->key_bytes, rb = c->result_bytes;
  if (!k->keys.mem || !c->in.mem || !k->keys_out.mem || !c->out.mem || c->pair ||
      k->keys_out.capacity < n || c->out.capacity < n)
    return 0;
  return orx_io_apart(&k->keys_out, n * kb, kb, &k->keys, n * kb, kb) &&
         orx_io_apart(&k->keys_out, n * kb, kb, &c->in, n * c->elem, c->elem) &&
         orx_io_apart(&c->out, n * rb, rb, &k->keys, n * kb, kb) &&
         orx_io_apart(&c->out, n * rb, rb, &c->in, n * c->elem, c->elem) &&
         orx_io_apart(&c->out, n * rb, rb, &k->keys_out, n * kb, kb);
}

/* The scratch for `tiles` tiles, zeroed when it is a fresh allocation or its epochs ran out, and
 * this launch's epoch. */
static ocl_reduce_status tiles_scratch(ocl_reduce_context *ctx, const orx_plan *plan,
                                       uint64_t tiles, orx_mem **mem, uint32_t *epoch) {
  ORX_FORWARD(
      orx_scratch_get(ctx, ORX_SCRATCH_KEY_TILES, orx_by_key_scratch_bytes(plan, tiles), mem));
  const orx_scratch *s = &ctx->scratch[ORX_SCRATCH_KEY_TILES];
  if (s->serial != ctx->key_tiles_serial || ctx->key_tiles_epoch >= ORX_KEY_EPOCHS) {
    void *zeros = calloc(1, s->bytes);
    if (!zeros)
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    const ocl_reduce_status status =
        orx_uploads_done(ctx, orx_upload(ctx, *mem, 0, zeros, s->bytes));
    free(zeros);
    ORX_FORWARD(status);
    ctx->key_tiles_serial = s->serial;
    ctx->key_tiles_epoch = 0;
  }
  *epoch = ++ctx->key_tiles_epoch;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_run_by_key_pass(ocl_reduce_context *ctx, const orx_key_call *k,
                                      const orx_seg_call *c, uint64_t *run_count, int *taken) {
  const orx_request request = request_of(k, c);
  *taken = 0;
  if (!fits_in_place(k, c) || !orx_plan_by_key_pass(&ctx->target, &request))
    return OCL_REDUCE_OK;
  *taken = 1;
  orx_call_begin(ctx);
  orx_prepared p;
  ORX_FORWARD(orx_prepare(ctx, &request, &p));
  const uint64_t tile = orx_by_key_tile(&p.plan), tiles = (c->elements + tile - 1) / tile;
  if (tiles > UINT32_MAX)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: count = %llu: more than 2^32 tiles of %llu pairs", c->function,
                    (unsigned long long)c->elements, (unsigned long long)tile);
  orx_mem *scratch = NULL;
  uint32_t epoch = 0;
  ORX_FORWARD(tiles_scratch(ctx, &p.plan, tiles, &scratch, &epoch));
  const orx_arg args[] = {
      {ORX_ARG_MEM, k->keys.mem, 0},     {ORX_ARG_U64, NULL, k->keys.offset},
      {ORX_ARG_MEM, c->in.mem, 0},       {ORX_ARG_U64, NULL, c->in.offset},
      {ORX_ARG_U64, NULL, c->elements},  {ORX_ARG_MEM, k->keys_out.mem, 0},
      {ORX_ARG_U64, NULL, k->keys_out.offset}, {ORX_ARG_MEM, c->out.mem, 0},
      {ORX_ARG_U64, NULL, c->out.offset}, {ORX_ARG_MEM, scratch, 0},
      {ORX_ARG_U32, NULL, epoch},
  };
  ORX_FORWARD(orx_launch(ctx, &p, (size_t)tiles, args, ORX_ARRAY_SIZE(args)));
  uint64_t runs = 0;
  ORX_FORWARD(orx_download(ctx, scratch, 8, &runs, sizeof runs));
  *run_count = runs;
  return OCL_REDUCE_OK;
}
