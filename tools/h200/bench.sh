#!/usr/bin/env bash
# Run on the H200 machine after tools/h200/run_suite.sh has built the project: the benchmark tables
# of docs/PERFORMANCE.md, every contender measured side by side in one run per table. Writes the
# tables, CSV, JSON and SVG plots to $OUT (else ./h200-logs).
#   tools/h200/bench.sh            the tables
#   tools/h200/bench.sh --tune     also the launch-policy sweep behind the GPU defaults
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=${OUT:-$PWD/h200-logs}
mkdir -p "$logs"
bench=/tmp/ocl-reduce-h200/tools/ocl-reduce
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd OCL_REDUCE_DEVICE=NVIDIA
paths=cuda/subgroup,cuda/local,opencl/subgroup:ptx,opencl/local

echo "== f32 sum, 2^10 ... 2^28: the CUDA backend and NVIDIA's OpenCL against CUB"
"$bench" bench --paths "$paths" --sizes 10:28:2 --types f32 --ops sum \
  --csv "$logs/h200-sum-f32.csv" --json "$logs/h200-sum-f32.json" --svg "$logs/h200-sum-f32.svg" \
  > "$logs/h200-sum-f32.txt"
cat "$logs/h200-sum-f32.txt"

echo "== 2^28 elements: i32, f32, f64 with sum, min, max"
"$bench" bench --paths cuda/subgroup,opencl/subgroup:ptx --n 268435456 --types i32,f32,f64 \
  --ops sum,min,max --csv "$logs/h200-types.csv" > "$logs/h200-types.txt"
cat "$logs/h200-types.txt"

if [ "${1:-}" = "--tune" ]; then
  echo "== launch policies, f32 sum of 2^28 (ratio against CUB, device time)"
  for policy in "" unroll=8 groups=528 groups=2112 groups=2112,unroll=8 wg=512 wg=512,unroll=8 \
                wg=128,groups=2112 unroll=2,groups=4224; do
    OCL_REDUCE_POLICY=$policy "$bench" bench --paths cuda/subgroup --n 268435456 --reps 50 \
      2>/dev/null | grep "ratio" | sed "s/^/  [${policy:-default}] /"
  done
fi
