#!/bin/bash
# Whole programs at textbook scale (issue 19, items 3 and 4), on one build:
#  1. host loops: benches/host/host_loop.cu (1<<24 ints from `rand() & 0xFF`, the book's recursive CPU sum)
#     and benches/host/cpu_matmul.cu (a 512 x 512 CPU matrix product, the check course programs run) under
#     `warpdbg run` against the same files built by `gcc -O2 -x c`, side by side in one run, and under
#     `WARPDBG_HOST_JIT=off` (every loop interpreted);
#  2. the textbook reduction program end to end (benches/host/textbook_reduction.cu: host init, CPU sum, three
#     kernels at 1<<24 ints, block 512) against the sum of its three kernels' own `warpdbg run` times
#     (kernels/reduce_neighbored.cu, reduce_neighbored_less.cu, reduce_interleaved.cu at the same size);
#  3. that program's peak resident memory against its simulated allocations (host: two 64 MiB arrays and the
#     128 KiB of partial sums; device: 64 MiB and 128 KiB) plus 150 MiB.
# Medians of RUNS runs, alternating. Prints a markdown table (benches/host_speed.md keeps it).
#
#   benches/host_speed.sh [BINARY] [RUNS]        default target/release/warpdbg, 3 runs
set -euo pipefail
bin=${1:-target/release/warpdbg} runs=${2:-3}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -x c -o "$tmp/host_loop" benches/host/host_loop.cu
gcc -O2 -x c -o "$tmp/cpu_matmul" benches/host/cpu_matmul.cu
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# Wall seconds and peak KiB of one command, its output thrown away.
measure() { /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -1; }
kernels=(reduce_neighbored reduce_neighbored_less reduce_interleaved)
declare -A wall mem
for _ in $(seq "$runs"); do
    read -r w m < <(measure "$tmp/host_loop"); wall[gcc]+="$w "
    read -r w m < <(measure "$bin" run benches/host/host_loop.cu); wall[loop]+="$w " mem[loop]+="$m "
    read -r w m < <(WARPDBG_HOST_JIT=off measure "$bin" run benches/host/host_loop.cu); wall[loop_off]+="$w "
    read -r w m < <(measure "$tmp/cpu_matmul"); wall[gcc_mm]+="$w "
    read -r w m < <(measure "$bin" run benches/host/cpu_matmul.cu); wall[mm]+="$w "
    read -r w m < <(WARPDBG_HOST_JIT=off measure "$bin" run benches/host/cpu_matmul.cu); wall[mm_off]+="$w "
    read -r w m < <(measure "$bin" run benches/host/textbook_reduction.cu); wall[prog]+="$w " mem[prog]+="$m "
    sum=0
    for k in "${kernels[@]}"; do
        read -r w m < <(measure "$bin" run "kernels/$k.cu" --arg n=16777216 --block 512)
        sum=$(echo "$sum $w" | awk '{print $1 + $2}')
    done
    wall[kernels]+="$sum "
done
# shellcheck disable=SC2086 # the lists are words on purpose
g=$(median ${wall[gcc]}) l=$(median ${wall[loop]}) p=$(median ${wall[prog]}) k=$(median ${wall[kernels]})
# shellcheck disable=SC2086
lo=$(median ${wall[loop_off]}) gm=$(median ${wall[gcc_mm]}) mm=$(median ${wall[mm]}) mo=$(median ${wall[mm_off]})
# shellcheck disable=SC2086
pm=$(median ${mem[prog]})
alloc_kib=$(( (2 * (1 << 24) * 4 + 32768 * 4 + (1 << 24) * 4 + 32768 * 4) / 1024 ))
ratio() { echo "$1 $2" | awk '{printf "%.1fx", $1 / $2}'; }
echo "| what | warpdbg (median of $runs) | against | ratio | target |"
echo "|---|---|---|---|---|"
echo "| host loops (\`host_loop.cu\`) | $l s | \`gcc -O2\`: $g s | $(ratio "$l" "$g") | at most 10x |"
echo "| the same, every loop interpreted (\`WARPDBG_HOST_JIT=off\`) | $lo s | \`gcc -O2\`: $g s | $(ratio "$lo" "$g") | |"
echo "| CPU matrix product (\`cpu_matmul.cu\`, 512^3) | $mm s | \`gcc -O2\`: $gm s | $(ratio "$mm" "$gm") | |"
echo "| the same, every loop interpreted | $mo s | \`gcc -O2\`: $gm s | $(ratio "$mo" "$gm") | |"
echo "| textbook program end to end (\`textbook_reduction.cu\`) | $p s | its three kernels' \`run\`: $k s | $(ratio "$p" "$k") | at most 3x |"
echo "| that program's peak memory | $((pm / 1024)) MiB | allocations $((alloc_kib / 1024)) MiB + 150 MiB = $(((alloc_kib / 1024) + 150)) MiB | $(echo "$pm $alloc_kib" | awk '{printf "%+d MiB over the allocations", ($1 - $2) / 1024}') | at most +150 MiB |"
