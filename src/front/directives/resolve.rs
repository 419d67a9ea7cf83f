//! Matching the directives with the kernel: the [`Launch`] they describe. [`resolve`] runs the steps in order:
//! the command-line overrides replace the file's directives, each single directive is given once, the kernel
//! is found, its parameters get their arguments (`args`), then the launch's shape (grid, block, seed, mode,
//! dynamic shared memory) and the file's variables (`symbols`).

use std::collections::HashMap;

use super::args::{args_by_name, array_args, scalar_args};
use super::elements::mentions_error;
use super::init::{const_eval, show};
use super::parse::parse_body;
use super::symbols::symbols;
use super::syntax::{Directive, DirectiveKind};
use crate::front::ast::{self, Ident};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::launch::{Dim3, Launch, Overrides, Value};
use crate::front::source::{SourceFile, SourceMap, Span};
use crate::front::tast::{FnId, Program};

/// The most dynamic shared memory a block may ask for: an H100's 227 KiB.
const MAX_DYNAMIC_SHARED: i64 = 227 * 1024;

/// Directives of a file plus the command-line overrides, resolved for one kernel. `partial` says the parser
/// skipped code after syntax errors: then a kernel that cannot be found is not reported, as it may be in there.
pub fn resolve(
    program: &Program,
    directives: &[Directive],
    overrides: &Overrides,
    sources: &mut SourceMap,
    file_span: Span,
    partial: bool,
) -> Result<Launch, Vec<Diagnostic>> {
    let mut diags = vec![];
    let all = with_overrides(directives, overrides, sources, file_span, &mut diags);
    check_given_once(&all, &mut diags);
    let Some(kernel) = find_kernel(program, &all, file_span, partial, &mut diags) else { return Err(diags) };
    let func = program.function(kernel);
    let params: Vec<_> = func.params.iter().map(|&p| &func.locals[p.0 as usize]).collect();
    // A parameter whose type was already reported (unknown, or set aside as unavailable): its arguments
    // cannot be checked against it.
    if params.iter().any(|p| mentions_error(&p.ty)) {
        return Err(diags);
    }
    let by_name = args_by_name(&all, &params, &func.name, &mut diags);
    // Scalars first: lengths and sizes may name them.
    let mut env = HashMap::new();
    let mut args = vec![None; params.len()];
    scalar_args(&params, &by_name, &mut env, &mut args, &mut diags);
    array_args(&params, &by_name, &env, &mut args, &mut diags);
    let grid = dims(&all, "grid", &env, &mut diags);
    let block = dims(&all, "block", &env, &mut diags);
    let seed = seed(&all, &env, &mut diags);
    let mode =
        all.iter().find_map(|d| if let DirectiveKind::Mode(m) = d.kind { Some(m) } else { None }).unwrap_or_default();
    let dynamic_shared = dynamic_shared(&all, &env, &mut diags);
    let symbols = symbols(program, &all, &mut diags);
    if !diags.is_empty() {
        return Err(diags);
    }
    let args = args.into_iter().map(|a| a.expect("every parameter resolved or diagnosed")).collect();
    Ok(Launch { kernel: func.name.clone(), grid, block, args, seed, mode, dynamic_shared, symbols })
}

