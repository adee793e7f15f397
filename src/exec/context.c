/* =================================================================================================
 * context.c: a context's life cycle (context.h): options and environment merged, the backend
 * opened, the path resolved once, references counted; and what clients above execution may know
 * of its device. Kernels and scratch memory come later, on first use. The public entry points
 * are src/api/context.c's.
 * ============================================================================================== */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/device_pick.h"
#include "base/handles.h"
#include "exec/context.h"
#include "exec/fault_inject.h"
#include "exec/run.h"
#include "exec/user_operator.h"
#include "planner/plan_group.h"

/* ---- Options and environment ------------------------------------------------------------------
 */

/* The settings a context is created with, after options and environment are merged. */
typedef struct settings {
  const char *device;
  ocl_reduce_path path;
  ocl_reduce_subgroup_impl subgroup_impl;
  ocl_reduce_backend backend;
  int profiling;
  ocl_reduce_determinism determinism;
  char cache_dir[ORX_CACHE_DIR_CAPACITY]; /* resolved: "" when off */
  uint64_t cache_max;
  int disable_fp64;
  int disable_subgroups;
  orx_policy_override policy;
} settings;

typedef struct keyword {
  const char *word;
  int value;
} keyword;

/* Looks `text` up in `words` (case-insensitive); on no match, names the variable and the choices.
 */
static ocl_reduce_status parse_keyword(const char *variable, const char *text, const keyword *words,
                                       size_t count, int *value) {
  for (size_t i = 0; i < count; i++) {
    if (strlen(text) == strlen(words[i].word) && orx_strcasestr(text, words[i].word)) {
      *value = words[i].value;
      return OCL_REDUCE_OK;
    }
  }
  char choices[256] = "";
  for (size_t i = 0; i < count; i++) {
    if (i)
      strncat(choices, ", ", sizeof choices - strlen(choices) - 1);
    strncat(choices, words[i].word, sizeof choices - strlen(choices) - 1);
  }
  return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION, "%s='%s' is not one of: %s", variable,
                  text, choices);
}

static ocl_reduce_status parse_disable(const char *text, settings *s) {
  char list[256];
  orx_strlcpy(list, text, sizeof list);
  for (char *save = NULL, *word = strtok_r(list, ", ", &save); word;
       word = strtok_r(NULL, ", ", &save)) {
    if (strcmp(word, "fp64") == 0)
      s->disable_fp64 = 1;
    else if (strcmp(word, "subgroups") == 0)
      s->disable_subgroups = 1;
    else
      return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                      "OCL_REDUCE_DISABLE: unknown capability '%s' (known: fp64, subgroups)", word);
  }
  return OCL_REDUCE_OK;
}

/* OCL_REDUCE_BACKEND: "auto" or a registry row's keyword. */
static ocl_reduce_status parse_backend(const char *text, ocl_reduce_backend *backend) {
  keyword words[8] = {{"auto", OCL_REDUCE_BACKEND_AUTO}};
  size_t count = 1;
  for (size_t i = 0; i < orx_backend_row_count() && count < ORX_ARRAY_SIZE(words); i++)
    words[count++] = (keyword){orx_backend_row_at(i)->keyword, orx_backend_row_at(i)->kind};
  int value = 0;
  ORX_FORWARD(parse_keyword("OCL_REDUCE_BACKEND", text, words, count, &value));
  *backend = (ocl_reduce_backend)value;
  return OCL_REDUCE_OK;
}

/* The options as a C caller filled them: struct_size, and enum values that may be anything. */
static ocl_reduce_status check_options(const ocl_reduce_options *opts) {
  /* Fields a later version appends are past sizeof *opts: this version reads none of them; and
   * a caller of 0.2, before cache_max_bytes, has the default there. */
  if (opts->struct_size < ORX_FIRST_OPTIONS_SIZE || opts->struct_size > OCL_REDUCE_STRUCT_SIZE_MAX)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "opts->struct_size is %zu, not sizeof(ocl_reduce_options) (%zu): start from "
                    "OCL_REDUCE_OPTIONS_INIT",
                    opts->struct_size, sizeof *opts);
  if ((unsigned)opts->path > OCL_REDUCE_PATH_LOCAL)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "opts->path: unknown value %d",
                    (int)opts->path);
  if ((unsigned)opts->subgroup_impl > OCL_REDUCE_SUBGROUP_CUDA ||
      opts->subgroup_impl == OCL_REDUCE_SUBGROUP_NONE)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "opts->subgroup_impl: unknown value %d", (int)opts->subgroup_impl);
  if (opts->backend != OCL_REDUCE_BACKEND_DEFAULT && opts->backend != OCL_REDUCE_BACKEND_AUTO &&
      !orx_backend_row_of(opts->backend))
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "opts->backend: unknown value %d",
                    (int)opts->backend);
  if ((unsigned)opts->determinism > OCL_REDUCE_CROSS_DEVICE)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "opts->determinism: unknown value %d",
                    (int)opts->determinism);
  return OCL_REDUCE_OK;
}

