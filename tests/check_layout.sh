#!/bin/sh
# The source tree keeps its layers (README, "Layout"): no include cycle among the library's files,
# src/core never includes src/api, a backend includes no other backend nor anything of src/core
# beyond the few headers of backend.h's level, src/group sees contexts only through
# core/context_facts.h, and no file of src/ is longer than 400 lines. Given the library's object
# files, the same at the level of calls (nm): no cycle of calls between files, and each layer
# calls only downward (group -> api -> core -> backends -> the core's foundation: errors,
# utilities, kernel sources).
# Usage: tests/check_layout.sh <repository root> [<object directory>]. Prints what is wrong and
# exits 1.
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
      ocl_reduce.h | ocl_reduce_group.h | ocl_reduce_program.h | ocl_reduce_mpi.h) ;;
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
    src/core/*) case $inc in src/api/* | src/group/*) fail "$file includes $inc: core must not depend on the API" ;; esac ;;
    src/api/*) case $inc in src/group/*) fail "$file includes $inc: the API must not depend on groups" ;; esac ;;
    src/group/*) case $inc in src/core/context.h) fail "$file includes $inc: groups see contexts through core/context_facts.h" ;; esac ;;
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

# Calls, from the object files: "caller-file callee-file" for every symbol a file uses that another
# defines.
objects=${2:-}
if [ -n "$objects" ]; then
  if ! command -v nm >/dev/null; then
    fail "nm is missing: the call-level check cannot run"
  else
    defs=$(mktemp) uses=$(mktemp)
    for o in $(find "$objects" -name '*.o' | sort); do
      src=${o#"$objects"/}
      src=${src%.o}
      case $src in src/*) ;; *) continue ;; esac
      nm --defined-only -g "$o" | awk -v f="$src" 'NF == 3 { print $3, f }' >>"$defs"
      nm -u "$o" | awk -v f="$src" '{ print $NF, f }' >>"$uses"
    done
    calls=$(sort "$uses" | join - "$(sort "$defs" >"$defs.sorted" && echo "$defs.sorted")" |
      awk '$2 != $3 { print $2, $3 }' | sort -u)
    rm -f "$defs" "$defs.sorted" "$uses"
    if ! echo "$calls" | tsort >/dev/null 2>"/tmp/orx_calls_tsort.$$" ||
      grep -q loop "/tmp/orx_calls_tsort.$$"; then
      fail "call cycle between files: $(tr '\n' ' ' <"/tmp/orx_calls_tsort.$$")"
    fi
    rm -f "/tmp/orx_calls_tsort.$$"
    # The core's foundation (errors, utilities, kernel sources) lies below the backends.
    layer() {
      case $1 in
        src/group/*) echo 5 ;; src/api/*) echo 4 ;;
        src/core/errors.c | src/core/util.c | src/core/sources.c) echo 1 ;;
        src/core/*) echo 3 ;; *) echo 2 ;;
      esac
    }
    bad=$(echo "$calls" | while read -r caller callee; do
      [ -n "$caller" ] || continue
      [ "$(layer "$caller")" -ge "$(layer "$callee")" ] || echo "$caller calls $callee, a layer above it"
    done)
    [ -z "$bad" ] || { echo "$bad" | sed 's/^/layout: /'; status=1; }
    [ -z "$bad" ] && [ $status -eq 0 ] &&
      echo "layout: $(echo "$calls" | grep -c .) calls between files, no cycle, each layer calls downward"
  fi
fi
exit $status
