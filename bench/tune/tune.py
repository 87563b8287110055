#!/usr/bin/env python3
"""Schedule tuning over the knob table (kernels/knobs.toml).

    tune.py space [--kernel NAME]
        every kernel of the kernel table and its tunable knobs: their
        domains, and the targets they are tuned on
    tune.py run --kernel NAME --target ENTRY [--trials N] [--out DIR]
                [--threads T] [--rounds R] [--min-time S] [--shape SHAPE]...
                [--baseline 'KNOB=VALUE...'] [--aa]
        searches the knobs of one x86 kernel on one x86 entry this CPU has,
        over the benchmark shapes that run the kernel (bench_hres --kernels)
        or the --shape's given ("N C H W OH OW nchw|nhwc [ac] [v]"); writes
        DIR/records.jsonl (one record per configuration) and DIR/best.json;
        --baseline measures against those knob values instead of the
        defaults (which then run as a candidate): a de-tuned start, to see
        whether the search finds its way back; --aa times copies of the start
        against it instead of searching (how often noise is called a win)
    tune.py apply DIR... [--knobs FILE]
        writes each run's winner into kernels/knobs.toml, as rows naming its
        kernel and target (the build reads them)

A run builds every candidate with the project's generator binary (only the
knobs differ from the default build, candidate 0), drops those whose lowered
code is the default's, links the rest into one driver (tune_driver.cpp) that
calls them in a shuffled order each round, and compares each output with the
default's (uint8 bit for bit, float32 within 2e-5): a candidate that differs
is recorded, never chosen. A candidate wins where the 95% interval of its
time ratio to the default (over rounds; each round the geometric mean over
the shapes) lies below 1 - --margin (0.02: in the A/A check, identical code
at other addresses ran up to 1.6% apart, build-zen5, flip_u8 on avx2). The search is exhaustive where the space has at
most --trials configurations; otherwise each knob's values one at a time
(knobs in a seeded random order, as the budget allows), then the winners
combined. CUDA kernels are tuned on the GPU machine, which has no Halide:
not done by this script yet.
"""
import argparse
import concurrent.futures
import itertools
import json
import math
import os
import pathlib
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "kernels"))
import table  # noqa: E402

# Halide's x86 feature names and the /proc/cpuinfo flags each needs.
CPU_FLAGS = {
    "sse41": ["sse4_1"], "avx": ["avx"], "avx2": ["avx2"], "fma": ["fma"], "f16c": ["f16c"],
    "avx512": ["avx512f", "avx512cd"], "avx512_skylake": ["avx512vl", "avx512bw", "avx512dq"],
    "avx512_cannonlake": ["avx512ifma", "avx512vbmi"],
    "avx512_zen4": ["avx512_bf16", "avx512_vnni", "avx512_bitalg", "avx512_vpopcntdq", "avx512_vbmi2"],
    "avx512_sapphirerapids": ["avx512_fp16", "avx_vnni"],
}
# Calling forms of tune_driver.cpp (FORM) by generator.
FORMS = {"resize_nearest": 1, "resize_filtered": 2, "resize_vertical": 2, "grid_sample": 3,
         "affine_grid_sample": 4, "flip": 5}
T_975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23}


def load_tables():
    t = table.load()
    t["knobs"] = table.load_knobs(t["entries"], kernels=t["kernels"])
    return t


def section_of(knobs, generator):
    for name, body in knobs["sections"].items():
        if generator in body["generators"]:
            return name, body
    raise SystemExit(f"kernels/knobs.toml has no section for generator {generator}")


def tunable(t, kernel):
    """{knob: domain} of a kernel: its generator's knobs tuned on its target kind, less those it sets."""
    _, body = section_of(t["knobs"], kernel["generator"])
    fixed = {p.split("=", 1)[0] for p in kernel["params"]}
    return {name: knob["domain"] for name, knob in body["knobs"].items()
            if kernel["target"] in knob["on"] and name not in fixed}


