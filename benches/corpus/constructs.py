#!/usr/bin/env python3
"""Which host and device constructs the corpus's programs use: issue 33's "frequency first".

    python3 benches/corpus/constructs.py CASES_TSV [--candidates] [--markdown] [--only K,K,...]

For every program of CASES_TSV (benches/programs/cases.py's list: a .cu with `main`, and the folders its quoted
includes are found in) the program's text is its file and every file it includes with quotes, transitively,
comments and string literals taken out. Each construct below is a pattern over that text; the output is, per
construct, how many programs use it, most used first. The patterns are approximate (a regular expression, not a
parser): they say which constructs are worth building first, not whether warpdbg runs a program. Only the
counts are printed, never a program's name, so the test split's code stays unread.
"""
import os
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "programs"))
from cases import included_text  # noqa: E402

CMATH = (
    "sqrt|sqrtf|pow|powf|exp|expf|exp2|log|logf|log2|log10|sin|sinf|cos|cosf|tan|tanf|atan|atanf|atan2|"
    "asin|acos|sinh|cosh|tanh|fabs|fabsf|floor|floorf|ceil|ceilf|round|roundf|fmod|fmodf|fmin|fminf|fmax|"
    "fmaxf|hypot|cbrt|rsqrt|rsqrtf|erf|erff|lgamma|tgamma|trunc|isnan|isinf|copysign|frexp|ldexp|modf|expm1|"
    "log1p|sincos|sincosf|__expf|__logf|__sinf|__cosf|__powf|__fdividef|exp10"
)
# (group, construct, pattern over the program's text)
CONSTRUCTS = [
    ("C++", "class or struct with a constructor", r"\b(class|struct)\s+(\w+)[^;{]*\{[^}]*?\b\2\s*\([^;]*\)\s*(:|\{)"),
    ("C++", "class with member functions", r"\bclass\s+\w+[^;{]*\{"),
    ("C++", "operator overloading", r"\boperator\s*(\(\)|\[\]|[-+*/=<>!&|^%~]+|new|delete)\s*\("),
    ("C++", "inheritance", r"\b(class|struct)\s+\w+\s*:\s*(public|private|protected)\b"),
    ("C++", "templates (definitions)", r"\btemplate\s*<"),
    ("C++", "explicit template arguments at a call", r"\b\w+\s*<\s*(int|float|double|unsigned|char|long|\d+)[^<>;()]*>\s*\("),
    ("C++", "lambdas", r"\[[&=]?\]\s*\([^)]*\)\s*(mutable\s*)?(->\s*\w+\s*)?\{"),
    ("C++", "references as parameters", r"\(\s*[^()]*\b\w+\s*&\s*\w+\s*[,)]"),
    ("C++", "auto", r"\bauto\b"),
    ("C++", "range-for", r"\bfor\s*\([^;()]*:[^;()]*\)"),
    ("C++", "namespaces / using", r"\b(namespace\s+\w+\s*\{|using\s+namespace)"),
    ("C++", "new / delete", r"\bnew\s+\w+|\bdelete\s*(\[\])?\s*\w"),
    ("C++", "exceptions (throw / try)", r"\b(throw|try)\b"),
    ("C++", "static data members (defined out of the class)",
     r"(?m)^[ \t]*(?!return\b|using\b|std::)[A-Za-z_][\w<>\t \*]*[\s\*](?!std::)\w+::\w+\s*(\[[^\]]*\])?\s*(=[^=]|;)"),
    ("C++", "constexpr", r"\bconstexpr\b"),
    ("C++", "brace lists as values (return {..}, a[i] = {..}, push_back({..}), vector<P> = {{..}})",
     r"(?m)\breturn\s*\{|^[ \t]*\w+(\.\w+)*\s*\[[^\]]*\]\s*=\s*\{|(push_back|emplace_back)\s*\(\s*\{|"
     r"\bvector\s*<\s*\w+\s*>\s*\w+\s*=\s*\{\s*\{"),
    ("C++", "structured bindings (auto [a, b])", r"\bauto\s*&{0,2}\s*\[\s*\w+\s*,"),
    ("library", "std::vector", r"\bvector\s*<"),
    ("library", "strings in containers (vector<string>, string a[n])",
     r"\bvector\s*<\s*(std::)?string\s*>|\bstring\s+\w+\s*\[\s*\w*\s*\]"),
    ("library", "std::pair / make_pair", r"\bpair\s*<|\bmake_pair\s*\("),
    ("library", "std::map / unordered_map", r"\b(unordered_)?map\s*<"),
    ("library", "std::numeric_limits", r"\bnumeric_limits\s*<"),
    ("library", "std::set / unordered_set", r"\b(unordered_)?set\s*<"),
    ("library", "std::tuple / tie / make_tuple", r"\btuple\s*<|\b(make_tuple|tie)\s*\("),
    ("library", "std::list / deque / queue / stack", r"\b(list|deque|queue|stack|priority_queue)\s*<"),
    ("library", "std::unique_ptr / shared_ptr", r"\b(unique_ptr|shared_ptr|make_unique|make_shared)\s*<"),
    ("C++", "library types as class members (std::vector / std::string fields)",
     r"\b(class|struct)\s+\w+[^;{(]*\{[^}]*?\n\s*(std::)?(vector\s*<[^;()]*>|string)\s+\w+\s*;"),
    ("C++", "functions returning std::string", r"(?m)^\s*(static\s+|inline\s+)*(const\s+)?(std::)?string\s+\w+\s*\("),
    ("C++", "ostream operator<< of a class", r"\bostream\s*&\s*operator\s*<<"),
    ("library", "std::string members (insert, erase, replace, compare)", r"\.\s*(insert|erase|replace|compare)\s*\("),
    ("library", "std::vector<T>(n, v) temporaries", r"\bvector\s*<[^;()<>]*(<[^;()<>]*>)?\s*>\s*\("),
    ("library", "<cfloat> / <climits> limits (FLT_MAX, INT_MAX, ...)",
     r"\b(FLT|DBL|INT|UINT|LONG|LLONG|ULLONG|SHRT|CHAR)_(MAX|MIN|EPSILON)\b"),
    ("library", "std::string", r"\bstd::string\b|\bstring\s+\w+\s*[=;(]"),
    ("library", "std::array", r"\barray\s*<\s*\w+\s*,"),
    ("library", "iostream (cout / cerr)", r"\b(cout|cerr)\s*<<"),
    ("library", "iomanip (setw, setprecision, fixed)", r"\b(setw|setprecision|fixed|scientific|setfill)\b"),
    ("library", "<algorithm>", r"\b(std::)?(sort|fill|min_element|max_element|accumulate|transform|copy|iota|"
     r"reverse|shuffle|generate|count|find|equal|swap)\s*\("),
    ("library", "<random>", r"\b(mt19937|default_random_engine|uniform_(int|real)_distribution|normal_distribution|"
     r"random_device)\b"),
    ("library", "<chrono>", r"\bchrono::"),
    ("library", "clock_gettime / timespec", r"\bclock_gettime\b|\bstruct\s+timespec\b"),
    ("library", "gettimeofday", r"\bgettimeofday\b"),
    ("library", "fstream / FILE*", r"\b(ifstream|ofstream|fstream|fopen)\b"),
    ("library", "std::thread", r"\bstd::thread\b|\bpthread_create\b"),
    ("library", "assert", r"\bassert\s*\("),
    ("library", "<cmath> functions", r"\b(std::)?(" + CMATH + r")\s*\("),
    ("library", "printf-style output", r"\bprintf\s*\("),
    ("library", "argv / command-line arguments", r"\bargv\s*\["),
    ("device", "__shared__", r"__shared__"),
    ("device", "extern __shared__ (dynamic)", r"extern\s+__shared__"),
    ("device", "__constant__", r"__constant__"),
    ("device", "atomics", r"\batomic(Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)\w*\s*\("),
    ("device", "warp shuffles / votes", r"__(shfl|ballot|any|all|activemask)\w*\s*\("),
    ("device", "cooperative groups", r"cooperative_groups"),
    ("device", "half / cuda_fp16.h", r"cuda_fp16|\b__half2?\b|\bhalf2?\b"),
    ("device", "vector types (float2..4, int2..4)", r"\b(float|int|uint|double|char|uchar)[234]\b"),
    ("device", "device printf", r"__global__[^;]*\{[^}]*printf"),
    ("device", "templates on kernels", r"template\s*<[^>]*>\s*__global__"),
    ("device", "dynamic parallelism", r"__global__[^{]*\{[^}]*<<<"),
    ("device", "cuRAND device API", r"\bcurand_(init|uniform|normal)\b"),
    ("device", "texture / surface objects", r"\bcudaTextureObject_t\b|\btex[123]D\b|\bsurf[123]D"),
    ("device", "__ldg / restrict", r"__ldg\s*\(|__restrict__"),
    ("device", "inline PTX", r"\basm\s*(volatile\s*)?\("),
    ("runtime", "streams", r"\bcudaStream_t\b"),
    ("runtime", "events", r"\bcudaEvent_t\b"),
    ("runtime", "unified memory (cudaMallocManaged)", r"\bcudaMallocManaged\b"),
    ("runtime", "pinned memory (cudaMallocHost / HostAlloc)", r"\bcuda(MallocHost|HostAlloc)\b"),
    ("runtime", "cudaGetDeviceProperties", r"\bcudaGetDeviceProperties\b"),
    ("runtime", "occupancy API", r"\bcudaOccupancy\w+"),
    ("runtime", "cudaMallocPitch / 2D / 3D copies", r"\bcuda(MallocPitch|Memcpy2D|Memcpy3D|Malloc3D)\w*"),
    ("runtime", "graphs", r"\bcudaGraph\w*"),
    ("runtime", "NVTX", r"\bnvtxRange\w*"),
    ("runtime", "cudaMemPrefetchAsync / advise", r"\bcudaMem(PrefetchAsync|Advise)\b"),
]


