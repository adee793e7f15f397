#!/usr/bin/env bash
# Installs Intel's CPU Runtime for OpenCL from PyPI into a cache folder (never system-wide) and
# prints an ICD vendors folder that holds it next to the system's ICDs (PoCL), for OCL_ICD_VENDORS:
#   export OCL_ICD_VENDORS=$(scripts/intel_cpu_runtime.sh)
# Intel's runtime offers cl_intel_subgroups, cl_khr_subgroup_shuffle and the OpenCL C 3.0 subgroup
# feature, so the tests run every subgroup implementation on it. The wheels are kept in the cache
# (default ~/.cache/ocl_reduce, or $1) and reused by later runs on the same machine.
set -euo pipefail
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/ocl_reduce}
# Pinned: the versions the project was tested with. libintelocl.so finds its libraries through
# RUNPATH=$ORIGIN, so they only need to sit in one folder.
wheels=(intel-opencl-rt==2026.2.0 tbb==2023.2.0 intel-cmplr-lib-rt==2026.2.0)
root=$cache/intel-opencl-rt-2026.2.0
vendors=$cache/icd-vendors

if [ ! -f "$root/lib/libintelocl.so" ]; then
  python=$(command -v python3 || true)
  if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
    echo "installing python3-pip" >&2
    if [ "$(id -u)" -eq 0 ]; then apt-get install -y -qq python3-pip >/dev/null; else sudo apt-get install -y -qq python3-pip >/dev/null; fi
    python=$(command -v python3)
  fi
  mkdir -p "$cache/wheels"
  for attempt in 1 2 3; do
    if "$python" -m pip download --quiet --no-deps --only-binary=:all: --dest "$cache/wheels" \
        "${wheels[@]}" >&2; then
      break
    fi
    [ "$attempt" -eq 3 ] && { echo "cannot download ${wheels[*]} from PyPI" >&2; exit 1; }
    sleep 5
  done
  rm -rf "$root.tmp" && mkdir -p "$root.tmp/lib"
  # Only the shared libraries and runtime files under <name>.data/data/lib of each wheel.
  "$python" - "$cache/wheels" "$root.tmp/lib" <<'PY'
import glob, os, sys, zipfile
wheels, dest = sys.argv[1], sys.argv[2]
for wheel in sorted(glob.glob(os.path.join(wheels, "*.whl"))):
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            parts = info.filename.split("/")
            if len(parts) == 4 and parts[1:3] == ["data", "lib"] and parts[3]:
                target = os.path.join(dest, parts[3])
                with z.open(info) as src, open(target, "wb") as out:
                    out.write(src.read())
                os.chmod(target, 0o755)
PY
  # Shared-library version links the wheels flatten into copies are fine as copies.
  rm -rf "$root" && mv "$root.tmp" "$root"
fi

mkdir -p "$vendors"
rm -f "$vendors"/*.icd
cp /etc/OpenCL/vendors/*.icd "$vendors"/ 2>/dev/null || true
echo "$root/lib/libintelocl.so" > "$vendors/intel-cpu.icd"
echo "$vendors"
