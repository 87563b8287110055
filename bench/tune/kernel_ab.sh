#!/bin/bash
# Schedule-tuning experiments on one x86 kernel: each variant (generator
# params, e.g. schedule knobs) is compiled alone into a timing driver
# (kernel_timer.cpp), and the variants run in interleaved rounds in one
# session, so that a noisy machine hits all of them alike. Build where the
# generators are built; the binaries are self-contained, so the run step can
# go to another machine (e.g. the GPU machine's host) without Halide.
#
#   bench/tune/kernel_ab.sh build DIR GENERATOR TYPE TARGET 'PARAMS' ['PARAMS'...]
#   bench/tune/kernel_ab.sh run DIR 'N C H W OH OW' [nchw|nhwc] [ROUNDS] [THREADS] [SECONDS]
#   bench/tune/kernel_ab.sh pair DIR GENERATOR TYPE TARGET 'PARAMS A' 'PARAMS B'
#   DIR/pair N C H W OH OW nchw|nhwc THREADS CALLS    (what `pair` builds)
#
# `pair` links two variants into one driver that calls them in turn in one
# process (kernel_timer.cpp's -DPAIR): on a host whose speed drifts between
# phases (the build machine), separate processes run in different phases,
# and the same-process minimum is the steadier comparison.
#
# GENERATOR: resize_nearest, resize_filtered, resize_vertical (nchw only),
# affine_grid_sample or flip (OH OW = H W); TYPE: uint8 or float32; TARGET: a Halide x86
# target (one entry of HRES_X86_TARGETS in cmake/HresKernels.cmake, e.g.
# x86-64-linux-sse41-avx-avx2-fma-f16c; for an entry that a kernel's LLVM_VECTORIZER names,
# append -enable_llvm_loop_opt as that build does); PARAMS: the
# generator params of a variant, e.g.
# 'filter=bilinear antialias=false horizontal_lanes=16' ('' = the defaults).
# Example (RESULTS.md@89f6099 used this for the planar gather experiments):
#   bench/tune/kernel_ab.sh build build/tune resize_nearest float32 \
#       x86-64-linux-sse41-avx-avx2-fma-f16c 'planar_pixel_lanes=0' 'planar_pixel_lanes=8'
#   bench/tune/kernel_ab.sh run build/tune '1 3 300 400 600 700' nchw 5 1 0.5
# To compare code changes rather than params, build each side with its own
# generator binary (HRES_GENERATORS=path) into its own DIR, then move the
# second DIR's v0 to the first DIR's v1 before the run step.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# The driver's build settings for generator $1 and pixel type $2: kind,
# pixel, generators, include.
driver_settings() {
    case $1 in
    resize_nearest) kind=1 ;;
    resize_filtered | resize_vertical) kind=2 ;;
    affine_grid_sample) kind=3 ;;
    flip) kind=4 ;;
    *) echo "$0: unsupported generator $1" >&2; exit 2 ;;
    esac
    case $2 in
    uint8) pixel=uint8_t ;;
    float32) pixel=float ;;
    *) echo "$0: TYPE must be uint8 or float32" >&2; exit 2 ;;
    esac
    generators="${HRES_GENERATORS:-$root/build/bin/hres_generators}"
    [ -x "$generators" ] || { echo "$0: build the project first ($generators is missing)" >&2; exit 1; }
    include=$(ls -d "$root"/.venv/lib/python3*/site-packages/halide/include | head -n 1)
}

case "${1:-}" in
build)
    [ $# -ge 6 ] || { echo "usage: $0 build DIR GENERATOR TYPE TARGET 'PARAMS'..." >&2; exit 2; }
    dir=$2 gen=$3 type=$4 target=$5
    shift 5
    driver_settings "$gen" "$type"
    rm -rf "$dir" && mkdir -p "$dir"
    i=0
    for params in "$@"; do
        v="$dir/v$i"
        mkdir -p "$v"
        # shellcheck disable=SC2086  # PARAMS is a list of key=value words
        "$generators" -g "$gen" -f k -o "$v" -e static_library,h target="$target" \
            input.type="$type" output.type="$type" $params
        g++ -O2 -std=c++17 -DKERNEL_KIND=$kind -DPIXEL=$pixel -I"$v" -I"$include" -I"$root/runtime/src" \
            "$here/kernel_timer.cpp" "$root/runtime/src/scratch.cpp" "$v/k.a" -o "$v/timer" -lpthread -ldl
        echo "$gen $type $target $params" > "$v/variant.txt"
        echo "v$i: $params"
        i=$((i + 1))
    done
    ;;
pair)
    [ $# -eq 7 ] || { echo "usage: $0 pair DIR GENERATOR TYPE TARGET 'PARAMS A' 'PARAMS B'" >&2; exit 2; }
    dir=$2 gen=$3 type=$4 target=$5
    driver_settings "$gen" "$type"
    rm -rf "$dir" && mkdir -p "$dir"
    # The two variants (functions k and k2) without a runtime each, beside
    # one shared runtime.
    for name in k k2; do
        params=$6
        [ $name = k2 ] && params=$7
        # shellcheck disable=SC2086  # PARAMS is a list of key=value words
        "$generators" -g "$gen" -f $name -o "$dir" -e static_library,h target="$target-no_runtime" \
            input.type="$type" output.type="$type" $params
    done
    "$generators" -r runtime -o "$dir" -e static_library target="$target"
    g++ -O2 -std=c++17 -DPAIR -DKERNEL_KIND=$kind -DPIXEL=$pixel -I"$dir" -I"$include" -I"$root/runtime/src" \
        "$here/kernel_timer.cpp" "$root/runtime/src/scratch.cpp" "$dir/k.a" "$dir/k2.a" "$dir/runtime.a" \
        -o "$dir/pair" -lpthread -ldl
    echo "$dir/pair: v0 = $6, v1 = $7; run as $dir/pair N C H W OH OW nchw|nhwc THREADS CALLS"
    ;;
run)
    [ $# -ge 3 ] || { echo "usage: $0 run DIR 'N C H W OH OW' [nchw|nhwc] [ROUNDS] [THREADS] [SECONDS]" >&2; exit 2; }
    dir=$2 shape=$3 layout=${4:-nchw} rounds=${5:-3} threads=${6:-1} seconds=${7:-0.5}
    for v in "$dir"/v*; do echo "$(basename "$v"): $(cat "$v/variant.txt")"; done
    for r in $(seq "$rounds"); do
        line="round $r ($shape $layout, $threads thread(s)):"
        for v in "$dir"/v*; do
            # shellcheck disable=SC2086  # the shape is six numbers
            line="$line $(basename "$v")=$("$v/timer" $shape "$layout" "$threads" "$seconds" | awk '{print $2 " us [" $4 "]"}')"
        done
        echo "$line"
    done
    ;;
*)
    echo "usage: $0 build DIR GENERATOR TYPE TARGET 'PARAMS'... | run DIR 'N C H W OH OW' [nchw|nhwc] [ROUNDS] [THREADS] [SECONDS]" >&2
    exit 2
    ;;
esac
