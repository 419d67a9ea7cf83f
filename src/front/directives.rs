//! Launch directives (`// @grid`, `@block`, `@arg`, `@kernel`, `@seed`, `@mode`) and their command-line
//! overrides, parsed with the kernel language's own expression parser and resolved against the kernel's
//! parameters into a [`Launch`].
//!
//! Extensions beyond interface.md: grid, block and array lengths may name scalar `@arg`s (`@grid (n + 63) / 64`,
//! `int[n]`), so `--arg n=...` resizes the whole launch; values may be separated by spaces or commas.

use std::collections::HashMap;

use super::ast::{self, BinaryOp, ExprKind as A, UnaryOp};
use super::diagnostic::{Diagnostic, ErrorCode};
use super::lexer::{self, DirectiveLine};
use super::parser::Parser;
use super::source::{FileId, SourceMap, Span};
use super::tast::Program;
use super::token::{Kw, Punct, TokKind, Token};
use super::types::{Scalar, Type};
use crate::launch::{ArgValue, Dim3, InitExpr, InitOp, Launch, LaunchArg, Mode, Overrides, Value};

#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    Scalar(ast::Expr),
    /// `strukt` names a struct or vector element type (`naiveStruct[n]`, `float4[n]`); `elem` is then its fields'.
    Array {
        elem: Scalar,
        elem_span: Span,
        len: ast::Expr,
        init: Option<ast::Expr>,
        strukt: Option<String>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum DirectiveKind {
    Kernel(ast::Ident),
    Grid(Vec<ast::Expr>),
    Block(Vec<ast::Expr>),
    Arg {
        name: ast::Ident,
        spec: ArgSpec,
    },
    Seed(ast::Expr),
    Mode(Mode),
    /// `@shared BYTES`: dynamic shared memory per block.
    Shared(ast::Expr),
    /// `@symbol NAME = INIT`: the contents of a `__constant__` or `__device__` variable for the launch (what
    /// `cudaMemcpyToSymbol` sets in a whole program), replacing its initialiser.
    Symbol {
        name: ast::Ident,
        init: ast::Expr,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// The whole directive (for "first given here" notes).
    pub span: Span,
}

const KNOWN: &str = "@kernel, @grid, @block, @arg, @seed, @mode, @shared, @symbol";

/// The most dynamic shared memory a block may ask for: an H100's 227 KiB.
const MAX_DYNAMIC_SHARED: i64 = 227 * 1024;

/// Parses one `// @word rest` line.
pub fn parse_line(line: &DirectiveLine, diags: &mut Vec<Diagnostic>) -> Option<Directive> {
    let text = &line.text[1..];
    let word_len = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    let word = &text[..word_len];
    let rest_off = line.span.start as usize + 1 + word_len;
    let word_span = Span::new(line.span.file, line.span.start as usize, rest_off);
    let rest = &text[word_len..];
    let kind = match word {
        "kernel" | "grid" | "block" | "arg" | "seed" | "mode" | "shared" | "symbol" => word,
        _ => {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, word_span, format!("unknown directive `@{word}`"))
                    .label("not a warpdbg directive")
                    .hint(format!("the directives are {KNOWN}")),
            );
            return None;
        }
    };
    parse_body(kind, rest, line.span.file, rest_off, word_span, diags).map(|k| Directive { kind: k, span: line.span })
}

