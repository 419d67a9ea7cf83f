//! Parsing a spec against the compiled kernel: its lines, variables (resolved to the declaration in scope at
//! the line) and `@arg` arrays, with a diagnostic at the first thing that is wrong.

use super::lexer::{Tok, describe, lex};
use super::spec::{BinOp, Breakpoint, Expr, Kind, SPEC_FILE, SpecError, Var};
use crate::compile::Compiled;
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::source::{FileId, SourceFile, SourceMap, Span};
use crate::ir::{Kernel, Pc, Ty};

struct Parser<'a> {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    kernel: &'a Kernel,
    /// The line a condition is for (variables resolve to the declaration nearest above it), or None for a
    /// mask condition (warp-level names only).
    line: Option<u32>,
}

const KINDS_HINT: &str = "a breakpoint is `line N`, `line N if COND`, `divergence`, `reconvergence`, \
                          `barrier-mismatch`, `write ARRAY[INDEX]`, or a mask condition such as `active < 16`";

impl Parser<'_> {
    fn peek(&self) -> &(Tok, Span) {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn next(&mut self) -> (Tok, Span) {
        let t = self.peek().clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if matches!(&self.peek().0, Tok::Op(o) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expected(&self, what: &str) -> Diagnostic {
        let (t, span) = self.peek().clone();
        Diagnostic::new(ErrorCode::Syntax, span, format!("expected {what}, found {}", describe(&t)))
            .label(format!("expected {what}"))
    }

    fn int(&mut self, what: &str) -> Result<(i64, Span), Diagnostic> {
        match self.peek().clone() {
            (Tok::Int(v), s) => {
                self.pos += 1;
                Ok((v, s))
            }
            _ => Err(self.expected(what)),
        }
    }

    fn end(&self) -> Result<(), Diagnostic> {
        match &self.peek().0 {
            Tok::End => Ok(()),
            _ => Err(self.expected("the end of the breakpoint")),
        }
    }

    fn expr(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.and()?;
        while self.eat_op("||") {
            e = Expr::Bin { op: BinOp::Or, left: Box::new(e), right: Box::new(self.and()?) };
        }
        Ok(e)
    }

    fn and(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.eq()?;
        while self.eat_op("&&") {
            e = Expr::Bin { op: BinOp::And, left: Box::new(e), right: Box::new(self.eq()?) };
        }
        Ok(e)
    }

    fn binary(
        &mut self,
        ops: &[(&str, BinOp)],
        next: fn(&mut Self) -> Result<Expr, Diagnostic>,
    ) -> Result<Expr, Diagnostic> {
        let mut e = next(self)?;
        'outer: loop {
            for (s, op) in ops {
                if self.eat_op(s) {
                    e = Expr::Bin { op: *op, left: Box::new(e), right: Box::new(next(self)?) };
                    continue 'outer;
                }
            }
            return Ok(e);
        }
    }

    fn eq(&mut self) -> Result<Expr, Diagnostic> {
        self.binary(&[("==", BinOp::Eq), ("!=", BinOp::Ne)], Self::rel)
    }

    fn rel(&mut self) -> Result<Expr, Diagnostic> {
        self.binary(&[("<=", BinOp::Le), (">=", BinOp::Ge), ("<", BinOp::Lt), (">", BinOp::Gt)], Self::add)
    }

    fn add(&mut self) -> Result<Expr, Diagnostic> {
        self.binary(&[("+", BinOp::Add), ("-", BinOp::Sub)], Self::mul)
    }

    fn mul(&mut self) -> Result<Expr, Diagnostic> {
        self.binary(&[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)], Self::unary)
    }

    fn unary(&mut self) -> Result<Expr, Diagnostic> {
        if self.eat_op("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat_op("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        match self.peek().clone() {
            (Tok::Int(v), _) => {
                self.pos += 1;
                Ok(Expr::Int(v))
            }
            (Tok::Name(n), span) => {
                self.pos += 1;
                self.name(&n, span).map(Expr::Var)
            }
            (Tok::Op("("), _) => {
                self.pos += 1;
                let e = self.expr()?;
                if !self.eat_op(")") {
                    return Err(self.expected("`)`"));
                }
                Ok(e)
            }
            _ => Err(self.expected("a number, a name or `(`")),
        }
    }

    /// Resolves a name: the built-ins first, then (in a line condition) the kernel's variables.
    fn name(&self, n: &str, span: Span) -> Result<Var, Diagnostic> {
        let builtin = match n {
            "tid" => Some(Var::Tid),
            "lane" => Some(Var::Lane),
            "warp" => Some(Var::Warp),
            "block" => Some(Var::Block),
            "active" => Some(Var::Active),
            _ => None,
        };
        if self.line.is_none() {
            return match builtin {
                Some(v @ (Var::Warp | Var::Block | Var::Active)) => Ok(v),
                _ => Err(Diagnostic::new(
                    ErrorCode::Name,
                    span,
                    format!("`{n}` is not a warp-level value: a mask condition can name `active`, `warp` and `block`"),
                )
                .label("not known in a mask condition")
                .hint("for a thread's values, use a conditional line breakpoint: `line N if tid == 5 && i > 3`")),
            };
        }
        if let Some(v) = builtin {
            return Ok(v);
        }
        let line = self.line.unwrap_or(0);
        let Some((reg, ty)) = variable(self.kernel, n, line) else {
            let mut names: Vec<String> = self.kernel.regs.iter().filter_map(|r| r.name.clone()).collect();
            names.sort();
            names.dedup();
            let known = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            return Err(Diagnostic::new(
                ErrorCode::Name,
                span,
                format!("unknown name `{n}` in a breakpoint condition"),
            )
            .label("not a variable of the kernel")
            .hint(format!("names: tid, lane, warp, block, active, and the kernel's variables: {known}")));
        };
        match ty {
            Ty::F32 | Ty::F64 => Err(Diagnostic::new(
                ErrorCode::Type,
                span,
                format!("`{n}` is a floating-point variable: breakpoint conditions compare integers"),
            )
            .label("a float")),
            Ty::Ptr => Err(Diagnostic::new(
                ErrorCode::Type,
                span,
                format!("`{n}` is a pointer: breakpoint conditions compare integers"),
            )
            .label("a pointer")
            .hint("to stop when an array element is written, use `write ARRAY[INDEX]`")),
            _ => Ok(Var::Reg(reg, ty)),
        }
    }
}

/// The register of the kernel variable `name` in scope at `line`: of the registers with that name, the one
/// declared nearest above the line (parameters count as declared at line 0), else the first declared.
pub fn variable(kernel: &Kernel, name: &str, line: u32) -> Option<(u32, Ty)> {
    let mut decl: Vec<(u32, u32)> = vec![];
    for (i, r) in kernel.regs.iter().enumerate() {
        if r.name.as_deref() != Some(name) {
            continue;
        }
        let first = kernel
            .instrs
            .iter()
            .position(|ins| ins.dst().is_some_and(|d| d.0 == i as u32))
            .map_or(0, |pc| kernel.line(Pc(pc as u32)));
        let is_param = kernel.params.iter().any(|p| p.reg.0 == i as u32);
        decl.push((i as u32, if is_param { 0 } else { first }));
    }
    let best = decl
        .iter()
        .filter(|(_, l)| *l <= line)
        .max_by_key(|(_, l)| *l)
        .or_else(|| decl.iter().min_by_key(|(_, l)| *l))?;
    Some((best.0, kernel.regs[best.0 as usize].ty))
}

impl Breakpoint {
    /// Parses a spec against a compiled kernel.
    pub fn parse(spec: &str, compiled: &Compiled) -> Result<Breakpoint, SpecError> {
        let mut sources = SourceMap::default();
        let file = sources.add(SourceFile::new(SPEC_FILE, spec.to_string()));
        match parse_kind(spec, file, compiled) {
            Ok(kind) => Ok(Breakpoint { spec: spec.trim().to_string(), kind }),
            Err(d) => Err(SpecError { sources, diags: vec![d] }),
        }
    }
}

fn parse_kind(spec: &str, file: FileId, compiled: &Compiled) -> Result<Kind, Diagnostic> {
    let toks = lex(spec, file)?;
    let kernel = &compiled.kernel;
    let mut p = Parser { toks, pos: 0, kernel, line: None };
    let (first, first_span) = p.peek().clone();
    let word = match &first {
        Tok::Name(n) => n.clone(),
        Tok::End => {
            return Err(Diagnostic::new(ErrorCode::Syntax, first_span, "empty breakpoint")
                .label("expected a breakpoint")
                .hint(KINDS_HINT));
        }
        _ => String::new(),
    };
    let kind = match word.as_str() {
        "line" => {
            p.next();
            let (n, span) = p.int("a line number")?;
            let src = compiled.source();
            let count = src.text.lines().count() as i64;
            if n < 1 || n > count {
                return Err(Diagnostic::new(
                    ErrorCode::Name,
                    span,
                    format!("line {n} is not in {} ({count} lines)", src.name),
                )
                .label("no such line"));
            }
            let line = n as u32;
            if !kernel.lines.contains(&line) {
                let mut code: Vec<u32> = kernel.lines.clone();
                code.sort_unstable();
                code.dedup();
                let before = code.iter().rev().find(|l| **l < line);
                let after = code.iter().find(|l| **l > line);
                let near: Vec<String> = before.iter().chain(after.iter()).map(|l| l.to_string()).collect();
                return Err(Diagnostic::new(
                    ErrorCode::Name,
                    span,
                    format!("line {line} has no code of kernel `{}`: a breakpoint there never stops", kernel.name),
                )
                .label("no instructions on this line")
                .hint(format!(
                    "lines with code nearby: {}",
                    if near.is_empty() { "none".into() } else { near.join(" and ") }
                )));
            }
            let cond = match p.peek().0.clone() {
                Tok::End => None,
                Tok::Name(w) if w == "if" => {
                    p.next();
                    p.line = Some(line);
                    let e = p.expr()?;
                    Some(e)
                }
                _ => return Err(p.expected("`if` or the end of the breakpoint")),
            };
            Kind::Line { line, cond }
        }
        "divergence" => {
            p.next();
            Kind::Divergence
        }
        "reconvergence" => {
            p.next();
            Kind::Reconvergence
        }
        "barrier-mismatch" => {
            p.next();
            Kind::BarrierMismatch
        }
        "write" => {
            p.next();
            let (name, span) = match p.next() {
                (Tok::Name(n), s) => (n, s),
                (t, s) => {
                    return Err(Diagnostic::new(
                        ErrorCode::Syntax,
                        s,
                        format!("expected an array name, found {}", describe(&t)),
                    )
                    .label("expected an `@arg` array"));
                }
            };
            let arrays: Vec<(&str, u64)> = compiled
                .launch
                .args
                .iter()
                .filter_map(|a| match &a.value {
                    crate::front::launch::ArgValue::Array { len, .. } => Some((a.name.as_str(), *len)),
                    _ => None,
                })
                .collect();
            let names = || arrays.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ");
            let Some(&(_, len)) = arrays.iter().find(|(n, _)| *n == name) else {
                let d = if kernel.shared.iter().any(|s| s.name == name) {
                    Diagnostic::new(
                        ErrorCode::Name,
                        span,
                        format!("`{name}` is a __shared__ array: watchpoints watch the @arg (global) arrays"),
                    )
                    .label("shared memory")
                } else {
                    Diagnostic::new(ErrorCode::Name, span, format!("unknown array `{name}`"))
                        .label("not an @arg array of the launch")
                };
                return Err(
                    d.hint(format!("the @arg arrays: {}", if arrays.is_empty() { "none".into() } else { names() }))
                );
            };
            if !p.eat_op("[") {
                return Err(p.expected("`[`"));
            }
            let (index, ispan) = p.int("an element index")?;
            if index < 0 || index as u64 >= len {
                return Err(Diagnostic::new(
                    ErrorCode::Name,
                    ispan,
                    format!(
                        "index {index} is out of range: `{name}` has {len} elements (0 to {})",
                        len.saturating_sub(1)
                    ),
                )
                .label("out of range"));
            }
            if !p.eat_op("]") {
                return Err(p.expected("`]`"));
            }
            Kind::Write { array: name, index: index as u64 }
        }
        "if" => {
            return Err(Diagnostic::new(ErrorCode::Syntax, first_span, "a condition needs a line: `line N if COND`")
                .label("no line before `if`"));
        }
        "active" | "warp" | "block" | "" => {
            let e = p.expr()?;
            Kind::Mask(e)
        }
        other => {
            return Err(Diagnostic::new(ErrorCode::Syntax, first_span, format!("unknown breakpoint kind `{other}`"))
                .label("not a breakpoint kind")
                .hint(KINDS_HINT));
        }
    };
    p.end()?;
    Ok(kind)
}
