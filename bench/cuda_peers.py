#!/usr/bin/env python3
"""GPU comparison for the seed cases of shared/BENCH.md, in one run on one GPU.

Runs `bench_hres --device cuda` (hres's CUDA kernels; per-call time including
launch, from batches of calls between synchronisations) and times, in the
same run and on the same data shapes:
  * PyTorch eager CUDA (F.interpolate, F.affine_grid + F.grid_sample with
    theta already on the device, torch.flip), torch.utils.benchmark's
    blocked_autorange (also batches of calls ending in a synchronisation);
  * NPP (nppiResize, nppiWarpAffineBack, nppiMirror), when the CUDA toolkit's
    libnppig is loadable, called through ctypes on packed (NHWC) images, one
    image of the batch at a time.
Before timing, hres's CUDA output is compared with PyTorch's CPU output on
the same input, the semantics hres reproduces (float32 within 2e-5 for values
in [0, 1], uint8 exactly; nearest sampling may differ at rounding ties), so no
fast-but-wrong kernel is counted: a mismatch is flagged in the table.
(PyTorch's own CUDA kernels contract multiply-adds and differ from its CPU
kernels by up to ~1e-4 on these rows.)

Usage (on the GPU machine, with the bench binary built elsewhere):
  python3 bench/cuda_peers.py --bench build/bin/bench_hres --hres build/bin/hres [--filter TEXT] [--seeds]
                            [--rounds N]
Prints a Markdown table with ratios hres/peer. With --rounds N, hres's table
and each case's peers are timed N times in turn and every cell is the best of
them: the small calls (4-6 us) move by up to 1.3x between runs on the H100.
With --record FILE --machine KEY, every cell is also written to FILE as a
bench/runs record (bench/runs/README.md), for bench/current.py.
"""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.benchmark as benchmark

# bench/compare.py, beside this script: the case labels, theta, the CLI call
# and the tolerances are shared with the CPU comparison.
from compare import THETA, Case, best_of, check, hres_command, parse_hres_table, pixel_matrix
import records  # bench/records.py: the bench/runs record format (--record)


def make_input(n, c, h, w, dtype, layout):
    g = torch.Generator().manual_seed(1)
    if dtype == "u8":
        x = torch.randint(0, 256, (n, c, h, w), generator=g, dtype=torch.uint8)
    else:
        x = torch.randint(0, 1000, (n, c, h, w), generator=g).float() / 999.0
    x = x.cuda()
    if layout == "nhwc":
        x = x.contiguous(memory_format=torch.channels_last)
    return x


def torch_call(op, x, oh, ow, mode, antialias, align_corners):
    """A zero-argument callable running PyTorch's CUDA op, or None (no kernel)."""
    if op == "resize":
        if x.dtype == torch.uint8 and mode in ("bilinear", "bicubic"):
            return None  # PyTorch has no uint8 CUDA kernel for these
        kwargs = {}
        if mode in ("bilinear", "bicubic"):
            kwargs = {"align_corners": align_corners, "antialias": antialias}
        return lambda: F.interpolate(x, size=(oh, ow), mode=mode, **kwargs)
    if op == "affine_grid_sample":
        if x.dtype == torch.uint8:
            return None
        theta = torch.tensor(THETA, device="cuda").reshape(1, 2, 3).repeat(x.shape[0], 1, 1)
        size = (x.shape[0], x.shape[1], oh, ow)
        return lambda: F.grid_sample(x, F.affine_grid(theta, size, align_corners=align_corners), mode=mode,
                                     padding_mode="zeros", align_corners=align_corners)
    if op == "hflip":
        return lambda: torch.flip(x, [-1])
    if op == "vflip":
        return lambda: torch.flip(x, [-2])
    return None


def reference(op, x, oh, ow, mode, antialias, align_corners):
    """PyTorch's CPU result (docs/SEMANTICS.md's semantics), or None where it has none."""
    xc = x.cpu()
    if op == "affine_grid_sample" and xc.dtype == torch.uint8:
        return None  # PyTorch samples float only
    if op == "resize":
        kwargs = {}
        if mode in ("bilinear", "bicubic"):
            kwargs = {"align_corners": align_corners, "antialias": antialias}
        return F.interpolate(xc, size=(oh, ow), mode=mode, **kwargs)
    if op == "affine_grid_sample":
        theta = torch.tensor(THETA).reshape(1, 2, 3).repeat(xc.shape[0], 1, 1)
        grid = F.affine_grid(theta, (xc.shape[0], xc.shape[1], oh, ow), align_corners=align_corners)
        return F.grid_sample(xc, grid, mode=mode, padding_mode="zeros", align_corners=align_corners)
    return torch.flip(xc, [-1] if op == "hflip" else [-2])


def time_us(fn, label):
    """Median per-call time of fn in blocks of calls between synchronisations; the block size
    (blocked_autorange's choice) goes to stderr: bench_hres sizes its batches to match."""
    fn()
    torch.cuda.synchronize()
    t = benchmark.Timer(stmt="fn()", globals={"fn": fn}).blocked_autorange(min_run_time=0.3)
    print("%s: %d calls per block" % (label, t.number_per_run), file=sys.stderr)
    return t.median * 1e6


