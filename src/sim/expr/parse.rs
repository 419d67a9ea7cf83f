//! Reading an expression: the front end's lexer and parser (so it is CUDA's own grammar), then a check
//! against the kernel that every name is one of its variables, shared arrays or the built-ins, and that
//! nothing would change the program. Errors are diagnostics with a caret, like a kernel's.

use crate::front::ast::{Expr, ExprKind as E};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::lexer::lex;
use crate::front::parser::Parser;
use crate::front::source::{SourceFile, SourceMap, Span};
use crate::ir::Kernel;

/// The name expression diagnostics give their text (`print:1:5`).
pub const EXPR_FILE: &str = "print";

/// The built-in names an expression may use besides the kernel's own.
pub const BUILTINS: [&str; 5] = ["threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"];

/// An expression that does not parse or names what the kernel does not have (`print:1:COL`).
pub type ExprError = crate::front::diagnostic::InputError;

/// Parses `text` as one CUDA expression and checks it against `kernel`.
pub(super) fn parse(text: &str, kernel: &Kernel) -> Result<Expr, ExprError> {
    let mut sources = SourceMap::default();
    let file = sources.add(SourceFile::new(EXPR_FILE, text.to_string()));
    let fail = |sources, d: Diagnostic| Err(ExprError { sources, diags: vec![d] });
    let lexed = lex(file, text, 0);
    if let Some(d) = lexed.diags.into_iter().next() {
        return fail(sources, d);
    }
    if !lexed.pp_lines.is_empty() || !lexed.directives.is_empty() {
        let d = Diagnostic::new(ErrorCode::Syntax, Span::new(file, 0, text.len()), "expected an expression");
        return fail(sources, d);
    }
    let mut p = Parser::new(&lexed.tokens, text, 0);
    let parsed = p.parse_expr_for_list();
    if let Some(d) = p.diags.first() {
        return fail(sources, d.clone());
    }
    let Some(e) = parsed else {
        let d = Diagnostic::new(ErrorCode::Syntax, Span::new(file, 0, text.len()), "expected an expression");
        return fail(sources, d);
    };
    if !p.at_end() {
        let at = p.current_span();
        let d = Diagnostic::new(ErrorCode::Syntax, at, "expected the end of the expression")
            .label("one expression only: print several with several `--print`s");
        return fail(sources, d);
    }
    match check(&e, kernel) {
        Ok(()) => Ok(e),
        Err(d) => fail(sources, d),
    }
}

/// Every name is the kernel's or a built-in; nothing assigns, increments or calls.
fn check(e: &Expr, kernel: &Kernel) -> Result<(), Diagnostic> {
    let refuse = |what: &str, label: &str| {
        Err(Diagnostic::new(ErrorCode::Unsupported, e.span, what.to_string()).label(label.to_string()))
    };
    let sub = |x: &Expr| check(x, kernel);
    match &e.kind {
        E::Int { .. } | E::Float { .. } | E::Bool(_) | E::Char(_) | E::SizeofType(_) => Ok(()),
        E::Name(n) => known(n, e.span, kernel),
        E::Member(obj, _) => sub(obj),
        E::Index(a, b) => sub(a).and(sub(b)),
        E::Unary(_, a) | E::Cast(_, a) | E::SizeofExpr(a) => sub(a),
        E::Binary { left, right, .. } => sub(left).and(sub(right)),
        E::Ternary { cond, then, els } => sub(cond).and(sub(then)).and(sub(els)),
        E::Assign { .. } | E::IncDec { .. } => {
            refuse("an expression to print cannot change the program", "reads only: no `=`, `++` or `--`")
        }
        E::Call(..) | E::MethodCall { .. } => {
            refuse("calls are not evaluated", "the debugger reads values, it runs no code")
        }
        _ => refuse("not an expression the debugger evaluates", "variables, arrays, numbers and operators only"),
    }
}

fn known(n: &str, span: Span, kernel: &Kernel) -> Result<(), Diagnostic> {
    let names = names(kernel);
    if BUILTINS.contains(&n) || names.iter().any(|k| k == n) {
        return Ok(());
    }
    let mut shown: Vec<&str> = names.iter().map(String::as_str).collect();
    shown.truncate(12);
    Err(Diagnostic::new(ErrorCode::Name, span, format!("`{n}` is not a variable of kernel `{}`", kernel.name))
        .label("unknown name")
        .hint(format!("its names: {}; and threadIdx, blockIdx, blockDim, gridDim, warpSize", shown.join(", "))))
}

/// The kernel's variable names (a struct variable's own name too, not only `v.x`) and shared arrays, in order.
pub fn names(kernel: &Kernel) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut add = |n: &str| {
        if !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    };
    for r in &kernel.regs {
        if let Some(n) = r.name.as_deref() {
            add(n.split('.').next().unwrap_or(n));
        }
    }
    for s in &kernel.shared {
        add(&s.name);
    }
    out
}
