#!/usr/bin/env python3
"""Issue 33's train/test split of the corpus in repos.txt, by a rule fixed before the new repositories were read.

    python3 benches/corpus/split.py [repos.txt]      prints `OWNER/NAME<TAB>train|test` for every repository

The rule: a third of all the repositories (rounded up) form the test split. They are taken from the `new` ones
(never opened here), in ascending order of the SHA-256 of `owner/name` in lower case. Every other repository
is train. The test split's programs are run and counted by the scripts only: nobody working on warpdbg reads
their code or their per-program results, only the split's totals (benches/programs.md says how they are
reported). A repository that cannot be fetched keeps its place in the order (the split is not redrawn).
"""
import hashlib
import math
import os
import sys


def split(path):
    repos = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, role = line.split()
                repos.append((name, role))
    key = lambda name: hashlib.sha256(name.lower().encode()).hexdigest()
    fresh = sorted((n for n, r in repos if r == "new"), key=key)
    test = set(fresh[: math.ceil(len(repos) / 3)])
    return [(n, "test" if n in test else "train") for n, _ in repos]


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, part in split(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "repos.txt")):
        print(f"{name}\t{part}")
