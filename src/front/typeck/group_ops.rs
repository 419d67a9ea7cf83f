//! What cooperative groups do: their methods (`sync`, `thread_rank`, `size`, the shuffles and votes), each
//! lowered to the barrier, shuffle or vote it is made of (the groups are in `groups.rs`, the collectives in
//! `group_collectives.rs`).
//!
//! A block's `sync()` is `__syncthreads()`. A tile's and a coalesced group's are `__syncwarp` over the group's
//! lanes, each lane naming its own group: under ITS a warp-level convergence point over the tile, shown as
//! such; a `thread_group`'s chooses between the two at run time by its mask. A tile's shuffles are the warp
//! shuffles with the tile's lanes as their mask and its size as their width; its votes are the warp votes
//! over its lanes (a ballot counted from the tile's first lane). A coalesced group's shuffles go by rank.

use super::super::ast::{self, ExprKind as A};
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{Scalar, Type};
use super::checker::Checker;
use super::groups::{
    Group, GroupVal, arith, block_size, coalesced_rank, konst, lane, special, thread_rank, tile_mask, uint, umath,
};

/// Every method some group has (one that another group has is a type error, not "unsupported").
const METHODS: &[&str] = &[
    "sync",
    "thread_rank",
    "size",
    "num_threads",
    "meta_group_rank",
    "meta_group_size",
    "shfl",
    "shfl_down",
    "shfl_up",
    "shfl_xor",
    "any",
    "all",
    "ballot",
    "num_blocks",
    "block_rank",
    "is_valid",
];

impl Checker {
    /// `g.method(args)` on a cooperative group.
    pub(super) fn method_call(&mut self, obj: &ast::Expr, method: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        let dim3 = matches!(
            method.name.as_str(),
            "group_index" | "thread_index" | "group_dim" | "dim_threads" | "block_index" | "dim_blocks"
        );
        if dim3 && self.is_group_expr(obj) {
            return match self.group_dim3(obj, method, args, span) {
                Some(Some(_)) => self.type_error(
                    span,
                    format!(
                        "`{}()` is a `dim3`: read a field, `.{}().x`, or copy it, `dim3 d = ...`",
                        method.name, method.name
                    ),
                ),
                _ => Expr::error(span),
            };
        }
        let Some(g) = self.group_operand(obj) else {
            let ty = self.struct_local_type(obj);
            if let Some(n) = ty.as_ref().and_then(|t| t.as_struct()?.name.strip_prefix("thread_block_tile<")) {
                for a in args {
                    self.expr(a);
                }
                let n = n.trim_end_matches('>');
                self.err(
                    Diagnostic::new(ErrorCode::Type, obj.span, format!("a tile of {n} threads"))
                        .label("thread_block_tile<N> takes a power of two up to 32")
                        .hint("tiles are parts of one warp: 1, 2, 4, 8, 16 or 32 threads"),
                );
                return Expr::error(span);
            }
            let made = matches!(&obj.kind, A::Call(f, _) if super::groups::makes_group(&f.name).is_some());
            if ty.is_none() && !made {
                self.expr(obj);
            }
            for a in args {
                self.expr(a);
            }
            return self
                .type_error(span, format!("`.{}(...)`: only cooperative groups have methods here", method.name));
        };
        self.group_method(g, method, args, span)
    }

    /// `cg::sync(g)`.
    pub(super) fn group_sync_call(&mut self, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let [g] = args else { return None };
        if !self.is_group_expr(g) {
            return None;
        }
        let sync = ast::Ident { name: "sync".into(), span };
        Some(self.method_call(g, &sync, &[], span))
    }

    fn want_args(&mut self, method: &ast::Ident, args: &[ast::Expr], k: usize, span: Span) -> bool {
        if args.len() == k {
            return true;
        }
        self.err(Diagnostic::new(
            ErrorCode::Type,
            span,
            format!("`{}` takes {k} argument{}, {} given", method.name, if k == 1 { "" } else { "s" }, args.len()),
        ));
        for a in args {
            self.expr(a);
        }
        false
    }

