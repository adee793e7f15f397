#!/usr/bin/env bash
# The full soak (tests/test_soak.c): 10^6 mixed calls on one context, then 10^4 life cycles of a
# context, a user operator and a buffer, every result checked; it prints resident memory and file
# descriptors after the warm-up, the program cache against its limit, and the timing drift, and
# fails when any of them is off. The README's test command runs the short form (soak[pocl]).
#   scripts/soak.sh [build directory] [calls] [cycles]
# The device is OCL_REDUCE_DEVICE's (default: the first), e.g. OCL_REDUCE_DEVICE=cuda:0.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
calls=${2:-1000000}
cycles=${3:-10000}
if [ ! -x "$build/tests/test_soak" ]; then
  echo "soak.sh: $build/tests/test_soak is missing: build the tests first (scripts/run_tests.sh)" >&2
  exit 2
fi
exec "$build/tests/test_soak" --calls "$calls" --cycles "$cycles"
