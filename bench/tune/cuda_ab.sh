#!/bin/bash
# Side-by-side timing of several bench_hres builds on the GPU (e.g. variants
# from cuda_variant.sh): each build runs `--device cuda --filter FILTER` in
# turn, for ROUNDS interleaved rounds, and the table gives per case the best
# round of each build and its ratio to the first build.
#
#   bench/tune/cuda_ab.sh FILTER ROUNDS BENCH_HRES...
#
# MIN_TIME (seconds of timed calls per case, default 0.2) is passed on as
# --min-time. The table is read with bench/compare.py's parser (python3 with
# numpy, as on the GPU machine). Example (RESULTS.md@89f6099, 2026-11-21):
#   bench/tune/cuda_ab.sh resize 2 planes/bench_hres build/bin/bench_hres
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 FILTER ROUNDS BENCH_HRES..." >&2; exit 2; }
filter=$1 rounds=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in $(seq "$rounds"); do
    i=0
    for bench in "$@"; do
        "$bench" --device cuda --filter "$filter" --min-time "${MIN_TIME:-0.2}" > "$work/$i.$r.md"
        i=$((i + 1))
    done
done
PYTHONPATH="$(cd "$(dirname "$0")/.." && pwd)" python3 - "$work" "$rounds" "$@" <<'PY'
import sys

from compare import parse_hres_table

work, rounds, benches = sys.argv[1], int(sys.argv[2]), sys.argv[3:]


def rows(path):
    with open(path) as f:
        return parse_hres_table(f.read())


tables = [[rows(f"{work}/{i}.{r}.md") for r in range(1, rounds + 1)] for i in range(len(benches))]
print("| case | " + " | ".join(benches) + " |")
print("|---|" + "---|" * len(benches))
for case in tables[0][0]:
    best = [min(t.get(case, float("nan")) for t in runs) for runs in tables]
    cells = [f"{best[0]:.1f}"] + [f"{b:.1f} ({b / best[0]:.2f})" for b in best[1:]]
    print(f"| {' '.join(case)} | " + " | ".join(cells) + " |")
PY
