#!/bin/sh
# The source tree keeps its layers (README, "Layout"): no include cycle among the library's files,
# src/core never includes src/api, a backend includes no other backend nor anything of src/core
# beyond the few headers of backend.h's level, and no file of src/ is longer than 400 lines.
# Usage: tests/check_layout.sh <repository root>. Prints what is wrong and exits 1.
set -u
cd "$1" || exit 1
status=0
fail() { echo "layout: $*"; status=1; }

# Every quoted include of every file under src/ and cl/, as "file included" pairs, with the
# included path relative to its root (src/ for the library, cl/ for kernels).
pairs=$(for f in $(find src cl -name '*.[ch]' -o -name '*.cl' | sort); do
  root=${f%%/*}
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
    case $inc in
      orx_contract.h) echo "$f cl/orx_contract.h" ;;
      ocl_reduce.h | ocl_reduce_mpi.h) ;;
      *) echo "$f $root/$inc" ;;
    esac
  done
done)

# No cycle: tsort reports one as a loop.
if ! echo "$pairs" | tsort >/dev/null 2>/tmp/orx_layout_tsort.$$; then
  fail "include cycle: $(cat /tmp/orx_layout_tsort.$$)"
fi
if grep -q loop /tmp/orx_layout_tsort.$$ 2>/dev/null; then
  fail "include cycle: $(cat /tmp/orx_layout_tsort.$$)"
fi
rm -f /tmp/orx_layout_tsort.$$

echo "$pairs" | while read -r file inc; do
  case $file in
    src/core/*) case $inc in src/api/*) fail "$file includes $inc: core must not depend on the API" ;; esac ;;
    src/backends/*)
      case $inc in
        src/api/* | src/core/context.h | src/core/planner.h | src/core/program.h)
          fail "$file includes $inc: a backend sees only backend.h's level" ;;
        src/backends/*/*)
          b=${file#src/backends/}; i=${inc#src/backends/}
          [ "${b%%/*}" = "${i%%/*}" ] || fail "$file includes $inc: backends do not include each other" ;;
      esac ;;
  esac
  # Every included file exists.
  [ -f "$inc" ] || fail "$file includes $inc, which does not exist"
done | sort -u | grep . && status=1

for f in $(find src -name '*.[ch]'); do
  lines=$(wc -l < "$f")
  [ "$lines" -le 400 ] || fail "$f has $lines lines (at most 400: split it by concept)"
done
[ $status -eq 0 ] && echo "layout: $(echo "$pairs" | wc -l) includes, no cycle, layers kept"
exit $status