/* Each field the options left DEFAULT: its environment variable, else AUTO (RUN_TO_RUN). */
static ocl_reduce_status resolve_defaults(settings *s) {
  static const keyword paths[] = {{"auto", OCL_REDUCE_PATH_AUTO},
                                  {"subgroup", OCL_REDUCE_PATH_SUBGROUP},
                                  {"local", OCL_REDUCE_PATH_LOCAL}};
  static const keyword determinisms[] = {{"run_to_run", OCL_REDUCE_RUN_TO_RUN},
                                         {"cross_device", OCL_REDUCE_CROSS_DEVICE}};
  const char *text;
  int value = 0;
  if (s->determinism == OCL_REDUCE_DETERMINISM_DEFAULT) {
    s->determinism = OCL_REDUCE_RUN_TO_RUN;
    if ((text = orx_env("OCL_REDUCE_DETERMINISM")) != NULL) {
      ORX_FORWARD(parse_keyword("OCL_REDUCE_DETERMINISM", text, determinisms,
                                ORX_ARRAY_SIZE(determinisms), &value));
      s->determinism = (ocl_reduce_determinism)value;
    }
  }
  if (s->path == OCL_REDUCE_PATH_DEFAULT) {
    s->path = OCL_REDUCE_PATH_AUTO;
    if ((text = orx_env("OCL_REDUCE_PATH")) != NULL) {
      ORX_FORWARD(parse_keyword("OCL_REDUCE_PATH", text, paths, ORX_ARRAY_SIZE(paths), &value));
      s->path = (ocl_reduce_path)value;
    }
  }
  if (s->subgroup_impl == OCL_REDUCE_SUBGROUP_DEFAULT) {
    s->subgroup_impl = OCL_REDUCE_SUBGROUP_AUTO;
    if ((text = orx_env("OCL_REDUCE_SUBGROUP")) != NULL &&
        !orx_subgroup_impl_named(text, &s->subgroup_impl)) {
      char choices[128];
      orx_subgroup_impl_choices(choices, sizeof choices);
      return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_OPTION,
                      "OCL_REDUCE_SUBGROUP='%s' is not one of: %s", text, choices);
    }
  }
  if (s->backend == OCL_REDUCE_BACKEND_DEFAULT) {
    s->backend = OCL_REDUCE_BACKEND_AUTO;
    if ((text = orx_env("OCL_REDUCE_BACKEND")) != NULL)
      ORX_FORWARD(parse_backend(text, &s->backend));
  }
  return OCL_REDUCE_OK;
}

static ocl_reduce_status read_settings(const ocl_reduce_options *opts, settings *s) {
  /* The log reads the variable itself (errors.c), also outside contexts; a misspelt level is
   * reported here, where every other variable's is. */
  static const keyword log_levels[] = {{"off", 0}, {"debug", 1}};
  static const ocl_reduce_options defaults = OCL_REDUCE_OPTIONS_INIT;
  if (!opts)
    opts = &defaults;
  ORX_FORWARD(check_options(opts));
  const uint64_t cache_max_option =
      opts->struct_size >= offsetof(ocl_reduce_options, cache_max_bytes) + sizeof(uint64_t)
          ? opts->cache_max_bytes
          : 0;
  memset(s, 0, sizeof *s);
  const char *text;
  int value = 0;
  if ((text = orx_env("OCL_REDUCE_LOG")) != NULL)
    ORX_FORWARD(
        parse_keyword("OCL_REDUCE_LOG", text, log_levels, ORX_ARRAY_SIZE(log_levels), &value));
  s->device = opts->device ? opts->device : orx_env("OCL_REDUCE_DEVICE");
  s->path = opts->path;
  s->subgroup_impl = opts->subgroup_impl;
  s->backend = opts->backend;
  s->profiling = opts->profiling;
  s->determinism = opts->determinism;
  ORX_FORWARD(orx_disk_cache_dir(opts->cache_dir, s->cache_dir, sizeof s->cache_dir));
  ORX_FORWARD(orx_cache_max(cache_max_option, &s->cache_max));
  ORX_FORWARD(resolve_defaults(s));
  if ((text = orx_env("OCL_REDUCE_DISABLE")) != NULL)
    ORX_FORWARD(parse_disable(text, s));
  ORX_FORWARD(orx_parse_policy_override(orx_env("OCL_REDUCE_POLICY"), &s->policy));
  return OCL_REDUCE_OK;
}

