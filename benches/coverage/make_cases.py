#!/usr/bin/env python3
"""Turns a corpus of CUDA course code into warpdbg kernel files: one per __global__ function.

    python3 benches/coverage/make_cases.py CORPUS_DIR CASES_LIST

For every .cu file under CORPUS_DIR and every __global__ function defined in it, writes
`FILE.<kernel>.case.cu` next to the original (so that its quoted #includes resolve as they did for nvcc): the
file's text with host code taken out (functions that are neither __global__ nor __device__, `main` among them,
and file-scope statements that only host code has), followed by generated launch directives. Each case's path and
its repository's root (an include folder, as the course's build files give nvcc with -I) are written to
CASES_LIST, one case per line, separated by a tab. Code that uses the warp functions CUDA 9 removed (`__shfl`,
`__ballot`, ...) was written for pre-Volta GPUs and gets `// @mode pre-volta`. Nothing here is specific to one repository.

Directives: `@kernel NAME` (with template arguments taken from a launch `NAME<...><<<` in the file, else 256
for constants and float for types), `@grid`/`@block` from a launch `NAME<<<g, b>>>` whose values are integer
literals (else grid 4, block 256), `@shared` from a launch's third value when it is a literal (else 4096 for a
kernel that uses extern __shared__), and one `@arg` per parameter: pointers get `T[grid*block*4] = rand(0, 9)`,
integer scalars `grid*block` when named like a size (n, N, size, len, count, width...), else 16; float scalars
1.5. A struct passed by value gets one `@arg` per field (`@arg data.r float[...]`), and a pointer to a struct an
array of it sized so its fields' elements number about grid*block*4 (the struct definitions are read from the
file and the files it includes with quotes). Unity builds: a .cu file that another .cu file includes is cased as
part of the outermost file including it (its case is that file's text, written beside it).
"""
import os
import re
import sys

KEEP_WORDS = ("__device__", "__constant__", "__shared__", "__global__", "typedef", "using", "struct", "class",
              "enum", "union", "namespace", "template", "const", "constexpr", "extern")


