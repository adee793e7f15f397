/* =================================================================================================
 * operator.c: operators as values: user-defined operators (ocl_reduce_operator_create / _destroy),
 * made from a checked descriptor alone (exec/user_operator.c makes them ready on each context at
 * first use), and the names and result sizes of every operator.
 * ============================================================================================== */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/digest.h"
#include "base/handles.h"
#include "base/ids.h"
#include "exec/io.h"
#include "exec/user_operator.h"

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

static ocl_reduce_status check_desc(const ocl_reduce_operator_desc *d, const named_field *names,
                                    size_t count) {
  ORX_CHECK_ARG(NULL, d->source && d->source[0], "%s: desc->source is %s", function,
                d->source ? "empty" : "NULL");
  for (size_t i = 0; i < count; i++) {
    ORX_CHECK_ARG(NULL, names[i].value, "%s: desc->%s is NULL", function, names[i].field);
    ORX_CHECK_ARG(NULL, is_name(names[i].value, names[i].is_type),
                  "%s: desc->%s (\"%.80s\") is not %s of at most %d characters outside the "
                  "library's orx_/ORX_ names",
                  function, names[i].field, names[i].value,
                  names[i].is_type ? "a type name" : "a C identifier", ORX_NAME_MAX);
    /* Types may be OpenCL's own (float); functions must be the source's. */
    ORX_CHECK_ARG(NULL, names[i].is_type || mentions(d->source, names[i].value),
                  "%s: desc->%s names \"%s\", which desc->source does not contain", function,
                  names[i].field, names[i].value);
  }
  ORX_CHECK_ARG(NULL, d->element_size >= 1 && d->element_size <= ORX_STATE_MAX_BYTES,
                "%s: desc->element_size is %zu, not 1 .. %d", function, d->element_size,
                ORX_STATE_MAX_BYTES);
  ORX_CHECK_ARG(NULL, d->state_size >= 1 && d->state_size <= ORX_STATE_MAX_BYTES,
                "%s: desc->state_size is %zu, not 1 .. %d", function, d->state_size,
                ORX_STATE_MAX_BYTES);
  return OCL_REDUCE_OK;
}

/* The descriptor's size before pair_map was appended (0.2): such a struct has none. */
#define FIRST_DESC_SIZE offsetof(ocl_reduce_operator_desc, pair_map)

ocl_reduce_status ocl_reduce_operator_create(const ocl_reduce_operator_desc *given,
                                             ocl_reduce_operator **out) {
  ORX_CHECK_ARG(NULL, out, "%s: out is NULL", function);
  ORX_CHECK_ARG(NULL, given, "%s: desc is NULL", function);
  ORX_CHECK_ARG(NULL,
                given->struct_size >= FIRST_DESC_SIZE &&
                    given->struct_size <= OCL_REDUCE_STRUCT_SIZE_MAX,
                "%s: desc->struct_size is %zu, not sizeof(ocl_reduce_operator_desc) (%zu): start "
                "from OCL_REDUCE_OPERATOR_DESC_INIT",
                function, given->struct_size, sizeof *given);
  /* The fields the caller's struct has; later ones NULL. */
  ocl_reduce_operator_desc d;
  memset(&d, 0, sizeof d);
  memcpy(&d, given, given->struct_size < sizeof d ? given->struct_size : sizeof d);
  const ocl_reduce_operator_desc *desc = &d;
  ORX_CHECK_ARG(NULL, !desc->map || !desc->pair_map,
                "%s: desc->map (\"%.80s\") and desc->pair_map (\"%.80s\") are both set: an "
                "operator maps single elements (map: ocl_reduce and the other one-input calls) "
                "or pairs of elements (pair_map: ocl_reduce_pairs and "
                "ocl_reduce_pairs_segments), and leaves the other NULL",
                function, desc->map, desc->pair_map);
  const int pairs = desc->pair_map != NULL;
  const named_field names[] = {
      {"element_type", desc->element_type, 1},
      {"state_type", desc->state_type, 1},
      {"identity", desc->identity, 0},
      {pairs ? "pair_map" : "map", pairs ? desc->pair_map : desc->map, 0},
      {"combine", desc->combine, 0},
  };
  ORX_FORWARD(check_desc(desc, names, ORX_ARRAY_SIZE(names)));
  ORX_CHECK_ARG(NULL, !desc->name || is_name(desc->name, 0),
                "%s: desc->name (\"%.80s\") is not a C identifier of at most %d characters",
                function, desc->name, ORX_NAME_MAX);
  ocl_reduce_operator *op = orx_handle_new(ORX_HANDLE_OPERATOR, sizeof *op);
  if (!op)
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", function);
  const ocl_reduce_status status = orx_operator_of_desc(desc, &op->op, &op->text);
  if (status != OCL_REDUCE_OK) {
    orx_handle_free(op, ORX_HANDLE_OPERATOR);
    return status;
  }
  snprintf(op->name, sizeof op->name, "%s", desc->name ? desc->name : desc->combine);
  snprintf(op->element_type, sizeof op->element_type, "%s", desc->element_type);
  snprintf(op->state_type, sizeof op->state_type, "%s", desc->state_type);
  snprintf(op->roles, sizeof op->roles, "identity %s, %s %s, combine %s", desc->identity,
           names[3].field, names[3].value, desc->combine);
  op->pairs = pairs;
  *out = op;
  return OCL_REDUCE_OK;
}