def space(args):
    t = load_tables()
    for k in t["kernels"]:
        if args.kernel and k["name"] != args.kernel:
            continue
        targets = [e["name"] for e in t["entries"]] if k["target"] == "x86" else ["cuda"]
        print(f"{k['name']} ({k['target']}: {', '.join(targets)})")
        for name, domain in tunable(t, k).items():
            print(f"    {name:<28} {domain}")
    return 0


def cpu_flags():
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    m = re.search(r"^flags\s*:\s*(.*)$", text, re.M)
    return set(m.group(1).split()) if m else set()


def runs_here(entry):
    have = cpu_flags()
    return all(flag in have for f in entry["features"].split("-") for flag in CPU_FLAGS.get(f, [f]))


def git(*args):
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return os.environ.get("HRES_COMMIT", "unknown")


def halide_version():
    try:
        import importlib.metadata
        return importlib.metadata.version("halide")
    except Exception:  # noqa: BLE001 (any failure: unknown)
        return "unknown"


def parse_case(label):
    """A bench_hres case label to the driver's shape line, or None."""
    m = re.match(r"(\S+) (\d+)x(\d+)x(\d+)x(\d+) -> (\d+)x(\d+) (.*) (u8|f32) (nchw|nhwc)$", label)
    if not m:
        return None
    op, n, c, h, w, oh, ow, mode, _, layout = m.groups()
    align = 1 if " ac" in f" {mode}" else 0
    flip = "v" if op == "vflip" else ("h" if op == "hflip" else "-")
    return f"{n} {c} {h} {w} {oh} {ow} {layout} {align} {flip}"


def bench_shapes(build, kernel, isa):
    bench = build / "bin" / "bench_hres"
    out = subprocess.run([str(bench), "--kernels", "--isa", isa], capture_output=True, text=True, check=True).stdout
    shapes = []
    for line in out.splitlines():
        label, _, name = line.partition("\t")
        if name.strip() == kernel and (shape := parse_case(label.strip())) and shape not in shapes:
            shapes.append(shape)
    return shapes


def shape_line(text):
    words = text.split()
    if len(words) < 7 or words[6] not in ("nchw", "nhwc"):
        raise SystemExit(f"--shape wants 'N C H W OH OW nchw|nhwc [ac] [v]', not {text!r}")
    return " ".join(words[:7] + ["1" if "ac" in words[7:] else "0", "v" if "v" in words[7:] else "h"])


def build_candidate(generators, kernel, target, knobs, where, name):
    where.mkdir(parents=True, exist_ok=True)
    params = [p for p in kernel["params"]] + [f"{k}={v}" for k, v in sorted(knobs.items())]
    cmd = [str(generators), "-g", kernel["generator"], "-f", name, "-o", str(where), "-e",
           "static_library,h,stmt", f"target={target}-no_runtime", *params]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["generator failed"])[-1][:400]}
    stmt = (where / f"{name}.stmt").read_text()
    return {"code": re.sub(rf"\b{name}(?![0-9])", "K", stmt)}


def ratio_interval(logs):
    """Geometric-mean ratio and its 95% interval from per-round log ratios."""
    mean = statistics.fmean(logs)
    if len(logs) < 2:
        return math.exp(mean), [math.exp(mean), math.exp(mean)]
    half = T_975.get(len(logs) - 1, 2.0) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), [math.exp(mean - half), math.exp(mean + half)]


