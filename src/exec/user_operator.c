/* =================================================================================================
 * user_operator.c: a user operator's text and identity for the planner (user_operator.h).
 * ============================================================================================== */
#include "exec/user_operator.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/context.h"
#include "exec/launch.h"
#include "exec/operator_macros.h"

/* Elements named as one of the library's scalar types load as vectors of it (the kernels' value
 * type is then that type, which the map takes under the same name); others are ORX_CUSTOM. */
static int element_type_of(const ocl_reduce_operator_desc *d) {
  static const char *const cl_names[] = {[ORX_I32] = "int",   [ORX_U32] = "uint",
                                         [ORX_I64] = "long",  [ORX_U64] = "ulong",
                                         [ORX_F32] = "float", [ORX_F64] = "double"};
  for (int t = 0; t < (int)ORX_ARRAY_SIZE(cl_names); t++)
    if (strcmp(d->element_type, cl_names[t]) == 0 &&
        d->element_size == orx_type_size((ocl_reduce_type)t))
      return t;
  return ORX_CUSTOM;
}

ocl_reduce_status orx_operator_of_desc(const ocl_reduce_operator_desc *d, orx_operator *op,
                                       char **text) {
  /* The descriptor's names in the order of ORX_HOST_NAMES. */
  static const char *const defines[] = {
#define ORX_NAME_DEFINE(c, NAME) "ORX_" #NAME,
      ORX_HOST_NAMES(ORX_NAME_DEFINE, )
#undef ORX_NAME_DEFINE
  };
  /* A pair operator has no map, any other no pair_map: the block defines the names it has, so
   * that a one-input operator's text (its programs' keys and its digest) is what it was. */
  const char *const names[] = {d->element_type, d->state_type, d->identity,
                               d->map,          d->combine,    d->pair_map};
  _Static_assert(ORX_ARRAY_SIZE(defines) == ORX_ARRAY_SIZE(names), "a name per host name");
  char *trailer = NULL; /* the #undef lines that end the source's macros */
  ORX_FORWARD(orx_operator_macros("ocl_reduce_operator_create", d->source, &trailer));
  const size_t trailer_length = strlen(trailer);
  const size_t user_length = strlen(d->source), source_length = user_length + 1 + trailer_length;
  const size_t size = ORX_ARRAY_SIZE(names) * (ORX_NAME_MAX + 32) + source_length + 1;
  char *t = orx_malloc(size);
  if (!t) {
    free(trailer);
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  }
  t[0] = '\0';
  for (size_t i = 0; i < ORX_ARRAY_SIZE(names); i++)
    if (names[i])
      orx_append(t, size, "#define %s %s\n", defines[i], names[i]);
  const size_t names_length = strlen(t);
  char *source = t + names_length + 1;
  memcpy(source, d->source, user_length);
  source[user_length] = '\n'; /* a last line without one still ends before the #undefs */
  memcpy(source + user_length + 1, trailer, trailer_length + 1);
  free(trailer);
  memset(op, 0, sizeof *op);
  op->id = ORX_OP_CUSTOM;
  op->names = t;
  op->source = t + names_length + 1;
  /* A quick reject before the texts are compared (program.c, probed below): equal operators
   * share programs, and only equal texts are equal operators. */
  op->source_hash =
      orx_hash(orx_hash(ORX_HASH_SEED, op->names, names_length), op->source, source_length);
  op->element_bytes = (unsigned)d->element_size;
  op->element_type = element_type_of(d);
  op->ordered = !d->commutative;
  op->state_bytes = (unsigned)d->state_size;
  op->result_bytes = (unsigned)d->state_size;
  *text = t;
  return OCL_REDUCE_OK;
}

int orx_is_user_operator(ocl_reduce_op op) {
  /* Built-in values, small integers and misaligned values are no operators' addresses (which
   * malloc gave): only a plausible address has its state read. */
  const uintptr_t address = (uintptr_t)op;
  return address > 4096 && address % _Alignof(max_align_t) == 0 &&
         orx_handle_live(op, ORX_HANDLE_OPERATOR, 0);
}

