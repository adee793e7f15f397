/* =================================================================================================
 * user_operator.c: a user operator's text and identity for the planner (user_operator.h).
 * ============================================================================================== */
#include "core/user_operator.h"

#include <stdlib.h>
#include <string.h>

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

ocl_reduce_status orx_operator_of_desc(ocl_reduce_context *ctx, const ocl_reduce_operator_desc *d,
                                       orx_operator *op, char **text) {
  /* The descriptor's names in the order of ORX_HOST_NAMES. */
  static const char *const defines[] = {
#define ORX_NAME_DEFINE(c, NAME) "ORX_" #NAME,
      ORX_HOST_NAMES(ORX_NAME_DEFINE, )
#undef ORX_NAME_DEFINE
  };
  const char *const names[] = {d->element_type, d->state_type, d->identity, d->map, d->combine};
  _Static_assert(ORX_ARRAY_SIZE(defines) == ORX_ARRAY_SIZE(names), "a name per host name");
  const size_t source_length = strlen(d->source);
  const size_t size = ORX_ARRAY_SIZE(names) * (ORX_NAME_MAX + 32) + source_length + 1;
  char *t = malloc(size);
  if (!t)
    return orx_fail(ctx, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  t[0] = '\0';
  for (size_t i = 0; i < ORX_ARRAY_SIZE(names); i++)
    orx_append(t, size, "#define %s %s\n", defines[i], names[i]);
  const size_t names_length = strlen(t);
  memcpy(t + names_length + 1, d->source, source_length + 1);
  memset(op, 0, sizeof *op);
  op->id = ORX_OP_CUSTOM;
  op->names = t;
  op->source = t + names_length + 1;
  /* Programs are cached under this hash with the plan: equal operators share programs. A 64-bit
   * hash, not the text, so two different operators of one context collide with probability
   * about 2^-64 per pair. */
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
