#!/usr/bin/env python3
"""PyTorch's own decisions at ties, as compact tables for tests/test_ties.cpp.

Every index decision of hres's resize and sampling kernels that can fall on a
tie, recorded from PyTorch itself (never from a formula):
  nearest_maps    nearest and nearest-exact source index of every output, for
                  every input size 1..64 and output size 1..300, by each of
                  PyTorch's two CPU kernels (generic; "channels-last");
  nearest_scaled  the same for explicit scale factors (recompute_scale_factor
                  False), output size floor(in * s) as PyTorch computes it;
  linear_support  float32 bilinear and bicubic, align_corners off and on: the
                  first and last input pixel with a non-zero weight for every
                  output (a one-hot input per channel), input 1..32, output
                  1..160, by the kernels PyTorch has for each;
  grid_nearest    grid_sample nearest at coordinates on and next to every
                  half pixel: the pixel picked (0: none, zeros padding).
Each is checked through the library on every x86 entry and on CUDA.

Run once, in a throwaway virtual environment (never the project's own):
    python3 -m venv /tmp/torchenv && /tmp/torchenv/bin/pip install torch==2.15.0 numpy
    /tmp/torchenv/bin/python tests/data/ties/make_ties.py
It writes tests/data/ties/*.npy.gz and provenance.json (PyTorch version, the
CPU capability its kernels ran with, the CPU), and asserts what the tables
rely on: each map is the same along H and W, and PyTorch's "channels-last"
kernel is the one small NCHW outputs get. `--out DIR` writes them to DIR
instead, and `--compare` then says which tables differ from the ones here
(another PyTorch or CPU).
"""
import argparse, gzip, io, json, os, platform, subprocess
import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = HERE
torch.set_num_threads(1)
IN_MAX, OUT_MAX = 64, 300            # nearest maps
LIN_IN_MAX, LIN_OUT_MAX = 32, 160    # linear / cubic supports
GRID_MAX = 64                        # grid_sample sizes
# Explicit scale factors, float32 values so that a table holds them exactly.
SCALES = [np.float32(s) for s in (0.3, 0.45, 0.5, 0.7, 0.99, 1.0, 1.01, 1.05, 1.3, 1.5, 1.7, 1.99,
                                  2.0, 2.05, 2.5, 3.0, 3.3, 4.0, 1 / 3, 2 / 3, 4 / 3, 7 / 3)]
# PyTorch's CPU kernels for nearest and bilinear (UpSampleKernel.cpp,
# _use_vectorized_kernel_cond_2d): "channels-last" for a channels-last input
# with C > 3 or an output with H + W <= 128, else generic.
KERNELS = ('generic', 'channels_last')


def save(name, array):
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(array))
    with gzip.GzipFile(os.path.join(OUT, name + '.npy.gz'), 'wb', compresslevel=9, mtime=0) as f:
        f.write(buf.getvalue())


def along(axis, n, channels, cl):
    """(1, channels, 1, n) or (1, channels, n, 1), channel c = arange(n)."""
    shape = (1, 1, 1, n) if axis == 'w' else (1, 1, n, 1)
    x = torch.arange(n, dtype=torch.float32).reshape(shape).expand(*((1, channels) + shape[2:])).contiguous()
    return x.contiguous(memory_format=torch.channels_last) if cl else x


def nearest_call(mode, kernel, n, o=None, scale=None, axis='w'):
    """PyTorch's map along `axis` for n -> o (or scale factor), by `kernel`."""
    # The other axis: 1 -> `other`, large enough for the generic kernel.
    generic = kernel == 'generic'
    if o is None:
        o = int(np.floor(n * np.float64(scale)))
    other = max(1, 129 - o) if generic else 1
    x = along(axis, n, 2 if generic else 4, cl=not generic)
    if scale is None:
        size = (other, o) if axis == 'w' else (o, other)
        y = F.interpolate(x, size=size, mode=mode)
    else:
        # The other axis' factor gives it `other` rows from one.
        factors = (float(other), float(scale)) if axis == 'w' else (float(scale), float(other))
        y = F.interpolate(x, scale_factor=factors, mode=mode, recompute_scale_factor=False)
    row = y[0, 0, 0, :] if axis == 'w' else y[0, 0, :, 0]
    return row.to(torch.int64).numpy()


