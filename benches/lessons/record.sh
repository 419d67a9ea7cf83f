#!/usr/bin/env bash
# Records the lessons benchmark on a machine with nvcc, ncu and an NVIDIA GPU (an H100: sm_90).
#
#   bash benches/lessons/record.sh OUT_DIR
#
# For every benches/lessons/*.cu: builds it (nvcc -O3 -arch=sm_90 -lineinfo), runs it with the default
# repetitions (OUT_DIR/run/NAME.stdout: one "LESSON VARIANT MS" line per variant, median of 10 event-timed
# runs), then runs it with argv[1]=1 under Nsight Compute, collecting the metrics below for every launch
# (the warm-up and the timed launch of each variant) into OUT_DIR/ncu/NAME.ncu-rep and, exported as CSV,
# OUT_DIR/ncu/NAME.csv. Metrics this ncu does not know are dropped (OUT_DIR/metrics_dropped.txt says which).
# Then benches/lessons/collect.py OUT_DIR writes benches/lessons/h100.json (when python3 is there).
# Needs no network and nothing outside this repository. Expected to take 3-6 minutes on an H100.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:?usage: record.sh OUT_DIR}"
mkdir -p "$out/bin" "$out/run" "$out/ncu"
out="$(cd "$out" && pwd)"
export LC_ALL=C
t_start=$(date +%s)
log() { echo "[record $(( $(date +%s) - t_start ))s] $*" | tee -a "$out/record.log"; }

NVCC="${NVCC:-nvcc}"
NCU="${NCU:-ncu}"
ARCH="${ARCH:-sm_90}"
NCU_TIMEOUT="${NCU_TIMEOUT:-150}"   # seconds per program under ncu

METRICS=(
  gpu__time_duration.sum
  launch__registers_per_thread
  launch__grid_size
  launch__block_size
  smsp__inst_executed.sum
  smsp__warps_launched.sum
  smsp__sass_branch_targets.sum
  smsp__sass_branch_targets_threads_divergent.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
  smsp__sass_inst_executed_op_global_ld.sum
  smsp__sass_inst_executed_op_global_st.sum
  smsp__inst_executed_op_shared_ld.sum
  smsp__inst_executed_op_shared_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct
  sm__warps_active.avg.pct_of_peak_sustained_active
  dram__bytes_read.sum
  dram__bytes_write.sum
  lts__t_sectors.sum
  lts__t_sector_hit_rate.pct
)

# ---------------------------------------------------------------- environment
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "--- nvidia-smi"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,memory.total,compute_mode --format=csv 2>&1
  echo "--- nvcc"
  "$NVCC" --version 2>&1
  echo "--- ncu"
  "$NCU" --version 2>&1
} > "$out/env.txt"
log "environment written to $out/env.txt"

# ---------------------------------------------------------------- which metrics this ncu knows
# A metric's base name is the part before its first '.' (roll-up and suffix); --query-metrics lists bases.
"$NCU" --query-metrics > "$out/query_metrics.txt" 2>&1
: > "$out/metrics_dropped.txt"
kept=()
if grep -q '__' "$out/query_metrics.txt"; then
  for m in "${METRICS[@]}"; do
    base="${m%%.*}"
    # launch__* attributes are not listed by --query-metrics (ncu 2025.3) but always collected
    if [[ "$base" == launch__* ]] || grep -Eq "^[[:space:]]*([A-Za-z0-9_]+\.)*${base}([[:space:]]|$)" "$out/query_metrics.txt"; then
      kept+=("$m")
    else
      echo "$m (not in ncu --query-metrics)" >> "$out/metrics_dropped.txt"
    fi
  done
else
  log "ncu --query-metrics gave no list; trying every metric"
  kept=("${METRICS[@]}")
fi

