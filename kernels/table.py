#!/usr/bin/env python3
"""Expands the kernel table (kernels/kernels.toml) and writes what is built from it.

    table.py list                 every kernel, in dispatch order, with its rule
    table.py json                 the expanded table, for tools (the tuner)
    table.py cmake FILE           hres_add_kernel() calls, one per kernel library
    table.py registry FILE        the runtime's registry (C++): declarations,
                                  entry points, rules, names
    table.py knobs FILE           the knob table (kernels/knobs.toml) as a C++
                                  header, for the generators and the runtime

Files are rewritten only when their contents change, so that a configure
step that changes nothing rebuilds nothing.
"""
import itertools
import json
import pathlib
import re
import sys
import tomllib

TABLE = pathlib.Path(__file__).with_name("kernels.toml")
KNOBS = pathlib.Path(__file__).with_name("knobs.toml")

# The call attributes an axis of the same name restricts, and their values.
CALL_AXES = {
    "op": ["resize", "grid_sample", "affine_grid_sample", "flip", "resize_taps"],
    "mode": ["nearest", "nearest_exact", "bilinear", "bicubic"],
    "dtype": ["u8", "f32"],
    "antialias": [False, True],
    "padding": ["zeros", "border", "reflection"],
}
LAYOUTS = ["planar", "rgb", "rgba", "interleaved", "mixed"]
VENDORS = ["amd"]
# Calling forms (runtime/src/dispatch.h, struct EntryPoint): the generator's
# own, unless a family names another.
CALLS = ["resize_nearest", "resize_filtered", "resize_vertical", "resize_tabled", "resize_taps", "grid_sample",
         "affine_grid_sample", "flip"]
FAMILY_KEYS = {"name", "generator", "targets", "op", "axes", "skip", "params", "llvm_vectorizer", "when", "call",
               "tables", "splits_batch", "why", "record"}
WHEN_KEYS = {"layouts", "entries", "vendor", "facts"}


class TableError(Exception):
    pass


def value_of(v):
    return v["value"] if isinstance(v, dict) else v


def text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def holds(term, combo):
    term = term.strip()
    if "==" in term:
        axis, want = (t.strip() for t in term.split("==", 1))
        if axis not in combo:
            raise TableError(f"unknown axis '{axis}' in '{term}'")
        return text(value_of(combo[axis])) == want
    negated = term.startswith("!")
    axis = term[1:] if negated else term
    if axis not in combo or not isinstance(value_of(combo[axis]), bool):
        raise TableError(f"'{term}' needs a boolean axis")
    return value_of(combo[axis]) != negated


def expand(template, combo, dtypes):
    """Fills a template string: {axis}, {axis.attr}, {axis==value}, {condition?text}."""

    def field(match):
        body = match.group(1)
        if "?" in body:
            condition, result = body.split("?", 1)
            return result if all(holds(t, combo) for t in condition.split("&&")) else ""
        if "==" in body:
            return text(holds(body, combo))
        axis, _, attr = body.partition(".")
        if axis not in combo:
            raise TableError(f"unknown axis '{axis}' in '{template}'")
        v = combo[axis]
        if not attr:
            return text(value_of(v))
        if isinstance(v, dict) and attr in v:
            return text(v[attr])
        if axis == "dtype" and attr in dtypes.get(value_of(v), {}):
            return text(dtypes[value_of(v)][attr])
        raise TableError(f"axis '{axis}' value {value_of(v)!r} has no attribute '{attr}'")

    return re.sub(r"\{([^{}]*)\}", field, template)


