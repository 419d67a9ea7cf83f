//! Breakpoints on SIMT events, beyond plain line breakpoints: divergence, reconvergence, a barrier arrival
//! mismatch, a mask condition (`active < 16`), a watched array element being written, and line breakpoints
//! with a condition on the thread's values (`line 28 if tid == 5 && sum > 3`).
//!
//! Specs are parsed against the compiled kernel (its lines, variables and `@arg` arrays) and get diagnostics
//! like kernels: `breakpoint:1:COL`, the spec, a caret and a clear message. UI-free: [`crate::debug::session::Session`]
//! checks them in `cont`, one instruction at a time, before it issues ([`before_issue`]) and after
//! ([`after_issue`]).
//!
//! Grammar (one spec):
//!
//! ```text
//! spec   := "line" INT ["if" expr] | "divergence" | "reconvergence" | "barrier-mismatch"
//!         | "write" NAME "[" INT "]" | expr                 (a mask condition: active, warp, block)
//! expr   := or;  or := and ("||" and)*;  and := eq ("&&" eq)*;  eq := rel (("==" | "!=") rel)*
//! rel    := add (("<" | "<=" | ">" | ">=") add)*;  add := mul (("+" | "-") mul)*
//! mul    := unary (("*" | "/" | "%") unary)*;  unary := ("!" | "-") unary | INT | NAME | "(" expr ")"
//! ```

use std::collections::BTreeSet;

use serde::Serialize;

use crate::compile::Compiled;
use crate::debug::session::Session;
use crate::front::diagnostic::{Diagnostic, ErrorCode, render_plain};
use crate::front::source::{FileId, SourceFile, SourceMap, Span};
use crate::ir::{Instr, Kernel, Operand, Pc, Ty};
use crate::sim::{HazardKind, LaneMask, format_ranges, inspect, threads_phrase};

/// The name spec diagnostics give their text (`breakpoint:1:12`).
pub const SPEC_FILE: &str = "breakpoint";

/// A value the condition language can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    /// Thread index within the block (linear).
    Tid,
    Lane,
    /// Warp index within the block.
    Warp,
    /// Block index (linear).
    Block,
    /// Lanes in the group about to issue.
    Active,
    /// A kernel variable: its register and type.
    Reg(u32, Ty),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

/// A condition: integers (i64, wrapping), comparisons give 0 or 1, non-zero is true.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64),
    Var(Var),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

/// The values one thread (or, for a mask condition, one warp) gives the names.
pub struct Env<'a> {
    pub tid: u32,
    pub lane: u32,
    pub warp: u32,
    pub block: u64,
    pub active: u32,
    /// A register's raw bits for this thread.
    pub reg: &'a dyn Fn(u32) -> u64,
}

impl Expr {
    /// The value, or None where it divides by zero (a condition that does so is false).
    pub fn eval(&self, env: &Env) -> Option<i64> {
        Some(match self {
            Expr::Int(v) => *v,
            Expr::Var(v) => match *v {
                Var::Tid => env.tid as i64,
                Var::Lane => env.lane as i64,
                Var::Warp => env.warp as i64,
                Var::Block => env.block as i64,
                Var::Active => env.active as i64,
                Var::Reg(r, ty) => ty.int_value((env.reg)(r)),
            },
            Expr::Not(e) => (e.eval(env)? == 0) as i64,
            Expr::Neg(e) => e.eval(env)?.wrapping_neg(),
            Expr::Bin(BinOp::And, a, b) => (a.eval(env)? != 0 && b.eval(env)? != 0) as i64,
            Expr::Bin(BinOp::Or, a, b) => (a.eval(env)? != 0 || b.eval(env)? != 0) as i64,
            Expr::Bin(op, a, b) => {
                let (x, y) = (a.eval(env)?, b.eval(env)?);
                match op {
                    BinOp::Add => x.wrapping_add(y),
                    BinOp::Sub => x.wrapping_sub(y),
                    BinOp::Mul => x.wrapping_mul(y),
                    BinOp::Div => x.checked_div(y)?,
                    BinOp::Rem => x.checked_rem(y)?,
                    BinOp::Lt => (x < y) as i64,
                    BinOp::Le => (x <= y) as i64,
                    BinOp::Gt => (x > y) as i64,
                    BinOp::Ge => (x >= y) as i64,
                    BinOp::Eq => (x == y) as i64,
                    BinOp::Ne => (x != y) as i64,
                    BinOp::And | BinOp::Or => unreachable!("handled above"),
                }
            }
        })
    }

