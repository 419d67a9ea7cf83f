#!/usr/bin/env python3
"""Summarises what benches/programs/run.py wrote: counts by result, then the reasons, most frequent first.

    python3 benches/programs/summary.py OUT_JSON [--cases]

Reasons are the detail with numbers, quoted names and paths folded so that one construct is one line;
`--cases` lists the case numbers under each reason.
"""
import json
import re
import sys
from collections import defaultdict


def reason(r):
    d = r["detail"]
    if r["result"] == "different output":
        return d
    d = re.sub(r"`[^`]*`", "`_`", d) if r["result"] == "compile error" else d
    return re.sub(r"\d+", "N", d)[:120]


def main():
    path = sys.argv[1]
    results = json.load(open(path))
    groups = defaultdict(lambda: defaultdict(list))
    for r in results:
        groups[r["result"]][reason(r)].append(r["case"])
    n = len(results)
    passed = sum(len(v) for v in groups["pass"].values())
    print(f"{passed} of {n} pass ({100 * passed / n:.1f} %)")
    for result, reasons in sorted(groups.items(), key=lambda kv: -sum(len(v) for v in kv[1].values())):
        if result == "pass":
            continue
        print(f"\n{sum(len(v) for v in reasons.values())} {result}")
        for why, cases in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
            tail = f"  [{','.join(map(str, cases))}]" if "--cases" in sys.argv else ""
            print(f"  {len(cases):3}  {why}{tail}")


if __name__ == "__main__":
    main()
