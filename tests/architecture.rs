//! The architecture of `src/`, checked rather than described (docs/architecture.md explains it):
//!
//! - data flows one way: a module names (in `use` or in a path, not in a comment) only modules of its own layer
//!   or of a lower one, in the order of [`LAYERS`];
//! - inside the crate, files form no import circle, except those whose module docs say why;
//! - no file of `src/` is over [`MAX_LINES`] lines;
//! - the execution models are named (`WarpModel`) only in their home and a handful of other places;
//! - the names the architecture issue retired stay retired, and the types it made unique stay unique;
//! - an enum variant with three or more fields names them (`Binary { op, left, right }`).
//!
//! Code in `#[cfg(test)]` modules (and `tests.rs` files) is exempt: a unit test may drive the whole compiler.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first; a module may name its own layer and those before it.
const LAYERS: &[&[&str]] = &[
    &["front"],
    &["ir"],
    &["compile"],
    &["sim"],
    &["perf"],
    &["host"],
    &["program"],
    &["debug"],
    &["tui"],
    &["web"],
    &["cli"],
    &["lib", "main"],
];

/// The longest a file of `src/` may be: a longer one holds two concepts.
const MAX_LINES: usize = 900;

/// The execution models' home, and how many code lines outside it may name `WarpModel`.
const MODEL_HOME: &str = "src/sim/model/";
const MODEL_NAMED_OUTSIDE: usize = 5;

/// Type names that said nothing (or two things) and were renamed.
const RETIRED: &[&str] =
    &["HK", "HExpr", "HStmt", "HFunc", "Lv", "Bail", "PResult", "Fail", "Res", "Pp", "R", "F", "V"];

/// Type names that mean one thing each: defined once in the crate.
const UNIQUE: &[&str] = &["Compiled", "HostError", "Stop", "Sig", "Reported", "Halt"];