/// Parses a directive's (or flag's) text after its keyword.
pub fn parse_body(
    word: &str,
    rest: &str,
    file: FileId,
    base: usize,
    at: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<DirectiveKind> {
    if word == "mode" {
        return match Mode::parse(rest) {
            Some(m) => Some(DirectiveKind::Mode(m)),
            None => {
                let lead = rest.len() - rest.trim_start().len();
                let span = Span::new(file, base + lead, base + rest.trim_end().len().max(lead));
                let span = if span.start == span.end { at } else { span };
                diags.push(
                    Diagnostic::new(ErrorCode::Directive, span, format!("unknown execution model `{}`", rest.trim()))
                        .label("expected `its` or `pre-volta`"),
                );
                None
            }
        };
    }
    let lexed = lexer::lex(file, rest, base);
    if !lexed.diags.is_empty() {
        diags.extend(lexed.diags);
        return None;
    }
    let toks = lexed.tokens;
    let mut p = Parser::new(&toks, rest, base);
    let before = diags.len();
    let result = match word {
        "kernel" => match &toks[0].kind {
            TokKind::Ident(n) if toks.len() == 2 => {
                p.skip_to(1);
                Some(DirectiveKind::Kernel(ast::Ident { name: n.clone(), span: toks[0].span }))
            }
            // `@kernel reduce<512>`: an instance of a kernel template.
            TokKind::Ident(n) if toks[1].kind == TokKind::Punct(Punct::Lt) => {
                match super::template::split_args(&toks[1..]) {
                    Some((args, after)) if toks.len() == after + 2 => {
                        p.skip_to(after + 1);
                        let span = toks[0].span.to(toks[after].span);
                        Some(DirectiveKind::Kernel(ast::Ident { name: super::template::instance_name(n, &args), span }))
                    }
                    _ => {
                        diags.push(
                            Diagnostic::new(ErrorCode::Directive, toks[1].span, "malformed template arguments")
                                .label("expected `name<arg, ...>`"),
                        );
                        None
                    }
                }
            }
            _ => {
                let span = if toks.len() > 1 { toks[0].span } else { at };
                diags.push(
                    Diagnostic::new(ErrorCode::Directive, span, "`@kernel` takes one kernel name")
                        .label("expected a name"),
                );
                None
            }
        },
        "grid" | "block" => {
            let list = expr_list(&mut p, 3);
            if list.is_empty() && p.diags.is_empty() {
                diags.push(Diagnostic::new(
                    ErrorCode::Directive,
                    at,
                    format!("`@{word}` needs 1 to 3 sizes: x [y [z]]"),
                ));
            }
            let k = if word == "grid" { DirectiveKind::Grid(list) } else { DirectiveKind::Block(list) };
            Some(k)
        }
        "seed" => single_expr(&mut p).map(DirectiveKind::Seed),
        "shared" => single_expr(&mut p).map(DirectiveKind::Shared),
        "arg" => arg_spec(&toks, &mut p, diags, at),
        "symbol" => symbol_spec(&toks, &mut p, diags, at),
        _ => None,
    };
    if !p.at_end() && p.diags.is_empty() && diags.len() == before {
        let t = &toks[p_pos(&p, &toks)];
        diags.push(
            Diagnostic::new(ErrorCode::Directive, t.span, format!("unexpected {} in `@{word}`", t.kind))
                .label("extra text"),
        );
        return None;
    }
    let had_errors = !p.diags.is_empty();
    diags.extend(p.diags);
    if had_errors || diags.len() > before { None } else { result }
}

fn p_pos(p: &Parser, toks: &[Token]) -> usize {
    toks.iter().position(|t| t.span == p.current_span()).unwrap_or(toks.len() - 1)
}

fn expr_list(p: &mut Parser, max: usize) -> Vec<ast::Expr> {
    let mut out = vec![];
    while !p.at_end() && out.len() < max {
        match p.parse_expr_for_list() {
            Some(e) => out.push(e),
            None => break,
        }
        p.eat_comma();
    }
    out
}

fn single_expr(p: &mut Parser) -> Option<ast::Expr> {
    p.parse_expr_for_list()
}

/// An array's `= init`, if any: an element initialiser or a brace list (one per field of a struct element).
/// None inside when there is no `=`; None outside on a syntax error.
fn element_init(p: &mut Parser) -> Option<Option<ast::Expr>> {
    if !p.eat_punct(Punct::Assign) {
        return Some(None);
    }
    let e = if p.at_punct(Punct::LBrace) { p.parse_initializer()? } else { single_expr(p)? };
    Some(Some(e))
}

/// `name = init` (also `name=init` as on the command line), where init is an element initialiser or a brace
/// list of constants.
fn symbol_spec(toks: &[Token], p: &mut Parser, diags: &mut Vec<Diagnostic>, at: Span) -> Option<DirectiveKind> {
    match (&toks[0].kind, &toks[1].kind) {
        (TokKind::Ident(name), TokKind::Punct(Punct::Assign)) => {
            let name = ast::Ident { name: name.clone(), span: toks[0].span };
            p.skip_to(2);
            let init =
                if toks[2].kind == TokKind::Punct(Punct::LBrace) { p.parse_initializer()? } else { single_expr(p)? };
            Some(DirectiveKind::Symbol { name, init })
        }
        _ => {
            let span = if toks.len() > 1 { toks[0].span } else { at };
            diags.push(
                Diagnostic::new(ErrorCode::Directive, span, "`@symbol` needs a variable and its contents")
                    .hint("write `@symbol name = {1, 2, 3}` or `@symbol name = rand(0, 9)` for a __constant__ or __device__ variable"),
            );
            None
        }
    }
}

/// `name = value` or `name type[len] [= init]` (also `name=type[len]=init` as on the command line).
fn arg_spec(toks: &[Token], p: &mut Parser, diags: &mut Vec<Diagnostic>, at: Span) -> Option<DirectiveKind> {
    let TokKind::Ident(name) = &toks[0].kind else {
        let span = if toks.len() > 1 { toks[0].span } else { at };
        diags.push(
            Diagnostic::new(ErrorCode::Directive, span, "`@arg` needs a parameter name")
                .hint("write `@arg name = value` or `@arg name type[length] = initialiser`"),
        );
        return None;
    };
    let mut name = ast::Ident { name: name.clone(), span: toks[0].span };
    let mut i = 1;
    // `data.r`: a field of a struct parameter passed by value.
    while toks[i].kind == TokKind::Punct(Punct::Dot)
        && let TokKind::Ident(field) = &toks[i + 1].kind
    {
        name.name = format!("{}.{field}", name.name);
        name.span = name.span.to(toks[i + 1].span);
        i += 2;
    }
    let is_type_start = |t: &TokKind| {
        matches!(
            t,
            TokKind::Kw(
                Kw::Int
                    | Kw::Unsigned
                    | Kw::Float
                    | Kw::Bool
                    | Kw::Char
                    | Kw::Signed
                    | Kw::Double
                    | Kw::Short
                    | Kw::Long
            )
        ) || matches!(t, TokKind::Ident(n) if fixed_width(n).is_some())
    };
    if toks[i].kind == TokKind::Punct(Punct::Assign) && !is_type_start(&toks[i + 1].kind) {
        p.skip_to(i + 1);
        let e = single_expr(p)?;
        return Some(DirectiveKind::Arg { name, spec: ArgSpec::Scalar(e) });
    }
    if toks[i].kind == TokKind::Punct(Punct::Assign) {
        i += 1;
    }
    // `struct naiveStruct[n]`: the keyword adds nothing.
    if toks[i].kind == TokKind::Kw(Kw::Struct) {
        i += 1;
    }
    // A struct or vector element type: `naiveStruct[n]`, `float4[n]` (its fields, one after another).
    if let TokKind::Ident(n) = &toks[i].kind
        && fixed_width(n).is_none()
        && toks[i + 1].kind == TokKind::Punct(Punct::LBracket)
    {
        let elem_span = toks[i].span;
        p.skip_to(i + 2);
        let len = single_expr(p)?;
        if !p.expect_punct(Punct::RBracket) {
            return None;
        }
        // `= i` counts fields; `= {i, 0, 1, 2 * i}` gives one initialiser per field.
        let init = element_init(p)?;
        // `cufftComplex[n]` is `float2[n]`.
        let strukt = Some(super::parser::library_vector_type(n).map_or_else(|| n.clone(), str::to_string));
        return Some(DirectiveKind::Arg {
            name,
            spec: ArgSpec::Array { elem: Scalar::U8, elem_span, len, init, strukt },
        });
    }
    // Element type: a few keywords, then `[`.
    let ty_start = i;
    while is_type_start(&toks[i].kind) {
        i += 1;
    }
    if i == ty_start {
        diags.push(
            Diagnostic::new(
                ErrorCode::Directive,
                toks[i].span,
                format!("expected `=` or an element type after `{}`, found {}", name.name, toks[i].kind),
            )
            .hint("write `@arg name = value` or `@arg name type[length] = initialiser`"),
        );
        return None;
    }
    let words: Vec<Kw> =
        toks[ty_start..i].iter().filter_map(|t| if let TokKind::Kw(k) = t.kind { Some(k) } else { None }).collect();
    let named = match &toks[ty_start].kind {
        TokKind::Ident(n) if i == ty_start + 1 => fixed_width(n),
        _ => None,
    };
    let elem_span = toks[ty_start].span.to(toks[i - 1].span);
    let unsigned = words.contains(&Kw::Unsigned);
    let longs = words.iter().filter(|&&k| k == Kw::Long).count();
    let rest: Vec<Kw> = words.iter().copied().filter(|k| !matches!(k, Kw::Unsigned | Kw::Signed | Kw::Long)).collect();
    let elem = match (named, rest.as_slice()) {
        (Some(s), _) => s,
        (None, [] | [Kw::Int]) if longs > 0 => {
            if unsigned {
                Scalar::U64
            } else {
                Scalar::I64
            }
        }
        (None, [Kw::Short] | [Kw::Short, Kw::Int]) if longs == 0 => {
            if unsigned {
                Scalar::U16
            } else {
                Scalar::I16
            }
        }
        (None, [] | [Kw::Int]) if unsigned => Scalar::U32,
        (None, [Kw::Int]) => Scalar::I32,
        (None, []) if words.contains(&Kw::Signed) => Scalar::I32,
        (None, [Kw::Float]) if words.len() == 1 => Scalar::F32,
        (None, [Kw::Double]) if words.len() == 1 => Scalar::F64,
        (None, [Kw::Bool]) if words.len() == 1 => Scalar::Bool,
        (None, [Kw::Char]) if longs == 0 => {
            if unsigned {
                Scalar::U8
            } else {
                Scalar::I8
            }
        }
        _ => {
            diags.push(Diagnostic::new(ErrorCode::Directive, elem_span, "unknown element type").hint(
                "use int, unsigned int, float, double, bool, char, short, long long (signed or unsigned) or size_t",
            ));
            return None;
        }
    };
    if toks[i].kind != TokKind::Punct(Punct::LBracket) {
        diags.push(
            Diagnostic::new(
                ErrorCode::Directive,
                toks[i].span,
                format!("expected `[length]` after the element type, found {}", toks[i].kind),
            )
            .hint(format!("for example `@arg {} {}[1024] = 0`", name.name, elem.name())),
        );
        return None;
    }
    p.skip_to(i + 1);
    let len = single_expr(p)?;
    if !p.expect_punct(Punct::RBracket) {
        return None;
    }
    let init = element_init(p)?;
    Some(DirectiveKind::Arg { name, spec: ArgSpec::Array { elem, elem_span, len, init, strukt: None } })
}

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
    // Overrides are parsed from their own texts and replace the file's directives of the same kind.
    let mut all: Vec<Directive> = directives.to_vec();
    let mut add_override =
        |flag: &str, word: &str, text: &str, diags: &mut Vec<Diagnostic>, all: &mut Vec<Directive>| {
            let file = sources.add(super::source::SourceFile::new(format!("{flag} {text}"), text.to_string()));
            let span = Span::new(file, 0, text.len());
            if let Some(kind) = parse_body(word, text, file, 0, span, diags) {
                // An override removes what it replaces.
                all.retain(|d| !same_target(&d.kind, &kind));
                all.push(Directive { kind, span });
            }
        };
    if let Some(k) = &overrides.kernel {
        add_override("--kernel", "kernel", k, &mut diags, &mut all);
    }
    if let Some(g) = &overrides.grid {
        add_override("--grid", "grid", g, &mut diags, &mut all);
    }
    if let Some(b) = &overrides.block {
        add_override("--block", "block", b, &mut diags, &mut all);
    }
    if let Some(s) = &overrides.seed {
        add_override("--seed", "seed", s, &mut diags, &mut all);
    }
    if let Some(s) = &overrides.shared {
        add_override("--shared", "shared", s, &mut diags, &mut all);
    }
    for a in &overrides.args {
        add_override("--arg", "arg", a, &mut diags, &mut all);
    }
    for a in &overrides.symbols {
        add_override("--symbol", "symbol", a, &mut diags, &mut all);
    }
    if let Some(m) = overrides.mode {
        all.retain(|d| !matches!(d.kind, DirectiveKind::Mode(_)));
        all.push(Directive { kind: DirectiveKind::Mode(m), span: file_span });
    }

    // Each of kernel/grid/block/seed/mode at most once.
    let mut firsts: HashMap<&'static str, Span> = HashMap::new();
    for d in &all {
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

    // The kernel.
    let kernel_dir =
        all.iter().find_map(|d| if let DirectiveKind::Kernel(k) = &d.kind { Some(k.clone()) } else { None });
    let kernels: Vec<_> = program.kernels().collect();
    let kernel = match &kernel_dir {
        Some(k) => match kernels.iter().find(|(_, f)| f.name == k.name) {
            Some(&(id, _)) => Some(id),
            // A kernel set aside for an unsupported construct: that construct is why it cannot run.
            None if let Some(u) =
                program.unavailable.iter().find(|u| u.kind == super::ast::ItemKind::Kernel && u.name == k.name) =>
            {
                diags.push(u.diag.clone().with_secondary(k.span, "launched here"));
                None
            }
            None => {
                let names: Vec<_> = kernels.iter().map(|(_, f)| format!("`{}`", f.name)).collect();
                let mut d =
                    Diagnostic::new(ErrorCode::Directive, k.span, format!("no __global__ function named `{}`", k.name))
                        .label("unknown kernel");
                if let Some((_, header, _)) = program.templates.iter().find(|(n, _, kernel)| *kernel && *n == k.name) {
                    d = d.hint(format!(
                        "`{}` is a kernel template ({header}): name its arguments, e.g. `// @kernel {}<...>`",
                        k.name, k.name
                    ));
                } else if !names.is_empty() {
                    d = d.hint(format!("this file's kernels: {}", names.join(", ")));
                }
                if !partial {
                    diags.push(d);
                }
                None
            }
        },
        None if kernels.len() == 1 => Some(kernels[0].0),
        // Every kernel was set aside for an unsupported construct: those constructs are why none can run.
        None if kernels.is_empty() && program.unavailable.iter().any(|u| u.kind == super::ast::ItemKind::Kernel) => {
            let set_aside = program.unavailable.iter().filter(|u| u.kind == super::ast::ItemKind::Kernel);
            diags.extend(set_aside.map(|u| u.diag.clone()));
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
    };
    let Some(kernel) = kernel else { return Err(diags) };
    let func = program.function(kernel);
    let params: Vec<_> = func.params.iter().map(|&p| &func.locals[p.0 as usize]).collect();
    // A parameter whose type was already reported (unknown, or set aside as unavailable): its arguments
    // cannot be checked against it.
    if params.iter().any(|p| mentions_error(&p.ty)) {
        return Err(diags);
    }

    // Arguments: match them with parameters.
    let mut by_name: HashMap<&str, &Directive> = HashMap::new();
    for d in &all {
        let DirectiveKind::Arg { name, .. } = &d.kind else { continue };
        if let Some(prev) = by_name.insert(&name.name, d) {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, name.span, format!("`@arg {}` is given twice", name.name))
                    .label("second one")
                    .with_secondary(prev.span, "first one"),
            );
        }
        if !params.iter().any(|p| p.name == name.name) {
            let list: Vec<_> = params.iter().map(|p| p.name.as_str()).collect();
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is not a parameter of `{}`", name.name, func.name),
                )
                .label("unknown parameter")
                .hint(if list.is_empty() {
                    "this kernel takes no parameters".to_string()
                } else {
                    format!("its parameters: {}", list.join(", "))
                }),
            );
        }
    }
    // Scalars first: lengths and sizes may name them. A scalar parameter whose value is missing or wrong (and
    // so already reported) is known by name but has no value: sizes that use it are not reported again.
    let mut env: HashMap<String, Option<Value>> = HashMap::new();
    let mut args: Vec<Option<LaunchArg>> = vec![None; params.len()];
    for (pi, p) in params.iter().enumerate() {
        if !p.ty.is_ptr() {
            env.insert(p.name.clone(), None);
        }
        let Some(d) = by_name.get(p.name.as_str()) else {
            let example = if p.ty.is_ptr() {
                format!("// @arg {} {}[1024] = 0", p.name, p.ty.pointee().map_or("int".to_string(), |t| t.to_string()))
            } else {
                format!("// @arg {} = 0", p.name)
            };
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    p.span,
                    format!("parameter `{}` has no `@arg` directive", p.name),
                )
                .label("needs a value for the launch")
                .hint(format!("add a line like `{example}`")),
            );
            continue;
        };
        let DirectiveKind::Arg { spec: ArgSpec::Scalar(e), name } = &d.kind else { continue };
        let Type::Scalar(s) = p.ty else {
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is a pointer: it needs an array", p.name),
                )
                .hint(format!(
                    "write `@arg {} {}[length] = initialiser`",
                    p.name,
                    p.ty.pointee().map_or("int".into(), |t| t.to_string())
                )),
            );
            continue;
        };
        let Some(v) = const_eval(e, &HashMap::new(), &mut diags) else { continue };
        if s.is_integer() && matches!(v, Value::Float(_)) {
            diags.push(Diagnostic::new(
                ErrorCode::Directive,
                e.span,
                format!("`{}` is an integer parameter; this value is not an integer", p.name),
            ));
            continue;
        }
        env.insert(p.name.clone(), Some(v));
        args[pi] = Some(LaunchArg {
            name: p.name.clone(),
            value: ArgValue::Scalar { ty: s, bits: v.to_bits(s) },
            global: false,
        });
    }
    for (pi, p) in params.iter().enumerate() {
        let Some(d) = by_name.get(p.name.as_str()) else { continue };
        let DirectiveKind::Arg { spec: ArgSpec::Array { elem, elem_span, len, init, strukt }, name } = &d.kind else {
            continue;
        };
        // A struct element: its fields are the array's elements, so they must share one scalar type.
        let mut per_elem = 1u64;
        let mut elem = *elem;
        // A struct whose fields differ in type is its bytes: (offset, type) of each scalar field, for a
        // per-field initialiser.
        let mut byte_fields: Option<Vec<(u32, Scalar)>> = None;
        if let (Some(sname), Some(Type::Struct(def))) = (strukt, p.ty.pointee()) {
            // Array fields count element by element (`float a[4]` is four floats).
            let scalars: Vec<Option<(Scalar, u32)>> = def.fields.iter().map(|f| leaf_scalars(&f.ty)).collect();
            let count: u32 = scalars.iter().map(|s| s.map_or(0, |(_, n)| n)).sum();
            match scalars.first().copied().flatten() {
                // A cuRAND state array starts as bytes (zero, or a value per byte): `curand_init` fills it.
                // (Any of its names: `curandState_t[n]` for a `curandState *`.)
                _ if crate::front::typeck::is_curand_state(&Type::Struct(def.clone()))
                    && crate::front::typeck::vector_type(sname).is_some_and(|d| d.name == def.name) =>
                {
                    elem = Scalar::U8;
                    per_elem = def.size as u64;
                }
                Some((s0, _))
                    if def.name == *sname
                        && scalars.iter().all(|s| s.is_some_and(|(s, _)| s == s0))
                        && def.size == s0.size() * count =>
                {
                    elem = s0;
                    per_elem = count as u64;
                }
                _ if def.name != *sname => {}
                // Fields of different types (or pointers): the array is bytes, each given by the initialiser
                // (`= 0`), or each field by its own (`= {i, 0.5f, 0}`).
                _ => match struct_scalar_fields(def) {
                    Some(fields) => {
                        elem = Scalar::U8;
                        per_elem = def.size as u64;
                        byte_fields = Some(fields);
                    }
                    None => {
                        diags.push(
                            Diagnostic::unsupported(*elem_span, format!("`@arg` arrays of `{sname}`"))
                                .hint("give the kernel a pointer to one field type"),
                        );
                        continue;
                    }
                },
            }
        }
        // `int **rows`: the launch would need an array of device pointers, each to its own array.
        if let Type::Ptr { elem: pe, .. } = &p.ty
            && matches!(**pe, Type::Ptr { .. })
        {
            diags.push(
                Diagnostic::unsupported(
                    p.span,
                    format!("`@arg` for a pointer to pointers (`{} {}`): an array of device pointers", p.ty, p.name),
                )
                .label("a pointer to pointers")
                .hint("give the kernel one flat array and index it as rows (`a[row * width + col]`)"),
            );
            continue;
        }
        let pointee = match &p.ty {
            Type::Ptr { elem: pe, .. } if per_elem > 1 || matches!(**pe, Type::Struct(_)) => {
                (per_elem > 1).then_some(elem)
            }
            Type::Ptr { elem, .. } => elem.scalar(),
            _ => {
                diags.push(
                    Diagnostic::new(
                        ErrorCode::Directive,
                        name.span,
                        format!("`{}` is a scalar `{}`: it takes a value, not an array", p.name, p.ty),
                    )
                    .hint(format!("write `@arg {} = value`", p.name)),
                );
                continue;
            }
        };
        if pointee != Some(elem) {
            let written = strukt.clone().unwrap_or_else(|| elem.name().to_string());
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    *elem_span,
                    format!("element type `{written}` does not match the parameter `{} {}`", p.ty, p.name),
                )
                .label("differs from the kernel's parameter")
                .with_secondary(p.span, "parameter declared here"),
            );
            continue;
        }
        let Some(n) = const_eval(len, &env, &mut diags) else { continue };
        let n = match n {
            Value::Int(n) if n >= 1 => n as u64,
            _ => {
                diags.push(Diagnostic::new(
                    ErrorCode::Directive,
                    len.span,
                    format!("array length must be a positive integer, found {}", show(n)),
                ));
                continue;
            }
        };
        let init = match init {
            // One initialiser per field of a struct or vector element.
            Some(e @ ast::Expr { kind: ast::ExprKind::InitList(items), .. }) => {
                let fields = byte_fields.as_ref().map_or(per_elem, |f| f.len() as u64);
                if strukt.is_none() || items.len() as u64 != fields {
                    let what = match strukt {
                        Some(s) => format!("`{s}` has {fields} scalar fields; the list gives {}", items.len()),
                        None => "a brace list initialises the fields of a struct or vector element".to_string(),
                    };
                    diags.push(
                        Diagnostic::new(ErrorCode::Directive, e.span, what)
                            .hint("give one initialiser per field, in order (`float4[n] = {i, 0, 1, rand(0, 9)}`), or one for all (`= i` counts fields)"),
                    );
                    continue;
                }
                let inits: Option<Vec<InitExpr>> = items.iter().map(|f| init_expr(f, &mut diags)).collect();
                match (inits, &byte_fields) {
                    (Some(f), Some(layout)) => InitExpr::Bytes {
                        size: per_elem as u32,
                        fields: layout.iter().zip(f).map(|(&(off, ty), e)| (off, ty, e)).collect(),
                    },
                    (Some(f), None) => InitExpr::Fields(f),
                    (None, _) => continue,
                }
            }
            Some(e) => match init_expr(e, &mut diags) {
                Some(ie) => ie,
                None => continue,
            },
            None => InitExpr::Const(Value::Int(0)),
        };
        args[pi] = Some(LaunchArg {
            name: p.name.clone(),
            value: ArgValue::Array { elem, len: n * per_elem, init },
            global: false,
        });
    }

    let dims = |which: &str, diags: &mut Vec<Diagnostic>| -> Dim3 {
        let Some(d) = all.iter().find(|d| {
            matches!((&d.kind, which), (DirectiveKind::Grid(_), "grid") | (DirectiveKind::Block(_), "block"))
        }) else {
            return if which == "grid" { Dim3::ONE } else { Dim3::new(32, 1, 1) };
        };
        let (DirectiveKind::Grid(list) | DirectiveKind::Block(list)) = &d.kind else { unreachable!() };
        let mut v = [1u32; 3];
        for (i, e) in list.iter().enumerate() {
            let Some(x) = const_eval(e, &env, diags) else { continue };
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
    };
    let grid = dims("grid", &mut diags);
    let block = dims("block", &mut diags);
    let seed = match all.iter().find_map(|d| if let DirectiveKind::Seed(e) = &d.kind { Some(e) } else { None }) {
        Some(e) => match const_eval(e, &env, &mut diags) {
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
        },
        None => 0,
    };
    let mode =
        all.iter().find_map(|d| if let DirectiveKind::Mode(m) = d.kind { Some(m) } else { None }).unwrap_or_default();
    let dynamic_shared = match all
        .iter()
        .find_map(|d| if let DirectiveKind::Shared(e) = &d.kind { Some(e) } else { None })
    {
        Some(e) => match const_eval(e, &env, &mut diags) {
            Some(Value::Int(n)) if (0..=MAX_DYNAMIC_SHARED).contains(&n) => n as u32,
            Some(v) => {
                diags.push(
                    Diagnostic::new(
                        ErrorCode::Directive,
                        e.span,
                        format!("dynamic shared memory must be 0 to {MAX_DYNAMIC_SHARED} bytes, found {}", show(v)),
                    )
                    .label("out of range")
                    .hint("an H100 block has at most 227 KiB of shared memory (past 48 KiB, CUDA needs cudaFuncSetAttribute)"),
                );
                0
            }
            None => 0,
        },
        None => 0,
    };
    let symbols = symbols(program, &all, &mut diags);
    if !diags.is_empty() {
        return Err(diags);
    }
    let args = args.into_iter().map(|a| a.expect("every parameter resolved or diagnosed")).collect();
    Ok(Launch { kernel: func.name.clone(), grid, block, args, seed, mode, dynamic_shared, symbols })
}

