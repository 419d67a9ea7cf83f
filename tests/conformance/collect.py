#!/usr/bin/env python3
"""Turns record.sh's raw results (one folder per kernel) into tests/conformance/expected/NAME.json.

Hand-written fields of an existing expected file (KEEP: the notes, the excuses and warpdbg's recorded figures
beside them) are kept, so re-recording never loses an explanation. A run of record.sh with NCU_ONLY=1 ran no
compute-sanitizer: the sanitizer results already recorded are kept too.

Nsight Compute's figures go to "ncu" (branches, instructions, bank conflicts: METRICS) and "nsight_memory"
(global and shared memory counts: MEMORY_METRICS), under the names tests/conformance.rs compares
(docs/conformance.md). A metric ncu did not report is left out, not recorded as zero."""
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")
METRICS = {
    "smsp__sass_branch_targets.sum": "branch_targets",
    "smsp__sass_branch_targets_threads_divergent.sum": "branch_targets_divergent",
    "smsp__thread_inst_executed_per_inst_executed.ratio": "threads_per_instruction",
    "smsp__inst_executed.sum": "warp_instructions",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "shared_bank_conflicts_ld",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "shared_bank_conflicts_st",
}
MEMORY_METRICS = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "global_ld_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "global_ld_sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "global_st_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "global_st_sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum": "global_atom_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum": "global_atom_sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum": "global_red_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum": "global_red_sectors",
    "smsp__inst_executed_op_shared_ld.sum": "shared_ld_requests",
    "smsp__inst_executed_op_shared_st.sum": "shared_st_requests",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "shared_ld_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "shared_st_wavefronts",
}
# Hand-written fields (and warpdbg's figures recorded beside an excuse) that re-recording keeps.
KEEP = ("notes", "ignore_memory", "expect_outcome", "mode",
        "divergence_note", "warpdbg_divergent_branches",
        "bank_note", "warpdbg_bank_conflicts",
        "memory_note", "warpdbg_memory")


def read(path, default=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def sanitizer(text):
    if text is None:
        return None
    m = re.search(r"ERROR SUMMARY: (\d+) error", text)
    errors = int(m.group(1)) if m else None
    if errors is None and "RACECHECK SUMMARY" in text:
        m = re.search(r"RACECHECK SUMMARY: (\d+) hazard", text)
        errors = int(m.group(1)) if m else None
    first = [
        l.rstrip()
        for l in text.splitlines()
        if l.startswith("=========") and "SUMMARY" not in l and "COMPUTE-SANITIZER" not in l and l.strip("= ")
    ]
    return {"errors": errors, "first": first[:8]}


def ncu(text, metrics=METRICS):
    """The figures of `metrics` in ncu's CSV (several runs' CSV appended one after another read the same)."""
    if not text:
        return None
    out = {}
    for row in csv.DictReader(line for line in text.splitlines() if line.startswith('"')):
        name = metrics.get(row.get("Metric Name", ""))
        if name:
            value = row.get("Metric Value", "").replace(",", "")
            try:
                out[name] = float(value)
            except ValueError:
                pass
    return out or None


def dumps(rec):
    """JSON with every array of scalars on one line, so a memory dump is a line per array."""
    text = json.dumps(rec, indent=1, sort_keys=True)
    scalar_list = re.compile(r"\[\n\s*((?:[-0-9.eE+]+|true|false|null|\"[^\"\n]*\")(?:,\n\s*(?:[-0-9.eE+]+|true|false|null|\"[^\"\n]*\"))*)\n\s*\]")
    return scalar_list.sub(lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",\n")) + "]", text) + "\n"


def main(raw):
    env = dict(l.split(": ", 1) for l in read(os.path.join(raw, "env.txt"), "").splitlines() if ": " in l)
    os.makedirs(EXPECTED, exist_ok=True)
    for name in sorted(os.listdir(raw)):
        d = os.path.join(raw, name)
        if not os.path.isdir(d) or not os.path.exists(os.path.join(d, "source")):
            continue
        source = read(os.path.join(d, "source")).strip()
        out_path = os.path.join(EXPECTED, name + ".json")
        old = json.loads(read(out_path, "{}"))
        rec = {
            "file": source,
            "recorded": {"gpu": env.get("gpu"), "cuda": env.get("cuda"), "date": env.get("date"),
                         "nvcc": env.get("nvcc", "-O2 -arch=sm_90")},
        }
        rc = (read(os.path.join(d, "run.rc")) or "").strip()
        result = read(os.path.join(d, "result.json"))
        if (read(os.path.join(d, "nvcc.rc")) or "1").strip() != "0":
            rec["outcome"] = "build_failed"
            rec["nvcc_log"] = (read(os.path.join(d, "nvcc.log")) or "")[-2000:]
        elif rc == "124":
            rec["outcome"] = "hang"
        elif result:
            r = json.loads(result)
            rec["outcome"] = r["outcome"]
            rec["error"] = r.get("error")
            rec["memory"] = r["memory"] if r["outcome"] == "completed" else None
        else:
            rec["outcome"] = "crashed"
        rec["stdout"] = (read(os.path.join(d, "stdout.txt")) or "")[-4000:]
        if env.get("ncu_only") and "sanitizer" in old:
            rec["sanitizer"] = old["sanitizer"]
        else:
            rec["sanitizer"] = {t: sanitizer(read(os.path.join(d, t + ".txt")))
                                for t in ("memcheck", "racecheck", "synccheck")}
        ncu_csv = read(os.path.join(d, "ncu.csv"))
        rec["ncu"] = ncu(ncu_csv)
        memory = ncu(ncu_csv, MEMORY_METRICS)
        if memory:
            rec["nsight_memory"] = memory
        for keep in KEEP:
            if keep in old:
                rec[keep] = old[keep]
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(dumps(rec))
        print(f"{name}: {rec['outcome']}")


if __name__ == "__main__":
    main(sys.argv[1])
