#!/usr/bin/env bash
# Runs some candidates of a program-coverage case list again on the GPU, to tell what the GPU itself varies:
# three more plain runs (K.run1..3.stdout) and two with time() fixed at warpdbg's virtual clock
# (K.fixed1..2.stdout, fixtime.c by LD_PRELOAD) for programs that seed rand() with the clock. On the device
# machine, as gpu.sh (same arguments, plus the case numbers):
#
#   bash benches/programs/gpu_reruns.sh CASES_TSV CORPUS_PREFIX LOCAL_CORPUS OUT_DIR K,K,...
#
# run.py --reruns OUT_DIR then compares by shape the lines these runs print differently, and compares a
# clock-seeded program with its fixed-clock runs.
set -u
cases=$1 prefix=$2 local=$3 out=$4 keys=$5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" /tmp/progbin
gcc -shared -fPIC -O2 -o /tmp/fixtime.so "$here/fixtime.c"
IFS=, read -ra ks <<<"$keys"
for k in "${ks[@]}"; do
  IFS=$'\t' read -r path root _ < <(sed -n "${k}p" "$cases")
  src=${path/#$prefix/$local}
  dir=$(dirname "$src")
  inc=()
  IFS=: read -ra dirs <<<"$root"
  for d in "${dirs[@]}"; do inc+=(-I "${d/#$prefix/$local}"); done
  nvcc -O2 -arch=sm_90 "${inc[@]}" -I "$dir" -o /tmp/progbin/$k "$src" >"$out/$k.build" 2>&1 ||
    nvcc -O2 -arch=sm_90 -rdc=true "${inc[@]}" -I "$dir" -o /tmp/progbin/$k "$src" -lcudadevrt >>"$out/$k.build" 2>&1 ||
    continue
  for i in 1 2 3; do
    (cd "$dir" && timeout 20 /tmp/progbin/$k >"$out/$k.run$i.stdout" 2>/dev/null </dev/null)
  done
  for i in 1 2; do
    (cd "$dir" && LD_PRELOAD=/tmp/fixtime.so timeout 20 /tmp/progbin/$k >"$out/$k.fixed$i.stdout" 2>/dev/null </dev/null)
  done
done