/// One source file: its path, its module path (`["sim", "machine", "gang"]`) and its code lines (comments and
/// test modules blanked, so line numbers still match the file).
struct File {
    path: PathBuf,
    module: Vec<String>,
    lines: Vec<String>,
    doc: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src is readable").flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `src/sim/machine/gang.rs` -> `sim::machine::gang`; `mod.rs`, `lib.rs` and `main.rs` name their folder (or
/// the crate root, for `lib` and `main`, kept as layer names).
fn module_of(path: &Path) -> Vec<String> {
    let rel = path.strip_prefix("src").expect("under src");
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The text of a line with its comment removed (a `//` outside a string literal); block comments are rare in
/// this crate and only in docs.
fn strip_comment(line: &str) -> String {
    let mut in_str = false;
    let mut prev = '\0';
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '"' && prev != '\\' && !(prev == '\'' && chars.get(i + 1) == Some(&'\'')) {
            in_str = !in_str;
        }
        if !in_str && c == '/' && chars.get(i + 1) == Some(&'/') {
            return chars[..i].iter().collect();
        }
        prev = if prev == '\\' && c == '\\' { '\0' } else { c };
    }
    line.to_string()
}

fn load(path: PathBuf) -> File {
    let text = std::fs::read_to_string(&path).expect("readable");
    let module = module_of(&path);
    let test_file = path.file_name().is_some_and(|n| n == "tests.rs");
    let mut lines = vec![];
    let mut doc = String::new();
    // Depth of braces inside a `#[cfg(test)]` item, once its `{` is seen.
    let mut skipping: Option<i64> = None;
    let mut test_attr = false;
    for raw in text.lines() {
        let t = raw.trim_start();
        if let Some(d) = t.strip_prefix("//!") {
            doc.push_str(d);
            doc.push('\n');
        }
        let code = strip_comment(raw);
        if test_file {
            lines.push(String::new());
            continue;
        }
        if let Some(depth) = skipping.as_mut() {
            *depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            if *depth <= 0 {
                skipping = None;
            }
            lines.push(String::new());
            continue;
        }
        if code.trim() == "#[cfg(test)]" {
            test_attr = true;
            lines.push(String::new());
            continue;
        }
        if test_attr {
            test_attr = false;
            let opens = code.matches('{').count() as i64 - code.matches('}').count() as i64;
            if opens > 0 {
                skipping = Some(opens);
            }
            lines.push(String::new());
            continue;
        }
        lines.push(code);
    }
    File { path, module, lines, doc }
}

fn files() -> Vec<File> {
    let mut paths = vec![];
    rust_files(Path::new("src"), &mut paths);
    paths.into_iter().map(load).collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Expands a `use` tree (`crate::a::{b::{c, d}, e}`) into its paths.
fn expand_use(tree: &str) -> Vec<String> {
    // `x as y` names `x`: drop each `as` and the name after it, then the spaces.
    let mut words = vec![];
    let mut rename = false;
    for w in tree.split_inclusive(|c: char| c.is_whitespace() || c == ',' || c == '}' || c == '{') {
        let word = w.trim_end_matches(|c: char| c.is_whitespace() || c == ',' || c == '}' || c == '{');
        if rename {
            rename = false;
            words.push(&w[word.len()..]);
        } else if word == "as" {
            rename = true;
        } else {
            words.push(w);
        }
    }
    let tree: String = words.concat().chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = vec![];
    expand_into("", &tree, &mut out);
    out
}

fn expand_into(prefix: &str, tree: &str, out: &mut Vec<String>) {
    match tree.find('{') {
        None => {
            for alt in split_top(tree) {
                out.push(format!("{prefix}{alt}"));
            }
        }
        Some(open) => {
            let head = &tree[..open];
            let close = tree.rfind('}').unwrap_or(tree.len());
            let inner = &tree[open + 1..close.max(open + 1)];
            for part in split_top(inner) {
                if part == "self" {
                    out.push(format!("{prefix}{}", head.trim_end_matches("::")));
                } else {
                    expand_into(&format!("{prefix}{head}"), part, out);
                }
            }
        }
    }
}

/// Splits at commas outside braces.
fn split_top(s: &str) -> Vec<&str> {
    let mut parts = vec![];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// Every path a file names that starts at `crate`, `super` or `self`, with the line it is on.
fn named_paths(f: &File) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut i = 0;
    while i < f.lines.len() {
        let line = &f.lines[i];
        let t = line.trim_start();
        let use_body = t
            .strip_prefix("pub use ")
            .or_else(|| t.strip_prefix("use "))
            .or_else(|| t.strip_prefix("pub(crate) use ").or_else(|| t.strip_prefix("pub(super) use ")));
        if let Some(body) = use_body {
            let mut stmt = body.to_string();
            let first = i;
            while !stmt.contains(';') && i + 1 < f.lines.len() {
                i += 1;
                stmt.push_str(&f.lines[i]);
            }
            let stmt = stmt.split(';').next().unwrap_or("");
            for p in expand_use(stmt) {
                out.push((first + 1, p));
            }
        } else {
            for start in ["crate::", "super::", "self::"] {
                let mut from = 0;
                while let Some(at) = line[from..].find(start) {
                    let at = from + at;
                    let before = line[..at].chars().next_back();
                    if before.is_none_or(|c| !is_ident(c) && c != ':') {
                        let end = line[at..].find(|c: char| !(is_ident(c) || c == ':')).map_or(line.len(), |e| at + e);
                        out.push((i + 1, line[at..end].trim_end_matches(':').to_string()));
                    }
                    from = at + start.len();
                }
            }
        }
        i += 1;
    }
    out
}

/// The module a path names, as an absolute module path (`super` resolved against `from`; `self` is the file's
/// own module, or for a `mod.rs` its folder).
fn absolute(from: &[String], path: &str) -> Option<Vec<String>> {
    let mut segs = path.split("::").filter(|s| !s.is_empty());
    let mut at: Vec<String> = match segs.next()? {
        "crate" => vec![],
        "self" => from.to_vec(),
        "super" => from[..from.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    for s in segs {
        if s == "super" {
            at.pop()?;
        } else if s == "*" {
            break;
        } else {
            at.push(s.to_string());
        }
    }
    Some(at)
}

/// The longest prefix of `path` that is a module with a file of its own.
fn file_of<'a>(modules: &'a BTreeMap<Vec<String>, usize>, path: &[String]) -> Option<(&'a Vec<String>, usize)> {
    (0..=path.len()).rev().find_map(|n| modules.get_key_value(&path[..n]).map(|(k, &v)| (k, v)))
}

fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&top))
}

/// The top-level module of a file (`lib` and `main` for the crate root's two files).
fn top_of(f: &File) -> String {
    match f.module.first() {
        Some(m) => m.clone(),
        None => "lib".into(),
    }
}