void ocl_reduce_operator_destroy(ocl_reduce_operator *op) {
  /* A second destroy, or a built-in operator: harmless, nothing of it read but its state. */
  if (!orx_is_user_operator(op) || !orx_handle_kill(op, ORX_HANDLE_OPERATOR, 0))
    return;
  free(op->text);
  orx_handle_free(op, ORX_HANDLE_OPERATOR);
}

ocl_reduce_status ocl_reduce_operator_digest(ocl_reduce_op op, unsigned char digest[32]) {
  static const char fn[] = "ocl_reduce_operator_digest";
  orx_call_named(fn);
  ORX_CHECK_ARG(NULL, op, "%s: op is NULL", fn);
  ORX_CHECK_ARG(NULL, digest, "%s: digest is NULL", fn);
  const orx_pair_id pair = orx_pair_builtin_id(op);
  /* Built-ins by their public index: pair operators follow the single-input ones. */
  const int32_t id = pair >= 0 ? ORX_OP_COUNT + pair : orx_builtin_id(op);
  if (id < 0 && !orx_is_user_operator(op))
    return orx_fail(NULL, OCL_REDUCE_ERROR_MISUSE,
                    "%s: op is neither a built-in operator nor a live user operator", fn);
  const char *why = NULL;
  if (!orx_digest_ready(&why))
    return orx_fail(NULL, OCL_REDUCE_ERROR_BACKEND_UNAVAILABLE, "%s: %s", fn, why);
  orx_digest_stream *stream = orx_digest_begin();
  orx_digest_feed(stream, &id, sizeof id);
  if (id < 0) { /* the texts with their ends, then the sizes and the order the kernels keep */
    const orx_operator *o = &op->op;
    const uint32_t facts[3] = {o->element_bytes, o->state_bytes, (uint32_t)o->ordered};
    orx_digest_feed(stream, o->names, strlen(o->names) + 1);
    orx_digest_feed(stream, o->source, strlen(o->source) + 1);
    orx_digest_feed(stream, facts, sizeof facts);
  }
  orx_digest d;
  if (!orx_digest_end(stream, &d))
    return orx_fail(NULL, OCL_REDUCE_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
  memcpy(digest, d.bytes, sizeof d.bytes);
  return OCL_REDUCE_OK;
}

const char *ocl_reduce_op_name(ocl_reduce_op op) {
  const orx_op_id id = orx_builtin_id(op);
  if (id >= 0)
    return orx_op_name(id);
  if (orx_pair_builtin_id(op) >= 0)
    return orx_pair_name(orx_pair_builtin_id(op));
  return orx_is_user_operator(op) ? op->name : "unknown";
}

size_t ocl_reduce_result_size(ocl_reduce_op op, ocl_reduce_type type) {
  const orx_op_id id = orx_builtin_id(op);
  if (id >= 0)
    return orx_type_valid(type) && !orx_op_type_refusal(id, type)
               ? orx_state_facts_of(id, type).result_bytes
               : 0;
  const orx_pair_id pair = orx_pair_builtin_id(op);
  if (pair >= 0)
    return orx_type_valid(type) ? orx_type_size(orx_pair_value_type(pair, type)) : 0;
  if (!orx_is_user_operator(op))
    return 0;
  const int takes = type == OCL_REDUCE_OP_ELEMENT || (int)type == op->op.element_type;
  return takes ? op->op.state_bytes : 0;
}
