#!/usr/bin/env bash
# Installs what building and testing ocl_reduce needs on Debian or Ubuntu: a C compiler, CMake,
# the Khronos OpenCL headers and ICD loader, PoCL (an OpenCL implementation on the CPU), cmocka,
# OpenMP (the benchmark's CPU contender, part of gcc), Python 3 (the CSV example's check
# against Python's csv module), Open MPI (the MPI component and its tests) and OpenSSL's libcrypto
# (the program cache's SHA-256 and HMAC, loaded at run time) and Oclgrind (the kernels under a
# race checker, scripts/oclgrind_light.sh). Uses sudo when not run as root.
set -euo pipefail
packages=(build-essential cmake pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
          libcmocka-dev clinfo python3 openmpi-bin libopenmpi-dev openssl oclgrind)
run_as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  run_as_root apt-get update -qq
  run_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "dependencies present: ${packages[*]}"
