#!/usr/bin/env python3
"""Each special-case kernel of the kernel table against the general kernel it
replaces, on the bench_hres cases where the dispatcher chooses it.

    python3 bench/tune/variants_ab.py --bench build/bin/bench_hres [--rounds 3] [--threads 1]
        [--isa auto] [--device cpu] [--json FILE]

For each variant, rounds interleave two runs of bench_hres on the cases that
choose it: as built, and with that variant disabled (--disable), so that
each case runs what the dispatcher would choose without it (the next row of
the table that serves it). Per case the best of the rounds; per variant the
geometric mean of without/with over its cases, with the spread of the
per-round ratios. `--json` keeps the measurements.
"""
import argparse
import json
import math
import re
import subprocess
import sys


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed: {r.stderr.strip()}")
    return r.stdout


def times(out):
    """label -> hres us, from bench_hres's Markdown table."""
    result = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 7 or not re.match(r"^[\d.]+$", cells[6]):
            continue
        op, shape, mode, dtype, layout = cells[:5]
        result[f"{op} {shape} {mode} {dtype} {layout}"] = float(cells[6])
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bench", required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", default="1")
    p.add_argument("--isa", default="auto")
    p.add_argument("--device", default="cpu")
    p.add_argument("--min-time", default="0.3")
    p.add_argument("--json")
    a = p.parse_args()
    base = [a.bench, "--threads", a.threads, "--isa", a.isa, "--device", a.device]
    chosen = dict(line.split("\t") for line in run(base + ["--kernels"]).splitlines() if "\t" in line)
    general = set()
    for kernel in set(chosen.values()):  # the table refuses to disable a general kernel
        r = subprocess.run([a.bench, "--disable", kernel, "--list"], capture_output=True, text=True)
        if r.returncode != 0:
            general.add(kernel)
    variants = sorted(set(chosen.values()) - general)
    if not variants:
        sys.exit("no case chooses a variant here")
    timed = base + ["--min-time", a.min_time]
    report = []
    print(f"| variant | cases | with us | without us | without/with | rounds' range |")
    print("|---|---|---|---|---|---|")
    for v in variants:
        labels = sorted(l for l, k in chosen.items() if k == v)
        only = ["--filter", "|".join(labels)]
        rounds = [(times(run(timed + only)), times(run(timed + only + ["--disable", v]))) for _ in range(a.rounds)]
        best_v = {l: min(r[0][l] for r in rounds) for l in labels}
        best_g = {l: min(r[1][l] for r in rounds) for l in labels}
        gain = math.exp(sum(math.log(best_g[l] / best_v[l]) for l in labels) / len(labels))
        per_round = [math.exp(sum(math.log(r[1][l] / r[0][l]) for l in labels) / len(labels)) for r in rounds]
        print(f"| {v} | {len(labels)} | {sum(best_v.values()):.1f} | {sum(best_g.values()):.1f} | {gain:.2f} "
              f"| {min(per_round):.2f}-{max(per_round):.2f} |")
        report.append({"variant": v, "cases": {l: {"with_us": best_v[l], "without_us": best_g[l]} for l in labels},
                       "gain": gain, "round_gains": per_round})
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"threads": a.threads, "isa": a.isa, "device": a.device, "rounds": a.rounds,
                       "variants": report}, f, indent=1)


if __name__ == "__main__":
    main()