/* ---- Life cycle -------------------------------------------------------------------------- */

static ocl_reduce_status open_with(ocl_reduce_context *ctx, const orx_backend_row *row,
                                   const char *selector, void *native_queue, int profiling) {
  const char *missing = orx_backend_missing_slot(row->ops);
  if (missing)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INTERNAL,
                    "the %s backend's table lacks its %s slot (src/backends/backend.h)", row->title,
                    missing);
  ctx->ops = row->ops;
  ctx->backend_row = row;
  return row->ops->open(ctx, selector, native_queue, profiling, &ctx->backend, &ctx->caps);
}

/* Whether a device selector names a backend: its prefix ("cuda:1"), or the prefix's name alone
 * ("cuda", any case: its first device). */
static int names_backend(const char *selector, const char *prefix) {
  const size_t name = strlen(prefix) - 1; /* without the ':' */
  /* A string as long as the name inside the prefix can only be found at its start. */
  return strncmp(selector, prefix, name + 1) == 0 ||
         (strlen(selector) == name && orx_strcasestr(prefix, selector));
}

/* The row of a backend asked for by kind, which this build must have. */
static ocl_reduce_status built_row(ocl_reduce_context *ctx, ocl_reduce_backend kind,
                                   const orx_backend_row **row) {
  *row = orx_backend_row_of(kind);
  if (!*row || !(*row)->ops)
    return orx_fail(ctx, OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE,
                    "this library was built without the %s backend (its headers were missing "
                    "at build time)",
                    *row ? (*row)->title : "requested");
  return OCL_REDUCE_OK;
}

/* AUTO without a backend's selector: the registry's first built backend, then one that adopts
 * what it opened (see backend.h: an NVIDIA GPU runs through CUDA where CUDA can run). */
static ocl_reduce_status open_preferred(ocl_reduce_context *ctx, const settings *s) {
  size_t first = 0;
  while (!orx_backend_row_at(first)->ops)
    first++; /* OpenCL, the first row, is always built */
  ocl_reduce_status status =
      open_with(ctx, orx_backend_row_at(first), s->device, NULL, s->profiling);
  const int none = status == OCL_REDUCE_ERROR_NO_PLATFORM || status == OCL_REDUCE_ERROR_NO_DEVICE;
  for (size_t i = 0; i < orx_backend_row_count() && (status == OCL_REDUCE_OK || none); i++) {
    const orx_backend_row *row = orx_backend_row_at(i);
    char selector[300];
    if (i == first || !row->ops || !row->ops->adopt ||
        !row->ops->adopt(status == OCL_REDUCE_OK ? &ctx->caps : NULL, s->device, selector,
                         sizeof selector))
      continue;
    ctx->ops->close(ctx->backend);
    ctx->backend = NULL;
    return open_with(ctx, row, selector, NULL, s->profiling);
  }
  return status;
}

/* Opens the backend the settings ask for. AUTO: a backend whose selectors the device selector
 * uses, else the preferred one. An application's queue stays with the backend of its kind. */
static ocl_reduce_status open_backend(ocl_reduce_context *ctx, const settings *s,
                                      const orx_native_queue *queue) {
  const orx_backend_row *row;
  if (queue->handle) {
    ORX_FORWARD(built_row(ctx, queue->kind, &row));
    return open_with(ctx, row, NULL, queue->handle, s->profiling);
  }
  if (s->backend != OCL_REDUCE_BACKEND_AUTO) {
    ORX_FORWARD(built_row(ctx, s->backend, &row));
    return open_with(ctx, row, s->device, NULL, s->profiling);
  }
  for (size_t i = 0; i < orx_backend_row_count(); i++) {
    row = orx_backend_row_at(i);
    if (row->ops && row->ops->selector_prefix && s->device &&
        names_backend(s->device, row->ops->selector_prefix))
      return open_with(ctx, row, s->device, NULL, s->profiling);
  }
  return open_preferred(ctx, s);
}

