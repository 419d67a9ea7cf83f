//! Cooperative groups' collectives: `cg::reduce`, `cg::inclusive_scan` and `cg::exclusive_scan` over a tile
//! or a coalesced group, with one of `cg::plus/less/greater/bit_and/bit_or/bit_xor<T>` or a lambda as the
//! operation; and the partitions that make coalesced groups, `cg::binary_partition` and
//! `cg::labeled_partition`. Each lowers to the shuffles and votes CUDA's own implementation is made of, in its
//! order, so that a float result rounds as the GPU's does (docs/language.md, "Cooperative groups"):
//!
//! - a tile's reduction is a butterfly of `shfl_xor` (offsets n/2 .. 1), every lane combining its own value
//!   with its partner's; a coalesced group's is that butterfly when the group is the whole warp, else the
//!   inclusive scan below, whose last rank's value is then shuffled to every rank;
//! - a scan is Hillis and Steele's: for offsets 1, 2, 4, ... below the group's size, a rank at least the offset
//!   combines its running value with the one `offset` ranks below (`op(mine, below)`); the exclusive scan is
//!   the inclusive one shuffled up a rank, `T{}` (zero) at rank 0.
//!
//! A rank below the offset keeps its value: chosen by bit masks, not a branch (CUDA's is predicated), so the
//! divergence metrics count no branch that the GPU does not take.

use super::super::ast::{self, ExprKind as A};
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{Scalar, Type};
use super::checker::Checker;
use super::groups::{Group, GroupVal, arith, coalesced_rank, konst, lane, thread_rank, tile_mask, uint, umath};

/// The operation of a collective.
#[derive(Clone)]
enum CombineOp {
    Plus,
    Less,
    Greater,
    BitAnd,
    BitOr,
    BitXor,
    /// `[](T a, T b) { return ...; }`: its parameters' locals and its result, converted to the value's type.
    Lambda {
        a: LocalId,
        b: LocalId,
        body: Box<Expr>,
    },
}

/// Which collective.
#[derive(Clone, Copy, PartialEq)]
enum Collective {
    Reduce,
    Inclusive,
    Exclusive,
}

impl Collective {
    fn name(self) -> &'static str {
        match self {
            Collective::Reduce => "cg::reduce",
            Collective::Inclusive => "cg::inclusive_scan",
            Collective::Exclusive => "cg::exclusive_scan",
        }
    }
}

/// Statements that build a collective's value in locals, in order.
struct Steps {
    stmts: Vec<Stmt>,
    span: Span,
}

impl Steps {
    fn set(&mut self, l: LocalId, e: Expr) {
        let ty = e.ty.clone();
        let e = Expr::new(ExprKind::Assign(Place::Local(l), Box::new(e)), ty, self.span);
        self.stmts.push(Stmt { kind: StmtKind::Expr(e), span: self.span });
    }
}

fn local(l: LocalId, s: Scalar, span: Span) -> Expr {
    Expr::new(ExprKind::Local(l), Type::Scalar(s), span)
}

fn int_const(v: u64, span: Span) -> Expr {
    Expr::new(ExprKind::Const(v), Type::INT, span)
}

/// `c ? a : b` for scalars of type `s` without a branch: `b ^ ((a ^ b) & -c)` on the values' bits. `a` and
/// `b` are read twice: they are locals.
fn select(c: Expr, a: Expr, b: Expr, s: Scalar, span: Span) -> Expr {
    let bits = if s.size() == 8 { Scalar::U64 } else { Scalar::U32 };
    let as_bits = |e: Expr| {
        if s.is_float() {
            Expr::new(ExprKind::Intrinsic(Intrinsic::Math(MathFn::Bits), vec![e]), Type::Scalar(bits), span)
        } else {
            Checker::to_scalar(e, bits)
        }
    };
    let (a, b) = (as_bits(a), as_bits(b));
    let m = Checker::to_scalar(Expr::new(ExprKind::Convert(Box::new(c)), Type::Scalar(bits), span), bits);
    let m = arith(ArithOp::Sub, Expr::new(ExprKind::Const(0), Type::Scalar(bits), span), m, span);
    let r = arith(ArithOp::Xor, b.clone(), arith(ArithOp::And, arith(ArithOp::Xor, a, b, span), m, span), span);
    if s.is_float() {
        Expr::new(ExprKind::Intrinsic(Intrinsic::Math(MathFn::Bits), vec![r]), Type::Scalar(s), span)
    } else {
        Checker::to_scalar(r, s)
    }
}