#[test]
fn imports_never_run_up_a_layer() {
    let files = files();
    let mut bad = vec![];
    for f in &files {
        let top = top_of(f);
        let Some(mine) = layer_of(&top) else {
            bad.push(format!("{}: top-level module `{top}` is in no layer of tests/architecture.rs", f.path.display()));
            continue;
        };
        for (line, p) in named_paths(f) {
            let Some(abs) = absolute(&f.module, &p) else { continue };
            let Some(dst) = abs.first() else { continue };
            if let Some(theirs) = layer_of(dst)
                && theirs > mine
            {
                bad.push(format!("{}:{line}: `{top}` names `{p}` (layer {theirs} above {mine})", f.path.display()));
            }
        }
    }
    assert!(bad.is_empty(), "imports that run up a layer:\n{}", bad.join("\n"));
}

/// Tarjan's strongly connected components of the file graph.
fn components(n: usize, edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct St<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut St, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on[v] = true;
        for &w in s.edges[v].iter() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut c = vec![];
            while let Some(w) = s.stack.pop() {
                s.on[w] = false;
                c.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(c);
        }
    }
    let mut s =
        St { edges, index: vec![None; n], low: vec![0; n], on: vec![false; n], stack: vec![], next: 0, out: vec![] };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn files_form_no_import_circles() {
    let files = files();
    let modules: BTreeMap<Vec<String>, usize> =
        files.iter().enumerate().filter(|(_, f)| top_of(f) != "main").map(|(i, f)| (f.module.clone(), i)).collect();
    let mut edges = vec![BTreeSet::new(); files.len()];
    // Where each edge is named first, to say where a circle closes.
    let mut named_at: BTreeMap<(usize, usize), String> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        for (line, p) in named_paths(f) {
            let Some(abs) = absolute(&f.module, &p) else { continue };
            let Some((target, j)) = file_of(&modules, &abs) else { continue };
            // A module declares and uses its own children: that is structure, not a circle.
            let descendant = target.len() > f.module.len() && target.starts_with(&f.module);
            if j != i && !descendant {
                edges[i].insert(j);
                named_at.entry((i, j)).or_insert_with(|| format!("{}:{line} `{p}`", f.path.display()));
            }
        }
    }
    let mut bad = vec![];
    for c in components(files.len(), &edges) {
        if c.len() < 2 {
            continue;
        }
        // A circle is allowed where every file in it says why in its module doc.
        if c.iter().all(|&i| files[i].doc.contains("import circle")) {
            continue;
        }
        let mut names: Vec<String> = c.iter().map(|&i| files[i].path.display().to_string()).collect();
        names.sort();
        let mut how: Vec<String> = named_at
            .iter()
            .filter(|((a, b), _)| c.contains(a) && c.contains(b))
            .map(|(_, at)| format!("    {at}"))
            .collect();
        how.sort();
        bad.push(format!("{}\n{}", names.join(" <-> "), how.join("\n")));
    }
    assert!(
        bad.is_empty(),
        "files that import each other (say why in each one's module doc, or untie them):\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_file_is_over_the_line_limit() {
    let mut paths = vec![];
    rust_files(Path::new("src"), &mut paths);
    let long: Vec<String> = paths
        .iter()
        .filter_map(|p| {
            let n = std::fs::read_to_string(p).expect("readable").lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n} lines", p.display()))
        })
        .collect();
    assert!(long.is_empty(), "files over {MAX_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_execution_models_have_one_home() {
    let files = files();
    assert!(files.iter().any(|f| f.path.starts_with(MODEL_HOME)), "the execution models live in {MODEL_HOME}");
    let outside: Vec<String> = files
        .iter()
        .filter(|f| !f.path.starts_with(MODEL_HOME))
        .flat_map(|f| {
            f.lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.contains("WarpModel"))
                .map(move |(n, l)| format!("{}:{}: {}", f.path.display(), n + 1, l.trim()))
        })
        .collect();
    assert!(
        outside.len() <= MODEL_NAMED_OUTSIDE,
        "{} code lines outside {MODEL_HOME} name WarpModel (at most {MODEL_NAMED_OUTSIDE}):\n{}",
        outside.len(),
        outside.join("\n")
    );
}

/// The names of the types (`struct`, `enum`, `type`, `trait`, `union`) a file defines, with their lines.
fn defined_types(f: &File) -> Vec<(usize, String)> {
    let mut out = vec![];
    for (n, line) in f.lines.iter().enumerate() {
        let mut words = line.split(|c: char| c.is_whitespace() || c == '<' || c == '(' || c == ';' || c == '{');
        let mut prev = "";
        for w in words.by_ref() {
            if matches!(prev, "struct" | "enum" | "type" | "trait" | "union") && !w.is_empty() {
                out.push((n + 1, w.to_string()));
                break;
            }
            if !w.is_empty() {
                prev = w;
            }
        }
    }
    out
}