def load(path=TABLE):
    with open(path, "rb") as f:
        table = tomllib.load(f)
    entries = table.get("entry", [])
    entry_names = [e["name"] for e in entries]
    dtypes = table.get("dtype", {})
    cuda_target = table["defaults"]["cuda_target"]
    kernels = []
    for index, family in enumerate(table.get("kernel", [])):
        where = f"kernel family {index + 1} ({family.get('name', '?')})"
        try:
            unknown = set(family) - FAMILY_KEYS
            if unknown:
                raise TableError(f"unknown keys {sorted(unknown)}")
            when = family.get("when", {})
            if set(when) - WHEN_KEYS:
                raise TableError(f"unknown 'when' keys {sorted(set(when) - WHEN_KEYS)}")
            axes = family.get("axes", {})
            names = list(axes)
            for combo_values in itertools.product(*(axes[n] for n in names)):
                combo = dict(zip(names, combo_values))
                if "op" in family:
                    combo.setdefault("op", family["op"])
                if any(all(text(value_of(combo.get(k))) == text(v) for k, v in s.items())
                       for s in family.get("skip", [])):
                    continue
                for target in family["targets"]:
                    kernels.append(make_kernel(family, combo, target, entries, entry_names, dtypes, cuda_target,
                                               index))
        except (TableError, KeyError) as e:
            raise TableError(f"{path.name}: {where}: {e}") from None
    check(kernels, entry_names)
    return {"entries": entries, "kernels": kernels}


def make_kernel(family, combo, target, entries, entry_names, dtypes, cuda_target, index):
    fill = lambda t: expand(t, combo, dtypes)
    base = fill(family["name"])
    name = base + ("_cuda" if target == "cuda" else "")
    when = family.get("when", {})
    kernel = {
        "name": name,
        "library": "hres_" + name,
        "family": index,
        "generator": fill(family["generator"]),
        "target": target,
        "device": "cuda" if target == "cuda" else "cpu",
        "params": [p for p in (fill(p) for p in family.get("params", [])) if p] + [f"kernel={name}"],
        "call": fill(family.get("call", family["generator"])),
        "tables": fill(family["tables"]) if "tables" in family else None,
        "splits_batch": bool(family.get("splits_batch", False)),
        "layouts": [fill(l) for l in when.get("layouts", [])],
        "entries": [fill(e) for e in when.get("entries", [])] if target == "x86" else [],
        "vendor": when.get("vendor"),
        "facts": [fill(f) for f in when.get("facts", [])],
        "why": fill(family["why"]),
        "record": fill(family["record"]),
    }
    for axis, values in CALL_AXES.items():
        if axis in combo:
            v = value_of(combo[axis])
            if v not in values:
                raise TableError(f"{axis} {v!r} is not one of {values}")
            kernel[axis] = v
    if "op" not in kernel:
        raise TableError("no op (give 'op' or an 'op' axis)")
    if target == "x86":
        vectorized = {fill(e) for e in family.get("llvm_vectorizer", [])} - {""}
        if vectorized - set(entry_names):
            raise TableError(f"llvm_vectorizer names unknown entries {sorted(vectorized - set(entry_names))}")
        kernel["halide_targets"] = ["x86-64-linux-" + e["features"] + ("-enable_llvm_loop_opt"
                                                                       if e["name"] in vectorized else "")
                                    for e in entries]
    elif target == "cuda":
        kernel["halide_targets"] = [cuda_target]
    else:
        raise TableError(f"unknown target '{target}'")
    if kernel["call"] not in CALLS:
        raise TableError(f"call '{kernel['call']}' is not one of {CALLS}")
    for l in kernel["layouts"]:
        if l not in LAYOUTS:
            raise TableError(f"layout '{l}' is not one of {LAYOUTS}")
    for e in kernel["entries"]:
        if e not in entry_names:
            raise TableError(f"entry '{e}' is not one of {entry_names}")
    if kernel["vendor"] not in [None] + VENDORS:
        raise TableError(f"vendor '{kernel['vendor']}' is not one of {VENDORS}")
    kernel["rule"] = rule_text(kernel)
    for field in ("name", "rule", "why", "record"):
        if not kernel[field].isascii():
            raise TableError(f"{field} of {name}: ASCII only (the registry's texts)")
    return kernel


def rule_text(k):
    serves = " ".join(text(k[a]) if a != "antialias" else ("antialias" if k[a] else "")
                      for a in ("op", "mode", "antialias", "padding", "dtype") if a in k)
    serves = " ".join(serves.split()) + " on " + k["device"]
    conditions = []
    if k["layouts"]:
        conditions.append("layout " + "|".join(k["layouts"]))
    if k["entries"]:
        conditions.append("entry " + "|".join(k["entries"]))
    if k["vendor"]:
        conditions.append("vendor " + k["vendor"])
    conditions += k["facts"]
    return serves + (": " + ", ".join(conditions) if conditions else ": any other")


