//! What a breakpoint is: its kind, and the condition language's expressions and their values.

use std::collections::BTreeSet;

use crate::ir::Ty;

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
    Bin { op: BinOp, left: Box<Expr>, right: Box<Expr> },
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
            Expr::Bin { op: BinOp::And, left: a, right: b } => (a.eval(env)? != 0 && b.eval(env)? != 0) as i64,
            Expr::Bin { op: BinOp::Or, left: a, right: b } => (a.eval(env)? != 0 || b.eval(env)? != 0) as i64,
            Expr::Bin { op, left: a, right: b } => {
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

/// A spec that does not parse, with its diagnostics (`breakpoint:1:COL`).
pub type SpecError = crate::front::diagnostic::InputError;
