"""Benchmark records: the schema of bench/runs/*.jsonl (bench/runs/README.md) and a writer for it.

Standard library only. bench/current.py reads records with load_runs();
bench/compare.py and bench/cuda_peers.py write them with --record through
RunRecorder.
"""
import datetime
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINES_MD = os.path.join(HERE, "machines.md")

REQUIRED = ("case", "impl", "device", "threads", "layout", "dtype", "us", "machine", "date", "commit", "versions",
            "source")
OPTIONAL = ("time", "rounds", "min_us", "check", "same_mode", "hres_faster_runs", "isa", "note")
DEVICES = ("cpu", "cuda")
LAYOUTS = ("nchw", "nhwc")
DTYPES = ("u8", "f32")


def split_label(label):
    """bench_hres's case label 'op NxCxHxW -> OHxOW mode dtype layout' -> (case, dtype, layout)."""
    case, dtype, layout = label.rsplit(" ", 2)
    return case, dtype, layout


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def problems(rec):
    """What is wrong with one record (a list of strings; empty when it is valid)."""
    if not isinstance(rec, dict):
        return ["not a JSON object"]
    out = ["missing field '%s'" % k for k in REQUIRED if k not in rec]
    out += ["unknown field '%s' (bench/runs/README.md lists the fields)" % k for k in rec
            if k not in REQUIRED and k not in OPTIONAL]
    if out:
        return out

    def bad(field, want):
        out.append("%s: %r is not %s" % (field, rec[field], want))

    if not isinstance(rec["case"], str) or not re.match(r"\S+ \d+x\d+x\d+x\d+ -> \d+x\d+ \S", rec["case"]):
        bad("case", "'op NxCxHxW -> OHxOW mode' (bench_hres's label without dtype and layout)")
    if not isinstance(rec["impl"], str) or not re.match(r"[a-z][a-z0-9_]*$", rec["impl"]):
        bad("impl", "a lower-case name such as hres, torch_eager, opencv")
    if rec["device"] not in DEVICES:
        bad("device", "one of %s" % ", ".join(DEVICES))
    t = rec["threads"]
    if rec.get("device") == "cuda":
        if t is not None:
            bad("threads", "null (a CUDA record has no thread count)")
    elif not (t == "all" or (isinstance(t, int) and not isinstance(t, bool) and t > 0)):
        bad("threads", "a positive integer or \"all\"")
    if rec["layout"] not in LAYOUTS:
        bad("layout", "one of %s" % ", ".join(LAYOUTS))
    if rec["dtype"] not in DTYPES:
        bad("dtype", "one of %s" % ", ".join(DTYPES))
    if not _number(rec["us"]) or rec["us"] <= 0:
        bad("us", "a positive number of microseconds")
    if not isinstance(rec["machine"], str) or not re.match(r"[a-z0-9][a-z0-9-]*$", rec["machine"]):
        bad("machine", "a key of bench/machines.md")
    if not isinstance(rec["date"], str) or not re.match(r"\d{4}-\d{2}-\d{2}$", rec["date"]):
        bad("date", "YYYY-MM-DD")
    if rec["commit"] is not None and not (isinstance(rec["commit"], str) and re.match(r"[0-9a-f]{7,40}$",
                                                                                      rec["commit"])):
        bad("commit", "a hex commit hash or null")
    if not isinstance(rec["versions"], dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in rec["versions"].items()):
        bad("versions", "an object of name -> version strings")
    if not isinstance(rec["source"], str) or not rec["source"].strip():
        bad("source", "a non-empty text")
    if "time" in rec and not (isinstance(rec["time"], str) and re.match(r"\d{2}:\d{2}$", rec["time"])):
        bad("time", "HH:MM (UTC)")
    if "rounds" in rec and not (isinstance(rec["rounds"], int) and not isinstance(rec["rounds"], bool)
                                and rec["rounds"] > 0):
        bad("rounds", "a positive integer")
    if "min_us" in rec and (not _number(rec["min_us"]) or rec["min_us"] <= 0):
        bad("min_us", "a positive number")
    for k in ("check", "isa", "note"):
        if k in rec and not isinstance(rec[k], str):
            bad(k, "a text")
    if "same_mode" in rec and rec["same_mode"] is not False:
        bad("same_mode", "false (leave the field out when the peer ran the row's own mode)")
    if "hres_faster_runs" in rec:
        v = rec["hres_faster_runs"]
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v) and 0 <= v[0] <= v[1]):
            bad("hres_faster_runs", "[k, n] with 0 <= k <= n")
    return out


