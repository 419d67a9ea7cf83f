#!/bin/bash
# The user paths of issue 19 around one textbook launch (reduceNeighbored, n = 1<<24, block 512): `run` against
# `run --json` (each --memory detail), wall time and peak resident memory, medians of RUNS alternating runs; and
# the rate of `trace --jsonl` in lines per second. Prints a markdown table (benches/user_paths.md keeps it).
#
#   benches/user_paths.sh [BINARY] [RUNS]        default target/release/warpdbg, 3 runs
#   PARTS=view benches/user_paths.sh ...          only some parts: run, view, trace (default all three)
#
# `view`: the debugger's screen after N steps (`view --steps N`, the session's run to a step, as `:` and
# replay use it) at 1<<20 and 1<<24 ints, 10 million steps (the middle of the launch at 1<<24; past its end
# at 1<<20) and 1e9 (to the end).
#
# Run it on the build before and the build after, one after the other, for a before/after pair.
set -euo pipefail
bin=${1:-target/release/warpdbg} runs=${2:-3}
cd "$(dirname "$0")/.."
launch=(kernels/reduce_neighbored.cu --arg n=16777216 --block 512)
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# Wall seconds and peak KiB of one command, its output thrown away (a pipe's reader costs nothing here).
measure() { /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -1; }
parts=${PARTS:-run,view,trace}
declare -A wall mem
if [[ $parts == *run* ]]; then
variants=("run" "run --json")
# A build from before `--memory` (to measure the before side) gets the two commands it has.
if "$bin" run --help | grep -qE -- '--memory[ <]'; then
    variants+=("run --json --memory changed" "run --json --memory none")
fi
for _ in $(seq "$runs"); do
    for v in "${variants[@]}"; do
        # shellcheck disable=SC2086 # the variant is several words on purpose
        read -r w m < <(measure "$bin" $v "${launch[@]}")
        wall[$v]+="$w " mem[$v]+="$m "
    done
done
echo "| command | wall (median of $runs) | peak memory | vs run |"
echo "|---|---|---|---|"
# shellcheck disable=SC2086
base_w=$(median ${wall[run]}) base_m=$(median ${mem[run]})
for v in "${variants[@]}"; do
    # shellcheck disable=SC2086
    w=$(median ${wall[$v]}) m=$(median ${mem[$v]})
    echo "| \`$v\` | $w s | $((m / 1024)) MiB | $(echo "$w $base_w $m $base_m" | awk '{printf "%.2fx time, %.2fx memory", $1 / $2, $3 / $4}') |"
done
fi
if [[ $parts == *view* ]]; then
    views=("1048576 10000000" "16777216 10000000" "1048576 1000000000" "16777216 1000000000")
    for _ in $(seq "$runs"); do
        for v in "${views[@]}"; do
            read -r n steps <<<"$v"
            read -r w m < <(measure "$bin" view kernels/reduce_neighbored.cu --arg "n=$n" --block 512 --steps "$steps")
            wall[$v]+="$w " mem[$v]+="$m "
        done
    done
    echo
    echo "| \`view --steps N\` (reduceNeighbored, block 512) | wall (median of $runs) | peak memory |"
    echo "|---|---|---|"
    for v in "${views[@]}"; do
        read -r n steps <<<"$v"
        # shellcheck disable=SC2086
        w=$(median ${wall[$v]}) m=$(median ${mem[$v]})
        echo "| n = $n, N = $steps | $w s | $((m / 1024)) MiB |"
    done
fi
[[ $parts == *trace* ]] || exit 0
# trace --jsonl: lines per second on the default launch (n = 8192).
start=$(date +%s.%N)
lines=$("$bin" trace --jsonl kernels/reduce_neighbored.cu | wc -l)
end=$(date +%s.%N)
echo
echo "\`trace --jsonl kernels/reduce_neighbored.cu\`: $lines lines in $(echo "$start $end" | awk '{printf "%.2f", $2 - $1}') s, $(echo "$lines $start $end" | awk '{printf "%.0f", $1 / ($3 - $2)}') lines/s"
