/* =================================================================================================
 * ids.c: facts and names of the ids the host shares with the kernels, all expanded from the
 * contract's lists (cl/orx_contract.h), and the compile-time check that the public enums carry
 * the contract's numbers.
 * ============================================================================================== */
#include "base/ids.h"

#include <string.h>

#include "base/util.h"

/* ---- The public enums are the contract's numbers ------------------------------------------- */

#define ORX_SAME_TYPE(c, ID, ...)                                                                  \
  _Static_assert((int)OCL_REDUCE_##ID == ORX_##ID,                                                 \
                 "ocl_reduce_type " #ID " differs from the contract");
ORX_TYPES(ORX_SAME_TYPE, )
/* The public operator constants are OCL_REDUCE_BUILTIN_OP(id), pointers: read here as their ids,
 * which constant expressions can compare. */
#undef OCL_REDUCE_BUILTIN_OP
#define OCL_REDUCE_BUILTIN_OP(i) (i)
#define ORX_SAME_OP(c, ID, ...)                                                                    \
  _Static_assert(OCL_REDUCE_##ID == ORX_OP_##ID, "OCL_REDUCE_" #ID " differs from the contract");
ORX_OPERATORS(ORX_SAME_OP, )
#define ORX_SAME_PAIR(c, ID, ...)                                                                  \
  _Static_assert(OCL_REDUCE_##ID == OCL_REDUCE_BUILTIN_OPS + ORX_PAIR_##ID,                        \
                 "OCL_REDUCE_" #ID " differs from the contract");
ORX_PAIR_OPERATORS(ORX_SAME_PAIR, )
#undef OCL_REDUCE_BUILTIN_OP
#define OCL_REDUCE_BUILTIN_OP(i) ((ocl_reduce_op)(uintptr_t)((i) + 1))
#define ORX_SAME_IMPL(c, ID, ...)                                                                  \
  _Static_assert((int)OCL_REDUCE_SUBGROUP_##ID == ORX_SG_##ID,                                     \
                 "ocl_reduce_subgroup_impl " #ID " differs from the contract");
ORX_SUBGROUP_IMPLS(ORX_SAME_IMPL, )
_Static_assert((int)OCL_REDUCE_OP_ELEMENT == ORX_CUSTOM, "a user operator's element type");
/* Each row's id is its position in its list: the build numbers what it generates per operator
 * and type by position (cmake/contract.cmake). */
#define ORX_POSITION_TYPE(c, ID, ...) ORX_POSITION_OF_##ID,
enum { ORX_TYPES(ORX_POSITION_TYPE, ) };
#define ORX_SAME_POSITION_TYPE(c, ID, ...)                                                         \
  _Static_assert(ORX_##ID == ORX_POSITION_OF_##ID, "ORX_" #ID " is not its row's position");
ORX_TYPES(ORX_SAME_POSITION_TYPE, )
#define ORX_POSITION_OP(c, ID, ...) ORX_POSITION_OF_OP_##ID,
enum { ORX_OPERATORS(ORX_POSITION_OP, ) };
#define ORX_SAME_POSITION_OP(c, ID, ...)                                                           \
  _Static_assert(ORX_OP_##ID == ORX_POSITION_OF_OP_##ID, "ORX_OP_" #ID " is not its row's position");
ORX_OPERATORS(ORX_SAME_POSITION_OP, )
#define ORX_COUNT(c, ...) +1
_Static_assert(OCL_REDUCE_TYPE_COUNT == 0 ORX_TYPES(ORX_COUNT, ), "type count");
_Static_assert(ORX_OP_COUNT == 0 ORX_OPERATORS(ORX_COUNT, ), "operator count");
_Static_assert(ORX_PAIR_COUNT == 0 ORX_PAIR_OPERATORS(ORX_COUNT, ), "pair operator count");
#define ORX_POSITION_PAIR(c, ID, ...) ORX_POSITION_OF_PAIR_##ID,
enum { ORX_PAIR_OPERATORS(ORX_POSITION_PAIR, ) };
#define ORX_SAME_POSITION_PAIR(c, ID, ...)                                                         \
  _Static_assert(ORX_PAIR_##ID == ORX_POSITION_OF_PAIR_##ID, "ORX_PAIR_" #ID " is not its position");
ORX_PAIR_OPERATORS(ORX_SAME_POSITION_PAIR, )

/* ---- Types and operators ----------------------------------------------------------------- */

#define ORX_TYPE_NAME(c, ID, name, ...) [ORX_##ID] = name,
static const char *const type_names[] = {ORX_TYPES(ORX_TYPE_NAME, )};
#define ORX_OP_NAME(c, ID, name, ...) [ORX_OP_##ID] = name,
static const char *const op_names[] = {ORX_OPERATORS(ORX_OP_NAME, )};

/* Compared as unsigned, so negative values are rejected as well. */
int orx_type_valid(ocl_reduce_type type) { return (unsigned)type < OCL_REDUCE_TYPE_COUNT; }

int orx_op_valid(orx_op_id op) { return (unsigned)op < ORX_OP_COUNT; }

orx_op_id orx_builtin_id(ocl_reduce_op op) {
  const uintptr_t value = (uintptr_t)op;
  return value >= 1 && value <= ORX_OP_COUNT ? (orx_op_id)(value - 1) : -1;
}

orx_pair_id orx_pair_builtin_id(ocl_reduce_op op) {
  const uintptr_t value = (uintptr_t)op;
  return value > ORX_OP_COUNT && value <= ORX_OP_COUNT + ORX_PAIR_COUNT
             ? (orx_pair_id)(value - 1 - ORX_OP_COUNT)
             : -1;
}

#define ORX_PAIR_NAME(c, ID, name, ...) [ORX_PAIR_##ID] = name,
static const char *const pair_names[] = {ORX_PAIR_OPERATORS(ORX_PAIR_NAME, )};

const char *orx_pair_name(orx_pair_id pair) {
  return (unsigned)pair < ORX_PAIR_COUNT ? pair_names[pair] : "unknown";
}

ocl_reduce_type orx_pair_value_type(orx_pair_id pair, ocl_reduce_type type) {
#define ORX_PAIR_COUNTS(c, ID, name, counts) case ORX_PAIR_##ID: if (counts) return OCL_REDUCE_U64; break;
  switch (pair) { ORX_PAIR_OPERATORS(ORX_PAIR_COUNTS, ) default: break; }
#undef ORX_PAIR_COUNTS
  return orx_type_is_narrow(type) ? OCL_REDUCE_F32 : type;
}

int orx_type_is_float(ocl_reduce_type type) {
  return orx_type_valid(type) && ORX_TYPE_IS_FLOAT_OF(type);
}

unsigned orx_op_flags(orx_op_id op) { return orx_op_valid(op) ? (unsigned)ORX_OP_FLAGS_OF(op) : 0; }

size_t orx_type_size(ocl_reduce_type type) {
  return orx_type_valid(type) ? (size_t)ORX_TYPE_BYTES_OF(type) : 0;
}

const char *orx_type_name(ocl_reduce_type type) {
  return orx_type_valid(type) ? type_names[type] : "unknown";
}

const char *orx_op_name(orx_op_id op) { return orx_op_valid(op) ? op_names[op] : "unknown"; }

uint64_t orx_identity_bits(orx_op_id op, ocl_reduce_type type) {
  return (uint64_t)ORX_IDENTITY_BITS_OF(op, type);
}

int orx_type_is_narrow(ocl_reduce_type type) {
  return type == OCL_REDUCE_F16 || type == OCL_REDUCE_BF16;
}

int orx_result_is_element(orx_op_id op) {
  return op == ORX_OP_MIN || op == ORX_OP_MAX || op == ORX_OP_ARGMIN || op == ORX_OP_ARGMAX ||
         op == ORX_OP_MINMAX;
}

/* MIN and MAX of 16-bit elements return one of them; their other results are f32's (ARGMIN,
 * ARGMAX and MINMAX hold elements in results of their own size). */
static int narrow_result(orx_op_id op, ocl_reduce_type type) {
  return orx_type_is_narrow(type) && (op == ORX_OP_MIN || op == ORX_OP_MAX);
}

void orx_write_identity(orx_op_id op, ocl_reduce_type type, void *result) {
  if (orx_type_is_narrow(type) && !narrow_result(op, type))
    type = OCL_REDUCE_F32;
  const uint64_t bits = orx_identity_bits(op, type);
  if (orx_type_size(type) == 2) {
    const uint16_t half = (uint16_t)bits;
    memcpy(result, &half, 2);
  } else if (orx_type_size(type) == 4) {
    const uint32_t narrow = (uint32_t)bits;
    memcpy(result, &narrow, 4);
  } else {
    memcpy(result, &bits, 8);
  }
}

orx_state_facts orx_state_facts_of(orx_op_id op, ocl_reduce_type type) {
  if (orx_type_is_narrow(type)) { /* states of the f32 kernel the elements are read into */
    orx_state_facts f = orx_state_facts_of(op, OCL_REDUCE_F32);
    if (op == ORX_OP_MIN || op == ORX_OP_MAX || op == ORX_OP_MINMAX)
      f.result_bytes = op == ORX_OP_MINMAX ? 4 : 2; /* elements; ARGMIN's is ocl_reduce_arg */
    return f;
  }
  const unsigned size = (unsigned)orx_type_size(type);
  /* Each as lib/orx_state_ops.cl lays its state out (tests/test_operators.c checks them against
   * the device compiler's sizeof). */
  switch (op) {
  case ORX_OP_ARGMIN:
  case ORX_OP_ARGMAX: /* ocl_reduce_arg */
    return (orx_state_facts){16, 8, 16, type == OCL_REDUCE_F64};
  case ORX_OP_MINMAX: return (orx_state_facts){2 * size, size, 2 * size, type == OCL_REDUCE_F64};
  case ORX_OP_SUM_WIDE: return (orx_state_facts){8, 8, 8, type == OCL_REDUCE_F32};
  case ORX_OP_SUM_COMPENSATED: /* {sum, error}, the result their sum */
    return (orx_state_facts){2 * size, size, size, type == OCL_REDUCE_F64};
  case ORX_OP_MEAN_VAR: /* ocl_reduce_moments */ return (orx_state_facts){24, 8, 24, 1};
  case ORX_OP_SUM_REPRODUCIBLE: /* {bin, flags, 4 folds of 64 bits}, the result a float */
    return (orx_state_facts){40, 8, size, type == OCL_REDUCE_F64};
  default:
    return (orx_state_facts){size, size, size, type == OCL_REDUCE_F64};
  }
}

const char *orx_op_type_refusal(orx_op_id op, ocl_reduce_type type) {
  const unsigned flags = orx_op_flags(op);
  if ((flags & ORX_OPF_INTEGER_ONLY) && orx_type_is_float(type))
    return "integer types only";
  if ((flags & ORX_OPF_FLOAT_ONLY) && !orx_type_is_float(type))
    return "float types only";
  if ((flags & ORX_OPF_NARROW_ONLY) && orx_type_size(type) != 4 && !orx_type_is_narrow(type))
    return "32-bit types only (i32, u32, f32) and 16-bit floats";
  return NULL;
}

ocl_reduce_type orx_compute_type(orx_op_id op, ocl_reduce_type type) {
  if (orx_type_is_narrow(type))
    return OCL_REDUCE_F32; /* read into f32 kernels (lib/orx_types.cl) */
  if (!(orx_op_flags(op) & ORX_OPF_UNSIGNED))
    return type;
  if (type == OCL_REDUCE_I32)
    return OCL_REDUCE_U32;
  if (type == OCL_REDUCE_I64)
    return OCL_REDUCE_U64;
  return type;
}

/* ---- Paths, subgroup implementations, streams, loads --------------------------------------- */

const char *orx_path_name(ocl_reduce_path path) {
  switch (path) {
  case OCL_REDUCE_PATH_SUBGROUP:
    return "subgroup";
  case OCL_REDUCE_PATH_LOCAL:
    return "local";
  case OCL_REDUCE_PATH_AUTO:
    return "auto";
  default:
    return "default";
  }
}

#define ORX_IMPL_NAME(c, ID, name, ...) [ORX_SG_##ID] = name,
static const char *const impl_names[] = {[OCL_REDUCE_SUBGROUP_DEFAULT] = "default",
                                         [OCL_REDUCE_SUBGROUP_AUTO] = "auto",
                                         ORX_SUBGROUP_IMPLS(ORX_IMPL_NAME, )};

const char *orx_subgroup_impl_name(ocl_reduce_subgroup_impl impl) {
  return (unsigned)impl < ORX_ARRAY_SIZE(impl_names) ? impl_names[impl] : "default";
}

int orx_subgroup_impl_warps(ocl_reduce_subgroup_impl impl) {
#define ORX_IMPL_WARPS(c, ID, name, warps, shuffles) case ORX_SG_##ID: return warps;
  switch ((int)impl) { ORX_SUBGROUP_IMPLS(ORX_IMPL_WARPS, ) }
#undef ORX_IMPL_WARPS
  return 0;
}

int orx_subgroup_impl_shuffles(ocl_reduce_subgroup_impl impl) {
#define ORX_IMPL_SHUFFLES(c, ID, name, warps, shuffles) case ORX_SG_##ID: return shuffles;
  switch ((int)impl) { ORX_SUBGROUP_IMPLS(ORX_IMPL_SHUFFLES, ) }
#undef ORX_IMPL_SHUFFLES
  return 0;
}

/* The id whose name is `name` (any case) in a table of names, or -1. */
static int named(const char *const *names, size_t count, const char *name) {
  for (size_t i = 0; i < count; i++)
    if (names[i] && strlen(names[i]) == strlen(name) && orx_strcasestr(names[i], name))
      return (int)i;
  return -1;
}

/* What a caller may name: not DEFAULT (unnamed), not NONE (only ever reported). */
static int impl_nameable(int id) {
  return id != OCL_REDUCE_SUBGROUP_DEFAULT && id != OCL_REDUCE_SUBGROUP_NONE;
}

int orx_subgroup_impl_named(const char *name, ocl_reduce_subgroup_impl *impl) {
  const int id = named(impl_names, ORX_ARRAY_SIZE(impl_names), name);
  if (id < 0 || !impl_nameable(id))
    return 0;
  *impl = (ocl_reduce_subgroup_impl)id;
  return 1;
}

void orx_subgroup_impl_choices(char *text, size_t size) {
  text[0] = '\0';
  for (size_t i = 0; i < ORX_ARRAY_SIZE(impl_names); i++)
    if (impl_nameable((int)i))
      orx_append(text, size, "%s%s", text[0] ? ", " : "", impl_names[i]);
}

#define ORX_STREAM_NAME(c, ID, name) [ORX_STREAM_##ID] = name,
static const char *const stream_names[] = {ORX_STREAMS(ORX_STREAM_NAME, )};

const char *orx_stream_name(int stream) {
  return (unsigned)stream < ORX_ARRAY_SIZE(stream_names) ? stream_names[stream] : "unknown";
}

int orx_stream_named(const char *name, int *stream) {
  const int id = named(stream_names, ORX_ARRAY_SIZE(stream_names), name);
  if (id >= 0)
    *stream = id;
  return id >= 0;
}

#define ORX_LOAD_NAME(c, ID, name) [ORX_SEG_##ID] = name,
static const char *const load_names[] = {ORX_SEG_LOADS(ORX_LOAD_NAME, )};

const char *orx_seg_load_name(int load) {
  return (unsigned)load < ORX_ARRAY_SIZE(load_names) ? load_names[load] : "unknown";
}

#define ORX_WIN_ALGO_NAME(c, ID, name) [ORX_WIN_##ID] = name,
static const char *const win_algo_names[] = {ORX_WIN_ALGOS(ORX_WIN_ALGO_NAME, )};

const char *orx_win_algo_name(int algo) {
  return (unsigned)algo < ORX_ARRAY_SIZE(win_algo_names) ? win_algo_names[algo] : "unknown";
}

int orx_win_algo_named(const char *name, int *algo) {
  const int id = named(win_algo_names, ORX_ARRAY_SIZE(win_algo_names), name);
  if (id >= 0)
    *algo = id;
  return id >= 0;
}
