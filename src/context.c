/* =================================================================================================
 * context.c: options and environment, context creation and destruction, and the context query.
 * A context binds one device through one backend and resolves its path once; kernels and scratch
 * memory come later, on first use (program.c, reduce.c).
 * ============================================================================================== */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* ---- Options and environment ------------------------------------------------------------------ */

void ocl_reduce_options_init(ocl_reduce_options *opts) {
  if (!opts)
    return;
  memset(opts, 0, sizeof *opts);
  opts->struct_size = sizeof *opts;
}

/* The settings a context is created with, after options and environment are merged. */
typedef struct settings {
  const char *device;
  ocl_reduce_path path;
  ocl_reduce_subgroup_impl subgroup_impl;
  ocl_reduce_backend backend;
  int profiling;
  int disable_fp64;
  int disable_subgroups;
  orx_policy_override policy;
} settings;

typedef struct keyword {
  const char *word;
  int value;
} keyword;

/* Looks `text` up in `words` (case-insensitive); on no match, names the variable and the choices. */
static ocl_reduce_status parse_keyword(const char *variable, const char *text,
                                       const keyword *words, size_t count, int *value) {
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

static ocl_reduce_status read_settings(const ocl_reduce_options *opts, settings *s) {
  static const keyword paths[] = {{"auto", OCL_REDUCE_PATH_AUTO},
                                  {"subgroup", OCL_REDUCE_PATH_SUBGROUP},
                                  {"local", OCL_REDUCE_PATH_LOCAL}};
  static const keyword impls[] = {{"auto", OCL_REDUCE_SUBGROUP_AUTO},
                                  {"khr", OCL_REDUCE_SUBGROUP_KHR},
                                  {"intel", OCL_REDUCE_SUBGROUP_INTEL},
                                  {"ptx", OCL_REDUCE_SUBGROUP_NV_PTX},
                                  {"cuda", OCL_REDUCE_SUBGROUP_CUDA},
                                  {"builtin", OCL_REDUCE_SUBGROUP_BUILTIN}};
  static const keyword backends[] = {{"auto", OCL_REDUCE_BACKEND_AUTO},
                                     {"opencl", OCL_REDUCE_BACKEND_OPENCL},
                                     {"cuda", OCL_REDUCE_BACKEND_CUDA}};
  ocl_reduce_options defaults;
  ocl_reduce_options_init(&defaults);
  if (!opts)
    opts = &defaults;
  if (opts->struct_size < sizeof(size_t) || opts->struct_size > sizeof *opts)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "opts: struct_size is %zu; call ocl_reduce_options_init() first",
                    opts->struct_size);
  if ((unsigned)opts->path > OCL_REDUCE_PATH_LOCAL)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "opts->path: unknown value %d",
                    (int)opts->path);
  if ((unsigned)opts->subgroup_impl > OCL_REDUCE_SUBGROUP_CUDA ||
      opts->subgroup_impl == OCL_REDUCE_SUBGROUP_NONE)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "opts->subgroup_impl: unknown value %d", (int)opts->subgroup_impl);
  if ((unsigned)opts->backend > OCL_REDUCE_BACKEND_CUDA)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "opts->backend: unknown value %d",
                    (int)opts->backend);

  memset(s, 0, sizeof *s);
  s->device = opts->device ? opts->device : orx_env("OCL_REDUCE_DEVICE");
  s->path = opts->path;
  s->subgroup_impl = opts->subgroup_impl;
  s->backend = opts->backend;
  s->profiling = opts->profiling;
  const char *text;
  int value = 0;
  if (s->path == OCL_REDUCE_PATH_DEFAULT) {
    s->path = OCL_REDUCE_PATH_AUTO;
    if ((text = orx_env("OCL_REDUCE_PATH")) != NULL) {
      ORX_FORWARD(parse_keyword("OCL_REDUCE_PATH", text, paths, ORX_ARRAY_SIZE(paths), &value));
      s->path = (ocl_reduce_path)value;
    }
  }
  if (s->subgroup_impl == OCL_REDUCE_SUBGROUP_DEFAULT) {
    s->subgroup_impl = OCL_REDUCE_SUBGROUP_AUTO;
    if ((text = orx_env("OCL_REDUCE_SUBGROUP")) != NULL) {
      ORX_FORWARD(parse_keyword("OCL_REDUCE_SUBGROUP", text, impls, ORX_ARRAY_SIZE(impls),
                                &value));
      s->subgroup_impl = (ocl_reduce_subgroup_impl)value;
    }
  }
  if (s->backend == OCL_REDUCE_BACKEND_DEFAULT) {
    s->backend = OCL_REDUCE_BACKEND_AUTO;
    if ((text = orx_env("OCL_REDUCE_BACKEND")) != NULL) {
      ORX_FORWARD(parse_keyword("OCL_REDUCE_BACKEND", text, backends, ORX_ARRAY_SIZE(backends),
                                &value));
      s->backend = (ocl_reduce_backend)value;
    }
  }
  if ((text = orx_env("OCL_REDUCE_DISABLE")) != NULL)
    ORX_FORWARD(parse_disable(text, s));
  ORX_FORWARD(orx_parse_policy_override(orx_env("OCL_REDUCE_POLICY"), &s->policy));
  return OCL_REDUCE_OK;
}

