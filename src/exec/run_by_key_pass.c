/* =================================================================================================
 * run_by_key_pass.c: reduce by key in one pass on the device (kernels/by_key.cl), for the calls
 * the planner gives it (plan_by_key.h). The kernel writes each run where it ends, before the
 * count of runs is known: outputs in buffers with room for a run per element take it at once.
 * Smaller ones, and outputs in host memory (both), take the kernel's runs through scratch of
 * their room, which it fills as far as it reaches while it counts every run, copied or read out
 * once the count says they fit; or (the planner's choice) the runs are counted on the device first
 * (the keys against themselves one apart, COUNT_EQUAL), and the kernel runs only when they fit.
 * Inputs in host memory are uploaded whole first, or viewed where they lie on CPU devices
 * (device_views.h), as are outputs in host memory once the runs are known to fit them (a run per
 * pair, or counted first), which the kernel then writes in place; such a call waits for the
 * device before it returns. User operators (ORX_BY_KEY_STARTS) take the same pass over their
 * keys alone, which writes each run's key and where it starts, then their values are reduced as
 * segments by those offsets on the device (run_segments.c).
 * ============================================================================================== */
#include <string.h>

#include "exec/device_views.h"
#include "exec/epoch_scratch.h"
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

/* Whether outputs in buffers let the kernel write in place: `n` runs of either output sharing no
 * memory with an input in a buffer or with the other output (inputs in host memory are read from
 * copies). */
static int fits_in_place(const orx_key_call *k, const orx_seg_call *c, size_t n) {
  const size_t kb = k->key_bytes, rb = c->result_bytes;
  if (!k->keys_out.mem || !c->out.mem)
    return 0;
  const int keys_apart = !k->keys.mem ||
                         (orx_io_apart(&k->keys_out, n * kb, kb, &k->keys, n * kb, kb) &&
                          orx_io_apart(&c->out, n * rb, rb, &k->keys, n * kb, kb));
  const int values_apart = !c->in.mem ||
                           (orx_io_apart(&k->keys_out, n * kb, kb, &c->in, n * c->elem, c->elem) &&
                            orx_io_apart(&c->out, n * rb, rb, &c->in, n * c->elem, c->elem));
  return keys_apart && values_apart && orx_io_apart(&c->out, n * rb, rb, &k->keys_out, n * kb, kb);
}

/* The scratch for `tiles` tiles, zeroed when it is a fresh allocation or its epochs ran out, and
 * this launch's epoch. */
static ocl_reduce_status tiles_scratch(ocl_reduce_context *ctx, const orx_plan *plan,
                                       uint64_t tiles, orx_mem **mem, uint32_t *epoch) {
  return orx_epoch_scratch(ctx, ORX_SCRATCH_KEY_TILES, orx_by_key_scratch_bytes(plan, tiles),
                           ORX_KEY_EPOCHS, &ctx->key_tiles, mem, epoch);
}

/* The counted form's four launches (lib/orx_key_counted.cl) of the tiles of plan k: each group of
 * 32 tiles' heads, their scan, the tiles, the runs that cross tiles; every pass takes the same
 * arguments. */
static ocl_reduce_status launch_counted(ocl_reduce_context *ctx, const orx_prepared *k,
                                        uint64_t tiles, const orx_arg *args, size_t arg_count,
                                        const orx_request *request) {
  orx_prepared count, scan, fix;
  const orx_request count_request = orx_by_key_count_request(&k->plan, request->key_bytes, 1);
  const orx_request scan_request = orx_by_key_count_request(&k->plan, request->key_bytes, 2);
  orx_request fix_request = *request;
  fix_request.key_pass = 4;
  ORX_FORWARD(orx_prepare(ctx, &count_request, &count));
  ORX_FORWARD(orx_prepare(ctx, &scan_request, &scan));
  ORX_FORWARD(orx_prepare(ctx, &fix_request, &fix));
  const uint64_t wg = k->plan.policy.wg_size;
  ORX_FORWARD(orx_launch(ctx, &count, (size_t)((tiles + 31) / 32), args, arg_count));
  ORX_FORWARD(orx_launch(ctx, &scan, 1, args, arg_count));
  ORX_FORWARD(orx_launch(ctx, k, (size_t)tiles, args, arg_count));
  return orx_launch(ctx, &fix, (size_t)((tiles + wg - 1) / wg), args, arg_count);
}

/* The kernel over keys and values on the device into outputs on the device, which take the runs
 * before `room` (the caller counted the runs first, or reads the count before it uses them). */