def nearest_maps():
    """(2 modes, 2 kernels, sum of out) uint8, in order in = 1.., out = 1.., i."""
    table = np.zeros((2, 2, IN_MAX * OUT_MAX * (OUT_MAX + 1) // 2), np.uint8)
    for m, mode in enumerate(('nearest', 'nearest-exact')):
        for k, kernel in enumerate(KERNELS):
            at = 0
            for n in range(1, IN_MAX + 1):
                for o in range(1, OUT_MAX + 1):
                    w = nearest_call(mode, kernel, n, o, axis='w')
                    assert (w == nearest_call(mode, kernel, n, o, axis='h')).all(), (mode, kernel, n, o)
                    if kernel == 'channels_last' and o <= 127:
                        small = F.interpolate(along('w', n, 2, False), size=(1, o), mode=mode)[0, 0, 0]
                        assert (small.to(torch.int64).numpy() == w).all(), (mode, n, o)
                    table[m, k, at:at + o] = w
                    at += o
    return table


def nearest_scaled():
    """Rows (mode, kernel, scale index, in, out, map offset) int32 and the maps uint8."""
    rows, maps = [], []
    for m, mode in enumerate(('nearest', 'nearest-exact')):
        for k, kernel in enumerate(KERNELS):
            for si, s in enumerate(SCALES):
                for n in range(1, IN_MAX + 1):
                    o = int(np.floor(n * np.float64(s)))
                    if o < 1:
                        continue
                    w = nearest_call(mode, kernel, n, scale=s, axis='w')
                    assert len(w) == o and (w == nearest_call(mode, kernel, n, scale=s, axis='h')).all()
                    rows.append((m, k, si, n, o, sum(len(x) for x in maps)))
                    maps.append(w.astype(np.uint8))
    return np.array(rows, np.int32), np.concatenate(maps)


def support(mode, align, kernel, n, o, axis):
    """First and last input pixel of non-zero weight for each output."""
    channels = max(n, 4)
    generic = kernel == 'generic'
    other = max(1, 129 - o) if generic else 1
    shape = (1, channels, 1, n) if axis == 'w' else (1, channels, n, 1)
    x = torch.zeros(shape)
    for j in range(n):
        if axis == 'w':
            x[0, j, 0, j] = 1
        else:
            x[0, j, j, 0] = 1
    if not generic:
        x = x.contiguous(memory_format=torch.channels_last)
    size = (other, o) if axis == 'w' else (o, other)
    y = F.interpolate(x, size=size, mode=mode, align_corners=align)
    weights = (y[0, :n, 0, :] if axis == 'w' else y[0, :n, :, 0]).numpy()  # (n, o)
    nonzero = weights != 0
    assert nonzero.any(0).all()
    return nonzero.argmax(0), n - 1 - nonzero[::-1].argmax(0)


def linear_support():
    """(2 modes, 2 aligns, 2 kernels, 2 [first, last], sum over in of sum of out) uint8."""
    count = LIN_IN_MAX * LIN_OUT_MAX * (LIN_OUT_MAX + 1) // 2
    table = np.zeros((2, 2, 2, 2, count), np.uint8)
    for m, mode in enumerate(('bilinear', 'bicubic')):
        for a, align in enumerate((False, True)):
            for k, kernel in enumerate(KERNELS):
                at = 0
                for n in range(1, LIN_IN_MAX + 1):
                    for o in range(1, LIN_OUT_MAX + 1):
                        first, last = support(mode, align, kernel, n, o, 'w')
                        h_first, h_last = support(mode, align, kernel, n, o, 'h')
                        assert (first == h_first).all() and (last == h_last).all(), (mode, align, kernel, n, o)
                        table[m, a, k, 0, at:at + o] = first
                        table[m, a, k, 1, at:at + o] = last
                        at += o
    return table


def half_pixel_grid(n, align):
    """Normalised coordinates at every half pixel from -2n to 3n, each with
    its two float32 neighbours on either side."""
    g = []
    for twice in range(-4 * n - 1, 6 * n + 2, 2):   # source coordinate twice/2
        x = twice / 2
        if align and n == 1:   # every coordinate maps to pixel 0: any spread of g
            exact = twice / 8
        else:
            exact = 2 * x / (n - 1) - 1 if align else (2 * x + 1) / n - 1
        v = np.float32(exact)
        g += [np.nextafter(np.nextafter(v, -np.inf, dtype=np.float32), -np.inf, dtype=np.float32),
              np.nextafter(v, -np.inf, dtype=np.float32), v,
              np.nextafter(v, np.inf, dtype=np.float32),
              np.nextafter(np.nextafter(v, np.inf, dtype=np.float32), np.inf, dtype=np.float32)]
    return np.unique(np.array(g, np.float32))


def grid_nearest():
    """Rows (n, align, offset, count) int32, their coordinates float32, and the
    pixel picked at each (3 paddings, 2 axes, coordinate) uint8."""
    rows, coords = [], []
    picks = [[[] for _ in 'wh'] for _ in range(3)]
    for n in range(1, GRID_MAX + 1):
        for a, align in enumerate((False, True)):
            g = half_pixel_grid(n, align)
            rows.append((n, a, sum(len(c) for c in coords), len(g)))
            coords.append(g)
            for p, padding in enumerate(('zeros', 'border', 'reflection')):
                for ax, axis in enumerate('wh'):
                    # Pixel j holds j + 1, so that 0 is "outside" (zeros padding).
                    shape = (1, 1, 1, n) if axis == 'w' else (1, 1, n, 1)
                    x = (torch.arange(n, dtype=torch.float32) + 1).reshape(shape)
                    grid = torch.zeros(1, 1, len(g), 2)
                    grid[0, 0, :, 0 if axis == 'w' else 1] = torch.from_numpy(g)
                    y = F.grid_sample(x, grid, mode='nearest', padding_mode=padding, align_corners=align)
                    picks[p][ax].append(y[0, 0, 0].to(torch.int64).numpy().astype(np.uint8))
    picks = np.array([[np.concatenate(axis) for axis in padding] for padding in picks])
    return np.array(rows, np.int32), np.concatenate(coords), picks


def main():
    global OUT
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', default=HERE)
    parser.add_argument('--compare', action='store_true')
    args = parser.parse_args()
    OUT = args.out
    os.makedirs(OUT, exist_ok=True)
    save('nearest_maps', nearest_maps())
    rows, maps = nearest_scaled()
    save('nearest_scaled_rows', rows)
    save('nearest_scaled_maps', maps)
    save('nearest_scales', np.array(SCALES, np.float32))
    save('linear_support', linear_support())
    rows, coords, picks = grid_nearest()
    save('grid_nearest_rows', rows)
    save('grid_nearest_coords', coords)
    save('grid_nearest_picks', picks)
    cpu = subprocess.run(['lscpu'], capture_output=True, text=True).stdout
    model = next((l.split(':', 1)[1].strip() for l in cpu.splitlines() if l.startswith('Model name')), platform.processor())
    with open(os.path.join(OUT, 'provenance.json'), 'w') as f:
        json.dump({'torch': torch.__version__, 'cpu_capability': torch.backends.cpu.get_cpu_capability(),
                   'cpu': model, 'threads': torch.get_num_threads(),
                   'nearest': [IN_MAX, OUT_MAX], 'linear': [LIN_IN_MAX, LIN_OUT_MAX], 'grid': GRID_MAX,
                   'scales': [float(s) for s in SCALES]}, f, indent=1)
        f.write('\n')
    if args.compare:
        for name in sorted(n for n in os.listdir(HERE) if n.endswith('.npy.gz')):
            same = np.array_equal(np.load(gzip.open(os.path.join(HERE, name))), np.load(gzip.open(os.path.join(OUT, name))))
            print(name, 'same' if same else 'DIFFERENT')


if __name__ == '__main__':
    main()
