#!/usr/bin/env bash
# Runs the candidate programs of a program-coverage case list on a real GPU: what warpdbg's output is
# compared with. On the device machine (the corpus copied to an ignored folder and carried there):
#
#   bash benches/programs/gpu.sh CASES_TSV CORPUS_PREFIX LOCAL_CORPUS OUT_DIR
#
# Each candidate is built with `nvcc -O2 -arch=sm_90` (again with `-rdc=true -lcudadevrt` if that fails, for
# dynamic parallelism), its quoted includes found beside it and in the case's include folders, and run with no
# arguments from its own folder, 20 s at most; cases OUT_DIR already has a status for are skipped. For case K (its line number) OUT_DIR gets K.build (nvcc's
# messages), K.stdout, K.stderr and K.status (the exit status; `build` when it did not compile, 124 on timeout).
set -u
cases=$1 prefix=$2 local=$3 out=$4
mkdir -p "$out"
one() {
  local k=$1 path=$2 root=$3 cls=$4
  [ "$cls" = candidate ] || return 0
  # Resumable: a case already run (a second call after the first ran out of time) is not run again.
  [ -e "$out/$k.status" ] && return 0
  local src=${path/#$prefix/$local} bin=/tmp/progbin/$k dir d
  local -a inc=()
  IFS=: read -ra dirs <<<"$root"
  for d in "${dirs[@]}"; do inc+=(-I "${d/#$prefix/$local}"); done
  dir=$(dirname "$src")
  mkdir -p /tmp/progbin
  if ! nvcc -O2 -arch=sm_90 "${inc[@]}" -I "$dir" -o "$bin" "$src" >"$out/$k.build" 2>&1; then
    if ! nvcc -O2 -arch=sm_90 -rdc=true "${inc[@]}" -I "$dir" -o "$bin" "$src" -lcudadevrt >>"$out/$k.build" 2>&1; then
      echo build >"$out/$k.status"
      return 0
    fi
  fi
  (cd "$dir" && timeout 20 "$bin" >"$out/$k.stdout" 2>"$out/$k.stderr" </dev/null)
  echo $? >"$out/$k.status"
}
export -f one
export prefix local out
nl -ba -w1 -s$'\t' "$cases" | xargs -P 12 -d '\n' -n 1 bash -c 'IFS=$'"'"'\t'"'"' read -r k p r c <<<"$0"; one "$k" "$p" "$r" "$c"'