def strip_comments_and_strings(text):
    """The text with comments and string/char literals blanked (same length), for scanning braces."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def blank_preprocessor(clean):
    """Blanks preprocessor lines (with their continuations) in cleaned text."""
    lines = clean.split("\n")
    cont = False
    for k, line in enumerate(lines):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            lines[k] = " " * len(line)
        else:
            cont = False
    return "\n".join(lines)


def top_level_items(clean):
    """(start, end, kind) of each top-level item: 'func' for a function definition, 'block' for another
    braced item (struct, namespace, initialiser), 'stmt' for a declaration ending in ';'."""
    items = []
    depth = 0
    start = 0
    i = 0
    n = len(clean)
    body_start = None
    while i < n:
        c = clean[i]
        if c == "{":
            if depth == 0:
                body_start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and body_start is not None:
                head = clean[start:body_start].strip()
                # A function: `... name(...) [const|__launch_bounds__(...)] {`
                is_func = bool(re.search(r"\)\s*(const\s*)?(__launch_bounds__\s*\([^)]*\)\s*)?$", head)) and "=" not in head.split("(")[0]
                j = i + 1
                if not is_func:
                    # `struct S { ... } s;` and initialisers end with `;`
                    m = re.match(r"[^;{}]*;", clean[j:])
                    if m:
                        j += m.end()
                items.append((start, j, "func" if is_func else "block"))
                start = j
                i = j
                body_start = None
                continue
            if depth < 0:
                depth = 0
        elif c == ";" and depth == 0:
            items.append((start, i + 1, "stmt"))
            start = i + 1
        i += 1
    return items


def host_code_removed(text):
    clean = blank_preprocessor(strip_comments_and_strings(text))
    # Preprocessor lines stay whatever item they sit in: #define and #if are not host code.
    pre = []
    cont = False
    for line in text.split("\n"):
        is_pre = cont or line.lstrip().startswith("#")
        cont = is_pre and line.rstrip().endswith("\\")
        pre.extend([is_pre] * (len(line) + 1))
    out = list(text)
    for start, end, kind in top_level_items(clean):
        head = clean[start:end]
        keep = True
        if kind == "func":
            keep = "__global__" in head.split("{")[0] or "__device__" in head.split("{")[0]
        elif kind == "stmt":
            words = set(re.findall(r"[A-Za-z_]\w*", head))
            keep = any(w in words for w in KEEP_WORDS)
            # A prototype of a host function, or a host variable: out.
            if keep and "(" in head and not any(w in words for w in ("__device__", "__global__", "template")):
                keep = "=" in head or "typedef" in words or "using" in words
        if not keep:
            for k in range(start, end):
                if out[k] != "\n" and not pre[k]:
                    out[k] = " "
    return "".join(out)


KERNEL = re.compile(r"__global__\s+(?:[\w:<>,\s\*&]*?\s)?(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(([^)]*)\)\s*\{", re.S)


def template_params(clean, kernel_at):
    """The template parameters right before the kernel definition at `kernel_at`, as (kind, name, default)."""
    before = clean[max(0, kernel_at - 400):kernel_at]
    m = re.search(r"template\s*<([^<>]*)>\s*(?:__device__\s*)?$", before)
    if not m:
        return None
    params = []
    for p in m.group(1).split(","):
        p = p.strip()
        if not p:
            continue
        default = None
        if "=" in p:
            p, default = [x.strip() for x in p.split("=", 1)]
        words = p.split()
        kind = "type" if words[0] in ("typename", "class") else "value"
        params.append((kind, words[-1], default))
    return params


def literal(expr, env):
    expr = expr.strip()
    try:
        v = eval(expr, {"__builtins__": {}}, dict(env))  # integer literals and macro constants only
        if isinstance(v, int) and v > 0:
            return v
    except Exception:
        pass
    return None


def macro_constants(text):
    env = {}
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+\(?\s*([0-9]+)\s*\)?\s*$", text, re.M):
        env[m.group(1)] = int(m.group(2))
    # `#define SIZE (1<<18)`: integer arithmetic on literals.
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+([0-9()+\-*/<> ]+)$", text, re.M):
        if m.group(1) not in env:
            v = literal(m.group(2).replace("/", "//"), {})
            if v:
                env[m.group(1)] = v
    for m in re.finditer(r"(?:const|constexpr)\s+(?:unsigned\s+)?int\s+(\w+)\s*=\s*([0-9]+)\s*;", text):
        env[m.group(1)] = int(m.group(2))
    return env


SIZE_NAMES = re.compile(r"^(n|N|size|len|length|count|num\w*|nx|ny|width|height|w|h|rows|cols|elements|nElem|n_\w+|\w*[Ss]ize|\w*[Ll]en)$")


def arg_directive(param, total):
    p = re.sub(r"\b(const|__restrict__|__restrict|volatile|struct)\b", " ", param).strip()
    p = re.sub(r"\s+", " ", p)
    if not p or p == "void":
        return None
    m = re.match(r"(.*?)(\**)\s*(\w+)\s*(\[\s*\])?$", p.replace("*", " * ").replace("  ", " "))
    if not m:
        return "# cannot read parameter: " + param
    ty = " ".join(m.group(1).split())
    stars = p.count("*") + (1 if m.group(4) else 0)
    name = m.group(3)
    ty = ty.replace("*", "").strip()
    if stars >= 1:
        init = "i % 7" if any(w in ty for w in ("float", "double")) else "rand(0, 9)"
        return f"// @arg {name} {ty}[{total * 4}] = {init}"
    if any(w in ty for w in ("float", "double")):
        return f"// @arg {name} = 1.5"
    if SIZE_NAMES.match(name):
        return f"// @arg {name} = {total}"
    return f"// @arg {name} = 16"


STRUCT = re.compile(r"\b(?:struct|class)\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?(\w+)\s*\{([^{}]*)\}")
TYPEDEF_STRUCT = re.compile(r"\btypedef\s+struct\s*(?:__align__\s*\(\s*\d+\s*\)\s*)?(\w+)?\s*\{([^{}]*)\}\s*(\w+)\s*;")


def struct_fields(body, env):
    """(type, name, elements) of each field of a struct body: `float x, y;` gives two; `float a[N]` has N
    elements (macro constants evaluated; 1 when unknown). None for a body with member functions."""
    if "(" in body:
        return None
    fields = []
    for decl in body.split(";"):
        decl = re.sub(r"\b(public|private|protected)\s*:", " ", decl).strip()
        if not decl:
            continue
        m = re.match(r"((?:const\s+|unsigned\s+|signed\s+|long\s+|short\s+)*[\w:]+)\s*(.*)$", decl, re.S)
        if not m:
            return None
        for name in m.group(2).split(","):
            stars = name.count("*")
            dm = re.match(r"\s*\**\s*(\w+)\s*((?:\[[^\]]*\]\s*)*)$", name)
            if not dm:
                return None
            n = 1
            for d in re.findall(r"\[([^\]]*)\]", dm.group(2)):
                # A size that cannot be read may be large: count it so (the array argument gets one struct).
                n *= literal(d, env) or (1 << 30)
            # `#ifdef` variants of one field (the preprocessor lines are blanked): the first counts.
            if all(f[1] != dm.group(1) for f in fields):
                fields.append((m.group(1) + " " + "*" * stars, dm.group(1), n))
    return fields


def struct_defs(text, path, env):
    """Struct definitions of the file and of the files it includes with quotes (one level), by name."""
    texts = [text]
    for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
        try:
            with open(os.path.join(os.path.dirname(path), inc), encoding="utf-8", errors="replace") as f:
                texts.append(f.read())
        except OSError:
            pass
    defs = {}
    for t in texts:
        clean = blank_preprocessor(strip_comments_and_strings(t))
        for m in TYPEDEF_STRUCT.finditer(clean):
            fields = struct_fields(m.group(2), env)
            if fields is not None:
                defs[m.group(3)] = fields
                if m.group(1):
                    defs[m.group(1)] = fields
        for m in STRUCT.finditer(clean):
            fields = struct_fields(m.group(2), env)
            if fields is not None:
                defs.setdefault(m.group(1), fields)
    return defs


def struct_arg_directives(param, total, structs):
    """For a struct parameter: one `@arg` per field (`data.r`) when it is passed by value; for a pointer to a
    struct, its array sized so the fields' elements stay about the size of the other arrays. None otherwise."""
    p = re.sub(r"\b(const|__restrict__|__restrict|volatile|struct|class)\b", " ", param).strip()
    m = re.match(r"^(\w+)\s*(\**)\s*(\w+)$", " ".join(p.split()))
    if not m or m.group(1) not in structs:
        return None
    ty, stars, name = m.groups()
    fields = structs[ty]
    if not stars:
        out = []
        for fty, fname, n in fields:
            d = arg_directive(f"{fty} {fname}", total)
            if d is None or d.startswith("#"):
                return None
            out.append(d.replace(f"// @arg {fname} ", f"// @arg {name}.{fname} ", 1))
        return out
    if len(stars) == 1:
        elements = max(1, sum(n for _, _, n in fields))
        return [f"// @arg {name} {ty}[{max(1, total * 4 // elements)}] = rand(0, 9)"]
    return None


