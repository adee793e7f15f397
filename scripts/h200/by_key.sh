#!/usr/bin/env bash
# Run on the H200 machine after scripts/h200/run_suite.sh has built the project: reduce by key
# (issue 57) against CUB's DeviceReduce::ReduceByKey and OpenMP, side by side (bench/bench_by_key.c),
# on CUDA, NVIDIA's OpenCL and, unless POCL=0, PoCL's CPU device (SHIFT halves the pair counts
# there, default 2).
#   scripts/h200/by_key.sh [ROUNDS [FILTER]]
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=${OUT:-$PWD/h200-logs}
mkdir -p "$logs"
bench=/tmp/ocl-reduce-h200/bench/bench_by_key
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd
rounds=${1:-10}
filter=${2:-}
status=0
for device in "cuda cuda" "NVIDIA opencl"; do
  set -- $device
  echo "== by key: $1 ($2 backend)"
  OCL_REDUCE_DEVICE=$1 OCL_REDUCE_BACKEND=$2 "$bench" "$rounds" "$filter" 2>&1 |
    tee "$logs/by-key-$1.txt" || status=1
done
if [ "${POCL:-1}" = 1 ]; then
  echo "== by key: PoCL's CPU device, pair counts halved ${SHIFT:-2} times"
  OCL_REDUCE_DEVICE=Portable OCL_REDUCE_BACKEND=opencl "$bench" "$rounds" "$filter" \
    "${SHIFT:-2}" 2>&1 | tee "$logs/by-key-pocl.txt" || status=1
fi
exit $status
