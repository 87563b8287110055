#!/usr/bin/env python3
"""Writes bench/CURRENT.md, the current benchmark results, from the run records in bench/runs/*.jsonl.

  python3 bench/current.py           # regenerate bench/CURRENT.md
  python3 bench/current.py --check   # exit 1 when bench/CURRENT.md is not what this would write

For each machine and device, one table per thread count, from the newest
record of every (case, impl, threads, layout, dtype): hres beside each peer
with the ratio peer time / hres time (> 1: hres is faster), each ratio
taken within one run; then the cells where a peer is faster ("behind, and
why"), their reasons from the records' "note" fields or bench/runs/notes.json.
The records' format: bench/runs/README.md. Standard library only; the output
depends on the records alone (sorted, no clock), so --check can keep it in sync.
"""
import argparse
import difflib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402  (bench/records.py, beside this script)

HERE = os.path.dirname(os.path.abspath(__file__))
PEER_ORDER = ("torch_eager", "torch_compile", "opencv", "pillow", "torch_cuda", "npp")
TITLE = {"hres": "hres", "torch_eager": "eager", "torch_compile": "torch.compile", "opencv": "OpenCV",
         "pillow": "Pillow", "torch_cuda": "PyTorch CUDA", "npp": "NPP"}
OP_ORDER = ("resize", "affine_grid_sample", "hflip", "vflip")
NO_NOTE = "no note yet (bench/runs/notes.json)"


def fmt_us(v):
    return "%.1f" % v if v < 1e4 else "%.0f" % v


def title(impl):
    return TITLE.get(impl, impl)


def row_order(row):
    """Rows in bench_hres's op order, then by shapes, mode, dtype (u8 first), layout (nchw first)."""
    case, dtype, layout = row
    m = re.match(r"(\S+) (\d+)x(\d+)x(\d+)x(\d+) -> (\d+)x(\d+) (.*)$", case)
    if m:
        op = m.group(1)
        key = (OP_ORDER.index(op) if op in OP_ORDER else len(OP_ORDER), op,
               tuple(int(g) for g in m.groups()[1:7]), m.group(8))
    else:
        key = (len(OP_ORDER) + 1, case, (), "")
    return key + (records.DTYPES.index(dtype), records.LAYOUTS.index(layout))


def threads_order(t):
    return (0, t, "") if isinstance(t, int) else (1, 0, str(t))


def age(rec):
    """Newer records sort later: by date, then by file name, then by line."""
    return rec["date"], rec["_run"], rec["_line"]


