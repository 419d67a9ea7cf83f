#!/usr/bin/env python3
"""Collects a record.sh run into benches/lessons/h100.json.

    python3 benches/lessons/collect.py OUT_DIR [--out PATH]

Reads OUT_DIR/run/NAME.stdout (the program's own "LESSON VARIANT MS" lines: median event times over the
default repetitions), OUT_DIR/ncu/NAME.csv (Nsight Compute's raw page, one row per profiled launch of the
argv[1]=1 run), OUT_DIR/env.txt, metrics_used.txt and metrics_dropped.txt, and variants.txt next to this
script (FILE LESSON VARIANT KERNEL) to name each launch's variant. Every variant is launched twice under
ncu (the warm-up, then the timed launch); the timed one (the kernel's last launch) is kept as "launches",
and the count metrics of the warm-up that differ from it are listed under "warmup_differs".
Only the standard library is used.
"""
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# metrics whose value is a count of events (the warm-up should give the same); the rest are rates/times
COUNT_PREFIXES = ("smsp__inst", "smsp__warps_launched", "smsp__sass", "l1tex__t_", "l1tex__data")


def parse_number(text):
    t = text.strip().replace(",", "")
    if t in ("", "n/a", "N/A", "-"):
        return None
    try:
        v = float(t)
    except ValueError:
        return None
    return int(v) if v.is_integer() and abs(v) < 2**63 else v


def kernel_base(name):
    # "void readStride1(const float *, float *)" or "readStride1" -> "readStride1"
    n = name.strip()
    n = n.split("(")[0]
    n = n.split("<")[0]
    n = n.split()[-1] if n.split() else n
    return n.split("::")[-1]


def read_variants():
    table = {}  # file -> kernel -> (lesson, variant)
    order = {}  # file -> [variant, ...]
    with open(os.path.join(HERE, "variants.txt")) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 4 or line.startswith("#"):
                continue
            fname, lesson, variant, kernel = parts
            table.setdefault(fname, {})[kernel] = (lesson, variant)
            order.setdefault(fname, []).append(variant)
    return table, order


def read_times(path):
    times = {}
    if not os.path.exists(path):
        return times
    with open(path) as f:
        for line in f:
            m = re.match(r"^(\S+) (\S+) (-?[0-9.]+(?:e-?\d+)?)\s*$", line)
            if m:
                times[m.group(2)] = float(m.group(3))
    return times


METRICS = [
    "gpu__time_duration.sum", "launch__registers_per_thread", "launch__grid_size", "launch__block_size",
    "smsp__inst_executed.sum", "smsp__warps_launched.sum", "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors.sum", "lts__t_sector_hit_rate.pct",
]


def read_ncu_csv(path, wanted):
    """Returns [(kernel_name, {metric: number})] in launch order, keeping the columns named in wanted (the
    raw page also has every device__/launch__ attribute and .avg/.min/.max of each .sum asked for)."""
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header_at = None
    for i, row in enumerate(rows):
        if "Kernel Name" in row and "ID" in row:
            header_at = i
            break
    if header_at is None:
        return []
    header = rows[header_at]
    k_name = header.index("Kernel Name")
    k_id = header.index("ID")
    metric_cols = [(j, h) for j, h in enumerate(header) if h in wanted]
    out = []
    for row in rows[header_at + 1:]:
        if len(row) != len(header):
            continue
        if not re.fullmatch(r"\s*\d+\s*", row[k_id]):  # the units row, blank lines
            continue
        metrics = {}
        for j, h in metric_cols:
            v = parse_number(row[j])
            if v is not None:
                metrics[h] = v
        out.append((int(row[k_id]), kernel_base(row[k_name]), metrics))
    out.sort(key=lambda r: r[0])
    return [(name, metrics) for _, name, metrics in out]


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    out_dir = args[0]
    dest = os.path.join(HERE, "h100.json")
    if "--out" in args:
        dest = args[args.index("--out") + 1]
    table, order = read_variants()

    env_text = read_text(os.path.join(out_dir, "env.txt"))
    env = {"raw": env_text}
    smi = re.search(r"--- nvidia-smi\n(.*?)\n(.*?)\n", env_text)
    if smi:
        keys = [k.strip() for k in smi.group(1).split(",")]
        vals = [v.strip() for v in smi.group(2).split(",")]
        env["nvidia_smi"] = dict(zip(keys, vals))
    m = re.search(r"release ([0-9.]+), (V[0-9.]+)", env_text)
    if m:
        env["nvcc"] = m.group(2)
    m = re.search(r"--- ncu\n(?:.*\n)*?.*Version ([0-9.]+)", env_text)
    if m:
        env["ncu"] = m.group(1)
    env["metrics_used"] = read_text(os.path.join(out_dir, "metrics_used.txt")).split()
    env["metrics_dropped"] = [l for l in read_text(os.path.join(out_dir, "metrics_dropped.txt")).splitlines() if l]

    programs = {}
    problems = []
    for fname in sorted(table):
        name = fname[:-3]
        times = read_times(os.path.join(out_dir, "run", name + ".stdout"))
        status = read_text(os.path.join(out_dir, "run", name + ".status")).strip()
        launches = read_ncu_csv(os.path.join(out_dir, "ncu", name + ".csv"), set(env["metrics_used"] or METRICS))
        by_kernel = {}
        for k, (kname, metrics) in enumerate(launches, start=1):
            by_kernel.setdefault(kname, []).append((k, metrics))
        entries = []
        for variant in order[fname]:
            kernel = next(kn for kn, (_, v) in table[fname].items() if v == variant)
            seen = by_kernel.get(kernel, [])
            if not seen:
                problems.append(f"{fname}: no ncu launch of {kernel}")
                continue
            if len(seen) != 2:
                problems.append(f"{fname}: {len(seen)} ncu launches of {kernel} (expected 2: warm-up, timed)")
            k, metrics = seen[-1]
            entry = {"kernel": kernel, "launch": k, "variant": variant, "metrics": metrics}
            if len(seen) >= 2:
                warm = seen[0][1]
                differs = {m: [warm.get(m), v] for m, v in metrics.items()
                           if m.startswith(COUNT_PREFIXES) and warm.get(m) != v}
                if differs:
                    entry["warmup_differs"] = differs
            entries.append(entry)
        for variant in order[fname]:
            if variant not in times:
                problems.append(f"{fname}: no time printed for {variant}")
        programs[fname] = {"status": int(status) if status.lstrip("-").isdigit() else None,
                           "times": times, "launches": entries}

    doc = {"env": env, "programs": programs, "problems": problems}
    with open(dest, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    for p in problems:
        print("collect:", p, file=sys.stderr)
    print(f"collect: wrote {dest}: {len(programs)} programs, "
          f"{sum(len(p['launches']) for p in programs.values())} launches, {len(problems)} problems")
    return 0


if __name__ == "__main__":
    sys.exit(main())
