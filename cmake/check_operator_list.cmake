# Run by the build (cmake -P, target orx_operator_list): the built-in operators written outside
# the contract agree with its list (cl/orx_contract.h, ORX_OPERATORS), row for row and in order:
# the public count and constants (include/ocl_reduce.h) and the reference table of docs/API.md;
# the same for the pair operators (ORX_PAIR_OPERATORS: include/ocl_reduce_pairs.h), whose table
# follows.
# (The CLI, the host kernels and the names take the list itself; src/base/ids.c asserts the
# public constants' values too.)
include("${CMAKE_CURRENT_LIST_DIR}/contract.cmake")
set(root "${CMAKE_CURRENT_LIST_DIR}/..")
orx_contract_rows(ORX_OPERATORS ids names)
list(LENGTH ids count)
set(problems "")

file(READ "${root}/include/ocl_reduce.h" header)
if(NOT header MATCHES "#define OCL_REDUCE_BUILTIN_OPS ${count}[ \n]")
  string(APPEND problems "\n  include/ocl_reduce.h: OCL_REDUCE_BUILTIN_OPS is not ${count}")
endif()
set(position 0)
foreach(id IN LISTS ids)
  if(NOT header MATCHES "#define OCL_REDUCE_${id} OCL_REDUCE_BUILTIN_OP\\(${position}\\)\n")
    string(APPEND problems
      "\n  include/ocl_reduce.h: no #define OCL_REDUCE_${id} OCL_REDUCE_BUILTIN_OP(${position})")
  endif()
  math(EXPR position "${position} + 1")
endforeach()

# The pair operators (ORX_PAIR_OPERATORS) follow, as OCL_REDUCE_PAIR_OP(i) and in their table.
orx_contract_rows(ORX_PAIR_OPERATORS pair_ids pair_names)
file(READ "${root}/include/ocl_reduce_pairs.h" header)
list(LENGTH pair_ids pair_count)
if(NOT header MATCHES "#define OCL_REDUCE_BUILTIN_PAIR_OPS ${pair_count}[ \n]")
  string(APPEND problems
    "\n  include/ocl_reduce_pairs.h: OCL_REDUCE_BUILTIN_PAIR_OPS is not ${pair_count}")
endif()
set(position 0)
foreach(id IN LISTS pair_ids)
  if(NOT header MATCHES "#define OCL_REDUCE_${id} OCL_REDUCE_PAIR_OP\\(${position}\\)[ \n]")
    string(APPEND problems
      "\n  include/ocl_reduce_pairs.h: no #define OCL_REDUCE_${id} OCL_REDUCE_PAIR_OP(${position})")
  endif()
  math(EXPR position "${position} + 1")
endforeach()
list(APPEND ids ${pair_ids})
list(APPEND names ${pair_names})

file(STRINGS "${root}/docs/API.md" rows REGEX "^\\| `OCL_REDUCE_[A-Z_]+` \\| `[a-z_]+` \\|")
orx_row_pairs("${rows}" "^\\| `OCL_REDUCE_([A-Z_]+)` \\| `([a-z_]+)` \\|.*" table_ids table_names)
if(NOT table_ids STREQUAL ids OR NOT table_names STREQUAL names)
  string(APPEND problems "\n  docs/API.md's operator table lists ${table_ids} (${table_names});"
    " the contract lists ${ids} (${names})")
endif()

if(problems)
  message(FATAL_ERROR "the built-in operators disagree with cl/orx_contract.h:${problems}")
endif()
