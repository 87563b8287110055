#!/bin/bash
# Side-by-side timing of several `hres` command-line builds (e.g. the
# previous commit's and this one's) through `--bench`: every case runs each
# build in turn, for ROUNDS interleaved rounds, 1 thread (THREADS to
# change), and the summary gives per case each build's fastest and slowest
# round. Inputs are random .npy images written with python3's standard
# library.
#
#   bench/tune/cli_ab.sh SET ROUNDS HRES...
#
# SET: `partial` (images narrower or shorter than a 16-row tile, the
# filtered resizes and the affine sampler), `whole` (seed-sized uint8
# resizes) or `affine` (the seed affine sampler, 2x3x345x456 uint8 at its
# own size, every mode and padding, with and without align_corners, and
# grid-sample on the same map as an explicit grid). Example
# (RESULTS.md@89f6099, 2026-11-26 (night, later)):
#   bench/tune/cli_ab.sh partial 3 before/hres build/bin/hres
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 partial|whole|affine ROUNDS HRES..." >&2; exit 2; }
set_name=$1 rounds=$2
shift 2
case $set_name in
partial | whole | affine) ;;
*) echo "$0: SET must be partial, whole or affine" >&2; exit 2 ;;
esac
threads=${THREADS:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import random, struct, sys
d = sys.argv[1]
rng = random.Random(1)
def save(path, descr, shape, payload):  # NumPy format 1.0, C order
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload)
for h, w in [(20, 30), (10, 1000), (15, 200), (200, 12), (8, 8), (345, 456), (500, 400)]:
    values = [rng.random() for _ in range(3 * h * w)]
    save(f"{d}/f32_{h}x{w}.npy", "<f4", (1, 3, h, w), struct.pack(f"<{len(values)}f", *values))
    save(f"{d}/u8_{h}x{w}.npy", "|u1", (1, 3, h, w), bytes(int(v * 255) for v in values))
save(f"{d}/u8_2x345x456.npy", "|u1", (2, 3, 345, 456), bytes(rng.randrange(256) for _ in range(2 * 3 * 345 * 456)))
# The affine set's theta as an explicit grid (affine_grid, align_corners=False).
t = [0.8952, -0.1579, 0.05, 0.1579, 0.8952, -0.03]
grid = []
for n in range(2):
    for y in range(345):
        by = (2 * y + 1) / 345 - 1
        for x in range(456):
            bx = (2 * x + 1) / 456 - 1
            grid += [t[0] * bx + t[1] * by + t[2], t[3] * bx + t[4] * by + t[5]]
save(f"{d}/grid_2x345x456.npy", "<f4", (2, 345, 456, 2), struct.pack(f"<{len(grid)}f", *grid))
PY

modes=("bilinear" "bicubic" "bilinear --antialias" "bicubic --antialias" "nearest")
# One line per case: "r<round> <case>: <median us of each build>".
time_case() {  # ROUND LABEL ARGS...
    local round=$1 label=$2 line t
    shift 2
    line="r$round $label:"
    for hres in "${builds[@]}"; do
        t=$("$hres" "$@" --threads "$threads" 2>&1 | grep -o 'median [0-9.]*' | awk '{print $2}')
        line="$line ${t:-failed}"
    done
    echo "$line"
}
# Resizes of DTYPE images, each CASE (INxOUT, e.g. 20x30:7x9) in every mode
# and layout, ITERS calls per --bench.
resize_cases() {  # ROUND DTYPE ITERS CASE...
    local round=$1 dt=$2 iters=$3 c m l
    shift 3
    for c in "$@"; do
        for m in "${modes[@]}"; do
            for l in nchw nhwc; do
                # shellcheck disable=SC2086  # the mode may carry --antialias
                time_case "$round" "$dt ${c%%:*}->${c##*:} $m $l" resize "$work/${dt}_${c%%:*}.npy" "$work/o.npy" \
                    --size "${c##*:}" --mode $m --layout "$l" --bench "$iters"
            done
        done
    done
}
builds=("$@")
for r in $(seq "$rounds"); do
    if [ "$set_name" = partial ]; then
        for dt in u8 f32; do
            resize_cases "$r" "$dt" 200 20x30:7x9 10x1000:5x500 15x200:30x400 200x12:400x24 8x8:16x16
            for c in 345x456:12x10 8x8:8x8; do
                for m in nearest bilinear bicubic; do
                    for l in nchw nhwc; do
                        time_case "$r" "affine $dt ${c%%:*}->${c##*:} $m $l" affine "$work/${dt}_${c%%:*}.npy" \
                            "$work/o.npy" --theta 0.9,-0.2,0.05,0.15,0.95,-0.1 --size "${c##*:}" --mode "$m" \
                            --layout "$l" --bench 50
                    done
                done
            done
        done
    elif [ "$set_name" = affine ]; then
        for m in nearest bilinear bicubic; do
            for p in zeros border reflection; do
                for ac in "" --align-corners; do
                    for l in nchw nhwc; do
                        # shellcheck disable=SC2086  # ac is empty or one flag
                        time_case "$r" "affine u8 2x345x456 $m $p${ac:+ ac} $l" affine "$work/u8_2x345x456.npy" \
                            "$work/o.npy" --theta 0.8952,-0.1579,0.05,0.1579,0.8952,-0.03 --mode "$m" \
                            --padding "$p" $ac --layout "$l" --bench 100
                    done
                done
            done
            for l in nchw nhwc; do
                time_case "$r" "grid-sample u8 2x345x456 $m zeros $l" grid-sample "$work/u8_2x345x456.npy" \
                    "$work/grid_2x345x456.npy" "$work/o.npy" --mode "$m" --layout "$l" --bench 100
            done
        done
    else
        resize_cases "$r" u8 300 345x456:270x270 500x400:256x256
    fi
done | tee "$work/rounds.txt"

echo "summary (fastest-slowest round, us, builds in the order given):"
python3 - "$work/rounds.txt" <<'PY'
import collections, re, sys
cases = collections.OrderedDict()
for line in open(sys.argv[1]):
    m = re.match(r"r\d+ (.*): (.*)$", line.strip())
    if m:
        cases.setdefault(m.group(1), []).append(m.group(2).split())
for case, rounds in cases.items():
    cells = []
    for b in range(len(rounds[0])):
        t = [float(r[b]) for r in rounds if r[b] != "failed"]
        cells.append(f"{min(t):.1f}-{max(t):.1f}" if t else "failed")
    print(f"{case}: " + " | ".join(cells))
PY
