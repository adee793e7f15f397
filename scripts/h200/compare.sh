#!/usr/bin/env bash
# Run on the H200 machine: the benchmark tables of scripts/h200/bench.sh for two builds side by side
# in one run, the tree before a change (its source in $1, e.g. a checkout of the last main carried
# along) and this tree, so that a change is measured against the previous main on the same
# machine, the same day. Each table runs ROUNDS times (default 2) per build, the builds taking
# turns and the first of each round alternating; bench/bench_compare.py compares medians row by
# row. Writes the CSVs and the comparison to $OUT (else ./h200-logs).
#   scripts/h200/compare.sh <old source dir>
#   TABLES="segments argmin" ROUNDS=1 scripts/h200/compare.sh <old source dir>   some tables, once
# (tables: sum types segments argmin cross, by default; states; half, f16/bf16 elements; windows,
# sliding windows through bench_windows on both backends, WINDOWS=3,32,... and
# WINDOW_OPS=sum,argmax,... to choose them)
# Both libraries run under this tree's ocl-reduce (the old one through LD_LIBRARY_PATH, which the
# tool's RUNPATH gives way to), so that a change to the benchmark itself does not show as a change
# of the library; OLD_TOOL=1 runs the old tree's own tool instead.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
old_src=$(cd "$1" && pwd)
logs=${OUT:-$root/h200-logs}
rounds=${ROUNDS:-2}
mkdir -p "$logs"
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd OCL_REDUCE_DEVICE=NVIDIA
if [ ! -d "$OCL_ICD_VENDORS" ]; then
  mkdir -p "$OCL_ICD_VENDORS"
  cp /etc/OpenCL/vendors/*.icd "$OCL_ICD_VENDORS"/ 2>/dev/null || true
  echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > "$OCL_ICD_VENDORS/nvidia.icd"
fi

# The two builds (no tests): the old one always fresh, this tree's reused from run_suite.sh. The
# old tree's library is all this tree's tool loads, so only OLD_TOOL=1 builds its tool and CUB
# contender (nvcc's minute or more).
build() {
  local cub=ON target=()
  [ "${3:-}" = library ] && cub=OFF target=(--target ocl_reduce)
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DOCL_REDUCE_BUILD_TESTS=OFF \
    -DOCL_REDUCE_BENCH_CUB=$cub >"$2.log" 2>&1 &&
    cmake --build "$2" -j "$(nproc)" "${target[@]}" >>"$2.log" 2>&1 || { tail -30 "$2.log"; exit 1; }
}
echo "== builds"
build "$old_src" /tmp/ocl-reduce-old "$([ "${OLD_TOOL:-0}" = 1 ] || echo library)"
[ -x /tmp/ocl-reduce-h200/tools/ocl-reduce ] || build "$root" /tmp/ocl-reduce-h200
tool=/tmp/ocl-reduce-h200/tools/ocl-reduce
declare -A bench=([old]=$tool [new]=$tool)
declare -A library=([old]=/tmp/ocl-reduce-old [new]=/tmp/ocl-reduce-h200)
[ "${OLD_TOOL:-0}" = 1 ] && bench[old]=/tmp/ocl-reduce-old/tools/ocl-reduce

# The tables of scripts/h200/bench.sh.
table_args() {
  case $1 in
    sum) echo "--paths cuda/auto,opencl/subgroup:ptx,opencl/local --sizes 10:28:2" ;;
    types) echo "--paths cuda/auto,opencl/subgroup:ptx --n 268435456 --types i32,f32,f64 --ops sum,min,max" ;;
    segments) echo "--segments sweep --reps 20 --paths cuda/auto,opencl/auto,cuda/auto@seg=mr,cuda/auto@seg=staged,cuda/auto@seg=group" ;;
    argmin) echo "--paths cuda/auto,opencl/auto --sizes 16:28:2 --types f32,f64 --ops argmin,argmax" ;;
    cross) echo "--paths cuda/auto,opencl/auto --sizes 16:28:2 --types f32,f64 --ops sum,sum_reproducible" ;;
    half)
      echo "--paths cuda/auto,opencl/subgroup:ptx,opencl/local --n 268435456 --types f16,bf16" \
        "--ops sum,min,max" ;;
    states) echo "--paths cuda/auto,opencl/auto --sizes 16:28:4 --types f32,f64 --ops mean_var,sum_compensated,minmax" ;;
  esac
}
# The windows table: bench_windows (the tool's bench has no windows) over f32 2^26 through both
# backends, every result checked against the host's; its rows written as the tool's CSV rows
# (the window as the segment length, device time as the end-to-end time) for
# bench/bench_compare.py.
windows_csv() { # <library directory> <csv>
  local b device status=0 count=67108864
  echo "op,type,n,segment_length,contender,device_gbs,end_to_end_us" >"$2"
  for b in cuda opencl; do
    device=NVIDIA
    [ $b = cuda ] && device=cuda:0
    LD_LIBRARY_PATH=$1 OCL_REDUCE_BACKEND=$b OCL_REDUCE_DEVICE=$device \
      /tmp/ocl-reduce-h200/bench/bench_windows speed $count 10 \
      "${WINDOWS:-3,32,1000,2000,4097,5000,20000,100000,1000000}" "${WINDOW_OPS:-sum,min,max}" |
      awk -v b="$b" -v n=$count '/^  window /{
        printf "%s,f32,%s,%s,ocl_reduce %s windows,%s,%s\n", $3, n, $2, b, $6, $4}' \
        >>"$2" || { echo "bench_windows through $b failed (above)" >&2; status=1; }
  done
  return $status
}
for table in ${TABLES:-sum types segments argmin cross}; do
  for round in $(seq 1 "$rounds"); do
    order="old new"
    [ $((round % 2)) -eq 0 ] && order="new old"
    for tree in $order; do
      echo "== $table, round $round, $tree"
      if [ "$table" = windows ]; then
        windows_csv "${library[$tree]}" "$logs/$tree-$table-$round.csv" \
          2>"$logs/$tree-$table-$round.err" || tail -5 "$logs/$tree-$table-$round.err"
        continue
      fi
      # shellcheck disable=SC2046
      LD_LIBRARY_PATH=${library[$tree]} \
        "${bench[$tree]}" bench $(table_args "$table") --csv "$logs/$tree-$table-$round.csv" \
        > "$logs/$tree-$table-$round.txt" 2>"$logs/$tree-$table-$round.err" ||
        tail -5 "$logs/$tree-$table-$round.err"
    done
  done
  olds=$(seq -f "$logs/old-$table-%g.csv" 1 "$rounds" | paste -sd,)
  news=$(seq -f "$logs/new-$table-%g.csv" 1 "$rounds" | paste -sd,)
  python3 bench/bench_compare.py "$olds" "$news" | tee "$logs/compare-$table.txt"
done