/// The `@symbol` contents of `__constant__` and `__device__` variables, by variable name.
fn symbols(program: &Program, all: &[Directive], diags: &mut Vec<Diagnostic>) -> Vec<(String, InitExpr)> {
    use super::tast::GlobalSpace;
    let mut out: Vec<(String, InitExpr)> = vec![];
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for d in all {
        let DirectiveKind::Symbol { name, init } = &d.kind else { continue };
        if let Some(prev) = seen.insert(&name.name, name.span) {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, name.span, format!("`@symbol {}` is given twice", name.name))
                    .label("second one")
                    .with_secondary(prev, "first one"),
            );
            continue;
        }
        let Some(g) = program
            .globals
            .iter()
            .find(|g| g.name == name.name && matches!(g.space, GlobalSpace::Constant | GlobalSpace::Device))
        else {
            let names: Vec<_> = program
                .globals
                .iter()
                .filter(|g| matches!(g.space, GlobalSpace::Constant | GlobalSpace::Device))
                .map(|g| format!("`{}`", g.name))
                .collect();
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is not a __constant__ or __device__ variable of this file", name.name),
                )
                .label("unknown symbol")
                .hint(if names.is_empty() {
                    "this file declares no __constant__ or __device__ variables".to_string()
                } else {
                    format!("its variables: {}", names.join(", "))
                }),
            );
            continue;
        };
        let ie = if let A::InitList(items) = &init.kind {
            let mut values = vec![];
            let mut ok = true;
            flatten_consts(items, &mut values, &mut ok, diags);
            if !ok {
                continue;
            }
            if values.len() as u64 > g.len() {
                diags.push(
                    Diagnostic::new(
                        ErrorCode::Directive,
                        init.span,
                        format!("{} values for `{}`, which holds {}", values.len(), g.name, g.len()),
                    )
                    .label("too many values"),
                );
                continue;
            }
            if g.elem.is_integer() && values.iter().any(|v| matches!(v, Value::Float(_))) {
                diags.push(Diagnostic::new(
                    ErrorCode::Directive,
                    init.span,
                    format!("`{}` holds integers; these values are not all integers", g.name),
                ));
                continue;
            }
            InitExpr::List(values)
        } else {
            match init_expr(init, diags) {
                Some(ie) => ie,
                None => continue,
            }
        };
        out.push((g.name.clone(), ie));
    }
    out
}

