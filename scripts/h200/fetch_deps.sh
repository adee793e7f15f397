#!/usr/bin/env bash
# Run here, before a run on the H200 machine: downloads what that machine lacks into .deps/ at the
# repository root: cmocka and Boost's headers (for bench_by_key's Boost.Compute contender, about
# 10 MB), as Debian packages, and the newest CCCL headers (PyPI's nvidia-cuda-cccl wheel, about
# 4 MB) for the benchmark's CUB contender (scripts/cccl_headers.sh).
# .deps/ is git-ignored; pass it to the device tool's `carry` so it travels with the working tree.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .deps
cd .deps
packages=(libcmocka0 libcmocka-dev libboost1.74-dev)
apt-get download "${packages[@]}" 2>/dev/null || {
  apt-get update -qq && apt-get download "${packages[@]}"
}
../scripts/cccl_headers.sh --download .
ls -l ./*.deb ./*.whl