static ocl_reduce_status launch_pass(ocl_reduce_context *ctx, const orx_request *request,
                                     const orx_io *keys, const orx_io *values,
                                     const orx_io *keys_out, const orx_io *out, uint64_t room,
                                     const orx_seg_call *c, orx_mem **scratch) {
  orx_prepared p;
  ORX_FORWARD(orx_prepare(ctx, request, &p));
  const uint64_t tile = orx_by_key_tile(&p.plan), tiles = (c->elements + tile - 1) / tile;
  if (tiles > UINT32_MAX)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: count = %llu: more than 2^32 tiles of %llu pairs", c->function,
                    (unsigned long long)c->elements, (unsigned long long)tile);
  uint32_t epoch = 0;
  ORX_FORWARD(tiles_scratch(ctx, &p.plan, tiles, scratch, &epoch));
  const orx_arg args[] = {
      {ORX_ARG_MEM, keys->mem, 0},     {ORX_ARG_U64, NULL, keys->offset},
      {ORX_ARG_MEM, values->mem, 0},   {ORX_ARG_U64, NULL, values->offset},
      {ORX_ARG_U64, NULL, c->elements}, {ORX_ARG_MEM, keys_out->mem, 0},
      {ORX_ARG_U64, NULL, keys_out->offset}, {ORX_ARG_MEM, out->mem, 0},
      {ORX_ARG_U64, NULL, out->offset}, {ORX_ARG_U64, NULL, room},
      {ORX_ARG_MEM, *scratch, 0},
      {ORX_ARG_U32, NULL, epoch},
  };
  if (p.plan.defines[ORX_DEFINE_KEY_COUNTED])
    return launch_counted(ctx, &p, tiles, args, ORX_ARRAY_SIZE(args), request);
  return orx_launch(ctx, &p, (size_t)tiles, args, ORX_ARRAY_SIZE(args));
}

/* ORX_BY_KEY_STARTS: the pass over the keys (the kernel's values: their starts, into scratch of a
 * u64 per key and one more, which holds the keys' count after the last run's start), its runs
 * read back into *runs (keys_out holds them), then the values reduced as the segments between
 * those offsets into c->out. */
static ocl_reduce_status through_starts(ocl_reduce_context *ctx, const orx_key_call *k,
                                        const orx_seg_call *c, const orx_io *keys,
                                        const orx_io *values, const orx_io *keys_out,
                                        uint64_t *runs) {
  const size_t n = (size_t)c->elements;
  const orx_request request = orx_by_key_starts_request((unsigned)k->key_bytes);
  orx_io starts;
  memset(&starts, 0, sizeof starts);
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_KEY_STARTS, (n + 1) * sizeof(uint64_t),
                              &starts.mem));
  orx_mem *scratch = NULL; /* the kernel reads no values: the keys stand in for them */
  ORX_FORWARD(
      launch_pass(ctx, &request, keys, keys, keys_out, &starts, UINT64_MAX, c, &scratch));
  ORX_FORWARD(orx_download(ctx, scratch, 8, runs, sizeof *runs));
  orx_seg_call segments = *c;
  segments.count = (size_t)*runs;
  segments.by_offsets = 1;
  segments.host_offsets = NULL;
  segments.offsets = starts;
  segments.offsets.capacity = (size_t)*runs + 1;
  segments.offsets_own = 1; /* from 0 to the keys' count, in order: no check */
  segments.in = *values;
  segments.reach = c->elements;
  return orx_run_segments_within(ctx, &segments);
}

/* Input io (n elements of `elem` bytes) as the kernel reads it: a buffer as it is, host memory
 * viewed where it lies (CPU devices) or uploaded whole into scratch `slot`. */
static ocl_reduce_status input_on_device(ocl_reduce_context *ctx, orx_device_views *views,
                                         orx_scratch_slot slot, const orx_io *io, size_t n,
                                         size_t elem, orx_io *view) {
  *view = *io;
  if (io->mem)
    return OCL_REDUCE_OK;
  ORX_FORWARD(orx_device_view_of(ctx, views, io, n, elem, 0, view));
  if (view->mem)
    return OCL_REDUCE_OK;
  orx_mem *mem = NULL;
  ORX_FORWARD(orx_scratch_get(ctx, slot, n * elem, &mem));
  ORX_FORWARD(orx_upload(ctx, mem, 0, io->host, n * elem));
  memset(view, 0, sizeof *view);
  view->mem = mem;
  view->capacity = n;
  return OCL_REDUCE_OK;
}