/* ---- Life cycle -------------------------------------------------------------------------------- */

/* Opens the backend the settings ask for (see ocl_reduce_backend for what AUTO does). */
static ocl_reduce_status open_backend(ocl_reduce_context *ctx, const settings *s,
                                      void *native_queue) {
  const int cuda_selector = s->device && strncmp(s->device, "cuda:", 5) == 0;
  if (s->backend == OCL_REDUCE_BACKEND_CUDA ||
      (s->backend == OCL_REDUCE_BACKEND_AUTO && cuda_selector && !native_queue)) {
#ifdef ORX_HAVE_CUDA
    ctx->ops = &orx_cuda_backend;
    return ctx->ops->open(ctx, s->device, native_queue, s->profiling, &ctx->backend, &ctx->caps);
#else
    return orx_fail(ctx, OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE,
                    "this library was built without the CUDA backend (no CUDA toolkit headers "
                    "at build time)");
#endif
  }
  ctx->ops = &orx_opencl_backend;
  ocl_reduce_status status =
      ctx->ops->open(ctx, s->device, native_queue, s->profiling, &ctx->backend, &ctx->caps);
#ifdef ORX_HAVE_CUDA
  const char *why = NULL;
  if (s->backend == OCL_REDUCE_BACKEND_AUTO && !native_queue) {
    const int nvidia_gpu = status == OCL_REDUCE_OK && ctx->caps.type == OCL_REDUCE_DEVICE_GPU &&
                           strstr(ctx->caps.platform_name, "NVIDIA") != NULL;
    const int no_opencl_device =
        status == OCL_REDUCE_ERROR_NO_PLATFORM || status == OCL_REDUCE_ERROR_NO_DEVICE;
    if ((nvidia_gpu || no_opencl_device) && orx_cuda_available(&why)) {
      /* The same GPU through CUDA: found by its PCI address, else by its name. */
      char selector[300];
      if (!nvidia_gpu)
        snprintf(selector, sizeof selector, "%s", s->device ? s->device : "");
      else if (ctx->caps.has_pci_address)
        snprintf(selector, sizeof selector, "pci:%x:%x:%x", ctx->caps.pci_domain,
                 ctx->caps.pci_bus, ctx->caps.pci_device);
      else
        snprintf(selector, sizeof selector, "%s", ctx->caps.device_name);
      ctx->ops->close(ctx->backend);
      ctx->backend = NULL;
      ctx->ops = &orx_cuda_backend;
      status = ctx->ops->open(ctx, selector, NULL, s->profiling, &ctx->backend, &ctx->caps);
    }
  }
#endif
  return status;
}