fn cmp(op: CmpOp, a: Expr, b: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Cmp { op, left: Box::new(a), right: Box::new(b) }, Type::BOOL, span)
}

impl Checker {
    /// `cg::reduce(g, v, op)`, `cg::inclusive_scan(g, v[, op])`, `cg::exclusive_scan(g, v[, op])`. None when
    /// the call is none of them (a function of the file's own of that name is checked before).
    pub(super) fn group_collective(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let which = match name {
            "reduce" => Collective::Reduce,
            "inclusive_scan" => Collective::Inclusive,
            "exclusive_scan" => Collective::Exclusive,
            _ => return None,
        };
        if !args.first().is_some_and(|g| self.is_group_expr(g)) {
            return None;
        }
        let arity_ok = match which {
            Collective::Reduce => args.len() == 3,
            _ => matches!(args.len(), 2 | 3),
        };
        if !arity_ok {
            for a in &args[1..] {
                self.expr(a);
            }
            let (n, what) = (args.len(), which.name());
            let want = if which == Collective::Reduce {
                "3 arguments (group, value, operation)"
            } else {
                "2 or 3 arguments (group, value, operation)"
            };
            return Some(self.type_error(span, format!("`{what}` takes {want}, {n} given")));
        }
        let g = self.group_operand(&args[0])?;
        if !matches!(g.group, Group::Tile(_) | Group::Coalesced) {
            self.expr(&args[1]);
            self.err(
                Diagnostic::unsupported(args[0].span, format!("`{}` over a `{}`", which.name(), g.group.name()))
                    .hint("reduce over a tile: `cg::reduce(tiled_partition<32>(block), v, cg::plus<int>())`"),
            );
            return Some(Expr::error(span));
        }
        let x = self.expr(&args[1]);
        // (After a diagnostic the call is an error, not a function of that name to look for.)
        let Some(s) = self.arith_operand(&x, which.name()).map(Scalar::promote) else {
            return Some(Expr::error(span));
        };
        let op = match args.get(2).map(|op| self.combine_op(op, s, &args[1])) {
            Some(Some(op)) => op,
            Some(None) => return Some(Expr::error(span)),
            None => CombineOp::Plus,
        };
        let x = Self::to_scalar(x, s);
        let mut steps = Steps { stmts: vec![], span };
        let v = self.new_local(&ast::Ident { name: "collective.v".into(), span }, Type::Scalar(s));
        steps.set(v, x);
        match which {
            Collective::Reduce => self.reduce_steps(&g, &op, v, s, &mut steps),
            _ => {
                self.scan_steps(&g, &op, v, s, &mut steps);
                if which == Collective::Exclusive {
                    // Shuffled up a rank; rank 0 gets `T{}`.
                    let up = self.rank_shuffle(&g, local(v, s, span), ShflKind::Up, konst(1, span), s, span);
                    let o = self.new_local(&ast::Ident { name: "collective.up".into(), span }, Type::Scalar(s));
                    steps.set(o, up);
                    let zero = Self::to_scalar(konst(0, span), s);
                    let z = self.new_local(&ast::Ident { name: "collective.zero".into(), span }, Type::Scalar(s));
                    steps.set(z, zero);
                    let above = cmp(CmpOp::Ge, self.group_rank(&g, span), konst(1, span), span);
                    steps.set(v, select(above, local(o, s, span), local(z, s, span), s, span));
                }
            }
        }
        Some(Expr::new(ExprKind::Seq(steps.stmts, Box::new(local(v, s, span))), Type::Scalar(s), span))
    }

