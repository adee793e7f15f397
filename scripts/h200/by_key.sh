#!/usr/bin/env bash
# Run on the H200 machine after scripts/h200/run_suite.sh has built the project: reduce by key
# (issue 57) against CUB's DeviceReduce::ReduceByKey and OpenMP, side by side
# (bench/bench_by_key.c), on CUDA, NVIDIA's OpenCL and, unless POCL=0, PoCL's CPU device (SHIFT
# halves the pair counts there, 2 unless set).
#   scripts/h200/by_key.sh [ROUNDS [FILTER]]
exec "$(dirname "$0")/bench_devices.sh" by-key bench_by_key "$@"
