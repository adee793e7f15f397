#!/usr/bin/env bash
# The newest CCCL's headers (CUB, Thrust, libcu++) for the benchmark's CUB contender: PyPI's
# nvidia-cuda-cccl wheel, unpacked into a cache folder (never system-wide). Prints the folder
# that holds cub/, for -DOCL_REDUCE_CCCL_INCLUDE; exits 1, printing nothing, where it cannot.
#   scripts/cccl_headers.sh                 the wheel from the cache, downloaded there once
#   scripts/cccl_headers.sh WHEELS          the wheel found in WHEELS (the GPU machine: .deps/)
#   scripts/cccl_headers.sh --download DIR  only downloads the wheel into DIR (fetch_deps.sh)
# Pinned, so that a CI run and a GPU run measure the same CUB: the newest release on 2026-11-26
# (CCCL 3.5.0). Raise it when a newer one appears; the contender's name prints the version.
set -euo pipefail
wheel_spec=nvidia-cuda-cccl==13.3.5.0.6
cache=${XDG_CACHE_HOME:-$HOME/.cache}/ocl_reduce

download() {
  mkdir -p "$1"
  for _ in 1 2 3; do
    python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$1" "$wheel_spec" >&2 &&
      return 0
    sleep 5
  done
  echo "cccl_headers.sh: cannot download $wheel_spec from PyPI" >&2
  return 1
}

if [ "${1:-}" = "--download" ]; then
  download "${2:?--download wants a folder}"
  exit
fi
wheels=${1:-$cache/cccl-wheels}
pattern="nvidia_cuda_cccl-${wheel_spec#*==}-*.whl"
wheel=$(ls "$wheels"/$pattern 2>/dev/null | head -1 || true)
if [ -z "$wheel" ] && [ -z "${1:-}" ]; then
  download "$wheels" || exit 1
  wheel=$(ls "$wheels"/$pattern 2>/dev/null | head -1 || true)
fi
if [ -z "$wheel" ]; then
  echo "cccl_headers.sh: no $pattern in $wheels" >&2
  exit 1
fi
into=$cache/cccl-${wheel_spec#*==}
if [ ! -f "$into/.unpacked" ]; then
  rm -rf "$into"
  mkdir -p "$into"
  python3 -m zipfile -e "$wheel" "$into"
  touch "$into/.unpacked"
fi
version=$(find "$into" -path '*/cub/version.cuh' | head -1)
if [ -z "$version" ]; then
  echo "cccl_headers.sh: $wheel holds no cub/version.cuh" >&2
  exit 1
fi
dirname "$(dirname "$version")"