    /// The operation argument: a `cg::` functor or a lambda of two parameters whose body is one `return`.
    fn combine_op(&mut self, op: &ast::Expr, s: Scalar, value: &ast::Expr) -> Option<CombineOp> {
        if let A::Lambda { params, body, .. } = &op.kind {
            return self.lambda_op(op, params, body, s);
        }
        let functor = match &op.kind {
            A::Call(f, a) if a.is_empty() => f.name.split('<').next().map(str::to_string),
            A::Name(f) => f.split('<').next().map(str::to_string),
            _ => None,
        };
        let rop = match functor.as_deref() {
            Some("plus") => CombineOp::Plus,
            Some("less") => CombineOp::Less,
            Some("greater") => CombineOp::Greater,
            Some("bit_and") => CombineOp::BitAnd,
            Some("bit_or") => CombineOp::BitOr,
            Some("bit_xor") => CombineOp::BitXor,
            _ => {
                self.err(Diagnostic::unsupported(op.span, "this collective operation").hint(
                    "warpdbg knows cg::plus, cg::less, cg::greater, cg::bit_and, cg::bit_or, cg::bit_xor \
                         and a lambda `[](int a, int b) { return ...; }`",
                ));
                return None;
            }
        };
        if s.is_float() && matches!(rop, CombineOp::BitAnd | CombineOp::BitOr | CombineOp::BitXor) {
            self.type_error(value.span, "a bitwise `cg::reduce` needs an integer value");
            return None;
        }
        Some(rop)
    }

    /// A lambda operation: its two parameters become locals; its body, one `return e;`, their combination.
    fn lambda_op(&mut self, op: &ast::Expr, params: &[ast::Param], body: &[ast::Stmt], s: Scalar) -> Option<CombineOp> {
        let [pa, pb] = params else {
            self.err(Diagnostic::new(
                ErrorCode::Type,
                op.span,
                format!("a collective's operation takes 2 parameters, this lambda {}", params.len()),
            ));
            return None;
        };
        let [ast::Stmt { kind: ast::StmtKind::Return(Some(e)), .. }] = body else {
            self.err(
                Diagnostic::unsupported(op.span, "a device lambda whose body is more than one `return`")
                    .hint("write the operation as one expression: `[](int a, int b) { return a > b ? a : b; }`"),
            );
            return None;
        };
        self.scopes.push(Default::default());
        let declare = |c: &mut Checker, p: &ast::Param| {
            let ty = if p.ty.named.as_deref() == Some("auto") { Type::Scalar(s) } else { c.resolve_type(&p.ty, 0) };
            c.declare_local(&p.name, ty, false, None)
        };
        let a = declare(self, pa);
        let b = declare(self, pb);
        let v = self.expr(e);
        let v = self.convert(v, &Type::Scalar(s), "return value");
        self.scopes.pop();
        if v.ty.is_error() {
            return None;
        }
        // The parameters take the values converted to their own types.
        Some(CombineOp::Lambda { a, b, body: Box::new(v) })
    }

    /// `op(x, y)`.
    fn combine(&mut self, op: &CombineOp, x: Expr, y: Expr, s: Scalar, span: Span) -> Expr {
        match op {
            CombineOp::Plus => arith(ArithOp::Add, x, y, span),
            CombineOp::BitAnd => arith(ArithOp::And, x, y, span),
            CombineOp::BitOr => arith(ArithOp::Or, x, y, span),
            CombineOp::BitXor => arith(ArithOp::Xor, x, y, span),
            CombineOp::Less | CombineOp::Greater => {
                let f = if matches!(op, CombineOp::Less) { MathFn::Min } else { MathFn::Max };
                Expr::new(ExprKind::Intrinsic(Intrinsic::Math(f), vec![x, y]), Type::Scalar(s), span)
            }
            CombineOp::Lambda { a, b, body } => {
                let mut st = Steps { stmts: vec![], span };
                let (ta, tb) = (self.locals[a.0 as usize].ty.clone(), self.locals[b.0 as usize].ty.clone());
                let x = self.convert(x, &ta, "argument");
                let y = self.convert(y, &tb, "argument");
                st.set(*a, x);
                st.set(*b, y);
                Expr::new(ExprKind::Seq(st.stmts, body.clone()), Type::Scalar(s), span)
            }
        }
    }

