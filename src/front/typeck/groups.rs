//! Cooperative groups, the part courses teach: `this_thread_block()`, `tiled_partition<N>(block)`,
//! `coalesced_threads()` and their methods, lowered to the barriers, shuffles and votes they are made of. A
//! group is a struct with no fields (a block, a tile: all is known from the thread's index and the tile
//! size, which is part of the type) or with its lane mask (a coalesced group).
//!
//! A tile's `sync()` is a `__syncwarp` over the tile's lanes: under ITS a warp-level convergence point, shown
//! as such; a block's is `__syncthreads()`.

use std::sync::Arc;

use super::super::ast::{self, ExprKind as A};
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{StructDef, Type};
use super::{Binding, Checker};

/// A group type's kind.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Group {
    Block,
    Tile(u32),
    Coalesced,
}

/// The struct type of a cooperative-groups type name (`thread_block`, `thread_block_tile<32>`, ...).
pub fn group_type(name: &str) -> Option<Arc<StructDef>> {
    let def = match name {
        "thread_block" | "thread_group" => StructDef::new("thread_block", vec![], 1),
        "coalesced_group" => StructDef::new("coalesced_group", vec![("mask".into(), Type::UINT)], 4),
        _ => {
            let n: u32 = name.strip_prefix("thread_block_tile<")?.strip_suffix('>')?.trim().parse().ok()?;
            StructDef::new(format!("thread_block_tile<{n}>"), vec![], 1)
        }
    };
    Some(Arc::new(def))
}

fn group_of(ty: &Type) -> Option<Group> {
    let s = ty.as_struct()?;
    match s.name.as_str() {
        "thread_block" => Some(Group::Block),
        "coalesced_group" => Some(Group::Coalesced),
        n => n.strip_prefix("thread_block_tile<")?.strip_suffix('>')?.parse().ok().map(Group::Tile),
    }
}

/// Whether a function's name makes a group (`this_thread_block`, `tiled_partition<N>`, `coalesced_threads`).
pub(super) fn makes_group(name: &str) -> Option<String> {
    match name {
        "this_thread_block" => Some("thread_block".into()),
        "coalesced_threads" => Some("coalesced_group".into()),
        _ => {
            let n = name.strip_prefix("tiled_partition<")?.strip_suffix('>')?;
            Some(format!("thread_block_tile<{}>", n.trim()))
        }
    }
}

fn uint(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, Type::UINT, span)
}

fn konst(v: u64, span: Span) -> Expr {
    uint(ExprKind::Const(v), span)
}

fn arith(op: ArithOp, a: Expr, b: Expr, span: Span) -> Expr {
    uint(ExprKind::Arith(op, Box::new(a), Box::new(b)), span)
}

fn special(s: Special, span: Span) -> Expr {
    uint(ExprKind::Special(s), span)
}

/// The thread's index in its block, x fastest.
fn thread_rank(span: Span) -> Expr {
    let (tx, ty, tz) = (
        special(Special::ThreadIdx(0), span),
        special(Special::ThreadIdx(1), span),
        special(Special::ThreadIdx(2), span),
    );
    let (bx, by) = (special(Special::BlockDim(0), span), special(Special::BlockDim(1), span));
    let z = arith(ArithOp::Mul, arith(ArithOp::Mul, tz, bx.clone(), span), by, span);
    let y = arith(ArithOp::Mul, ty, bx, span);
    arith(ArithOp::Add, arith(ArithOp::Add, tx, y, span), z, span)
}

fn block_size(span: Span) -> Expr {
    let d = |a| special(Special::BlockDim(a), span);
    arith(ArithOp::Mul, arith(ArithOp::Mul, d(0), d(1), span), d(2), span)
}

/// The lanes of the thread's tile of `n`, as a warp mask.
fn tile_mask(n: u32, span: Span) -> Expr {
    if n >= 32 {
        return konst(0xffff_ffff, span);
    }
    let lane = arith(ArithOp::Rem, thread_rank(span), konst(32, span), span);
    let first =
        arith(ArithOp::Mul, arith(ArithOp::Div, lane, konst(n as u64, span), span), konst(n as u64, span), span);
    arith(ArithOp::Shl, konst((1u64 << n) - 1, span), first, span)
}

