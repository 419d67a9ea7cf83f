#!/usr/bin/env python3
"""Program coverage: runs `warpdbg run` on every whole program a GPU ran, and compares standard output.

    python3 benches/programs/run.py WARPDBG CASES_TSV GPU_DIR OUT_JSON [-j JOBS] [--only K,K,...] [--timeout S]
                                    [--reruns DIR] [--as GPU_ROOT=CORPUS_ROOT]

GPU_DIR holds what benches/programs/gpu.sh recorded (K.status, K.stdout for case K, the line number in
CASES_TSV). A case counts when the GPU built it and it finished within its time limit (any exit status). It
passes when warpdbg's standard output equals the GPU's and its exit status is the program's own; it is a
`finding` when the output is the same but warpdbg exits with its error status for a bug it reports (a race, an
uninitialised read, a fault, a leak, a deadlock) that the GPU run did not show. A program whose output differs
and that seeds `rand()` with the clock is counted as `varies on the GPU`: no run, not even the GPU's next one,
prints the same. Output with the same lines, where a stretch of them comes in another order and the status is
the program's, is `block order`: kernels' printf from several blocks, whose order CUDA leaves to the GPU. Lines that
print timings or device facts are compared by shape (their numbers masked): a line counts as one when it names
time (time, elapsed, ms, sec, GFLOPS, GB/s, bandwidth, speedup, clock) or the device (Device, GPU name, SMs,
compute capability, memory clock, shared memory per block), and on those lines the device's name is masked too
(warpdbg's simulated device is not named like the GPU). Each failure is classified: the construct warpdbg
names as unsupported, a compile error, a host error or fault warpdbg reported, the step limit, a timeout, or
different output (with the first differing line).

`--reruns DIR` reads what benches/programs/gpu_reruns.sh recorded for some cases: more plain GPU runs
(K.runN.stdout) and runs with time() fixed at warpdbg's virtual clock (K.fixedN.stdout). A line the GPU's own
runs print differently (a count of polls while the GPU worked, a pointer printed as a number) is compared by
shape too; a program that seeds rand() with the clock is compared with its fixed-clock runs (it draws the
numbers warpdbg's run draws). A host error warpdbg reports in a program whose output is the GPU's is a finding
like the device ones (a `cudaFree` of pinned memory, which the program goes on from).

`--as GPU_ROOT=CORPUS_ROOT` (e.g. `/tmp/c=/work/corpus`): gpu.sh built each program from its copy of the
corpus at GPU_ROOT (its LOCAL_CORPUS), so `__FILE__` printed that path; warpdbg is then given the same path,
through a symbolic link GPU_ROOT -> CORPUS_ROOT (made if absent), and prints what the GPU printed.
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

TIMING = re.compile(
    r"time|elapsed|\bms\b|msec|\bsec|\bs\b|gflop|gb/s|bandwidth|speedup|clock|throughput|"
    r"device|gpu|\bsm\b|compute capability|multiprocessor|memory clock|shared memory|bus width|"
    r"cuda driver|runtime version|global memory|constant memory|registers|warp size|l2 cache",
    re.I,
)
NUMBER = re.compile(r"[-+]?\d+(\.\d+)?([eE][-+]?\d+)?")
# The device's name (cudaDeviceProp::name): the GPU's own, or warpdbg's simulated device's.
DEVICE_NAME = re.compile(r"NVIDIA H100 80GB HBM3|NVIDIA H200|warpdbg simulated GPU \([^)]*\)")


def shape(line):
    # The device's name is masked first: the GPU's line (`Name: NVIDIA H200`) may name no other device word.
    line = DEVICE_NAME.sub("<device name>", line)
    return NUMBER.sub("#", line) if TIMING.search(line) else line


SEEDED_BY_TIME = re.compile(r"srand\s*\([^;]*\btime\s*\(")


def seeded_by_time(path, dirs):
    """Whether the program (or a header it includes by a quoted name) seeds rand() with the clock."""
    seen, todo = set(), [path]
    while todo:
        p = todo.pop()
        if p in seen or not os.path.exists(p):
            continue
        seen.add(p)
        text = open(p, errors="replace").read()
        if SEEDED_BY_TIME.search(text):
            return True
        for name in re.findall(r'#\s*include\s*"([^"]+)"', text):
            todo += [os.path.join(d, name) for d in [os.path.dirname(p)] + dirs]
    return False


def varying_lines(outs):
    """How the GPU's runs differ: the line numbers they print differently, and whether those lines are only
    printed in another order (each run prints the same lines there); None when they print other numbers of
    lines, or lines that differ in more than their numbers."""
    lines = [o.splitlines() for o in outs]
    if any(len(x) != len(lines[0]) for x in lines):
        return None
    vary = []
    for i, row in enumerate(zip(*lines)):
        if len(set(row)) > 1:
            if len({NUMBER.sub("#", x) for x in row}) > 1:
                return None
            vary.append(i)
    reordered = len({tuple(sorted(x[i] for i in vary)) for x in lines}) == 1
    return frozenset(vary), reordered


def block_order(a, b):
    """Whether two outputs print the same lines and differ only in the order of a stretch of them: kernels'
    printf from several blocks, which run in an order CUDA does not define (the GPU's own runs may reorder
    them; warpdbg runs blocks in index order). Host lines around the stretch must match in place."""
    if len(a) != len(b):
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if shape(x) != shape(y)]
    if not diff:
        return False
    lo, hi = diff[0], diff[-1] + 1
    return sorted(map(shape, a[lo:hi])) == sorted(map(shape, b[lo:hi]))


def classify(proc, gpu_out, gpu_status, argv0, vary=(frozenset(), False)):
    # The GPU ran the binary gpu.sh built (/tmp/progbin/K); warpdbg's argv[0] is `./STEM`, as a student runs it.
    gpu_out = re.sub(r"/tmp/progbin/\d+", argv0, gpu_out)
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    a, b = out.splitlines(), gpu_out.splitlines()
    lines, reordered = vary

    def alike(i, x, y):
        # A line the GPU's runs print with other numbers is compared by shape; one they print in another order
        # is compared below, as a set.
        if i in lines:
            return reordered or NUMBER.sub("#", x) == NUMBER.sub("#", y)
        return shape(x) == shape(y)

    same = len(a) == len(b) and all(alike(i, x, y) for i, (x, y) in enumerate(zip(a, b)))
    if same and reordered and lines:
        same = sorted(shape(a[i]) for i in lines) == sorted(shape(b[i]) for i in lines)
    if same and proc.returncode == gpu_status:
        return "pass", ""
    if not same and proc.returncode == gpu_status and block_order(a, b):
        return "block order", "the same lines; where they differ, only their order does"
    if same and proc.returncode in (1, 3) and re.search(r"hazard:|=====|never freed|deadlock|warpdbg: error:", err):
        # The same output, and a bug warpdbg reports that the GPU run did not show (a race, an uninitialised
        # read, a fault, a leak, a host error the program goes on from): warpdbg's exit status says so (also
        # where the program then failed its own check, as on the GPU, which exited with the program's status).
        m = re.search(
            r"(hazard: [^\n]{0,80}|========= [^\n]{0,80}|[^\n]{0,60}never freed|warpdbg: error: [^\n]{0,80})", err
        )
        return "finding", m.group(1) if m else ""
    m = re.search(r"not supported by warpdbg: ([^\n]*)", err)
    if m:
        return "unsupported", m.group(1).strip()
    if proc.returncode == 2:
        m = re.search(r"error(\[[^\]]*\])?: ([^\n]*)", err)
        return "compile error", m.group(2).strip() if m else err.strip()[:200]
    m = re.search(r"warpdbg: error: ([^\n]*)", err)
    if m:
        return "host error", m.group(1)[:200]
    if proc.returncode == 4:
        return "step limit", ""
    if "panicked" in err:
        return "panic", err.strip()[-300:]
    for i, (x, y) in enumerate(zip(a, b)):
        if not alike(i, x, y):
            return "different output", f"line {i + 1}: warpdbg {x!r} / GPU {y!r}"
    if len(a) != len(b):
        return "different output", f"{len(a)} lines / GPU {len(b)} lines; status {proc.returncode} / {gpu_status}"
    return "different status", f"warpdbg {proc.returncode} / GPU {gpu_status}: {err.strip()[-200:]}"


def main():
    args = sys.argv[1:]
    jobs, only, limit = 2, None, 120
    if "--timeout" in args:
        i = args.index("--timeout")
        limit = int(args[i + 1])
        del args[i : i + 2]
    if "-j" in args:
        i = args.index("-j")
        jobs = int(args[i + 1])
        del args[i : i + 2]
    alias = None
    if "--as" in args:
        i = args.index("--as")
        alias = args[i + 1].split("=", 1)
        del args[i : i + 2]
        if not os.path.lexists(alias[0]):
            os.symlink(alias[1], alias[0])
    reruns = None
    if "--reruns" in args:
        i = args.index("--reruns")
        reruns = args[i + 1]
        del args[i : i + 2]
    if "--only" in args:
        i = args.index("--only")
        only = {int(x) for x in args[i + 1].split(",")}
        del args[i : i + 2]
    warpdbg, cases_path, gpu_dir, out_json = args
    warpdbg = os.path.abspath(warpdbg)
    cases = []
    for k, line in enumerate(open(cases_path), 1):
        path, dirs, cls = line.rstrip("\n").split("\t")
        if cls != "candidate" or (only and k not in only):
            continue
        st = os.path.join(gpu_dir, f"{k}.status")
        if not os.path.exists(st):
            continue
        status = open(st).read().strip()
        if status in ("build", "124", "137"):
            continue
        gpu_out = open(os.path.join(gpu_dir, f"{k}.stdout"), errors="replace").read()
        cases.append((k, path, dirs.split(":"), int(status), gpu_out))

    def one(case):
        k, path, dirs, status, gpu_out = case
        seen_as = path if alias is None else path.replace(alias[1], alias[0], 1)
        cmd = [warpdbg, "run", seen_as]
        for d in dirs:
            cmd += ["-I", d if alias is None else d.replace(alias[1], alias[0], 1)]
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=limit, cwd=os.path.dirname(path))
        except subprocess.TimeoutExpired:
            return {"case": k, "path": path, "result": "timeout", "detail": f"over {limit} s"}
        argv0 = "./" + os.path.splitext(os.path.basename(path))[0]
        by_clock = seeded_by_time(path, dirs)
        vary, varied, runs = (frozenset(), False), False, []
        if reruns:
            kind = "fixed" if by_clock else "run"
            runs = [open(os.path.join(reruns, f)).read() for f in sorted(os.listdir(reruns))
                    if re.fullmatch(rf"{k}\.{kind}\d+\.stdout", f)]
            runs = [re.sub(r"/tmp/progbin/\d+", argv0, r) for r in runs]
        if runs:
            if by_clock:
                gpu_out = runs[0]
            v = varying_lines([gpu_out] + runs)
            varied, vary = v is None, v or vary
        result, detail = classify(proc, gpu_out, status, argv0, vary)
        if result == "different output" and varied:
            result, detail = "varies on the GPU", "the GPU's own runs print other lines or another order"
        elif result == "different output" and by_clock and not runs:
            # srand(time(...)): the GPU machine's own output changes from run to run.
            result, detail = "varies on the GPU", "rand() seeded with the clock"
        return {"case": k, "path": path, "result": result, "detail": detail}

    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(one, cases))
    json.dump(results, open(out_json, "w"), indent=1)
    counts = {}
    for r in results:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    n = len(results)
    print(f"{counts.get('pass', 0)} of {n} pass; " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