    fn group_method(&mut self, g: GroupVal, method: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        let m = method.name.as_str();
        let takes = match m {
            "shfl" | "shfl_down" | "shfl_up" | "shfl_xor" => 2,
            "any" | "all" | "ballot" => 1,
            _ => 0,
        };
        let known = match (g.group, m) {
            (Group::Dynamic, "num_threads") => {
                // Measured with CUDA 13: declared in cooperative_groups.h, defined nowhere.
                self.err(
                    Diagnostic::new(ErrorCode::Type, method.span, "`thread_group::num_threads()` is declared but never defined")
                        .label("CUDA 13's nvcc fails to link it (ptxas: unresolved extern function)")
                        .hint("call `size()`, or keep the tile's own type: `thread_block_tile<16> t = tiled_partition<16>(block);`"),
                );
                return Expr::error(span);
            }
            (_, "thread_rank" | "size" | "num_threads") => true,
            (_, "sync") => true,
            (Group::Grid, "num_blocks" | "block_rank" | "is_valid") => true,
            (Group::Tile(_) | Group::Coalesced, "meta_group_rank" | "meta_group_size" | "any" | "all" | "ballot") => {
                true
            }
            (Group::Tile(_) | Group::Coalesced, "shfl" | "shfl_down" | "shfl_up") => true,
            (Group::Tile(_), "shfl_xor") => true,
            _ => false,
        };
        if !known {
            for a in args {
                self.expr(a);
            }
            let what = format!("`{}::{m}`", g.group.name());
            let d = if METHODS.contains(&m) {
                Diagnostic::new(ErrorCode::Type, method.span, format!("a `{}` has no method `{m}`", g.group.name()))
                    .hint(match g.group {
                        Group::Dynamic => {
                            "a `thread_group` has `sync`, `thread_rank` and `size`: keep the tile's own \
                                           type, `thread_block_tile<32> t = tiled_partition<32>(block);`"
                        }
                        _ => "see docs/language.md for each group's methods",
                    })
            } else {
                Diagnostic::unsupported(method.span, what)
            };
            self.err(d);
            return Expr::error(span);
        }
        if !self.want_args(method, args, takes, span) {
            return Expr::error(span);
        }
        let u64_ty = Type::Scalar(Scalar::U64);
        let wide = |e: Expr| Expr::new(ExprKind::Convert(Box::new(e)), u64_ty.clone(), span);
        match (g.group, m) {
            (_, "sync") => self.group_sync(&g, span),
            (Group::Grid, "thread_rank" | "block_rank") => {
                let r = self.group_rank(&g, span);
                if m == "thread_rank" { r } else { arith(ArithOp::Div, r, wide(block_size(span)), span) }
            }
            (Group::Grid, "size" | "num_threads" | "num_blocks") => {
                let d = |a| special(Special::GridDim(a), span);
                let blocks = wide(arith(ArithOp::Mul, arith(ArithOp::Mul, d(0), d(1), span), d(2), span));
                if m == "num_blocks" { blocks } else { arith(ArithOp::Mul, blocks, wide(block_size(span)), span) }
            }
            // Whether the launch has a grid workspace: decided when the whole kernel is lowered.
            (Group::Grid, _) => Expr::new(ExprKind::Intrinsic(Intrinsic::GridValid, vec![]), Type::BOOL, span),
            (_, "thread_rank") => self.group_rank(&g, span),
            (Group::Block, _) => block_size(span),
            (Group::Tile(n), "size" | "num_threads") => konst(n as u64, span),
            (Group::Dynamic, _) => g.field("size", span),
            (Group::Coalesced, "size" | "num_threads") => umath(MathFn::Popc, vec![g.field("mask", span)], span),
            (Group::Tile(n), "meta_group_rank") => arith(ArithOp::Div, thread_rank(span), konst(n as u64, span), span),
            (Group::Tile(n), "meta_group_size") => {
                let up = arith(ArithOp::Add, block_size(span), konst(n as u64 - 1, span), span);
                arith(ArithOp::Div, up, konst(n as u64, span), span)
            }
            // A coalesced group is the only one of its parent's partition.
            (Group::Coalesced, "meta_group_rank") => konst(0, span),
            (Group::Coalesced, "meta_group_size") => konst(1, span),
            (_, "any" | "all" | "ballot") => self.group_vote(&g, m, &args[0], span),
            _ => self.group_shuffle(&g, m, args, span),
        }
    }

    /// A group's `sync()`.
    fn group_sync(&mut self, g: &GroupVal, span: Span) -> Expr {
        let void = |i, args| Expr::new(ExprKind::Intrinsic(i, args), Type::Void, span);
        match g.group {
            Group::Block => void(Intrinsic::SyncThreads, vec![]),
            Group::Tile(n) => void(Intrinsic::SyncWarp, vec![tile_mask(n, span)]),
            Group::Coalesced => void(Intrinsic::SyncWarp, vec![g.field("mask", span)]),
            Group::Dynamic => void(Intrinsic::GroupSync, vec![g.field("mask", span)]),
            Group::Grid => void(Intrinsic::GridSync, vec![]),
        }
    }