    /// A shuffle within group `g` by rank: a tile's own (width its size), a coalesced group's through the
    /// lane of that rank (past either end, the thread's own value).
    fn rank_shuffle(&mut self, g: &GroupVal, v: Expr, kind: ShflKind, d: Expr, s: Scalar, span: Span) -> Expr {
        let shfl = |mask: Expr, lane: Expr, width: u64| {
            Expr::new(
                ExprKind::Intrinsic(Intrinsic::Shfl(kind), vec![mask, v.clone(), lane, int_const(width, span)]),
                Type::Scalar(s),
                span,
            )
        };
        match g.group {
            Group::Tile(n) => shfl(tile_mask(n, span), Self::to_scalar(d, Scalar::I32), n as u64),
            _ => {
                let gmask = g.field("mask", span);
                let rank = coalesced_rank(gmask.clone(), span);
                let src_rank = match kind {
                    ShflKind::Idx => d,
                    ShflKind::Up => arith(ArithOp::Sub, rank.clone(), d, span),
                    ShflKind::Down | ShflKind::Xor => arith(ArithOp::Add, rank.clone(), d, span),
                };
                let src = umath(MathFn::NthLane, vec![gmask.clone(), src_rank.clone()], span);
                let src = match kind {
                    ShflKind::Idx => src,
                    _ => {
                        let in_range = match kind {
                            ShflKind::Up => cmp(CmpOp::Le, src_rank, rank, span),
                            _ => cmp(CmpOp::Lt, src_rank, umath(MathFn::Popc, vec![gmask.clone()], span), span),
                        };
                        let in_range = uint(ExprKind::Convert(Box::new(in_range)), span);
                        let delta = arith(ArithOp::Mul, arith(ArithOp::Sub, src, lane(span), span), in_range, span);
                        arith(ArithOp::Add, lane(span), delta, span)
                    }
                };
                let kind_idx = ShflKind::Idx;
                Expr::new(
                    ExprKind::Intrinsic(
                        Intrinsic::Shfl(kind_idx),
                        vec![gmask, v, Self::to_scalar(src, Scalar::I32), int_const(32, span)],
                    ),
                    Type::Scalar(s),
                    span,
                )
            }
        }
    }

    /// A reduction of local `v` in place: a tile's butterfly; a coalesced group's butterfly when it is the
    /// whole warp, else its inclusive scan and the last rank's value.
    fn reduce_steps(&mut self, g: &GroupVal, op: &CombineOp, v: LocalId, s: Scalar, steps: &mut Steps) {
        let span = steps.span;
        let butterfly = |c: &mut Checker, steps: &mut Steps, n: u32, mask: Expr| {
            let mut d = n / 2;
            while d > 0 {
                let other = Expr::new(
                    ExprKind::Intrinsic(
                        Intrinsic::Shfl(ShflKind::Xor),
                        vec![mask.clone(), local(v, s, span), int_const(d as u64, span), int_const(n as u64, span)],
                    ),
                    Type::Scalar(s),
                    span,
                );
                let combined = c.combine(op, local(v, s, span), other, s, span);
                steps.set(v, combined);
                d /= 2;
            }
        };
        match g.group {
            Group::Tile(n) => butterfly(self, steps, n, tile_mask(n, span)),
            _ => {
                let gmask = g.field("mask", span);
                let whole = cmp(CmpOp::Eq, gmask.clone(), konst(0xffff_ffff, span), span);
                let mut full = Steps { stmts: vec![], span };
                butterfly(self, &mut full, 32, gmask.clone());
                let mut part = Steps { stmts: vec![], span };
                self.scan_steps(g, op, v, s, &mut part);
                let last = arith(ArithOp::Sub, umath(MathFn::Popc, vec![gmask], span), konst(1, span), span);
                let bcast = self.rank_shuffle(g, local(v, s, span), ShflKind::Idx, last, s, span);
                part.set(v, bcast);
                // CUDA's `if (group.size() == 32)`: the same for every lane of the group.
                steps.stmts.push(Stmt {
                    kind: StmtKind::If {
                        cond: whole,
                        then: Box::new(Stmt { kind: StmtKind::Block(full.stmts), span }),
                        els: Some(Box::new(Stmt { kind: StmtKind::Block(part.stmts), span })),
                    },
                    span,
                });
            }
        }
    }

