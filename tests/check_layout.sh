#!/bin/sh
# The source tree keeps its layers (docs/DEVELOPING.md, "Layers"). Each folder of src/ lists the
# folders below it that it may use (uses(), the one table of them); a file includes, and calls,
# only files of its own folder and of those. No exception for any file. Besides: no include
# cycle among all files of src/ and cl/, src/group sees contexts only through
# exec/context_facts.h, no file of src/ is longer than 400 lines and no function longer than 60.
# Given the library's object files, the same at the level of calls (nm): no cycle of calls
# between files, and each call goes to the caller's folder or to one it may use. The programs on
# the library (tools/, bench/, common/) keep one way between them too (program_uses()).
# Usage: tests/check_layout.sh <repository root> [<object directory>]. Prints what is wrong and
# exits 1. tests/check_layout_catches.sh shows it failing on a tree that breaks each rule.
set -u
set -f # the table of uses() holds patterns: no file names expanded
cd "$1" || exit 1
status=0
fail() { echo "layout: $*"; status=1; }

# The folder a file belongs to, into $dir: a backend's own folder, else the file's directory.
# (Into a variable, not printed: the checks ask it for every include and call, and a $(...) a
# time forked thousands of subshells, most of the check's time.)
folder() {
  case $1 in
    src/backends/*/*) rest=${1#src/backends/}; dir="src/backends/${rest%%/*}" ;;
    src/*/*) rest=${1#src/}; dir="src/${rest%%/*}" ;;
    cl/*) dir=cl ;;
    *) dir="${1%/*}" ;;
  esac
}

# The folders each folder may use besides its own, lowest layers first. cl/: the kernels and the
# contract the host shares with them. Backends stand beside the planner, on the foundation; the
# registry lists the backends; execution runs the planner's plans on a backend or on the host
# kernels; the API calls execution; groups of devices stand on the API's level through
# execution's narrow facts; the MPI component uses only the public headers.
uses() {
  case $1 in
    cl) ;;
    src/base) echo "cl" ;;
    src/planner | src/backends) echo "src/base cl" ;;
    src/backends/registry) echo "src/backends/* src/backends src/base cl" ;;
    src/backends/*) echo "src/backends src/base cl" ;;
    src/host) echo "src/planner src/base cl" ;;
    src/exec) echo "src/host src/backends/registry src/backends src/planner src/base cl" ;;
    src/api) echo "src/exec src/host src/backends/registry src/backends src/planner src/base cl" ;;
    src/group) echo "src/api src/exec src/planner src/base cl" ;;
    src/mpi) ;;
    *) echo "?" ;;
  esac
}

# Whether folder $1 may use folder $2; each pair decided once ($known, within one shell).
known=""
may_use() {
  [ "$1" = "$2" ] && return 0
  case " $known " in
    *" $1>$2=yes "*) return 0 ;;
    *" $1>$2=no "*) return 1 ;;
  esac
  for allowed in $(uses "$1"); do
    # shellcheck disable=SC2254 # the table's patterns (src/backends/*) match here
    case $2 in $allowed) [ "$2" != "$1" ] && known="$known $1>$2=yes" && return 0 ;; esac
  done
  known="$known $1>$2=no"
  return 1
}

# Every folder holding sources (an emptied one left behind in a working tree holds none).
for f in $(find src -name '*.[ch]' -o -name '*.inc' | xargs -n 1 dirname | sort -u); do
  folder "$f/x"
  [ "$(uses "$dir")" = "?" ] && fail "$f is in no layer: add it to uses() here and to docs/DEVELOPING.md"
done

# Every quoted include of every file under src/ and cl/, as "file included" pairs, resolved as the
# compiler does: against src/ for the library, then cl/ (the kernels' root); the public headers
# of include/ and what the build generates (generated/) are left out.
# (One awk reads every file's includes.)
pairs=$(find src cl -name '*.[ch]' -o -name '*.cl' -o -name '*.inc' | sort | xargs awk '
  /^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc); print FILENAME, inc }' |
  while read -r f inc; do
    root=${f%%/*}
    case $inc in generated/*) continue ;; esac
    if [ -f "include/$inc" ]; then continue; fi
    if [ -f "$root/$inc" ]; then echo "$f $root/$inc"
    elif [ -f "cl/$inc" ]; then echo "$f cl/$inc"
    else echo "$f $root/$inc"; fi
  done)

# No cycle: tsort reports one as a loop.
tsort_log=$(mktemp)
if ! echo "$pairs" | tsort >/dev/null 2>"$tsort_log" || grep -q loop "$tsort_log"; then
  fail "include cycle: $(tr '\n' ' ' <"$tsort_log")"
fi
rm -f "$tsort_log"

bad=$(echo "$pairs" | while read -r file inc; do
  [ -f "$inc" ] || echo "layout: $file includes $inc, which does not exist"
  folder "$file"; from=$dir
  folder "$inc"; to=$dir
  may_use "$from" "$to" || echo "layout: $file includes $inc: $from may not use $to (uses: $(uses "$from"))"
  case $file:$inc in
    src/group/*:src/exec/context.h) echo "layout: $file includes $inc: groups see contexts through exec/context_facts.h" ;;
  esac
done | sort -u)
[ -z "$bad" ] || { echo "$bad"; status=1; }

# The programs on the library, one way too: the tool (tools/) uses the benchmark's harness
# (bench/) and the helpers both share (common/); the benchmark uses those helpers; they use
# neither. Includes resolve against the including file's folder, then those it may use.
program_uses() {
  case $1 in tools) echo "bench common" ;; bench) echo "common" ;; common) ;; esac
}
bad=$(for dir in tools bench common; do
  [ -d "$dir" ] || continue
  for f in $(find "$dir" -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' | sort); do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
      [ -f "$dir/$inc" ] && continue
      [ -f "include/$inc" ] && continue
      found=""
      for other in $(program_uses "$dir"); do [ -f "$other/$inc" ] && found=$other; done
      if [ -z "$found" ]; then
        for other in tools bench common; do
          [ -f "$other/$inc" ] && echo "layout: $f includes $other/$inc: $dir may not use $other"
        done
      fi
    done
  done
done | sort -u)
[ -z "$bad" ] || { echo "$bad"; status=1; }

# The core header reads in one sitting: its declarations with their one-line contracts, the
# reference in docs/API.md.
header_lines=$(wc -l <include/ocl_reduce.h)
[ "$header_lines" -le 450 ] ||
  fail "include/ocl_reduce.h has $header_lines lines (at most 450: the detail goes to docs/API.md)"

for f in $(find src -name '*.[ch]'); do
  lines=$(wc -l < "$f")
  [ "$lines" -le 400 ] || fail "$f has $lines lines (at most 400: split it by concept)"
done
# Functions of one concept: none longer than 60 lines, from its signature's first line (column 0,
# an identifier then '(') to the '}' in column 0 that closes it; data (lines with '=') and types
# are not functions.
long=$(awk -v limit=60 '
  FNR == 1 { start = 0; pending = 0 }
  start == 0 && /^[A-Za-z_].*\(/ && !/=/ && !/^(typedef|struct|enum|union)/ && !/;[[:space:]]*$/ {
    pending = FNR; name = $0; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n]
  }
  start == 0 && pending && /\{[[:space:]]*$/ { start = pending; pending = 0; next }
  start == 0 && pending && /;[[:space:]]*$/ { pending = 0 }
  start && /^}/ {
    if (FNR - start + 1 > limit)
      printf "layout: %s: %s() has %d lines (at most %d: split it by concept)\n", FILENAME, name,
        FNR - start + 1, limit
    start = 0
  }' $(find src -name '*.c' -o -name '*.inc' | sort))
[ -z "$long" ] || { echo "$long"; status=1; }
[ $status -eq 0 ] && echo "layout: $(echo "$pairs" | wc -l) includes, no cycle, each folder uses only those below it"

# Calls, from the object files: "caller-file callee-file" for every symbol a file uses that another
# defines.
objects=${2:-}
if [ -n "$objects" ]; then
  if ! command -v nm >/dev/null; then
    fail "nm is missing: the call-level check cannot run"
  else
    defs=$(mktemp) uses_list=$(mktemp) folders=$(mktemp) bad_folders=$(mktemp)
    # One nm over every object of src/ (-A: each line names its file), split into the symbols each
    # file defines and those it uses (nm prints a used one as "U sym" or "w sym", two fields).
    (cd "$objects" && find src -name '*.o' | sort | xargs -r nm -A -g 2>/dev/null) |
      awk -v defs="$defs" -v uses="$uses_list" '
      { i = index($0, ":"); f = substr($0, 1, i - 1); sub(/\.o$/, "", f)
        n = split(substr($0, i + 1), w, " ")
        if (n == 3) print w[3], f > defs; else if (n == 2) print w[2], f > uses }'
    calls=$(sort "$uses_list" | join - "$(sort "$defs" >"$defs.sorted" && echo "$defs.sorted")" |
      awk '$2 != $3 { print $2, $3 }' | sort -u)
    rm -f "$defs" "$defs.sorted" "$uses_list"
    tsort_log=$(mktemp)
    if ! echo "$calls" | tsort >/dev/null 2>"$tsort_log" || grep -q loop "$tsort_log"; then
      fail "call cycle between files: $(tr '\n' ' ' <"$tsort_log")"
    fi
    rm -f "$tsort_log"
    # Each file's folder, and then each pair of folders, decided once (a $(...) per call forked
    # some 2000 subshells: 11 s of the check's 12).
    echo "$calls" | tr ' ' '\n' | sort -u | while read -r f; do
      [ -n "$f" ] && folder "$f" && echo "$f $dir"
    done >"$folders"
    folder_calls=$(echo "$calls" | awk 'NR == FNR { dir[$1] = $2; next }
      NF == 2 { print $1, $2, dir[$1], dir[$2] }' "$folders" -)
    echo "$folder_calls" | awk 'NF == 4 { print $3, $4 }' | sort -u | while read -r from to; do
      may_use "$from" "$to" || echo "$from $to"
    done >"$bad_folders"
    bad=$(echo "$folder_calls" | awk 'NR == FNR { bad[$1 " " $2] = 1; next }
      NF == 4 && ($3 " " $4) in bad {
        printf "layout: %s calls %s: %s may not use %s\n", $1, $2, $3, $4 }' "$bad_folders" -)
    rm -f "$folders" "$bad_folders"
    [ -z "$bad" ] || { echo "$bad"; status=1; }
    [ -z "$bad" ] && [ $status -eq 0 ] &&
      echo "layout: $(echo "$calls" | grep -c .) calls between files, no cycle, each folder calls only those below it"
  fi
fi
exit $status
