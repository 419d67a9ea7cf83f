#!/bin/bash
# Whole-run speed per kernel kind (issue 36): times two warpdbg builds on one launch of each kind (streaming,
# global and shared-memory reductions, a divergent loop, atomics on global and on shared bins, naive and
# tiled matrix products), alternating runs so that a shared machine's drift hits both alike, and prints per
# kernel and mode the medians of `run --bench`: simulation seconds and warp-instructions per second (M) of
# OLD and NEW, and NEW's speed-up (OLD's seconds over NEW's).
#
#   benches/kinds.sh OLD_BINARY NEW_BINARY [RUNS]       e.g. /work/baseline-warpdbg target/release/warpdbg 5
#   KINDS="vec_add collatz" benches/kinds.sh ...        only the kernels whose names are listed
set -euo pipefail
old=$1 new=$2 runs=${3:-5}
cd "$(dirname "$0")/.."
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# "SECONDS WARP_INSTR_PER_S_IN_M" of one run.
bench() { "$1" run --bench "${@:2}" | awk '/^simulation/ {s = $2} /^warp-instr\/s/ {w = $2} END {print s, w}'; }
launches=(
    "vec_add kernels/vec_add.cu --arg n=16777216"
    "reduce_neighbored kernels/reduce_neighbored.cu --arg n=16777216"
    "reduce_shared benches/kernels/reduce_shared.cu --arg n=4194304"
    "collatz benches/kernels/collatz.cu --arg n=65536"
    "histogram_global benches/kernels/histogram_global.cu --arg n=4194304"
    "histogram_shared benches/kernels/histogram_shared.cu --arg n=4194304"
    "sgemm_naive benches/kernels/sgemm_naive.cu --arg n=256"
    "sgemm_tiled benches/kernels/sgemm_tiled.cu --arg n=256"
)
printf '%-18s %-10s %8s %8s %9s %9s %7s\n' kernel mode old_s new_s old_Mwi/s new_Mwi/s speedup
for l in "${launches[@]}"; do
    name=${l%% *} launch=${l#* }
    if [ -n "${KINDS:-}" ] && ! [[ " $KINDS " == *" $name "* ]]; then continue; fi
    for mode in pre-volta its; do
        as=() aw=() bs=() bw=()
        for _ in $(seq "$runs"); do
            # shellcheck disable=SC2086 # the launch is several words on purpose
            read -r s w < <(bench "$old" $launch --mode "$mode")
            as+=("$s") aw+=("$w")
            # shellcheck disable=SC2086
            read -r s w < <(bench "$new" $launch --mode "$mode")
            bs+=("$s") bw+=("$w")
        done
        ma=$(median "${as[@]}") mb=$(median "${bs[@]}")
        printf '%-18s %-10s %8s %8s %9s %9s %7s\n' "$name" "$mode" "$ma" "$mb" "$(median "${aw[@]}")" \
            "$(median "${bw[@]}")" "$(echo "$ma $mb" | awk '{printf "%.2f", $1 / $2}')"
    done
done
