/* =================================================================================================
 * program.c: a plan's program text and cache key, and the context's cache of built programs
 * (program.h). Nothing here decides anything about a kernel: the plan says it all.
 * ============================================================================================== */
#include "exec/program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "exec/context.h"

/* ---- Key ---------------------------------------------------------------------------------- */

void orx_program_key_of(const orx_plan *plan, orx_program_key *key) {
  memset(key, 0, sizeof *key);
  key->kernel = plan->kernel;
  memcpy(key->defines, plan->defines, sizeof key->defines);
  key->state_bytes = plan->op.state_bytes;
  key->state_align = plan->op.state_align;
  key->op_names = plan->op.source ? plan->op.names : NULL;
  key->op_source = plan->op.source;
  key->op_hash = plan->op.source_hash;
}

/* Whether two optional texts are equal. */
static int same_text(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

int orx_program_key_equal(const orx_program_key *a, const orx_program_key *b) {
  return a->kernel == b->kernel && a->op_hash == b->op_hash &&
         memcmp(a->defines, b->defines, sizeof a->defines) == 0 &&
         a->state_bytes == b->state_bytes && a->state_align == b->state_align &&
         same_text(a->op_names, b->op_names) && same_text(a->op_source, b->op_source);
}

uint64_t orx_program_key_hash(const orx_program_key *key) {
  /* The operator's text by the hash its creation made: a call does not hash the text again. */
  uint64_t hash = orx_hash(ORX_HASH_SEED, &key->kernel, sizeof key->kernel);
  hash = orx_hash(hash, key->defines, sizeof key->defines);
  return orx_hash(hash, &key->op_hash, sizeof key->op_hash);
}

/* ---- Text --------------------------------------------------------------------------------- */

/* The name of the operator's source in #line markers, hence in build logs. */
#define ORX_OPERATOR_SOURCE_NAME "operator"

static const char *element_name(ocl_reduce_type type) {
  return type == (ocl_reduce_type)ORX_CUSTOM ? "a user operator's elements" : orx_type_name(type);
}

void orx_defines_text(const int64_t *defines, int as_options, char *text, size_t capacity) {
  for (int d = 0; d < ORX_DEFINE_COUNT; d++) {
    if (defines[d] == ORX_DEFINE_UNSET)
      continue;
    if (as_options)
      orx_append(text, capacity, "%s-D%s=%lld", *text ? " " : "", orx_define_name((orx_define)d),
                 (long long)defines[d]);
    else
      orx_append(text, capacity, "#define %s %lld\n", orx_define_name((orx_define)d),
                 (long long)defines[d]);
  }
}

/* Whether a program's text past the contract reads the subgroup implementation's defines
 * (ORX_SG_IMPL, ORX_SG_SIZE, ORX_SG_BUILTIN_REDUCE: lib/orx_subgroup.cl, orx_workgroup.cl and
 * orx_stream.cl). The contract only gives them defaults, and it ends where the root's second line
 * begins (the root includes it on its first). */
static int reads_subgroups(const char *body) {
  const char *past_contract = strstr(body, "\n#line 2 \"program\"\n");
  return strstr(past_contract ? past_contract : body, "ORX_SG_") != NULL;
}

ocl_reduce_status orx_program_text_of(ocl_reduce_context *ctx, const orx_plan *plan,
                                      const char *prelude, orx_program_text *out) {
  memset(out, 0, sizeof *out);
  out->entry = orx_kernel_entry(plan->kernel);
  /* Groups that order their writes with OpenCL C's atomics need the version that has them (the
   * planner's tests ask for texts without a context). */
  out->options = ctx && plan->defines[ORX_DEFINE_SYNC] == ORX_SYNC_CL_ATOMICS
                     ? ctx->caps.sync_build_option
                     : "";
  /* The contract first (its defaults fill what the block leaves out), then the backend's words
   * for the dialect, an operator given as source (as it is), and the kernel file. */
  char root[512];
  snprintf(root, sizeof root, "#include \"orx_contract.h\"\n%s%s%s%s#include \"%s\"\n",
           prelude ? "#include \"" : "", prelude ? prelude : "", prelude ? "\"\n" : "",
           plan->op.source ? "#include \"" ORX_OPERATOR_SOURCE_NAME "\"\n" : "",
           orx_kernel_file(plan->kernel));
  const orx_source operator_source = {ORX_OPERATOR_SOURCE_NAME, plan->op.source,
                                      plan->op.source ? strlen(plan->op.source) : 0};
  size_t length = 0;
  ORX_FORWARD(orx_source_expand(ctx, "program", root, plan->op.source ? &operator_source : NULL,
                                &out->body, &length));
  /* A kernel that reads no subgroup define (by_key.cl, axes_columns.cl, gather.cl, ...) is one
   * text on every path of a device, so that the paths share its build in the program cache: four
   * Intel paths built each such program four times (CI's time, docs/perf/ci-time.txt). */
  int64_t defines[ORX_DEFINE_COUNT];
  memcpy(defines, plan->defines, sizeof defines);
  ocl_reduce_subgroup_impl impl = plan->policy.subgroup_impl;
  if (!reads_subgroups(out->body)) {
    defines[ORX_DEFINE_SG_IMPL] = defines[ORX_DEFINE_SG_SIZE] =
        defines[ORX_DEFINE_SG_BUILTIN_REDUCE] = ORX_DEFINE_UNSET;
    impl = OCL_REDUCE_SUBGROUP_NONE;
  }
  orx_append(out->defines, sizeof out->defines, "/* generated by ocl_reduce: %s, %s, %s */\n",
             out->entry, element_name(plan->type), orx_subgroup_impl_name(impl));
  orx_defines_text(defines, 0, out->defines, sizeof out->defines);
  if (plan->op.names)
    orx_append(out->defines, sizeof out->defines, "%s", plan->op.names);
  out->sources[0] = (orx_source){"defines", out->defines, strlen(out->defines)};
  out->sources[1] = (orx_source){"program", out->body, length};
  out->count = 2;
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_user_program_text_of(ocl_reduce_context *ctx, const int64_t *defines,
                                           const char *prelude, const char *source,
                                           orx_program_text *out) {
  memset(out, 0, sizeof *out);
  out->options = "";
  orx_append(out->defines, sizeof out->defines,
             "/* generated by ocl_reduce: an application's program */\n");
  orx_defines_text(defines, 0, out->defines, sizeof out->defines);
  char root[256];
  snprintf(root, sizeof root, "#include \"orx_contract.h\"\n%s%s%s", prelude ? "#include \"" : "",
           prelude ? prelude : "", prelude ? "\"\n" : "");
  size_t length = 0;
  ORX_FORWARD(orx_source_expand(ctx, "program", root, NULL, &out->body, &length));
  out->sources[0] = (orx_source){"defines", out->defines, strlen(out->defines)};
  out->sources[1] = (orx_source){"program", out->body, length};
  /* The application's source, its includes of the library's headers resolved. */
  ocl_reduce_status status =
      orx_source_expand(ctx, "source", source, NULL, &out->user_body, &length);
  if (status != OCL_REDUCE_OK) {
    orx_program_text_free(out);
    return status;
  }
  out->sources[2] = (orx_source){"source", out->user_body, length};
  out->count = 3;
  return OCL_REDUCE_OK;
}

void orx_program_text_free(orx_program_text *text) {
  free(text->user_body);
  free(text->body);
  memset(text, 0, sizeof *text);
}

/* ---- Cache -------------------------------------------------------------------------------- */

struct orx_program_entry {
  orx_built built; /* built.key's texts point into op_text */
  uint64_t hash;
  char *op_text; /* a copy of the operator's names and source: the operator may go first */
  struct orx_program_entry *next;
};

/* Makes entry's key own its operator's texts (names, a NUL, then source). */
static int own_texts(struct orx_program_entry *entry) {
  orx_program_key *key = &entry->built.key;
  if (!key->op_source)
    return 1;
  const size_t names = strlen(key->op_names), source = strlen(key->op_source);
  if (!(entry->op_text = orx_malloc(names + source + 2)))
    return 0;
  memcpy(entry->op_text, key->op_names, names + 1);
  memcpy(entry->op_text + names + 1, key->op_source, source + 1);
  key->op_names = entry->op_text;
  key->op_source = entry->op_text + names + 1;
  return 1;
}

static ocl_reduce_status build(ocl_reduce_context *ctx, const orx_plan *plan, orx_built *built) {
  orx_program_text text;
  ORX_FORWARD(orx_program_text_of(ctx, plan, ctx->ops->prelude, &text));
  const uint64_t start = orx_now_ns();
  int from_disk = 0;
  ocl_reduce_status status =
      orx_build_program(ctx, text.sources, text.count, text.options, text.entry,
                        plan->policy.wg_size,
                        &built->program, &built->subgroup_size, &from_disk);
  ctx->kernel_builds++;
  ctx->programs_from_disk += from_disk;
  /* Inline-PTX warps are the device's, not something clGetKernelSubGroupInfo knows about. */
  if (status == OCL_REDUCE_OK && plan->policy.subgroup_impl == OCL_REDUCE_SUBGROUP_NV_PTX)
    built->subgroup_size = ctx->caps.warp_size;
  /* With the plan's defines: which variant a slow or failed build was (the CPU runtimes take
   * from 0.1 s to 8 s a program, by its defines: docs/perf/ci-time.txt). */
  char defines[sizeof text.defines] = "";
  if (orx_log_debug())
    orx_defines_text(plan->defines, 1, defines, sizeof defines);
  orx_log("%s %s for %s (%s) %s %.1f ms: %s",
          status != OCL_REDUCE_OK ? "failed to build"
          : from_disk             ? "loaded"
                                  : "built",
          text.entry, element_name(plan->type), orx_subgroup_impl_name(plan->policy.subgroup_impl),
          status != OCL_REDUCE_OK ? "after" : "in", 1e-6 * (double)(orx_now_ns() - start),
          defines);
  orx_program_text_free(&text);
  return status;
}

ocl_reduce_status orx_program_get(ocl_reduce_context *ctx, const orx_plan *plan,
                                  const orx_built **out) {
  orx_program_key key;
  orx_program_key_of(plan, &key);
  const uint64_t hash = orx_program_key_hash(&key);
  struct orx_program_entry **bucket = &ctx->programs.buckets[hash % ORX_PROGRAM_BUCKETS];
  for (struct orx_program_entry *e = *bucket; e; e = e->next) {
    if (e->hash == hash && orx_program_key_equal(&e->built.key, &key)) {
      *out = &e->built;
      return OCL_REDUCE_OK;
    }
  }
  struct orx_program_entry *entry = orx_calloc(1, sizeof *entry);
  if (entry)
    entry->built.key = key;
  if (!entry || !own_texts(entry)) {
    free(entry);
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  }
  entry->hash = hash;
  ocl_reduce_status status = build(ctx, plan, &entry->built);
  if (status != OCL_REDUCE_OK) {
    free(entry->op_text);
    free(entry);
    return status;
  }
  entry->next = *bucket;
  *bucket = entry;
  *out = &entry->built;
  return OCL_REDUCE_OK;
}

void orx_program_cache_clear(ocl_reduce_context *ctx) {
  for (size_t b = 0; b < ORX_PROGRAM_BUCKETS; b++) {
    while (ctx->programs.buckets[b]) {
      struct orx_program_entry *next = ctx->programs.buckets[b]->next;
      ctx->ops->release_program(ctx->programs.buckets[b]->built.program);
      free(ctx->programs.buckets[b]->op_text);
      free(ctx->programs.buckets[b]);
      ctx->programs.buckets[b] = next;
    }
  }
}
