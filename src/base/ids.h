/* =================================================================================================
 * ids.h: the ids and facts the host shares with the kernels, read from the contract
 * (cl/orx_contract.h): element types, operators, subgroup implementations, stream layouts and
 * segment loads, with their names (ids.c). The public enums carry the same numbers.
 * ============================================================================================== */
#ifndef ORX_IDS_H
#define ORX_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "ocl_reduce.h"
#include "orx_contract.h"

/* A built-in operator's id, the contract's ORX_OP_ number (the public value
 * OCL_REDUCE_BUILTIN_OP(id) carries it). */
typedef int orx_op_id;
#define ORX_OP_COUNT OCL_REDUCE_BUILTIN_OPS

/* The built-in id of a public operator value, or -1 where it is none (a user operator, or not an
 * operator at all: src/api/operator.c tells those apart). */
orx_op_id orx_builtin_id(ocl_reduce_op op);

/* A built-in pair operator's id, the contract's ORX_PAIR_ number (the public value
 * OCL_REDUCE_PAIR_OP(id) carries it), or -1 where op is none. */
typedef int orx_pair_id;
#define ORX_PAIR_COUNT OCL_REDUCE_BUILTIN_PAIR_OPS
orx_pair_id orx_pair_builtin_id(ocl_reduce_op op);
/* "dot" ("unknown" for other values). */
const char *orx_pair_name(orx_pair_id pair);
/* The type of pair's values on elements of `type`, which its sum and result have: u64 for
 * COUNT_EQUAL, f32 for 16-bit floats, the type itself otherwise. */
ocl_reduce_type orx_pair_value_type(orx_pair_id pair, ocl_reduce_type type);

/* Enum values arrive from C callers and may be anything: these reject them. */
int orx_type_valid(ocl_reduce_type type);
int orx_op_valid(orx_op_id op);
int orx_type_is_float(ocl_reduce_type type);
/* Bytes per element (0 for unknown values), and the names "f32", "sum" ("unknown"). */
size_t orx_type_size(ocl_reduce_type type);
const char *orx_type_name(ocl_reduce_type type);
const char *orx_op_name(orx_op_id op);
/* The operator's ORX_OPF_ flags (0 for unknown values). */
unsigned orx_op_flags(orx_op_id op);
/* The identity of op on type, as the type's bit pattern (the kernels pad with the same). */
uint64_t orx_identity_bits(orx_op_id op, ocl_reduce_type type);
/* Writes the identity of op on type (one element) to host memory. */
void orx_write_identity(orx_op_id op, ocl_reduce_type type, void *result);
/* What a structured operator (ORX_OPF_STATE) keeps and returns on a type: its state's bytes and
 * alignment, the bytes of one result, and whether it computes in double precision. Scalar
 * operators: one element of the compute type. */
typedef struct orx_state_facts {
  unsigned state_bytes, state_align, result_bytes;
  int needs_fp64;
} orx_state_facts;
orx_state_facts orx_state_facts_of(orx_op_id op, ocl_reduce_type type);
/* Whether type is stored narrower than it computes (f16, bf16: read into f32 kernels). */
int orx_type_is_narrow(ocl_reduce_type type);
/* Whether op's result holds elements of the input (MIN, MAX, ARGMIN, ARGMAX, MINMAX): 16-bit ones
 * for 16-bit input. */
int orx_result_is_element(orx_op_id op);
/* Whether op is defined on type (NULL) or, if not, why (a phrase: "integer types only"). */
const char *orx_op_type_refusal(orx_op_id op, ocl_reduce_type type);
/* The type a kernel computes in: integers on their unsigned bits for ORX_OPF_UNSIGNED
 * operators (wrapping arithmetic is defined there and gives the same bits). */
ocl_reduce_type orx_compute_type(orx_op_id op, ocl_reduce_type type);

/* Names, and names back to ids (1 when found). */
const char *orx_path_name(ocl_reduce_path path);
const char *orx_subgroup_impl_name(ocl_reduce_subgroup_impl impl);
/* Whether impl's shuffles are written for whole warps of the device's width (caps.warp_size):
 * the contract's fact (ORX_SUBGROUP_IMPLS), 0 for values outside it. */
int orx_subgroup_impl_warps(ocl_reduce_subgroup_impl impl);
/* Whether impl exchanges values between lanes by shuffles: the contract's fact
 * (ORX_SUBGROUP_IMPLS, the kernels' ORX_SG_HAS_SHUFFLE), 0 for values outside it. */
int orx_subgroup_impl_shuffles(ocl_reduce_subgroup_impl impl);
int orx_subgroup_impl_named(const char *name, ocl_reduce_subgroup_impl *impl); /* and "auto" */
void orx_subgroup_impl_choices(char *text, size_t size); /* "auto, khr, ..." */
const char *orx_stream_name(int stream);
int orx_stream_named(const char *name, int *stream);
const char *orx_seg_load_name(int load);
const char *orx_win_algo_name(int algo);
int orx_win_algo_named(const char *name, int *algo);

#endif /* ORX_IDS_H */