/* Scratch outputs for `room` runs: their keys in *keys_out, and their results in *out where out is
 * not NULL (user operators' results come from the segments). */
static ocl_reduce_status scratch_outputs(ocl_reduce_context *ctx, const orx_key_call *k,
                                         const orx_seg_call *c, uint64_t room, orx_io *keys_out,
                                         orx_io *out) {
  const size_t slots = room ? (size_t)room : 1;
  memset(keys_out, 0, sizeof *keys_out);
  keys_out->capacity = (size_t)room;
  ORX_FORWARD(orx_scratch_get(ctx, ORX_SCRATCH_KEY_STAGED_KEYS_OUT, slots * k->key_bytes,
                              &keys_out->mem));
  if (!out)
    return OCL_REDUCE_OK;
  memset(out, 0, sizeof *out);
  out->capacity = (size_t)room;
  return orx_scratch_get(ctx, ORX_SCRATCH_KEY_STAGED_RESULTS, slots * c->result_bytes, &out->mem);
}

/* The kernel into scratch of `room` runs (its keys and results: *keys_out, *out), the run count
 * read back into *runs: OUTPUT_TOO_SMALL, with the outputs untouched, where they cannot hold the
 * runs. */
static ocl_reduce_status staged_pass(ocl_reduce_context *ctx, const orx_key_call *k,
                                     const orx_seg_call *c, const orx_request *request,
                                     const orx_io *keys, const orx_io *values, uint64_t room,
                                     orx_io *keys_out, orx_io *out, uint64_t *runs,
                                     uint64_t *run_count) {
  ORX_FORWARD(scratch_outputs(ctx, k, c, room, keys_out, out));
  orx_mem *scratch = NULL;
  ORX_FORWARD(launch_pass(ctx, request, keys, values, keys_out, out, room, c, &scratch));
  ORX_FORWARD(orx_download(ctx, scratch, 8, runs, sizeof *runs));
  if (*runs <= k->keys_out.capacity && *runs <= c->out.capacity)
    return OCL_REDUCE_OK;
  *run_count = *runs;
  return orx_key_outputs_too_small(ctx, c->function, *runs, k->keys_out.capacity,
                                   c->out.capacity);
}

/* Outputs in host memory with room for `room` runs, which the runs are known to fit (a run per
 * pair, or as many as were counted), apart from the inputs in host memory and from each other,
 * viewed where they lie (CPU devices): the kernel writes its runs there, as into buffers of that
 * room. *taken is 0 where they are not viewed. */
static ocl_reduce_status into_device_views(ocl_reduce_context *ctx, orx_device_views *views,
                                           const orx_key_call *k, const orx_seg_call *c,
                                           const orx_request *request, const orx_io *keys,
                                           size_t room, uint64_t *run_count, int *taken) {
  const size_t n = (size_t)c->elements, kb = k->key_bytes, rb = c->result_bytes;
  const void *keys_out_at = k->keys_out.host_out, *out_at = c->out.host_out;
  const size_t keys_read = k->keys.mem ? 0 : n * kb, values_read = c->in.mem ? 0 : n * c->elem;
  *taken = 0;
  if (k->keys_out.capacity < room || c->out.capacity < room ||
      !orx_host_apart(keys_out_at, room * kb, out_at, room * rb) ||
      !orx_host_apart(keys_out_at, room * kb, k->keys.host, keys_read) ||
      !orx_host_apart(keys_out_at, room * kb, c->in.host, values_read) ||
      !orx_host_apart(out_at, room * rb, k->keys.host, keys_read) ||
      !orx_host_apart(out_at, room * rb, c->in.host, values_read))
    return OCL_REDUCE_OK;
  orx_io keys_out, out;
  ORX_FORWARD(orx_device_view_of(ctx, views, &k->keys_out, room, kb, 1, &keys_out));
  ORX_FORWARD(orx_device_view_of(ctx, views, &c->out, room, rb, 1, &out));
  if (!keys_out.mem || !out.mem) /* a view left unused is harmless: the device works in place */
    return OCL_REDUCE_OK;
  *taken = 1;
  orx_io values;
  ORX_FORWARD(input_on_device(ctx, views, ORX_SCRATCH_KEY_STAGED_VALUES, &c->in, n, c->elem,
                              &values));
  orx_mem *scratch = NULL;
  ORX_FORWARD(launch_pass(ctx, request, keys, &values, &keys_out, &out, room, c, &scratch));
  return orx_download(ctx, scratch, 8, run_count, sizeof *run_count);
}

