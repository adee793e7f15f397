/* =================================================================================================
 * program.c: applications' kernels built with the library's collectives
 * (cl/ocl_reduce_collectives.h): built for the context's device with the defines the planner
 * gives them (plan_program.c), launched on the context's queue.
 * ============================================================================================== */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/handles.h"
#include "exec/context.h"
#include "exec/entry.h"
#include "exec/launch.h"
#include "base/util.h"
#include "ocl_reduce_program.h"

struct ocl_reduce_program {
  orx_handle handle; /* live or not (base/handles.h) */
  ocl_reduce_context *ctx;
  orx_program *program;
  unsigned work_group_size;
};

/* Whether `name` occurs in `source` as a whole identifier. */
static int has_identifier(const char *source, const char *name) {
  const size_t n = strlen(name);
  for (const char *at = strstr(source, name); at; at = strstr(at + 1, name)) {
    const int starts = at == source || !(isalnum((unsigned char)at[-1]) || at[-1] == '_');
    const int ends = !(isalnum((unsigned char)at[n]) || at[n] == '_');
    if (starts && ends)
      return 1;
  }
  return 0;
}

static int is_identifier(const char *name) {
  if (!*name || !(isalpha((unsigned char)*name) || *name == '_'))
    return 0;
  for (; *name; name++)
    if (!(isalnum((unsigned char)*name) || *name == '_'))
      return 0;
  return 1;
}