def machine_keys(path=MACHINES_MD):
    """The machine keys bench/machines.md describes: its '## key' headings."""
    keys = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.match(r"## ([a-z0-9][a-z0-9-]*)\s*$", line)
                if m:
                    keys.add(m.group(1))
    return keys


def load_runs(runs_dir, machines_path=MACHINES_MD):
    """Every record of runs_dir/*.jsonl, each with '_run' (the file's name) and '_line' added,
    in file-name then line order. Raises ValueError naming every invalid line."""
    known = machine_keys(machines_path)
    records, errors = [], []
    for name in sorted(os.listdir(runs_dir)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(runs_dir, name)) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                where = "%s:%d" % (name, number)
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    errors.append("%s: not JSON (%s)" % (where, e))
                    continue
                found = problems(rec)
                if not found and rec["machine"] not in known:
                    found = ["machine %r has no '## %s' section in bench/machines.md" % (rec["machine"],
                                                                                        rec["machine"])]
                errors += ["%s: %s" % (where, p) for p in found]
                if not found:
                    rec["_run"], rec["_line"] = name, number
                    records.append(rec)
    if errors:
        raise ValueError("invalid records:\n  " + "\n  ".join(errors))
    return records


def git_commit(path=HERE):
    """`git rev-parse HEAD` of the checkout holding path, or None. HRES_COMMIT
    names it where the binaries run from a copy without git (the GPU machine)."""
    if os.environ.get("HRES_COMMIT"):
        return os.environ["HRES_COMMIT"]
    try:
        r = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    head = r.stdout.strip()
    return head if r.returncode == 0 and re.match(r"[0-9a-f]{40}$", head) else None


class RunRecorder:
    """Writes one run's records, one JSON line per measured cell, to a new file (never over an old run).

    The fields every record of the run shares are fixed when it is made (the
    date and time are the run's start, UTC). The file is created at the first
    add(), and each add() writes its line at once, so an interrupted run keeps
    what it measured."""

    def __init__(self, path, machine, device, versions, source, rounds=None, commit=None, now=None):
        if machine not in machine_keys():
            raise ValueError("machine %r is not described in bench/machines.md (a '## %s' section)" % (machine,
                                                                                                    machine))
        start = now or datetime.datetime.now(datetime.timezone.utc)
        self.shared = {"device": device, "machine": machine, "date": start.strftime("%Y-%m-%d"),
                       "time": start.strftime("%H:%M"), "commit": commit if commit is not None else git_commit(),
                       "versions": {k: str(v) for k, v in sorted(versions.items()) if v is not None},
                       "source": source}
        if rounds is not None:
            self.shared["rounds"] = rounds
        if os.path.exists(path):  # an existing run is history: never overwrite it
            raise FileExistsError("%s exists (one file per run: name the new one differently)" % path)
        self.path, self.file, self.count = path, None, 0

    def add(self, label, impl, us, threads, **extra):
        """One cell: bench_hres's label, the implementation, its time; extra optional fields (None: left out)."""
        if us is None:
            return
        case, dtype, layout = split_label(label)
        rec = {"case": case, "impl": impl, "device": self.shared["device"], "threads": threads, "layout": layout,
               "dtype": dtype, "us": round(float(us), 3)}
        rec.update(self.shared)
        rec.update({k: v for k, v in extra.items() if v is not None})
        found = problems(rec)
        if found:
            raise ValueError("record for %s / %s: %s" % (label, impl, "; ".join(found)))
        if self.file is None:
            self.file = open(self.path, "x")  # opened at the first cell: a run that fails before leaves no file
        self.file.write(json.dumps(rec) + "\n")
        self.file.flush()
        self.count += 1

    def close(self):
        if self.file is not None:
            self.file.close()
