//! Cooperative groups, the part courses teach: the group types (`thread_block`, `thread_block_tile<N>`,
//! `coalesced_group`, `thread_group`, `grid_group`), the calls that make them (`this_thread_block()`,
//! `tiled_partition<N>(block)`, `tiled_partition(block, n)`, `coalesced_threads()`, `this_grid()`; the
//! partitions into coalesced groups are in `group_collectives.rs`) and how
//! one group converts to another; their methods are in `group_ops.rs`. Everything lowers to the indices,
//! barriers, shuffles and votes a group is made of.
//!
//! A group is a struct whose fields are what the thread cannot recompute from its indices: none for a block,
//! a tile (its size is part of its type) or the grid; the lane mask for a coalesced group (the lanes active
//! where it was made); and for a `thread_group`, which holds any of them at run time, the thread's rank, the
//! group's size and its lane mask (0 for a whole block). The debugger shows these fields as the variable's.

use super::super::ast::{self, ExprKind as A};
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{Scalar, Type};
use super::checker::{BUILTIN_VECTORS, Binding, Checker};
use crate::front::builtin_types::{group_type, vector_type};

/// A group type's kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Group {
    Block,
    Tile(u32),
    Coalesced,
    /// `thread_group`: a block, a tile or a coalesced group, known at run time.
    Dynamic,
    Grid,
}

impl Group {
    pub(super) fn name(self) -> String {
        match self {
            Group::Block => "thread_block".into(),
            Group::Tile(n) => format!("thread_block_tile<{n}>"),
            Group::Coalesced => "coalesced_group".into(),
            Group::Dynamic => "thread_group".into(),
            Group::Grid => "grid_group".into(),
        }
    }
}

/// A group's value: its kind and its fields' values, in the order of its struct's fields.
pub(super) struct GroupVal {
    pub group: Group,
    pub fields: Vec<Expr>,
}

impl GroupVal {
    /// The lane mask of a coalesced group or `thread_group`.
    pub(super) fn field(&self, name: &str, span: Span) -> Expr {
        let i = match (self.group, name) {
            (Group::Dynamic, "rank") => 0,
            (Group::Dynamic, "size") => 1,
            (Group::Dynamic, _) => 2,
            _ => 0,
        };
        self.fields.get(i).cloned().unwrap_or_else(|| konst(0, span))
    }
}

/// The group kind of a type, if it is a group type.
pub(super) fn group_of(ty: &Type) -> Option<Group> {
    let s = ty.as_struct()?;
    match s.name.as_str() {
        "thread_block" => Some(Group::Block),
        "coalesced_group" => Some(Group::Coalesced),
        "thread_group" => Some(Group::Dynamic),
        "grid_group" => Some(Group::Grid),
        // (A tile of another size is diagnosed where it is made; its variables are no group.)
        n => n
            .strip_prefix("thread_block_tile<")?
            .strip_suffix('>')?
            .parse()
            .ok()
            .filter(|n: &u32| n.is_power_of_two() && *n <= 32)
            .map(Group::Tile),
    }
}

/// The type name of the group a function makes (`this_thread_block`, `tiled_partition<N>`,
/// `tiled_partition`, `coalesced_threads`, `this_grid`), if it makes one.
pub(super) fn makes_group(name: &str) -> Option<String> {
    match name {
        "this_thread_block" => Some("thread_block".into()),
        "coalesced_threads" => Some("coalesced_group".into()),
        "tiled_partition" => Some("thread_group".into()),
        "this_grid" => Some("grid_group".into()),
        "binary_partition" | "labeled_partition" => Some("coalesced_group".into()),
        _ => {
            let n = name.strip_prefix("tiled_partition<")?.strip_suffix('>')?;
            Some(format!("thread_block_tile<{}>", n.trim()))
        }
    }
}

pub(super) fn uint(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, Type::UINT, span)
}

pub(super) fn konst(v: u64, span: Span) -> Expr {
    uint(ExprKind::Const(v), span)
}

pub(super) fn arith(op: ArithOp, a: Expr, b: Expr, span: Span) -> Expr {
    let ty = a.ty.clone();
    Expr::new(ExprKind::Arith { op, left: Box::new(a), right: Box::new(b) }, ty, span)
}

pub(super) fn special(s: Special, span: Span) -> Expr {
    uint(ExprKind::Special(s), span)
}

/// A 32-bit math intrinsic on unsigned operands (`__popc`, [`MathFn::NthLane`], ...).
pub(super) fn umath(f: MathFn, args: Vec<Expr>, span: Span) -> Expr {
    uint(ExprKind::Intrinsic(Intrinsic::Math(f), args), span)
}