static ocl_reduce_status check_work_group(ocl_reduce_context *ctx, const char *call,
                                          unsigned work_group_size) {
  const char *problem = orx_program_wg_problem(&ctx->target, work_group_size);
  if (problem)
    return orx_fail(ctx, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "%s: work_group_size %u %s (the device takes up to %zu)", call,
                    work_group_size, problem, ctx->target.caps->max_work_group_size);
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_program_build(ocl_reduce_context *ctx, const char *source,
                                           const char *kernel_name, unsigned work_group_size,
                                           ocl_reduce_program **out) {
  static const char call[] = "ocl_reduce_program_build";
  ORX_ENTER(ctx, call);
  ORX_CHECK_ARG(ctx, out, "%s: out is NULL", call);
  ORX_CHECK_ARG(ctx, source && *source, "%s: source is NULL or empty", call);
  ORX_CHECK_ARG(ctx, kernel_name && is_identifier(kernel_name),
                "%s: kernel_name is NULL or not an identifier", call);
  ORX_CHECK_ARG(ctx, has_identifier(source, kernel_name),
                "%s: kernel_name: the source has no kernel named %s", call, kernel_name);
  ORX_FORWARD(check_work_group(ctx, call, work_group_size));
  int64_t defines[ORX_DEFINE_COUNT];
  orx_plan_program(&ctx->target, work_group_size, defines);
  orx_program_text text;
  ORX_FORWARD(orx_user_program_text_of(ctx, defines, ctx->ops->prelude, source, &text));
  ocl_reduce_program *program = orx_handle_new(ORX_HANDLE_PROGRAM, sizeof *program);
  ocl_reduce_status status =
      program ? OCL_REDUCE_OK
              : orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  unsigned subgroup_size = 0;
  int from_disk = 0;
  if (status == OCL_REDUCE_OK)
    status = orx_build_program(ctx, text.sources, text.count, text.options, kernel_name,
                               work_group_size,
                               &program->program, &subgroup_size, &from_disk);
  orx_program_text_free(&text);
  if (status != OCL_REDUCE_OK) {
    if (program)
      orx_handle_free(program, ORX_HANDLE_PROGRAM);
    return status;
  }
  ctx->kernel_builds++;
  ctx->programs_from_disk += from_disk;
  program->ctx = ctx;
  orx_context_retain(ctx);
  program->work_group_size = work_group_size;
  *out = program;
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_program_launch(ocl_reduce_context *ctx, ocl_reduce_program *program,
                                            size_t groups, const ocl_reduce_kernel_arg *args,
                                            size_t nargs) {
  static const char call[] = "ocl_reduce_program_launch";
  ORX_ENTER(ctx, call);
  ORX_CHECK_ARG(ctx, program, "%s: program is NULL", call);
  if (!orx_handle_live(program, ORX_HANDLE_PROGRAM, 0))
    return orx_fail(ctx, OCL_REDUCE_ERROR_MISUSE,
                    "%s: program is not a live program (destroyed, or not one that "
                    "ocl_reduce_program_build made)",
                    call);
  ORX_CHECK_ARG(ctx, program->ctx == ctx, "%s: program belongs to another context", call);
  ORX_CHECK_ARG(ctx, groups > 0, "%s: groups is 0", call);
  ORX_CHECK_ARG(ctx, args || nargs == 0, "%s: args is NULL with nargs %zu", call, nargs);
  orx_arg native[16];
  ORX_CHECK_ARG(ctx, nargs <= ORX_ARRAY_SIZE(native), "%s: nargs %zu exceeds 16", call, nargs);
  for (size_t i = 0; i < nargs; i++) {
    if (args[i].buffer) {
      ocl_reduce_context *owner = NULL;
      char name[32];
      snprintf(name, sizeof name, "args[%zu].buffer", i);
      ORX_FORWARD(orx_buffer_check(ctx, args[i].buffer, call, name, &owner));
      ORX_CHECK_ARG(ctx, owner == ctx,
                    "%s: args[%zu]: the buffer belongs to another context or to a group", call, i);
      native[i] = (orx_arg){ORX_ARG_MEM, args[i].buffer->mem, 0};
    } else {
      ORX_CHECK_ARG(ctx, args[i].bytes == 4 || args[i].bytes == 8,
                    "%s: args[%zu]: a value of %u bytes (4 or 8), or a buffer", call, i,
                    args[i].bytes);
      native[i] = (orx_arg){args[i].bytes == 4 ? ORX_ARG_U32 : ORX_ARG_U64, NULL, args[i].bits};
    }
  }
  orx_call_begin(ctx);
  uint64_t ns = 0;
  ORX_FORWARD(ctx->ops->launch(ctx, ctx->backend, program->program, groups,
                               program->work_group_size, native, nargs,
                               ctx->profiling ? &ns : NULL));
  if (ctx->profiling) {
    ctx->last_kernel_ns = ns;
    ctx->has_kernel_time = 1;
  }
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_program_native(const ocl_reduce_program *program,
                                            void **native_program, void **native_kernel) {
  if (!program || !native_program || !native_kernel)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT,
                    "ocl_reduce_program_native: %s is NULL",
                    !program ? "program" : !native_program ? "native_program" : "native_kernel");
  if (!orx_handle_live(program, ORX_HANDLE_PROGRAM, 0))
    return orx_fail(NULL, OCL_REDUCE_ERROR_MISUSE,
                    "ocl_reduce_program_native: program is not a live program (destroyed?)");
  program->ctx->ops->program_native(program->program, native_program, native_kernel);
  return OCL_REDUCE_OK;
}

void ocl_reduce_program_destroy(ocl_reduce_program *program) {
  /* A second destroy, or no program: harmless, nothing of it read. */
  if (!orx_handle_kill(program, ORX_HANDLE_PROGRAM, 0))
    return;
  orx_lock_take(&program->ctx->handle.lock); /* no launch of it is in flight */
  program->ctx->ops->release_program(program->program);
  orx_lock_give(&program->ctx->handle.lock);
  orx_context_release(program->ctx);
  orx_handle_free(program, ORX_HANDLE_PROGRAM);
}

ocl_reduce_status ocl_reduce_program_defines(ocl_reduce_context *ctx, unsigned work_group_size,
                                             char *text, size_t capacity) {
  static const char call[] = "ocl_reduce_program_defines";
  ORX_ENTER(ctx, call);
  ORX_CHECK_ARG(ctx, text && capacity > 0, "%s: text is NULL or capacity 0", call);
  ORX_FORWARD(check_work_group(ctx, call, work_group_size));
  int64_t defines[ORX_DEFINE_COUNT];
  orx_plan_program(&ctx->target, work_group_size, defines);
  text[0] = '\0';
  orx_defines_text(defines, 1, text, capacity);
  return OCL_REDUCE_OK;
}
