#!/usr/bin/env bash
# Fuzzes under libFuzzer with AddressSanitizer and UndefinedBehaviorSanitizer:
#   image_io  the command line's PNG and .npy readers and writers; seeds: the
#             demo PNG, the small .npy files of the conformance corpus and
#             headers of huge declared sizes;
#   api       the library's API (tests/fuzz/api_fuzzer.cpp): the wrapper
#             instrumented, linked to the kernels of $HRES_BUILD_DIR (default
#             build/, built first when missing).
# Needs clang-14 (scripts/setup.sh installs it). The suite runs each for a
# minute from a fixed seed (HRES_FUZZ_SEED=1; unset: a new one each run); a
# developer runs them longer. Usage:
#   bash scripts/fuzz.sh [SECONDS] [image_io|api|all]   (default 300 all)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
which=${2:-all}
out=build-fuzz
mkdir -p "$out/crashes"
seed=(-seed="${HRES_FUZZ_SEED:-0}")
flags=(-std=c++17 -g -O1 -ffp-contract=off -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)

fuzz_image_io() {
    mkdir -p "$out/corpus"
    clang++-14 "${flags[@]}" -Iruntime/include -Iapps tests/fuzz/image_io_fuzzer.cpp apps/hres/image_io.cpp \
        -lpng -lz -o "$out/image_io_fuzzer"
    (printf '\x00'; cat data/zoneplate.png) > "$out/corpus/zoneplate"
    # The seeds listed whole first: `find | head` under pipefail ends the
    # script with find's SIGPIPE.
    mapfile -t seeds < <(find tests/data/conformance -name '*.npy' -size -3k | sort)
    for f in "${seeds[@]:0:20}"; do
        b=$(basename "$f" .npy)
        (printf '\x01'; cat "$f") > "$out/corpus/image_$b"
        (printf '\x02'; cat "$f") > "$out/corpus/array_$b"
    done
    # Valid headers of huge declared sizes, which mutation alone never builds:
    # PNGs cut after a 1-byte IDAT (decompression bombs) and .npy headers alone.
    python3 - "$out/corpus" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
for w, h, color in ((65536, 65536, 6), (20000, 20000, 0), (2**31 - 1, 1, 2), (3000, 3000, 3)):
    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, color, 0, 0, 0)) + chunk(b'IDAT', b'\0')
    open('%s/bomb_%dx%d' % (sys.argv[1], w, h), 'wb').write(b'\0' + png)
for shape in ('(1, 4, 65536, 65536)', '(1, 3, 30000, 30000)', '(2147483647,)'):
    header = ("{'descr': '|u1', 'fortran_order': False, 'shape': %s, }" % shape).encode()
    header += b' ' * (63 - (10 + len(header)) % 64) + b'\n'
    npy = b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header + b'\0' * 16
    name = shape.strip('(),').replace(', ', 'x')
    open('%s/image_huge_%s' % (sys.argv[1], name), 'wb').write(b'\1' + npy)
    open('%s/array_huge_%s' % (sys.argv[1], name), 'wb').write(b'\2' + npy)
PY
    "$out/image_io_fuzzer" "$out/corpus" "${seed[@]}" -max_len=65536 -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$out/crashes/"
}

fuzz_api() {
    local build=${HRES_BUILD_DIR:-build}
    [[ -f $build/runtime/libhres.a ]] || bash scripts/build.sh
    mkdir -p "$out/api_corpus"
    local halide
    halide=$(.venv/bin/python -c 'import halide, os; print(os.path.join(halide.install_dir(), "include"))')
    clang++-14 "${flags[@]}" -Iruntime/include -Iruntime/src -Igenerators -I"$build/generators" -I"$halide" -Itests \
        tests/fuzz/api_fuzzer.cpp runtime/src/*.cpp "$build/runtime/kernel_registry.cpp" tests/reference/*.cpp \
        -Wl,--start-group "$build"/generators/lib*.a -Wl,--end-group "$build/generators/hres_halide_runtime.o" \
        -ldl -lpthread -o "$out/api_fuzzer"
    # One kernel thread: the fuzzer's own time goes to its inputs.
    HL_NUM_THREADS=1 "$out/api_fuzzer" "$out/api_corpus" "${seed[@]}" -max_len=512 -max_total_time="$seconds" \
        -print_final_stats=1 -artifact_prefix="$out/crashes/api_"
}

case "$which" in
image_io) fuzz_image_io ;;
api) fuzz_api ;;
all) fuzz_image_io; fuzz_api ;;
*) echo "fuzz.sh: unknown fuzzer '$which' (image_io, api, all)" >&2; exit 2 ;;
esac