def strip(text):
    """The text without comments and string literals (so a pattern does not match prose)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def main():
    cases, only_candidates = sys.argv[1], "--candidates" in sys.argv
    counts, programs = Counter(), 0
    runtime = Counter()
    # `--only K,K,...`: the cases of those line numbers (from 1) alone, e.g. the train split's.
    only = None
    if "--only" in sys.argv:
        only = {int(k) for k in sys.argv[sys.argv.index("--only") + 1].split(",") if k.strip()}
    for number, line in enumerate(open(cases), 1):
        path, dirs, cls = line.rstrip("\n").split("\t")
        if only_candidates and cls != "candidate":
            continue
        if only is not None and number not in only:
            continue
        repo = dirs.split(":")[0]
        raw = included_text(path, repo, set(), dirs.split(":")[1:])
        text = strip(raw)
        programs += 1
        for group, name, pat in CONSTRUCTS:
            if re.search(pat, text, re.S if "\\{" in pat else 0):
                counts[(group, name)] += 1
        for api in set(re.findall(r"\b(cuda[A-Z]\w+)\s*\(", text)):
            runtime[api] += 1
    md = "--markdown" in sys.argv
    print(f"{programs} programs\n")
    if md:
        print("| group | construct | programs |\n|---|---|---|")
    for (group, name), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"| {group} | {name} | {n} |" if md else f"{n:5}  {group:8} {name}")
    print("\nruntime API functions called, by programs:" if not md else "\n| runtime API function | programs |\n|---|---|")
    for api, n in sorted(runtime.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"| `{api}` | {n} |" if md else f"{n:5}  {api}")


if __name__ == "__main__":
    main()
