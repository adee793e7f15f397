#!/usr/bin/env bash
# Measurement aid, not part of the build or of CI: PoCL 5.0, the OpenCL implementation of the GPU
# machines' CPUs (Ubuntu 24.04's package), on a Debian 12 machine, whose own PoCL is 3.1. Prints
# an ICD vendors folder that holds only it, for OCL_ICD_VENDORS:
#   OCL_ICD_VENDORS=$(scripts/pocl5_local.sh) build/tools/ocl-reduce bench -d pocl ...
# so that PoCL 5's per-call costs (its launches, waits and memory handling) can be profiled on
# any machine, not only where a GPU machine is lent (issue 58 item 1; docs/perf/pocl5-local.txt).
#
# Ubuntu's binaries need glibc 2.38 and libstdc++ 13 for three symbols only (C23's strtol and two
# libstdc++ helpers): a small library of ours gives them, and their version needs are marked weak
# in libpocl.so, so that Debian 12's loader takes it. The rest is Debian 12's: LLVM 16, clang 16
# (PoCL links each kernel with /usr/lib/llvm-16/bin/clang-16) and hwloc. Everything lives in a
# cache folder (default ~/.cache/ocl_reduce, or $1); apt installs LLVM 16, clang 16 and patchelf.
set -euo pipefail
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/ocl_reduce}
version=5.0-2.1build3
mirror=http://archive.ubuntu.com/ubuntu/pool/universe/p/pocl
root=$cache/pocl-$version
vendors=$cache/pocl5-vendors
lib=$root/usr/lib/x86_64-linux-gnu

if [ ! -f "$lib/libpocl5compat.so" ]; then
  need=()
  for pkg in clang-16 libclang-cpp16 libllvm16 libhwloc15 patchelf curl gcc; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
  done
  if [ "${#need[@]}" -gt 0 ]; then
    echo "installing ${need[*]}" >&2
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
  rm -rf "$root.tmp" && mkdir -p "$root.tmp/debs"
  for deb in libpocl2t64_${version}_amd64.deb libpocl2-common_${version}_all.deb; do
    curl -fsS --retry 3 -o "$root.tmp/debs/$deb" "$mirror/$deb"
    dpkg -x "$root.tmp/debs/$deb" "$root.tmp"
  done
  tmplib=$root.tmp/usr/lib/x86_64-linux-gnu
  cat > "$root.tmp/compat.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
/* libstdc++ 12 initializes its streams from each user's static objects already. */
void _ZSt21ios_base_library_initv(void) {}
void _ZSt21__glibcxx_assert_failPKciS0_S0_(const char *file, int line, const char *function,
                                            const char *condition) {
  fprintf(stderr, "%s:%d: %s: assertion '%s' failed\n", file, line, function, condition);
  abort();
}
C
  gcc -shared -fPIC -O2 "$root.tmp/compat.c" -o "$tmplib/libpocl5compat.so"
  so=$(readlink -f "$tmplib/libpocl.so.2")
  for symbol in __isoc23_strtol _ZSt21ios_base_library_initv \
    _ZSt21__glibcxx_assert_failPKciS0_S0_; do
    patchelf --clear-symbol-version "$symbol" "$so"
  done
  patchelf --add-needed libpocl5compat.so "$so"
  patchelf --set-rpath '$ORIGIN' "$so"
  # The version needs stay listed after the symbols left them; weak ones do not stop the loader.
  python3 - "$so" GLIBC_2.38 GLIBCXX_3.4.31 GLIBCXX_3.4.32 <<'PY'
import struct, sys
path, names = sys.argv[1], set(sys.argv[2:])
b = bytearray(open(path, "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum = struct.unpack_from("<HH", b, 0x3a)
sections = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)]
verneed = next(s for s in sections if s[1] == 0x6ffffffe)  # SHT_GNU_verneed
strings = sections[verneed[6]][4]
def name(offset):
    start = strings + offset
    return b[start:b.index(0, start)].decode()
entry = verneed[4]
while True:
    _, count, _, aux, following = struct.unpack_from("<HHIII", b, entry)
    at = entry + aux
    for _ in range(count):
        _, flags, _, offset, next_aux = struct.unpack_from("<IHHII", b, at)
        if name(offset) in names:
            struct.pack_into("<H", b, at + 4, flags | 2)  # VER_FLG_WEAK
        at += next_aux
    if not following:
        break
    entry += following
open(path, "wb").write(b)
PY
  rm -rf "$root.tmp/debs" "$root" && mv "$root.tmp" "$root"
fi

mkdir -p "$vendors"
rm -f "$vendors"/*.icd
echo "$lib/libpocl.so.2" > "$vendors/pocl5.icd"
echo "$vendors"
