#!/usr/bin/env bash
# Fuzzes the command line's PNG and .npy readers and writers with libFuzzer
# under AddressSanitizer and UndefinedBehaviorSanitizer (not part of the test
# suite; a developer tool). Needs clang (Debian's clang-14 package; installed
# if missing) and libpng. Seeds: the demo PNG, the small .npy files of the
# conformance corpus and headers of huge declared sizes. Usage: bash
# scripts/fuzz.sh [SECONDS] (default 300).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
if ! command -v clang++-14 >/dev/null; then
    sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang-14 libpng-dev >/dev/null
fi
out=build-fuzz
mkdir -p "$out/corpus" "$out/crashes"
clang++-14 -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -Iruntime/include -Iapps tests/fuzz/image_io_fuzzer.cpp apps/hres/image_io.cpp -lpng -lz -o "$out/image_io_fuzzer"
(printf '\x00'; cat data/zoneplate.png) > "$out/corpus/zoneplate"
# The seeds listed whole first: `find | head` under pipefail ends the script
# with find's SIGPIPE.
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
"$out/image_io_fuzzer" "$out/corpus" -max_len=65536 -max_total_time="$seconds" -artifact_prefix="$out/crashes/"
