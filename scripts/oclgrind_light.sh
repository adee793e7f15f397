#!/usr/bin/env bash
# Runs the library's kernels under Oclgrind (an OpenCL device simulator, a Debian package) with its
# checks of data races between work-items and work-groups, of uninitialized values, of memory
# accesses and of the OpenCL API: every kind of operator (scalar, structured, a state, the
# reproducible sum, user commutative and order-preserving) through every entry point
# (tests/test_forms, light sizes). Any report fails the run, as a test failure does.
# Usage: scripts/oclgrind_light.sh <Release build directory>
#
# Oclgrind's device is OpenCL 1.2, which orders nothing between work-groups, so the library
# finishes every reduction there by a second launch (cl/lib/orx_finish.cl); the reports of the
# last-group finish this check once found are gone.
#
# Oclgrind 21.10's check of uninitialized values keeps a record per buffer of the bytes written,
# and two defects of that bookkeeping (src/plugins/Uninitialized.cpp) gave every report it made
# here; neither was a value the kernels read before writing it (their results are checked):
#   - a host write starts the buffer's record anew, the write's size long (hostMemoryStore calls
#     allocAndStoreShadowMemory), so a write at an offset, or a short one, makes the rest of the
#     buffer, earlier writes included, read as uninitialized: test_forms writes its buffers whole;
#   - nothing drops the record of a released buffer (no memoryDeallocated), and the next buffer
#     given its number keeps it: a scratch buffer grown from 32 to 128 bytes read as uninitialized
#     past byte 32. The library's scratch buffers start at 64 KiB (src/exec/memory.c), and do not
#     grow at these sizes. (A stale record that says "written" can hide a report instead.)
set -euo pipefail
build=${1:?usage: scripts/oclgrind_light.sh <build directory>}
runtime=$(dpkg -L oclgrind 2>/dev/null | grep -m1 'liboclgrind-rt-icd\.so$' || true)
if [ -z "$runtime" ]; then
  echo "oclgrind_light.sh: Oclgrind is not installed (scripts/install_deps.sh installs it)" >&2
  exit 1
fi
# Oclgrind alone: its ICD file in a directory of its own, not the system's.
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$runtime" >"$vendors/oclgrind.icd"
log="$build/oclgrind-light.log"
# -cl-opt-disable: Oclgrind 21.10's LLVM mis-handles some of the optimized kernels. No program
# cache: the simulator builds its own code.
if ! env OCL_ICD_VENDORS="$vendors" OCL_REDUCE_TEST_LIGHT=1 OCL_REDUCE_CACHE_DIR=off \
  OCLGRIND_BUILD_OPTIONS=-cl-opt-disable OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1 \
  OCLGRIND_CHECK_API=1 \
  "$build/tests/test_forms" >"$log" 2>&1; then
  tail -40 "$log"
  echo "oclgrind_light.sh: test_forms failed under Oclgrind (log: $log)" >&2
  exit 1
fi
# Each of Oclgrind's reports of a kernel names it on a line "<tab>Kernel: ..." after the kind
# ("Read-write data race at ...", "Invalid read of size ...", ...); API errors start "Oclgrind - ".
reports=$(grep -cE $'^(\tKernel: |Oclgrind - )' "$log" || true)
grep -m1 '^# device' "$log" || true
if [ "$reports" -ne 0 ]; then
  grep -B1 -A5 -m5 -E $'^(\tKernel: |Oclgrind - )' "$log"
  echo "oclgrind_light.sh: $reports Oclgrind reports (log: $log)" >&2
  exit 1
fi
echo "oclgrind_light.sh: test_forms passed under Oclgrind, no report"
