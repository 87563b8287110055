#!/usr/bin/env python3
"""hres against its CPU peers on every case of shared/BENCH.md, side by side.

For each case (taken from `bench_hres --list`, the one case list) and each
requested thread count, in one process run on one machine, this times
  * hres: the `hres` command line on an .npy input, `--bench` (kernel calls
    only; layout conversion happens outside the timed calls);
  * PyTorch eager: F.interpolate, F.affine_grid + F.grid_sample (theta on the
    CPU, the grid built every call), torch.flip, on an NCHW tensor or its
    channels_last copy;
  * torch.compile (default inductor) of the same function, on seed rows (bold
    in BENCH.md) or as --compile says;
  * OpenCV (cv2.resize, cv2.warpAffine with WARP_INVERSE_MAP, cv2.flip) and
    Pillow (Image.resize, uint8 only) on the same pixels as packed HWC images,
    one image of the batch at a time, as BENCH.md's peers ran;
and, from the very output file of hres's timed run, checks hres against
PyTorch's CPU result: uint8 bit-exact, float32 within 2e-5 (nearest: at most
0.1% of elements off, at rounding ties). A failed check is shown in the table,
so a fast-but-wrong kernel never counts.

Every column gets the same input array (uint8 noise, or float32 in [0, 1]).
Peers that are not installed are left out: on a machine without PyTorch the
tool still times hres and whatever else exists (no check then).

Median microseconds per call; ratios are hres / peer. With --rounds R every
case is measured R times over, each implementation once per round in turn,
and each cell is the best of its R medians: on a shared, noisy host the
slowdowns come and go, and alternating the columns lets every one of them
meet the quiet spells. A peer column marked
with * ran its nearest mode, not the row's exact one (OpenCV has no
antialiased bicubic and no align_corners; Pillow always antialiases when it
shrinks): shown for scale, left out of the targets.

Usage:
  python3 bench/compare.py --hres build/bin/hres --bench build/bin/bench_hres \\
      [--threads 1,all] [--filter TEXT] [--seeds] [--compile seed|all|none] [--rounds R] [--json FILE]
      [--record FILE --machine KEY]
With --record, every measured cell is also written to FILE as a bench/runs
record (bench/runs/README.md), for bench/current.py; what is printed stays
the same.
The targets (BENCH.md) are checked on the 1-thread rows; the 4x3x1080x1920
rows are timed by hres alone at every thread count for parallel efficiency.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

import records  # bench/records.py: the bench/runs record format (--record)

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None
try:
    import cv2
except ImportError:
    cv2 = None
try:
    import PIL
    from PIL import Image
except ImportError:
    PIL = Image = None

THETA = [0.8952, -0.1579, 0.05, 0.1579, 0.8952, -0.03]  # bench.cpp's kTheta
PEERS = ("eager", "compiled", "opencv", "pillow")
TARGETS = {"eager": 0.5, "compiled": 0.3, "opencv": 1.0, "pillow": 1.0}  # BENCH.md, 1 thread


class Case:
    """One row: 'op NxCxHxW -> OHxOW mode dtype layout' from bench_hres --list."""

    def __init__(self, label, seed):
        self.label, self.seed = label, seed
        m = re.match(r"(\S+) (\d+)x(\d+)x(\d+)x(\d+) -> (\d+)x(\d+) (.+) (u8|f32) (nchw|nhwc)$", label)
        if not m:
            raise ValueError("unexpected bench_hres label: " + label)
        self.op = m.group(1)
        self.n, self.c, self.h, self.w, self.oh, self.ow = map(int, m.groups()[1:7])
        mode = m.group(8)
        self.antialias = "+aa" in mode
        self.align_corners = mode.endswith(" ac")
        self.mode = mode.split(" ")[0].replace("+aa", "")
        self.mode_text = mode
        self.dtype, self.layout = m.group(9), m.group(10)
        # The parallel-scaling rows: hres only (BENCH.md's 70% efficiency goal).
        self.scaling = self.n * self.h * self.w >= 4 * 1080 * 1920


def list_cases(bench, text_filter):
    cmd = [bench, "--list"] + (["--filter", text_filter] if text_filter else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [Case(*line.split("\t")) for line in out.splitlines() if line.strip()]


def parse_hres_table(text):
    """Rows of bench_hres's table, keyed by (op, shape, mode, dtype, layout)."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 7 or cells[0] in ("op", "---") or cells[0].startswith("-"):
            continue
        op, shape, mode, dtype, layout = cells[:5]
        try:
            rows[(op, shape, mode, dtype, layout)] = float(cells[6])
        except ValueError:
            pass
    return rows


