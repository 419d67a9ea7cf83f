#!/usr/bin/env python3
"""Issue 33's figures per repository and per split, from what benches/programs/run.py wrote.

    python3 benches/corpus/report.py CASES_TSV GPU_DIR OUT_JSON [OUT_JSON ...]

CASES_TSV is benches/programs/cases.py's list of the corpus (folders named OWNER+NAME under one root), GPU_DIR
what benches/programs/gpu.sh recorded, each OUT_JSON a run.py result (several: the train and the test split's
runs). Prints a Markdown table: per repository its split (benches/corpus/split.py), its programs, the
candidates (no other library, one GPU), those the GPU built and finished (the figure's denominator), and how
many warpdbg ran as the GPU did (same output and status), the same lines in another order where CUDA leaves
the order open (`order`), the same output with a bug reported, output that
varies on the GPU, and the rest; then the two splits' totals. Only counts: no program of the test split is
named.
"""
import json
import os
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ["programs", "candidates", "counted", "pass", "order", "finding", "varies", "other"]


def main():
    cases_path, gpu_dir, outs = sys.argv[1], sys.argv[2], sys.argv[3:]
    split = dict(
        line.split("\t")
        for line in subprocess.check_output(["python3", os.path.join(HERE, "split.py")], text=True).splitlines()
    )
    results = {}
    for out in outs:
        for r in json.load(open(out)):
            results[r["case"]] = r["result"]
    rows = defaultdict(lambda: dict.fromkeys(COLUMNS, 0))
    for k, line in enumerate(open(cases_path), 1):
        path, dirs, cls = line.rstrip("\n").split("\t")
        repo = os.path.basename(dirs.split(":")[0]).replace("+", "/", 1)
        row = rows[repo]
        row["programs"] += 1
        if cls != "candidate":
            continue
        row["candidates"] += 1
        status = open(os.path.join(gpu_dir, f"{k}.status")).read().strip()
        if status in ("build", "124"):
            continue
        row["counted"] += 1
        res = results.get(k, "not run")
        key = {"pass": "pass", "block order": "order", "finding": "finding", "varies on the GPU": "varies"}.get(
            res, "other"
        )
        row[key] += 1
    print("| repository | split | " + " | ".join(COLUMNS) + " | as the GPU |")
    print("|---|---|" + "---|" * (len(COLUMNS) + 1))
    totals = {p: dict.fromkeys(COLUMNS, 0) for p in ("train", "test")}
    for repo in sorted(rows, key=lambda r: (split.get(r, "?"), r.lower())):
        row, part = rows[repo], split.get(repo, "?")
        for c in COLUMNS:
            totals[part][c] += row[c]
        print(f"| {repo} | {part} | " + " | ".join(str(row[c]) for c in COLUMNS) + f" | {share(row)} |")
    for part, row in totals.items():
        print(f"| **all of {part}** | {part} | " + " | ".join(str(row[c]) for c in COLUMNS) + f" | {share(row)} |")


def share(row):
    """The issue's figure: same output as the GPU (passing, the same lines in an order of blocks CUDA leaves
    open, or with a bug reported) over the programs counted."""
    if row["counted"] == 0:
        return "·"
    return f"{100 * (row['pass'] + row['order'] + row['finding']) / row['counted']:.1f} %"


if __name__ == "__main__":
    main()
