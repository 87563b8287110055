#!/usr/bin/env python3
"""The conformance corpus (tests/data/conformance, PyTorch 2.11) recomputed by
another PyTorch: the same cases and inputs, PyTorch's outputs now. Writes
cases.jsonl (inputs, grids and thetas named in ../conformance) and the
expected arrays beside this script, and prints how many outputs differ from
the 2.11 ones.

    python3 -m venv /tmp/torchenv && /tmp/torchenv/bin/pip install torch==2.15.0 numpy
    /tmp/torchenv/bin/python tests/data/conformance-2.15/make_corpus.py
"""
import json, os
import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, '..', 'conformance')


def array(case, role):
    return np.load(os.path.join(SOURCE, case['files'][role]))


def run(case):
    """PyTorch's output, and for affine_grid_sample the grid it built."""
    x = torch.from_numpy(array(case, 'input'))
    op = case['op']
    if op == 'resize':
        kw = dict(mode=case['mode'], antialias=case.get('antialias', False))
        if case['mode'] in ('bilinear', 'bicubic'):
            kw['align_corners'] = case['align_corners']
        if case.get('size'):
            kw['size'] = tuple(case['size'])
        else:
            kw['scale_factor'] = tuple(case['scale_factor'])
            kw['recompute_scale_factor'] = False
        return F.interpolate(x, **kw), None
    if op in ('grid_sample', 'affine_grid_sample'):
        if op == 'grid_sample':
            grid = torch.from_numpy(array(case, 'grid'))
        else:
            n, c = x.shape[:2]
            grid = F.affine_grid(torch.from_numpy(array(case, 'theta')), (n, c) + tuple(case['size']),
                                 align_corners=case['align_corners'])
        out = F.grid_sample(x, grid, mode=case['mode'], padding_mode=case['padding_mode'],
                            align_corners=case['align_corners'])
        return out, (grid if op == 'affine_grid_sample' else None)
    if op == 'flip':
        return torch.flip(x, {'horizontal': [3], 'vertical': [2], 'both': [2, 3]}[case['axes']]), None
    raise ValueError(op)


def main():
    torch.set_num_threads(1)
    cases = [json.loads(line) for line in open(os.path.join(SOURCE, 'cases.jsonl'))]
    differ, grids_differ, written = 0, 0, []
    for case in cases:
        if case.get('unsupported'):
            written.append(case)
            continue
        out, grid = run(case)
        out = out.contiguous().numpy()
        before = array(case, 'expected')
        assert out.shape == before.shape and out.dtype == before.dtype, case['id']
        if not np.array_equal(out, before):
            differ += 1
            print(case['id'], case['op'], case.get('mode'), case['dtype'], 'max |2.15 - 2.11|',
                  float(np.abs(out.astype(np.float64) - before.astype(np.float64)).max()))
        here = {'expected': out}
        if grid is not None:
            here['grid'] = grid.contiguous().numpy()
            grids_differ += not np.array_equal(here['grid'], array(case, 'grid'))
        for role, value in here.items():
            np.save(os.path.join(HERE, '%s_%s.npy' % (case['id'], role)), value)
        case = dict(case)
        case['files'] = {role: ('%s_%s.npy' % (case['id'], role) if role in here else '../conformance/' + f)
                         for role, f in case['files'].items()}
        written.append(case)
    with open(os.path.join(HERE, 'cases.jsonl'), 'w') as f:
        for case in written:
            f.write(json.dumps(case) + '\n')
    with open(os.path.join(HERE, 'README.md'), 'w') as f:
        f.write('The conformance corpus of ../conformance (PyTorch 2.11) recomputed with PyTorch %s '
                '(CPU capability %s, 1 thread) by make_corpus.py: the same %d cases and inputs; '
                'expected arrays and affine_grid\'s grids here, inputs, explicit grids and thetas there. '
                '%d outputs and %d affine grids differ from 2.11\'s.\n'
                % (torch.__version__, torch.backends.cpu.get_cpu_capability(), len(cases), differ, grids_differ))
    print(differ, 'of', len(cases), 'outputs differ;', grids_differ, 'affine grids differ')


if __name__ == '__main__':
    main()
