#!/bin/bash
# Schedule-tuning experiments on the CUDA kernels: rebuilds every CUDA library
# of one generator with extra generator params (schedule knobs), puts them in
# a copy of the built libhres.a and links bench_hres (and test_resize, test_cuda)
# against it. The results run on the GPU machine like the normal ones
# (--device cuda), so variants can be checked and timed side by side in
# interleaved runs there.
#
#   bench/tune/cuda_variant.sh OUT GENERATOR 'PARAMS'
#
# OUT: a directory, receives bench_hres; GENERATOR: resize_nearest,
# resize_filtered, grid_sample, affine_grid_sample or flip; PARAMS: generator
# params added to each library's own (later ones win), e.g.
# 'gpu_rows_per_thread_few=1 gpu_interleaved_pixels=0'. Needs a configured
# and built build/ (the variant reuses its objects and generator binary;
# HRES_GENERATORS=path uses another generator binary, e.g. one of an earlier
# revision from generators_at.sh).
# Example (RESULTS.md@89f6099 used this for the NHWC tiles of the filtered
# resizes):
#   bench/tune/cuda_variant.sh build/tune/planes resize_filtered 'gpu_interleaved_pixels=0'
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 OUT GENERATOR 'PARAMS'" >&2; exit 2; }
out=$1 gen=$2 params=$3
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build"
[ -f "$build/build.ninja" ] && [ -f "$build/runtime/libhres.a" ] ||
    { echo "$0: build the project into $build first" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
objects="$out/objects"
rm -rf "$objects" && mkdir -p "$objects"

# The CUDA libraries of GENERATOR: the build's own generator commands, with
# the output directory replaced and PARAMS appended.
count=0
while IFS= read -r command; do
    command="${command#*&& }"
    if [ -n "${HRES_GENERATORS:-}" ]; then
        command="$(cd "$(dirname "$HRES_GENERATORS")" && pwd)/$(basename "$HRES_GENERATORS") ${command#* }"
    fi
    # shellcheck disable=SC2086  # PARAMS is a list of key=value words
    eval "${command/ -o . / -o $objects }" $params
    count=$((count + 1))
done < <(grep -E "^  COMMAND = .*hres_generators .*-g $gen .*target=[^ ]*-cuda" "$build/build.ninja" |
         sed 's/^  COMMAND = //')
[ "$count" -gt 0 ] || { echo "$0: no CUDA library of generator $gen in $build/build.ninja" >&2; exit 1; }

cp "$build/runtime/libhres.a" "$out/libhres.a"
ar r "$out/libhres.a" "$objects"/*.o
c++ -O3 "$build/bench/CMakeFiles/bench_hres.dir/bench.cpp.o" "$out/libhres.a" -ldl -lpthread -o "$out/bench_hres"
# test_resize and test_cuda too, so that a variant is checked before it is
# timed (HRES_DEVICE=cuda, HRES_TEST_DATA=tests/data for test_resize). Their
# link lines are the build's own, with the variant's library.
for test in test_resize test_cuda; do
    libraries=$(awk -v t="build bin/$test:" 'index($0, t) == 1 {f=1} f&&/LINK_LIBRARIES/{sub(/^ *LINK_LIBRARIES = /,""); print; exit}' "$build/build.ninja")
    # shellcheck disable=SC2046,SC2086  # object and library lists
    (cd "$build" && c++ -O3 $(find "tests/CMakeFiles/$test.dir" -name '*.o') ${libraries//runtime\/libhres.a/$out\/libhres.a} \
        -lpthread -o "$out/$test")
done
echo "$gen $params" > "$out/variant.txt"
echo "$out/bench_hres: $count CUDA libraries of $gen with '$params'"