def measure(args, kernel, entry_target, candidates, shapes, out, stage):
    """Builds the candidates (dicts of knob values; the first is the default) and times them together."""
    build = pathlib.Path(args.build).resolve()
    generators = build / "bin" / "hres_generators"
    work = out / f"stage{stage}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        built = list(pool.map(lambda ik: build_candidate(generators, kernel, entry_target, ik[1], work,
                                                         f"k{ik[0]}"), enumerate(candidates)))
    if "error" in built[0]:
        raise SystemExit(f"the default build failed: {built[0]['error']}")
    results = [{"knobs": c, **({"error": b["error"]} if "error" in b else {})} for c, b in zip(candidates, built)]
    timed = [0]
    for i, b in enumerate(built[1:], 1):
        if "error" in b:
            continue
        same = next((j for j in timed if built[j]["code"] == b["code"]), None)
        if same is not None and not (args.aa and candidates[i] == candidates[0]):
            results[i]["same_code_as"] = candidates[same]
            continue
        timed.append(i)
    include = next((ROOT / ".venv").glob("lib/python3*/site-packages/halide/include"), None)
    subprocess.run([str(generators), "-r", "runtime", "-o", str(work), "-e", "static_library",
                    f"target={entry_target}"], check=True, capture_output=True)
    (work / "candidates.h").write_text("".join(f'#include "k{i}.h"\n' for i in timed)
                                       + "#define CANDIDATES " + ", ".join(f"k{i}" for i in timed) + "\n")
    pixel = "uint8_t" if kernel["dtype"] == "u8" else "float"
    driver = work / "driver"
    subprocess.run(["c++", "-O2", "-std=c++17", f"-DFORM={FORMS[kernel['generator']]}", f"-DPIXEL={pixel}",
                    f"-I{work}", f"-I{include}", f"-I{ROOT / 'runtime' / 'src'}",
                    str(ROOT / "bench" / "tune" / "tune_driver.cpp"), str(ROOT / "runtime" / "src" / "scratch.cpp"),
                    *[str(work / f"k{i}.a") for i in timed], str(work / "runtime.a"), "-o", str(driver),
                    "-lpthread", "-ldl"], check=True)
    (work / "shapes.txt").write_text("\n".join(shapes) + "\n")
    run = subprocess.run([str(driver), str(work / "shapes.txt"), str(args.rounds), str(args.threads),
                          str(args.min_time)], capture_output=True, text=True, check=True)
    per_shape = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    for slot, i in enumerate(timed):
        cells = [s["candidates"][slot] for s in per_shape]
        r = results[i]
        r["equal"] = all(c["equal"] for c in cells)
        r["max_diff"] = max(c["max_diff"] for c in cells)
        r["us"] = [statistics.median(c["us"]) for c in cells]
        if i:
            base = [s["candidates"][0]["us"] for s in per_shape]
            logs = [statistics.fmean(math.log(c["us"][k] / b[k]) for c, b in zip(cells, base))
                    for k in range(args.rounds)]
            r["ratio"], r["interval"] = ratio_interval(logs)
        else:
            r["ratio"], r["interval"] = 1.0, [1.0, 1.0]
    return results


def wins_over_start(r, margin):
    return bool(r.get("equal")) and "interval" in r and r["interval"][1] < 1 - margin


def candidates_for(space_, trials, rng):
    """The first stage: every configuration, or each knob's values one at a time."""
    names = sorted(space_)
    total = math.prod(len(space_[n]) for n in names) if names else 1
    if total <= trials:
        return [dict(zip(names, values)) for values in itertools.product(*(space_[n] for n in names))], True
    order = names[:]
    rng.shuffle(order)
    one_at_a_time = [{n: v} for n in order for v in space_[n]]
    return one_at_a_time[: trials], False


