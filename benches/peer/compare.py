#!/usr/bin/env python3
"""Side-by-side speed of warpdbg, numba's CUDA simulator (the peer) and native Rust loops (the limit) on
reduceNeighbored, with the same inputs, checking that all three agree.

    python3 benches/peer/compare.py [--n 65536] [--block 512] [--repeat 5]

Installs numba into benches/peer/.venv from PyPI on first use, builds warpdbg in release mode and the native
baseline with rustc -O. Prints a table and the ratios. warpdbg and the native loops run `--repeat` times,
taking turns, and each keeps its best time: on a shared machine other load only ever adds time, and taking
turns exposes both to the same moments (numba runs once: it takes minutes).
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv")


def sh(cmd, ok=(0,), **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 16, help="ints to reduce (numba needs minutes past 1<<17)")
    ap.add_argument("--block", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=5, help="runs of warpdbg and the native loops (best kept)")
    ap.add_argument("--no-numba", action="store_true",
                    help="only warpdbg and the native loops (for sizes numba cannot finish, e.g. 1<<24)")
    args = ap.parse_args()
    n, block = args.n, args.block

    py = os.path.join(VENV, "bin", "python")
    if not args.no_numba and not os.path.exists(py):
        print("installing numba into", VENV, file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "numba"], check=True)
    sh(["cargo", "build", "--release", "-q"], cwd=ROOT)
    warpdbg = os.path.join(ROOT, "target", "release", "warpdbg")
    native = os.path.join(HERE, ".native_reduce")
    sh(["rustc", "-O", "-o", native, os.path.join(HERE, "native_reduce.rs")])

    kernel = os.path.join(ROOT, "kernels", "reduce_neighbored.cu")
    launch = ["--arg", f"n={n}", "--block", str(block)]
    # The inputs warpdbg generates (step 0), so every implementation reduces the same numbers.
    # (exit 4: the step limit of 0 is reached before the first instruction, as intended)
    start = json.loads(sh([warpdbg, "run", "--json", "--max-steps", "0", kernel] + launch, ok=(4,)))
    inputs = start["memory"]["g_idata"]
    data_path = os.path.join(HERE, ".inputs.bin")
    with open(data_path, "wb") as f:
        for v in inputs:
            f.write(int(v).to_bytes(4, "little", signed=True))

    modes = ["pre-volta", "its"]
    results = {m: json.loads(sh([warpdbg, "run", "--json", "--mode", m, kernel] + launch)) for m in modes}
    times = {m: [] for m in modes + ["native"]}
    nat = None
    for _ in range(max(args.repeat, 1)):
        for mode in modes:
            # Simulation time alone (like the others: no start-up, no report), from run --bench.
            bench = sh([warpdbg, "run", "--bench", "--mode", mode, kernel] + launch)
            times[mode].append(float(next(l for l in bench.splitlines() if l.startswith("simulation")).split()[1]))
        nat = json.loads(sh([native, data_path, str(n), str(block)]))
        times["native"].append(nat["seconds"])
    rows = [(f"warpdbg {m}", min(times[m]), results[m]["memory"]["g_odata"]) for m in modes]
    peer = None
    if not args.no_numba:
        env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
        peer = json.loads(sh([py, os.path.join(HERE, "reduce_numba.py"), data_path, str(n), str(block)], env=env))
        rows.append(("numba CUDA simulator", peer["seconds"], peer["g_odata"]))
    rows.append(("native Rust loops", min(times["native"]), nat["g_odata"]))

    expected = [sum(inputs[b * block:(b + 1) * block]) for b in range(n // block)]
    print(f"reduceNeighbored, n = {n}, block {block} ({n // 32} warps); machine: {os.cpu_count()} cores")
    print(f"{'implementation':<24}{'seconds':>12}  result   (best of {max(args.repeat, 1)}; all runs)")
    ok = True
    key = {"warpdbg pre-volta": "pre-volta", "warpdbg its": "its", "native Rust loops": "native"}
    for name, secs, out in rows:
        agree = out == expected
        ok &= agree
        runs = " ".join(f"{t:.4f}" for t in times[key[name]]) if name in key else ""
        print(f"{name:<24}{secs:>12.4f}  {'agrees ' if agree else 'DIFFERS'}  {runs}")
    w = min(r[1] for r in rows[:2])
    if peer is not None:
        print(f"\nnumba / warpdbg (faster mode): {peer['seconds'] / w:,.0f}x")
    print(f"warpdbg (faster mode) / native: {w / max(min(times['native']), 1e-9):,.1f}x")
    print("(each time is the kernel alone: no start-up, no input generation, no report)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