static ocl_reduce_status open_context(ocl_reduce_context *ctx, const settings *s,
                                      void *native_queue) {
  ctx->profiling = s->profiling;
  ctx->policy_override = s->policy;
  ORX_FORWARD(open_backend(ctx, s, native_queue));
  /* Capabilities switched off for testing look exactly like missing ones. */
  if (s->disable_fp64)
    ctx->caps.has_fp64 = 0;
  if (s->disable_subgroups) {
    ctx->caps.has_khr_subgroups = ctx->caps.has_khr_shuffle = ctx->caps.has_intel_subgroups = 0;
    ctx->caps.nv_warp_size = 0;
    ctx->caps.has_cuda_shuffle = 0;
  }

  const char *requirement = NULL;
  ocl_reduce_status status = orx_resolve_path(&ctx->caps, s->path, s->subgroup_impl, &ctx->path,
                                              &ctx->subgroup_impl, &requirement);
  if (status != OCL_REDUCE_OK)
    return orx_fail(ctx, status,
                    "the %s path with subgroup implementation '%s' needs %s, which device '%s' "
                    "(%s) does not offer",
                    orx_path_name(s->path == OCL_REDUCE_PATH_AUTO ? OCL_REDUCE_PATH_SUBGROUP
                                                                  : s->path),
                    orx_subgroup_impl_name(s->subgroup_impl), requirement, ctx->caps.device_name,
                    ctx->caps.platform_name);
  orx_log("context on %u:%u %s / %s, %s path, subgroup implementation %s",
          ctx->caps.platform_index, ctx->caps.device_index, ctx->caps.platform_name,
          ctx->caps.device_name, orx_path_name(ctx->path),
          orx_subgroup_impl_name(ctx->subgroup_impl));
  return OCL_REDUCE_OK;
}

static ocl_reduce_status create(const ocl_reduce_options *opts, void *native_queue,
                                ocl_reduce_context **out, const char *function) {
  if (!out)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: out is NULL", function);
  *out = NULL;
  settings s;
  ORX_FORWARD(read_settings(opts, &s));
  ocl_reduce_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory",
                    function);
  ocl_reduce_status status = open_context(ctx, &s, native_queue);
  if (status != OCL_REDUCE_OK) {
    /* The context goes away: keep its message where ocl_reduce_last_error(NULL) finds it. */
    orx_fail(NULL, status, "%s: %s", function, ctx->error);
    ocl_reduce_context_destroy(ctx);
    return status;
  }
  *out = ctx;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_context_create(const ocl_reduce_options *opts,
                                            ocl_reduce_context **out) {
  return create(opts, NULL, out, "ocl_reduce_context_create");
}

ocl_reduce_status ocl_reduce_context_create_opencl(const ocl_reduce_options *opts,
                                                   void *cl_command_queue,
                                                   ocl_reduce_context **out) {
  if (!cl_command_queue) {
    if (out)
      *out = NULL;
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "ocl_reduce_context_create_opencl: cl_command_queue is NULL");
  }
  return create(opts, cl_command_queue, out, "ocl_reduce_context_create_opencl");
}

void ocl_reduce_context_destroy(ocl_reduce_context *ctx) {
  if (!ctx)
    return;
  if (ctx->buffers_alive)
    orx_log("context destroyed with %u buffers still alive; destroy buffers first",
            ctx->buffers_alive);
  if (ctx->ops) {
    orx_program_cache_clear(ctx);
    ctx->ops->release_mem(ctx->partials);
    ctx->ops->release_mem(ctx->counter);
    ctx->ops->release_mem(ctx->results);
    ctx->ops->release_mem(ctx->chunk_results);
    ctx->ops->release_mem(ctx->staging);
    ctx->ops->release_mem(ctx->segment_results);
    ctx->ops->release_mem(ctx->segment_offsets);
    ctx->ops->release_mem(ctx->offsets_report);
    ctx->ops->close(ctx->backend);
  }
  free(ctx);
}

void orx_context_policy(const ocl_reduce_context *ctx, ocl_reduce_type type, orx_policy *out) {
  orx_select_policy(&ctx->caps, ctx->path, ctx->subgroup_impl, type, out);
  orx_apply_policy_override(&ctx->caps, &ctx->policy_override, type, out);
}

