#!/usr/bin/env bash
# Run on the H200 machine after scripts/h200/run_suite.sh has built the project: reductions along
# axes (issue 55) against CUB, cuBLAS and OpenMP, side by side (bench/bench_axes.c), on CUDA,
# NVIDIA's OpenCL and, unless POCL=0, PoCL's CPU device (SHIFT halves the outer extents there).
#   scripts/h200/axes.sh [ROUNDS [FILTER]]
# LIMITS=1 first runs bench/column_limits.cu: what kernels written for one view alone reach.
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=${OUT:-$PWD/h200-logs}
mkdir -p "$logs"
bench=/tmp/ocl-reduce-h200/bench/bench_axes
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd
rounds=${1:-10}
filter=${2:-}
status=0
if [ "${LIMITS:-0}" = 1 ]; then
  echo "== axes: hand-written limits (bench/column_limits.cu)"
  nvcc -O3 -arch=sm_90 -std=c++17 bench/column_limits.cu -o /tmp/column_limits &&
    /tmp/column_limits 2>&1 | tee "$logs/axes-limits.txt" || status=1
fi
for device in "cuda cuda" "NVIDIA opencl"; do
  set -- $device
  echo "== axes: $1 ($2 backend)"
  OCL_REDUCE_DEVICE=$1 OCL_REDUCE_BACKEND=$2 "$bench" "$rounds" "$filter" 2>&1 |
    tee "$logs/axes-$1.txt" || status=1
done
if [ "${POCL:-1}" = 1 ]; then
  echo "== axes: PoCL's CPU device, outer extents halved ${SHIFT:-2} times"
  OCL_REDUCE_DEVICE=Portable OCL_REDUCE_BACKEND=opencl "$bench" "$rounds" "$filter" \
    "${SHIFT:-2}" 2>&1 | tee "$logs/axes-pocl.txt" || status=1
fi
exit $status