/// The constants of a (nested) brace list, in order.
fn flatten_consts(items: &[ast::Expr], out: &mut Vec<Value>, ok: &mut bool, diags: &mut Vec<Diagnostic>) {
    for e in items {
        if let A::InitList(inner) = &e.kind {
            flatten_consts(inner, out, ok, diags);
        } else {
            match const_eval(e, &HashMap::new(), diags) {
                Some(v) => out.push(v),
                None => *ok = false,
            }
        }
    }
}

fn same_target(a: &DirectiveKind, b: &DirectiveKind) -> bool {
    match (a, b) {
        (DirectiveKind::Arg { name: x, .. }, DirectiveKind::Arg { name: y, .. })
        | (DirectiveKind::Symbol { name: x, .. }, DirectiveKind::Symbol { name: y, .. }) => x.name == y.name,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

fn show(v: Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f}"),
    }
}

/// Evaluates a size or scalar expression; names refer to scalar arguments in `env`.
fn const_eval(e: &ast::Expr, env: &HashMap<String, Option<Value>>, diags: &mut Vec<Diagnostic>) -> Option<Value> {
    let ie = lower_init(e, Some(env), diags)?;
    if let Some(d) = find_div_zero(&ie, e.span) {
        diags.push(d);
        return None;
    }
    Some(ie.eval(0, 0, 0))
}

