#!/usr/bin/env bash
# Run on the H200 machine (Ubuntu 24.04, PoCL 5.0, NVIDIA's OpenCL not registered, no cmocka):
# builds ocl_reduce and runs the whole test suite on every implementation and path there, then the
# tool's device listing. Logs go to $OUT when it is set (the device tool's output folder), else to
# ./h200-logs. Needs .deps/ from tools/h200/fetch_deps.sh.
#   tools/h200/run_suite.sh            the suite, >2^32-element tests included
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
logs=${OUT:-$root/h200-logs}
mkdir -p "$logs"
build=/tmp/ocl-reduce-h200

# cmocka from the carried Debian packages.
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

echo "== build" | tee "$logs/build.txt"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$deps/usr" \
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

echo "== suite"
(cd "$build" && OCL_REDUCE_TEST_HUGE=1 ctest --output-on-failure --no-tests=error -j 2 \
  >"$logs/ctest.txt" 2>&1)
status=$?
grep -E "Test +#|tests passed|tests failed" "$logs/ctest.txt"
grep -E "SKIPPED|skipped:" "$logs/ctest.txt" | sort | uniq -c | head -20
exit $status
