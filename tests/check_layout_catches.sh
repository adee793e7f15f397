#!/bin/sh
# tests/check_layout.sh fails on each rule broken: copies of the tree with one upward, sideways
# or cyclic include each (the library's layers, and the tool and benchmark's), a folder in no
# layer, a long file, a long function, and object files with an upward call. The unbroken copy passes, so each
# failure is the break's.
# Usage: tests/check_layout_catches.sh <repository root> <C compiler>
set -u
root=$(cd "$1" && pwd) || exit 1
cc=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# A fresh copy of the tree in $work/tree.
fresh() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree"
  cp -r "$root/src" "$root/cl" "$root/include" "$root/tools" "$root/bench" "$root/common" "$work/tree/"
}

# expect_failure "what" "message part" [objects]: check_layout.sh must fail and say it.
expect_failure() {
  out=$(sh "$root/tests/check_layout.sh" "$work/tree" ${3:+"$3"} 2>&1)
  rc=$?
  if [ $rc -eq 0 ] || ! echo "$out" | grep -qF "$2"; then
    echo "FAIL: $1: check_layout.sh exited $rc without '$2':"
    echo "$out" | sed 's/^/    /'
    status=1
  else
    echo "ok: $1: $(echo "$out" | grep -F "$2" | head -n 1)"
  fi
}

fresh
if out=$(sh "$root/tests/check_layout.sh" "$work/tree" 2>&1); then
  echo "ok: the unbroken copy passes"
else
  echo "FAIL: the unbroken copy fails:"
  echo "$out" | sed 's/^/    /'
  status=1
fi

fresh
echo '#include "exec/context.h"' >>"$work/tree/src/base/util.c"
expect_failure "an upward include" "src/base may not use src/exec"

fresh
echo '#include "backends/backend.h"' >>"$work/tree/src/planner/planner.c"
expect_failure "a sideways include (planner to backends)" "src/planner may not use src/backends"

fresh
echo '#include "backends/opencl/opencl.h"' >>"$work/tree/src/backends/cuda/copies.c"
expect_failure "a backend including another" "src/backends/cuda may not use src/backends/opencl"

fresh
echo '#include "backends/opencl/opencl.h"' >>"$work/tree/src/exec/launch.c"
expect_failure "execution reaching one backend past the table" \
  "src/exec may not use src/backends/opencl"

fresh
echo '#include "exec/context.h"' >>"$work/tree/src/group/group.c"
expect_failure "groups past the context's facts" "groups see contexts through exec/context_facts.h"

fresh
echo '#include "base/util.h"' >"$work/tree/src/base/cycle_a.h"
echo '#include "base/cycle_a.h"' >>"$work/tree/src/base/util.h"
expect_failure "an include cycle" "include cycle"

fresh
mkdir -p "$work/tree/src/newlayer"
echo 'int orx_new(void);' >"$work/tree/src/newlayer/new.h"
expect_failure "a folder in no layer" "src/newlayer is in no layer"

fresh
i=0
while [ $i -lt 401 ]; do echo "/* line */"; i=$((i + 1)); done >>"$work/tree/src/base/util.c"
expect_failure "a file over 400 lines" "src/base/util.c has"

fresh
echo '#include "tool.h"' >>"$work/tree/bench/bench_report.c"
expect_failure "the benchmark using the tool" "bench may not use tools"

fresh
echo '#include "bench.h"' >>"$work/tree/common/tool_args.c"
expect_failure "the shared helpers using the benchmark" "common may not use bench"

fresh
{
  echo "int orx_long_function(int x) {"
  i=0
  while [ $i -lt 60 ]; do echo "  x += $i;"; i=$((i + 1)); done
  echo "  return x;"
  echo "}"
} >>"$work/tree/src/base/ids.c"
expect_failure "a function over 60 lines" "orx_long_function() has 63 lines"

# Calls: a foundation file calling a function of execution, as object files.
fresh
objects=$work/objects
mkdir -p "$objects/src/base" "$objects/src/exec"
echo 'int orx_exec_thing(void) { return 1; }' >"$work/exec_thing.c"
echo 'int orx_exec_thing(void); int orx_base_thing(void) { return orx_exec_thing(); }' \
  >"$work/base_thing.c"
if "$cc" -c "$work/exec_thing.c" -o "$objects/src/exec/thing.c.o" &&
  "$cc" -c "$work/base_thing.c" -o "$objects/src/base/thing.c.o"; then
  expect_failure "an upward call" "src/base/thing.c calls src/exec/thing.c" "$objects"
else
  echo "FAIL: $cc could not compile the call test's objects"
  status=1
fi

[ $status -eq 0 ] && echo "check_layout.sh catches every break tried"
exit $status