# ---------------------------------------------------------------- build (in parallel)
progs=()
for src in "$here"/*.cu; do progs+=("$(basename "$src" .cu)"); done
log "building ${#progs[@]} programs: ${progs[*]}"
for p in "${progs[@]}"; do
  ( "$NVCC" -O3 -arch="$ARCH" -lineinfo -o "$out/bin/$p" "$here/$p.cu" > "$out/bin/$p.build.log" 2>&1 \
      || echo "build failed: $p" >> "$out/bin/failed.txt" ) &
done
wait
[ -f "$out/bin/failed.txt" ] && log "$(cat "$out/bin/failed.txt")"

# ---------------------------------------------------------------- a probe: do the kept metrics work together?
metric_list() { local IFS=,; echo "$*"; }
probe_prog=""
for p in "${progs[@]}"; do [ -x "$out/bin/$p" ] && { probe_prog="$p"; break; }; done
if [ -n "$probe_prog" ]; then
  if ! timeout 120 "$NCU" --metrics "$(metric_list "${kept[@]}")" --launch-count 1 \
        "$out/bin/$probe_prog" 1 > "$out/probe.log" 2>&1 || grep -q '==ERROR==' "$out/probe.log"; then
    log "the probe with all kept metrics failed; probing metrics one at a time"
    ok=()
    for m in "${kept[@]}"; do
      if timeout 60 "$NCU" --metrics "$m" --launch-count 1 "$out/bin/$probe_prog" 1 > "$out/probe_one.log" 2>&1 \
          && ! grep -q '==ERROR==' "$out/probe_one.log"; then
        ok+=("$m")
      else
        echo "$m (ncu refused it: $(grep -m1 '==ERROR==' "$out/probe_one.log"))" >> "$out/metrics_dropped.txt"
      fi
    done
    kept=("${ok[@]}")
  fi
fi
printf '%s\n' "${kept[@]}" > "$out/metrics_used.txt"
log "metrics used: ${#kept[@]} of ${#METRICS[@]} (dropped: $(wc -l < "$out/metrics_dropped.txt"))"

# ---------------------------------------------------------------- timed runs (default repetitions)
for p in "${progs[@]}"; do
  [ -x "$out/bin/$p" ] || continue
  t0=$(date +%s)
  "$out/bin/$p" > "$out/run/$p.stdout" 2> "$out/run/$p.stderr"
  echo $? > "$out/run/$p.status"
  log "run $p: status $(cat "$out/run/$p.status"), $(( $(date +%s) - t0 ))s"
done

# ---------------------------------------------------------------- Nsight Compute (argv[1] = 1: warm-up + 1 timed launch per variant)
mlist="$(metric_list "${kept[@]}")"
for p in "${progs[@]}"; do
  [ -x "$out/bin/$p" ] || continue
  t0=$(date +%s)
  rm -f "$out/ncu/$p.ncu-rep"
  timeout "$NCU_TIMEOUT" "$NCU" --metrics "$mlist" -f -o "$out/ncu/$p" "$out/bin/$p" 1 \
      > "$out/ncu/$p.stdout" 2> "$out/ncu/$p.stderr"
  echo $? > "$out/ncu/$p.status"
  if [ -f "$out/ncu/$p.ncu-rep" ]; then
    "$NCU" -i "$out/ncu/$p.ncu-rep" --csv --page raw --print-units base --print-kernel-base function \
        > "$out/ncu/$p.csv" 2> "$out/ncu/$p.export.stderr"
    if ! grep -q 'Kernel Name' "$out/ncu/$p.csv"; then   # an older ncu without those options
      "$NCU" -i "$out/ncu/$p.ncu-rep" --csv --page raw > "$out/ncu/$p.csv" 2>> "$out/ncu/$p.export.stderr"
    fi
  fi
  log "ncu $p: status $(cat "$out/ncu/$p.status"), $(( $(date +%s) - t0 ))s"
done

# ---------------------------------------------------------------- collect
if command -v python3 > /dev/null; then
  python3 "$here/collect.py" "$out" && log "wrote $here/h100.json"
else
  log "no python3 here: run python3 benches/lessons/collect.py $out where there is one"
fi
log "done in $(( $(date +%s) - t_start ))s"
