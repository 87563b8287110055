#!/usr/bin/env python3
"""Brute-force check of the window bounds of fitted tap tables.

generators/filters.h fits the antialiased tap tables inside the image
(fit_inside: each output's first tap moved to at most in - count) and widens
the window bounds that the CUDA kernels promise to Halide (fitted_window):
lowest' = min(lowest, in - count), highest' = max(highest, count - 1), with
lowest and highest set_window's bounds. This re-evaluates PyTorch's
antialiased window (docs/SEMANTICS.md 5.1) with float32 or float64 coordinates, as the
generators do, and checks for every output that the fitted taps lie within
those bounds and that no weighted tap falls past the count. Exits non-zero on
a violation.

  python3 bench/tune/check_fitted_windows.py
"""
import math
import random
import struct
import sys


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def violations(n_in, n_out, align_corners, user_scale, half_support, float64, span_bound):
    r = float if float64 else f32
    if n_in == n_out:
        return 0
    if align_corners:
        scale = r(r(n_in - 1) / r(n_out - 1)) if n_out > 1 else 0.0
    elif user_scale > 0:
        scale = r(1.0 / user_scale)
    else:
        scale = r(r(n_in) / r(n_out))
    support = r(half_support * scale) if scale >= 1 else half_support
    max_taps = math.ceil(support) * 2 + 1
    rounding = (scale * (n_out + 0.5) + support + 1) * 2.0 ** -22
    taps = min(max_taps, math.ceil(2 * support + rounding)) if span_bound else max_taps
    count = min(taps, n_in)
    reach = math.ceil(support) + 1
    bad = 0
    for i in range(n_out):
        center = r(scale * (i + 0.5))
        lo = max(int(r(center - support) + 0.5), 0)
        hi = min(int(r(center + support) + 0.5), n_in)
        weighted = min(max(hi - lo, 0), max_taps)
        lowest = min(max(math.floor(scale * i) - reach, 0), n_in - 1)
        highest = min(max(math.floor(scale * (i + 1)) + reach, 0), n_in - 1)
        start = min(lo, n_in - count)
        if start < min(lowest, n_in - count) or start + count - 1 > max(highest, count - 1):
            bad += 1
        elif weighted and (lo - start) + weighted > count:
            bad += 1
    return bad


def main():
    rng = random.Random(2)
    sizes = list(range(1, 34)) + [100, 345, 456, 1080]
    cases = bad = 0
    for n_in in sizes:
        for n_out in sizes + [64, 256, 270, 540]:
            for align_corners in (False, True):
                for user_scale in (0.0, rng.uniform(0.05, 3.0)):
                    for half_support in (1.0, 2.0):
                        for float64 in (False, True):
                            for span_bound in (False, True):
                                cases += 1
                                bad += violations(n_in, n_out, align_corners, user_scale, half_support, float64,
                                                  span_bound) > 0
    print(f"{cases} configurations, {bad} with a tap outside the promised window")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
