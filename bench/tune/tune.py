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
    tune.py autoschedule --kernel NAME --target ENTRY [--layout nchw|nhwc] [--out DIR]
        Mullapudi2016, Li2018 and Adams2019 on the kernel's autoschedulable
        form (a fixed layout, its plainest forms), each timed against the
        hand-scheduled kernel over its bench shapes of that layout, or the
        reason it could not schedule it: DIR/autoschedule.json
    tune.py report DIR... --out REPORT
        REPORT/report.md: per run the tuned time over the start's with its
        interval, whether it repeated, and the knobs; with matplotlib
        (HRES_WITH_TUNING=1) the plots beside it: those ratios on a log axis
        with their geometric mean, the best so far against configurations,
        and the A/A runs' ratios
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
at other addresses ran up to 2% apart; bench/tune/runs/), and is taken only
where a second run against the default repeats the win. The search is
exhaustive where the space has at most --trials configurations; otherwise
Optuna's TPE sampler in batches (HRES_WITH_TUNING=1 scripts/setup.sh
installs it), or without it each knob's values one at a time (in a seeded
random order, as the budget allows), then the winners combined. The hand
defaults are always measured, so a tuned result is never worse. CUDA
kernels are tuned on the GPU machine, which has no Halide: not done by this
script yet.
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


def build_candidate(generators, kernel, target, knobs, where, name, extra=()):
    where.mkdir(parents=True, exist_ok=True)
    params = [p for p in kernel["params"]] + [f"{k}={v}" for k, v in sorted(knobs.items())]
    cmd = [str(generators), "-g", kernel["generator"], "-f", name, "-o", str(where), "-e",
           "static_library,h,stmt", f"target={target}-no_runtime", *params, *extra]
    (where / f"{name}.args").write_text(" ".join(cmd[1:]) + "\n")
    # Halide prints an autoscheduler's internal errors only with this set.
    done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "HL_DEBUG_CODEGEN": "1"})
    if done.returncode != 0:
        return {"error": generator_error(done.stderr)}
    stmt = (where / f"{name}.stmt").read_text()
    return {"code": re.sub(rf"\b{name}(?![0-9])", "K", stmt)}


def generator_error(stderr):
    """The line that says why a generator failed, shortened."""
    lines = stderr.splitlines()
    for key in ("Condition failed", "Error: ", "terminate called", "rror"):
        found = [line for line in lines if key in line and "halide_error" not in line]
        if found:
            line = found[-1]
            return line[line.index(key):][:300] if key == "Condition failed" else line.strip()[:300]
    return (lines or ["the generator failed"])[-1][:300]


def ratio_interval(logs):
    """Geometric-mean ratio and its 95% interval from per-round log ratios."""
    mean = statistics.fmean(logs)
    if len(logs) < 2:
        return math.exp(mean), [math.exp(mean), math.exp(mean)]
    half = T_975.get(len(logs) - 1, 2.0) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), [math.exp(mean - half), math.exp(mean + half)]


