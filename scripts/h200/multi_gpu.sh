#!/usr/bin/env bash
# Run on a machine with several H200s (the 2- and 4-GPU kinds), after scripts/h200/run_suite.sh
# --build-only has built the project: issue 18's figures and tests over every GPU there.
#   - groups: the f32 sum of 2^31 device-resident elements (one part per GPU) and 2^28 elements in
#     segments of 32 and 1000 (device column: results left on the devices), the group of all GPUs
#     against GPU 0 alone, same run; the same from host memory, with the GPUs' pinned
#     host-to-device bandwidth together;
#   - every form over the group (bench_group_forms): sum, multi, argmin, mean_var, partial and
#     windows from a group buffer, offsets from page-locked host memory, against GPU 0 alone;
#   - MPI: one rank per GPU, ocl_reduce_mpi_allreduce of 2^30 f32 per rank against the
#     hand-written buffer_reduce + MPI_Allreduce, same run (weak scaling: 1 rank, then one per
#     GPU), and 2^30 x GPUs on one rank (strong scaling, against the one-per-GPU run);
#   - tests: group[cuda/...] over every GPU (OCL_REDUCE_DEVICES), test_mpi with one rank per GPU.
# Logs go to $OUT (else ./h200-logs).
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=${OUT:-$PWD/h200-logs}
mkdir -p "$logs"
build=/tmp/ocl-reduce-h200
export OCL_ICD_VENDORS=/tmp/ocl-reduce-icd
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# mpiexec's hwloc would load OpenCL and cut OCL_ICD_FILENAMES for the ranks (docs/GUIDE.md, "Many
# hosts: MPI").
export HWLOC_COMPONENTS=-opencl
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
list=$(seq -s, -f 'cuda:%g' 0 $((gpus - 1)))
echo "== $gpus GPUs: $list" | tee "$logs/multi-gpu.txt"
"$build/tools/ocl-reduce" info --devices "$list" 2>&1 | tee -a "$logs/multi-gpu.txt"

echo "== group of $gpus against cuda:0 alone: f32 sum of 2^31, and 2^28 in segments of 32 and 1000"
"$build/tools/ocl-reduce" bench --devices "$list" --paths cuda/auto --no-cub --n 2147483648 \
  --reps 20 2>&1 | tee -a "$logs/multi-gpu.txt"
"$build/tools/ocl-reduce" bench --devices "$list" --paths cuda/auto --no-cub --n 268435456 \
  --segments 32,1000 --reps 20 2>&1 | tee -a "$logs/multi-gpu.txt"

echo "== every form over the group against cuda:0 alone: 2^28 f32 (bench_group_forms)"
"$build/bench/bench_group_forms" --devices "$list" --n 268435456 --reps 20 2>&1 |
  tee -a "$logs/multi-gpu.txt"

echo "== MPI weak scaling: one rank per GPU, 2^30 f32 per rank"
for np in 1 "$gpus"; do
  mpiexec -n "$np" "$build/bench/bench_mpi" --n 1073741824 --reps 30 --gpus "$gpus" 2>&1 |
    tee -a "$logs/multi-gpu.txt"
done
echo "== MPI strong scaling: 2^30 x $gpus f32 on one rank, then split over $gpus ranks"
mpiexec -n 1 "$build/bench/bench_mpi" --n $((1073741824 * gpus)) --reps 30 --gpus "$gpus" 2>&1 |
  tee -a "$logs/multi-gpu.txt"

echo "== tests: groups over every GPU, MPI with one rank per GPU"
(cd "$build" && OCL_REDUCE_DEVICES="$list" ctest -R '^(group|staging)\[cuda' --output-on-failure) \
  2>&1 | grep -E "Test +#|tests passed|tests failed|Error|FAILED" | tee -a "$logs/multi-gpu.txt"
mpiexec -n "$gpus" sh -c 'OCL_REDUCE_DEVICE=cuda:$OMPI_COMM_WORLD_RANK exec "$0"' \
  "$build/tests/test_mpi" 2>&1 | grep -E "test_mpi:|FAILED" | tee -a "$logs/multi-gpu.txt"