    /// True when the value is non-zero (and defined).
    pub fn holds(&self, env: &Env) -> bool {
        self.eval(env).is_some_and(|v| v != 0)
    }
}

/// What a breakpoint stops on.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A warp arriving at `line` (with a condition: only when it holds for one of its active threads).
    Line { line: u32, cond: Option<Expr> },
    /// A branch that splits a warp (after it issues).
    Divergence,
    /// A warp whose next instruction runs more lanes together than its previous one (before it issues).
    Reconvergence,
    /// Threads of a block arriving at a different `__syncthreads()` than others wait at, or (pre-Volta) part
    /// of a warp reaching a barrier (after it issues).
    BarrierMismatch,
    /// A warp whose active lanes come to satisfy a condition on `active`, `warp`, `block` (before it issues).
    Mask(Expr),
    /// A store or atomic to element `index` of the `@arg` array `array` (after it issues).
    Write { array: String, index: u64 },
    /// Quiz points (not written as specs): before a branch that is about to diverge, and at given steps.
    Quiz { divergent_branches: bool, steps: BTreeSet<u64> },
}

impl Kind {
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Line { .. } => "line",
            Kind::Divergence => "divergence",
            Kind::Reconvergence => "reconvergence",
            Kind::BarrierMismatch => "barrier_mismatch",
            Kind::Mask(_) => "mask",
            Kind::Write { .. } => "write",
            Kind::Quiz { .. } => "quiz",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Breakpoint {
    /// The spec as written.
    pub spec: String,
    pub kind: Kind,
}

/// Where and why a breakpoint stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// `line`, `divergence`, `reconvergence`, `barrier_mismatch`, `mask`, `write` (or `quiz`).
    pub kind: &'static str,
    pub spec: String,
    /// Instructions issued when it stopped.
    pub step: u64,
    pub line: u32,
    /// Block (linear index) and warp the event happened in.
    pub block: u64,
    pub warp: u32,
    /// The threads (indices within the block) the event is about: those the condition held for, the
    /// writers, the lanes that rejoin, the ones arriving at the other barrier.
    pub threads: Vec<u32>,
    pub message: String,
}

/// A spec that does not parse, with its diagnostics.
#[derive(Debug)]
pub struct SpecError {
    pub sources: SourceMap,
    pub diags: Vec<Diagnostic>,
}

impl SpecError {
    /// Like a kernel's diagnostics: `breakpoint:1:COL`, the spec, a caret, the message.
    pub fn render(&self) -> String {
        render_plain(&self.sources, &self.diags)
    }

    /// One line for a status bar: `column 12: message`.
    pub fn short(&self) -> String {
        let d = &self.diags[0];
        let (_, col) = self.sources.get(d.span.file).line_col(d.span.start);
        format!("column {col}: {}", d.message)
    }
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
}

// ---------------------------------------------------------------------------------------------------------
// Lexing and parsing

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Name(String),
    Op(&'static str),
    End,
}

struct Parser<'a> {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    kernel: &'a Kernel,
    /// The line a condition is for (variables resolve to the declaration nearest above it), or None for a
    /// mask condition (warp-level names only).
    line: Option<u32>,
}

type PResult<T> = Result<T, Diagnostic>;

const OPS: [&str; 19] =
    ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]", ","];

