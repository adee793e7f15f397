#!/usr/bin/env bash
# Run on the H200 machine after scripts/h200/run_suite.sh --build-only (issue 54's measurements):
#   1. the trust tests on every implementation and path: handles and misuse, operator text, the
#      shared context (8 threads x 1,000 calls), the cache's attacks, MPI's agreement;
#   2. the cost of a shared-safe call at 2^10 elements against the tree before (its source in $1,
#      e.g. a checkout of the last main carried along), one build after the other, ROUNDS rounds
#      (default 5) alternating, on CUDA and on PoCL 5 (the host CPU): medians of the end-to-end
#      time and their ratio; then both builds in one pinned process (call_ab.c);
#   3. a process's first call, cold (an empty program cache, the implementations' own caches off)
#      against warm (after `ocl-reduce cache warm`), on PoCL 5, NVIDIA's OpenCL and CUDA.
# STEPS (default 123) picks the parts. Logs and CSVs go to $OUT (else ./h200-logs).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
logs=${OUT:-$root/h200-logs}
mkdir -p "$logs"
build=/tmp/ocl-reduce-h200
tool=$build/tools/ocl-reduce
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd
[ -x "$tool" ] || { echo "trust.sh: run scripts/h200/run_suite.sh --build-only first" >&2; exit 1; }

steps=${STEPS:-123}
if [[ $steps == *1* ]]; then
echo "== 1. trust tests"
(cd "$build" && timeout 400 ctest --no-tests=error -j 8 \
  -R '^(trust|shared|cache_trust|cache|errors|errors_many|threads|mpi|tool_cli)(\[|$)' \
  >"$logs/trust-ctest.txt" 2>&1)
echo "status $?"
grep -E "^ *[0-9]+/[0-9]+ Test +#|tests passed|tests failed" "$logs/trust-ctest.txt" |
  sed -E 's/^ *//'
fi

if [[ $steps == *2* ]] && [ -n "${1:-}" ]; then
  echo "== 2. a call at 2^10 against the tree before"
  old=/tmp/ocl-reduce-old
  cmake -S "$1" -B "$old" -DCMAKE_BUILD_TYPE=Release -DOCL_REDUCE_BUILD_TESTS=OFF \
    -DOCL_REDUCE_BENCH_CUB=OFF >"$old.log" 2>&1 &&
    cmake --build "$old" -j "$(nproc)" --target ocl_reduce >>"$old.log" 2>&1 || tail -20 "$old.log"
  for round in $(seq 1 "${ROUNDS:-5}"); do
    order="old new"
    [ $((round % 2)) -eq 0 ] && order="new old"
    for which in $order; do
      lib=$build
      [ "$which" = old ] && lib=$old
      LD_LIBRARY_PATH=$lib "$tool" bench -d cuda:0 --n 1024 --reps 3000 --no-cub \
        --paths cuda/auto,cuda/host/auto --csv "$logs/call-cuda-$which-$round.csv" \
        >/dev/null 2>&1
      LD_LIBRARY_PATH=$lib "$tool" bench -d pocl --n 1024 --reps 3000 --no-openmp \
        --paths auto,host/auto --csv "$logs/call-pocl-$which-$round.csv" >/dev/null 2>&1
    done
  done
  python3 - "$logs" <<'PY'
import csv, glob, statistics, sys
logs = sys.argv[1]
for device in ("cuda", "pocl"):
    times = {}
    for which in ("old", "new"):
        for path in glob.glob(f"{logs}/call-{device}-{which}-*.csv"):
            for row in csv.DictReader(open(path)):
                times.setdefault((row["contender"], which), []).append(float(row["end_to_end_us"]))
    for contender in sorted({c for c, _ in times}):
        old, new = times.get((contender, "old")), times.get((contender, "new"))
        if old and new:
            o, n = statistics.median(old), statistics.median(new)
            print(f"{device:5} {contender:48} old {o:8.3f} us  new {n:8.3f} us  new/old {n / o:.3f}"
                  f"  (rounds' medians {min(new):.3f}-{max(new):.3f} against "
                  f"{min(old):.3f}-{max(old):.3f})")
PY
fi

if [[ $steps == *2* ]] && [ -n "${1:-}" ]; then
  # Separate processes of one build differ by 1-3 % (above); in one process pinned to a core,
  # alternating batches of the two builds see the same machine (scripts/h200/call_ab.c). Either
  # build loaded first, three times each: B/A is new/old, then old/new.
  echo "== 2b. one process, both builds, alternating batches (pinned to core 5)"
  gcc -O2 -I include scripts/h200/call_ab.c -o /tmp/call_ab -ldl
  new_lib=$build/libocl_reduce.so old_lib=/tmp/ocl-reduce-old/libocl_reduce.so
  for device in pocl cuda:0; do
    calls=20000
    [ "$device" = pocl ] || calls=1000
    for round in 1 2 3; do
      echo "$device new/old: $(OCL_REDUCE_DEVICE=$device taskset -c 5 /tmp/call_ab "$old_lib" \
        "$new_lib" "$calls" 201)"
      echo "$device old/new: $(OCL_REDUCE_DEVICE=$device taskset -c 5 /tmp/call_ab "$new_lib" \
        "$old_lib" "$calls" 201)"
    done
  done
fi

[[ $steps == *3* ]] || exit 0
echo "== 3. a process's first call, cold against warm"
cat >/tmp/first_call.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ocl_reduce.h"
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(void) {
  enum { N = 1 << 20 };
  float *x = malloc(N * sizeof *x), sum = 0;
  for (int i = 0; i < N; i++)
    x[i] = (float)(i % 7);
  const double t0 = now();
  ocl_reduce_context *ctx = NULL;
  if (ocl_reduce_context_create(NULL, &ctx) != OCL_REDUCE_OK)
    return 1;
  const double t1 = now();
  ocl_reduce_status s = ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_F32, x, N, &sum, sizeof sum);
  const double t2 = now();
  printf("context %.1f ms, first call %.1f ms (%s)\n", 1e3 * (t1 - t0), 1e3 * (t2 - t1),
         ocl_reduce_status_name(s));
  ocl_reduce_context_destroy(ctx);
  return s != OCL_REDUCE_OK;
}
C
gcc -O2 -I include /tmp/first_call.c -o /tmp/first_call -L "$build" -locl_reduce \
  -Wl,-rpath,"$build"
for device in pocl nvidia cuda:0; do
  for mode in cold warm cold warm; do
    dir=/tmp/ocl-reduce-first-call
    rm -rf "$dir" && mkdir -m 700 "$dir"
    # The implementations' own caches off: PoCL's kernel cache, NVIDIA's compute cache.
    run=(env OCL_REDUCE_DEVICE=$device OCL_REDUCE_CACHE_DIR=$dir OCL_REDUCE_POLICY=host=off
      POCL_KERNEL_CACHE=0 CUDA_CACHE_DISABLE=1)
    [ "$device" = nvidia ] && run+=(OCL_REDUCE_BACKEND=opencl)
    [ $mode = warm ] && "${run[@]}" "$tool" cache warm --ops sum --types f32 >/dev/null
    echo "$device $mode: $("${run[@]}" /tmp/first_call)"
  done
done 2>&1 | tee "$logs/first-call.txt"
