/* =================================================================================================
 * segment_request.c: the planner's request of a segmented call (run.h, orx_seg_request): its
 * shape, and where its input lies past a vector boundary (host input as staged, at the start of
 * an allocation).
 * ============================================================================================== */
#include <string.h>

#include "exec/context.h"
#include "exec/run.h"

orx_request orx_seg_request(const ocl_reduce_context *ctx, const orx_seg_call *c) {
  orx_request request;
  memset(&request, 0, sizeof request);
  request.entry = ORX_ENTRY_SEGMENTS;
  request.type = c->type;
  request.op = c->op;
  orx_seg_shape *shape = &request.shape;
  shape->count = c->count;
  shape->elements = c->elements;
  shape->length = c->by_offsets ? 0 : c->length;
  shape->pitch = c->by_offsets || !c->pitch || c->pitch == c->length ? 0 : c->pitch;
  shape->offsets = c->by_offsets;
  shape->elem = c->elem;
  if (c->in.mem) /* host input is staged at the start of an allocation */
    shape->start = (ctx->ops->misalignment ? ctx->ops->misalignment(c->in.mem) / c->elem : 0) +
                   c->in.offset;
  if (c->pair)
    request.pair = orx_pair_request_of(ctx, c->pair, &c->in, &c->b);
  return request;
}
