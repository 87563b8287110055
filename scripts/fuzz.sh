#!/usr/bin/env bash
# Fuzzes the command line's PNG and .npy readers and writers with libFuzzer
# under AddressSanitizer and UndefinedBehaviorSanitizer (not part of the test
# suite; a developer tool). Needs clang (Debian's clang-14 package; installed
# if missing) and libpng. Seeds: the demo PNG and the small .npy files of the
# conformance corpus. Usage: bash scripts/fuzz.sh [SECONDS] (default 300).
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
    -Iruntime/include -Iapps tests/fuzz/image_io_fuzzer.cpp apps/hres/image_io.cpp -lpng -o "$out/image_io_fuzzer"
(printf '\x00'; cat data/zoneplate.png) > "$out/corpus/zoneplate"
find tests/data/conformance -name '*.npy' -size -3k | head -20 | while read -r f; do
    b=$(basename "$f" .npy)
    (printf '\x01'; cat "$f") > "$out/corpus/image_$b"
    (printf '\x02'; cat "$f") > "$out/corpus/array_$b"
done
"$out/image_io_fuzzer" "$out/corpus" -max_len=65536 -max_total_time="$seconds" -artifact_prefix="$out/crashes/"