    /// An inclusive scan of local `v` in place, by rank.
    fn scan_steps(&mut self, g: &GroupVal, op: &CombineOp, v: LocalId, s: Scalar, steps: &mut Steps) {
        let span = steps.span;
        let size = match g.group {
            Group::Tile(n) => n,
            _ => 32,
        };
        let below = self.new_local(&ast::Ident { name: "collective.below".into(), span }, Type::Scalar(s));
        let comb = self.new_local(&ast::Ident { name: "collective.op".into(), span }, Type::Scalar(s));
        let mut d = 1;
        while d < size {
            let b = self.rank_shuffle(g, local(v, s, span), ShflKind::Up, konst(d as u64, span), s, span);
            steps.set(below, b);
            let c = self.combine(op, local(v, s, span), local(below, s, span), s, span);
            steps.set(comb, c);
            let rank = match g.group {
                Group::Tile(n) => arith(ArithOp::Rem, thread_rank(span), konst(n as u64, span), span),
                _ => self.group_rank(g, span),
            };
            let reached = cmp(CmpOp::Ge, rank, konst(d as u64, span), span);
            steps.set(v, select(reached, local(comb, s, span), local(v, s, span), s, span));
            d *= 2;
        }
    }

    /// The lane mask of `cg::binary_partition(parent, pred)` (the parent's lanes whose predicate equals the
    /// thread's own) or `cg::labeled_partition(parent, label)` (whose label does): a coalesced group's field.
    pub(super) fn partition_values(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Vec<Expr>> {
        let [parent, key] = args else {
            for a in args {
                self.expr(a);
            }
            self.err(Diagnostic::new(
                ErrorCode::Type,
                span,
                format!(
                    "`{name}` takes 2 arguments (the parent group and the {}), {} given",
                    key_name(name),
                    args.len()
                ),
            ));
            return None;
        };
        let Some(p) = self.group_operand(parent) else {
            self.expr(parent);
            self.expr(key);
            self.err(
                Diagnostic::new(
                    ErrorCode::Type,
                    parent.span,
                    format!("`{name}` partitions a tile or a coalesced group"),
                )
                .hint("pass a warp's tile: `cg::tiled_partition<32>(cg::this_thread_block())`"),
            );
            return None;
        };
        let pmask = match p.group {
            Group::Tile(n) => tile_mask(n, span),
            Group::Coalesced => p.field("mask", span),
            _ => {
                self.expr(key);
                self.err(
                    Diagnostic::new(ErrorCode::Type, parent.span, format!("`{name}` of a `{}`", p.group.name()))
                        .label("partitions a tile or a coalesced group")
                        .hint("partition the block's warps: `cg::tiled_partition<32>(block)`"),
                );
                return None;
            }
        };
        let k = if name == "binary_partition" {
            let c = self.cond(key);
            uint(ExprKind::Convert(Box::new(c)), span)
        } else {
            let k = self.expr(key);
            let s = self.arith_operand(&k, name)?;
            if s.is_float() {
                self.type_error(key.span, "a `labeled_partition`'s label is an unsigned integer");
                return None;
            }
            Self::to_scalar(k, s.promote())
        };
        let vote =
            Expr::new(ExprKind::Intrinsic(Intrinsic::Vote(VoteKind::MatchAny), vec![pmask, k]), Type::UINT, span);
        Some(vec![vote])
    }
}

fn key_name(name: &str) -> &'static str {
    if name == "binary_partition" { "predicate" } else { "label" }
}
