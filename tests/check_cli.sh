#!/bin/sh
# The ocl-reduce command line against what it must do: each case is the exit status it must have,
# a fixed string its stdout (out:) or stderr (err:) must hold, or a whole line of its stdout
# (line:), the input on stdin, and the arguments. Usage: tests/check_cli.sh path/to/ocl-reduce
set -u
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect STATUS STREAM:TEXT INPUT ARGS...
expect() {
  status=$1 where=${2%%:*} text=${2#*:} input=$3 whole=
  shift 3
  if [ "$where" = line ]; then
    where=out whole=-x
  fi
  printf '%b' "$input" | "$tool" "$@" >"$work/out" 2>"$work/err"
  got=$?
  if [ "$got" -ne "$status" ] || ! grep -qF $whole -- "$text" "$work/$where"; then
    echo "FAILED: ocl-reduce $* (stdin '$input'): exit $got (wanted $status), $where lacks '$text'"
    sed 's/^/  out: /' "$work/out" | head -5
    sed 's/^/  err: /' "$work/err" | head -5
    failures=$((failures + 1))
  fi
}

# Top level and --help everywhere: stdout, exit 0.
expect 0 "out:usage: ocl-reduce <command>" "" --help
expect 2 "err:unknown command 'frobnicate'" "" frobnicate
for command in demo info reduce bench; do
  expect 0 "out:usage: ocl-reduce $command" "" "$command" --help
  expect 0 "out:usage: ocl-reduce $command" "" "$command" -h
  expect 2 "err:unknown option '--bogus'" "" "$command" --bogus
done
expect 2 "err:unexpected argument 'extra'" "" demo extra
expect 2 "err:unexpected argument 'extra'" "" info extra

# reduce: --opt=value, short options, decimal (010 is ten) and 0x, ranges, files.
expect 0 "line:23" "010 0x10 -3" reduce --type=i32
expect 0 "line:16" "010 0x10 -3" reduce -o max -t i32
expect 0 "line:-3" "010 0x10 -3" reduce --op=min --type i64
expect 0 "line:-2147483648" "-2147483648" reduce --type i32
expect 1 "err:'2147483648' is out of range for i32" "2147483648" reduce --type i32
expect 1 "err:'-1' is out of range for u32" "-1" reduce --type u32
expect 0 "line:18446744073709551615" "0xffffffffffffffff" reduce --type u64
expect 1 "err:'18446744073709551616' is out of range for u64" "18446744073709551616" \
  reduce --type u64
expect 1 "err:'12abc' is not a valid i32" "12abc" reduce --type i32
expect 1 "err:'1e39' is out of range for f32" "1e39" reduce --type f32
expect 1 "err:'1e309' is out of range for f64" "1e309" reduce --type f64
expect 0 "line:inf" "inf 1" reduce --type f32
expect 0 "line:0" "1e-50" reduce --type f32
# A NUL inside a number cuts nothing silently.
expect 1 "err:line 1: a NUL byte in the text" "1\\00002" reduce --type i32
expect 2 "err:option '--op' needs a value" "" reduce --op
expect 2 "err:option '-t' needs a value" "" reduce -t
expect 2 "err:--op: unknown operator 'median'" "" reduce --op median
expect 2 "err:--type: unknown type 'f8'" "" reduce --type f8
# 16-bit floats: decimal in, their sums as f32, their MIN and MAX as elements; out of range refused
expect 0 "out:65504.75" "1.5 2.25 -3 65504" reduce --op sum --type f16
expect 0 "out:65536" "1.5 2.25 -3 65504" reduce --op max --type bf16
expect 1 "err:'70000' is out of range for f16" "1 70000" reduce --op sum --type f16
# Decimals rounded once: a tie goes to even, a decimal a hair above it (2^-60, which a double
# cannot hold next to 1) goes up; through a double (and a float) it went to even too.
above_tie_f16=1.000488281250000000867361737988403547205962240695953369140625
above_tie_bf16=1.003906250000000000867361737988403547205962240695953369140625
above_tie_f32=1.000000059604644776257986737988403547205962240695953369140625
expect 0 "line:1" "1.00048828125" reduce --op max --type f16
expect 0 "line:1.00097656" "$above_tie_f16" reduce --op max --type f16
expect 0 "line:1" "1.00390625" reduce --op max --type bf16
expect 0 "line:1.0078125" "$above_tie_bf16" reduce --op max --type bf16
expect 0 "line:1" "1.000000059604644775390625" reduce --op max --type f32
expect 0 "line:1.00000012" "$above_tie_f32" reduce --op max --type f32
expect 0 "line:5.96046448e-08" "3e-8" reduce --op max --type f16
expect 1 "err:'3.4e38' is out of range for bf16" "3.4e38" reduce --op max --type bf16
expect 2 "err:'b' is a second" "" reduce a b
expect 1 "err:is a directory" "" reduce "$work"
expect 1 "err:cannot open $work/missing" "" reduce "$work/missing"
printf '5\n7\n' >"$work/numbers.txt"
expect 0 "line:12" "" reduce --type=u32 "$work/numbers.txt"
expect 0 "line:12" "" reduce --device=cpu --type=u32 "$work/numbers.txt"
expect 1 "err:device selector 'no-such-device' matches none" "1" reduce -d no-such-device
# reduce --op dot A B: pair operators over two files of as many numbers ('-': stdin).
printf '1 2 3\n' >"$work/a.txt"
printf '4 5 -6\n' >"$work/b.txt"
expect 0 "line:-4" "" reduce --op dot --type i32 "$work/a.txt" "$work/b.txt"
expect 0 "line:99" "4 5 -6" reduce --op squared_distance --type f32 "$work/a.txt" -
expect 0 "line:2" "1 2 9" reduce --op count_equal --type f16 "$work/a.txt" -
expect 2 "err:--op dot reduces two files, A and B: 1 given" "" reduce --op dot "$work/a.txt"
expect 1 "err:pairs need as many" "1 2" reduce --op dot "$work/a.txt" -
expect 2 "err:--op abs_distance takes no --shape" "" reduce --op abs_distance --shape 3 a b
# reduce --shape/--axes: column and row sums, every axis, a structured result per line, and the
# shape and axes refused by name.
expect 0 "line:9" "1 2 3\\n4 5 6" reduce --type i32 --shape 2x3 --axes 0
expect 0 "line:15" "1 2 3\\n4 5 6" reduce --type i32 --shape 2x3 --axes 1
expect 0 "line:21" "1 2 3 4 5 6" reduce --type=i32 --shape=2x3
expect 0 "line:6 2" "1 2 3 4 5 6" reduce --op argmax --type f32 --shape 2x3 --axes 1
expect 0 "line:22" "1 2 3 4 5 6 7 8" reduce --type u32 --shape 2x2x2 --axes 0,2
expect 1 "err:--shape 2x3 holds 6 elements, the input 5" "1 2 3 4 5" reduce --shape 2x3
expect 2 "err:--shape '2xx3': extents separated by x" "1" reduce --shape 2xx3
expect 2 "err:--shape '2x-3': '-3' is not an extent" "1" reduce --shape 2x-3
expect 2 "err:--shape '1x1x1x1x1x1x1x1x1': more than 8 extents" "1" reduce --shape 1x1x1x1x1x1x1x1x1
expect 2 "err:--axes '2': '2' is not an axis of the shape (0 .. 1)" "1" reduce --shape 1x1 --axes 2
expect 2 "err:--axes '0,0': axis 0 twice" "1 2" reduce --shape 2 --axes 0,0
expect 2 "err:--axes needs --shape" "1" reduce --axes 0
# reduce --by-key: "key value" pairs, a line per run of equal keys (equal keys apart: two runs).
expect 0 "line:8 30" "3 1\\n3 2\\n3 3\\n8 10\\n8 20\\n3 4\\n5 7" reduce --by-key --type f32
expect 0 "line:3 4" "3 1\\n3 2\\n3 3\\n8 10\\n8 20\\n3 4\\n5 7" reduce --by-key --type f32
expect 0 "line:3 6" "3 1 3 2 3 3" reduce --by-key --type i32 --key-type u32
expect 0 "line:-1 9 1" "-1 4 -1 9 -1 2" reduce --by-key --op argmax --type i32 --key-type i32
expect 1 "err:a key without its value" "1 2 3" reduce --by-key
expect 1 "err:'4294967296' is out of range for u32" "4294967296 1" reduce --by-key --key-type u32
expect 1 "err:key_type f32: keys are i32, u32, i64 or u64" "1 2" reduce --by-key --key-type f32
expect 2 "err:--by-key reads text" "1 2" reduce --by-key --binary
expect 2 "err:--key-type: unknown type 'k8'" "" reduce --by-key --key-type k8
# bench --shape/--axes: one view against the whole-array sum (its results checked by the host).
expect 0 "out:of whole" "" bench --shape 64x96 --axes 0 --reps 2
expect 2 "err:--axes '3': '3' is not an axis of the shape (0 .. 1)" "" bench --shape 10x10 --axes 3
expect 2 "err:--axes needs --shape" "" bench --axes 0
expect 2 "err:--shape: i32, f32 or f64 (--types)" "" bench --shape 4x4 --types u32
# A result that cannot be written (a full disk) is a failure, said so.
if [ -w /dev/full ]; then
  printf '5 7' | "$tool" reduce --type=u32 >/dev/full 2>"$work/err"
  if [ $? -ne 1 ] || ! grep -qF "cannot write the output" "$work/err"; then
    echo "FAILED: ocl-reduce reduce >/dev/full: no failure reported"
    failures=$((failures + 1))
  fi
fi

# cache warm: the common calls' programs into the cache, then found there; its own errors.
export OCL_REDUCE_CACHE_DIR="$work/cache"
# The library's cache on PoCL too (which it otherwise leaves to PoCL's own kernel cache).
outer_policy=${OCL_REDUCE_POLICY-}
export OCL_REDUCE_POLICY="binaries=1${outer_policy:+,$outer_policy}"
expect 0 "out:6 calls: " "" cache warm --ops max --types i32
expect 0 "out: 0 programs built," "" cache warm --ops=max --types=i32
expect 0 "out:entries" "" cache
expect 2 "err:--ops: 'median' is not a built-in operator" "" cache warm --ops sum,median
expect 2 "err:--types: 'f8' is not" "" cache warm --types f8
expect 2 "err:unexpected argument 'now'" "" cache warm now
chmod 777 "$work/cache"
expect 1 "err:is not used: writable by group or others" "" cache warm
expect 0 "out:is not used: writable by group or others" "" cache
chmod 700 "$work/cache"
unset OCL_REDUCE_CACHE_DIR
OCL_REDUCE_POLICY=$outer_policy

# bench: strict numbers, outputs opened first, escaped machine-readable outputs.
expect 2 "err:--n '1e3'" "" bench --n 1e3
expect 2 "err:--n '12abc'" "" bench --n 12abc
expect 2 "err:--reps '5x'" "" bench --reps 5x
expect 2 "err:--warmup '-1'" "" bench --warmup -1
expect 2 "err:--sizes '10:x'" "" bench --sizes 10:x
expect 2 "err:--segments '0'" "" bench --segments 0
expect 1 "err:cannot write $work/no/such.json" "" bench --json "$work/no/such.json"
expect 0 "out:sum f32, n = 2^10" "" bench --quick --sizes=10:12:2 --reps=3 --json="$work/b.json" \
  --svg "$work/b.svg" --csv "$work/b.csv"
if command -v python3 >/dev/null; then
  python3 - "$work" <<'EOF' || failures=$((failures + 1))
import csv, json, sys, xml.etree.ElementTree as tree
work = sys.argv[1]
results = json.load(open(work + "/b.json"))["results"]
assert results and all(r["device_min_us"] <= r["device_us"] <= r["device_p90_us"] for r in results)
tree.parse(work + "/b.svg")
assert len(list(csv.DictReader(open(work + "/b.csv")))) == len(results)
EOF
fi

# info: JSON, and one device chosen as the library would.
expect 0 "out:\"devices\"" "" info --json --device=0:0
if command -v python3 >/dev/null; then
  "$tool" info --json -d 0:0 | python3 -c \
    'import json, sys; d = json.load(sys.stdin)["devices"]; assert len(d) == 1, d' ||
    failures=$((failures + 1))
fi
expect 1 "err:matches none" "" info -d no-such-device
# info --devices: a group of the first device opened twice, with its self-check; errors.
expect 0 "out:self-check (i64 sum of 2^24 over the group): ok" "" info --devices 0:0,0:0
expect 0 "out:\"self_check\": \"ok\"" "" info --json --devices 0:0
expect 1 "err:selector 1 is empty" "" info --devices "0:0,,0:0"
expect 2 "err:exclude each other" "" info -d 0:0 --devices 0:0

if [ "$failures" -ne 0 ]; then
  echo "$failures cases failed"
  exit 1
fi
echo "all cases passed"
