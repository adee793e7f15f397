/* =================================================================================================
 * info.c: what there is and what a context does: the library's version, the devices of every
 * backend, the context query, kernel times, and the planner's plans in words.
 * ============================================================================================== */
#include <stdlib.h>
#include <string.h>

#include "backends/registry/registry.h"
#include "exec/context.h"
#include "exec/describe.h"
#include "exec/entry.h"
#include "exec/io.h"
#include "exec/launch.h"
#include "exec/run.h"
#include "base/util.h"

int ocl_reduce_version(void) { return OCL_REDUCE_VERSION; }

/* The smallest struct_size each output struct has had: its size in the version that gave it
 * struct_size (0.1; 0.2 kept the layouts). Fields appended later are written only where the
 * caller's struct_size reaches them. */
enum {
  FIRST_DEVICE_DESC_SIZE = sizeof(ocl_reduce_device_desc),
  FIRST_CONTEXT_INFO_SIZE = sizeof(ocl_reduce_context_info)
};

/* Every backend's devices in registry order, each list after the ones before: the first
 * `capacity` into `into` (*filled of them), and how many there are in *total. */
static ocl_reduce_status list_all(ocl_reduce_device_desc *into, size_t capacity, size_t *total,
                                  size_t *filled) {
  *total = *filled = 0;
  for (size_t b = 0; b < orx_backend_row_count(); b++) {
    const orx_backend_ops *ops = orx_backend_row_at(b)->ops;
    size_t listed = 0;
    if (ops)
      ORX_FORWARD(ops->list_devices(NULL, into ? into + *filled : NULL, capacity - *filled,
                                    &listed));
    *total += listed;
    *filled += listed < capacity - *filled ? listed : capacity - *filled;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_devices(ocl_reduce_device_desc *out, size_t capacity, size_t *count) {
  if (!count || (capacity > 0 && !out))
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "ocl_reduce_devices: %s is NULL",
                    count ? "out" : "count");
  const size_t stride = capacity > 0 ? out->struct_size : 0;
  if (capacity > 0 && (stride < FIRST_DEVICE_DESC_SIZE || stride > OCL_REDUCE_STRUCT_SIZE_MAX))
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "ocl_reduce_devices: out[0].struct_size is %zu, not "
                    "sizeof(ocl_reduce_device_desc) (%zu): start from OCL_REDUCE_DEVICE_DESC_INIT",
                    stride, sizeof *out);
  /* This version's layout (the usual case): listed straight into out, once. */
  if (capacity == 0 || stride == sizeof *out) {
    size_t total = 0, filled = 0;
    ORX_FORWARD(list_all(out, capacity, &total, &filled));
    for (size_t i = 0; i < filled; i++)
      out[i].struct_size = stride;
    *count = total;
    return OCL_REDUCE_OK;
  }
  /* Another layout: counted first, so that the library's own copies are allocated for the
   * devices there are, not for `capacity`, then listed and written element by element. */
  size_t total = 0, filled = 0;
  ORX_FORWARD(list_all(NULL, 0, &total, &filled));
  const size_t wanted = total < capacity ? total : capacity;
  ocl_reduce_device_desc *full = wanted ? orx_calloc(wanted, sizeof *full) : NULL;
  if (wanted && !full)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "ocl_reduce_devices: out of "
                    "host memory");
  ocl_reduce_status status = list_all(full, wanted, &total, &filled);
  for (size_t i = 0; i < filled && status == OCL_REDUCE_OK; i++)
    orx_copy_sized((char *)out + i * stride, stride, &full[i], sizeof full[i]);
  free(full);
  if (status == OCL_REDUCE_OK)
    *count = total;
  return status;
}

