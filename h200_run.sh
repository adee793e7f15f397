#!/usr/bin/env bash
# scratch: one device call (not committed)
set -u
S=$(date +%s); t() { echo "[$(( $(date +%s) - S ))s] $*"; }
t build; tools/h200/run_suite.sh --build-only > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd OCL_REDUCE_DEVICE=NVIDIA
B=/tmp/ocl-reduce-h200/tools/ocl-reduce
t ops; timeout 150 $B bench --n 268435456 --ops argmin,argmax,minmax,sum_wide,sum_compensated,mean_var,sum --paths cuda/auto,opencl/auto,cuda/auto+op --reps 30 --no-openmp > $OUT/ops.txt 2>$OUT/ops.err; grep -E "ratio|ocl_reduce|CUB|^[a-z]" $OUT/ops.txt | grep -v "+op.*CUB\|user operator / CUB" | head -80
t tests; (cd /tmp/ocl-reduce-h200 && timeout 200 ctest -R "operators|custom|reduce|large" -E "pocl|tool" -j 6 --no-tests=error > $OUT/ctest.txt 2>&1); grep -E "tests passed|Failed|\*\*\*|Timeout|Test +#" $OUT/ctest.txt | head -40
t compare; TABLES=types ROUNDS=1 timeout $(( 590 - ($(date +%s) - S) )) tools/h200/compare.sh .prev > $OUT/compare.txt 2>&1; tail -22 $OUT/compare.txt
t done
