# The contract's lists (cl/orx_contract.h) read by the build, so that what the build generates or
# checks per operator or type follows the one list. orx_contract_rows(LIST IDS NAMES) sets IDS
# to the ids of the rows of the X-macro LIST (ORX_OPERATORS, ORX_TYPES) and NAMES to their names
# (each row's first string), in order, which is their numbering (src/base/ids.c asserts that
# each row's id is its position).
set(ORX_CONTRACT_FILE "${CMAKE_CURRENT_LIST_DIR}/../cl/orx_contract.h")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${ORX_CONTRACT_FILE}")

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
  set(ids "")
  set(names "")
  foreach(row IN LISTS rows)
    string(REGEX REPLACE "^X\\(c, ([A-Z0-9_]+), \"([a-z0-9_]+)\"$" "\\1" id "${row}")
    string(REGEX REPLACE "^X\\(c, ([A-Z0-9_]+), \"([a-z0-9_]+)\"$" "\\2" name "${row}")
    list(APPEND ids "${id}")
    list(APPEND names "${name}")
  endforeach()
  if(NOT ids)
    message(FATAL_ERROR "cl/orx_contract.h: no rows read in ${list}")
  endif()
  set(${ids_out} "${ids}" PARENT_SCOPE)
  set(${names_out} "${names}" PARENT_SCOPE)
endfunction()