def make_input(case):
    rng = np.random.default_rng(1)
    shape = (case.n, case.c, case.h, case.w)
    if case.dtype == "u8":
        return rng.integers(0, 256, shape, dtype=np.uint8)
    return (rng.integers(0, 1000, shape) / 999.0).astype(np.float32)


def median_us(fn, min_time, min_calls=5, max_calls=2000):
    """Median per-call time after one warm-up call, over at least min_calls calls and min_time seconds."""
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < min_calls or (len(times) < max_calls and time.perf_counter() - start < min_time):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e6


# ---------------------------------------------------------------------------
# hres, through its command line on the same .npy input

def hres_command(hres, case, src, dst, threads):
    if case.op == "resize":
        cmd = [hres, "resize", src, dst, "--size", "%dx%d" % (case.oh, case.ow), "--mode", case.mode]
        cmd += ["--antialias"] if case.antialias else []
    elif case.op == "affine_grid_sample":
        cmd = [hres, "affine", src, dst, "--theta", ",".join(str(v) for v in THETA), "--mode", case.mode]
    else:
        cmd = [hres, "flip", src, dst, "--horizontal" if case.op == "hflip" else "--vertical"]
    if case.align_corners:
        cmd.append("--align-corners")
    return cmd + ["--layout", case.layout, "--threads", str(threads), "--isa", "auto"]