#[test]
fn names_say_one_thing() {
    let files = files();
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut bad = vec![];
    for f in &files {
        for (line, name) in defined_types(f) {
            let at = format!("{}:{line}", f.path.display());
            if RETIRED.contains(&name.as_str()) {
                bad.push(format!("{at}: `{name}` is a retired name: say what it is"));
            }
            if UNIQUE.contains(&name.as_str()) {
                seen.entry(name).or_default().push(at);
            }
        }
    }
    for (name, places) in seen {
        if places.len() > 1 {
            bad.push(format!("`{name}` is defined {} times: {}", places.len(), places.join(", ")));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The number of fields of each tuple variant of each `enum` in `code` (a file's code lines, joined).
fn tuple_variants(code: &str) -> Vec<(String, usize)> {
    let mut out = vec![];
    let mut rest = code;
    while let Some(at) = rest.find("enum ") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + 5..];
        if before.is_some_and(is_ident) {
            continue;
        }
        // `enum Name<...> {`: the body is what the braces enclose.
        let Some(open) = rest.find(['{', ';', '(']) else { break };
        if !rest[open..].starts_with('{') {
            continue;
        }
        let body = &rest[open + 1..];
        let mut depth = 1;
        let end = body
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(body.len(), |(i, _)| i);
        for variant in split_fields(&body[..end]) {
            let mut v = variant.trim();
            // Past the variant's attributes (`#[serde(...)]`).
            while v.starts_with("#[") {
                let mut depth = 0;
                let end = v.char_indices().find(|&(_, c)| {
                    depth += match c {
                        '[' => 1,
                        ']' => -1,
                        _ => 0,
                    };
                    c == ']' && depth == 0
                });
                v = end.map_or("", |(i, _)| v[i + 1..].trim_start());
            }
            if let Some(paren) = v.find('(')
                && v[..paren].chars().all(is_ident)
                && v.ends_with(')')
            {
                let fields =
                    split_fields(&v[paren + 1..v.len() - 1]).into_iter().filter(|f| !f.trim().is_empty()).count();
                out.push((v[..paren].to_string(), fields));
            }
        }
        rest = &body[end..];
    }
    out
}

/// Splits at commas outside any brackets.
fn split_fields(s: &str) -> Vec<&str> {
    let mut parts = vec![];
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

#[test]
fn variants_with_three_fields_name_them() {
    let mut bad = vec![];
    for f in files() {
        for (variant, n) in tuple_variants(&f.lines.join("\n")) {
            if n >= 3 {
                bad.push(format!("{}: `{variant}` has {n} unnamed fields", f.path.display()));
            }
        }
    }
    assert!(bad.is_empty(), "name the fields (as `Binary {{ op, left, right }}`):\n{}", bad.join("\n"));
}

/// The checker itself: `use` trees expand, `super` resolves, and a comment is not an import.
#[test]
fn the_checker_reads_paths_as_rust_does() {
    assert_eq!(
        expand_use("crate::debug::{breakpoint::{Breakpoint, Kind}, session::Session, self}"),
        vec![
            "crate::debug::breakpoint::Breakpoint",
            "crate::debug::breakpoint::Kind",
            "crate::debug::session::Session",
            "crate::debug"
        ]
    );
    assert_eq!(expand_use("super::{lexer as lx, Token}"), vec!["super::lexer", "super::Token"]);
    let from: Vec<String> = ["sim", "machine", "gang"].iter().map(|s| s.to_string()).collect();
    assert_eq!(
        absolute(&from, "super::warp_run::X"),
        Some(vec!["sim".into(), "machine".into(), "warp_run".into(), "X".into()])
    );
    assert_eq!(absolute(&from, "crate::tui::App"), Some(vec!["tui".into(), "App".into()]));
    assert_eq!(strip_comment("let a = \"http://x\"; // crate::tui"), "let a = \"http://x\"; ");
    assert_eq!(layer_of("tui").zip(layer_of("sim")).map(|(t, s)| t > s), Some(true));
    let variants = tuple_variants("pub enum E<T> { A(u8, Vec<(T, T)>, [u8; 2]), #[x] B(u8), C { a: u8 }, D }");
    assert_eq!(variants, vec![("A".to_string(), 3), ("B".to_string(), 1)]);
}
