//! Reading directive lines into [`Directive`]s with the kernel language's expression parser.

use super::syntax::{ArgSpec, Directive, DirectiveKind};
use crate::front::ast;
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::launch::Mode;
use crate::front::lexer::{self, DirectiveLine};
use crate::front::parser::Parser;
use crate::front::source::{FileId, Span};
use crate::front::token::{Kw, Punct, TokKind, Token};
use crate::front::types::Scalar;

const KNOWN: &str = "@kernel, @grid, @block, @arg, @seed, @mode, @shared, @symbol";

/// The execution model a file's `// @mode` line asks for, read before the file is preprocessed (its
/// `__CUDA_ARCH__` depends on it); the full check of the line happens with the other directives.
pub fn mode_of(lines: &[DirectiveLine]) -> Option<Mode> {
    lines.iter().rev().find_map(|l| l.text.strip_prefix("@mode").and_then(Mode::parse))
}

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
                match crate::front::template::split_args(&toks[1..]) {
                    Some((args, after)) if toks.len() == after + 2 => {
                        p.skip_to(after + 1);
                        let span = toks[0].span.to(toks[after].span);
                        Some(DirectiveKind::Kernel(ast::Ident {
                            name: crate::front::template::instance_name(n, &args),
                            span,
                        }))
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

pub(super) fn p_pos(p: &Parser, toks: &[Token]) -> usize {
    toks.iter().position(|t| t.span == p.current_span()).unwrap_or(toks.len() - 1)
}

pub(super) fn expr_list(p: &mut Parser, max: usize) -> Vec<ast::Expr> {
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

pub(super) fn single_expr(p: &mut Parser) -> Option<ast::Expr> {
    p.parse_expr_for_list()
}

/// An array's `= init`, if any: an element initialiser or a brace list (one per field of a struct element).
/// None inside when there is no `=`; None outside on a syntax error.
pub(super) fn element_init(p: &mut Parser) -> Option<Option<ast::Expr>> {
    if !p.eat_punct(Punct::Assign) {
        return Some(None);
    }
    let e = if p.at_punct(Punct::LBrace) { p.parse_initializer()? } else { single_expr(p)? };
    Some(Some(e))
}

/// `name = init` (also `name=init` as on the command line), where init is an element initialiser or a brace
/// list of constants.
pub(super) fn symbol_spec(
    toks: &[Token],
    p: &mut Parser,
    diags: &mut Vec<Diagnostic>,
    at: Span,
) -> Option<DirectiveKind> {
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
pub(super) fn arg_spec(toks: &[Token], p: &mut Parser, diags: &mut Vec<Diagnostic>, at: Span) -> Option<DirectiveKind> {
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
        let strukt = Some(crate::front::parser::library_vector_type(n).map_or_else(|| n.clone(), str::to_string));
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

/// The `<stdint.h>` and `<stddef.h>` names an `@arg` element type may use.
pub(super) fn fixed_width(name: &str) -> Option<Scalar> {
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