def check(kernels, entry_names):
    if len(kernels) > 256:
        raise TableError(f"{len(kernels)} kernels: the dispatcher's masks hold 256 (dispatch.cpp, kMaxKernels)")
    if len(entry_names) > 8:
        raise TableError(f"{len(entry_names)} x86 entries: a rule's entry mask holds 8 (dispatch.h)")
    names = [k["name"] for k in kernels]
    for n in sorted({n for n in names if names.count(n) > 1}):
        raise TableError(f"kernel '{n}' is listed twice")
    by_name = {k["name"]: k for k in kernels}
    for k in kernels:
        if k["tables"] and by_name.get(k["tables"], {}).get("op") != "resize_taps":
            raise TableError(f"{k['name']}: tables '{k['tables']}' is not a resize_taps kernel")
    # Each (op, device) group ends with a kernel that serves every call of
    # its axes' values: an unconditional row for every combination some row serves.
    for k in kernels:
        if k["op"] == "resize_taps":
            continue
        key = lambda r: tuple(r.get(a) for a in ("op", "device", "mode", "dtype", "antialias"))
        if not any(key(r) == key(k) and not (r["layouts"] or r["entries"] or r["vendor"] or r["facts"])
                   and "padding" not in r for r in kernels):
            raise TableError(f"{k['name']}: no unconditional kernel serves {k['rule'].split(':')[0]}")


def cpp_string(s):
    return json.dumps(s)


