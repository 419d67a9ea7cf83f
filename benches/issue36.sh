#!/bin/bash
# The "Must show" lines of issue 36 on one build, wall-clock time of whole commands (medians of RUNS runs,
# alternating with the C loop):
#  1. reduceNeighbored on 1<<24 ints (kernels/reduce_neighbored.cu, block 512), `warpdbg run` and
#     `warpdbg run --json` in both execution models, against the same work in C (benches/peer/
#     reduce_neighbored.c, `gcc -O2`); the issue asks for `run` within 2x of C and `run --json` within 2.5x;
#  2. the course program of a shared-memory reduction of 10^8 floats launched eleven times with events
#     around each launch (benches/host/smem_reduction_1e8.cu), host loop included; the issue asks for under
#     60 s. It runs once (it took about 4 minutes when the issue was filed); SKIP_1E8=1 leaves it out.
#
#   benches/issue36.sh [BINARY] [RUNS]        default target/release/warpdbg, 3 runs
set -euo pipefail
bin=${1:-target/release/warpdbg} runs=${2:-3}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/reduce_neighbored" benches/peer/reduce_neighbored.c
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# Wall seconds of one command, its output thrown away.
wall() { /usr/bin/time -f '%e' "$@" 2>&1 >/dev/null | tail -1; }
kernel=(kernels/reduce_neighbored.cu --arg n=16777216)
declare -A t
for _ in $(seq "$runs"); do
    t[c]+="$(wall "$tmp/reduce_neighbored") "
    for mode in pre-volta its; do
        t[run_$mode]+="$(wall "$bin" run "${kernel[@]}" --mode "$mode") "
        t[json_$mode]+="$(wall "$bin" run "${kernel[@]}" --mode "$mode" --json) "
    done
done
# shellcheck disable=SC2086 # the runs are words on purpose
c=$(median ${t[c]})
echo "| launch | wall (s) | C gcc -O2 (s) | ratio | issue's bound |"
echo "|---|---|---|---|---|"
for mode in pre-volta its; do
    for what in run json; do
        # shellcheck disable=SC2086
        w=$(median ${t[${what}_$mode]})
        bound=$([ "$what" = run ] && echo 2 || echo 2.5)
        label=$([ "$what" = run ] && echo "run" || echo "run --json")
        printf '| reduceNeighbored 1<<24 `%s`, %s | %s | %s | %s | %s |\n' "$label" "$mode" "$w" "$c" \
            "$(echo "$w $c" | awk '{printf "%.2f", $1 / $2}')" "$bound"
    done
done
if [ -z "${SKIP_1E8:-}" ]; then
    start=$(date +%s.%N)
    status=0
    out=$("$bin" run benches/host/smem_reduction_1e8.cu 2>"$tmp/err") || status=$?
    end=$(date +%s.%N)
    printf '| smem_reduction_1e8 (10^8 floats, 11 launches, host included), exit %s | %s | | | 60 s |\n' \
        "$status" "$(echo "$start $end" | awk '{printf "%.1f", $2 - $1}')"
    printf '%s\n' "$out" | sed 's/^/    /'
fi
