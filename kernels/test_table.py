#!/usr/bin/env python3
"""Checks of kernels/table.py (standard library only; ctest kernels.table):
the real kernel table expands to the libraries the build makes, the knob
table classifies every GeneratorParam of every generator, and a table with a
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


GENERATORS = pathlib.Path(__file__).resolve().parent.parent / "generators"


def declared_params():
    """{registered generator: {GeneratorParam: its declared default}}, from generators/*.cpp."""
    declared = {}
    for path in sorted(GENERATORS.glob("*_generator.cpp")):
        source = path.read_text()
        params, bases = {}, {}
        for chunk in re.split(r"\n(?=(?:template<typename T>\n)?class \w+)", source):
            m = re.match(r"(?:template<typename T>\n)?class (\w+)(?: : public (\w+)<)?", chunk)
            if m:
                bases[m.group(1)] = m.group(2)
                params[m.group(1)] = dict(re.findall(r'GeneratorParam<[^>]+>\s+\w+\{"(\w+)",\s*([^,}]+)', chunk))
        for cls, name in re.findall(r"HALIDE_REGISTER_GENERATOR\((\w+), (\w+)\)", source):
            declared[name] = {**params.get(bases.get(cls), {}), **params[cls]}
    return declared


class KnobTable(unittest.TestCase):
    def test_every_generator_param_is_a_knob_or_a_variant(self):
        knobs = table.load_knobs(table.load()["entries"])
        declared = declared_params()
        covered = set()
        for section, body in knobs["sections"].items():
            for generator in body["generators"]:
                self.assertIn(generator, declared, f"[{section}] names no generator")
                covered.add(generator)
                params = dict(declared[generator])
                # The kernel table's name for a kernel, which knob rows may name.
                self.assertIn("kernel", params, generator)
                del params["kernel"]
                self.assertEqual(sorted(params), sorted(set(body["knobs"]) | set(body["variants"])), generator)
                for name in body["knobs"]:
                    self.assertIn("kTuned", params[name], f"{generator}.{name} is a knob: declare it kTuned")
                for name in body["variants"]:
                    self.assertNotIn("kTuned", params[name], f"{generator}.{name} is not a knob")
        self.assertEqual(covered, set(declared))

    def test_every_kernel_sets_only_what_its_generator_has(self):
        declared = declared_params()
        for k in table.load()["kernels"]:
            for p in k["params"]:
                name = p.split("=", 1)[0]
                if "." not in name:  # input.type and output.type are Halide's
                    self.assertIn(name, declared[k["generator"]], k["name"])

    def test_header_is_deterministic(self):
        entries = table.load()["entries"]
        self.assertEqual(table.knob_header(table.load_knobs(entries)), table.knob_header(table.load_knobs(entries)))


KNOBS = '''
[facts]
uint8 = "the pixels are uint8"
[flip]
variants = ["interleaved_rows"]
task_bytes = { default = 4096, domain = [1024, 4096], on = ["x86"] }
[flip.prefetch_lines]
domain = [0, 16]
on = ["x86"]
default = [
    { targets = ["avx2"], if = ["uint8"], value = 16 },
    { value = 0 },
]
'''


class KnobRefusals(unittest.TestCase):
    def load(self, text):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "knobs.toml"
            path.write_text(text)
            t = load_text(GENERAL)
            return table.load_knobs(t["entries"], path, kernels=t["kernels"])

    def refused(self, text, message):
        with self.assertRaises(table.TableError) as e:
            self.load(text)
        self.assertIn(message, str(e.exception))

    def test_a_valid_table_loads(self):
        knobs = self.load(KNOBS)
        self.assertEqual(knobs["targets"], ["avx2", "sse41", "cuda"])
        header = table.knob_header(knobs)
        self.assertIn('{"flip", "prefetch_lines", "", 0x1, fact::uint8, 0, 16.0},', header)
        self.assertIn('{"flip", "prefetch_lines", "", 0x7, 0, 0, 0.0},', header)

    def test_rows_may_name_kernels(self):
        text = KNOBS.replace('{ value = 0 },', '{ kernels = ["flip_u8"], value = 16 },\n    { value = 0 },')
        header = table.knob_header(self.load(text))
        self.assertIn('{"flip", "prefetch_lines", "flip_u8", 0x7, 0, 0, 16.0},', header)

    def test_unknown_kernel(self):
        self.refused(KNOBS.replace('{ value = 0 },', '{ kernels = ["flip_u16"], value = 16 },\n    { value = 0 },'),
                     "unknown kernels ['flip_u16']")

    def test_unknown_fact(self):
        self.refused(KNOBS.replace('if = ["uint8"]', 'if = ["!rgb"]'), "unknown facts ['rgb']")

    def test_unknown_target(self):
        self.refused(KNOBS.replace('targets = ["avx2"]', 'targets = ["neon"]'), "unknown targets ['neon']")

    def test_last_row_must_hold_everywhere(self):
        self.refused(KNOBS.replace("    { value = 0 },\n", ""), "the last row, and only it, must hold everywhere")

    def test_no_row_after_the_unconditional_one(self):
        self.refused(KNOBS.replace("    { value = 0 },\n", "    { value = 0 },\n    { value = 1 },\n"),
                     "the last row, and only it, must hold everywhere")

    def test_values_are_numbers(self):
        self.refused(KNOBS.replace("default = 4096", 'default = "big"'), "the value must be a number")

    def test_a_default_lies_in_the_domain(self):
        self.refused(KNOBS.replace("domain = [1024, 4096]", "domain = [1024]"), "defaults [4096] lie outside its domain")

    def test_a_knob_says_where_it_is_tuned(self):
        self.refused(KNOBS.replace('domain = [1024, 4096], on = ["x86"]', 'domain = [1024, 4096], on = ["arm"]'),
                     "`on` names where it is tuned")

    def test_a_knob_needs_a_default(self):
        self.refused(KNOBS.replace('task_bytes = { default = 4096, domain = [1024, 4096], on = ["x86"] }',
                                   'task_bytes = { about = "bytes" }'),
                     "task_bytes has no default")


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
