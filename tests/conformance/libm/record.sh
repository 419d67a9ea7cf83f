#!/usr/bin/env bash
# Records CUDA's math library on the GPU (libm.cu beside this): one command on a GPU machine,
#     OUT=DIR bash tests/conformance/libm/record.sh
# writes DIR/info.txt (GPU, driver, nvcc), sass.txt and ptx.txt (the kernels as compiled), and the results
# (f32_a.bin, f32_b.bin, f64.bin: libm.cu says their layout).
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-.}
B=$(mktemp -d)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; date -u; } > "$OUT/info.txt" 2>&1
nvcc -O2 -arch=sm_90 -o "$B/libm" libm.cu 2>> "$OUT/info.txt" || { cat "$OUT/info.txt"; exit 2; }
cuobjdump -sass "$B/libm" > "$OUT/sass.txt"
cuobjdump -ptx "$B/libm" > "$OUT/ptx.txt" 2>/dev/null || nvcc -O2 -arch=sm_90 -ptx -o "$OUT/ptx.txt" libm.cu
LIBM_OUT="$OUT" "$B/libm" >> "$OUT/info.txt"
cat "$OUT/info.txt"
ls -la "$OUT"
