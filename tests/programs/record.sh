#!/usr/bin/env bash
# Records what a real GPU prints for every whole program of tests/programs/ (or the files given): each is
# built with nvcc as a student would build it and run once; its standard output and exit status go to
# tests/programs/expected/NAME.stdout and NAME.status, which tests/programs.rs compares warpdbg's `run` against.
# One command on a GPU machine, from the repository root:
#
#     bash tests/programs/record.sh [FILE.cu ...]
#
# A program's arguments, if it needs any, are the words after `// args:` on its first lines; extra nvcc flags
# (`-rdc=true` for dynamic parallelism) the words after `// nvcc:`. Its standard output
# is line-buffered, as in the terminal a student runs it in (a program that aborts keeps what it printed).
set -uo pipefail
cd "$(dirname "$0")/../.."
ARCH=${ARCH:-sm_90}
TIMEOUT=${TIMEOUT:-60}
out=tests/programs/expected
mkdir -p "$out"
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(tests/programs/*.cu)
build=$(mktemp -d)
{
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
    echo "cuda: $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
    echo "date: $(date -u +%Y-%m-%d)"
    echo "nvcc: -O2 -arch=$ARCH"
} > "$out/env.txt"
cat "$out/env.txt"
for f in "${files[@]}"; do
    n=$(basename "$f" .cu)
    args=$(sed -n '1,5s|^// args: *||p' "$f" | head -1)
    flags=$(sed -n '1,5s|^// nvcc: *||p' "$f" | head -1)
    # shellcheck disable=SC2086 # the flags are words
    if ! nvcc -O2 -arch="$ARCH" $flags -o "$build/$n" "$f" > "$build/$n.nvcc.log" 2>&1; then
        echo "$n: nvcc failed"; cat "$build/$n.nvcc.log"; continue
    fi
    # shellcheck disable=SC2086 # the arguments are words
    (cd "$build" && timeout "$TIMEOUT" stdbuf -oL "./$n" $args > "$n.stdout" 2> "$n.stderr"; echo $? > "$n.status")
    cp "$build/$n.stdout" "$out/$n.stdout"
    cp "$build/$n.status" "$out/$n.status"
    echo "$n: exit $(cat "$build/$n.status"), $(wc -l < "$build/$n.stdout") lines"
done
