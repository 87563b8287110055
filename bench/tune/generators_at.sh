#!/bin/bash
# Builds the generator binary (hres_generators) as it was at another git
# revision, so that cuda_variant.sh and kernel_ab.sh can build kernels from
# it (HRES_GENERATORS=path) and today's kernels can be timed beside that
# revision's without a second full build.
#
#   bench/tune/generators_at.sh REV OUT
#
# OUT receives hres_generators. Compiles with build/'s flags (under a minute
# on 2 cores, in parallel). Example (RESULTS.md@89f6099, 2026-11-21, night):
#   bench/tune/generators_at.sh HEAD~1 build/tune/base
#   HRES_GENERATORS=build/tune/base/hres_generators \
#       bench/tune/cuda_variant.sh build/tune/before resize_filtered ''
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 REV OUT" >&2; exit 2; }
rev=$1 out=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build"
[ -f "$build/build.ninja" ] || { echo "$0: configure the project into $build first" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git -C "$root" archive "$rev" generators schedules | tar -x -C "$src"

# The build's own compile flags for the generator sources, and its link line.
flags=$(awk '/^build generators\/CMakeFiles\/hres_generators.dir\/resize_generator.cpp.o:/{f=1} f&&/DEFINES|FLAGS|INCLUDES/{sub(/^ *[A-Z]+ = /,""); printf "%s ", $0} f&&/^$/{exit}' "$build/build.ninja")
flags=${flags//"-I$root/generators"/"-I$src/generators"}
flags=${flags//"-I$root "/"-I$src "}
halide_lib=$(grep -o '[^ ]*/libHalide.so' "$build/build.ninja" | head -1)
gengen=$(grep -o '[^ ]*/libHalide_GenGen.a' "$build/build.ninja" | head -1)
# shellcheck disable=SC2086  # flags is a list of words
printf '%s\n' "$src"/generators/*.cpp "$src"/schedules/*.cpp |
    xargs -P "$(nproc)" -I{} sh -c "c++ $flags -c {} -o $src/\$(basename {}).o"
c++ -rdynamic "$src"/*.o -Wl,--whole-archive "$gengen" -Wl,--no-whole-archive "$halide_lib" \
    -Wl,-rpath,"$(dirname "$halide_lib")" -ldl -lpthread -o "$out/hres_generators"
echo "$out/hres_generators: generators at $(git -C "$root" rev-parse --short "$rev")"
