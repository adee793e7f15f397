/* =================================================================================================
 * fault_inject.c: injected backend faults for tests (fault_inject.h). The faulty table is a copy
 * of the backend's with the failing operations wrapped; each wrapper counts its kind's calls and
 * fails the armed one with the status the real failure has.
 * ============================================================================================== */
#include "exec/fault_inject.h"

#include <stdlib.h>

#include "exec/context.h"

struct orx_faults {
  orx_backend_ops ops; /* the faulty table ctx->ops points to */
  const orx_backend_ops *real;
  orx_fault_kind kind;
  uint64_t countdown; /* calls of `kind` until the fault; 0: disarmed */
  uint64_t calls;     /* calls of `kind` since armed */
  int struck;
};

/* Whether this call of `kind` is the armed one. */
static int strikes(ocl_reduce_context *ctx, orx_fault_kind kind) {
  struct orx_faults *f = ctx->faults;
  if (f->kind != kind)
    return 0;
  f->calls++;
  if (f->countdown == 0 || --f->countdown != 0)
    return 0;
  f->struck = 1;
  return 1;
}

static const char *const kind_names[ORX_FAULT_KINDS] = {"device allocation", "copy to the device",
                                                        "copy from the device", "launch", "wait"};

static ocl_reduce_status injected(ocl_reduce_context *ctx, ocl_reduce_status status) {
  return orx_fail(ctx, status, "injected fault: %s %llu failed", kind_names[ctx->faults->kind],
                  (unsigned long long)ctx->faults->calls);
}

static ocl_reduce_status faulty_alloc(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                      orx_mem **out) {
  if (strikes(ctx, ORX_FAULT_ALLOC))
    return injected(ctx, OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY);
  return ctx->faults->real->alloc(ctx, be, bytes, out);
}

static ocl_reduce_status faulty_alloc_host_visible(ocl_reduce_context *ctx, orx_backend *be,
                                                   size_t bytes, orx_mem **out, void **host) {
  if (strikes(ctx, ORX_FAULT_ALLOC))
    return injected(ctx, OCL_REDUCE_ERROR_OUT_OF_DEVICE_MEMORY);
  return ctx->faults->real->alloc_host_visible(ctx, be, bytes, out, host);
}

static ocl_reduce_status faulty_write(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                                      size_t offset, const void *src, size_t bytes) {
  if (strikes(ctx, ORX_FAULT_WRITE))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return ctx->faults->real->write(ctx, be, dst, offset, src, bytes);
}

static ocl_reduce_status faulty_read(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                                     size_t offset, void *dst, size_t bytes) {
  if (strikes(ctx, ORX_FAULT_READ))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return ctx->faults->real->read(ctx, be, src, offset, dst, bytes);
}

static ocl_reduce_status faulty_copy(ocl_reduce_context *ctx, orx_backend *be, const orx_mem *src,
                                     size_t src_offset, orx_mem *dst, size_t dst_offset,
                                     size_t bytes) {
  if (strikes(ctx, ORX_FAULT_WRITE))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return ctx->faults->real->copy(ctx, be, src, src_offset, dst, dst_offset, bytes);
}

static ocl_reduce_status faulty_launch(ocl_reduce_context *ctx, orx_backend *be,
                                       orx_program *program, size_t groups, unsigned wg_size,
                                       const orx_arg *args, size_t nargs, uint64_t *kernel_ns) {
  if (strikes(ctx, ORX_FAULT_LAUNCH))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return ctx->faults->real->launch(ctx, be, program, groups, wg_size, args, nargs, kernel_ns);
}

static ocl_reduce_status faulty_finish(ocl_reduce_context *ctx, orx_backend *be) {
  if (strikes(ctx, ORX_FAULT_WAIT))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return ctx->faults->real->finish(ctx, be);
}

static ocl_reduce_status faulty_marker(ocl_reduce_context *ctx, orx_backend *be, void **event) {
  if (strikes(ctx, ORX_FAULT_WAIT))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return ctx->faults->real->enqueue_marker(ctx, be, event);
}

static ocl_reduce_status faulty_alloc_pinned(ocl_reduce_context *ctx, orx_backend *be, size_t bytes,
                                             orx_mem **out, void **host) {
  if (strikes(ctx, ORX_FAULT_ALLOC))
    return injected(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY);
  return ctx->faults->real->alloc_pinned(ctx, be, bytes, out, host);
}

static ocl_reduce_status faulty_write_async(ocl_reduce_context *ctx, orx_backend *be, orx_mem *dst,
                                            size_t offset, const void *src, size_t bytes) {
  if (strikes(ctx, ORX_FAULT_WRITE))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return ctx->faults->real->write_async(ctx, be, dst, offset, src, bytes);
}

static ocl_reduce_status faulty_read_async(ocl_reduce_context *ctx, orx_backend *be,
                                           const orx_mem *src, size_t offset, void *dst,
                                           size_t bytes) {
  if (strikes(ctx, ORX_FAULT_READ))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return ctx->faults->real->read_async(ctx, be, src, offset, dst, bytes);
}

/* A failed wait still releases the marker, as the real one does. */
static ocl_reduce_status faulty_wait_marker(ocl_reduce_context *ctx, orx_backend *be, void *event) {
  const ocl_reduce_status status = ctx->faults->real->wait_marker(ctx, be, event);
  if (strikes(ctx, ORX_FAULT_WAIT))
    return injected(ctx, OCL_REDUCE_ERROR_BACKEND);
  return status;
}

ocl_reduce_status orx_fault_arm(ocl_reduce_context *ctx, orx_fault_kind kind, uint64_t n,
                                uint64_t *calls_before) {
  struct orx_faults *f = ctx->faults;
  if (!f) {
    if (!(f = orx_calloc(1, sizeof *f)))
      return orx_fail(ctx, OCL_REDUCE_ERROR_INTERNAL, "fault injection: out of host memory");
    f->real = ctx->ops;
    f->ops = *ctx->ops;
    f->ops.alloc = faulty_alloc;
    if (f->real->alloc_host_visible)
      f->ops.alloc_host_visible = faulty_alloc_host_visible;
    f->ops.write = faulty_write;
    f->ops.read = faulty_read;
    f->ops.copy = faulty_copy;
    f->ops.launch = faulty_launch;
    f->ops.finish = faulty_finish;
    f->ops.enqueue_marker = faulty_marker;
    if (f->real->alloc_pinned) {
      f->ops.alloc_pinned = faulty_alloc_pinned;
      f->ops.write_async = faulty_write_async;
      f->ops.read_async = faulty_read_async;
      f->ops.wait_marker = faulty_wait_marker;
    }
    ctx->faults = f;
    ctx->ops = &f->ops;
  }
  if (calls_before)
    *calls_before = f->calls;
  f->kind = kind;
  f->countdown = n;
  f->calls = 0;
  f->struck = 0;
  return OCL_REDUCE_OK;
}

int orx_fault_struck(const ocl_reduce_context *ctx) { return ctx->faults && ctx->faults->struck; }

void orx_fault_forget(ocl_reduce_context *ctx) {
  if (ctx->faults)
    ctx->ops = ctx->faults->real;
  free(ctx->faults);
  ctx->faults = NULL;
}