# ---------------------------------------------------------------------------
# NPP through ctypes (packed images only).

class NppiSize(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int)]


class NppiRect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int)]


class NppStreamContext(ctypes.Structure):
    _fields_ = [("hStream", ctypes.c_void_p), ("nCudaDeviceId", ctypes.c_int),
                ("nMultiProcessorCount", ctypes.c_int), ("nMaxThreadsPerMultiProcessor", ctypes.c_int),
                ("nMaxThreadsPerBlock", ctypes.c_int), ("nSharedMemPerBlock", ctypes.c_size_t),
                ("nCudaDevAttrComputeCapabilityMajor", ctypes.c_int),
                ("nCudaDevAttrComputeCapabilityMinor", ctypes.c_int), ("nStreamFlags", ctypes.c_uint),
                ("nReserved0", ctypes.c_int)]


NPPI_INTER_NN, NPPI_INTER_LINEAR, NPPI_INTER_CUBIC, NPPI_INTER_SUPER = 1, 2, 4, 8
NPP_HORIZONTAL_AXIS, NPP_VERTICAL_AXIS = 0, 1


def load_npp():
    for suffix in ("13", "12"):
        try:
            ctypes.CDLL("libnppc.so." + suffix, mode=ctypes.RTLD_GLOBAL)
            return ctypes.CDLL("libnppig.so." + suffix)
        except OSError:
            continue
    for root in ("/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib"):
        try:
            ctypes.CDLL(os.path.join(root, "libnppc.so"), mode=ctypes.RTLD_GLOBAL)
            return ctypes.CDLL(os.path.join(root, "libnppig.so"))
        except OSError:
            continue
    return None


def npp_context():
    p = torch.cuda.get_device_properties(0)
    ctx = NppStreamContext()
    ctx.hStream = torch.cuda.current_stream().cuda_stream
    ctx.nCudaDeviceId = 0
    ctx.nMultiProcessorCount = p.multi_processor_count
    ctx.nMaxThreadsPerMultiProcessor = getattr(p, "max_threads_per_multi_processor", 2048)
    ctx.nMaxThreadsPerBlock = 1024
    ctx.nSharedMemPerBlock = 48 * 1024
    ctx.nCudaDevAttrComputeCapabilityMajor = p.major
    ctx.nCudaDevAttrComputeCapabilityMinor = p.minor
    ctx.nStreamFlags = 0
    return ctx


def npp_call(npp, op, x, oh, ow, mode, antialias, align_corners):
    """NPP on packed 3-channel images (one call per image), or None."""
    n, c, h, w = x.shape
    if npp is None or c != 3 or align_corners and op == "resize":
        return None
    kind = "8u" if x.dtype == torch.uint8 else "32f"
    esize = x.element_size()
    src = x.permute(0, 2, 3, 1).contiguous()  # packed HWC per image
    dst = torch.empty((n, oh, ow, c), dtype=x.dtype, device="cuda")
    ctx = npp_context()
    src_step, dst_step = w * c * esize, ow * c * esize
    src_size, dst_size = NppiSize(w, h), NppiSize(ow, oh)
    src_rect, dst_rect = NppiRect(0, 0, w, h), NppiRect(0, 0, ow, oh)
    src_ptrs = [src.data_ptr() + b * h * src_step for b in range(n)]
    dst_ptrs = [dst.data_ptr() + b * oh * dst_step for b in range(n)]
    def per_image(name, make_args):
        """Runs NPP's `name` on every image; make_args(src, dst) gives its arguments."""
        fn = getattr(npp, name)
        fn.restype = ctypes.c_int

        def run():
            for s, d in zip(src_ptrs, dst_ptrs):
                status = fn(*make_args(ctypes.c_void_p(s), ctypes.c_void_p(d)))
                if status < 0:
                    raise RuntimeError("%s failed: %d" % (name, status))
        return run

    if op == "resize":
        interp = {"nearest": NPPI_INTER_NN, "bilinear": NPPI_INTER_SUPER if antialias else NPPI_INTER_LINEAR,
                  "bicubic": NPPI_INTER_CUBIC}.get(mode)
        if interp is None or (antialias and mode == "bicubic"):
            return None
        return per_image("nppiResize_%s_C3R_Ctx" % kind, lambda s, d: (
            s, src_step, src_size, src_rect, d, dst_step, dst_size, dst_rect, interp, ctx)), dst
    if op == "affine_grid_sample":
        interp = {"nearest": NPPI_INTER_NN, "bilinear": NPPI_INTER_LINEAR, "bicubic": NPPI_INTER_CUBIC}[mode]
        coeffs = (ctypes.c_double * 6)(*[v for row in pixel_matrix(h, w, oh, ow, align_corners) for v in row])
        return per_image("nppiWarpAffineBack_%s_C3R_Ctx" % kind, lambda s, d: (
            s, src_size, src_step, src_rect, d, dst_step, dst_rect, coeffs, interp, ctx)), dst
    if op in ("hflip", "vflip"):
        axis = NPP_VERTICAL_AXIS if op == "hflip" else NPP_HORIZONTAL_AXIS
        return per_image("nppiMirror_%s_C3R_Ctx" % kind, lambda s, d: (
            s, src_step, d, dst_step, src_size, axis, ctx)), dst
    return None


