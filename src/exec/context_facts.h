/* =================================================================================================
 * context_facts.h: what clients above execution (groups, src/group/) may know of a context: the
 * narrow interface they use instead of the struct (context.h), implemented in context.c.
 * tests/check_layout.sh keeps src/group/ off context.h and the struct's fields.
 * ============================================================================================== */
#ifndef ORX_CONTEXT_FACTS_H
#define ORX_CONTEXT_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"

/* ocl_reduce_options as 0.2 gave it, up to cache_dir: the smallest struct_size taken (a caller
 * built against 0.2 has no cache_max_bytes, which keeps its default). */
#define ORX_FIRST_OPTIONS_SIZE (offsetof(ocl_reduce_options, cache_dir) + sizeof(const char *))

/* A context's device. */
typedef struct orx_device_facts {
  ocl_reduce_backend backend;
  ocl_reduce_device_type type;
  unsigned platform_index, device_index;
  const char *platform_name, *device_name; /* the context's own strings */
  char selector[32];                       /* "P:D" or "cuda:N" (OCL_REDUCE_DEVICE syntax) */
} orx_device_facts;
void orx_context_device(const ocl_reduce_context *ctx, orx_device_facts *facts);
/* Whether two contexts run on the same physical device (through the same backend). */
int orx_context_same_device(const ocl_reduce_context *a, const ocl_reduce_context *b);
/* The context's ocl_reduce_determinism (never DEFAULT). */
int orx_context_determinism(const ocl_reduce_context *ctx);
/* The least part of a group's request worth a device (the planner's, with the context's forced
 * policy: OCL_REDUCE_POLICY's part_kib). */
uint64_t orx_context_group_min_part_bytes(const ocl_reduce_context *ctx);
/* The most bytes of seams a group's windows stage (the planner's, with the forced policy). */
uint64_t orx_context_group_seam_staged_bytes(const ocl_reduce_context *ctx);
/* How long the library's threads spin for the next call, in ns (the planner's, forced: spin_us). */
uint64_t orx_context_spin_ns(const ocl_reduce_context *ctx);

#endif /* ORX_CONTEXT_FACTS_H */
