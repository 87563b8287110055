#!/usr/bin/env python3
"""PyTorch's grid_sample and affine_grid + grid_sample where the grid or the
theta holds NaN or +-inf (a degenerate theta, a division by zero upstream),
for tests/test_sample_conformance.cpp. Every mode, padding mode and
align_corners, float32 (PyTorch has no uint8 sampler).

    python3 -m venv /tmp/torchenv && /tmp/torchenv/bin/pip install torch==2.15.0 numpy
    /tmp/torchenv/bin/python tests/data/nonfinite/make_nonfinite.py

Writes beside this script: input.npy (1, 2, 5, 7); grid.npy (1, 1, 81, 2),
every pair of the coordinates below; theta.npy (6, 2, 3); grid_expected.npy
(3 modes, 3 paddings, 2 align_corners, 1, 2, 1, 81); affine_expected.npy
(3, 3, 2, 6, 2, 4, 6); provenance.json.
"""
import json, os
import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
MODES = ('bilinear', 'nearest', 'bicubic')
PADDINGS = ('zeros', 'border', 'reflection')
INF, NAN = float('inf'), float('nan')
COORDS = [NAN, INF, -INF, -1.7, -0.2, 0.3, 1.6, 1e30, -1e30]
THETAS = [[[NAN, 0, 0], [0, 1, 0]], [[1, 0, INF], [0, 1, 0]], [[INF, 0, 0], [0, 1, 0]],
          [[0, 0, 0], [0, 0, NAN]], [[1, 0, 0], [0, -INF, 0.5]], [[0.5, 0.2, -INF], [NAN, 1, 0]]]


def main():
    torch.set_num_threads(1)
    x = (torch.arange(70, dtype=torch.float32).reshape(1, 2, 5, 7) * 1.5 + 1)
    grid = torch.tensor([[[[a, b] for a in COORDS for b in COORDS]]], dtype=torch.float32)
    theta = torch.tensor(THETAS, dtype=torch.float32)
    g_out = np.zeros((3, 3, 2, 1, 2, 1, len(COORDS) ** 2), np.float32)
    a_out = np.zeros((3, 3, 2, len(THETAS), 2, 4, 6), np.float32)
    for m, mode in enumerate(MODES):
        for p, padding in enumerate(PADDINGS):
            for a, align in enumerate((False, True)):
                g_out[m, p, a] = F.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=align).numpy()
                affine = F.affine_grid(theta, (len(THETAS), 2, 4, 6), align_corners=align)
                a_out[m, p, a] = F.grid_sample(x.expand(len(THETAS), 2, 5, 7), affine, mode=mode,
                                               padding_mode=padding, align_corners=align).numpy()
    for name, value in (('input', x), ('grid', grid), ('theta', theta), ('grid_expected', g_out),
                        ('affine_expected', a_out)):
        np.save(os.path.join(HERE, name + '.npy'), np.asarray(value, np.float32))
    with open(os.path.join(HERE, 'provenance.json'), 'w') as f:
        json.dump({'torch': torch.__version__, 'cpu_capability': torch.backends.cpu.get_cpu_capability(),
                   'modes': MODES, 'paddings': PADDINGS, 'coords': [str(c) for c in COORDS]}, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