ocl_reduce_status ocl_reduce_context_query(ocl_reduce_context *ctx, ocl_reduce_context_info *info) {
  ORX_ENTER(ctx, "ocl_reduce_context_query");
  ORX_CHECK_ARG(ctx, info, "ocl_reduce_context_query: info is NULL");
  ORX_CHECK_ARG(ctx,
                info->struct_size >= FIRST_CONTEXT_INFO_SIZE &&
                    info->struct_size <= OCL_REDUCE_STRUCT_SIZE_MAX,
                "ocl_reduce_context_query: info->struct_size is %zu, not sizeof "
                "(ocl_reduce_context_info) (%zu): start from OCL_REDUCE_CONTEXT_INFO_INIT",
                info->struct_size, sizeof *info);
  ocl_reduce_context_info r;
  memset(&r, 0, sizeof r);
  r.backend = ctx->backend_row->kind;
  r.backend_name = ctx->backend_row->keyword;
  r.platform_name = ctx->caps.platform_name;
  r.device_name = ctx->caps.device_name;
  r.device_version = ctx->caps.device_version;
  r.driver_version = ctx->caps.driver_version;
  r.platform_index = ctx->caps.platform_index;
  r.device_index = ctx->caps.device_index;
  r.device_type = ctx->caps.type;
  r.path = ctx->target.path;
  r.subgroup_impl = ctx->target.subgroup_impl;
  r.subgroup_impl_name = orx_subgroup_impl_name(ctx->target.subgroup_impl);
  r.compute_units = ctx->caps.compute_units;
  r.has_fp64 = ctx->caps.has_fp64;
  r.has_khr_subgroups = ctx->caps.has_khr_subgroups;
  r.has_khr_subgroup_shuffle = ctx->caps.has_khr_shuffle;
  r.has_intel_subgroups = ctx->caps.has_intel_subgroups;
  r.nv_warp_size = ctx->caps.warp_size;
  r.local_mem_bytes = ctx->caps.local_mem_bytes;
  r.max_alloc_bytes = ctx->caps.max_alloc_bytes;
  r.global_mem_bytes = ctx->caps.global_mem_bytes;
  /* What the f32 sum runs with; its subgroup size is the compiled kernel's. */
  const orx_request request = orx_reduce_request(ORX_OP_SUM, OCL_REDUCE_F32);
  orx_plan plan;
  orx_plan_make(&ctx->target, &request, &plan);
  r.work_group_size = plan.policy.wg_size;
  if (ctx->target.path == OCL_REDUCE_PATH_SUBGROUP) {
    const orx_built *built = NULL;
    ORX_FORWARD(orx_program_get(ctx, &plan, &built));
    r.subgroup_size = built->subgroup_size;
  }
  ctx->ops->native(ctx->backend, &r.native_context, &r.native_device, &r.native_queue);
  r.kernel_builds = ctx->kernel_builds;
  r.bytes_to_device = ctx->bytes_to_device;
  r.device_allocations = ctx->device_allocations;
  r.programs_from_disk = ctx->programs_from_disk;
  orx_copy_sized(info, info->struct_size, &r, sizeof r);
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_last_kernel_ns(const ocl_reduce_context *ctx, uint64_t *ns) {
  ORX_ENTER(ctx, "ocl_reduce_last_kernel_ns");
  ocl_reduce_context *mut = (ocl_reduce_context *)ctx; /* only its error text changes */
  ORX_CHECK_ARG(mut, ns, "ocl_reduce_last_kernel_ns: ns is NULL");
  ORX_CHECK_ARG(mut, ctx->profiling,
                "ocl_reduce_last_kernel_ns: the context was created without options.profiling");
  ORX_CHECK_ARG(mut, ctx->has_kernel_time, "ocl_reduce_last_kernel_ns: no kernel has run yet");
  *ns = ctx->last_kernel_ns;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_describe_plan(ocl_reduce_context *ctx, ocl_reduce_op op,
                                           ocl_reduce_type type, size_t count,
                                           size_t segment_length, char *text, size_t capacity) {
  static const char function[] = "ocl_reduce_describe_plan";
  ORX_ENTER(ctx, function);
  ORX_CHECK_ARG(ctx, text && capacity > 0, "%s: text is NULL or capacity is 0", function);
  if (op && orx_op_reduces_pairs(op)) { /* ocl_reduce_pairs' plan over count pairs */
    orx_pair_call pair;
    ORX_FORWARD(orx_resolve_pair(ctx, function, op, type, &pair));
    orx_describe_pairs(ctx, &pair, count, segment_length, text, capacity);
    return OCL_REDUCE_OK;
  }
  orx_op_call call;
  ORX_FORWARD(orx_resolve_op(ctx, function, op, type, &call));
  orx_describe_request(ctx, &call, count, segment_length, text, capacity);
  return OCL_REDUCE_OK;
}