def time_hres(hres, case, x, threads, min_time, tmp):
    """(median us, output array, isa) from the hres CLI's --bench, or raises."""
    src, dst = os.path.join(tmp, "in.npy"), os.path.join(tmp, "out.npy")
    np.save(src, x)
    cmd = hres_command(hres, case, src, dst, threads)

    def run(iters):
        r = subprocess.run(cmd + ["--bench", str(iters)], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("hres failed: " + r.stderr.strip())
        us = float(re.search(r"median ([0-9.]+) us", r.stdout).group(1))
        isa = re.search(r"isa=(\S+)", r.stdout)
        return us, isa.group(1) if isa else "?"

    probe, _ = run(3)
    us, isa = run(int(min(2000, max(7, min_time * 1e6 / max(probe, 1.0)))))
    return us, np.load(dst), isa


# ---------------------------------------------------------------------------
# PyTorch (eager, compiled) and its CPU result as the reference

def torch_fn(case):
    """The PyTorch function of a case on an NCHW(-strided) tensor, or None where PyTorch has no kernel."""
    if case.op == "resize":
        if case.mode in ("bilinear", "bicubic"):
            kw = {"align_corners": case.align_corners, "antialias": case.antialias}
        else:
            kw = {}
        return lambda x: F.interpolate(x, size=(case.oh, case.ow), mode=case.mode, **kw)
    if case.op == "affine_grid_sample":
        theta = torch.tensor(THETA).reshape(1, 2, 3).repeat(case.n, 1, 1)
        size = (case.n, case.c, case.oh, case.ow)
        return lambda x: F.grid_sample(x, F.affine_grid(theta, size, align_corners=case.align_corners),
                                       mode=case.mode, padding_mode="zeros", align_corners=case.align_corners)
    dims = [-1] if case.op == "hflip" else [-2]
    return lambda x: torch.flip(x, dims)


def torch_input(case, x):
    t = torch.from_numpy(x)
    return t.contiguous(memory_format=torch.channels_last) if case.layout == "nhwc" else t


def torch_has_kernel(case):
    # PyTorch samples grids in floating point only.
    return not (case.op == "affine_grid_sample" and case.dtype == "u8")


def reference(case, x):
    """PyTorch's CPU result (uint8 sampling: on the float values, rounded half to even and saturated,
    the semantics hres documents for the dtype PyTorch lacks)."""
    fn = torch_fn(case)
    t = torch.from_numpy(x)
    if torch_has_kernel(case):
        return fn(t).contiguous().numpy()
    return fn(t.float()).round().clamp(0, 255).to(torch.uint8).numpy()


def check(case, got, want):
    if want is None:
        return "-"
    if got.shape != want.shape:
        return "MISMATCH shape %s vs %s" % (got.shape, want.shape)
    if got.dtype == np.uint8:
        bad = int((got != want).sum())
        if bad == 0:
            return "exact"
        if case.op == "affine_grid_sample":
            # float rounding ties of the uint8 sampling convention
            off = np.abs(got.astype(int) - want.astype(int))
            return "ties %d" % bad if off.max() <= 1 and bad <= got.size * 1e-3 else "MISMATCH %d" % bad
        return "MISMATCH %d" % bad
    diff = np.abs(got - want)
    if diff.max() <= 2e-5:
        return "ok"
    share = float((diff > 2e-5).mean())
    if case.mode == "nearest" and share <= 1e-3:
        return "ties %.3f%%" % (100 * share)
    return "MISMATCH %.2e" % diff.max()


def time_torch(case, x, threads, min_time, compiled):
    if not torch_has_kernel(case):
        return None
    torch.set_num_threads(threads)
    fn = torch_fn(case)
    t = torch_input(case, x)
    if compiled:
        torch._dynamo.reset()  # a fresh cache, so no case falls back to eager at the recompile limit
        fn = torch.compile(fn)
        fn(t)  # compiles
    with torch.no_grad():
        return median_us(lambda: fn(t), min_time, min_calls=3)


# ---------------------------------------------------------------------------
# OpenCV and Pillow: packed HWC images, one image of the batch at a time

def pixel_matrix(h, w, oh, ow, align_corners):
    """affine_grid's output-pixel -> input-pixel map for THETA, as the 2x3 matrix that warpAffine
    (WARP_INVERSE_MAP) and NPP's WarpAffineBack take (bench.cpp builds the same for OpenCV in C++)."""
    def to_norm(size):
        return (2.0 / max(size - 1, 1), -1.0) if align_corners else (2.0 / size, 1.0 / size - 1)

    ax, bx = to_norm(ow)
    ay, by = to_norm(oh)
    sx = (w - 1) / 2.0 if align_corners else w / 2.0
    sy = (h - 1) / 2.0 if align_corners else h / 2.0
    tx, ty = (sx, sy) if align_corners else (sx - 0.5, sy - 0.5)
    t = THETA
    return np.array([[sx * t[0] * ax, sx * t[1] * ay, sx * (t[0] * bx + t[1] * by + t[2]) + tx],
                     [sy * t[3] * ax, sy * t[4] * ay, sy * (t[3] * bx + t[4] * by + t[5]) + ty]])


def opencv_call(case, images, outs):
    """(callable, same mode?) or None."""
    if case.op in ("hflip", "vflip"):
        code = 1 if case.op == "hflip" else 0
        return (lambda: [cv2.flip(s, code, dst=d) for s, d in zip(images, outs)]), True
    interp = {"nearest": cv2.INTER_NEAREST, "nearest-exact": cv2.INTER_NEAREST_EXACT, "bilinear": cv2.INTER_LINEAR,
              "bicubic": cv2.INTER_CUBIC}[case.mode]
    if case.op == "affine_grid_sample":
        m = pixel_matrix(case.h, case.w, case.oh, case.ow, case.align_corners)
        return (lambda: [cv2.warpAffine(s, m, (case.ow, case.oh), dst=d, flags=interp | cv2.WARP_INVERSE_MAP,
                                        borderMode=cv2.BORDER_CONSTANT) for s, d in zip(images, outs)]), True
    same = True
    if case.antialias and case.mode == "bilinear":
        interp = cv2.INTER_AREA  # OpenCV's antialiased downscale
    elif case.antialias:
        same = False  # no antialiased bicubic: INTER_CUBIC
    return (lambda: [cv2.resize(s, (case.ow, case.oh), dst=d, interpolation=interp)
                     for s, d in zip(images, outs)]), same


def pillow_call(case, images):
    """(callable, same mode?) or None: Pillow resizes 8-bit RGB(A)/L images only."""
    if case.op != "resize" or case.dtype != "u8" or case.c not in (1, 3, 4):
        return None
    pil = [Image.fromarray(i[:, :, 0] if case.c == 1 else i) for i in images]
    resample = {"nearest": Image.NEAREST, "nearest-exact": Image.NEAREST, "bilinear": Image.BILINEAR,
                "bicubic": Image.BICUBIC}[case.mode]
    shrinks = case.oh < case.h or case.ow < case.w
    # Pillow's filters always widen (antialias) when shrinking.
    same = case.mode.startswith("nearest") or case.antialias or not shrinks
    return (lambda: [p.resize((case.ow, case.oh), resample=resample) for p in pil]), same


def time_packed_peers(case, x, threads, min_time):
    """{'opencv': (us, same), 'pillow': (us, same)} for the peers that exist and have the op."""
    images = [np.ascontiguousarray(x[b].transpose(1, 2, 0)) for b in range(case.n)]
    got = {}
    if cv2 is not None:
        cv2.setNumThreads(threads)
        outs = [np.empty((case.oh, case.ow, case.c), x.dtype) for _ in range(case.n)]
        made = opencv_call(case, images, outs)
        if made:
            got["opencv"] = (median_us(made[0], min_time), made[1])
    if Image is not None:
        made = pillow_call(case, images)
        if made:
            got["pillow"] = (median_us(made[0], min_time), made[1])
    return got


# ---------------------------------------------------------------------------

def measure(args, case, threads, tmp, check_output=True):
    x = make_input(case)
    row = {"label": case.label, "threads": threads, "seed": case.seed == "seed"}
    row["hres"], got, row["isa"] = time_hres(args.hres, case, x, threads, args.min_time, tmp)
    if case.scaling:
        return row
    if torch is not None:
        if check_output:
            row["check"] = check(case, got, reference(case, x))
        row["eager"] = time_torch(case, x, threads, args.min_time, compiled=False)
        if args.compile == "all" or (args.compile == "seed" and case.seed == "seed"):
            try:
                row["compiled"] = time_torch(case, x, threads, args.min_time, compiled=True)
            except Exception as e:  # an inductor failure is a missing number, not a failed run
                print("torch.compile failed on %s: %s" % (case.label, e), file=sys.stderr)
    for peer, (us, same) in time_packed_peers(case, x, threads, args.min_time).items():
        row[peer], row[peer + "_same"] = us, same
    return row


def best_of(a, b):
    """The faster of two timings, either of which may be missing (None)."""
    return b if a is None else a if b is None else min(a, b)


def measure_rounds(args, case, threads, tmp):
    """measure() args.rounds times; every timing the best of its rounds, the check from the first."""
    row = measure(args, case, threads, tmp)
    for _ in range(args.rounds - 1):
        again = measure(args, case, threads, tmp, check_output=False)
        for key in ("hres",) + PEERS:
            if again.get(key) is not None:
                row[key] = best_of(row.get(key), again[key])
    row["rounds"] = args.rounds
    return row


def fmt(v):
    return "-" if v is None else ("%.1f" % v if v < 1e4 else "%.0f" % v)


def ratio_cell(row, peer):
    ours, theirs = row.get("hres"), row.get(peer)
    if ours is None or theirs is None:
        return "-"
    text = "%.2f" % (ours / theirs)
    return text if row.get(peer + "_same", True) else text + "*"


def print_table(rows, cases):
    by_label = {c.label: c for c in cases}
    print("| op | input -> output | mode | dtype | layout | threads | hres | eager | compiled | OpenCV | Pillow "
          "| hres/eager | hres/compiled | hres/OpenCV | hres/Pillow | hres vs PyTorch |")
    print("|" + "---|" * 16)
    for r in rows:
        c = by_label[r["label"]]
        if c.scaling:
            continue
        name = "**%s**" % c.op if r.get("seed") else c.op
        peers = [fmt(r.get(p)) + ("" if r.get(p + "_same", True) or r.get(p) is None else "*") for p in PEERS]
        print("| %s | %dx%dx%dx%d -> %dx%d | %s | %s | %s | %d | %s | %s | %s | %s |" % (
            name, c.n, c.c, c.h, c.w, c.oh, c.ow, c.mode_text, c.dtype, c.layout, r["threads"], fmt(r["hres"]),
            " | ".join(peers), " | ".join(ratio_cell(r, p) for p in PEERS), r.get("check", "-")))


def print_scaling(rows):
    times = {}
    for r in rows:
        times.setdefault(r["label"], {})[r["threads"]] = r["hres"]
    lines = []
    for label, per in times.items():
        if 1 not in per or len(per) < 2:
            continue
        top = max(per)
        eff = per[1] / (top * per[top])
        lines.append("| %s | %s | %d | %s | %.1fx | %.0f%% |" % (label, fmt(per[1]), top, fmt(per[top]),
                                                                per[1] / per[top], 100 * eff))
    if lines:
        print("\nParallel scaling of hres (efficiency = t1 / (threads * tN)):\n")
        print("| case | 1 thread us | threads | us | speed-up | efficiency |")
        print("|---|---|---|---|---|---|")
        print("\n".join(lines))


def print_targets(rows, cases):
    """BENCH.md's 1-thread targets, row by row: which are missed."""
    by_label = {c.label: c for c in cases}
    missed, met = [], 0
    for r in rows:
        if r["threads"] != 1 or by_label[r["label"]].scaling:
            continue
        for peer, limit in TARGETS.items():
            if r.get(peer) is None or not r.get(peer + "_same", True):
                continue
            q = r["hres"] / r[peer]
            if q <= limit:
                met += 1
            else:
                missed.append("%s: hres/%s %.2f (target <= %.1f)" % (r["label"], peer, q, limit))
        if r.get("check", "-").startswith(("MISMATCH", "FAILED")):
            missed.append("%s: output check %s" % (r["label"], r["check"]))
    print("\n1-thread targets: %d met, %d missed" % (met, len(missed)))
    for m in missed:
        print("  - " + m)


PEER_IMPL = {"eager": "torch_eager", "compiled": "torch_compile", "opencv": "opencv", "pillow": "pillow"}


def peer_versions():
    """The versions of the peers this process imported."""
    return {"torch": torch.__version__ if torch else None, "opencv": cv2.__version__ if cv2 else None,
            "pillow": PIL.__version__ if PIL else None}


def record_row(recorder, row):
    """One measured row's cells as bench/runs records (--record)."""
    isa = row.get("isa") if row.get("isa") != "?" else None
    recorder.add(row["label"], "hres", row["hres"], row["threads"], check=row.get("check"), isa=isa)
    for peer in PEERS:
        recorder.add(row["label"], PEER_IMPL[peer], row.get(peer), row["threads"],
                     same_mode=False if row.get(peer + "_same") is False else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hres", required=True, help="path to the hres command line")
    ap.add_argument("--bench", required=True, help="path to bench_hres (for its case list)")
    ap.add_argument("--threads", default="1,all", help="comma-separated thread counts; 'all' = every core")
    ap.add_argument("--filter", default="", help="only the cases whose label contains TEXT")
    ap.add_argument("--skip", default="", help="leave out the cases whose label contains TEXT")
    ap.add_argument("--seeds", action="store_true", help="only BENCH.md's seed rows")
    ap.add_argument("--compile", choices=("seed", "all", "none"), default="seed",
                    help="which rows torch.compile is timed on (default: the seed rows)")
    ap.add_argument("--min-time", type=float, default=0.3, help="seconds of timed calls per measurement")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every case this many times in turn, keeping each column's best median")
    ap.add_argument("--json", help="also append the raw rows to this file (one JSON object per line)")
    ap.add_argument("--table-from", help="print the tables from a --json file instead of measuring")
    ap.add_argument("--record", metavar="FILE",
                    help="also write every measured cell to FILE, a new bench/runs record file (bench/runs/README.md)")
    ap.add_argument("--machine", help="with --record: the machine's key in bench/machines.md")
    args = ap.parse_args()
    recorder = None
    if args.record:
        if args.table_from or not args.machine:
            ap.error("--record needs --machine, and measurements (not --table-from)")
        try:
            recorder = records.RunRecorder(args.record, args.machine, "cpu", peer_versions(),
                                           "bench/compare.py " + " ".join(sys.argv[1:]), rounds=args.rounds)
        except (ValueError, OSError) as e:
            ap.error(str(e))

    cases = [c for c in list_cases(args.bench, args.filter) if not args.skip or args.skip not in c.label]
    if args.seeds:
        cases = [c for c in cases if c.seed == "seed"]
    if args.table_from:
        with open(args.table_from) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    else:
        counts = [os.cpu_count() if t == "all" else int(t) for t in args.threads.split(",")]
        print("peers: PyTorch %s, OpenCV %s, Pillow %s; %d cores" % (
            torch.__version__ if torch else "absent", cv2.__version__ if cv2 else "absent",
            PIL.__version__ if PIL else "absent", os.cpu_count()), file=sys.stderr)
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            for case in cases:
                for threads in counts:
                    row = measure_rounds(args, case, threads, tmp)
                    rows.append(row)
                    print("%-60s t=%-2d hres %s  %s" % (case.label, threads, fmt(row["hres"]), " ".join(
                        "%s %s" % (p, fmt(row.get(p))) for p in PEERS if row.get(p) is not None)), file=sys.stderr)
                    if args.json:
                        with open(args.json, "a") as f:
                            f.write(json.dumps(row) + "\n")
                    if recorder:
                        record_row(recorder, row)
        if recorder:
            recorder.close()
    known = {c.label for c in cases}
    rows = [r for r in rows if r["label"] in known]
    print_table(rows, cases)
    print_scaling(rows)
    print_targets(rows, cases)


if __name__ == "__main__":
    main()