    /// The lanes of a tile or coalesced group, as a warp mask.
    fn group_mask(g: &GroupVal, span: Span) -> Expr {
        match g.group {
            Group::Tile(n) => tile_mask(n, span),
            _ => g.field("mask", span),
        }
    }

    /// `any`, `all`, `ballot` over a tile's or coalesced group's lanes; a ballot's bits are by rank.
    fn group_vote(&mut self, g: &GroupVal, m: &str, pred: &ast::Expr, span: Span) -> Expr {
        let kind = match m {
            "any" => VoteKind::Any,
            "all" => VoteKind::All,
            _ => VoteKind::Ballot,
        };
        let p = self.cond(pred);
        let mask = Self::group_mask(g, span);
        let ty = if kind == VoteKind::Ballot { Type::UINT } else { Type::INT };
        let vote = Expr::new(ExprKind::Intrinsic(Intrinsic::Vote(kind), vec![mask.clone(), p]), ty, span);
        match (kind, g.group) {
            (VoteKind::Ballot, Group::Tile(32)) | (VoteKind::Any | VoteKind::All, _) => vote,
            _ => umath(MathFn::PackBits, vec![vote, mask], span),
        }
    }

    /// A tile's shuffles (the warp's, over the tile's lanes, of width the tile's size) and a coalesced
    /// group's (by rank: the source lane is the mask's lane of that rank; past either end, the thread's own
    /// value, as `shfl_down` gives at the end of a warp).
    fn group_shuffle(&mut self, g: &GroupVal, m: &str, args: &[ast::Expr], span: Span) -> Expr {
        let v = self.expr(&args[0]);
        let Some(s) = self.arith_operand(&v, m) else {
            self.expr(&args[1]);
            return Expr::error(span);
        };
        let s = s.promote();
        let v = Self::to_scalar(v, s);
        let l = self.expr(&args[1]);
        let mask = Self::group_mask(g, span);
        let shfl = |kind, lane: Expr, width: u64| {
            let width = Expr::new(ExprKind::Const(width), Type::INT, span);
            Expr::new(
                ExprKind::Intrinsic(Intrinsic::Shfl(kind), vec![mask.clone(), v.clone(), lane, width]),
                Type::Scalar(s),
                span,
            )
        };
        if let Group::Tile(n) = g.group {
            let kind = match m {
                "shfl" => ShflKind::Idx,
                "shfl_down" => ShflKind::Down,
                "shfl_up" => ShflKind::Up,
                _ => ShflKind::Xor,
            };
            let l = self.convert(l, &Type::INT, "argument");
            return shfl(kind, l, n as u64);
        }
        let l = self.convert(l, &Type::UINT, "argument");
        let gmask = g.field("mask", span);
        let rank = coalesced_rank(gmask.clone(), span);
        let src_rank = match m {
            "shfl" => l,
            "shfl_down" => arith(ArithOp::Add, rank.clone(), l, span),
            _ => arith(ArithOp::Sub, rank.clone(), l, span),
        };
        let src = umath(MathFn::NthLane, vec![gmask.clone(), src_rank.clone()], span);
        let src = if m == "shfl" {
            src
        } else {
            // In range: `rank + d < size` (down), `d <= rank` (up, where `rank - d` did not wrap). Chosen
            // without a branch: `lane + (src - lane) * in_range`.
            let size = umath(MathFn::Popc, vec![gmask], span);
            let cmp = match m {
                "shfl_down" => Expr::new(
                    ExprKind::Cmp { op: CmpOp::Lt, left: Box::new(src_rank), right: Box::new(size) },
                    Type::BOOL,
                    span,
                ),
                _ => Expr::new(
                    ExprKind::Cmp { op: CmpOp::Le, left: Box::new(src_rank), right: Box::new(rank) },
                    Type::BOOL,
                    span,
                ),
            };
            let in_range = uint(ExprKind::Convert(Box::new(cmp)), span);
            let delta = arith(ArithOp::Mul, arith(ArithOp::Sub, src, lane(span), span), in_range, span);
            arith(ArithOp::Add, lane(span), delta, span)
        };
        let src = Self::to_scalar(src, Scalar::I32);
        shfl(ShflKind::Idx, src, 32)
    }
}