fn find_div_zero(e: &InitExpr, span: Span) -> Option<Diagnostic> {
    match e {
        InitExpr::Binary(InitOp::Div | InitOp::Rem, a, b) => {
            if b.is_uniform() && b.eval(0, 0, 0) == Value::Int(0) {
                return Some(
                    Diagnostic::new(ErrorCode::Directive, span, "division by zero in a directive")
                        .label("divides by zero"),
                );
            }
            find_div_zero(a, span).or_else(|| find_div_zero(b, span))
        }
        InitExpr::Binary(_, a, b) | InitExpr::Rand(a, b) => find_div_zero(a, span).or_else(|| find_div_zero(b, span)),
        InitExpr::Neg(a) | InitExpr::BitNot(a) => find_div_zero(a, span),
        InitExpr::Fields(fields) => fields.iter().find_map(|f| find_div_zero(f, span)),
        InitExpr::Bytes { fields, .. } => fields.iter().find_map(|(_, _, f)| find_div_zero(f, span)),
        InitExpr::Const(_) | InitExpr::Index | InitExpr::List(_) => None,
    }
}

/// An element initialiser: may use `i` and `rand(lo, hi)`.
fn init_expr(e: &ast::Expr, diags: &mut Vec<Diagnostic>) -> Option<InitExpr> {
    let ie = lower_init(e, None, diags)?;
    if let Some(d) = find_div_zero(&ie, e.span) {
        diags.push(d);
        return None;
    }
    Some(ie)
}

