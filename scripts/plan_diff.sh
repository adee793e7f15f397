#!/usr/bin/env bash
# Whether two trees plan alike: tests/plan_dump.c compiled against each tree's planner (its static
# library and headers), run, and the dumps compared. A change that must keep every plan (moving
# the planner's code, splitting its functions) shows none; a tuning change shows what it moved.
# No device is needed. Trees before the planner's folder (src/core) are read too.
#   scripts/plan_diff.sh <old tree> [<new tree, default this one>]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
old=$(cd "$1" && pwd)
new=$(cd "${2:-$here}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dump() { # <tree> <name>
  local tree=$1 name=$2 header=planner/planner.h extra=()
  if [ ! -f "$tree/src/planner/planner.h" ]; then
    header=core/planner.h extra=(-Dwarp_size=nv_warp_size) # before the folders by layer
  fi
  cmake -S "$tree" -B "$work/$name" -DCMAKE_BUILD_TYPE=Release -DOCL_REDUCE_BUILD_TESTS=OFF \
    -DOCL_REDUCE_BUILD_TOOLS=OFF -DOCL_REDUCE_BUILD_EXAMPLES=OFF -DOCL_REDUCE_MPI=OFF >/dev/null
  cmake --build "$work/$name" -j "$(nproc)" --target ocl_reduce_static >/dev/null
  cc -O1 -std=c11 -D_POSIX_C_SOURCE=200809L "-DPLANNER_H=\"$header\"" "${extra[@]}" \
    -I"$tree/src" -I"$tree/cl" -I"$tree/include" "$here/tests/plan_dump.c" \
    "$work/$name/libocl_reduce.a" -lOpenCL -lpthread -ldl -lm -o "$work/$name.dump"
  "$work/$name.dump" >"$work/$name.txt"
}
dump "$old" old
dump "$new" new
if cmp -s "$work/old.txt" "$work/new.txt"; then
  echo "plan_diff: $(wc -l <"$work/new.txt") plans and policy strings, identical"
else
  diff "$work/old.txt" "$work/new.txt" | head -40 || true # diff's status 1 under pipefail
  echo "plan_diff: $(diff "$work/old.txt" "$work/new.txt" | grep -c '^>') lines differ"
  exit 1
fi