def load_notes(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        notes = json.load(f)
    if not isinstance(notes, dict):
        raise ValueError("%s: not a JSON object" % path)
    return {k: v for k, v in notes.items() if not k.startswith("_")}


def reason(notes, machine, peer_rec, hres_rec, row, impl):
    """Why a peer is faster: a record's note, else notes.json by the row's label ('case dtype layout'), its
    case, its op or '*', each first prefixed with 'machine:' (a value is a text, or an object of impl (or '*')
    -> text)."""
    for rec in (peer_rec, hres_rec):
        if rec is not None and rec.get("note"):
            return rec["note"]
    case, dtype, layout = row
    keys = ("%s %s %s" % (case, dtype, layout), case, case.split(" ")[0], "*")
    for key in ["%s:%s" % (machine, k) for k in keys] + list(keys):
        v = notes.get(key)
        if isinstance(v, dict):
            v = v.get(impl, v.get("*"))
        if isinstance(v, str) and v:
            return v
    return NO_NOTE


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


class Table:
    """One machine, device and thread count."""

    def __init__(self, machine, device, threads, newest, in_run):
        self.machine, self.device, self.threads = machine, device, threads
        self.cells = {}  # (row, impl) -> record
        for (case, impl, t, layout, dtype), rec in newest.items():
            if t == threads:
                self.cells[((case, dtype, layout), impl)] = rec
        self.in_run = in_run  # (run, machine, device, case, impl, threads, layout, dtype) -> record
        self.rows = sorted({row for row, _ in self.cells}, key=row_order)
        impls = {impl for _, impl in self.cells if impl != "hres"}
        self.peers = [p for p in PEER_ORDER if p in impls] + sorted(impls - set(PEER_ORDER))
        used = {rec["_run"]: rec for rec in self.cells.values()}
        self.runs = sorted(used, key=lambda run: (used[run]["date"], run))
        self.letter = {run: chr(ord("a") + i) if i < 26 else "r%d" % i for i, run in enumerate(self.runs)}
        self.scaling = isinstance(threads, int) and threads > 1

    def hres_in(self, run, row, threads=None):
        case, dtype, layout = row
        return self.in_run.get((run, self.machine, self.device, case, "hres",
                                self.threads if threads is None else threads, layout, dtype))

    def pair(self, row, peer):
        """(peer record, hres record of the peer's run, ratio peer/hres) or Nones."""
        p = self.cells.get((row, peer))
        if p is None:
            return None, None, None
        h = self.hres_in(p["_run"], row)
        return p, h, (p["us"] / h["us"] if h is not None else None)

    def lines(self, notes):
        out = []
        many = len(self.runs) > 1
        checks = any("check" in rec for (row, impl), rec in self.cells.items() if impl == "hres")
        head = ["case", "dtype", "layout"] + (["run"] if many else []) + ["hres us"]
        for p in self.peers:
            head += ["%s us" % title(p), "%s/hres" % title(p)]
        if self.scaling:
            head.append("efficiency")
        if checks:
            head.append("hres check")
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for row in self.rows:
            case, dtype, layout = row
            h = self.cells.get((row, "hres"))
            cells = [case, dtype, layout]
            if many:
                cells.append(self.letter[h["_run"]] if h else "-")
            cells.append(fmt_us(h["us"]) if h else "-")
            for peer in self.peers:
                p, ph, q = self.pair(row, peer)
                if p is None:
                    cells += ["-", "-"]
                    continue
                star = "*" if p.get("same_mode") is False else ""
                other = " [%s]" % self.letter[p["_run"]] if many and (h is None or p["_run"] != h["_run"]) else ""
                cells.append(fmt_us(p["us"]) + star + other)
                cells.append("%.2f%s" % (q, star) if q is not None else "-")
            if self.scaling:
                one = self.hres_in(h["_run"], row, threads=1) if h else None
                cells.append("%.0f%%" % (100.0 * one["us"] / (self.threads * h["us"])) if one else "-")
            if checks:
                cells.append(h.get("check", "-") if h else "-")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        out += self.legend()
        out.append("")
        out += self.behind(notes)
        return out

    def legend(self):
        out = ["Runs" + (" (the letters above)" if len(self.runs) > 1 else "") + ":", ""]
        for run in self.runs:
            recs = [r for k, r in self.in_run.items() if k[:3] == (run, self.machine, self.device)]
            dates = sorted({r["date"] + (" " + r["time"] + " UTC" if r.get("time") else "") for r in recs})
            commits = sorted({r["commit"][:7] if r["commit"] else "not stated" for r in recs})
            rounds = sorted({r.get("rounds", 1) for r in recs})
            versions = sorted({"%s %s" % kv for r in recs for kv in sorted(r["versions"].items())})
            sources = sorted({r["source"] for r in recs})
            text = "%s, hres %s, each cell the best of %s" % (", ".join(dates), ", ".join(commits),
                                                              " / ".join(plural(n, "round") for n in rounds))
            if versions:
                text += "; " + ", ".join(versions)
            prefix = "%s: " % self.letter[run] if len(self.runs) > 1 else ""
            out.append("- %s`%s` (%s). From: %s" % (prefix, run, text, " | ".join(sources)))
        return out

    def behind(self, notes):
        items, other_mode = [], 0
        for row in self.rows:
            case, dtype, layout = row
            h = self.cells.get((row, "hres"))
            label = "%s %s %s" % (case, dtype, layout)
            if h is not None and h.get("check", "").startswith(("MISMATCH", "FAILED")):
                items.append("- `%s`: hres's output check: %s. Why: %s" % (
                    label, h["check"], reason(notes, self.machine, None, h, row, "hres")))
            for peer in self.peers:
                p, ph, q = self.pair(row, peer)
                if q is None or round(q, 2) >= 1.0:
                    continue
                if p.get("same_mode") is False:
                    other_mode += 1
                    continue
                run = " [%s]" % self.letter[p["_run"]] if len(self.runs) > 1 else ""
                wins = ""
                if "hres_faster_runs" in p:
                    wins = ", hres faster in %d of %d runs" % tuple(p["hres_faster_runs"])
                items.append("- `%s`: %s %s us, hres %s us (%.2f%s)%s. Why: %s" % (
                    label, title(peer), fmt_us(p["us"]), fmt_us(ph["us"]), q, wins, run,
                    reason(notes, self.machine, p, ph, row, peer)))
        out = ["Behind, and why (cells where a peer is faster than hres in the same run):", ""]
        if not self.peers:
            items = items or ["- no peer was measured at this thread count."]
        out += items if items else ["- none: hres is at least level with every peer measured here."]
        if other_mode:
            out += ["", "(%s where the peer ran another mode (*) and was faster are not counted.)"
                    % plural(other_mode, "cell")]
        return out


def render(recs, notes):
    newest, in_run = {}, {}
    for rec in sorted(recs, key=age):
        key = (rec["machine"], rec["device"], rec["case"], rec["impl"], rec["threads"], rec["layout"],
               rec["dtype"])
        newest[key] = rec  # later (newer) records replace earlier ones
        in_run[(rec["_run"],) + key] = rec
    groups = {}
    for key, rec in newest.items():
        groups.setdefault((key[0], key[1]), {})[key[2:]] = rec
    out = [
        "# Current benchmark results",
        "",
        "Generated by `python3 bench/current.py` from the run records in `bench/runs/*.jsonl` (their format:",
        "bench/runs/README.md; the machines: bench/machines.md). Do not edit this file by hand: add a run's",
        "records and regenerate it; `python3 bench/current.py --check` fails while it is out of date.",
        "",
        "How to read it:",
        "",
        "- One section per machine and device, one table per thread count. Each time is the newest record of",
        "  its case, implementation, thread count, layout and dtype: median microseconds per call, the best of",
        "  its run's rounds.",
        "- `X/hres` is the peer's time over hres's: above 1.00 hres is faster. A ratio always pairs the peer",
        "  with hres's time from the peer's own run, since only times of one run compare (the machines are",
        "  shared and noisy). Where a table draws on several runs, `run` names hres's run and a peer time from",
        "  another run carries its run's letter, e.g. `243.1 [a]`. BENCH.md's targets read inverted here:",
        "  hres at 0.5x eager's time is eager/hres 2.00.",
        "- `*`: the peer ran another mode than the row's (its closest one: OpenCV has no antialiased bicubic,",
        "  Pillow antialiases whenever it shrinks); shown for scale, not counted as behind.",
        "- `-`: not measured, or the peer has no such operation.",
        "",
        "Records: %d in %s." % (len(recs), plural(len({r["_run"] for r in recs}), "run")),
    ]
    for machine, device in sorted(groups):
        cells = groups[(machine, device)]
        out += ["", "## %s, %s" % (machine, "CUDA" if device == "cuda" else device.upper()), ""]
        out.append("Machine `%s` in bench/machines.md." % machine)
        for threads in sorted({k[2] for k in cells}, key=threads_order):
            if threads is None:
                heading = "### Per call on the GPU"
            else:
                heading = "### %s" % ("all threads" if threads == "all" else plural(threads, "thread"))
            out += ["", heading, ""]
            out += Table(machine, device, threads, cells, in_run).lines(notes)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the output file is not what would be written")
    ap.add_argument("--runs", default=os.path.join(HERE, "runs"), help="the records' folder (bench/runs)")
    ap.add_argument("--output", default=os.path.join(HERE, "CURRENT.md"), help="the file written (bench/CURRENT.md)")
    ap.add_argument("--machines", default=records.MACHINES_MD, help="bench/machines.md, for the machine keys")
    args = ap.parse_args()
    try:
        recs = records.load_runs(args.runs, args.machines)
        notes = load_notes(os.path.join(args.runs, "notes.json"))
    except ValueError as e:
        print("bench/current.py: %s" % e, file=sys.stderr)
        return 2
    text = render(recs, notes)
    if args.check:
        old = open(args.output).read() if os.path.exists(args.output) else ""
        if old == text:
            return 0
        diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(), args.output, "generated", lineterm=""))
        print("%s is out of date: run python3 bench/current.py\n%s" % (args.output, "\n".join(diff[:40])),
              file=sys.stderr)
        return 1
    with open(args.output, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