def run(args):
    t = load_tables()
    kernel = next((k for k in t["kernels"] if k["name"] == args.kernel and k["target"] == "x86"), None)
    if kernel is None:
        raise SystemExit(f"no x86 kernel named {args.kernel} in kernels/kernels.toml (tune.py space lists them)")
    if kernel["generator"] not in FORMS or kernel["call"] == "resize_tabled":
        raise SystemExit(f"{args.kernel}: the driver has no calling form for {kernel['generator']}")
    entries = [e["name"] for e in t["entries"]]
    if args.target not in entries:
        raise SystemExit(f"--target is one of the x86 entries {entries} (CUDA tuning is not done here yet)")
    entry = t["entries"][entries.index(args.target)]
    if not runs_here(entry):
        raise SystemExit(f"this CPU cannot run the {args.target} entry")
    entry_target = kernel["halide_targets"][entries.index(args.target)]
    isa = entry["isa"]
    build = pathlib.Path(args.build).resolve()
    shapes = [shape_line(s) for s in args.shape] or bench_shapes(build, args.kernel, isa)
    if not shapes:
        raise SystemExit(f"no bench_hres case runs {args.kernel} at --isa {isa}: give --shape")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    space_ = tunable(t, kernel)
    rng = random.Random(args.seed)
    first, exhaustive = candidates_for(space_, max(1, args.trials - 1), rng)
    baseline = dict(w.split("=", 1) for w in args.baseline.split())
    for knob, value in baseline.items():
        if knob not in space_:
            raise SystemExit(f"--baseline: {knob} is not a tunable knob of {args.kernel}")
        baseline[knob] = type(space_[knob][0])(float(value)) if isinstance(space_[knob][0], int) else float(value)
    # Candidate 0 is the start (the defaults, or the baseline); every other
    # candidate changes knobs from there.
    start = [{}] if not baseline else [baseline, {}]
    if args.aa:
        # The A/A check: the start again, as often as the budget allows,
        # timed as a candidate of its own (same code, so a ratio of 1).
        start += [dict(start[0]) for _ in range(max(1, args.trials - 1))]
        first, exhaustive = [], True
    results = measure(args, kernel, entry_target, start + [{**baseline, **c} for c in first if c], shapes, out, 1)
    if not exhaustive:
        # The winners' values combined, where two or more knobs won.
        wins = [r for r in results[1:] if wins_over_start(r, args.margin)]
        best = {}
        for r in sorted(wins, key=lambda r: r["ratio"]):
            for knob, value in r["knobs"].items():
                best.setdefault(knob, value)
        if len(best) > 1:
            results += measure(args, kernel, entry_target, [results[0]["knobs"], {**baseline, **best}], shapes,
                               out, 2)[1:]
    common = {"kernel": args.kernel, "target": args.target, "shapes": shapes, "baseline": baseline,
              "layout": sorted({s.split()[6] for s in shapes}), "threads": args.threads,
              "rounds": args.rounds, "commit": git("rev-parse", "--short", "HEAD"), "halide": halide_version(),
              "machine": args.machine or platform.node(), "generator": kernel["generator"]}
    with open(out / "records.jsonl", "w") as f:
        for r in results:
            f.write(json.dumps({**common, "params": r["knobs"], **{k: v for k, v in r.items() if k != "knobs"}})
                    + "\n")
    chosen = min((r for r in results[1:] if wins_over_start(r, args.margin)), key=lambda r: r["ratio"],
                 default=results[0])
    best = {**common, "params": chosen["knobs"], "ratio": chosen["ratio"], "interval": chosen["interval"],
            "us": chosen["us"], "default_us": results[0]["us"], "configurations": len(results),
            "exhaustive": exhaustive}
    if baseline:
        hand = next((r for r in results if r["knobs"] == {} and "ratio" in r), None)
        best["hand_ratio"] = hand["ratio"] if hand else None  # the hand defaults' time over the baseline's
    (out / "best.json").write_text(json.dumps(best, indent=1) + "\n")
    if args.aa:
        copies = [r for r in results[1:] if "ratio" in r]
        best["aa"] = {"copies": len(copies), "contain_1": sum(1 for r in copies if r["interval"][0] <= 1 <= r["interval"][1]),
                      "wins": sum(1 for r in copies if wins_over_start(r, args.margin)),
                      "ratios": [round(r["ratio"], 4) for r in copies]}
        (out / "best.json").write_text(json.dumps(best, indent=1) + "\n")
    wrong = sum(1 for r in results if r.get("equal") is False)
    print(f"{args.kernel} on {args.target}: {len(results)} configurations ({wrong} wrong, "
          f"{sum(1 for r in results if 'same_code_as' in r)} the same code, "
          f"{sum(1 for r in results if 'error' in r)} failed); best {best['params'] or 'the default'} "
          f"at {best['ratio']:.3f}x [{best['interval'][0]:.3f}, {best['interval'][1]:.3f}]")
    return 0