def measure(args, kernel, entry_target, candidates, shapes, out, stage, extras=None):
    """Builds the candidates (dicts of knob values; the first is the default; `extras`: more generator
    arguments per candidate) and times them together."""
    build = pathlib.Path(args.build).resolve()
    generators = build / "bin" / "hres_generators"
    work = out / f"stage{stage}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        extras = extras or [()] * len(candidates)
        built = list(pool.map(lambda ik: build_candidate(generators, kernel, entry_target, ik[1], work,
                                                         f"k{ik[0]}", extras[ik[0]]), enumerate(candidates)))
    if "error" in built[0]:
        raise SystemExit(f"the default build failed: {built[0]['error']}")
    results = [{"knobs": c, **({"error": b["error"]} if "error" in b else {})} for c, b in zip(candidates, built)]
    timed = [0]
    for i, b in enumerate(built[1:], 1):
        if "error" in b:
            continue
        same = next((j for j in timed if built[j]["code"] == b["code"]), None)
        if same is not None and not (args.aa and candidates[i] == candidates[0]) and not extras[i]:
            results[i]["same_code_as"] = candidates[same]
            continue
        timed.append(i)
    include = next((ROOT / ".venv").glob("lib/python3*/site-packages/halide/include"), None)
    subprocess.run([str(generators), "-r", "runtime", "-o", str(work), "-e", "static_library",
                    f"target={entry_target}"], check=True, capture_output=True)
    pixel = "uint8_t" if kernel["dtype"] == "u8" else "float"
    (work / "shapes.txt").write_text("\n".join(shapes) + "\n")

    def run_driver(members, tag, rounds, min_time):
        """The driver over these candidates (k0 first): its JSON lines, or None where it crashed."""
        where = work / tag
        where.mkdir(exist_ok=True)
        (where / "candidates.h").write_text("".join(f'#include "k{i}.h"\n' for i in members)
                                            + "#define CANDIDATES " + ", ".join(f"k{i}" for i in members) + "\n")
        subprocess.run(["c++", "-O2", "-std=c++17", f"-DFORM={FORMS[kernel['generator']]}", f"-DPIXEL={pixel}",
                        f"-I{where}", f"-I{work}", f"-I{include}", f"-I{ROOT / 'runtime' / 'src'}",
                        str(ROOT / "bench" / "tune" / "tune_driver.cpp"),
                        str(ROOT / "runtime" / "src" / "scratch.cpp"), *[str(work / f"k{i}.a") for i in members],
                        str(work / "runtime.a"), "-o", str(where / "driver"), "-lpthread", "-ldl"], check=True)
        run = subprocess.run([str(where / "driver"), str(work / "shapes.txt"), str(rounds), str(args.threads),
                              str(min_time)], capture_output=True, text=True)
        if run.returncode < 0:
            return None
        run.check_returncode()
        return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]

    per_shape = run_driver(timed, "all", args.rounds, args.min_time)
    if per_shape is None:
        # A candidate crashed the process (a knob combination that reads out
        # of bounds unchecked, say): each alone beside the default, once,
        # finds which; they are recorded as failed, the rest timed.
        for i in timed[1:]:
            if run_driver([0, i], f"alone{i}", 1, 0.0) is None:
                results[i]["error"] = "crashed the process (a segmentation fault or the like)"
        timed = [i for i in timed if "error" not in results[i]]
        per_shape = run_driver(timed, "rest", args.rounds, args.min_time)
        if per_shape is None:
            raise SystemExit("the default build crashed the driver")
    for slot, i in enumerate(timed):
        cells = [s["candidates"][slot] for s in per_shape]
        r = results[i]
        failed = [c for c in cells if c["error"]]
        if failed:
            r["error"] = f"failed at run time: {failed[0]['message'].strip() or failed[0]['error']}"
            continue
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


