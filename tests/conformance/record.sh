#!/usr/bin/env bash
# Records what a real NVIDIA GPU does with every kernel of kernels/ and tests/conformance/ (or the files
# given), as the expectations tests/conformance.rs compares warpdbg against. One command on a GPU machine:
#
#     bash tests/conformance/record.sh [FILE.cu ...]
#
# For each file: `warpdbg host` writes a CUDA program that runs the file's launch with exactly warpdbg's
# inputs; nvcc -O2 -arch=sm_90 builds it; it runs under a timeout (a hang is recorded as such); Nsight
# Compute reads the branch, bank-conflict and memory metrics (docs/conformance.md) and compute-sanitizer runs
# memcheck, racecheck and synccheck. The raw results go to $RAW (default: a temporary folder) and collect.py
# turns them into expected/NAME.json.
#
# NCU_ONLY=1 skips compute-sanitizer (the slow part): a quick re-record of Nsight's counts; collect.py keeps
# the sanitizer results already recorded. Metrics that this ncu does not list (`ncu --query-metrics`) are
# left out with a warning, and should ncu still reject the list, each metric is measured on its own, so one
# unknown name never loses the others.
#
# Without cargo on the GPU machine, generate the programs elsewhere (`HOSTS_ONLY=1 bash record.sh` writes
# them to $RAW/NAME/host.cu) and run this with RAW pointing at that folder and NO_GEN=1.
set -uo pipefail
cd "$(dirname "$0")/../.."
RAW=${RAW:-$(mktemp -d)}
TIMEOUT=${TIMEOUT:-10}
ARCH=${ARCH:-sm_90}
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(kernels/*.cu tests/conformance/*.cu)

if [ -z "${NO_GEN:-}" ]; then
    if [ -z "${WARPDBG:-}" ]; then
        cargo build --release --quiet && WARPDBG=target/release/warpdbg || exit 2
    fi
    for f in "${files[@]}"; do
        n=$(basename "$f" .cu)
        mkdir -p "$RAW/$n"
        echo "$f" > "$RAW/$n/source"
        "$WARPDBG" host "$f" > "$RAW/$n/host.cu" || echo "warpdbg host failed for $f" >&2
    done
    [ -n "${HOSTS_ONLY:-}" ] && { echo "host programs in $RAW"; exit 0; }
fi

{
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
    echo "cuda: $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
    echo "date: $(date -u +%Y-%m-%d)"
    echo "nvcc: -O2 -arch=$ARCH"
    [ -n "${NCU_ONLY:-}" ] && echo "ncu_only: 1"
} > "$RAW/env.txt"
cat "$RAW/env.txt"

# Build in parallel.
ls -d "$RAW"/*/ | xargs -P "$(nproc)" -I{} sh -c \
    "nvcc -O2 -arch=$ARCH -lineinfo -o {}prog {}host.cu > {}nvcc.log 2>&1; echo \$? > {}nvcc.rc"

run_one() {
    d=$1
    [ -x "$d/prog" ] || return 0
    (cd "$d" && timeout "$TIMEOUT" ./prog result.json > stdout.txt 2>&1; echo $? > run.rc)
    rc=$(cat "$d/run.rc")
    [ "$rc" = 124 ] && return 0    # a hang: nothing more to learn from the tools
    [ -n "${NCU_ONLY:-}" ] && return 0
    for tool in memcheck racecheck synccheck; do
        (cd "$d" && timeout 120 compute-sanitizer --tool "$tool" --print-limit 20 ./prog san.json \
            > "$tool.txt" 2>&1)
    done
}
export -f run_one
export TIMEOUT NCU_ONLY
ls -d "$RAW"/*/ | xargs -P 4 -I{} bash -c 'run_one {}'

# Nsight Compute's metrics (collect.py names them): branches and instructions, shared bank conflicts, then
# global and shared memory requests, sectors and wavefronts.
WANTED=(
    smsp__sass_branch_targets.sum smsp__sass_branch_targets_threads_divergent.sum
    smsp__thread_inst_executed_per_inst_executed.ratio smsp__inst_executed.sum
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
)
for op in ld st atom red; do
    WANTED+=(l1tex__t_requests_pipe_lsu_mem_global_op_$op.sum l1tex__t_sectors_pipe_lsu_mem_global_op_$op.sum)
done
for op in ld st; do
    WANTED+=(smsp__inst_executed_op_shared_$op.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op.sum)
done
# Keep those this ncu knows (it lists base names, without the .sum/.ratio roll-up); if the query itself
# fails, keep them all and let the per-metric fallback below sort them out.
KNOWN=$(ncu --query-metrics 2>/dev/null)
METRICS=()
for m in "${WANTED[@]}"; do
    if [ -z "$KNOWN" ] || grep -qw -- "${m%.*}" <<< "$KNOWN"; then
        METRICS+=("$m")
    else
        echo "ncu --query-metrics does not list ${m%.*}: $m is not recorded" >&2
    fi
done
LIST=$(IFS=,; echo "${METRICS[*]}")

# Nsight Compute serialises kernels anyway: one at a time.
for d in "$RAW"/*/; do
    [ "$(cat "$d/run.rc" 2>/dev/null)" = 0 ] || continue
    (cd "$d" && timeout 60 ncu --csv --metrics "$LIST" ./prog ncu.json > ncu.csv 2> ncu.err)
    if [ $? -ne 0 ] || ! grep -q '^"' "$d/ncu.csv"; then
        # ncu refused the list (an unknown metric fails the whole run): measure each on its own, so the
        # others are kept. collect.py reads the appended CSVs as one.
        echo "ncu failed on $d with all metrics: one metric at a time" >&2
        : > "$d/ncu.csv"
        for m in "${METRICS[@]}"; do
            (cd "$d" && timeout 60 ncu --csv --metrics "$m" ./prog ncu.json >> ncu.csv 2>> ncu.err) ||
                echo "ncu rejected $m on $d" >&2
        done
    fi
done

if command -v python3 >/dev/null; then
    python3 tests/conformance/collect.py "$RAW"
else
    echo "raw results in $RAW: run python3 tests/conformance/collect.py $RAW where python3 exists"
fi
