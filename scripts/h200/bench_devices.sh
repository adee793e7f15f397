#!/usr/bin/env bash
# Run on the H200 machine after scripts/h200/run_suite.sh has built the project: one of the
# benchmark programs that take [ROUNDS [FILTER [SHIFT]]] (bench_axes, bench_pairs, bench_by_key)
# on CUDA, NVIDIA's OpenCL and, unless POCL=0, PoCL's CPU device, whose sizes SHIFT halves (2
# unless set). Each device's table goes to $OUT/NAME-DEVICE.txt (else ./h200-logs).
#   scripts/h200/bench_devices.sh NAME PROGRAM [ROUNDS [FILTER]]
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=${OUT:-$PWD/h200-logs}
mkdir -p "$logs"
name=$1
bench=/tmp/ocl-reduce-h200/bench/$2
rounds=${3:-10}
filter=${4:-}
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd
status=0
for device in "cuda cuda" "NVIDIA opencl"; do
  set -- $device
  echo "== $name: $1 ($2 backend)"
  OCL_REDUCE_DEVICE=$1 OCL_REDUCE_BACKEND=$2 "$bench" "$rounds" "$filter" 2>&1 |
    tee "$logs/$name-$1.txt" || status=1
done
if [ "${POCL:-1}" = 1 ]; then
  echo "== $name: PoCL's CPU device, sizes halved ${SHIFT:-2} times"
  OCL_REDUCE_DEVICE=Portable OCL_REDUCE_BACKEND=opencl "$bench" "$rounds" "$filter" \
    "${SHIFT:-2}" 2>&1 | tee "$logs/$name-pocl.txt" || status=1
fi
exit $status
