/* =================================================================================================
 * device_views.h: the caller's host memory as device memory where it lies, for one call
 * (device_views.c): CPU devices read inputs and write outputs without copies (backend.h,
 * view_host_memory), where the planner says so (orx_plan_views_host).
 * ============================================================================================== */
#ifndef ORX_DEVICE_VIEWS_H
#define ORX_DEVICE_VIEWS_H

#include "exec/io.h"

#define ORX_DEVICE_VIEWS_MAX 4

/* A call's views; zero it before the first. */
typedef struct orx_device_views {
  orx_mem *mem[ORX_DEVICE_VIEWS_MAX];
  unsigned count;
} orx_device_views;

/* Host memory io's first n elements of `elem` bytes (host_out where `written`) as device memory,
 * into *view (capacity n, at an element offset); view->mem is NULL where nothing is viewed: the
 * backend has none for the device, the planner takes none, or the memory lies off the device's
 * allocation boundaries by no whole number of elements. A call views ORX_DEVICE_VIEWS_MAX at
 * most. */
ocl_reduce_status orx_device_view_of(ocl_reduce_context *ctx, orx_device_views *views,
                                     const orx_io *io, size_t n, size_t elem, int written,
                                     orx_io *view);
/* Ends the call's views and returns `status`, or the failure of ending them where it was OK: the
 * device finishes every use of them (what it wrote is then in host memory, and the caller may
 * change or free the memory once the call returns), and they are released. Without views it
 * returns `status` and does nothing. */
ocl_reduce_status orx_device_views_end(ocl_reduce_context *ctx, orx_device_views *views,
                                       ocl_reduce_status status);
/* Whether bytes [a, a + a_bytes) and [b, b + b_bytes) of host memory share none. */
int orx_host_apart(const void *a, size_t a_bytes, const void *b, size_t b_bytes);

#endif /* ORX_DEVICE_VIEWS_H */
