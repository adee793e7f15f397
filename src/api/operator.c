/* =================================================================================================
 * operator.c: user-defined operators (ocl_reduce_operator_create / _destroy). The descriptor is
 * checked, its names become the contract's ORX_HOST_NAMES defines ahead of its source
 * (core/user_operator.c), and a probe kernel built from both (cl/kernels/operator_probe.cl) reports
 * the sizes the device compiler gives the two types, which must be the application's.
 * ============================================================================================== */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/launch.h"
#include "core/user_operator.h"

static const char function[] = "ocl_reduce_operator_create";

static int is_ident_char(char c, int first) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (!first && c >= '0' && c <= '9');
}

/* A C identifier, or for type names (`words`) identifiers separated by single spaces ("struct
 * point", "unsigned int"); not the library's orx_ / ORX_ names. */
static int is_name(const char *name, int words) {
  const size_t n = strlen(name);
  if (n == 0 || n > ORX_NAME_MAX || strncmp(name, "orx_", 4) == 0 || strncmp(name, "ORX_", 4) == 0)
    return 0;
  int first = 1;
  for (size_t i = 0; i < n; i++) {
    if (words && name[i] == ' ' && !first && i + 1 < n) {
      first = 1;
      continue;
    }
    if (!is_ident_char(name[i], first))
      return 0;
    first = 0;
  }
  return 1;
}

/* Whether `word` occurs in text as a whole identifier. */
static int mentions(const char *text, const char *word) {
  const size_t n = strlen(word);
  for (const char *at = strstr(text, word); at; at = strstr(at + 1, word)) {
    const int starts = at == text || !is_ident_char(at[-1], 0);
    if (starts && !is_ident_char(at[n], 0))
      return 1;
  }
  return 0;
}

/* The descriptor's fields, in the order of ORX_HOST_NAMES. */
typedef struct named_field {
  const char *field; /* "element_type" */
  const char *value;
  int is_type;
} named_field;

static ocl_reduce_status check_desc(ocl_reduce_context *ctx, const ocl_reduce_operator_desc *d,
                                    const named_field *names, size_t count) {
  ORX_CHECK_ARG(ctx, d->source && d->source[0], "%s: desc->source is %s", function,
                d->source ? "empty" : "NULL");
  for (size_t i = 0; i < count; i++) {
    ORX_CHECK_ARG(ctx, names[i].value, "%s: desc->%s is NULL", function, names[i].field);
    ORX_CHECK_ARG(ctx, is_name(names[i].value, names[i].is_type),
                  "%s: desc->%s (\"%.80s\") is not %s of at most %d characters outside the "
                  "library's orx_/ORX_ names",
                  function, names[i].field, names[i].value,
                  names[i].is_type ? "a type name" : "a C identifier", ORX_NAME_MAX);
    /* Types may be OpenCL's own (float); functions must be the source's. */
    ORX_CHECK_ARG(ctx, names[i].is_type || mentions(d->source, names[i].value),
                  "%s: desc->%s names \"%s\", which desc->source does not contain", function,
                  names[i].field, names[i].value);
  }
  ORX_CHECK_ARG(ctx, d->element_size >= 1 && d->element_size <= ORX_STATE_MAX_BYTES,
                "%s: desc->element_size is %zu, not 1 .. %d", function, d->element_size,
                ORX_STATE_MAX_BYTES);
  ORX_CHECK_ARG(ctx, d->state_size >= 1 && d->state_size <= ORX_STATE_MAX_BYTES,
                "%s: desc->state_size is %zu, not 1 .. %d", function, d->state_size,
                ORX_STATE_MAX_BYTES);
  return OCL_REDUCE_OK;
}

/* Builds the probe (the build log on failure) and compares its sizes with the descriptor's. */
static ocl_reduce_status probe(ocl_reduce_context *ctx, const ocl_reduce_operator_desc *d,
                               const ocl_reduce_operator *op) {
  orx_request request = orx_custom_request(&op->op);
  request.entry = ORX_ENTRY_PROBE;
  orx_prepared k;
  ORX_FORWARD(orx_prepare(ctx, &request, &k));
  const orx_arg args[] = {
      {ORX_ARG_MEM, ctx->scratch[ORX_SCRATCH_RESULTS].mem, 0},
      {ORX_ARG_MEM, ctx->scratch[ORX_SCRATCH_PARTIALS].mem, 0},
      {ORX_ARG_U32, NULL, 0},
  };
  ORX_FORWARD(orx_launch(ctx, &k, 1, args, ORX_ARRAY_SIZE(args)));
  uint64_t sizes[2];
  ORX_FORWARD(orx_read_results(ctx, sizes, sizeof sizes));
  if (sizes[0] != op->op.element_bytes || sizes[1] != op->op.state_bytes)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OPERATOR_SIZE,
                    "%s: the device compiler's sizeof(%s) is %llu and sizeof(%s) is %llu, but "
                    "desc->element_size is %u and desc->state_size is %u (a layout that differs "
                    "between host and device: vector types, packing, or a different type)",
                    function, d->element_type, (unsigned long long)sizes[0], d->state_type,
                    (unsigned long long)sizes[1], op->op.element_bytes, op->op.state_bytes);
  return OCL_REDUCE_OK;
}

ocl_reduce_status ocl_reduce_operator_create(ocl_reduce_context *ctx,
                                             const ocl_reduce_operator_desc *desc,
                                             ocl_reduce_operator **out) {
  if (!ctx)
    return orx_fail(NULL, OCL_REDUCE_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", function);
  ORX_CHECK_ARG(ctx, out, "%s: out is NULL", function);
  ORX_CHECK_ARG(ctx, desc, "%s: desc is NULL", function);
  ORX_CHECK_ARG(ctx, desc->struct_size >= sizeof *desc,
                "%s: desc->struct_size is %zu, less than sizeof(ocl_reduce_operator_desc) (%zu)",
                function, desc->struct_size, sizeof *desc);
  const named_field names[] = {
      {"element_type", desc->element_type, 1}, {"state_type", desc->state_type, 1},
      {"identity", desc->identity, 0},         {"map", desc->map, 0},
      {"combine", desc->combine, 0},
  };
  ORX_FORWARD(check_desc(ctx, desc, names, ORX_ARRAY_SIZE(names)));
  ocl_reduce_operator *op = calloc(1, sizeof *op);
  if (!op)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  op->ctx = ctx;
  orx_context_retain(ctx);
  ocl_reduce_status status = orx_operator_of_desc(ctx, desc, &op->op, &op->text);
  if (status == OCL_REDUCE_OK)
    status = probe(ctx, desc, op);
  if (status != OCL_REDUCE_OK) {
    ocl_reduce_operator_destroy(op);
    return status;
  }
  *out = op;
  return OCL_REDUCE_OK;
}

void ocl_reduce_operator_destroy(ocl_reduce_operator *op) {
  if (!op)
    return;
  free(op->text);
  orx_context_release(op->ctx);
  free(op);
}

size_t ocl_reduce_operator_state_size(const ocl_reduce_operator *op) {
  return op ? op->op.state_bytes : 0;
}