# ---------------------------------------------------------------------------
# Correctness of the hres run that is timed: the hres CLI on the same input,
# through .npy files, against PyTorch's output.

def check_hres(hres, case, x, want):
    if hres is None or want is None:
        return "-"
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.npy"), os.path.join(tmp, "out.npy")
        np.save(src, x.contiguous().cpu().numpy())
        r = subprocess.run(hres_command(hres, case, src, dst, 1) + ["--device", "cuda"], capture_output=True,
                           text=True)
        if r.returncode != 0:
            return "FAILED: " + r.stderr.strip()
        got = np.load(dst)
    return check(case, got, want.contiguous().cpu().numpy())


def fmt(v):
    return "-" if v is None else "%.1f" % v


def ratio(a, b):
    return "-" if a is None or b is None else "%.2f" % (a / b)


def prepare(key, npp):
    """One case's input, its peers' callables and PyTorch's CPU output, made once for every round:
    (case, input, eager callable or None, NPP's callable with the buffers it uses or None, output)."""
    op, shape, mode, dtype, layout = key
    case = Case(" ".join(key), "-")
    x = make_input(case.n, case.c, case.h, case.w, dtype, layout)
    call = (op, x, case.oh, case.ow, case.mode, case.antialias, case.align_corners)
    npp_made = None
    if layout == "nhwc":
        try:
            npp_made = npp_call(npp, *call)
        except (RuntimeError, AttributeError) as e:
            print("NPP %s %s: %s" % (op, mode, e), file=sys.stderr)
    return case, x, torch_call(*call), npp_made, reference(*call)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True, help="path to bench_hres")
    ap.add_argument("--hres", help="path to the hres CLI (checks outputs against PyTorch)")
    ap.add_argument("--filter", default="")
    ap.add_argument("--seeds", action="store_true", help="only BENCH.md's seed rows (bench_hres --seeds)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="interleaved rounds (hres's whole table, then each case's peers); each cell the best")
    ap.add_argument("--record", metavar="FILE",
                    help="also write every cell to FILE, a new bench/runs record file (bench/runs/README.md)")
    ap.add_argument("--machine", help="with --record: the machine's key in bench/machines.md")
    args = ap.parse_args()
    rounds = max(args.rounds, 1)
    if args.record and not args.machine:
        ap.error("--record needs --machine")

    cmd = [args.bench, "--device", "cuda", "--min-time", "0.3"]
    if args.filter:
        cmd += ["--filter", args.filter]
    if args.seeds:
        cmd += ["--seeds"]
    npp = load_npp()
    recorder = None
    if args.record:
        versions = {"torch": torch.__version__, "cuda": torch.version.cuda,
                    "npp": getattr(npp, "_name", "found") if npp else None}
        try:
            recorder = records.RunRecorder(args.record, args.machine, "cuda", versions,
                                           "bench/cuda_peers.py " + " ".join(sys.argv[1:]), rounds=rounds)
        except (ValueError, OSError) as e:
            ap.error(str(e))
    prepared = {}  # case key -> prepare()'s tuple
    times = {}  # case key -> [hres, eager, NPP], best of the rounds
    for _ in range(rounds):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("bench_hres failed: " + r.stderr)
        for key, ours in parse_hres_table(r.stdout).items():
            if key not in prepared:
                prepared[key] = prepare(key, npp)
                times[key] = [None, None, None]
            _, _, eager_fn, npp_made, _ = prepared[key]
            t = times[key]
            t[0] = best_of(t[0], ours)
            label = " ".join(key)
            t[1] = best_of(t[1], time_us(eager_fn, "eager " + label) if eager_fn is not None else None)
            t[2] = best_of(t[2], time_us(npp_made[0], "NPP " + label) if npp_made is not None else None)

    print("GPU: %s; PyTorch %s; NPP %s; best of %d round(s)\n" % (
        torch.cuda.get_device_name(0), torch.__version__, "found" if npp else "not found", rounds))
    print("| op | input -> output | mode | dtype | layout | hres us | eager us | hres/eager | NPP us | hres/NPP "
          "| hres vs PyTorch CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for key, (ours, eager, npp_us) in times.items():
        op, shape, mode, dtype, layout = key
        case, x, _, _, want = prepared[key]
        verdict = check_hres(args.hres, case, x, want)
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            op, shape, mode, dtype, layout, fmt(ours), fmt(eager), ratio(ours, eager), fmt(npp_us),
            ratio(ours, npp_us), verdict))
        sys.stdout.flush()
        if recorder:
            label = " ".join(key)
            recorder.add(label, "hres", ours, None, check=verdict if verdict != "-" else None)
            recorder.add(label, "torch_cuda", eager, None)
            recorder.add(label, "npp", npp_us, None)
    if recorder:
        recorder.close()


if __name__ == "__main__":
    main()