/// The file's directives with the command-line overrides: each override is parsed from its own text and
/// replaces the file's directives of the same kind (an `@arg` or `@symbol`, those of the same name).
fn with_overrides(
    directives: &[Directive],
    overrides: &Overrides,
    sources: &mut SourceMap,
    file_span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Directive> {
    let mut all: Vec<Directive> = directives.to_vec();
    let mut add_override = |flag: &str, word: &str, text: &str, diags: &mut Vec<Diagnostic>| {
        let file = sources.add(SourceFile::new(format!("{flag} {text}"), text.to_string()));
        let span = Span::new(file, 0, text.len());
        if let Some(kind) = parse_body(word, text, file, 0, span, diags) {
            // An override removes what it replaces.
            all.retain(|d| !same_target(&d.kind, &kind));
            all.push(Directive { kind, span });
        }
    };
    if let Some(k) = &overrides.kernel {
        add_override("--kernel", "kernel", k, diags);
    }
    if let Some(g) = &overrides.grid {
        add_override("--grid", "grid", g, diags);
    }
    if let Some(b) = &overrides.block {
        add_override("--block", "block", b, diags);
    }
    if let Some(s) = &overrides.seed {
        add_override("--seed", "seed", s, diags);
    }
    if let Some(s) = &overrides.shared {
        add_override("--shared", "shared", s, diags);
    }
    for a in &overrides.args {
        add_override("--arg", "arg", a, diags);
    }
    for a in &overrides.symbols {
        add_override("--symbol", "symbol", a, diags);
    }
    if let Some(m) = overrides.mode {
        all.retain(|d| !matches!(d.kind, DirectiveKind::Mode(_)));
        all.push(Directive { kind: DirectiveKind::Mode(m), span: file_span });
    }
    all
}

/// Whether directive `b` replaces `a`: the same kind, and for `@arg` and `@symbol` the same name.
fn same_target(a: &DirectiveKind, b: &DirectiveKind) -> bool {
    match (a, b) {
        (DirectiveKind::Arg { name: x, .. }, DirectiveKind::Arg { name: y, .. })
        | (DirectiveKind::Symbol { name: x, .. }, DirectiveKind::Symbol { name: y, .. }) => x.name == y.name,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// Each of kernel/grid/block/seed/mode/shared at most once.
fn check_given_once(all: &[Directive], diags: &mut Vec<Diagnostic>) {
    let mut firsts: HashMap<&'static str, Span> = HashMap::new();
    for d in all {
        let key = match d.kind {
            DirectiveKind::Kernel(_) => "kernel",
            DirectiveKind::Grid(_) => "grid",
            DirectiveKind::Block(_) => "block",
            DirectiveKind::Seed(_) => "seed",
            DirectiveKind::Mode(_) => "mode",
            DirectiveKind::Shared(_) => "shared",
            DirectiveKind::Arg { .. } | DirectiveKind::Symbol { .. } => continue,
        };
        if let Some(prev) = firsts.insert(key, d.span) {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, d.span, format!("`@{key}` is given twice"))
                    .label("second one")
                    .with_secondary(prev, "first one"),
            );
        }
    }
}

/// The kernel to launch: the one `@kernel` names, else the file's only one. None (with the reason in `diags`,
/// unless the parser skipped code where it may be) when there is none to run.
fn find_kernel(
    program: &Program,
    all: &[Directive],
    file_span: Span,
    partial: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<FnId> {
    let kernel_dir =
        all.iter().find_map(|d| if let DirectiveKind::Kernel(k) = &d.kind { Some(k.clone()) } else { None });
    let kernels: Vec<_> = program.kernels().collect();
    let set_aside = |u: &&ast::Unavailable| u.kind == ast::ItemKind::Kernel;
    match &kernel_dir {
        Some(k) => match kernels.iter().find(|(_, f)| f.name == k.name) {
            Some(&(id, _)) => Some(id),
            // A kernel set aside for an unsupported construct: that construct is why it cannot run.
            None if let Some(u) = program.unavailable.iter().filter(set_aside).find(|u| u.name == k.name) => {
                diags.push(u.diag.clone().with_secondary(k.span, "launched here"));
                None
            }
            None => {
                if !partial {
                    diags.push(unknown_kernel(program, &kernels, k));
                }
                None
            }
        },
        None if kernels.len() == 1 => Some(kernels[0].0),
        // Every kernel was set aside for an unsupported construct: those constructs are why none can run.
        None if kernels.is_empty() && program.unavailable.iter().any(|u| set_aside(&u)) => {
            diags.extend(program.unavailable.iter().filter(set_aside).map(|u| u.diag.clone()));
            None
        }
        None if kernels.is_empty() && program.templates.iter().any(|t| t.2) => {
            let (name, header, _) = program.templates.iter().find(|t| t.2).expect("a kernel template");
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    file_span,
                    format!("`{name}` is a kernel template: which instance should run?"),
                )
                .label("no instance named")
                .hint(format!(
                    "add `// @kernel {name}<...>` with arguments for {header}, or pass --kernel '{name}<...>'"
                )),
            );
            None
        }
        None if kernels.is_empty() => {
            if !partial {
                diags.push(
                    Diagnostic::new(ErrorCode::Directive, file_span, "this file has no __global__ kernel")
                        .label("nothing to launch")
                        .hint("a kernel file needs at least one `__global__ void name(...) { ... }`"),
                );
            }
            None
        }
        None => {
            let names: Vec<_> = kernels.iter().map(|(_, f)| f.name.as_str()).collect();
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    program.function(kernels[1].0).span,
                    "this file has several kernels: which one to launch?",
                )
                .hint(format!(
                    "add `// @kernel {}` (one of: {}) or pass --kernel NAME",
                    names[0],
                    names.join(", ")
                )),
            );
            None
        }
    }
}