/* ---- Devices ------------------------------------------------------------------------------------ */

ocl_reduce_status ocl_reduce_devices(ocl_reduce_device_desc *out, size_t capacity, size_t *count) {
  if (!count || (capacity > 0 && !out))
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "ocl_reduce_devices: %s is NULL",
                    count ? "out" : "count");
  ORX_FORWARD(orx_opencl_backend.list_devices(NULL, out, capacity, count));
#ifdef ORX_HAVE_CUDA
  size_t cuda = 0, first = *count < capacity ? *count : capacity;
  ORX_FORWARD(orx_cuda_backend.list_devices(NULL, out ? out + first : NULL, capacity - first, &cuda));
  *count += cuda;
#endif
  return OCL_REDUCE_OK;
}

/* ---- Query -------------------------------------------------------------------------------------- */

ocl_reduce_status ocl_reduce_context_query(ocl_reduce_context *ctx, ocl_reduce_context_info *info) {
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "ocl_reduce_context_query: ctx is NULL");
  ORX_CHECK_ARG(ctx, info, "ocl_reduce_context_query: info is NULL");
  ocl_reduce_context_info r;
  memset(&r, 0, sizeof r);
  r.backend = ctx->ops->kind;
  r.backend_name = ctx->ops->name;
  r.platform_name = ctx->caps.platform_name;
  r.device_name = ctx->caps.device_name;
  r.device_version = ctx->caps.device_version;
  r.driver_version = ctx->caps.driver_version;
  r.platform_index = ctx->caps.platform_index;
  r.device_index = ctx->caps.device_index;
  r.device_type = ctx->caps.type;
  r.path = ctx->path;
  r.subgroup_impl = ctx->subgroup_impl;
  r.subgroup_impl_name = orx_subgroup_impl_name(ctx->subgroup_impl);
  r.compute_units = ctx->caps.compute_units;
  r.has_fp64 = ctx->caps.has_fp64;
  r.has_khr_subgroups = ctx->caps.has_khr_subgroups;
  r.has_khr_subgroup_shuffle = ctx->caps.has_khr_shuffle;
  r.has_intel_subgroups = ctx->caps.has_intel_subgroups;
  r.nv_warp_size = ctx->caps.nv_warp_size;
  r.local_mem_bytes = ctx->caps.local_mem_bytes;
  r.max_alloc_bytes = ctx->caps.max_alloc_bytes;
  r.global_mem_bytes = ctx->caps.global_mem_bytes;
  orx_policy policy;
  orx_context_policy(ctx, OCL_REDUCE_F32, &policy);
  r.work_group_size = policy.wg_size;
  if (ctx->path == OCL_REDUCE_PATH_SUBGROUP) {
    const orx_built *built = NULL;
    const orx_variant variant = orx_variant_of(ORX_KERNEL_REDUCE_ALL, OCL_REDUCE_SUM, OCL_REDUCE_F32);
    ORX_FORWARD(orx_program_get(ctx, &variant, &built));
    r.subgroup_size = built->subgroup_size;
  }
  ctx->ops->native(ctx->backend, &r.native_context, &r.native_device, &r.native_queue);
  r.kernel_builds = ctx->kernel_builds;
  r.bytes_to_device = ctx->bytes_to_device;
  r.device_allocations = ctx->device_allocations;
  *info = r;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_last_kernel_ns(const ocl_reduce_context *ctx, uint64_t *ns) {
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "ocl_reduce_last_kernel_ns: ctx is NULL");
  ocl_reduce_context *mut = (ocl_reduce_context *)ctx; /* only its error text changes */
  ORX_CHECK_ARG(mut, ns, "ocl_reduce_last_kernel_ns: ns is NULL");
  ORX_CHECK_ARG(mut, ctx->profiling,
                "ocl_reduce_last_kernel_ns: the context was created without options.profiling");
  ORX_CHECK_ARG(mut, ctx->has_kernel_time, "ocl_reduce_last_kernel_ns: no kernel has run yet");
  *ns = ctx->last_kernel_ns;
  return OCL_REDUCE_OK;
}
