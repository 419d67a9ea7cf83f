#!/bin/bash
# Times two warpdbg builds on the four kernels of the performance figures, alternating runs so that a shared
# machine's drift hits both alike, and prints each one's median (`run --bench` simulation time, seconds).
#
#   benches/ab.sh OLD_BINARY NEW_BINARY [RUNS]     e.g. a build of an older commit against target/release
set -euo pipefail
old=$1 new=$2 runs=${3:-5}
cd "$(dirname "$0")/.."
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
sim() { "$1" run --bench "${@:2}" | awk '/^simulation/ {print $2}'; }
printf '%-20s %-10s %8s %8s %7s\n' kernel mode old new ratio
for launch in "reduce_neighbored.cu --arg n=16777216" "reduce_interleaved.cu --arg n=16777216" \
    "vec_add.cu --arg n=16777216" "grayscale.cu --arg width=4096 --arg height=4096"; do
    for mode in pre-volta its; do
        a=() b=()
        for _ in $(seq "$runs"); do
            # shellcheck disable=SC2086 # the launch is several words on purpose
            a+=("$(sim "$old" kernels/$launch --mode "$mode")")
            # shellcheck disable=SC2086
            b+=("$(sim "$new" kernels/$launch --mode "$mode")")
        done
        ma=$(median "${a[@]}") mb=$(median "${b[@]}")
        printf '%-20s %-10s %8s %8s %7s\n' "${launch%%.cu*}" "$mode" "$ma" "$mb" "$(echo "$ma $mb" | awk '{printf "%.2f", $1 / $2}')"
    done
done
