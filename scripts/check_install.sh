#!/usr/bin/env bash
# Installs a build into a fresh prefix, moves the prefix (nothing may depend on where it was
# installed), and uses it as a user would: tests/install/ built with find_package against the
# shared and the static library, and by hand with pkg-config's flags, each run; the MPI component
# through find_package, under mpiexec, where it was built; then the installed command-line tool; and the source embedded with add_subdirectory (the library alone). Needs a
# device (any). Usage: scripts/check_install.sh <build directory>
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/installed" >/dev/null
mv "$work/installed" "$work/moved"
prefix=$work/moved

for linkage in shared static; do
  static=OFF
  [ "$linkage" = static ] && static=ON
  cmake -S tests/install -B "$work/$linkage" -DCMAKE_PREFIX_PATH="$prefix" \
    -DOCL_REDUCE_CONSUMER_STATIC=$static >"$work/$linkage.log" 2>&1 ||
    { cat "$work/$linkage.log"; exit 1; }
  cmake --build "$work/$linkage" >>"$work/$linkage.log" 2>&1 || { cat "$work/$linkage.log"; exit 1; }
  said=$("$work/$linkage/consumer")
  echo "find_package, $linkage: $said"
  said=$("$work/$linkage/consumer_cxx")
  echo "find_package, $linkage, C++: $said"
done

pc=$(find "$prefix" -name ocl_reduce.pc)
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs ocl_reduce)
case "$flags" in
  *"$prefix"*) ;;
  *) echo "pkg-config's flags point outside the installed tree: $flags" >&2; exit 1 ;;
esac
libdir=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=libdir ocl_reduce)
# shellcheck disable=SC2086 # the flags are words
cc -Wall -Wextra -Werror tests/install/consumer.c $flags -Wl,-rpath,"$libdir" \
  -o "$work/pkg-config-consumer"
said=$("$work/pkg-config-consumer")
echo "pkg-config: $said"

# The MPI component, where the build has it: find_package brings it with MPI; 2 ranks.
if [ -f "$prefix/include/ocl_reduce_mpi.h" ]; then
  cmake -S tests/install/mpi -B "$work/mpi" -DCMAKE_PREFIX_PATH="$prefix" >"$work/mpi.log" 2>&1 ||
    { cat "$work/mpi.log"; exit 1; }
  cmake --build "$work/mpi" >>"$work/mpi.log" 2>&1 || { cat "$work/mpi.log"; exit 1; }
  said=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpiexec -n 2 --oversubscribe "$work/mpi/mpi_consumer")
  echo "find_package, MPI component: $said"
fi

version=$("$prefix/bin/ocl-reduce" --version)
echo "installed tool: $version"
sum=$(printf '1 2 3' | "$prefix/bin/ocl-reduce" reduce --type i32 2>/dev/null)
[ "$sum" = 6 ] || { echo "installed tool: 'reduce' printed '$sum', not 6" >&2; exit 1; }
echo "installed tool: reduce 1 2 3 = $sum"

cmake -S tests/install -B "$work/embedded" -DOCL_REDUCE_CONSUMER_EMBED="$PWD" >"$work/embedded.log" \
  2>&1 || { cat "$work/embedded.log"; exit 1; }
cmake --build "$work/embedded" -j "$(nproc 2>/dev/null || echo 2)" >>"$work/embedded.log" 2>&1 ||
  { cat "$work/embedded.log"; exit 1; }
said=$("$work/embedded/consumer")
echo "add_subdirectory: $said"
