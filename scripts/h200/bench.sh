#!/usr/bin/env bash
# Run on the H200 machine after scripts/h200/run_suite.sh has built the project: the benchmark tables
# of docs/PERFORMANCE.md, every contender measured side by side in one run per table. Writes the
# tables, CSV, JSON and SVG plots to $OUT (else ./h200-logs). CUB is the newest CCCL's where
# .deps/ holds it (scripts/h200/fetch_deps.sh, scripts/cccl_headers.sh), and then also the
# toolkit's, in a second build, for the segments and argmin tables; each table names its CCCL.
#   scripts/h200/bench.sh            the tables
#   scripts/h200/bench.sh --tune     also the launch-policy sweep behind the GPU defaults, and
#                                  Nsight Compute profiles of our 2^28 f32 sum and of
#                                  32-element segments
#   scripts/h200/bench.sh --profile-segments   the tables and the segments profile only
#   scripts/h200/bench.sh --calls    only the first call of a process (program cache cold, off,
#                                  warm) and back-to-back enqueued calls against blocking ones
#                                  and CUB: CUDA, NVIDIA's OpenCL, PoCL
#   scripts/h200/bench.sh --latency  only the small-size latency: each OpenCL implementation's floor
#                                  (bench_floor), and the f32 sum through CUDA, NVIDIA's OpenCL
#                                  and the application's own queue against CUB and the plain
#                                  two-kernel OpenCL reduction on that queue
#   scripts/h200/bench.sh --bus      only host memory across the bus (bench_bus): staged and
#                                  blocking copies against the driver's pinned copy, CUDA and
#                                  NVIDIA's OpenCL; COPY_THREADS="4 8 16" adds those thread counts
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=${OUT:-$PWD/h200-logs}
mkdir -p "$logs"
bench=/tmp/ocl-reduce-h200/tools/ocl-reduce
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd OCL_REDUCE_DEVICE=NVIDIA

if [ "${1:-}" = "--calls" ]; then
  benches=/tmp/ocl-reduce-h200/bench
  for device in "cuda auto" "nvidia opencl" "pocl opencl"; do
    set -- $device
    echo "== first call of a new process: $1 ($2 backend)"
    OCL_REDUCE_DEVICE=$1 OCL_REDUCE_BACKEND=$2 "$benches/bench_first_call" 9 2>&1 |
      tee "$logs/first-call-$1.txt"
  done
  for device in "cuda auto" "nvidia opencl"; do
    set -- $device
    echo "== 1000 back-to-back f32 sums of 2^20: $1 ($2 backend)"
    OCL_REDUCE_DEVICE=$1 OCL_REDUCE_BACKEND=$2 "$benches/bench_enqueue" 1000 1048576 7 2>&1 |
      tee "$logs/enqueue-$1.txt"
  done
  exit 0
fi

if [ "${1:-}" = "--bus" ]; then
  for device in "cuda auto" "nvidia opencl"; do
    set -- $device
    echo "== host memory across the bus: $1 ($2 backend)"
    OCL_REDUCE_DEVICE=$1 OCL_REDUCE_BACKEND=$2 /tmp/ocl-reduce-h200/bench/bench_bus 2>&1 |
      tee "$logs/bus-$1.txt"
  done
  for threads in ${COPY_THREADS:-}; do
    echo "== CUDA, copy_threads=$threads"
    OCL_REDUCE_POLICY=copy_threads=$threads OCL_REDUCE_DEVICE=cuda \
      /tmp/ocl-reduce-h200/bench/bench_bus 256 1024 2>&1 | tee "$logs/bus-cuda-threads-$threads.txt"
  done
  exit 0
fi

if [ "${1:-}" = "--latency" ]; then
  for device in nvidia pocl; do
    echo "== one call's floor: $device"
    OCL_REDUCE_DEVICE=$device /tmp/ocl-reduce-h200/bench/bench_floor 2000 2>&1 |
      tee "$logs/floor-$device.txt"
  done
  echo "== f32 sum, 2^10 ... 2^24: CUDA, NVIDIA's OpenCL (own and the application's queue), CUB"
  "$bench" bench --paths cuda/auto,opencl/auto,app/auto --opencl-baseline --sizes 10:24:2 \
    --csv "$logs/h200-latency.csv" > "$logs/h200-latency.txt"
  cat "$logs/h200-latency.txt"
  exit 0
fi

echo "== f32 sum, 2^10 ... 2^28: the CUDA backend and NVIDIA's OpenCL against CUB"
"$bench" bench --paths cuda/auto,opencl/subgroup:ptx,opencl/local --sizes 10:28:2 \
  --csv "$logs/h200-sum-f32.csv" --svg "$logs/h200-sum-f32.svg" > "$logs/h200-sum-f32.txt"
cat "$logs/h200-sum-f32.txt"