/* Outputs in host memory: viewed where they lie where the runs are known to fit them, or the
 * kernel's runs through scratch (or, the planner's choice, the runs counted first and the kernel
 * into scratch of exactly them), read back into both outputs; user operators: the runs counted
 * first, their keys, their results from the segments. */
static ocl_reduce_status through_host_outputs(ocl_reduce_context *ctx, orx_device_views *views,
                                              const orx_key_call *k, const orx_seg_call *c,
                                              const orx_request *request, int starts,
                                              uint64_t room, const orx_io *keys,
                                              uint64_t *run_count) {
  const size_t n = (size_t)c->elements;
  orx_io values, keys_out, out;
  /* Views where the runs fit: outputs of a run per pair at once, others once counted; one try a
   * call, so that it holds ORX_DEVICE_VIEWS_MAX views at most. */
  const int tried = !starts && room == n;
  int taken = 0;
  if (tried)
    ORX_FORWARD(into_device_views(ctx, views, k, c, request, keys, n, run_count, &taken));
  if (taken)
    return OCL_REDUCE_OK;
  const int staged = !starts && orx_plan_by_key_stages(&ctx->target, n, room,
                                                       (unsigned)k->key_bytes,
                                                       (unsigned)c->result_bytes);
  uint64_t runs = 0;
  if (!staged) {
    ORX_FORWARD(orx_key_count_fitting(ctx, k, c, keys, &runs, run_count));
    room = runs;
    if (!starts && !tried)
      ORX_FORWARD(
          into_device_views(ctx, views, k, c, request, keys, (size_t)runs, run_count, &taken));
    if (taken)
      return OCL_REDUCE_OK;
  }
  ORX_FORWARD(orx_uploads_done(ctx, input_on_device(ctx, views, ORX_SCRATCH_KEY_STAGED_VALUES,
                                                    &c->in, n, c->elem, &values)));
  if (starts) {
    ORX_FORWARD(scratch_outputs(ctx, k, c, runs, &keys_out, NULL));
    ORX_FORWARD(through_starts(ctx, k, c, keys, &values, &keys_out, &runs));
  } else {
    ORX_FORWARD(staged_pass(ctx, k, c, request, keys, &values, room, &keys_out, &out, &runs,
                            run_count));
    ORX_FORWARD(orx_download(ctx, out.mem, 0, c->out.host_out, (size_t)runs * c->result_bytes));
  }
  *run_count = runs;
  return orx_download(ctx, keys_out.mem, 0, k->keys_out.host_out, (size_t)runs * k->key_bytes);
}

/* Outputs in buffers with room for fewer runs than pairs, the kernel's runs through scratch: both
 * copied into them once the count says they fit. */
static ocl_reduce_status through_staged_buffers(ocl_reduce_context *ctx, const orx_key_call *k,
                                                const orx_seg_call *c, const orx_request *request,
                                                const orx_io *keys, const orx_io *values,
                                                uint64_t room, uint64_t *run_count) {
  orx_io keys_out, out;
  uint64_t runs = 0;
  ORX_FORWARD(
      staged_pass(ctx, k, c, request, keys, values, room, &keys_out, &out, &runs, run_count));
  if (runs > 0) {
    const size_t kb = k->key_bytes, rb = c->result_bytes;
    ORX_FORWARD(ctx->ops->copy(ctx, ctx->backend, keys_out.mem, 0, k->keys_out.mem,
                               (size_t)k->keys_out.offset * kb, (size_t)runs * kb));
    ORX_FORWARD(ctx->ops->copy(ctx, ctx->backend, out.mem, 0, c->out.mem,
                               (size_t)c->out.offset * rb, (size_t)runs * rb));
  }
  *run_count = runs;
  return OCL_REDUCE_OK;
}

/* Inputs in host memory go to the device whole, and outputs in host memory come from device memory
 * of their room (user operators: their starts too): where one of them, at a run per element,
 * would not fit one allocation, the runs are found on the host instead (run_by_key.c), which
 * uploads the values in pieces. */
static int fits_allocations(const ocl_reduce_context *ctx, const orx_key_call *k,
                            const orx_seg_call *c, int host_outputs, int starts) {
  const size_t n = (size_t)c->elements;
  const uint64_t most = ctx->caps.max_alloc_bytes;
  return !((!k->keys.mem && n * k->key_bytes > most) || (!c->in.mem && n * c->elem > most) ||
           (host_outputs && (n * k->key_bytes > most || n * c->result_bytes > most)) ||
           (starts && (n + 1) * sizeof(uint64_t) > most));
}