/// The thread's index in its block, x fastest.
pub(super) fn thread_rank(span: Span) -> Expr {
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

/// The thread's lane in its warp.
pub(super) fn lane(span: Span) -> Expr {
    arith(ArithOp::Rem, thread_rank(span), konst(32, span), span)
}

pub(super) fn block_size(span: Span) -> Expr {
    let d = |a| special(Special::BlockDim(a), span);
    arith(ArithOp::Mul, arith(ArithOp::Mul, d(0), d(1), span), d(2), span)
}

/// The lanes of the thread's tile of `n` (an unsigned expression, 1 to 32), as a warp mask:
/// `0xffffffff >> (32 - n) << lane / n * n` (no shift by 32 for a whole warp).
pub(super) fn tile_mask_of(n: Expr, span: Span) -> Expr {
    let ones =
        arith(ArithOp::Shr, konst(0xffff_ffff, span), arith(ArithOp::Sub, konst(32, span), n.clone(), span), span);
    let first = arith(ArithOp::Mul, arith(ArithOp::Div, lane(span), n.clone(), span), n, span);
    arith(ArithOp::Shl, ones, first, span)
}

/// The lanes of the thread's tile of `n`.
pub(super) fn tile_mask(n: u32, span: Span) -> Expr {
    if n >= 32 { konst(0xffff_ffff, span) } else { tile_mask_of(konst(n as u64, span), span) }
}

/// The thread's rank in a coalesced group of lanes `mask`: the lanes of the mask below its own.
pub(super) fn coalesced_rank(mask: Expr, span: Span) -> Expr {
    let below = arith(ArithOp::Sub, arith(ArithOp::Shl, konst(1, span), lane(span), span), konst(1, span), span);
    umath(MathFn::Popc, vec![arith(ArithOp::And, mask, below, span)], span)
}

impl Checker {
    /// The group an expression denotes: a group variable or parameter, or a call that makes one (evaluated
    /// here). None, with nothing reported, for anything else.
    pub(super) fn group_operand(&mut self, e: &ast::Expr) -> Option<GroupVal> {
        match &e.kind {
            A::Name(n) => match self.lookup(n)? {
                Binding::StructLocal(i) => {
                    let sl = &self.struct_locals[i as usize];
                    let group = group_of(&sl.ty)?;
                    let fields = sl.leaves.iter().map(|(_, id, t)| Expr::new(ExprKind::Local(*id), t.clone(), e.span));
                    Some(GroupVal { group, fields: fields.collect() })
                }
                _ => None,
            },
            A::Call(f, args) => {
                let made = makes_group(&f.name)?;
                // (First: a tile of a size that is no group's is diagnosed there.)
                let fields = self.group_values(&f.name, args, e.span)?;
                let group = group_of(&Type::Struct(group_type(&made)?))?;
                Some(GroupVal { group, fields })
            }
            _ => None,
        }
    }

    /// Whether `e` names or makes a group (looked at without evaluating anything).
    pub(super) fn is_group_expr(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            A::Name(n) => match self.lookup(n) {
                Some(Binding::StructLocal(i)) => group_of(&self.struct_locals[i as usize].ty).is_some(),
                _ => false,
            },
            A::Call(f, _) => makes_group(&f.name).is_some(),
            _ => false,
        }
    }

    /// The field values of the group that call `name(args)` makes (None after a diagnostic).
    pub(super) fn group_values(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Vec<Expr>> {
        let ty = makes_group(name)?;
        if name == "tiled_partition" {
            return self.runtime_partition(args, span);
        }
        if matches!(name, "binary_partition" | "labeled_partition") {
            return self.partition_values(name, args, span);
        }
        // The parent group (`tiled_partition<32>(block)`) only says which threads: nothing to evaluate.
        for a in args {
            if !self.is_group_expr(a) {
                self.expr(a);
            }
        }
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
        Some(match ty.as_str() {
            "coalesced_group" => vec![uint(ExprKind::Intrinsic(Intrinsic::ActiveMask, vec![]), span)],
            _ => vec![],
        })
    }

    /// `tiled_partition(parent, n)`: a `thread_group` of tiles of `n` threads, `n` known at run time.
    fn runtime_partition(&mut self, args: &[ast::Expr], span: Span) -> Option<Vec<Expr>> {
        let [parent, n] = args else {
            self.err(Diagnostic::new(
                ErrorCode::Type,
                span,
                format!(
                    "`tiled_partition` takes 2 arguments (the parent group and the tile size), {} given",
                    args.len()
                ),
            ));
            return None;
        };
        let Some(p) = self.group_operand(parent) else {
            self.expr(parent);
            self.err(
                Diagnostic::new(ErrorCode::Type, parent.span, "`tiled_partition` partitions a group")
                    .hint("pass the block: `tiled_partition(this_thread_block(), 32)`"),
            );
            return None;
        };
        if matches!(p.group, Group::Grid | Group::Coalesced) {
            self.err(Diagnostic::unsupported(parent.span, format!("partitioning a `{}`", p.group.name())));
            return None;
        }
        let nv = self.expr(n);
        let nv = self.convert(nv, &Type::UINT, "argument");
        if nv.ty.is_error() {
            return None;
        }
        match self.const_int(&nv) {
            Some(k) if k > 0 && k <= 32 && (k as u64).is_power_of_two() => {}
            Some(k) => {
                self.err(
                    Diagnostic::new(ErrorCode::Type, n.span, format!("a tile of {k} threads"))
                        .label("tiled_partition takes a power of two up to 32")
                        .hint("tiles are parts of one warp: 1, 2, 4, 8, 16 or 32 threads"),
                );
                return None;
            }
            // Known at run time only: a size that is not a power of two up to 32 makes tiles that are not
            // CUDA's (undefined there).
            None => {}
        }
        let rank = arith(ArithOp::Rem, self.group_rank(&p, span), nv.clone(), span);
        Some(vec![rank, nv.clone(), tile_mask_of(nv, span)])
    }

    /// The thread's rank in group `g`.
    pub(super) fn group_rank(&mut self, g: &GroupVal, span: Span) -> Expr {
        match g.group {
            Group::Block => thread_rank(span),
            Group::Tile(n) => arith(ArithOp::Rem, thread_rank(span), konst(n as u64, span), span),
            Group::Coalesced => coalesced_rank(g.field("mask", span), span),
            Group::Dynamic => g.field("rank", span),
            Group::Grid => {
                let b = |a| special(Special::BlockIdx(a), span);
                let g = |a| special(Special::GridDim(a), span);
                let block = arith(
                    ArithOp::Add,
                    arith(
                        ArithOp::Mul,
                        arith(ArithOp::Add, arith(ArithOp::Mul, b(2), g(1), span), b(1), span),
                        g(0),
                        span,
                    ),
                    b(0),
                    span,
                );
                let wide = |e: Expr| Expr::new(ExprKind::Convert(Box::new(e)), Type::Scalar(Scalar::U64), span);
                let r = arith(ArithOp::Mul, wide(block), wide(block_size(span)), span);
                arith(ArithOp::Add, r, wide(thread_rank(span)), span)
            }
        }
    }

    /// The values of group `src` as a `to` (`thread_group g = this_thread_block();`, an argument passed to a
    /// `const thread_group &` parameter); None after a diagnostic.
    fn convert_group(&mut self, src: GroupVal, to: Group, span: Span) -> Option<Vec<Expr>> {
        if src.group == to {
            return Some(src.fields);
        }
        if to == Group::Dynamic && src.group != Group::Grid {
            let rank = self.group_rank(&src, span);
            let (size, mask) = match src.group {
                Group::Block => (block_size(span), konst(0, span)),
                Group::Tile(n) => (konst(n as u64, span), tile_mask(n, span)),
                _ => {
                    let m = src.field("mask", span);
                    (umath(MathFn::Popc, vec![m.clone()], span), m)
                }
            };
            return Some(vec![rank, size, mask]);
        }
        self.err(
            Diagnostic::new(
                ErrorCode::Type,
                span,
                format!("cannot convert a `{}` to a `{}`", src.group.name(), to.name()),
            )
            .label("cooperative groups convert only to `thread_group`"),
        );
        None
    }

    /// The field values of a struct-typed initialiser or argument that involves a group: a group of type `ty`
    /// (made, copied or converted), or a `dim3` from a group's `group_index()` and the like. None when `e`
    /// and `ty` are no such thing (the caller goes on); Some(None) after a diagnostic.
    pub(super) fn group_struct_values(&mut self, e: &ast::Expr, ty: &Type) -> Option<Option<Vec<Expr>>> {
        let to = group_of(ty);
        let made = matches!(&e.kind, A::Call(f, _) if makes_group(&f.name).is_some());
        if to.is_some() || made {
            return match (self.group_operand(e), to) {
                (Some(src), Some(to)) => Some(self.convert_group(src, to, e.span)),
                // Not a group: the caller says what it is.
                (None, Some(_)) => None,
                (Some(src), None) => {
                    let d = Diagnostic::new(
                        ErrorCode::Type,
                        e.span,
                        format!("cannot convert a `{}` to a `{ty}`", src.group.name()),
                    );
                    self.err(d);
                    Some(None)
                }
                // (Diagnosed where it was made.)
                (None, None) => Some(None),
            };
        }
        let A::MethodCall { object: obj, method, args } = &e.kind else { return None };
        let s = ty.as_struct()?;
        if s.fields.len() != 3 || !self.is_group_expr(obj) {
            return None;
        }
        let v = self.group_dim3(obj, method, args, e.span)?;
        let Some(v) = v else { return Some(None) };
        let fields: Vec<Type> = s.fields.iter().map(|f| f.ty.clone()).collect();
        Some(Some(v.into_iter().zip(&fields).map(|(x, t)| self.convert(x, t, "initialiser")).collect()))
    }

    /// `g.group_index().x` and the other fields of a group's `dim3` methods; None when `obj` is no such call.
    pub(super) fn group_member(&mut self, obj: &ast::Expr, field: &ast::Ident, span: Span) -> Option<Expr> {
        let A::MethodCall { object: g, method, args } = &obj.kind else { return None };
        if !self.is_group_expr(g) {
            return None;
        }
        let v = self.group_dim3(g, method, args, span)?;
        let Some(v) = v else { return Some(Expr::error(span)) };
        let axis = match field.name.as_str() {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => {
                let d = Diagnostic::new(ErrorCode::Name, field.span, format!("a `dim3` has no field `{}`", field.name))
                    .label("expected x, y or z");
                self.err(d);
                return Some(Expr::error(span));
            }
        };
        v.into_iter().nth(axis)
    }

    /// The three values of a group's `dim3` method (`group_index()`, `thread_index()`, `group_dim()`,
    /// `dim_threads()`; the grid's `block_index()`, `dim_blocks()`); None when `method` is none of them.
    pub(super) fn group_dim3(
        &mut self,
        obj: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Option<Vec<Expr>>> {
        let which: fn(u8) -> Special = match method.name.as_str() {
            "group_index" | "block_index" => Special::BlockIdx,
            "thread_index" => Special::ThreadIdx,
            "group_dim" | "dim_threads" | "dim_blocks" => Special::BlockDim,
            _ => return None,
        };
        let g = self.group_operand(obj)?;
        let ok = match g.group {
            Group::Block => {
                matches!(method.name.as_str(), "group_index" | "thread_index" | "group_dim" | "dim_threads")
            }
            Group::Grid => matches!(method.name.as_str(), "block_index" | "dim_blocks" | "group_dim" | "dim_threads"),
            _ => false,
        };
        if !ok {
            self.err(
                Diagnostic::new(
                    ErrorCode::Type,
                    method.span,
                    format!("`{}` has no `{}()`", g.group.name(), method.name),
                )
                .hint("a block has `group_index()`, `thread_index()`, `group_dim()` and `dim_threads()`"),
            );
            return Some(None);
        }
        if !args.is_empty() {
            self.err(Diagnostic::new(ErrorCode::Type, span, format!("`{}` takes no arguments", method.name)));
            return Some(None);
        }
        Some(Some(
            (0..3u8)
                .map(|a| match (g.group, method.name.as_str()) {
                    // The grid's dimensions: in blocks, or in threads.
                    (Group::Grid, "dim_blocks" | "group_dim") => special(Special::GridDim(a), span),
                    (Group::Grid, "dim_threads") => arith(
                        ArithOp::Mul,
                        special(Special::GridDim(a), span),
                        special(Special::BlockDim(a), span),
                        span,
                    ),
                    _ => special(which(a), span),
                })
                .collect(),
        ))
    }

    /// The check for a `T &` parameter: a group, struct, scalar or pointer is the caller's variable itself
    /// (a `const T &` a copy); an array by reference is not supported.
    pub(super) fn check_reference_param(&mut self, p: &ast::Param, ty: &Type) {
        if p.reference && matches!(ty, Type::Array(..)) {
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
            // `auto t = threadIdx;`: a `uint3` (`blockDim` and `gridDim` are `dim3`s).
            Some(A::Name(n)) if BUILTIN_VECTORS.contains(&n.as_str()) && self.lookup(n).is_none() => {
                let t = if matches!(n.as_str(), "blockDim" | "gridDim") { "dim3" } else { "uint3" };
                vector_type(t).map_or(Type::Error, Type::Struct)
            }
            // `auto b = a;` of a struct variable (a group too): a copy.
            Some(A::Name(_)) if init.is_some_and(|i| self.struct_local_type(i).is_some()) => {
                init.and_then(|i| self.struct_local_type(i)).unwrap_or(Type::Error)
            }
            Some(A::MethodCall { object: obj, method: m, .. })
                if self.is_group_expr(obj)
                    && matches!(
                        m.name.as_str(),
                        "group_index" | "thread_index" | "group_dim" | "dim_threads" | "block_index" | "dim_blocks"
                    ) =>
            {
                vector_type("dim3").map_or(Type::Error, Type::Struct)
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

    /// The parts of cooperative groups warpdbg does not model.
    pub(super) fn unsupported_group_call(&mut self, name: &ast::Ident) -> bool {
        let what = match name.name.as_str() {
            "this_multi_grid" => "multi-device cooperative groups (this_multi_grid)",
            "memcpy_async" | "wait" | "wait_prior" => "cooperative groups' asynchronous copies",
            _ => return false,
        };
        self.err(Diagnostic::unsupported(name.span, what));
        true
    }
}
