# The contract's lists (cl/orx_contract.h) read by the build, so that what the build generates or
# checks per operator or type follows the one list. orx_contract_rows(LIST IDS NAMES) sets IDS
# to the ids of the rows of the X-macro LIST (ORX_OPERATORS, ORX_TYPES) and NAMES to their names
# (each row's first string), in order, which is their numbering (src/base/ids.c asserts that
# each row's id is its position).
set(ORX_CONTRACT_FILE "${CMAKE_CURRENT_LIST_DIR}/../cl/orx_contract.h")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${ORX_CONTRACT_FILE}")

# orx_row_pairs(ROWS REGEX FIRST SECOND): each row's two groups of REGEX, into two lists.
function(orx_row_pairs rows regex first_out second_out)
  set(first "")
  set(second "")
  foreach(row IN LISTS rows)
    string(REGEX REPLACE "${regex}" "\\1" one "${row}")
    string(REGEX REPLACE "${regex}" "\\2" two "${row}")
    list(APPEND first "${one}")
    list(APPEND second "${two}")
  endforeach()
  set(${first_out} "${first}" PARENT_SCOPE)
  set(${second_out} "${second}" PARENT_SCOPE)
endfunction()

function(orx_contract_rows list ids_out names_out)
  file(READ "${ORX_CONTRACT_FILE}" text)
  string(FIND "${text}" "#define ${list}(X, c)" start)
  if(start EQUAL -1)
    message(FATAL_ERROR "cl/orx_contract.h has no X-macro list ${list}(X, c)")
  endif()
  string(SUBSTRING "${text}" ${start} -1 rest)
  # The macro ends with its first line that does not end in a backslash.
  string(REGEX MATCH "^([^\n]*\\\\\n)*[^\n]*" body "${rest}")
  string(REGEX MATCHALL "X\\(c, [A-Z0-9_]+, \"[a-z0-9_]+\"" rows "${body}")
  orx_row_pairs("${rows}" "^X\\(c, ([A-Z0-9_]+), \"([a-z0-9_]+)\"$" ids names)
  if(NOT ids)
    message(FATAL_ERROR "cl/orx_contract.h: no rows read in ${list}")
  endif()
  set(${ids_out} "${ids}" PARENT_SCOPE)
  set(${names_out} "${names}" PARENT_SCOPE)
endfunction()
