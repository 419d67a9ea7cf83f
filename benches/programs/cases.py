#!/usr/bin/env python3
"""Lists the whole CUDA programs of a corpus of course code and says which the program-coverage figure counts.

    python3 benches/programs/cases.py CORPUS_DIR CASES_TSV

A program is a .cu file that defines `main`. Each line of CASES_TSV is `path<TAB>include_dirs<TAB>class`:
include_dirs are the folders (`:`-separated; the repository's root first) where its quoted #includes are found,
as the course's build files give them to nvcc with -I (a header found neither beside the file nor under the root
is looked up by name anywhere in the repository); class is `candidate` or `excluded:<why>`. Excluded, as issue 18 defines the figure: programs that use a library
beyond the CUDA runtime (cuBLAS, cuSPARSE, cuFFT, cuRAND's host API, thrust, NCCL, the driver API), MPI or
OpenMP, or several GPUs (cudaSetDevice with anything but 0, peer access, cudaMemcpyPeer, a loop over devices).
Whether a candidate compiles and finishes on a real GPU is decided by the GPU run (gpu.sh), not here.
"""
import os
import re
import sys

LIBS = [
    (r"#\s*include\s*[<\"](cublas|cublas_v2|cublasLt)", "cuBLAS"),
    (r"#\s*include\s*[<\"]cusparse", "cuSPARSE"),
    (r"#\s*include\s*[<\"]cufft", "cuFFT"),
    (r"#\s*include\s*[<\"]curand\.h", "cuRAND host API"),
    (r"#\s*include\s*[<\"](thrust|cub)/", "thrust/CUB"),
    (r"#\s*include\s*[<\"]nccl", "NCCL"),
    (r"#\s*include\s*[<\"]mpi\.h", "MPI"),
    (r"#\s*include\s*[<\"]omp\.h|#\s*pragma\s+omp", "OpenMP"),
    (r"#\s*include\s*[<\"](GL/|GLFW|cuda_gl_interop|helper_gl)", "OpenGL"),
    (r"#\s*include\s*[<\"](nvrtc|nvToolsExt|nvtx3|cudnn|npp)", "another NVIDIA library"),
    (r"\bcu(Init|ModuleLoad|CtxCreate|LaunchKernel|DeviceGet)\s*\(", "the driver API"),
    (r"\bcudaSetDevice\s*\(\s*[1-9]", "several GPUs"),
    (r"\bcuda(DeviceEnablePeerAccess|MemcpyPeer|DeviceCanAccessPeer)\b", "several GPUs"),
]


def find_header(name, here, repo, dirs):
    """Where `#include "name"` in a file in folder `here` finds its header; adds its -I folder to `dirs`."""
    for base in [here, repo] + dirs:
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.exists(cand):
            return cand
    for root, _, files in os.walk(repo):
        cand = os.path.normpath(os.path.join(root, name))
        if os.path.exists(cand) and os.path.basename(name) in files:
            d = os.path.normpath(cand[: len(cand) - len(os.path.normpath(name))])
            dirs.append(d)
            return cand
    return None


def included_text(path, repo, seen, dirs):
    """The file's text followed by that of every file it includes with quotes, transitively."""
    if path is None or path in seen or not os.path.exists(path):
        return ""
    seen.add(path)
    with open(path, errors="replace") as f:
        text = f.read()
    out = [text]
    for m in re.finditer(r'#\s*include\s*"([^"]+)"', text):
        out.append(included_text(find_header(m.group(1), os.path.dirname(path), repo, dirs), repo, seen, dirs))
    return "\n".join(out)


def several_gpus(text):
    """`cudaSetDevice(i)` where `i` is a loop counter: one device per iteration."""
    for m in re.finditer(r"\bcudaSetDevice\s*\(\s*([A-Za-z_]\w*)\s*\)", text):
        if re.search(r"for\s*\(\s*(int\s+)?" + m.group(1) + r"\s*=", text):
            return "several GPUs"
    return None


def main():
    corpus, out_path = sys.argv[1], sys.argv[2]
    rows = []
    for root, _, files in os.walk(corpus):
        for name in sorted(files):
            if not name.endswith(".cu") or ".case." in name:
                continue
            path = os.path.join(root, name)
            own = open(path, errors="replace").read()
            if not re.search(r"^\s*(int|void)\s+main\s*\(", own, re.M):
                continue
            repo = os.path.join(corpus, os.path.relpath(path, corpus).split(os.sep)[0])
            dirs = []
            text = included_text(path, repo, set(), dirs)
            why = next((w for pat, w in LIBS if re.search(pat, text)), None) or several_gpus(text)
            cls = f"excluded:{why}" if why else "candidate"
            rows.append((path, ":".join([repo] + sorted(set(dirs))), cls))
    rows.sort()
    with open(out_path, "w") as f:
        for r in rows:
            f.write("\t".join(r) + "\n")
    n = sum(1 for r in rows if r[2] == "candidate")
    print(f"{len(rows)} programs, {n} candidates", file=sys.stderr)


if __name__ == "__main__":
    main()