def apply(args):
    path = pathlib.Path(args.knobs)
    text = path.read_text()
    t = load_tables()
    for d in args.dirs:
        best = json.loads((pathlib.Path(d) / "best.json").read_text())
        kernel = next(k for k in t["kernels"] if k["name"] == best["kernel"] and k["target"] == "x86")
        section, _ = section_of(t["knobs"], kernel["generator"])
        for knob, value in best["params"].items():
            text = with_row(text, section, knob, best["target"], best["kernel"], value, best)
            print(f"{section}.{knob} = {value} for {best['kernel']} on {best['target']} ({best['ratio']:.3f}x)")
    tomllib.loads(text)
    path.write_text(text)
    table.load_knobs(t["entries"], path, kernels=t["kernels"])  # still a valid table
    return 0


def with_row(text, section, knob, target, kernel, value, best):
    """knobs.toml with a first row for (kernel, target) in section.knob (the knob in table form)."""
    row = (f'    {{ targets = ["{target}"], kernels = ["{kernel}"], value = {value} }},'
           f'  # tune.py {best["commit"]} {best["machine"]}: {best["ratio"]:.3f}x')
    header = f"\n[{section}.{knob}]\n"
    line = re.compile(rf"\n{re.escape(knob)} = \{{ default = ([^,}}]+)(.*?) \}}\n")
    if header not in text:
        start = text.index(f"\n[{section}]\n")
        m = line.search(text, start)
        if not m:
            raise SystemExit(f"kernels/knobs.toml: no {section}.{knob}")
        rest = m.group(2).lstrip(", ")
        fields = "".join(f"{f.strip()}\n" for f in re.split(r", (?=\w+ = )", rest) if f.strip())
        block = f"{header}{fields}default = [\n    {{ value = {m.group(1)} }},\n]\n"
        text = text[:m.start()] + "\n" + text[m.end():]
        text = text.rstrip("\n") + "\n" + block
    start = text.index(header)
    at = text.index("default = [\n", start) + len("default = [\n")
    end = text.index("\n]\n", at)
    kept = [r for r in text[at:end].split("\n")
            if not (f'targets = ["{target}"]' in r and f'kernels = ["{kernel}"]' in r)]
    return text[:at] + "\n".join([row] + kept) + text[end:]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("space")
    s.add_argument("--kernel")
    r = sub.add_parser("run")
    r.add_argument("--kernel", required=True)
    r.add_argument("--target", required=True)
    r.add_argument("--trials", type=int, default=20)
    r.add_argument("--out", default="out/tune")
    r.add_argument("--threads", type=int, default=1)
    r.add_argument("--rounds", type=int, default=5)
    r.add_argument("--min-time", type=float, default=0.02, help="seconds per measurement")
    r.add_argument("--shape", action="append", default=[])
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    r.add_argument("--build", default=str(ROOT / "build"))
    r.add_argument("--machine", help="the bench/machines.md key of this machine")
    r.add_argument("--baseline", default="", help="knob values to start from instead of the defaults")
    r.add_argument("--aa", action="store_true", help="time copies of the start against it (the noise check)")
    r.add_argument("--margin", type=float, default=0.02, help="how far below 1 a win's interval must lie")
    a = sub.add_parser("apply")
    a.add_argument("dirs", nargs="+")
    a.add_argument("--knobs", default=str(table.KNOBS), help="the knob table to write (kernels/knobs.toml)")
    args = p.parse_args(argv)
    return {"space": space, "run": run, "apply": apply}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