/* orx_run_by_key_pass, its host memory viewed where it lies in `views` (CPU devices). */
static ocl_reduce_status pass(ocl_reduce_context *ctx, orx_device_views *views,
                              const orx_key_call *k, const orx_seg_call *c, uint64_t *run_count,
                              int *taken) {
  const orx_request request = request_of(k, c);
  const size_t n = (size_t)c->elements;
  const int host_outputs = !k->keys_out.mem && !c->out.mem;
  const int plan = c->pair ? ORX_BY_KEY_ON_HOST : orx_plan_by_key_pass(&ctx->target, &request);
  const int starts = plan == ORX_BY_KEY_STARTS;
  *taken = 0;
  if ((!host_outputs && (!k->keys_out.mem || !c->out.mem)) || plan == ORX_BY_KEY_ON_HOST ||
      !fits_allocations(ctx, k, c, host_outputs, starts))
    return OCL_REDUCE_OK;
  const size_t least = k->keys_out.capacity < c->out.capacity ? k->keys_out.capacity
                                                              : c->out.capacity;
  const size_t room = least < n ? least : n;
  if (!host_outputs && !fits_in_place(k, c, room))
    return OCL_REDUCE_OK;
  *taken = 1;
  orx_call_begin(ctx); /* kernel time: the count's (orx_run_pairs starts anew), then the pass's
                          (and the segments' after it) */
  /* Host memory is read before the call returns (orx_uploads_done); the values only once the runs
   * are known to fit where they are counted first. */
  orx_io keys, values;
  ORX_FORWARD(orx_uploads_done(ctx, input_on_device(ctx, views, ORX_SCRATCH_KEY_STAGED_KEYS,
                                                    &k->keys, n, k->key_bytes, &keys)));
  if (host_outputs)
    return through_host_outputs(ctx, views, k, c, &request, starts, room, &keys, run_count);
  const int staged = room < n && !starts &&
                     orx_plan_by_key_stages(&ctx->target, n, room, (unsigned)k->key_bytes,
                                            (unsigned)c->result_bytes);
  uint64_t runs = 0; /* the runs counted first where the outputs might not hold them */
  if (room < n && !staged)
    ORX_FORWARD(orx_key_count_fitting(ctx, k, c, &keys, &runs, run_count));
  ORX_FORWARD(orx_uploads_done(ctx, input_on_device(ctx, views, ORX_SCRATCH_KEY_STAGED_VALUES,
                                                    &c->in, n, c->elem, &values)));
  if (staged)
    return through_staged_buffers(ctx, k, c, &request, &keys, &values, room, run_count);
  if (starts) { /* the runs' starts read back first: the call returns once the segments ran */
    ORX_FORWARD(through_starts(ctx, k, c, &keys, &values, &k->keys_out, &runs));
    *run_count = runs;
    return OCL_REDUCE_OK;
  }
  orx_mem *scratch = NULL;
  ORX_FORWARD(
      launch_pass(ctx, &request, &keys, &values, &k->keys_out, &c->out, UINT64_MAX, c, &scratch));
  /* Both outputs are buffers: the call returns once enqueued, and the run count lands in
   * *run_count by the time its work has finished (ocl_reduce_by_key.h), where the backend reads
   * asynchronously into pinned memory (ocl_reduce_host_alloc's), as buffer reads do
   * (orx_buffer_read_enqueue); into other memory the call reads it before it returns. H200, 2^26
   * i32/f32 pairs, NVIDIA's OpenCL: an enqueued read into a caller's variable and clFinish cost
   * 55-95 us over the kernel, a blocking read 13-30 (docs/perf/h200-by-key.txt). */
  if (ctx->ops->read_async && orx_host_is_pinned(ctx, run_count, sizeof *run_count))
    return ctx->ops->read_async(ctx, ctx->backend, scratch, 8, run_count, sizeof *run_count);
  return orx_download(ctx, scratch, 8, run_count, sizeof *run_count);
}

ocl_reduce_status orx_run_by_key_pass(ocl_reduce_context *ctx, const orx_key_call *k,
                                      const orx_seg_call *c, uint64_t *run_count, int *taken) {
  orx_device_views views;
  memset(&views, 0, sizeof views);
  return orx_device_views_end(ctx, &views, pass(ctx, &views, k, c, run_count, taken));
}
