#!/usr/bin/env python3
"""Tests of the benchmark records (standard library only; no PyTorch, OpenCV or GPU needed).

  python3 bench/test_records.py

- every bench/runs/*.jsonl record is valid and bench/CURRENT.md is what
  bench/current.py writes from them (the same as `current.py --check`);
- bench/compare.py and bench/cuda_peers.py with --record write valid records
  of what they measured and print exactly what they print without it: both run
  in this process on stand-in modules (numpy, torch) with their measuring
  functions replaced by fakes.
"""
import contextlib
import io
import json
import os
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import current  # noqa: E402
import records  # noqa: E402


def install_stand_ins():
    """Minimal numpy and torch modules, enough for compare.py and cuda_peers.py to import."""
    np = types.ModuleType("numpy")
    np.__version__ = "0.0-stand-in"
    torch = types.ModuleType("torch")
    torch.__version__ = "9.9.9+stand-in"
    torch.version = types.SimpleNamespace(cuda="99.0")
    torch.cuda = types.SimpleNamespace(get_device_name=lambda i: "Stand-in GPU")
    nn = types.ModuleType("torch.nn")
    functional = types.ModuleType("torch.nn.functional")
    utils = types.ModuleType("torch.utils")
    benchmark = types.ModuleType("torch.utils.benchmark")
    torch.nn, nn.functional, torch.utils, utils.benchmark = nn, functional, utils, benchmark
    for name, mod in (("numpy", np), ("torch", torch), ("torch.nn", nn), ("torch.nn.functional", functional),
                      ("torch.utils", utils), ("torch.utils.benchmark", benchmark)):
        sys.modules[name] = mod
    for name in ("cv2", "PIL", "PIL.Image"):  # absent peers, whatever this machine has
        sys.modules[name] = None


def run_main(module, argv):
    """module.main() under argv; (stdout, stderr, exit code)."""
    out, err, code = io.StringIO(), io.StringIO(), 0
    old = sys.argv
    sys.argv = argv
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                module.main()
            except SystemExit as e:
                code = e.code
    finally:
        sys.argv = old
    return out.getvalue(), err.getvalue(), code


def read_records(path):
    with open(path) as f:
        recs = [json.loads(line) for line in f]
    for r in recs:
        assert not records.problems(r), records.problems(r)
    return recs


class CurrentInSync(unittest.TestCase):
    def test_runs_valid_and_current_md_in_sync(self):
        recs = records.load_runs(os.path.join(HERE, "runs"))
        self.assertTrue(recs)
        notes = current.load_notes(os.path.join(HERE, "runs", "notes.json"))
        with open(os.path.join(HERE, "CURRENT.md")) as f:
            self.assertEqual(f.read(), current.render(recs, notes),
                             "bench/CURRENT.md is out of date: run python3 bench/current.py")

    def test_newest_wins_and_ratio_within_one_run(self):
        base = {"device": "cpu", "threads": 1, "layout": "nchw", "dtype": "f32", "machine": "h200",
                "commit": None, "versions": {}, "source": "test"}
        case = "resize 1x3x500x400 -> 256x256 nearest"
        with tempfile.TemporaryDirectory() as tmp:
            def write(name, date, cells):
                with open(os.path.join(tmp, name), "w") as f:
                    for impl, us in cells:
                        f.write(json.dumps(dict(base, case=case, impl=impl, us=us, date=date)) + "\n")
            write("2026-12-01-h200-cpu-1-a.jsonl", "2026-12-01", [("hres", 100.0), ("opencv", 80.0)])
            write("2026-12-02-h200-cpu-1-b.jsonl", "2026-12-02", [("hres", 50.0)])
            text = current.render(records.load_runs(tmp), {})
        row = [line for line in text.splitlines() if line.startswith("| " + case)]
        # hres is the newer 50 us; OpenCV (older run, letter a) is paired with its own run's 100 us.
        self.assertEqual(row, ["| %s | f32 | nchw | b | 50.0 | 80.0 [a] | 0.80 |" % case])
        self.assertIn("OpenCV 80.0 us, hres 100.0 us (0.80) [a]", text)

    def test_invalid_record_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "x.jsonl"), "w") as f:
                f.write(json.dumps({"case": "resize 1x3x5x5 -> 2x2 nearest", "impl": "hres", "us": 1}) + "\n")
            with self.assertRaises(ValueError):
                records.load_runs(tmp)