/// Directive expressions: with `env` (sizes), names are scalar args; without (initialisers), `i` and `rand`.
fn lower_init(
    e: &ast::Expr,
    env: Option<&HashMap<String, Option<Value>>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<InitExpr> {
    let span = e.span;
    let bad = |diags: &mut Vec<Diagnostic>, what: &str| {
        diags.push(
            Diagnostic::new(ErrorCode::Directive, span, format!("{what} is not allowed in a directive"))
                .hint("directive expressions use numbers, + - * / % << >> & | ^ ~ ( ), `i` and rand(lo, hi) in initialisers, and scalar @arg names in sizes"),
        );
        None
    };
    Some(match &e.kind {
        A::Int { value, .. } => InitExpr::Const(Value::Int(*value as i64)),
        A::Float { value, .. } => InitExpr::Const(Value::Float(*value)),
        A::Bool(b) => InitExpr::Const(Value::Int(*b as i64)),
        A::Char(c) => InitExpr::Const(Value::Int(*c as i64)),
        A::Name(n) => match env {
            None if n == "i" => InitExpr::Index,
            None => {
                diags.push(
                    Diagnostic::new(ErrorCode::Directive, span, format!("unknown name `{n}` in an initialiser"))
                        .label("only `i`, the element index, is known here"),
                );
                return None;
            }
            Some(env) => match env.get(n) {
                Some(Some(v)) => InitExpr::Const(*v),
                Some(None) => return None,
                None => {
                    diags.push(
                        Diagnostic::new(ErrorCode::Directive, span, format!("unknown name `{n}` in a size"))
                            .label("not a scalar @arg")
                            .hint("sizes may use numbers and the names of scalar `@arg`s"),
                    );
                    return None;
                }
            },
        },
        A::Unary(UnaryOp::Neg, a) => InitExpr::Neg(Box::new(lower_init(a, env, diags)?)),
        A::Unary(UnaryOp::Plus, a) => lower_init(a, env, diags)?,
        A::Unary(UnaryOp::BitNot, a) => InitExpr::BitNot(Box::new(lower_init(a, env, diags)?)),
        A::Binary(op, a, b) => {
            let op = match op {
                BinaryOp::Add => InitOp::Add,
                BinaryOp::Sub => InitOp::Sub,
                BinaryOp::Mul => InitOp::Mul,
                BinaryOp::Div => InitOp::Div,
                BinaryOp::Rem => InitOp::Rem,
                BinaryOp::Shl => InitOp::Shl,
                BinaryOp::Shr => InitOp::Shr,
                BinaryOp::BitAnd => InitOp::And,
                BinaryOp::BitOr => InitOp::Or,
                BinaryOp::BitXor => InitOp::Xor,
                _ => return bad(diags, &format!("`{}`", op.symbol())),
            };
            InitExpr::Binary(op, Box::new(lower_init(a, env, diags)?), Box::new(lower_init(b, env, diags)?))
        }
        A::Call(name, args) if name.name == "rand" && env.is_none() => {
            if args.len() != 2 {
                diags.push(Diagnostic::new(ErrorCode::Directive, span, "`rand` takes two arguments: rand(lo, hi)"));
                return None;
            }
            InitExpr::Rand(Box::new(lower_init(&args[0], env, diags)?), Box::new(lower_init(&args[1], env, diags)?))
        }
        A::Call(name, _) => return bad(diags, &format!("calling `{}`", name.name)),
        _ => return bad(diags, "this kind of expression"),
    })
}

/// The execution model a file's `// @mode` line asks for, read before the file is preprocessed (its
/// `__CUDA_ARCH__` depends on it); the full check of the line happens with the other directives.
pub fn mode_of(lines: &[DirectiveLine]) -> Option<Mode> {
    lines.iter().rev().find_map(|l| l.text.strip_prefix("@mode").and_then(Mode::parse))
}

/// The `<stdint.h>` and `<stddef.h>` names an `@arg` element type may use.
fn fixed_width(name: &str) -> Option<Scalar> {
    Some(match name {
        "int8_t" => Scalar::I8,
        "uint8_t" => Scalar::U8,
        "int16_t" => Scalar::I16,
        "uint16_t" => Scalar::U16,
        "int32_t" => Scalar::I32,
        "uint32_t" | "uint" => Scalar::U32,
        "int64_t" | "ptrdiff_t" => Scalar::I64,
        "uint64_t" | "size_t" => Scalar::U64,
        _ => return None,
    })
}

/// Replaces an `@arg` element type that names one of the file's typedefs of a number (`typedef float real;`)
/// by that number type.
pub fn resolve_typedef_elements(
    directives: &mut [Directive],
    typedefs: &std::collections::HashMap<String, ast::TypeSpec>,
) {
    for d in directives {
        let DirectiveKind::Arg { spec: ArgSpec::Array { elem, strukt, .. }, .. } = &mut d.kind else { continue };
        let Some(t) = strukt.as_ref().and_then(|n| typedefs.get(n)) else { continue };
        if t.pointers != 0 {
            continue;
        }
        if let Some(named) = &t.named {
            *strukt = Some(named.clone());
            continue;
        }
        let s = match t.base {
            ast::BaseType::Bool => Scalar::Bool,
            ast::BaseType::Char | ast::BaseType::SChar => Scalar::I8,
            ast::BaseType::UChar => Scalar::U8,
            ast::BaseType::Short => Scalar::I16,
            ast::BaseType::UShort => Scalar::U16,
            ast::BaseType::Int => Scalar::I32,
            ast::BaseType::UInt => Scalar::U32,
            ast::BaseType::Long => Scalar::I64,
            ast::BaseType::ULong => Scalar::U64,
            ast::BaseType::Float => Scalar::F32,
            ast::BaseType::Double => Scalar::F64,
            ast::BaseType::Void => continue,
        };
        *elem = s;
        *strukt = None;
    }
}

/// A field's scalar type and how many of it the field holds (an array's elements, recursively); None for a
/// struct or pointer field.
/// Offset and type of each scalar field of `def` in layout order (array fields element by element, pointers as
/// 64-bit integers); None when a field is a struct.
fn struct_scalar_fields(def: &crate::front::types::StructDef) -> Option<Vec<(u32, Scalar)>> {
    let mut out = vec![];
    for f in &def.fields {
        let (ty, n) = match &f.ty {
            Type::Array(e, n) => (&**e, *n),
            t => (t, 1),
        };
        let s = match ty {
            Type::Ptr { .. } => Scalar::U64,
            t => t.scalar()?,
        };
        out.extend((0..n).map(|k| (f.offset + k * s.size(), s)));
    }
    Some(out)
}

fn leaf_scalars(ty: &Type) -> Option<(Scalar, u32)> {
    match ty {
        Type::Array(inner, n) => leaf_scalars(inner).map(|(s, k)| (s, k.saturating_mul(*n))),
        _ => ty.scalar().map(|s| (s, 1)),
    }
}

fn mentions_error(ty: &Type) -> bool {
    match ty {
        Type::Error => true,
        Type::Ptr { elem, .. } | Type::Array(elem, _) => mentions_error(elem),
        _ => false,
    }
}
