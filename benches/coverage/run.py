#!/usr/bin/env python3
"""Runs `warpdbg check` on every case make_cases.py wrote and sorts the failures by what stopped them.

    python3 benches/coverage/run.py WARPDBG CASES_LIST [RESULTS.json]

Prints the number that pass, of the valid kernels (cases of the files `invalid.txt` lists, which nvcc rejects,
left out) and of all; then each reason with its count and one example (file and the diagnostic's first
line). A reason is the first diagnostic's message with names and numbers taken out, so the same construct
counts once whatever it is called.
"""
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys


def check(warpdbg, line):
    case, *includes = line.split("\t")
    args = [warpdbg, "check", case] + [a for d in includes for a in ("-I", d)]
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return case, "timeout", ""
    if p.returncode == 0:
        return case, "ok", ""
    first = next((l for l in p.stderr.splitlines() if l.startswith("error")), p.stderr.strip()[:200])
    if p.returncode not in (0, 2) or "panicked" in p.stderr:
        return case, "crash", p.stderr[-400:]
    return case, "fail", first


def reason(first):
    r = re.sub(r"`[^`]*`", "`X`", first)
    r = re.sub(r"\b\d+\b", "N", r)
    return r


def invalid_files():
    """Corpus paths (relative to the corpus root) of the files invalid.txt lists."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "invalid.txt")
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]


def is_invalid(case, invalid):
    """A case `DIR/FILE.cu.KERNEL.case.cu` of a listed `FILE.cu`."""
    return any(case.endswith(".case.cu") and ("/" + entry + ".") in case for entry in invalid)


def main():
    warpdbg, listing = sys.argv[1], sys.argv[2]
    cases = [l.rstrip("\n") for l in open(listing) if l.strip()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(lambda c: check(warpdbg, c), cases))
    ok = sum(1 for _, s, _ in results if s == "ok")
    invalid = invalid_files()
    valid = [(c, s) for c, s, _ in results if not is_invalid(c, invalid)]
    valid_ok = sum(1 for _, s in valid if s == "ok")
    by = collections.defaultdict(list)
    for case, status, first in results:
        if status != "ok" and not is_invalid(case, invalid):
            by[reason(first) if status == "fail" else status].append((case, first))
    print(f"{valid_ok} of {len(valid)} valid kernels pass `warpdbg check` ({100.0 * valid_ok / max(1, len(valid)):.1f} %)")
    print(f"{ok} of {len(cases)} pass `warpdbg check` ({100.0 * ok / max(1, len(cases)):.1f} %), "
          f"{len(cases) - len(valid)} of them in files invalid.txt lists")
    for r, items in sorted(by.items(), key=lambda kv: -len(kv[1])):
        print(f"{len(items):4d}  {r}")
        print(f"      e.g. {items[0][0]}: {items[0][1]}")
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as f:
            json.dump([{"case": c, "status": s, "first": d, "valid": not is_invalid(c, invalid)} for c, s, d in results],
                      f, indent=1)


if __name__ == "__main__":
    main()