/* An operator's whole text as the context keeps it: the names' block, a NUL, the source. */
static size_t text_bytes(const orx_operator *op) {
  return strlen(op->names) + 1 + strlen(op->source) + 1;
}

/* Whether ctx has probed an operator of this text. */
static int probed(const ocl_reduce_context *ctx, const orx_operator *op) {
  const size_t names = strlen(op->names) + 1;
  for (size_t i = 0; i < ctx->probed_count; i++)
    if (ctx->probed[i].hash == op->source_hash && strcmp(ctx->probed[i].text, op->names) == 0 &&
        strcmp(ctx->probed[i].text + names, op->source) == 0)
      return 1;
  return 0;
}

static ocl_reduce_status remember(ocl_reduce_context *ctx, const orx_operator *op) {
  if (ctx->probed_count == ctx->probed_capacity) {
    const size_t capacity = ctx->probed_capacity ? 2 * ctx->probed_capacity : 8;
    orx_probed *grown = orx_realloc(ctx->probed, capacity * sizeof *grown);
    if (!grown)
      return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    ctx->probed = grown;
    ctx->probed_capacity = capacity;
  }
  const size_t names = strlen(op->names) + 1;
  char *text = orx_malloc(text_bytes(op));
  if (!text)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  memcpy(text, op->names, names);
  memcpy(text + names, op->source, strlen(op->source) + 1);
  ctx->probed[ctx->probed_count++] = (orx_probed){op->source_hash, text};
  return OCL_REDUCE_OK;
}

ocl_reduce_status orx_user_operator_ready(ocl_reduce_context *ctx, const char *function,
                                          const ocl_reduce_operator *op) {
  /* The size check is a property of the text on this device: equal operators share it. */
  if (probed(ctx, &op->op))
    return OCL_REDUCE_OK;
  orx_request request = orx_custom_request(&op->op);
  request.entry = ORX_ENTRY_PROBE;
  orx_prepared k;
  const ocl_reduce_status built = orx_prepare(ctx, &request, &k);
  if (built != OCL_REDUCE_OK && built != OCL_REDUCE_ERROR_BUILD)
    return built; /* out of memory, a device lost: its own message, not the text's fault */
  if (built != OCL_REDUCE_OK) {
    /* The build's message names the call already: its text follows once. */
    char detail[ORX_ERROR_CAPACITY];
    const char *text = orx_error_text(ctx);
    const size_t named = strlen(function);
    if (strncmp(text, function, named) == 0 && strncmp(text + named, ": ", 2) == 0)
      text += named + 2;
    snprintf(detail, sizeof detail, "%s", text);
    return orx_fail(ctx, built,
                    "%s: the user operator '%s' (%s) does not compile on device '%s' (for a "
                    "function whose signature does not fit, the compiler's messages name its role "
                    "and the signature it needs): %s",
                    function, op->name, op->roles, ctx->caps.device_name, detail);
  }
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
                    "%s: the user operator '%s': the device compiler's sizeof(%s) is %llu and "
                    "sizeof(%s) is %llu, but desc->element_size is %u and desc->state_size is %u "
                    "(a layout that differs between host and device: vector types, packing, or a "
                    "different type)",
                    function, op->name, op->element_type, (unsigned long long)sizes[0],
                    op->state_type, (unsigned long long)sizes[1], op->op.element_bytes,
                    op->op.state_bytes);
  return remember(ctx, &op->op);
}

void orx_user_operators_forget(ocl_reduce_context *ctx) {
  for (size_t i = 0; i < ctx->probed_count; i++)
    free(ctx->probed[i].text);
  free(ctx->probed);
  ctx->probed = NULL;
  ctx->probed_count = ctx->probed_capacity = 0;
}
