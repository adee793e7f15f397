#!/usr/bin/env bash
# Run on the H200 machine (Ubuntu 24.04, PoCL 5.0, NVIDIA's OpenCL not registered, no cmocka):
# builds ocl_reduce and runs the whole test suite on every implementation and path there, then the
# tool's device listing. Logs go to $OUT when it is set (the device tool's output folder), else to
# ./h200-logs. Needs .deps/ from scripts/h200/fetch_deps.sh (cmocka; the newest CCCL for the CUB
# contender).
#   scripts/h200/run_suite.sh              the suite (>2^32-element tests included) and the benchmarks
#   scripts/h200/run_suite.sh --no-bench   the suite only
#   scripts/h200/run_suite.sh --part K/N   the K-th of N parts of the suite, no benchmarks
#   scripts/h200/run_suite.sh --build-only the build and the device listing (then scripts/h200/bench.sh)
#   scripts/h200/run_suite.sh --fuzz T     the differential fuzzer (tests/fuzz) for T seconds on every
#                                          implementation and path at once, and across 3 MPI ranks
#                                          on PoCL (fuzz_mpi), then their summaries
# The whole suite no longer fits one 10-minute device call: --part 1/3, 2/3 and 3/3, one call each
# on the same warm machine (the build in /tmp is reused), run every test once. A part takes every
# N-th test from the K-th, so the slow programs of each implementation spread over the parts.
set -uo pipefail
cd "$(dirname "$0")/../.."
bench=1
build_only=0
part=""
fuzz=""
while [ $# -gt 0 ]; do
  case $1 in
  --no-bench) bench=0 ;;
  --build-only) build_only=1 ;;
  --fuzz)
    fuzz=${2:-}
    shift
    ;;
  --part)
    part=${2:-}
    shift
    bench=0
    ;;
  *)
    echo "run_suite.sh: unknown argument '$1'" >&2
    exit 2
    ;;
  esac
  shift