impl Checker {
    /// The values a group-making call gives (none for a block or tile, the active mask for a coalesced group).
    pub(super) fn group_values(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Vec<Expr>> {
        // The parent group (`tiled_partition<32>(block)`) only says which threads: nothing to evaluate.
        for a in args {
            let is_group = match &a.kind {
                A::Name(n) => matches!(self.lookup(n), Some(Binding::StructLocal(_))),
                A::Call(f, _) => makes_group(&f.name).is_some(),
                _ => false,
            };
            if !is_group {
                self.expr(a);
            }
        }
        let ty = makes_group(name)?;
        if let Some(n) = ty.strip_prefix("thread_block_tile<").and_then(|n| n.strip_suffix('>')) {
            match n.parse::<u32>() {
                Ok(k) if k.is_power_of_two() && k <= 32 => {}
                _ => {
                    self.err(
                        Diagnostic::new(ErrorCode::Type, span, format!("a tile of {n} threads"))
                            .label("tiled_partition<N> takes a power of two up to 32")
                            .hint("tiles are parts of one warp: 1, 2, 4, 8, 16 or 32 threads"),
                    );
                    return None;
                }
            }
        }
        Some(if ty == "coalesced_group" {
            vec![uint(ExprKind::Intrinsic(Intrinsic::ActiveMask, vec![]), span)]
        } else {
            vec![]
        })
    }

    /// `g.method(args)` on a cooperative group.
    pub(super) fn method_call(&mut self, obj: &ast::Expr, method: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        let (group, mask_local) = match &obj.kind {
            A::Name(n) => match self.lookup(n) {
                Some(Binding::StructLocal(i)) => {
                    let sl = &self.struct_locals[i as usize];
                    (group_of(&sl.ty), sl.leaves.first().map(|l| l.1))
                }
                _ => (None, None),
            },
            _ => (None, None),
        };
        let Some(group) = group else {
            for a in args {
                self.expr(a);
            }
            return self
                .type_error(span, format!("`.{}(...)`: only cooperative groups have methods here", method.name));
        };
        self.group_method(group, mask_local, method, args, span)
    }

    /// `cg::sync(g)`.
    pub(super) fn group_sync_call(&mut self, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let [g] = args else { return None };
        let sync = ast::Ident { name: "sync".into(), span };
        Some(self.method_call(g, &sync, &[], span))
    }

    fn group_method(
        &mut self,
        group: Group,
        mask_local: Option<LocalId>,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Expr {
        let n = match group {
            Group::Tile(n) => n,
            _ => 32,
        };
        let mask = match (group, mask_local) {
            (Group::Coalesced, Some(l)) => uint(ExprKind::Local(l), span),
            (Group::Tile(n), _) => tile_mask(n, span),
            _ => konst(0xffff_ffff, span),
        };
        let want = |c: &mut Checker, k: usize| -> bool {
            if args.len() == k {
                return true;
            }
            c.err(Diagnostic::new(
                ErrorCode::Type,
                span,
                format!("`{}` takes {k} argument{}, {} given", method.name, if k == 1 { "" } else { "s" }, args.len()),
            ));
            false
        };
        let lane = arith(ArithOp::Rem, thread_rank(span), konst(32, span), span);
        match (group, method.name.as_str()) {
            (_, "sync") => {
                if !want(self, 0) {
                    return Expr::error(span);
                }
                match group {
                    Group::Block => Expr::new(ExprKind::Intrinsic(Intrinsic::SyncThreads, vec![]), Type::Void, span),
                    // The tiles of a warp reach their sync together when the warp is converged: one
                    // __syncwarp over the lanes that are here (every tile names its own lanes, and a warp's
                    // instruction has one mask in warpdbg's model).
                    Group::Tile(_) => {
                        let active = uint(ExprKind::Intrinsic(Intrinsic::ActiveMask, vec![]), span);
                        Expr::new(ExprKind::Intrinsic(Intrinsic::SyncWarp, vec![active]), Type::Void, span)
                    }
                    Group::Coalesced => {
                        Expr::new(ExprKind::Intrinsic(Intrinsic::SyncWarp, vec![mask]), Type::Void, span)
                    }
                }
            }
            (Group::Block, "thread_rank") => thread_rank(span),
            (Group::Block, "size" | "num_threads") => block_size(span),
            (Group::Tile(_), "thread_rank") => arith(ArithOp::Rem, thread_rank(span), konst(n as u64, span), span),
            (Group::Tile(_), "size" | "num_threads") => konst(n as u64, span),
            (Group::Tile(_), "meta_group_rank") => arith(ArithOp::Div, thread_rank(span), konst(n as u64, span), span),
            (Group::Tile(_), "meta_group_size") => {
                let up = arith(ArithOp::Add, block_size(span), konst(n as u64 - 1, span), span);
                arith(ArithOp::Div, up, konst(n as u64, span), span)
            }
            (Group::Coalesced, "thread_rank") => {
                // The active lanes below this one.
                let below = arith(ArithOp::Sub, arith(ArithOp::Shl, konst(1, span), lane, span), konst(1, span), span);
                let m = arith(ArithOp::And, mask, below, span);
                uint(ExprKind::Intrinsic(Intrinsic::Math(MathFn::Popc), vec![m]), span)
            }
            (Group::Coalesced, "size" | "num_threads") => {
                uint(ExprKind::Intrinsic(Intrinsic::Math(MathFn::Popc), vec![mask]), span)
            }
            (Group::Tile(_), "shfl" | "shfl_down" | "shfl_up" | "shfl_xor") => {
                if !want(self, 2) {
                    return Expr::error(span);
                }
                let kind = match method.name.as_str() {
                    "shfl" => ShflKind::Idx,
                    "shfl_down" => ShflKind::Down,
                    "shfl_up" => ShflKind::Up,
                    _ => ShflKind::Xor,
                };
                let v = self.expr(&args[0]);
                let Some(s) = self.arith_operand(&v, &method.name) else { return Expr::error(span) };
                let s = s.promote();
                let v = Self::to_scalar(v, s);
                let l = self.expr(&args[1]);
                let l = self.convert(l, &Type::INT, "argument");
                let width = Expr::new(ExprKind::Const(n as u64), Type::INT, span);
                Expr::new(ExprKind::Intrinsic(Intrinsic::Shfl(kind), vec![mask, v, l, width]), Type::Scalar(s), span)
            }
            (Group::Tile(_) | Group::Coalesced, "any" | "all" | "ballot") => {
                if !want(self, 1) {
                    return Expr::error(span);
                }
                let kind = match method.name.as_str() {
                    "any" => VoteKind::Any,
                    "all" => VoteKind::All,
                    _ => VoteKind::Ballot,
                };
                let p = self.cond(&args[0]);
                // One ballot over the lanes that are here, then the group's own bits: the tiles of a warp
                // vote in one instruction, each over its lanes.
                let active = uint(ExprKind::Intrinsic(Intrinsic::ActiveMask, vec![]), span);
                let ballot = uint(ExprKind::Intrinsic(Intrinsic::Vote(VoteKind::Ballot), vec![active, p]), span);
                let mine = arith(ArithOp::And, ballot, mask.clone(), span);
                let bool_int = |op, a, b| {
                    let cmp = Expr::new(ExprKind::Cmp(op, Box::new(a), Box::new(b)), Type::BOOL, span);
                    Expr::new(ExprKind::Convert(Box::new(cmp)), Type::INT, span)
                };
                match (kind, group) {
                    (VoteKind::Any, _) => bool_int(CmpOp::Ne, mine, konst(0, span)),
                    (VoteKind::All, _) => {
                        let here = uint(ExprKind::Intrinsic(Intrinsic::ActiveMask, vec![]), span);
                        bool_int(CmpOp::Eq, mine, arith(ArithOp::And, here, mask, span))
                    }
                    // A tile's ballot counts from its own first lane.
                    (_, Group::Tile(n)) if n < 32 => {
                        let first = arith(
                            ArithOp::Mul,
                            arith(ArithOp::Div, lane, konst(n as u64, span), span),
                            konst(n as u64, span),
                            span,
                        );
                        let shifted = arith(ArithOp::Shr, mine, first, span);
                        arith(ArithOp::And, shifted, konst((1u64 << n) - 1, span), span)
                    }
                    _ => mine,
                }
            }
            (_, m) => {
                let what = match group {
                    Group::Block => "thread_block",
                    Group::Tile(_) => "thread_block_tile",
                    Group::Coalesced => "coalesced_group",
                };
                self.err(Diagnostic::unsupported(method.span, format!("`{what}::{m}`")));
                Expr::error(span)
            }
        }
    }

    /// The check for a `T &` parameter: only groups may be passed by reference (they do not change).
    pub(super) fn check_reference_param(&mut self, p: &ast::Param, ty: &Type) {
        // A struct by reference is the caller's variable itself (see `members`).
        if p.reference && group_of(ty).is_none() && !matches!(ty, Type::Struct(_)) {
            self.err(
                Diagnostic::unsupported(p.name.span, "reference parameters (except cooperative groups)")
                    .hint("pass a pointer: `int *x`"),
            );
        }
    }

    /// The type `auto x = init;` gives `x`.
    pub(super) fn auto_type(&mut self, init: Option<&ast::Expr>, span: Span) -> Type {
        match init.map(|e| &e.kind) {
            Some(A::Call(name, _)) if makes_group(&name.name).is_some() => {
                let t = makes_group(&name.name).unwrap_or_default();
                group_type(&t).map_or(Type::Error, Type::Struct)
            }
            Some(_) => {
                let before = self.diags.len();
                let v = init.map(|e| self.expr(e)).map_or(Type::Error, |v| v.ty);
                self.diags.truncate(before);
                if matches!(v, Type::Scalar(_) | Type::Ptr { .. }) { v } else { Type::Error }
            }
            None => {
                self.err(Diagnostic::new(ErrorCode::Type, span, "`auto` needs an initialiser"));
                Type::Error
            }
        }
    }

    /// `this_grid()` and the rest of cooperative groups warpdbg does not model.
    pub(super) fn unsupported_group_call(&mut self, name: &ast::Ident) -> bool {
        let what = match name.name.as_str() {
            "this_grid" | "this_multi_grid" => "grid-wide cooperative groups (this_grid)",
            "tiled_partition" => "tiled_partition with a size chosen at run time: write tiled_partition<N>(block)",
            "binary_partition" | "labeled_partition" => "partitioned cooperative groups",
            "reduce" | "inclusive_scan" | "exclusive_scan" => "cooperative groups' collective algorithms (cg::reduce)",
            "memcpy_async" | "wait" => "cooperative groups' asynchronous copies",
            _ => return false,
        };
        self.err(Diagnostic::unsupported(name.span, what));
        true
    }
}