/// `@kernel k` names no kernel of the file: say which there are, or that `k` is a template.
fn unknown_kernel(program: &Program, kernels: &[(FnId, &crate::front::tast::Function)], k: &Ident) -> Diagnostic {
    let names: Vec<_> = kernels.iter().map(|(_, f)| format!("`{}`", f.name)).collect();
    let d = Diagnostic::new(ErrorCode::Directive, k.span, format!("no __global__ function named `{}`", k.name))
        .label("unknown kernel");
    if let Some((_, header, _)) = program.templates.iter().find(|(n, _, kernel)| *kernel && *n == k.name) {
        d.hint(format!(
            "`{}` is a kernel template ({header}): name its arguments, e.g. `// @kernel {}<...>`",
            k.name, k.name
        ))
    } else if !names.is_empty() {
        d.hint(format!("this file's kernels: {}", names.join(", ")))
    } else {
        d
    }
}

/// The `@grid` or `@block` size (`which`), each dimension checked against the GPU's limits; one block of 32
/// threads where none is given.
fn dims(all: &[Directive], which: &str, env: &HashMap<String, Option<Value>>, diags: &mut Vec<Diagnostic>) -> Dim3 {
    let Some(d) = all
        .iter()
        .find(|d| matches!((&d.kind, which), (DirectiveKind::Grid(_), "grid") | (DirectiveKind::Block(_), "block")))
    else {
        return if which == "grid" { Dim3::ONE } else { Dim3::new(32, 1, 1) };
    };
    let (DirectiveKind::Grid(list) | DirectiveKind::Block(list)) = &d.kind else { unreachable!() };
    let mut v = [1u32; 3];
    for (i, e) in list.iter().enumerate() {
        let Some(x) = const_eval(e, env, diags) else { continue };
        let limit: i64 = match (which, i) {
            ("block", 0 | 1) => 1024,
            ("block", _) => 64,
            ("grid", 0) => (1 << 31) - 1,
            _ => 65535,
        };
        match x {
            Value::Int(n) if (1..=limit).contains(&n) => v[i] = n as u32,
            _ => diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    e.span,
                    format!("{which} size must be an integer from 1 to {limit}, found {}", show(x)),
                )
                .label("out of range"),
            ),
        }
    }
    let dim = Dim3::new(v[0], v[1], v[2]);
    if which == "block" && dim.count() > 1024 {
        diags.push(
            Diagnostic::new(
                ErrorCode::Directive,
                d.span,
                format!("a block has at most 1024 threads; this one has {}", dim.count()),
            )
            .label("too many threads per block"),
        );
    }
    dim
}

/// The `@seed`, 0 where none is given (or it is wrong, and reported).
fn seed(all: &[Directive], env: &HashMap<String, Option<Value>>, diags: &mut Vec<Diagnostic>) -> u64 {
    let Some(e) = all.iter().find_map(|d| if let DirectiveKind::Seed(e) = &d.kind { Some(e) } else { None }) else {
        return 0;
    };
    match const_eval(e, env, diags) {
        Some(Value::Int(s)) => s as u64,
        Some(v) => {
            diags.push(Diagnostic::new(
                ErrorCode::Directive,
                e.span,
                format!("the seed must be an integer, found {}", show(v)),
            ));
            0
        }
        None => 0,
    }
}

/// The `@shared` bytes of dynamic shared memory per block, 0 where none are given (or they are wrong, and
/// reported).
fn dynamic_shared(all: &[Directive], env: &HashMap<String, Option<Value>>, diags: &mut Vec<Diagnostic>) -> u32 {
    let Some(e) = all.iter().find_map(|d| if let DirectiveKind::Shared(e) = &d.kind { Some(e) } else { None }) else {
        return 0;
    };
    match const_eval(e, env, diags) {
        Some(Value::Int(n)) if (0..=MAX_DYNAMIC_SHARED).contains(&n) => n as u32,
        Some(v) => {
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    e.span,
                    format!("dynamic shared memory must be 0 to {MAX_DYNAMIC_SHARED} bytes, found {}", show(v)),
                )
                .label("out of range")
                .hint(
                    "an H100 block has at most 227 KiB of shared memory (past 48 KiB, CUDA needs cudaFuncSetAttribute)",
                ),
            );
            0
        }
        None => 0,
    }
}