class RecordOptions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        install_stand_ins()
        import compare
        import cuda_peers
        cls.compare, cls.cuda_peers = compare, cuda_peers

    def test_compare_record(self):
        compare = self.compare
        labels = [("resize 1x3x345x456 -> 270x270 bicubic+aa u8 nhwc", "-"),
                  ("resize 1x3x500x400 -> 256x256 nearest f32 nchw", "seed"),
                  ("hflip 4x3x1080x1920 -> 1080x1920 - u8 nchw", "-")]
        cases = [compare.Case(*c) for c in labels]

        def fake_measure(args, case, threads, tmp):
            row = {"label": case.label, "threads": threads, "seed": case.seed == "seed", "isa": "avx2",
                   "hres": 100.0 + threads, "rounds": args.rounds}
            if not case.scaling:
                row.update(check="exact", eager=300.0, opencv=90.0, opencv_same=case.mode != "bicubic")
            return row

        saved = compare.list_cases, compare.measure_rounds
        compare.list_cases = lambda bench, text_filter: cases
        compare.measure_rounds = fake_measure
        try:
            argv = ["compare.py", "--hres", "hres", "--bench", "bench_hres", "--threads", "1,2", "--rounds", "2"]
            plain = run_main(compare, argv)
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "run.jsonl")
                recorded = run_main(compare, argv + ["--record", path, "--machine", "h200"])
                recs = read_records(path)
                again = run_main(compare, argv + ["--record", path, "--machine", "h200"])
            unknown = run_main(compare, argv + ["--record", "never.jsonl", "--machine", "no-such-machine"])
        finally:
            compare.list_cases, compare.measure_rounds = saved
        self.assertEqual(plain[0], recorded[0])  # the same tables printed
        self.assertEqual((plain[2], recorded[2]), (0, 0))
        self.assertEqual(len(recs), 2 * 2 * 3 + 2)  # hres, eager, OpenCV per row and thread count; hres alone
        by = {(r["case"], r["dtype"], r["layout"], r["impl"], r["threads"]): r for r in recs}
        bic = ("resize 1x3x345x456 -> 270x270 bicubic+aa", "u8", "nhwc")
        self.assertEqual(by[bic + ("hres", 2)]["us"], 102.0)
        self.assertEqual(by[bic + ("hres", 1)]["check"], "exact")
        self.assertEqual(by[bic + ("hres", 1)]["isa"], "avx2")
        self.assertIs(by[bic + ("opencv", 1)]["same_mode"], False)
        self.assertEqual(by[bic + ("torch_eager", 1)]["us"], 300.0)
        near = ("resize 1x3x500x400 -> 256x256 nearest", "f32", "nchw")
        self.assertNotIn("same_mode", by[near + ("opencv", 1)])
        self.assertIn(("hflip 4x3x1080x1920 -> 1080x1920 -", "u8", "nchw", "hres", 2), by)
        r = recs[0]
        self.assertEqual((r["machine"], r["device"], r["rounds"]), ("h200", "cpu", 2))
        self.assertEqual(r["versions"], {"torch": "9.9.9+stand-in"})
        self.assertTrue(r["source"].startswith("bench/compare.py --hres hres"))
        self.assertNotEqual(again[2], 0)  # an existing run is not overwritten
        self.assertNotEqual(unknown[2], 0)
        self.assertFalse(os.path.exists("never.jsonl"))

    def test_cuda_peers_record(self):
        cp = self.cuda_peers
        table = ("| op | input -> output | mode | dtype | layout | threads | hres us |\n|---|\n"
                 "| resize | 1x3x345x456 -> 270x270 | bilinear+aa | f32 | nhwc | 1 | 5.7 |\n"
                 "| hflip | 1x3x224x224 -> 224x224 | - | u8 | nchw | 1 | 4.3 |\n")
        fake_npp = types.SimpleNamespace(_name="libnppig.so.99")

        def fake_prepare(key, npp):
            case = cp.Case(" ".join(key), "-")
            return case, None, ("eager" if key[0] == "resize" else None), \
                ("npp",) if key[4] == "nhwc" else None, None

        saved = (cp.subprocess.run, cp.prepare, cp.time_us, cp.check_hres, cp.load_npp)
        cp.subprocess.run = lambda *a, **k: types.SimpleNamespace(returncode=0, stdout=table, stderr="")
        cp.prepare = fake_prepare
        cp.time_us = lambda fn, label: 11.3 if label.startswith("eager") else 6.2
        cp.check_hres = lambda hres, case, x, want: "ok"
        cp.load_npp = lambda: fake_npp
        try:
            argv = ["cuda_peers.py", "--bench", "bench_hres", "--rounds", "2"]
            plain = run_main(cp, argv)
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "run.jsonl")
                recorded = run_main(cp, argv + ["--record", path, "--machine", "h200"])
                recs = read_records(path)
        finally:
            cp.subprocess.run, cp.prepare, cp.time_us, cp.check_hres, cp.load_npp = saved
        self.assertEqual(plain[0], recorded[0])
        self.assertEqual((plain[2], recorded[2]), (0, 0))
        by = {(r["case"], r["impl"]): r for r in recs}
        self.assertEqual(len(recs), 4)  # resize: hres, eager, NPP; hflip: hres (no eager or NPP stand-in)
        aa = "resize 1x3x345x456 -> 270x270 bilinear+aa"
        self.assertEqual((by[(aa, "hres")]["us"], by[(aa, "torch_cuda")]["us"], by[(aa, "npp")]["us"]),
                         (5.7, 11.3, 6.2))
        self.assertEqual(by[(aa, "hres")]["check"], "ok")
        r = by[(aa, "hres")]
        self.assertEqual((r["device"], r["threads"], r["layout"], r["dtype"], r["rounds"]),
                         ("cuda", None, "nhwc", "f32", 2))
        self.assertEqual(r["versions"], {"cuda": "99.0", "npp": "libnppig.so.99", "torch": "9.9.9+stand-in"})


if __name__ == "__main__":
    unittest.main()