fn lex(text: &str, file: FileId) -> PResult<Vec<(Tok, Span)>> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let parsed = match word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
                Some(hex) => i64::from_str_radix(hex, 16),
                None => word.parse::<i64>(),
            };
            let v = parsed.map_err(|_| {
                Diagnostic::new(ErrorCode::Lexical, Span::new(file, start, i), format!("`{word}` is not a number"))
                    .label("not a decimal or 0x hexadecimal integer")
            })?;
            out.push((Tok::Int(v), Span::new(file, start, i)));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
                i += 1;
            }
            // `barrier-mismatch` is one word; `a-b` is a subtraction.
            let mut word = &text[start..i];
            if word.contains('-') && word != "barrier-mismatch" {
                i = start + word.find('-').unwrap_or(word.len());
                word = &text[start..i];
            }
            out.push((Tok::Name(word.to_string()), Span::new(file, start, i)));
            continue;
        }
        if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(**op)) {
            i += op.len();
            out.push((Tok::Op(op), Span::new(file, start, i)));
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or('?');
        let span = Span::new(file, i, i + ch.len_utf8());
        let d = Diagnostic::new(ErrorCode::Lexical, span, format!("unexpected character `{ch}` in a breakpoint"));
        return Err(match ch {
            '&' => d.label("a lone `&`").hint("conditions use `&&` (and), `||` (or) and `!` (not)"),
            '|' => d.label("a lone `|`").hint("conditions use `&&` (and), `||` (or) and `!` (not)"),
            '=' => d.label("assignment is not a comparison").hint("compare with `==`"),
            '.' => d
                .label("no members here")
                .hint("name the thread with `tid` (index in the block), `lane`, `warp` or `block`"),
            _ => d.label("not part of a breakpoint spec"),
        });
    }
    out.push((Tok::End, Span::new(file, b.len(), b.len())));
    Ok(out)
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Int(v) => format!("`{v}`"),
        Tok::Name(n) => format!("`{n}`"),
        Tok::Op(o) => format!("`{o}`"),
        Tok::End => "the end of the breakpoint".into(),
    }
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

    fn int(&mut self, what: &str) -> PResult<(i64, Span)> {
        match self.peek().clone() {
            (Tok::Int(v), s) => {
                self.pos += 1;
                Ok((v, s))
            }
            _ => Err(self.expected(what)),
        }
    }

    fn end(&self) -> PResult<()> {
        match &self.peek().0 {
            Tok::End => Ok(()),
            _ => Err(self.expected("the end of the breakpoint")),
        }
    }

    fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.and()?;
        while self.eat_op("||") {
            e = Expr::Bin(BinOp::Or, Box::new(e), Box::new(self.and()?));
        }
        Ok(e)
    }

    fn and(&mut self) -> PResult<Expr> {
        let mut e = self.eq()?;
        while self.eat_op("&&") {
            e = Expr::Bin(BinOp::And, Box::new(e), Box::new(self.eq()?));
        }
        Ok(e)
    }

    fn binary(&mut self, ops: &[(&str, BinOp)], next: fn(&mut Self) -> PResult<Expr>) -> PResult<Expr> {
        let mut e = next(self)?;
        'outer: loop {
            for (s, op) in ops {
                if self.eat_op(s) {
                    e = Expr::Bin(*op, Box::new(e), Box::new(next(self)?));
                    continue 'outer;
                }
            }
            return Ok(e);
        }
    }

    fn eq(&mut self) -> PResult<Expr> {
        self.binary(&[("==", BinOp::Eq), ("!=", BinOp::Ne)], Self::rel)
    }

    fn rel(&mut self) -> PResult<Expr> {
        self.binary(&[("<=", BinOp::Le), (">=", BinOp::Ge), ("<", BinOp::Lt), (">", BinOp::Gt)], Self::add)
    }

    fn add(&mut self) -> PResult<Expr> {
        self.binary(&[("+", BinOp::Add), ("-", BinOp::Sub)], Self::mul)
    }

    fn mul(&mut self) -> PResult<Expr> {
        self.binary(&[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)], Self::unary)
    }

    fn unary(&mut self) -> PResult<Expr> {
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
    fn name(&self, n: &str, span: Span) -> PResult<Var> {
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

fn parse_kind(spec: &str, file: FileId, compiled: &Compiled) -> PResult<Kind> {
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

// ---------------------------------------------------------------------------------------------------------
// Checking, one instruction at a time

/// What [`before_issue`] saw of the instruction about to issue, for [`after_issue`].
pub struct Pending {
    block: u64,
    warp: u32,
    pc: Pc,
    mask: LaneMask,
    divergent_before: u64,
    barrier_hazards: u64,
    /// Barrier PCs (other than the one about to be reached) where threads of the block wait, with the tids.
    barrier_waits: Vec<(Pc, Vec<u32>)>,
    /// Write watchpoints this instruction hits: breakpoint index, writer tids, old value.
    writes: Vec<(usize, Vec<u32>, u64)>,
}

fn barrier_hazard_count(s: &Session) -> u64 {
    s.machine.hazards.iter().filter(|h| h.kind == HazardKind::DivergentBarrier).map(|h| h.count).sum()
}

fn block_name(s: &Session, linear: u64) -> String {
    let g = s.machine.launch.grid;
    let (x, y, z) = (linear % g.x as u64, (linear / g.x as u64) % g.y as u64, linear / (g.x as u64 * g.y as u64));
    format!("({x},{y},{z})")
}

fn tids(warp: u32, mask: LaneMask) -> Vec<u32> {
    mask.iter().map(|l| warp * 32 + l).collect()
}

fn lanes_text(mask: LaneMask) -> String {
    format_ranges(&mask.iter().collect::<Vec<_>>())
}

/// Checks the breakpoints that stop before an instruction issues (line conditions, reconvergence, mask
/// conditions, quiz points) and prepares those checked after it. `arriving` is false for the first
/// instruction of a continue (the one it starts on does not stop it again).
pub fn before_issue(s: &mut Session, arriving: bool) -> Result<Option<Pending>, Hit> {
    let Some((slot, w, pc, mask)) = s.machine.peek() else { return Ok(None) };
    let kernel = s.machine.kernel.clone();
    let line = kernel.line(pc);
    let block = s.machine.blocks[slot].linear;
    let warp = w as u32;
    let prev = s.last_issued(slot, w);
    let (prev_line, prev_mask) = (prev.map(|(l, _)| l), prev.map(|(_, m)| m));
    let step = s.machine.steps;
    let mut pending = Pending {
        block,
        warp,
        pc,
        mask,
        divergent_before: s.machine.metrics.divergent_branches,
        barrier_hazards: 0,
        barrier_waits: vec![],
        writes: vec![],
    };
    let is_barrier = matches!(kernel.instrs[pc.0 as usize], Instr::SyncThreads { .. });
    let base = Hit { kind: "", spec: String::new(), step, line, block, warp, threads: vec![], message: String::new() };
    for (bi, bp) in s.event_breakpoints.iter().enumerate() {
        let hit = |kind: &Kind, threads: Vec<u32>, message: String| Hit {
            kind: kind.name(),
            spec: bp.spec.clone(),
            threads,
            message,
            ..base.clone()
        };
        match &bp.kind {
            Kind::Line { line: l, cond } if arriving && *l == line && prev_line != Some(line) => {
                let b = &s.machine.blocks[slot];
                let matched: Vec<u32> = match cond {
                    None => tids(warp, mask),
                    Some(c) => mask
                        .iter()
                        .filter(|&lane| {
                            let tid = warp * 32 + lane;
                            let reg = |r: u32| b.reg(r, tid);
                            c.holds(&Env { tid, lane, warp, block, active: mask.count(), reg: &reg })
                        })
                        .map(|lane| warp * 32 + lane)
                        .collect(),
                };
                if !matched.is_empty() {
                    let msg = format!(
                        "`{}` holds for {} (warp {warp} of block {})",
                        bp.spec,
                        threads_phrase(&matched),
                        block_name(s, block)
                    );
                    return Err(hit(&bp.kind, matched, msg));
                }
            }
            Kind::Reconvergence if arriving => {
                if let Some(pm) = prev_mask
                    && pm != mask
                    && pm.is_subset_of(mask)
                {
                    let msg = format!(
                        "warp {warp} of block {} reconverges at line {line}: lanes {} rejoin lanes {} ({} active, {} \
                         before)",
                        block_name(s, block),
                        lanes_text(mask.minus(pm)),
                        lanes_text(pm),
                        mask.count(),
                        pm.count()
                    );
                    return Err(hit(&bp.kind, tids(warp, mask.minus(pm)), msg));
                }
            }
            Kind::Mask(cond) if arriving => {
                let none = |_: u32| 0u64;
                let env = |active: u32| Env { tid: 0, lane: 0, warp, block, active, reg: &none };
                let now = cond.holds(&env(mask.count()));
                let before = prev_mask.is_some_and(|pm| cond.holds(&env(pm.count())));
                if now && !before {
                    let msg = format!(
                        "`{}` now holds for warp {warp} of block {}: lanes {} ({} active) run line {line}",
                        bp.spec,
                        block_name(s, block),
                        lanes_text(mask),
                        mask.count()
                    );
                    return Err(hit(&bp.kind, tids(warp, mask), msg));
                }
            }
            Kind::Quiz { divergent_branches, steps } if arriving => {
                let diverges = *divergent_branches && branch_diverges(s, slot, warp, pc, mask);
                if steps.contains(&step) || diverges {
                    let msg =
                        format!("quiz: warp {warp} of block {} is about to run line {line}", block_name(s, block));
                    return Err(hit(&bp.kind, tids(warp, mask), msg));
                }
            }
            Kind::BarrierMismatch if is_barrier => {
                pending.barrier_hazards = barrier_hazard_count(s);
                let b = &s.machine.blocks[slot];
                let mut waits: Vec<(Pc, Vec<u32>)> = vec![];
                for wp in &b.warps {
                    for (at, lanes, what) in inspect::thread_groups(wp) {
                        if what == "at barrier" && at != pc {
                            match waits.iter_mut().find(|(p, _)| *p == at) {
                                Some((_, t)) => t.extend(tids(wp.id.0, lanes)),
                                None => waits.push((at, tids(wp.id.0, lanes))),
                            }
                        }
                    }
                }
                pending.barrier_waits = waits;
            }
            Kind::Write { array, index } => {
                let addr_op = match &kernel.instrs[pc.0 as usize] {
                    Instr::Store { addr, ty, .. } | Instr::Atomic { addr, ty, .. } => Some((*addr, ty.size() as u64)),
                    _ => None,
                };
                let (Some((addr_op, size)), Some(a)) = (addr_op, s.machine.global.find(array)) else { continue };
                let esize = a.elem.size() as u64;
                let watched = a.base + index * esize;
                let b = &s.machine.blocks[slot];
                let writers: Vec<u32> = mask
                    .iter()
                    .filter(|&lane| {
                        let at = match addr_op {
                            Operand::Imm(v) => v,
                            Operand::Reg(r) => b.reg(r.0, warp * 32 + lane),
                        };
                        at < watched + esize && watched < at + size
                    })
                    .map(|lane| warp * 32 + lane)
                    .collect();
                if !writers.is_empty() {
                    pending.writes.push((bi, writers, a.element(*index)));
                }
            }
            _ => {}
        }
    }
    Ok(Some(pending))
}

/// The line of a conditional line breakpoint (`line N if ...`), the one kind the machine can check itself.
pub fn conditional_line(bp: &Breakpoint) -> Option<u32> {
    match bp.kind {
        Kind::Line { line, cond: Some(_) } => Some(line),
        _ => None,
    }
}

/// Does a warp arriving at `line` (lanes `mask` of warp `warp` of `block`) stop at one of `bps`' conditional
/// line breakpoints: does a condition hold for one of its lanes? (What [`before_issue`] checks for them.)
pub fn arrival_holds(bps: &[Breakpoint], line: u32, block: &crate::sim::BlockState, warp: u32, mask: LaneMask) -> bool {
    bps.iter().any(|bp| match &bp.kind {
        Kind::Line { line: l, cond: Some(c) } if *l == line => mask.iter().any(|lane| {
            let tid = warp * 32 + lane;
            let reg = |r: u32| block.reg(r, tid);
            c.holds(&Env { tid, lane, warp, block: block.linear, active: mask.count(), reg: &reg })
        }),
        _ => false,
    })
}

/// Would the branch about to issue at `pc` split the lanes `mask` (a counted `if`, loop or `?:`)?
pub fn branch_diverges(s: &Session, slot: usize, warp: u32, pc: Pc, mask: LaneMask) -> bool {
    let Instr::Branch { cond, site, .. } = &s.machine.kernel.instrs[pc.0 as usize] else { return false };
    if !site.counted {
        return false;
    }
    let b = &s.machine.blocks[slot];
    let taken = mask.iter().filter(|&l| match cond {
        Operand::Imm(v) => *v != 0,
        Operand::Reg(r) => b.reg(r.0, warp * 32 + l) != 0,
    });
    let n = taken.count() as u32;
    n != 0 && n != mask.count()
}

/// Checks the breakpoints that stop after an instruction issued (divergence, barrier mismatch, writes).
pub fn after_issue(s: &mut Session, p: Pending) -> Option<Hit> {
    let issued = s.last_issue.filter(|i| i.pc == p.pc && i.step == s.machine.steps)?;
    let step = s.machine.steps;
    let base = Hit {
        kind: "",
        spec: String::new(),
        step,
        line: issued.line,
        block: p.block,
        warp: p.warp,
        threads: vec![],
        message: String::new(),
    };
    for (i, bp) in s.event_breakpoints.iter().enumerate() {
        let hit = |threads: Vec<u32>, message: String| Hit {
            kind: bp.kind.name(),
            spec: bp.spec.clone(),
            threads,
            message,
            ..base.clone()
        };
        match &bp.kind {
            Kind::Divergence if s.machine.metrics.divergent_branches > p.divergent_before => {
                // Where the lanes went: grouped by the line each runs next.
                let b = s.machine.blocks.iter().find(|b| b.linear == p.block)?;
                let w = b.warps.get(p.warp as usize)?;
                let mut sides: Vec<(u32, LaneMask)> = vec![];
                for (lane, pc) in w.lane_pcs() {
                    if !p.mask.contains(lane) {
                        continue;
                    }
                    let l = s.machine.kernel.line(pc);
                    match sides.iter_mut().find(|(x, _)| *x == l) {
                        Some((_, m)) => *m = m.or(LaneMask::lane(lane)),
                        None => sides.push((l, LaneMask::lane(lane))),
                    }
                }
                let parts: Vec<String> =
                    sides.iter().map(|(l, m)| format!("lanes {} go to line {l}", lanes_text(*m))).collect();
                let msg = format!(
                    "warp {} of block {} diverged at line {}: {}",
                    p.warp,
                    block_name(s, p.block),
                    issued.line,
                    parts.join(", ")
                );
                return Some(hit(tids(p.warp, p.mask), msg));
            }
            Kind::BarrierMismatch if matches!(s.machine.kernel.instrs[p.pc.0 as usize], Instr::SyncThreads { .. }) => {
                let arrived = threads_phrase(&tids(p.warp, p.mask));
                if let Some((other, waiting)) = p.barrier_waits.first() {
                    let msg = format!(
                        "barrier mismatch in block {}: {arrived} arrived at the __syncthreads() on line {} while {} \
                         wait at the one on line {}",
                        block_name(s, p.block),
                        issued.line,
                        threads_phrase(waiting),
                        s.machine.kernel.line(*other)
                    );
                    return Some(hit(tids(p.warp, p.mask), msg));
                }
                if barrier_hazard_count(s) > p.barrier_hazards {
                    let b = s.machine.blocks.iter().find(|b| b.linear == p.block);
                    let live = b.and_then(|b| b.warps.get(p.warp as usize)).map_or(p.mask, |w| w.live);
                    let msg = format!(
                        "divergent barrier in block {}: only lanes {} of warp {} reached the __syncthreads() on line \
                         {}; lanes {} are elsewhere",
                        block_name(s, p.block),
                        lanes_text(p.mask),
                        p.warp,
                        issued.line,
                        lanes_text(live.minus(p.mask))
                    );
                    return Some(hit(tids(p.warp, p.mask), msg));
                }
            }
            Kind::Write { array, index } => {
                let Some((_, writers, old)) = p.writes.iter().find(|(j, _, _)| *j == i) else { continue };
                let a = s.machine.global.find(array)?;
                let new = a.element(*index);
                let show = |v: u64| crate::sim::alu::display(a.elem, v);
                let msg = format!(
                    "{array}[{index}] written by {} of block {} (warp {}) at line {}: {} -> {}",
                    threads_phrase(writers),
                    block_name(s, p.block),
                    p.warp,
                    issued.line,
                    show(*old),
                    show(new)
                );
                return Some(hit(writers.clone(), msg));
            }
            _ => {}
        }
    }
    None
}

/// The [`Hit`] for a plain line breakpoint (the session's `Stop::Breakpoint`): the warp about to run it.
pub fn line_hit(s: &mut Session, line: u32) -> Hit {
    let step = s.machine.steps;
    let (block, warp, mask) = match s.machine.peek() {
        Some((slot, w, _, mask)) => (s.machine.blocks[slot].linear, w as u32, mask),
        None => (0, 0, LaneMask::EMPTY),
    };
    Hit {
        kind: "line",
        spec: format!("line {line}"),
        step,
        line,
        block,
        warp,
        threads: tids(warp, mask),
        message: format!("breakpoint at line {line}: warp {warp} of block {} arrives", block_name(s, block)),
    }
}
