#!/usr/bin/env python3
"""Checks of bench/tune/tune.py (ctest tune.smoke): the generators take every
knob the knob table lists, a tiny tuning run writes its records, best.json
and report, apply writes a valid knob table with the winner's rows, and the
autoschedulers each give a time or a reason.

    test_tune.py BUILD_DIR
"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tune  # noqa: E402

BUILD = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else tune.ROOT / "build")


class Knobs(unittest.TestCase):
    def test_every_listed_knob_is_accepted(self):
        # Each generator built once with every knob of its section given as
        # kTuned (-1, the table's value): a name it does not declare fails.
        t = tune.load_tables()
        generators = BUILD / "bin" / "hres_generators"
        with tempfile.TemporaryDirectory() as tmp:
            for section, body in t["knobs"]["sections"].items():
                for generator in body["generators"]:
                    kernel = next(k for k in t["kernels"] if k["generator"] == generator and k["target"] == "x86")
                    knobs = [f"{name}=-1" for name in body["knobs"]
                             if name not in {p.split("=")[0] for p in kernel["params"]}]
                    done = subprocess.run([str(generators), "-g", generator, "-f", "k", "-o", tmp, "-e", "h",
                                           "target=x86-64-linux-sse41", *kernel["params"], *knobs],
                                          capture_output=True, text=True)
                    self.assertEqual(done.returncode, 0, f"{generator}: {done.stderr[-500:]}")


class Run(unittest.TestCase):
    def test_a_tiny_run_and_apply(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "run"
            code = tune.main(["run", "--kernel", "flip_u8", "--target", "sse41", "--trials", "3", "--rounds", "2",
                              "--min-time", "0.001", "--shape", "1 3 32 40 32 40 nchw", "--out", str(out),
                              "--build", str(BUILD), "--jobs", "2", "--machine", "test"])
            self.assertEqual(code, 0)
            records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
            self.assertGreaterEqual(len(records), 2)
            self.assertEqual(records[0]["params"], {})
            for r in records:
                for key in ("kernel", "target", "shapes", "threads", "commit", "halide", "machine", "params"):
                    self.assertIn(key, r)
                if "us" in r:
                    self.assertTrue(r["equal"], r)  # a knob must not change a flip's bytes
                    self.assertEqual(len(r["us"]), 1)
            best = json.loads((out / "best.json").read_text())
            self.assertEqual(best["kernel"], "flip_u8")
            self.assertLessEqual(best["interval"][0], best["ratio"])

            # report: the run's row, whether or not matplotlib is there.
            self.assertEqual(tune.main(["report", str(out), "--out", str(pathlib.Path(tmp) / "report")]), 0)
            text = (pathlib.Path(tmp) / "report" / "report.md").read_text()
            self.assertIn("| run | flip_u8 | sse41 | test |", text)

            # apply: a winner (made up here, so that there is one) becomes a
            # row for its kernel and target, and the table stays valid.
            won = pathlib.Path(tmp) / "won"
            won.mkdir()
            (won / "best.json").write_text(json.dumps({**best, "params": {"prefetch_lines": 32, "task_bytes": 65536},
                                                       "ratio": 0.9}))
            knobs = pathlib.Path(tmp) / "knobs.toml"
            shutil.copy(tune.table.KNOBS, knobs)
            self.assertEqual(tune.main(["apply", str(won), "--knobs", str(knobs)]), 0)
            self.assertEqual(tune.main(["apply", str(won), "--knobs", str(knobs)]), 0)  # again: replaced, not added
            t = tune.load_tables()
            applied = tune.table.load_knobs(t["entries"], knobs, kernels=t["kernels"])
            for knob, value in (("prefetch_lines", 32), ("task_bytes", 65536)):
                rows = applied["sections"]["flip"]["knobs"][knob]["rows"]
                self.assertEqual(rows[0], {"targets": ["sse41"], "kernels": ["flip_u8"], "value": value})
                self.assertEqual(sum(1 for r in rows if r.get("kernels") == ["flip_u8"]), 1)


class Autoschedule(unittest.TestCase):
    def test_every_scheduler_has_a_time_or_a_reason(self):
        with tempfile.TemporaryDirectory() as tmp:
            code = tune.main(["autoschedule", "--kernel", "flip_u8", "--target", "sse41", "--rounds", "2",
                              "--min-time", "0.001", "--shape", "1 3 32 40 32 40 nchw", "--out", tmp,
                              "--build", str(BUILD), "--jobs", "2", "--machine", "test"])
            self.assertEqual(code, 0)
            summary = json.loads((pathlib.Path(tmp) / "autoschedule.json").read_text())
            self.assertEqual(summary["form"]["fixed_layout"], "nchw")
            self.assertEqual(set(summary["schedulers"]), {"hand", *tune.AUTOSCHEDULERS})
            for name, row in summary["schedulers"].items():
                self.assertTrue(("ratio" in row) != ("error" in row), name)
            # A flip is simple enough for every CPU autoscheduler of Halide 21.
            self.assertIn("ratio", summary["schedulers"]["Adams2019"])

    def test_an_antialiased_resize_is_autoschedulable(self):
        # Its constant tap loops (fixed_taps) and target queries answered at
        # generation let every CPU autoscheduler schedule it, each output
        # equal to the hand kernel's.
        with tempfile.TemporaryDirectory() as tmp:
            code = tune.main(["autoschedule", "--kernel", "resize_bilinear_aa_u8", "--target", "sse41", "--rounds",
                              "1", "--min-time", "0.001", "--shape", "1 3 345 456 270 270 nchw", "--out", tmp,
                              "--build", str(BUILD), "--jobs", "2", "--machine", "test"])
            self.assertEqual(code, 0)
            summary = json.loads((pathlib.Path(tmp) / "autoschedule.json").read_text())
            self.assertEqual(summary["form"]["fixed_taps"], 5)  # ceil(456 / 270) * 2 + 1 (the seed shape: what the estimates say)
            for name in ("Mullapudi2016", "Li2018", "Adams2019"):
                self.assertIn("ratio", summary["schedulers"][name], summary["schedulers"][name])


if __name__ == "__main__":
    unittest.main()