def search_knobs(args, kernel, entry_target, space_, baseline, start, shapes, out):
    """Every configuration where there are few enough; else Optuna's TPE in
    batches (where installed), or each knob's values one at a time and the
    winners combined. The start and the hand defaults are always measured."""
    budget = max(1, args.trials - 1)
    names = sorted(space_)
    total = math.prod(len(space_[n]) for n in names) if names else 1
    if total <= budget:
        every = [dict(zip(names, values)) for values in itertools.product(*(space_[n] for n in names))]
        return measure(args, kernel, entry_target, start + every, shapes, out, 1), "exhaustive"
    try:
        import optuna
    except ImportError:
        optuna = None
    if optuna is not None and not args.one_at_a_time:
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=args.seed))
        results, stage = [], 0
        batch = max(4, budget // 4)
        while budget > 0:
            trials = [study.ask() for _ in range(min(batch, budget))]
            picks = [{n: trial.suggest_categorical(n, space_[n]) for n in names} for trial in trials]
            stage += 1
            measured = measure(args, kernel, entry_target, start + picks, shapes, out, stage)
            results += measured if not results else measured[1:]
            for trial, r in zip(trials, measured[len(start):]):
                ratio = r.get("ratio", 1.0 if "same_code_as" in r else None)
                if r.get("equal") is False or ratio is None:
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                else:
                    study.tell(trial, math.log(ratio))
            budget -= len(trials)
        return results, f"optuna {optuna.__version__} TPE, batches of {batch}"
    rng = random.Random(args.seed)
    order = names[:]
    rng.shuffle(order)
    one_at_a_time = [{**baseline, n: v} for n in order for v in space_[n]][:budget]
    results = measure(args, kernel, entry_target, start + one_at_a_time, shapes, out, 1)
    wins = [r for r in results[1:] if wins_over_start(r, args.margin)]
    combined = {}
    for r in sorted(wins, key=lambda r: r["ratio"]):
        for knob, value in r["knobs"].items():
            combined.setdefault(knob, value)
    if len(wins) > 1:
        results += measure(args, kernel, entry_target, [start[0], combined], shapes, out, 2)[1:]
    return results, "one knob at a time, then the winners combined"


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
    baseline = dict(w.split("=", 1) for w in args.baseline.split())
    for knob, value in baseline.items():
        if knob not in space_:
            raise SystemExit(f"--baseline: {knob} is not a tunable knob of {args.kernel}")
        baseline[knob] = int(float(value)) if isinstance(space_[knob][0], int) else float(value)
    # Candidate 0 of every stage is the start (the defaults, or the
    # baseline, then with the defaults as a candidate); the others change
    # knobs from there. Ratios are to the start of the same stage.
    start = [{}] if not baseline else [baseline, {}]
    search = "A/A"
    if args.aa:
        # The A/A check: the start again, as often as the budget allows,
        # timed as a candidate of its own (same code, so a ratio of 1).
        results = measure(args, kernel, entry_target, start + [dict(start[0]) for _ in range(max(1, args.trials - 1))],
                          shapes, out, 1)
    else:
        results, search = search_knobs(args, kernel, entry_target, space_, baseline, start, shapes, out)
        # The winner measured once more against the start, in a run of its
        # own: a win that does not repeat is not taken.
        winner = min((r for r in results[1:] if wins_over_start(r, args.margin)), key=lambda r: r["ratio"],
                     default=None)
        if winner is not None:
            again = measure(args, kernel, entry_target, [start[0], winner["knobs"]], shapes, out, "confirm")[1]
            winner["confirmed"] = {"ratio": again.get("ratio"), "interval": again.get("interval")}
            if not wins_over_start(again, args.margin):
                winner["not_repeated"] = True
    common = {"kernel": args.kernel, "target": args.target, "shapes": shapes, "baseline": baseline,
              "layout": sorted({s.split()[6] for s in shapes}), "threads": args.threads,
              "rounds": args.rounds, "commit": git("rev-parse", "--short", "HEAD"), "halide": halide_version(),
              "machine": args.machine or platform.node(), "generator": kernel["generator"]}
    with open(out / "records.jsonl", "w") as f:
        for r in results:
            f.write(json.dumps({**common, "params": r["knobs"], **{k: v for k, v in r.items() if k != "knobs"}})
                    + "\n")
    chosen = min((r for r in results[1:] if wins_over_start(r, args.margin) and not r.get("not_repeated")),
                 key=lambda r: r["ratio"], default=results[0])
    best = {**common, "params": chosen["knobs"], "ratio": chosen["ratio"], "interval": chosen["interval"],
            "confirmed": chosen.get("confirmed"), "us": chosen["us"], "default_us": results[0]["us"],
            "configurations": len(results), "search": search}
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


# The autoschedulers, their plugins in Halide's wheel, and the targets they schedule.
AUTOSCHEDULERS = {"Mullapudi2016": ("libautoschedule_mullapudi2016.so", ["x86", "cuda"]),
                  "Li2018": ("libautoschedule_li2018.so", ["x86"]),
                  "Adams2019": ("libautoschedule_adams2019.so", ["x86"]),
                  "Anderson2021": ("libautoschedule_anderson2021.so", ["cuda"])}
# Each generator's autoschedulable form: a fixed layout (tune.py --layout)
# and these knobs, its plainest forms (no tap tables or pairs, no windows,
# prefetches or vertical-first order: what only a hand schedule uses).
AUTOSCHEDULABLE = {
    "flip": {"prefetch_lines": 0, "scalar_mirrors": 0},
    "resize_nearest": {"tile_lanes": 0, "reuse_rows": 0, "window_columns": 0, "shifted_columns": 0},
    "resize_filtered": {"index_tables": 0, "tap_pairs": 0, "vertical_pairs": 0, "vertical_first_below": 0,
                        "span_taps": 0},
    "resize_vertical": {"span_taps": 0},
    "grid_sample": {"row_windows": 0, "tap_offsets": 0, "window_offsets": 0, "pixel_word_offsets": 0},
}
AUTOSCHEDULABLE["affine_grid_sample"] = AUTOSCHEDULABLE["grid_sample"]


def autoschedule(args):
    t = load_tables()
    kernel = next((k for k in t["kernels"] if k["name"] == args.kernel and k["target"] == "x86"), None)
    if kernel is None or kernel["generator"] not in FORMS:
        raise SystemExit(f"no x86 kernel named {args.kernel} with a driver form (tune.py space lists them)")
    entries = [e["name"] for e in t["entries"]]
    if args.target not in entries or not runs_here(t["entries"][entries.index(args.target)]):
        raise SystemExit(f"--target is one of the x86 entries this CPU runs ({entries}); CUDA: not done here yet")
    entry = t["entries"][entries.index(args.target)]
    entry_target = kernel["halide_targets"][entries.index(args.target)]
    build = pathlib.Path(args.build).resolve()
    shapes = [shape_line(s) for s in args.shape] or [
        s for s in bench_shapes(build, args.kernel, entry["isa"]) if s.split()[6] == args.layout]
    if not shapes:
        raise SystemExit(f"no bench_hres case runs {args.kernel} on {args.layout} images: give --shape")
    plugins = next((ROOT / ".venv").glob("lib/python3*/site-packages/halide/lib64"))
    form = {"fixed_layout": args.layout, **AUTOSCHEDULABLE.get(kernel["generator"], {})}
    names = [n for n, (_, kinds) in AUTOSCHEDULERS.items() if "x86" in kinds]
    candidates = [{}] + [form] * len(names)
    extras = [()] + [(f"-p", str(plugins / AUTOSCHEDULERS[n][0]), f"autoscheduler={n}",
                      f"autoscheduler.parallelism={max(1, args.threads)}") for n in names]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = measure(args, kernel, entry_target, candidates, shapes, out, "autoschedule", extras)
    rows = {"hand": {"ratio": 1.0, "us": results[0]["us"]}}
    for name, r in zip(names, results[1:]):
        if "error" in r:
            rows[name] = {"error": r["error"]}
        elif not r.get("equal"):
            rows[name] = {"error": f"its output differs from the hand kernel's (largest difference {r['max_diff']})"}
        else:
            rows[name] = {"ratio": r["ratio"], "interval": r["interval"], "us": r["us"]}
    for name, (_, kinds) in AUTOSCHEDULERS.items():
        if "x86" not in kinds:
            rows[name] = {"error": "schedules CUDA only: a run on the GPU machine (not done by this script yet)"}
    summary = {"kernel": args.kernel, "target": args.target, "layout": args.layout, "shapes": shapes,
               "threads": args.threads, "rounds": args.rounds, "form": form, "commit": git("rev-parse", "--short", "HEAD"),
               "halide": halide_version(), "machine": args.machine or platform.node(), "schedulers": rows}
    (out / "autoschedule.json").write_text(json.dumps(summary, indent=1) + "\n")
    for name, row in rows.items():
        print(f"{args.kernel} {args.layout} on {args.target}: {name:<14} "
              + (f"{row['ratio']:.2f}x the hand time" if "ratio" in row else f"no schedule: {row['error']}"))
    return 0


def report(args):
    runs, scheduled = [], []
    for d in map(pathlib.Path, args.dirs):
        if (d / "autoschedule.json").exists():
            scheduled.append(json.loads((d / "autoschedule.json").read_text()))
            continue
        best = json.loads((d / "best.json").read_text())
        records = [json.loads(line) for line in (d / "records.jsonl").read_text().splitlines()]
        runs.append((d.name, best, records))
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tuned = [(name, best) for name, best, _ in runs if "aa" not in best]
    lines = ["# Tuning report", "", f"`bench/tune/tune.py report` over {len(runs)} runs: the tuned time over the "
             "start's (the hand defaults, or a run's --baseline), geometric mean over the run's shapes, with its 95% "
             "interval over rounds; `repeated`: the win held in a second run against the start.", "",
             "| run | kernel | entry | machine | search | configurations | tuned / start | repeated | knobs |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, best in tuned:
        lo, hi = best["interval"]
        confirmed = best.get("confirmed")
        again = f"{confirmed['ratio']:.3f}" if confirmed and confirmed.get("ratio") else "-"
        knobs = ("(the start)" if best["params"] == best.get("baseline", {}) else
                 ", ".join(f"{k}={v}" for k, v in sorted(best["params"].items())) or "(the hand defaults)")
        lines.append(f"| {name} | {best['kernel']} | {best['target']} | {best['machine']} | {best.get('search', '-')} "
                     f"| {best['configurations']} | {best['ratio']:.3f} [{lo:.3f}, {hi:.3f}] | {again} | {knobs} |")
    if tuned:
        mean = math.exp(statistics.fmean(math.log(b["ratio"]) for _, b in tuned))
        lines += ["", f"Geometric mean of tuned / start: {mean:.3f}."]
    for name, best, _ in runs:
        if "aa" in best:
            aa = best["aa"]
            lines += ["", f"A/A ({name}): {aa['copies']} copies of the start against it; {aa['contain_1']} intervals "
                      f"contain 1, {aa['wins']} called a win; ratios {min(aa['ratios']):.3f}-{max(aa['ratios']):.3f}."]
    if scheduled:
        names = list(AUTOSCHEDULERS)
        lines += ["", "## The autoschedulers", "", "Each on the kernel's autoschedulable form (a fixed layout, its "
                  "plainest forms), time over the hand-scheduled kernel's on the same shapes; where one could not "
                  "schedule it, its error.", "",
                  "| kernel | entry | layout | machine | hand | " + " | ".join(names) + " |",
                  "|---|---|---|---|---|" + "---|" * len(names)]
        for a in scheduled:
            cells = []
            for n in names:
                row = a["schedulers"].get(n, {})
                cells.append(f"{row['ratio']:.2f}" if "ratio" in row else "no: " + row.get("error", "-")[:60]
                             .replace("|", "/") + "...")
            lines.append(f"| {a['kernel']} | {a['target']} | {a['layout']} | {a['machine']} | 1.00 | "
                         + " | ".join(cells) + " |")
        means = []
        for n in names:
            got = [a["schedulers"][n]["ratio"] for a in scheduled if "ratio" in a["schedulers"].get(n, {})]
            means.append(f"{math.exp(statistics.fmean(map(math.log, got))):.2f} ({len(got)})" if got else "-")
        lines.append("| geometric mean (kernels scheduled) | | | | 1.00 | " + " | ".join(means) + " |")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
        lines += ["", "(No plots: matplotlib is not installed; HRES_WITH_TUNING=1 scripts/setup.sh installs it.)"]
    if plt is not None:
        if tuned:
            fig, ax = plt.subplots(figsize=(max(4, len(tuned) * 0.8 + 2), 3.5))
            ax.bar(range(len(tuned)), [b["ratio"] for _, b in tuned],
                   yerr=[[b["ratio"] - b["interval"][0] for _, b in tuned], [b["interval"][1] - b["ratio"] for _, b in tuned]])
            ax.axhline(1, color="gray", lw=0.8)
            ax.axhline(mean, color="C1", ls="--", label=f"geometric mean {mean:.3f}")
            ax.set_yscale("log")
            ax.set_xticks(range(len(tuned)), [f"{b['kernel']}\n{b['target']}" for _, b in tuned], fontsize=7)
            ax.set_ylabel("tuned / start time")
            ax.legend(fontsize=7)
            fig.tight_layout()
            fig.savefig(out / "ratios.png", dpi=120)
            fig, ax = plt.subplots(figsize=(5, 3.5))
            for name, best, records in runs:
                if "aa" in best:
                    continue
                so_far, now = [], 1.0
                for r in records[1:]:
                    if r.get("equal") and "ratio" in r:
                        now = min(now, r["ratio"])
                    so_far.append(now)
                ax.plot(range(1, len(so_far) + 1), so_far, label=f"{best['kernel']} {best['target']}")
            ax.set_xlabel("configurations measured")
            ax.set_ylabel("best tuned / start so far")
            ax.legend(fontsize=6)
            fig.tight_layout()
            fig.savefig(out / "progress.png", dpi=120)
            lines += ["", "![tuned over start](ratios.png)", "", "![best so far](progress.png)"]
        for name, best, _ in runs:
            if "aa" in best:
                fig, ax = plt.subplots(figsize=(5, 3))
                ax.hist(best["aa"]["ratios"], bins=12)
                ax.axvline(1, color="gray", lw=0.8)
                ax.axvline(1 - args.margin, color="C3", ls="--", label="a win lies below")
                ax.set_xlabel("copy / start time (A/A)")
                ax.legend(fontsize=7)
                fig.tight_layout()
                fig.savefig(out / f"aa-{name}.png", dpi=120)
                lines += ["", f"![A/A {name}](aa-{name}.png)"]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print(out / "report.md")
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
    r.add_argument("--one-at-a-time", action="store_true", help="the search without Optuna, even where installed")
    auto = sub.add_parser("autoschedule")
    auto.add_argument("--kernel", required=True)
    auto.add_argument("--target", required=True)
    auto.add_argument("--layout", choices=["nchw", "nhwc"], default="nchw")
    auto.add_argument("--out", default="out/autoschedule")
    auto.add_argument("--threads", type=int, default=1)
    auto.add_argument("--rounds", type=int, default=3)
    auto.add_argument("--min-time", type=float, default=0.02)
    auto.add_argument("--shape", action="append", default=[])
    auto.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    auto.add_argument("--build", default=str(ROOT / "build"))
    auto.add_argument("--machine")
    auto.set_defaults(aa=False)
    p_report = sub.add_parser("report")
    p_report.add_argument("dirs", nargs="+")
    p_report.add_argument("--out", required=True)
    p_report.add_argument("--margin", type=float, default=0.02)
    a = sub.add_parser("apply")
    a.add_argument("dirs", nargs="+")
    a.add_argument("--knobs", default=str(table.KNOBS), help="the knob table to write (kernels/knobs.toml)")
    args = p.parse_args(argv)
    return {"space": space, "run": run, "autoschedule": autoschedule, "report": report,
            "apply": apply}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
