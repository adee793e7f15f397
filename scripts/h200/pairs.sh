#!/usr/bin/env bash
# Run on the H200 machine after scripts/h200/run_suite.sh has built the project: the pair
# operators (issue 56, step 5) against cuBLAS, CUB and OpenMP, side by side (bench/bench_pairs.c),
# on CUDA, NVIDIA's OpenCL and, unless POCL=0, PoCL's CPU device (SHIFT halves the pair counts
# there, 2 unless set).
#   scripts/h200/pairs.sh [ROUNDS [FILTER]]
exec "$(dirname "$0")/bench_devices.sh" pairs bench_pairs "$@"
