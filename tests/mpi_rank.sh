#!/bin/sh
# Runs one MPI rank of a test with a PoCL kernel cache of its own (POCL_CACHE_DIR/rankN): PoCL 3.1
# fails builds now and then (CL_BUILD_PROGRAM_FAILURE, "failed to build the program", an empty
# log) when several processes write one cache directory at once (pocl/pocl#1480); CI's fuzz_mpi
# did once. The rank comes from Open MPI or MPICH.
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
if [ -n "${POCL_CACHE_DIR:-}" ]; then
  POCL_CACHE_DIR="$POCL_CACHE_DIR/rank$rank"
  export POCL_CACHE_DIR
fi
exec "$@"