done
part_select=()
if [ -n "$part" ]; then
  if ! [[ $part =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] || [ "${BASH_REMATCH[1]}" -gt "${BASH_REMATCH[2]}" ]; then
    echo "run_suite.sh: --part wants K/N with 1 <= K <= N, not '$part'" >&2
    exit 2
  fi
  # ctest -I start,end,stride: tests K, K+N, K+2N, ...
  part_select=(-I "${BASH_REMATCH[1]},,${BASH_REMATCH[2]}")
fi
root=$PWD
logs=${OUT:-$root/h200-logs}
mkdir -p "$logs"
build=/tmp/ocl-reduce-h200

# cmocka and Boost's headers from the carried Debian packages.
deps=/tmp/ocl-reduce-deps
mkdir -p "$deps"
for deb in "$root"/.deps/*.deb; do dpkg -x "$deb" "$deps"; done

# PoCL 5.0 (the system's ICD) and NVIDIA's OpenCL, registered in a folder of our own.
vendors=/tmp/ocl-reduce-icd
mkdir -p "$vendors"
cp /etc/OpenCL/vendors/*.icd "$vendors"/ 2>/dev/null || true
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > "$vendors/nvidia.icd"
export OCL_ICD_VENDORS=$vendors

{
  echo "== machine"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  dpkg -l | awk '/pocl-opencl-icd|ocl-icd-libopencl1/ {print $2, $3}'
  gcc --version | head -1
  cmake --version | head -1
} 2>&1 | tee "$logs/machine.txt"

# The benchmark's CUB contender against the newest CCCL where .deps/ has it (else the toolkit's).
echo "== build" | tee "$logs/build.txt"
cccl=$(scripts/cccl_headers.sh "$root/.deps" 2>>"$logs/build.txt" || true)
echo "CUB contender's CCCL: ${cccl:-the CUDA toolkit}" | tee -a "$logs/build.txt"
# Boost.Compute, bench_by_key's OpenCL contender, where .deps/ carried Boost's headers.
boost=""
[ -f "$deps/usr/include/boost/compute.hpp" ] && boost="$deps/usr/include"
echo "Boost.Compute contender's headers: ${boost:-none}" | tee -a "$logs/build.txt"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$deps/usr" \
  -DOCL_REDUCE_BENCH_CUB=ON -DOCL_REDUCE_BENCH_AXES_ANCHORS=ON \
  -DOCL_REDUCE_BENCH_PAIR_ANCHORS=ON -DOCL_REDUCE_BENCH_BY_KEY_ANCHOR=ON \
  -DOCL_REDUCE_CCCL_INCLUDE="$cccl" -DOCL_REDUCE_BOOST_INCLUDE="$boost" \
  >>"$logs/build.txt" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" >>"$logs/build.txt" 2>&1
status=$?
grep -E "warning|error" "$logs/build.txt" | head -20
if [ $status -ne 0 ]; then
  tail -40 "$logs/build.txt"
  exit 1
fi

echo "== devices"
"$build/tools/ocl-reduce" info 2>&1 | tee "$logs/info.txt"

if [ $build_only = 1 ]; then
  exit 0
fi

if [ -n "$fuzz" ]; then
  echo "== fuzz, $fuzz s on each implementation and path"
  # One fuzzer per implementation and path, all at once (the GPU's share the card, PoCL's the
  # cores); each prints its cases, results compared and mismatches, and a failure's replay command.
  (cd "$build" && OCL_REDUCE_FUZZ_SECONDS=$fuzz timeout $((fuzz + 240)) ctest -V -R '^fuzz(_mpi)?\[' \
    -j 16 >"$logs/fuzz.txt" 2>&1)
  status=$?
  grep -E "^[0-9]+: (# device|# fuzz(_mpi)?: [0-9]|FAIL|  replay)|tests passed|tests failed" "$logs/fuzz.txt" |
    head -80
  exit $status
fi

echo "== suite${part:+, part $part}"
# Verbose, so that the log also shows what each program ran on and the >2^32-element cases; the
# PoCL tests use every core, the GPU ones hardly any.
start=$(date +%s)
(cd "$build" && OCL_REDUCE_TEST_HUGE=1 timeout "${SUITE_TIMEOUT:-520}" ctest -V --no-tests=error \
  -j "${SUITE_JOBS:-8}" "${part_select[@]}" >"$logs/ctest.txt" 2>&1)
status=$?
echo "suite${part:+ part $part}: $(( $(date +%s) - start )) s, status $status"
grep -E "^ *[0-9]+/[0-9]+ Test +#|tests passed|tests failed|The following tests" "$logs/ctest.txt" |
  sed -E 's/^ *//'
grep -E "^[0-9]+: .*(\*\*\*Failed|FAILED|ERROR|mismatch)" "$logs/ctest.txt" | head -40

echo "== inputs over 2^31 bytes and 2^32 elements, per implementation"
# The lines of the large[...] programs: ctest -V prefixes each line with the test's number.
awk -F': ' '/test_(host_input|device_buffer)_over_2/ {large[$1] = 1} {line[NR] = $0; num[NR] = $1}
  END {for (i = 1; i <= NR; i++) if (large[num[i]] && line[i] ~ /# device|\[ +(OK|SKIPPED|FAILED) +\] test_|# skipped/) print line[i]}' \
  "$logs/ctest.txt" | sed -E 's/# device ([^;]*);.*/# device \1/'

echo "== kernel build warnings (lines of the implementations' build logs)"
grep -E "^[0-9]+: .*warning" "$logs/ctest.txt" | grep -E "\.(cl|cu)[:(]" | sed -E 's/^[0-9]+: //' | sort | uniq -c | sort -rn | head -20

if [ $bench = 1 ]; then
  echo "== benchmarks"
  bench=$build/tools/ocl-reduce
  {
    echo "-- NVIDIA OpenCL, f32 sum, 2^28 and 2^24: inline-PTX shuffles against the local path"
    OCL_REDUCE_DEVICE=NVIDIA "$bench" bench --n 268435456 --reps 50 --paths opencl/local,opencl/subgroup:ptx
    OCL_REDUCE_DEVICE=NVIDIA "$bench" bench --n 16777216 --reps 100 --paths opencl/local,opencl/subgroup:ptx
    echo "-- PoCL 5.0 on the host CPU, f32 sum, 2^24: every path"
    OCL_REDUCE_DEVICE=Portable "$bench" bench --n 16777216 --reps 50 \
      --paths local,subgroup:khr,subgroup:builtin
  } 2>&1 | tee "$logs/bench.txt"
fi
exit $status
