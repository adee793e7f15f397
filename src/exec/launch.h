/* =================================================================================================
 * launch.h: running plans: a plan with its program and scratch (orx_prepared), launches with the
 * arguments each kernel family takes, host input uploaded in pieces, and results read back
 * (launch.c). The calls built on these live in run_array.c and run_segments.c (run.h).
 * ============================================================================================== */
#ifndef ORX_LAUNCH_H
#define ORX_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "exec/context.h"

/* A plan with its built program, ready to launch. */
typedef struct orx_prepared {
  orx_plan plan;
  const orx_built *built;
} orx_prepared;

/* Plans the request on the context's target, builds (or finds) its program and makes sure the
 * scratch its launches need exists. */
ocl_reduce_status orx_prepare(ocl_reduce_context *ctx, const orx_request *request,
                              orx_prepared *out);
/* The same for a plan already made. */
ocl_reduce_status orx_prepare_plan(ocl_reduce_context *ctx, const orx_plan *plan,
                                   orx_prepared *out);
/* The same for a kernel that takes no operator (the offsets check, the gather): entry and type. */
ocl_reduce_status orx_prepare_utility(ocl_reduce_context *ctx, orx_entry entry,
                                      ocl_reduce_type type, orx_prepared *out);

/* Starts a reducing call: its kernels' device times add up to the last_kernel_ns it reports. */
void orx_call_begin(ocl_reduce_context *ctx);
/* Enqueues `groups` work-groups of the prepared kernel and, when profiling, adds its device
 * time to the call's. */
ocl_reduce_status orx_launch(ocl_reduce_context *ctx, const orx_prepared *k, size_t groups,
                             const orx_arg *args, size_t nargs);
/* The same for a kernel whose arguments start with ORX_IN_PARAMS (cl/lib/orx_types.cl): args
 * hold the first input, then the second input and its offset, then the rest; without two_inputs
 * the second input's two are left out (the one-input kernel takes none). 3 <= nargs <= 18. */
#define ORX_LAUNCH_MAX_ARGS 16
ocl_reduce_status orx_launch_inputs(ocl_reduce_context *ctx, const orx_prepared *k,
                                    size_t groups, const orx_arg *args, size_t nargs,
                                    int two_inputs);
/* Elements to skip from element `offset` of mem until a multiple of `vec` elements of size elem. */
size_t orx_vector_head(const ocl_reduce_context *ctx, const orx_mem *mem, size_t offset,
                       unsigned vec, size_t elem);
/* Launches a whole-array or multi-operator kernel over elements [offset, offset + count) of
 * `in`, the first of which has index `first` in the reduction (state operators map elements with
 * their index); result k goes to result slot out_index + k * out_stride of `out` (count may be
 * 0: the identities). */
ocl_reduce_status orx_launch_array(ocl_reduce_context *ctx, const orx_prepared *k, orx_mem *in,
                                   size_t offset, size_t count, uint64_t first, orx_mem *out,
                                   size_t out_index, size_t out_stride);
/* The same for a pair operator's plan over elements [a_offset, a_offset + count) of `a` and
 * [b_offset, ...) of `b`, which the plan's vectors read alike (orx_pair_skew), the first pair
 * having index `first` (a user pair operator's pair_map sees it), into result slot out_index of
 * `out`. */
ocl_reduce_status orx_launch_pairs(ocl_reduce_context *ctx, const orx_prepared *k, orx_mem *a,
                                   size_t a_offset, orx_mem *b, size_t b_offset, size_t count,
                                   uint64_t first, orx_mem *out, size_t out_index);
/* (b's position - a's position) mod ORX_PAIR_SKEW_SPAN elements of `elem` bytes, a position
 * counted from an allocation's start (host inputs staged at one: NULL mem). */
unsigned orx_pair_skew(const ocl_reduce_context *ctx, const orx_mem *a, size_t a_offset,
                       const orx_mem *b, size_t b_offset, size_t elem);
/* Reduces count elements of host memory as `request` (a whole-array request, of any stage) says,
 * the first with index `first`, uploaded in pieces through the staging buffer (each piece into a
 * slot of the chunk results, then one more launch over those; state operators keep states
 * there), into result slot out_index of `out`. */
ocl_reduce_status orx_reduce_host_into(ocl_reduce_context *ctx, const orx_request *request,
                                       const void *host, size_t count, uint64_t first,
                                       orx_mem *out, size_t out_index);
/* Copies `bytes` of the result slot to host memory once the work before has finished. */
ocl_reduce_status orx_read_results(ocl_reduce_context *ctx, void *dst, size_t bytes);

#endif /* ORX_LAUNCH_H */
