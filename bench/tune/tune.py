#!/usr/bin/env python3
"""Schedule tuning over the knob table (kernels/knobs.toml).

    tune.py space [--kernel NAME]
        every kernel of the kernel table and its tunable knobs: their
        domains, and the targets they are tuned on
    tune.py run --kernel NAME --target ENTRY|cuda [--trials N] [--out DIR]
                [--threads T] [--rounds R] [--min-time S] [--shape SHAPE]...
                [--baseline 'KNOB=VALUE...'] [--aa] [--cases FILE]
        searches the knobs of one kernel on one x86 entry this CPU has, or
        of a CUDA kernel (NAME_cuda) on CUDA, over the benchmark shapes that
        run the kernel (bench_hres --kernels; for CUDA without a GPU here,
        its listing from the GPU machine in --cases) or the --shape's given
        ("N C H W OH OW nchw|nhwc [ac] [v]"); writes DIR/records.jsonl (one
        record per configuration) and DIR/best.json; --baseline measures
        against those knob values instead of the defaults (which then run as
        a candidate): a de-tuned start, to see whether the search finds its
        way back; --aa times copies of the start against it instead of
        searching (how often noise is called a win)
    tune.py autoschedule --kernel NAME --target ENTRY|cuda [--layout nchw|nhwc] [--out DIR]
        each autoscheduler of the target (x86: Mullapudi2016, Li2018,
        Adams2019; CUDA: Mullapudi2016's GPU mode, Li2018, Anderson2021) on
        the kernel's autoschedulable form (a fixed layout, its plainest
        forms, target queries answered when generated), each timed against
        the hand-scheduled kernel over its bench shapes of that layout, or
        the reason it could not schedule it: DIR/autoschedule.json
    tune.py sweep --target ENTRY|cuda --out ROOT [--kernels PATTERN] [run's options]
        run over every kernel of the target's kind (or those whose name
        matches the regular expression), each into ROOT/KERNEL; kernels
        with a best.json there already are kept (a sweep resumes), and one
        that fails is noted in ROOT/failures.json and the sweep goes on
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
defaults are always measured, so a tuned result is never worse.

CUDA where there is no GPU (the build machine; the GPU machine has no
Halide): run and autoschedule build the drivers and stop with status 3,
leaving them pending; bench/tune/run_pending.sh packs them, runs them on
the GPU machine and puts their timings back, and the same command run again
takes those and goes on (the search is then one knob at a time, one round trip
per stage).
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
         "affine_grid_sample": 4, "flip": 5, "resize_tabled": 6}
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


def bench_shapes(build, kernel, *where):
    bench = build / "bin" / "bench_hres"
    out = subprocess.run([str(bench), "--kernels", *where], capture_output=True, text=True, check=True).stdout
    return cases_in(out, kernel)


def cases_in(listing, kernel):
    """The shapes of the cases bench_hres --kernels says run the kernel."""
    shapes = []
    for line in listing.splitlines():
        label, _, name = line.partition("\t")
        if name.strip() == kernel and (shape := parse_case(label.strip())) and shape not in shapes:
            shapes.append(shape)
    return shapes


def has_gpu():
    return pathlib.Path("/dev/nvidia0").exists()


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
    args_file, stmt = where / f"{name}.args", where / f"{name}.stmt"
    line = " ".join(cmd[1:]) + "\n"
    # Built before with the same arguments (a run resumed once its pending
    # drivers ran elsewhere): kept.
    if not (args_file.exists() and args_file.read_text() == line and stmt.exists()
            and (where / f"{name}.a").exists()):
        args_file.write_text(line)
        # Halide prints an autoscheduler's internal errors only with this set.
        done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "HL_DEBUG_CODEGEN": "1"})
        if done.returncode != 0:
            stmt.unlink(missing_ok=True)
            return {"error": generator_error(done.stderr)}
    return {"code": re.sub(rf"\b{name}(?![0-9])", "K", stmt.read_text())}


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


class Pending(Exception):
    """Drivers built for a machine this one is not (CUDA without a GPU here)."""


def measure(args, kernel, entry_target, candidates, shapes, out, stage, extras=None):
    """Builds the candidates (dicts of knob values; the first is the default; `extras`: more generator
    arguments per candidate) and times them together. A CUDA driver built
    where there is no GPU is left pending (Pending): run it on the GPU
    machine (bench/tune/run_pending.sh) and run the same command again,
    which takes the timings it left and goes on."""
    build = pathlib.Path(args.build).resolve()
    generators = build / "bin" / "hres_generators"
    work = out / f"stage{stage}"
    extras = extras or [()] * len(candidates)
    key = json.dumps({"kernel": kernel["name"], "target": entry_target, "candidates": candidates,
                      "extras": [list(e) for e in extras], "shapes": shapes, "rounds": args.rounds,
                      "threads": args.threads, "min_time": args.min_time}, sort_keys=True)
    if not (work / "stage.json").exists() or (work / "stage.json").read_text() != key:
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        (work / "stage.json").write_text(key)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
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
    on_cuda = "cuda" in entry_target
    include = next((ROOT / ".venv").glob("lib/python3*/site-packages/halide/include"), None)
    if not (work / "runtime.a").exists():
        subprocess.run([str(generators), "-r", "runtime", "-o", str(work), "-e", "static_library",
                        f"target={entry_target}"], check=True, capture_output=True)
    taps = []
    if form_of(kernel) == FORMS["resize_tabled"]:
        # The host's tap tables of a tabled CUDA resize, from its resize_taps kernel.
        helper = next(k for k in load_tables()["kernels"] if k["name"] == kernel["tables"])
        made = build_candidate(generators, helper, "x86-64-linux-sse41", {}, work, "tap_tables")
        if "error" in made:
            raise SystemExit(f"{helper['name']}: {made['error']}")
        taps = [str(work / "tap_tables.a")]
    pixel = "uint8_t" if kernel["dtype"] == "u8" else "float"
    (work / "shapes.txt").write_text("\n".join(shapes) + "\n")
    pending = []

    def run_driver(members, tag, rounds, min_time):
        """The driver over these candidates (k0 first): its JSON lines, or None where it crashed."""
        where = work / tag
        where.mkdir(exist_ok=True)
        header = ("".join(f'#include "k{i}.h"\n' for i in members) + ('#include "tap_tables.h"\n#define TAPS tap_tables\n'
                  if taps else "") + "#define CANDIDATES " + ", ".join(f"k{i}" for i in members) + "\n")
        if not (where / "candidates.h").exists() or (where / "candidates.h").read_text() != header:
            (where / "candidates.h").write_text(header)
            for stale in ("driver", "timings.jsonl", "rc"):
                (where / stale).unlink(missing_ok=True)
        if not (where / "driver").exists():
            subprocess.run(["c++", "-O2", "-std=c++17", "-ffp-contract=off", f"-DFORM={form_of(kernel)}", f"-DPIXEL={pixel}",
                            *(["-DON_CUDA"] if on_cuda else []), f"-I{where}", f"-I{work}", f"-I{include}",
                            f"-I{ROOT / 'runtime' / 'src'}", str(ROOT / "bench" / "tune" / "tune_driver.cpp"),
                            str(ROOT / "runtime" / "src" / "scratch.cpp"),
                            *([str(ROOT / "runtime" / "src" / "libdevice_host.cpp")] if on_cuda else []),
                            *[str(work / f"k{i}.a") for i in members],
                            *taps, str(work / "runtime.a"), "-o", str(where / "driver"), "-static-libstdc++",
                            "-static-libgcc", "-lpthread", "-ldl"], check=True)
        command = f"./driver ../shapes.txt {rounds} {args.threads} {min_time}"
        (where / "command").write_text(command + "\n")
        if not (where / "rc").exists():
            if on_cuda and not has_gpu():
                pending.append(where)
                return []
            with open(where / "timings.jsonl", "w") as f:
                rc = subprocess.run(command.split(), cwd=where, stdout=f).returncode
            (where / "rc").write_text(f"{128 - rc if rc < 0 else rc}\n")
        rc = int((where / "rc").read_text())
        if rc > 128:  # killed by a signal
            return None
        if rc != 0:
            raise SystemExit(f"the driver failed ({where}: status {rc})")
        return [json.loads(line) for line in (where / "timings.jsonl").read_text().splitlines()
                if line.startswith("{")]

    per_shape = run_driver(timed, "all", args.rounds, args.min_time)
    if per_shape is None:
        # A candidate crashed the process (a knob combination that reads out
        # of bounds unchecked, say): each alone beside the default, once,
        # finds which; they are recorded as failed, the rest timed.
        for i in timed[1:]:
            if run_driver([0, i], f"alone{i}", 1, 0.0) is None:
                results[i]["error"] = "crashed the process (a segmentation fault or the like)"
        if pending:
            raise Pending(pending)
        timed = [i for i in timed if "error" not in results[i]]
        per_shape = run_driver(timed, "rest", args.rounds, args.min_time)
        if per_shape is None:
            raise SystemExit("the default build crashed the driver")
    if pending:
        raise Pending(pending)
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
    # Optuna's batches each wait for their timings: where those come from
    # another machine (pending CUDA drivers), one round trip is better.
    remote = kernel["target"] == "cuda" and not has_gpu()
    if optuna is not None and not args.one_at_a_time and not remote:
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


def form_of(kernel):
    return FORMS.get("resize_tabled" if kernel["call"] == "resize_tabled" else kernel["generator"])


def kernel_on(t, name, target):
    """The kernel table's kernel and the Halide target to build it for: an
    x86 entry this CPU runs, or cuda."""
    kind = "cuda" if target == "cuda" else "x86"
    kernel = next((k for k in t["kernels"] if k["name"] == name and k["target"] == kind), None)
    if kernel is None:
        raise SystemExit(f"no {kind} kernel named {name} in kernels/kernels.toml (tune.py space lists them)")
    if form_of(kernel) is None:
        raise SystemExit(f"{name}: the driver has no calling form for {kernel['generator']}")
    if kind == "cuda":
        return kernel, kernel["halide_targets"][0]
    entries = [e["name"] for e in t["entries"]]
    if target not in entries:
        raise SystemExit(f"--target is cuda or one of the x86 entries {entries}")
    if not runs_here(t["entries"][entries.index(target)]):
        raise SystemExit(f"this CPU cannot run the {target} entry")
    return kernel, kernel["halide_targets"][entries.index(target)]


def shapes_of(args, t, kernel):
    """The --shape's given, else the bench cases that run the kernel: on x86
    asked of bench_hres at the entry's ISA; on CUDA where a GPU is here, else
    read from --cases (bench_hres --kernels --device cuda, run on the GPU machine)."""
    if args.shape:
        return [shape_line(s) for s in args.shape]
    build = pathlib.Path(args.build).resolve()
    if kernel["target"] == "cuda":
        if has_gpu():
            return bench_shapes(build, kernel["name"], "--device", "cuda")
        return cases_in(pathlib.Path(args.cases).read_text(), kernel["name"])
    isa = t["entries"][[e["name"] for e in t["entries"]].index(args.target)]["isa"]
    return bench_shapes(build, kernel["name"], "--isa", isa)


def run(args):
    t = load_tables()
    kernel, entry_target = kernel_on(t, args.kernel, args.target)
    shapes = shapes_of(args, t, kernel)
    if not shapes:
        raise SystemExit(f"no bench_hres case runs {args.kernel} on {args.target}: give --shape")
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
    search, winner = "A/A", None
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
    # Only the confirmed winner is taken: a runner-up was never timed again.
    chosen = winner if winner is not None and not winner.get("not_repeated") else results[0]
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


def sweep(args):
    t = load_tables()
    kind = "cuda" if args.target == "cuda" else "x86"
    root = pathlib.Path(args.out)
    root.mkdir(parents=True, exist_ok=True)
    failures, waiting = {}, []
    for kernel in t["kernels"]:
        if kernel["target"] != kind or form_of(kernel) is None or not re.search(args.kernels, kernel["name"]):
            continue
        if (root / kernel["name"] / "best.json").exists():
            continue
        one = argparse.Namespace(**{**vars(args), "kernel": kernel["name"], "out": str(root / kernel["name"])})
        try:
            run(one)
        except Pending as p:
            waiting += p.args[0]
        except (SystemExit, subprocess.CalledProcessError) as e:
            failures[kernel["name"]] = str(e)
            print(f"{kernel['name']}: {e}", file=sys.stderr)
    (root / "failures.json").write_text(json.dumps(failures, indent=1) + "\n")
    if waiting:
        raise Pending(waiting)
    return 0


# The autoschedulers, their plugins in Halide's wheel, and the targets they schedule.
AUTOSCHEDULERS = {"Mullapudi2016": ("libautoschedule_mullapudi2016.so", ["x86", "cuda"]),
                  "Li2018": ("libautoschedule_li2018.so", ["x86", "cuda"]),
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


def antialias_taps(kernel, shapes):
    """The most taps an antialiased resize loops over on these shapes
    (PyTorch's bound, ceil(support) * 2 + 1, docs/SEMANTICS.md 5.1): the
    autoschedulable form's constant tap loops (fixed_taps)."""
    half = 2.0 if "filter=bicubic" in kernel["params"] else 1.0
    most = 1
    for shape in shapes:
        n, c, h, w, oh, ow, _, align = shape.split()[:8]
        for a, b in ((int(h), int(oh)), (int(w), int(ow))):
            scale = (a - 1) / (b - 1) if align == "1" and b > 1 else (0.0 if align == "1" else a / b)
            most = max(most, math.ceil(half * max(scale, 1.0)) * 2 + 1)
    return most


# Each autoscheduler's parameters per target kind: on CUDA the H200's 132
# SMs as its parallelism (Mullapudi2016 schedules GPUs only in its
# experimental mode).
def scheduler_params(name, kind, threads):
    if kind == "cuda":
        return ["autoscheduler.parallelism=132"] + (["autoscheduler.experimental_gpu_schedule=1"]
                                                   if name == "Mullapudi2016" else [])
    return [f"autoscheduler.parallelism={max(1, threads)}"]


def autoschedule(args):
    t = load_tables()
    kernel, entry_target = kernel_on(t, args.kernel, args.target)
    shapes = [s for s in shapes_of(args, t, kernel) if args.shape or s.split()[6] == args.layout]
    if not shapes:
        raise SystemExit(f"no bench_hres case runs {args.kernel} on {args.layout} images: give --shape")
    plugins = next((ROOT / ".venv").glob("lib/python3*/site-packages/halide/lib64"))
    form = {**({"fixed_layout": args.layout} if kernel["generator"] != "resize_vertical" else {}),
            **AUTOSCHEDULABLE.get(kernel["generator"], {})}
    if "antialias=true" in kernel["params"]:
        form["fixed_taps"] = antialias_taps(kernel, shapes)
    names = [n for n, (_, kinds) in AUTOSCHEDULERS.items() if kernel["target"] in kinds]
    candidates = [{}] + [form] * len(names)
    extras = [()] + [("-p", str(plugins / AUTOSCHEDULERS[n][0]), f"autoscheduler={n}",
                      *scheduler_params(n, kernel["target"], args.threads)) for n in names]
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
        if kernel["target"] not in kinds:
            rows[name] = {"error": f"schedules {' and '.join(kinds)} only"}
    summary = {"kernel": args.kernel, "target": args.target, "layout": args.layout, "shapes": shapes,
               "threads": args.threads, "rounds": args.rounds, "form": form, "commit": git("rev-parse", "--short", "HEAD"),
               "halide": halide_version(), "machine": args.machine or platform.node(), "schedulers": rows}
    (out / "autoschedule.json").write_text(json.dumps(summary, indent=1) + "\n")
    for name, row in rows.items():
        print(f"{args.kernel} {args.layout} on {args.target}: {name:<14} "
              + (f"{row['ratio']:.2f}x the hand time" if "ratio" in row else f"no schedule: {row['error']}"))
    return 0


def geometric_mean(values):
    return math.exp(statistics.fmean(map(math.log, values))) if values else None


def combined_table(tuned, scheduled):
    """Per kernel and target: hand (1), the tuner's choice (from a run that
    started at the hand defaults) and each autoscheduler, per layout."""
    names = list(AUTOSCHEDULERS)
    lines = ["", "## Hand, tuned and the autoschedulers", "",
             "Time over the hand-scheduled kernel's on the same shapes (geometric mean over them). `tuned`: the "
             "tuner's choice from the hand defaults (1.000 where nothing beat them by the margin in a repeated "
             "run); each autoscheduler on the kernel's autoschedulable form, per layout (nchw / nhwc), or why it "
             "could not schedule it.", "",
             "| kernel | target | machine | hand | tuned | " + " | ".join(names) + " |",
             "|---|---|---|---|---|" + "---|" * len(names)]
    rows = {}
    for _, best in tuned:
        if not best.get("baseline"):
            rows.setdefault((best["kernel"], best["target"]), {"machine": best["machine"]})["tuned"] = best
    for a in scheduled:
        rows.setdefault((a["kernel"], a["target"]), {"machine": a["machine"]}).setdefault("auto", {})[a["layout"]] = a
    reasons, columns = [], {n: [] for n in ["tuned", *names]}
    for (kernel, target), row in sorted(rows.items()):
        best = row.get("tuned")
        cells = [f"{best['ratio']:.3f}" + (" (repeated)" if best.get("confirmed") and best["params"] else "")
                 if best else "-"]
        if best:
            columns["tuned"].append(best["ratio"])
        for n in names:
            parts = []
            for layout in ("nchw", "nhwc"):
                a = row.get("auto", {}).get(layout)
                if a is None:
                    continue
                got = a["schedulers"].get(n, {})
                if "ratio" in got:
                    parts.append(f"{got['ratio']:.2f}")
                    columns[n].append(got["ratio"])
                else:
                    why = got.get("error", "not run")
                    if why not in reasons:
                        reasons.append(why)
                    parts.append(f"[{reasons.index(why) + 1}]")
            cells.append(" / ".join(parts) or "-")
        lines.append(f"| {kernel} | {target} | {row['machine']} | 1 | " + " | ".join(cells) + " |")
    means = [f"{m:.3f} ({len(columns[n])})" if (m := geometric_mean(columns[n])) else "-" for n in ["tuned", *names]]
    lines.append("| geometric mean (cells with a time) | | | 1 | " + " | ".join(means) + " |")
    if reasons:
        lines += ["", "Why an autoscheduler has no time:", ""]
        lines += [f"{i}. {why[:400].replace('|', '/')}" for i, why in enumerate(reasons, 1)]
    return lines


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
    if scheduled or tuned:
        lines += combined_table(tuned, scheduled)
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
        kind = "cuda" if best["target"] == "cuda" else "x86"
        kernel = next(k for k in t["kernels"] if k["name"] == best["kernel"] and k["target"] == kind)
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
    r.add_argument("--cases", default=str(ROOT / "bench" / "tune" / "cuda_cases.txt"),
                   help="CUDA without a GPU here: bench_hres --kernels --device cuda's listing from the GPU machine")
    r.add_argument("--machine", help="the bench/machines.md key of this machine")
    r.add_argument("--baseline", default="", help="knob values to start from instead of the defaults")
    r.add_argument("--aa", action="store_true", help="time copies of the start against it (the noise check)")
    r.add_argument("--margin", type=float, default=0.02, help="how far below 1 a win's interval must lie")
    r.add_argument("--one-at-a-time", action="store_true", help="the search without Optuna, even where installed")
    sw = sub.add_parser("sweep", parents=[r], add_help=False, conflict_handler="resolve")
    sw.add_argument("--kernel", default="")
    sw.add_argument("--kernels", default=".", help="a regular expression the kernels' names must match")
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
    auto.add_argument("--cases", default=str(ROOT / "bench" / "tune" / "cuda_cases.txt"),
                   help="CUDA without a GPU here: bench_hres --kernels --device cuda's listing from the GPU machine")
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
    try:
        return {"space": space, "run": run, "sweep": sweep, "autoschedule": autoschedule, "report": report,
                "apply": apply}[args.command](args)
    except Pending as waiting:
        roots = sorted({str(pathlib.Path(d).parents[2 if args.command == "sweep" else 1]) for d in waiting.args[0]})
        print(f"{len(waiting.args[0])} drivers wait for a GPU: bench/tune/run_pending.sh pack T.tar.xz {' '.join(roots)}; "
              "on the GPU machine run_pending.sh run T.tar.xz R.tar.xz; here run_pending.sh unpack R.tar.xz, "
              "then this command again", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
