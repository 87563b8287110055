#!/usr/bin/env python3
"""Whether two hres builds compute the same bytes: the bench_hres cases and a
sweep of small shapes, layouts, channel counts, modes and ISA levels, run
through both command lines on the same inputs, outputs compared byte for byte.

    python3 bench/tune/same_outputs.py OLD_HRES NEW_HRES [--quick] [--isa auto,avx2,sse41]

For changes that must not move a result (the dispatcher, refactored
generators, schedules): every output of NEW must equal OLD's. Needs numpy.
With a NEW that knows --explain, the kernels each case ran are counted.
"""
import argparse
import collections
import itertools
import os
import subprocess
import sys
import tempfile

import numpy as np

RESIZE_MODES = ["nearest", "nearest-exact", "bilinear", "bicubic"]
SAMPLE_MODES = ["bilinear", "nearest", "bicubic"]
PADDINGS = ["zeros", "border", "reflection"]


def cases(quick):
    """(name, input shape, dtype, command arguments after IN [GRID] OUT)."""
    # The seed shapes of bench_hres.
    for dtype, layout in itertools.product(["u8", "f32"], ["nchw", "nhwc"]):
        for mode in RESIZE_MODES:
            yield (f"resize {mode} 500x400->256x256", (1, 3, 500, 400), dtype, layout,
                   ["resize", "--size", "256x256", "--mode", mode])
            yield (f"resize {mode} 300x400->600x700", (1, 3, 300, 400), dtype, layout,
                   ["resize", "--size", "600x700", "--mode", mode])
        for mode, aa in itertools.product(["bilinear", "bicubic"], [False, True]):
            for n in (1, 4):
                yield (f"resize {mode}{'+aa' * aa} {n}x345x456->270x270", (n, 3, 345, 456), dtype, layout,
                       ["resize", "--size", "270x270", "--mode", mode] + ["--antialias"] * aa)
        for mode, ac in itertools.product(SAMPLE_MODES, [False, True]):
            yield (f"affine {mode}{' ac' * ac} 2x345x456", (2, 3, 345, 456), dtype, layout,
                   ["affine", "--theta", "0.9,-0.2,0.05,0.2,0.9,-0.1", "--mode", mode] + ["--align-corners"] * ac)
        for axes in ("--horizontal", "--vertical"):
            yield (f"flip {axes} 1080x1920", (1, 3, 1080, 1920), dtype, layout, ["flip", axes])
    # A sweep: every mode at shapes that meet and miss each kernel's rule.
    shapes = [(20, 24, 13, 17), (20, 24, 13, 24), (20, 24, 17, 17), (9, 10, 21, 23), (20, 10, 13, 7), (1, 1, 3, 5)]
    channels = [1, 2, 3, 4] if not quick else [3, 4]
    for dtype, layout, c, (h, w, oh, ow) in itertools.product(["u8", "f32"], ["nchw", "nhwc"], channels, shapes):
        shape = (2, c, h, w)
        for mode in RESIZE_MODES:
            yield (f"resize {mode} {shape}->{oh}x{ow}", shape, dtype, layout,
                   ["resize", "--size", f"{oh}x{ow}", "--mode", mode])
            if mode in ("bilinear", "bicubic"):
                yield (f"resize {mode}+aa {shape}->{oh}x{ow}", shape, dtype, layout,
                       ["resize", "--size", f"{oh}x{ow}", "--mode", mode, "--antialias"])
                yield (f"resize {mode} ac {shape}->{oh}x{ow}", shape, dtype, layout,
                       ["resize", "--size", f"{oh}x{ow}", "--mode", mode, "--align-corners"])
        for mode, padding in itertools.product(SAMPLE_MODES, PADDINGS):
            yield (f"affine {mode} {padding} {shape}->{oh}x{ow}", shape, dtype, layout,
                   ["affine", "--theta", "0.8,-0.3,0.1,0.3,0.8,-0.05", "--size", f"{oh}x{ow}", "--mode", mode,
                    "--padding", padding])
            yield (f"grid {mode} {padding} {shape}->{oh}x{ow}", shape, dtype, layout,
                   ["grid-sample", "GRID", "--mode", mode, "--padding", padding, "--grid-size", f"{oh}x{ow}"])
        for axes in ("--horizontal", "--vertical", "--both"):
            yield (f"flip {axes} {shape}", shape, dtype, layout, ["flip", axes])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--quick", action="store_true", help="fewer channel counts in the sweep")
    parser.add_argument("--isa", default="auto,avx2,sse41", help="ISA levels to run each case at")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    explained = collections.Counter()
    runs = differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, shape, dtype, layout, command in cases(args.quick):
            data = (rng.integers(0, 256, shape, dtype=np.uint8) if dtype == "u8"
                    else rng.random(shape, dtype=np.float32))
            src = os.path.join(tmp, "in.npy")
            np.save(src, data)
            operands = [src]
            if command[0] == "grid-sample":
                oh, ow = (int(v) for v in command[command.index("--grid-size") + 1].split("x"))
                command = [a for a in command if a not in ("GRID", "--grid-size", f"{oh}x{ow}")]
                grid = os.path.join(tmp, "grid.npy")
                np.save(grid, rng.uniform(-1.1, 1.1, (shape[0], oh, ow, 2)).astype(np.float32))
                operands.append(grid)
            for isa in args.isa.split(","):
                outputs = []
                for build in (args.old, args.new):
                    out = os.path.join(tmp, f"out{len(outputs)}.npy")
                    argv = [build, command[0]] + operands + [out] + command[1:] + [
                        "--layout", layout, "--isa", isa, "--threads", "1"]
                    if build == args.new:
                        argv.append("--explain")
                    r = subprocess.run(argv, capture_output=True, text=True)
                    if r.returncode != 0 and build == args.new and "--explain" in r.stderr:
                        argv.remove("--explain")
                        r = subprocess.run(argv, capture_output=True, text=True)
                    if r.returncode != 0:
                        outputs.append(("error", r.stderr.strip()))
                        continue
                    for line in r.stdout.splitlines():
                        if line.startswith("kernel: "):
                            explained[line[len("kernel: "):]] += 1
                    with open(out, "rb") as f:
                        outputs.append(("ok", f.read()))
                runs += 1
                if outputs[0] != outputs[1]:
                    differ += 1
                    print(f"DIFFER: {name} {dtype} {layout} isa={isa}: old {outputs[0][0]}, new {outputs[1][0]}"
                          + (f" ({outputs[1][1]})" if outputs[1][0] == "error" else ""))
    print(f"{runs} runs, {differ} differ; {len(explained)} kernels ran in the new build")
    for kernel, count in sorted(explained.items()):
        print(f"  {count:5d}  {kernel}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
