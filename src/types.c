/* =================================================================================================
 * types.c: facts about element types and operators that the host needs: sizes, names, the
 * identity of each operator (one table for the host's count == 0 answer and the kernels' padding),
 * and the type each operator computes in.
 * ============================================================================================== */
#include "internal.h"

static const struct {
  const char *name;
  size_t size;
  int is_float;
} type_facts[OCL_REDUCE_TYPE_COUNT] = {
    [OCL_REDUCE_I32] = {"i32", 4, 0}, [OCL_REDUCE_U32] = {"u32", 4, 0},
    [OCL_REDUCE_I64] = {"i64", 8, 0}, [OCL_REDUCE_U64] = {"u64", 8, 0},
    [OCL_REDUCE_F32] = {"f32", 4, 1}, [OCL_REDUCE_F64] = {"f64", 8, 1},
};

static const char *const op_names[OCL_REDUCE_OP_COUNT] = {
    [OCL_REDUCE_SUM] = "sum", [OCL_REDUCE_PROD] = "prod", [OCL_REDUCE_MIN] = "min",
    [OCL_REDUCE_MAX] = "max", [OCL_REDUCE_AND] = "and",   [OCL_REDUCE_OR] = "or",
    [OCL_REDUCE_XOR] = "xor",
};

/* Enum values arrive from C callers and may be anything: compare as unsigned, so negative values
 * are rejected as well. */
int orx_type_valid(ocl_reduce_type type) { return (unsigned)type < OCL_REDUCE_TYPE_COUNT; }

int orx_op_valid(ocl_reduce_op op) { return (unsigned)op < OCL_REDUCE_OP_COUNT; }

int orx_type_is_float(ocl_reduce_type type) {
  return orx_type_valid(type) && type_facts[type].is_float;
}

size_t ocl_reduce_type_size(ocl_reduce_type type) {
  return orx_type_valid(type) ? type_facts[type].size : 0;
}

const char *ocl_reduce_type_name(ocl_reduce_type type) {
  return orx_type_valid(type) ? type_facts[type].name : "unknown";
}

const char *ocl_reduce_op_name(ocl_reduce_op op) {
  return orx_op_valid(op) ? op_names[op] : "unknown";
}

uint64_t orx_identity_bits(ocl_reduce_op op, ocl_reduce_type type) {
  const int wide = ocl_reduce_type_size(type) == 8;
  const uint64_t all_ones = wide ? UINT64_MAX : UINT32_MAX;
  switch (op) {
  case OCL_REDUCE_SUM:
  case OCL_REDUCE_OR:
  case OCL_REDUCE_XOR:
    return 0; /* integer 0 and float +0.0 */
  case OCL_REDUCE_AND:
    return all_ones;
  case OCL_REDUCE_PROD:
    if (type == OCL_REDUCE_F32)
      return 0x3f800000u; /* 1.0f */
    if (type == OCL_REDUCE_F64)
      return 0x3ff0000000000000u; /* 1.0 */
    return 1;
  case OCL_REDUCE_MIN:
    switch (type) {
    case OCL_REDUCE_I32:
      return 0x7fffffffu; /* INT32_MAX */
    case OCL_REDUCE_I64:
      return 0x7fffffffffffffffu; /* INT64_MAX */
    case OCL_REDUCE_F32:
      return 0x7f800000u; /* +inf */
    case OCL_REDUCE_F64:
      return 0x7ff0000000000000u; /* +inf */
    default:
      return all_ones; /* unsigned max */
    }
  case OCL_REDUCE_MAX:
    switch (type) {
    case OCL_REDUCE_I32:
      return 0x80000000u; /* INT32_MIN */
    case OCL_REDUCE_I64:
      return 0x8000000000000000u; /* INT64_MIN */
    case OCL_REDUCE_F32:
      return 0xff800000u; /* -inf */
    case OCL_REDUCE_F64:
      return 0xfff0000000000000u; /* -inf */
    default:
      return 0; /* unsigned min */
    }
  }
  return 0;
}

ocl_reduce_type orx_compute_type(ocl_reduce_op op, ocl_reduce_type type) {
  if (op == OCL_REDUCE_MIN || op == OCL_REDUCE_MAX)
    return type;
  if (type == OCL_REDUCE_I32)
    return OCL_REDUCE_U32;
  if (type == OCL_REDUCE_I64)
    return OCL_REDUCE_U64;
  return type;
}

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

const char *orx_subgroup_impl_name(ocl_reduce_subgroup_impl impl) {
  switch (impl) {
  case OCL_REDUCE_SUBGROUP_KHR:
    return "khr";
  case OCL_REDUCE_SUBGROUP_INTEL:
    return "intel";
  case OCL_REDUCE_SUBGROUP_BUILTIN:
    return "builtin";
  case OCL_REDUCE_SUBGROUP_NV_PTX:
    return "ptx";
  case OCL_REDUCE_SUBGROUP_CUDA:
    return "cuda";
  case OCL_REDUCE_SUBGROUP_AUTO:
    return "auto";
  case OCL_REDUCE_SUBGROUP_NONE:
    return "none";
  default:
    return "default";
  }
}
