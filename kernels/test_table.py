#!/usr/bin/env python3
"""Checks of kernels/table.py (standard library only; ctest kernels.table):
the real table expands to the libraries the build makes, and a table with a
mistake is refused with a message that names it."""
import pathlib
import re
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import table  # noqa: E402

HEADER = '''
[defaults]
cuda_target = "x86-64-linux-sse41-cuda-cuda_capability_61"
[dtype.u8]
type = "uint8"
[[entry]]
name = "avx2"
isa = "avx2"
features = "sse41-avx-avx2-fma-f16c"
[[entry]]
name = "sse41"
isa = "sse41"
features = "sse41"
'''

GENERAL = '''
[[kernel]]
name = "flip_{dtype}"
generator = "flip"
targets = ["x86", "cuda"]
op = "flip"
axes = { dtype = ["u8"] }
params = ["input.type={dtype.type}"]
why = "general"
record = "here"
'''


def load_text(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "kernels.toml"
        path.write_text(HEADER + text)
        return table.load(path)


class RealTable(unittest.TestCase):
    def test_expands_every_library_once(self):
        t = table.load()
        names = [k["library"] for k in t["kernels"]]
        self.assertEqual(len(names), len(set(names)))
        self.assertGreater(len(names), 100)
        # Every x86 kernel is built for every entry, most specific first.
        entries = [e["features"] for e in t["entries"]]
        for k in t["kernels"]:
            if k["target"] == "x86":
                self.assertEqual([re.sub(r"^x86-64-linux-|-enable_llvm_loop_opt$", "", h)
                                  for h in k["halide_targets"]], entries, k["name"])

    def test_outputs_are_deterministic(self):
        t = table.load()
        self.assertEqual(table.registry(t), table.registry(table.load()))
        self.assertEqual(table.cmake(t), table.cmake(table.load()))


class Refusals(unittest.TestCase):
    def refused(self, text, message):
        with self.assertRaises(table.TableError) as e:
            load_text(text)
        self.assertIn(message, str(e.exception))

    def test_a_valid_table_loads(self):
        t = load_text(GENERAL)
        self.assertEqual([k["name"] for k in t["kernels"]], ["flip_u8", "flip_u8_cuda"])
        self.assertEqual(t["kernels"][0]["rule"], "flip u8 on cpu: any other")

    def test_unknown_key(self):
        self.refused(GENERAL.replace('why = "general"', 'why = "general"\nspeed = 2'), "unknown keys ['speed']")

    def test_duplicate_kernel(self):
        self.refused(GENERAL + GENERAL, "listed twice")

    def test_variant_without_a_general_kernel(self):
        self.refused(GENERAL.replace('axes = { dtype = ["u8"] }', 'axes = { dtype = ["u8"] }\nwhen = { layouts = ["rgb"] }'),
                     "no unconditional kernel serves flip u8 on cpu")

    def test_unknown_entry(self):
        variant = GENERAL.replace('name = "flip_{dtype}"', 'name = "flip_{dtype}_fast"').replace(
            'targets = ["x86", "cuda"]', 'targets = ["x86"]\nwhen = { entries = ["avx512_spr"] }')
        self.refused(variant + GENERAL, "entry 'avx512_spr' is not one of")

    def test_unknown_layout(self):
        variant = GENERAL.replace('name = "flip_{dtype}"', 'name = "flip_{dtype}_fast"').replace(
            'targets = ["x86", "cuda"]', 'targets = ["x86"]\nwhen = { layouts = ["rgbx"] }')
        self.refused(variant + GENERAL, "layout 'rgbx' is not one of")

    def test_unknown_axis_in_a_template(self):
        self.refused(GENERAL.replace("input.type={dtype.type}", "input.type={pixel}"), "unknown axis 'pixel'")

    def test_tables_must_name_a_taps_helper(self):
        self.refused(GENERAL.replace('why = "general"', 'why = "general"\ntables = "flip_u8"'),
                     "is not a resize_taps kernel")

    def test_non_ascii_text(self):
        self.refused(GENERAL.replace('why = "general"', 'why = "g\u00e9n\u00e9ral"'), "ASCII only")


if __name__ == "__main__":
    unittest.main()