def registry(table):
    kernels = table["kernels"]
    entries = table["entries"]
    out = ["// Generated by kernels/table.py from kernels/kernels.toml: do not edit.", "#include \"dispatch.h\"",
           "#include \"HalideRuntime.h\"", ""]
    out += [f"#include \"{k['library']}.h\"" for k in kernels]
    out += ["", "namespace hres::internal {", ""]
    out.append("const X86Entry kX86Entries[] = {")
    for e in entries:
        features = ", ".join("halide_target_feature_" + f for f in e["features"].split("-"))
        gathers = "true" if e.get("llvm_gathers") else "false"
        out.append(f"    {{{cpp_string(e['name'])}, Isa::{e['isa']}, {gathers}, {{{features}}}}},")
    out.append("};")
    out.append(f"const int kX86EntryCount = {len(entries)};")
    out.append("")
    entry_index = {e["name"]: i for i, e in enumerate(entries)}
    # Grouped by op and device, each group in table order (the rule order).
    group = lambda k: (CALL_AXES["op"].index(k["op"]), k["device"] == "cuda")
    kernels = sorted(kernels, key=group)
    index = {k["name"]: i for i, k in enumerate(kernels)}

    # The rows' texts in one block, each once: offsets, not pointers, keep
    # the rows small and free of relocations.
    texts, at = [], {}

    def text_at(value):
        if value not in at:
            at[value] = sum(len(t.encode()) + 1 for t in texts)
            texts.append(value)
        return str(at[value])

    def mask(prefix, values):
        if not values:
            return "kAny"
        return " | ".join(f"bit({prefix}{text(v) if not isinstance(v, bool) else ('yes' if v else 'no')})"
                          for v in values)

    rows = []
    for k in kernels:
        fields = [
            text_at(k["name"]),
            text_at(k["rule"]),
            text_at(k["why"]),
            f"Op::{k['op']}",
            f"Device::{k['device']}",
            mask("DType::", [k["dtype"]] if "dtype" in k else []),
            mask("Interp::", [k["mode"]] if "mode" in k else []),
            mask("Flag::", [k["antialias"]] if "antialias" in k else []),
            mask("Padding::", [k["padding"]] if "padding" in k else []),
            mask("Layout::", k["layouts"]),
            " | ".join(f"(1u << {entry_index[e]})" for e in k["entries"]) or "kAny",
            "true" if k["vendor"] == "amd" else "false",
            " | ".join(f"Fact::{f}" for f in k["facts"]) or "0",
            str(index[k["tables"]]) if k["tables"] else "-1",
            "true" if k["splits_batch"] else "false",
            f"EntryPoint::of_{k['call']}({k['library']})",
        ]
        rows.append("    {" + ", ".join(fields) + "},")
    if sum(len(t.encode()) + 1 for t in texts) >= 1 << 16:
        raise TableError("the rows' texts outgrow the registry's 16-bit offsets")
    out.append("const char kKernelText[] =")
    out += [f"    {cpp_string(t)[:-1]}\\0\"" for t in texts]
    out[-1] += ";"
    out.append("const Kernel kKernels[] = {")
    out += rows
    out.append("};")
    out.append(f"const int kKernelCount = {len(kernels)};")
    out.append("const int kKernelGroups[5][2][2] = {")
    for op in range(len(CALL_AXES["op"])):
        bounds = []
        for cuda in (False, True):
            rows = [i for i, k in enumerate(kernels) if group(k) == (op, cuda)]
            bounds.append(f"{{{rows[0]}, {rows[-1] + 1}}}" if rows else "{0, 0}")
        out.append(f"    {{{', '.join(bounds)}}},  // {CALL_AXES['op'][op]}")
    out.append("};")
    out += ["", "}  // namespace hres::internal", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# The knob table (kernels/knobs.toml): tuned defaults per target.

KNOB_KEYS = {"default", "domain", "on", "about", "why", "record"}
TUNED_ON = ["x86", "cuda"]
ROW_KEYS = {"targets", "kernels", "if", "value"}
SECTION_KEYS = {"generators", "variants"}


def knob_targets(entries):
    """The knob table's targets: the x86 entries, in kernels.toml's order, then cuda."""
    return [e["name"] for e in entries] + ["cuda"]


def load_knobs(entries, path=KNOBS, kernels=None):
    """The knob table; `kernels` (the kernel table's, if given) checks the rows that name kernels."""
    with open(path, "rb") as f:
        table = tomllib.load(f)
    facts = table.pop("facts", {})
    targets = knob_targets(entries)
    if len(facts) > 32:
        raise TableError(f"{path.name}: more than 32 facts")
    sections = {}
    for section, body in table.items():
        where = f"{path.name}: [{section}]"
        knobs = {}
        for name, knob in body.items():
            if name in SECTION_KEYS:
                continue
            if not isinstance(knob, dict) or "default" not in knob:
                raise TableError(f"{where}: {name} has no default")
            if set(knob) - KNOB_KEYS:
                raise TableError(f"{where}: {name}: unknown keys {sorted(set(knob) - KNOB_KEYS)}")
            rows = knob["default"] if isinstance(knob["default"], list) else [{"value": knob["default"]}]
            for i, row in enumerate(rows):
                at = f"{where}: {name}, row {i + 1}"
                if set(row) - ROW_KEYS or "value" not in row:
                    raise TableError(f"{at}: a row has targets, if and a value")
                if isinstance(row["value"], bool) or not isinstance(row["value"], (int, float)):
                    raise TableError(f"{at}: the value must be a number")
                unknown = set(row.get("targets", [])) - set(targets)
                if unknown:
                    raise TableError(f"{at}: unknown targets {sorted(unknown)}")
                unknown = {t.lstrip("!") for t in row.get("if", [])} - set(facts)
                if unknown:
                    raise TableError(f"{at}: unknown facts {sorted(unknown)}")
                named = set(row.get("kernels", []))
                if kernels is not None and named - {k["name"] for k in kernels}:
                    raise TableError(f"{at}: unknown kernels {sorted(named - {k['name'] for k in kernels})}")
                unconditional = not row.get("targets") and not row.get("if") and not named
                if unconditional != (i == len(rows) - 1):
                    raise TableError(f"{at}: the last row, and only it, must hold everywhere")
            domain = knob.get("domain")
            if (not isinstance(domain, list) or not domain
                    or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in domain)):
                raise TableError(f"{where}: {name}: a domain is a list of numbers to try")
            outside = sorted({row["value"] for row in rows} - set(domain))
            if outside:
                raise TableError(f"{where}: {name}: defaults {outside} lie outside its domain")
            if not knob.get("on") or set(knob["on"]) - set(TUNED_ON):
                raise TableError(f"{where}: {name}: `on` names where it is tuned, of {TUNED_ON}")
            knobs[name] = {**knob, "rows": rows}
        sections[section] = {"generators": body.get("generators", [section]),
                             "variants": body.get("variants", []), "knobs": knobs}
    return {"facts": facts, "targets": targets, "entries": entries, "sections": sections}