static ocl_reduce_status open_context(ocl_reduce_context *ctx, const settings *s,
                                      const orx_native_queue *queue) {
  ctx->profiling = s->profiling;
  ctx->determinism = s->determinism;
  orx_strlcpy(ctx->cache_dir, s->cache_dir, sizeof ctx->cache_dir);
  ctx->cache_max = s->cache_max;
  ORX_FORWARD(open_backend(ctx, s, queue));
  /* Capabilities switched off for testing look exactly like missing ones. */
  if (s->disable_fp64)
    ctx->caps.has_fp64 = 0;
  if (s->disable_subgroups) {
    ctx->caps.has_khr_subgroups = ctx->caps.has_khr_shuffle = ctx->caps.has_intel_subgroups = 0;
    ctx->caps.warp_size = 0;
    ctx->caps.has_cuda_shuffle = 0;
  }

  if (ctx->ops->set_polling)
    ctx->ops->set_polling(ctx->backend, orx_plan_wait_polls(&ctx->caps, &s->policy));
  orx_target *t = &ctx->target;
  t->caps = &ctx->caps;
  t->forced = s->policy;
  const char *requirement = NULL;
  ocl_reduce_status status = orx_plan_path(&ctx->caps, s->path, s->subgroup_impl, &t->path,
                                           &t->subgroup_impl, &requirement);
  if (status != OCL_REDUCE_OK)
    return orx_fail(
        ctx, status,
        "the %s path with subgroup implementation '%s' needs %s, which device '%s' "
        "(%s) does not offer",
        orx_path_name(s->path == OCL_REDUCE_PATH_AUTO ? OCL_REDUCE_PATH_SUBGROUP : s->path),
        orx_subgroup_impl_name(s->subgroup_impl), requirement, ctx->caps.device_name,
        ctx->caps.platform_name);
  orx_log("context on %u:%u %s / %s, %s path, subgroup implementation %s%s",
          ctx->caps.platform_index, ctx->caps.device_index, ctx->caps.platform_name,
          ctx->caps.device_name, orx_path_name(t->path), orx_subgroup_impl_name(t->subgroup_impl),
          !orx_plan_caches_binaries(&ctx->caps, &ctx->target.forced) && ctx->cache_dir[0]
              ? "; programs left to the implementation's own kernel cache" : "");
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_context_create(const ocl_reduce_options *opts, orx_native_queue queue,
                                     ocl_reduce_context **out, const char *function) {
  if (!out)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", function);
  *out = NULL;
  settings s;
  ORX_FORWARD(read_settings(opts, &s));
  ocl_reduce_context *ctx = orx_handle_new(ORX_HANDLE_CONTEXT, sizeof *ctx);
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", function);
  atomic_init(&ctx->references, 1); /* the application's */
  ocl_reduce_status status = open_context(ctx, &s, &queue);
  if (status != OCL_REDUCE_OK) {
    /* The context goes away: keep its message where ocl_reduce_last_error(NULL) finds it. */
    orx_fail(NULL, status, "%s: %s", function, ctx->error.text);
    orx_context_release(ctx);
    return status;
  }
  *out = ctx;
  return OCL_REDUCE_OK;
}

void orx_context_retain(ocl_reduce_context *ctx) {
  atomic_fetch_add_explicit(&ctx->references, 1, memory_order_relaxed);
}

void orx_context_release(ocl_reduce_context *ctx) {
  /* acq_rel: whatever another thread's last use of the context wrote happens before the free. */
  if (atomic_fetch_sub_explicit(&ctx->references, 1, memory_order_acq_rel) != 1)
    return;
  if (ctx->ops) {
    orx_program_cache_clear(ctx);
    orx_staging_release(ctx);
    orx_host_release(ctx);
    orx_scratch_release_all(ctx);
    orx_user_operators_forget(ctx);
    orx_fault_forget(ctx);
    ctx->ops->close(ctx->backend);
  }
  orx_handle_free(ctx, ORX_HANDLE_CONTEXT);
}

void orx_context_device(const ocl_reduce_context *ctx, orx_device_facts *facts) {
  memset(facts, 0, sizeof *facts);
  facts->backend = ctx->backend_row->kind;
  facts->type = ctx->caps.type;
  facts->platform_index = ctx->caps.platform_index;
  facts->device_index = ctx->caps.device_index;
  facts->platform_name = ctx->caps.platform_name;
  facts->device_name = ctx->caps.device_name;
  orx_format_selector(ctx->ops->selector_prefix, facts->platform_index, facts->device_index, facts->selector,
                      sizeof facts->selector);
}

int orx_context_same_device(const ocl_reduce_context *a, const ocl_reduce_context *b) {
  return a->backend_row == b->backend_row && a->caps.platform_index == b->caps.platform_index &&
         a->caps.device_index == b->caps.device_index;
}

int orx_context_determinism(const ocl_reduce_context *ctx) { return (int)ctx->determinism; }

uint64_t orx_context_group_min_part_bytes(const ocl_reduce_context *ctx) {
  return orx_group_min_part_bytes(&ctx->target.forced);
}

uint64_t orx_context_group_seam_staged_bytes(const ocl_reduce_context *ctx) {
  return orx_group_seam_staged_bytes(&ctx->target.forced);
}

uint64_t orx_context_spin_ns(const ocl_reduce_context *ctx) {
  return orx_plan_spin_ns(&ctx->target.forced);
}