echo "== 2^28 elements: i32, f32, f64 with sum, min, max"
"$bench" bench --paths cuda/auto,opencl/subgroup:ptx --n 268435456 --types i32,f32,f64 \
  --ops sum,min,max > "$logs/h200-types.txt"
cat "$logs/h200-types.txt"

echo "== segments: f32 sum of 2^26 elements, segment lengths 1 ... 65536"
"$bench" bench --segments sweep --reps 20 \
  --paths "cuda/auto,opencl/auto,cuda/auto@seg=mr,cuda/auto@seg=staged,cuda/auto@seg=group" \
  --csv "$logs/h200-segments.csv" --svg "$logs/h200-segments.svg" > "$logs/h200-segments.txt"
cat "$logs/h200-segments.txt"

echo "== argmin and argmax, f32 and f64, 2^16 ... 2^28"
"$bench" bench --paths cuda/auto,opencl/auto --sizes 16:28:2 --types f32,f64 --ops argmin,argmax \
  --csv "$logs/h200-argmin.csv" > "$logs/h200-argmin.txt"
cat "$logs/h200-argmin.txt"

echo "== the cross-device sum (sum_reproducible) against CUB's gpu_to_gpu and our run-to-run sum"
"$bench" bench --paths cuda/auto,opencl/auto --sizes 16:28:2 --types f32,f64 \
  --ops sum,sum_reproducible --csv "$logs/h200-cross-device.csv" > "$logs/h200-cross-device.txt"
cat "$logs/h200-cross-device.txt"

# The CUB of the toolkit's own CCCL, where the tables above measured a newer one: a second build
# of the tool alone, the same tables' CUDA rows.
bundled=/tmp/ocl-reduce-h200-bundled
if grep -q "^OCL_REDUCE_CCCL_INCLUDE:PATH=." /tmp/ocl-reduce-h200/CMakeCache.txt 2>/dev/null; then
  echo "== the toolkit's CCCL: segments and argmin against its CUB"
  if cmake -S . -B "$bundled" -DCMAKE_BUILD_TYPE=Release -DOCL_REDUCE_BUILD_TESTS=OFF \
    -DOCL_REDUCE_BENCH_CUB=ON -DOCL_REDUCE_CCCL_INCLUDE= >"$bundled.log" 2>&1 &&
    cmake --build "$bundled" -j "$(nproc)" --target ocl-reduce >>"$bundled.log" 2>&1; then
    "$bundled/tools/ocl-reduce" bench --segments sweep --reps 20 --paths cuda/auto \
      --csv "$logs/h200-segments-bundled.csv" > "$logs/h200-segments-bundled.txt"
    "$bundled/tools/ocl-reduce" bench --paths cuda/auto --sizes 16:28:4 --types f32,f64 \
      --ops argmin,argmax >> "$logs/h200-segments-bundled.txt"
    cat "$logs/h200-segments-bundled.txt"
  else
    tail -20 "$bundled.log"
  fi
fi

if [ "${1:-}" = "--tune" ]; then
  echo "== launch policies, f32 sum of 2^28 (ratio against CUB, device time)"
  for policy in "" unroll=8 stream=tiled stream=tiled,unroll=8 wg=512 wg=512,unroll=8 \
                groups=2112,unroll=8 unroll=2,groups=4224; do
    OCL_REDUCE_POLICY=$policy "$bench" bench --paths cuda/auto --n 268435456 --reps 50 \
      2>/dev/null | grep "speed of" | sed "s/^/  [${policy:-default}] /"
  done
  echo "== Nsight Compute: the 2^28 f32 sum"
  timeout 120 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section LaunchStats --section Occupancy -k "regex:orx_reduce_all|DeviceReduce" -c 6 \
    "$bench" bench --paths cuda/auto --n 268435456 --reps 1 --warmup 0 \
    > "$logs/ncu.txt" 2>&1
  grep -E "orx_reduce_all|DeviceReduce|DRAM Throughput|Memory Throughput|Duration|Achieved Occupancy|Registers Per|Grid Size|Block Size" \
    "$logs/ncu.txt" | head -60
fi
if [ "${1:-}" = "--tune" ] || [ "${1:-}" = "--profile-segments" ]; then
  echo "== Nsight Compute: f32 sums of 32-element segments (2^26 elements)"
  timeout 120 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section LaunchStats --section Occupancy --section WarpStateStats \
    -k "regex:orx_segments" -c 2 \
    "$bench" bench --segments 32 --paths cuda/auto --reps 1 --warmup 0 --no-cub \
    > "$logs/ncu-segments.txt" 2>&1
  grep -E "orx_reduce_segments|DRAM Throughput|Memory Throughput|Duration|Achieved Occupancy|Registers Per|Grid Size|Block Size|Stall|Theoretical Occupancy" \
    "$logs/ncu-segments.txt" | head -40
fi