def knob_header(knobs):
    facts, targets = list(knobs["facts"]), knobs["targets"]
    out = ["// Generated by kernels/table.py from kernels/knobs.toml: do not edit.",
           "// generators/tuned.h reads it.", "#pragma once", "", "#include <cstdint>", "",
           "namespace hres::knobs {", ""]
    out.append("// The targets, as the kernel table's x86 entries (the same order) and cuda.")
    out.append("enum Target : int { " + ", ".join(targets) + " };")
    out.append(f"inline constexpr int kTargets = {len(targets)};")
    out.append("inline constexpr const char *kTargetNames[] = {"
               + ", ".join(cpp_string(t) for t in targets) + "};")
    out.append("// Each x86 entry's Halide features (a generator finds its target by them).")
    out.append("inline constexpr const char *kTargetFeatures[] = {"
               + ", ".join(cpp_string(e["features"]) for e in knobs["entries"]) + ", \"\"};")
    out.append("")
    out.append("namespace fact {")
    for i, f in enumerate(facts):
        out.append(f"inline constexpr uint32_t {f} = 1u << {i};  // {knobs['facts'][f]}")
    out.append("}  // namespace fact")
    out.append("")
    out.append("struct Row {")
    out.append("    const char *section, *knob;")
    out.append("    const char *kernels;  // the kernels it applies to, comma-separated (empty: all)")
    out.append("    uint32_t targets, all_of, none_of;  // target bits; facts that must and must not hold")
    out.append("    double value;")
    out.append("};")
    out.append("inline constexpr Row kRows[] = {")
    all_targets = (1 << len(targets)) - 1
    for section, body in knobs["sections"].items():
        for name, knob in body["knobs"].items():
            for row in knob["rows"]:
                bits = sum(1 << targets.index(t) for t in row.get("targets", [])) or all_targets
                terms = row.get("if", [])
                fact_mask = lambda ts: " | ".join(f"fact::{t}" for t in ts) or "0"
                must = fact_mask([t for t in terms if not t.startswith("!")])
                must_not = fact_mask([t[1:] for t in terms if t.startswith("!")])
                named = cpp_string(",".join(row.get("kernels", [])))
                out.append(f"    {{{cpp_string(section)}, {cpp_string(name)}, {named}, {bits:#x}, {must}, {must_not}, "
                           f"{float(row['value'])!r}}},")
    out.append("};")
    out += ["", "}  // namespace hres::knobs", ""]
    return "\n".join(out)


def cmake(table):
    out = ["# Generated by kernels/table.py from kernels/kernels.toml: do not edit."]
    for k in table["kernels"]:
        out.append(f"hres_add_kernel({k['library']} {k['generator']} \"{','.join(k['halide_targets'])}\""
                   + "".join(" " + p for p in k["params"]) + ")")
    return "\n".join(out) + "\n"


def listing(table):
    rows = []
    for k in table["kernels"]:
        rows.append(f"{k['name']:<52} {k['rule']}")
    return "\n".join(rows) + f"\n{len(table['kernels'])} kernels\n"


def write_if_changed(path, contents):
    path = pathlib.Path(path)
    if path.exists() and path.read_text() == contents:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(contents)


def main(argv):
    if len(argv) < 2 or argv[1] not in ("list", "json", "cmake", "registry", "knobs"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        table = load()
        table["knobs"] = load_knobs(table["entries"], kernels=table["kernels"])
    except TableError as e:
        print(f"kernel table: {e}", file=sys.stderr)
        return 1
    if argv[1] == "list":
        sys.stdout.write(listing(table))
    elif argv[1] == "json":
        json.dump(table, sys.stdout, indent=1)
        print()
    else:
        if len(argv) != 3:
            print(__doc__, file=sys.stderr)
            return 2
        writers = {"cmake": cmake, "registry": registry, "knobs": lambda t: knob_header(t["knobs"])}
        write_if_changed(argv[2], writers[argv[1]](table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
