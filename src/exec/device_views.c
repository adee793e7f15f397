/* =================================================================================================
 * device_views.c: the caller's host memory as device memory where it lies (device_views.h).
 * ============================================================================================== */
#include "exec/device_views.h"

#include <stdint.h>
#include <string.h>

#include "exec/context.h"
#include "planner/plan_staging.h"

/* Views start where the device's allocations do, on a multiple of base_align_bytes, which kernels
 * take for granted (their vector loads from offsets they check): the view starts that far before
 * the memory, within its page, and the memory lies at an element offset into it. Memory whose
 * distance from there is no whole number of elements (user operators' odd sizes) is not viewed,
 * nor are any where allocations start on more than a page. */
ocl_reduce_status orx_device_view_of(ocl_reduce_context *ctx, orx_device_views *views,
                                     const orx_io *io, size_t n, size_t elem, int written,
                                     orx_io *view) {
  memset(view, 0, sizeof *view);
  const uintptr_t at = written ? (uintptr_t)io->host_out : (uintptr_t)io->host;
  const uintptr_t align = ctx->caps.base_align_bytes ? ctx->caps.base_align_bytes : 1;
  const uintptr_t lead = at % align;
  if (!ctx->ops->view_host_memory || !orx_plan_views_host(&ctx->target) || io->mem || n == 0 ||
      align > 4096 || lead % elem != 0)
    return OCL_REDUCE_OK;
  if (views->count == ORX_DEVICE_VIEWS_MAX)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INTERNAL, "more than %d host views in one call",
                    ORX_DEVICE_VIEWS_MAX);
  orx_mem *mem = NULL;
  /* The device only reads what is not `written`. */
  ORX_FORWARD(
      ctx->ops->view_host_memory(ctx, ctx->backend, (void *)(at - lead), lead + n * elem, &mem));
  if (!mem)
    return OCL_REDUCE_OK;
  views->mem[views->count++] = mem;
  view->mem = mem;
  view->offset = lead / elem;
  view->capacity = n;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_device_views_end(ocl_reduce_context *ctx, orx_device_views *views,
                                       ocl_reduce_status status) {
  if (views->count == 0)
    return status;
  /* Failed or not, nothing may still read or write the caller's memory once the call returns;
   * what the device wrote is there once it finished, with no map: a view exists only where the
   * device works in the memory itself (backend.h). PoCL 3.1 and Intel's CPU runtime had mapped
   * and unmapped each written view, two more commands a call (docs/perf/cpu-views-no-map.txt). */
  const ocl_reduce_status finished = ctx->ops->finish(ctx, ctx->backend);
  for (unsigned v = 0; v < views->count; v++)
    ctx->ops->release_mem(views->mem[v]);
  views->count = 0;
  return status != OCL_REDUCE_OK ? status : finished;
}

int orx_host_apart(const void *a, size_t a_bytes, const void *b, size_t b_bytes) {
  const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return a_bytes == 0 || b_bytes == 0 || x + a_bytes <= y || y + b_bytes <= x;
}
