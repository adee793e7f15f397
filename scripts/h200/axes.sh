#!/usr/bin/env bash
# Run on the H200 machine after scripts/h200/run_suite.sh has built the project: reductions along
# axes (issue 55) against CUB, cuBLAS and OpenMP, side by side (bench/bench_axes.c), on CUDA,
# NVIDIA's OpenCL and, unless POCL=0, PoCL's CPU device (SHIFT halves the outer extents there).
#   scripts/h200/axes.sh [ROUNDS [FILTER]]
# LIMITS=1 first runs bench/column_limits.cu: what kernels written for one view alone reach; the
# tables then run through scripts/h200/bench_devices.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=${OUT:-$PWD/h200-logs}
mkdir -p "$logs"
rounds=${1:-10}
filter=${2:-}
status=0
if [ "${LIMITS:-0}" = 1 ]; then
  echo "== axes: hand-written limits (bench/column_limits.cu)"
  nvcc -O3 -arch=sm_90 -std=c++17 bench/column_limits.cu -o /tmp/column_limits &&
    /tmp/column_limits 2>&1 | tee "$logs/axes-limits.txt" || status=1
fi
scripts/h200/bench_devices.sh axes bench_axes "$rounds" "$filter" || status=1
exit $status