INCLUDE_CU = re.compile(r'^\s*#\s*include\s*"([^"]+\.cu)"', re.M)


def unity_roots(paths):
    """Unity builds: a .cu file another .cu file includes (`#include "gpuSolver.cu"`) is compiled as part of
    it, with what that file included before. Maps each such file to the outermost file including it."""
    includer = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for inc in INCLUDE_CU.findall(f.read()):
                target = os.path.normpath(os.path.join(os.path.dirname(path), inc))
                if target != path:
                    includer.setdefault(target, path)
    roots = {}
    for path in includer:
        root, seen = path, {path}
        while root in includer and includer[root] not in seen:
            root = includer[root]
            seen.add(root)
        roots[path] = root
    return roots


def cases_for(path, root=None):
    """The cases of `path`'s kernels; with `root` (the file of a unity build that includes `path`), each case
    is `root`'s text, written beside it, so what `root` includes before `path` is there."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if "__global__" not in text:
        return []
    clean = blank_preprocessor(strip_comments_and_strings(text))
    env = macro_constants(text)
    structs = struct_defs(text, path, env)
    host = path
    if root:
        with open(root, encoding="utf-8", errors="replace") as f:
            root_text = f.read()
        stripped = host_code_removed(root_text)
        env = {**macro_constants(root_text), **env}
        structs = {**struct_defs(root_text, root, env), **structs}
        # Launches are in the host code of either file.
        clean = clean + "\n" + blank_preprocessor(strip_comments_and_strings(root_text))
        host = root
    else:
        stripped = host_code_removed(text)
    out = []
    for m in KERNEL.finditer(clean[:len(text)]):
        name = m.group(1)
        params_text = text[m.start(2):m.end(2)]
        launch = re.search(re.escape(name) + r"\s*(<[^<>;]*>)?\s*<<<([^>]*)>>>", clean)
        grid, block, shared = 4, 256, None
        targs = None
        if launch:
            if launch.group(1):
                targs = launch.group(1)
            parts = [x for x in launch.group(2).split(",")]
            if len(parts) >= 2:
                g, b = literal(parts[0], env), literal(parts[1], env)
                grid = g if g and g <= 65535 else grid
                block = b if b and b <= 1024 else block
            if len(parts) >= 3:
                shared = literal(parts[2].replace("sizeof(float)", "4").replace("sizeof(int)", "4")
                                 .replace("sizeof(double)", "8"), env)
        tp = template_params(clean, m.start())
        kernel = name
        # Template type parameters, by name, as the instance has them (`T` -> `float`), for the `@arg` types.
        type_args = {}
        if tp is not None:
            if targs and "<" not in targs[1:-1]:
                kernel = name + targs.replace(" ", "")
                vals = [v.strip() for v in targs[1:-1].split(",")]
            else:
                vals = [d if d else ("float" if k == "type" else str(block)) for k, _, d in tp]
                kernel = name + "<" + ", ".join(vals) + ">"
            type_args = {n: v for (k, n, _), v in zip(tp, vals) if k == "type"}
        total = grid * block
        lines = [f"// @kernel {kernel}", f"// @grid {grid}", f"// @block {block}"]
        # Code written for Kepler/Pascal uses the warp functions CUDA 9 removed for Volta: run it as its GPUs did.
        if re.search(r"\b__(shfl|shfl_up|shfl_down|shfl_xor|any|all|ballot)\s*\(", clean):
            lines.append("// @mode pre-volta")
        uses_dynamic = re.search(r"extern\s+__shared__", clean) is not None
        if uses_dynamic:
            lines.append(f"// @shared {shared if shared else 4096}")
        for p in [x for x in params_text.split(",")]:
            for t, v in type_args.items():
                p = re.sub(r"\b" + re.escape(t) + r"\b", v, p)
            by_struct = struct_arg_directives(" ".join(p.split()), total, structs)
            if by_struct:
                lines.extend(by_struct)
                continue
            d = arg_directive(" ".join(p.split()), total)
            if d:
                lines.append(d)
        case = host + "." + name + ".case.cu"
        with open(case, "w", encoding="utf-8") as f:
            f.write(stripped)
            f.write("\n// ---- generated by benches/coverage/make_cases.py ----\n")
            f.write("\n".join(lines) + "\n")
        out.append(case)
    return out


def main():
    corpus, listing = sys.argv[1], sys.argv[2]
    cases = []
    sources = [os.path.normpath(os.path.join(r, fn)) for r, _, fs in os.walk(corpus) for fn in fs
               if fn.endswith(".cu") and ".case." not in fn]
    roots = unity_roots(sources)
    for root, _, files in sorted(os.walk(corpus)):
        # The repository's root is an include folder, as the courses' build files make it (-I..).
        repo = os.path.join(corpus, os.path.relpath(root, corpus).split(os.sep)[0])
        dirs = [repo] + [os.path.join(repo, d) for d in ("include", "inc", "common")
                         if os.path.isdir(os.path.join(repo, d))]
        for fn in sorted(files):
            if fn.endswith(".cu") and ".case." not in fn:
                path = os.path.normpath(os.path.join(root, fn))
                cases.extend(c + "\t" + "\t".join(dirs) for c in cases_for(path, roots.get(path)))
    with open(listing, "w") as f:
        f.write("\n".join(cases) + "\n")
    print(f"{len(cases)} kernels")


if __name__ == "__main__":
    main()
