//! Built-in functions beyond the core intrinsics: the bit-manipulation and integer-product intrinsics, the
//! rounding conversions and bit reinterpretations, cache-hinted loads, and the warp functions of CUDA 8 and
//! earlier (`__shfl`, `__ballot`, ...), which only a pre-Volta GPU runs.

use super::super::ast;
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{Scalar, Type};
use super::checker::Checker;
use crate::front::launch::Mode;

/// What a built-in computes.
#[derive(Clone, Copy)]
enum Builtin {
    /// A math function: its operands converted to `arg`, the result of type `ret`.
    Math { f: MathFn, arg: Scalar, ret: Scalar },
    /// A float rounded by `round`, then converted to `to` (`__float2int_rn`, ...).
    Round { round: Option<MathFn>, from: Scalar, to: Scalar },
    /// `__ldg(p)`: a load through a read-only pointer.
    Load,
    /// Accepted, with nothing to do (`__nanosleep`, `__prof_trigger`).
    NoEffect,
    /// A pre-CUDA-9 warp function: the `_sync` form, over the lanes active at that point.
    Legacy(Intrinsic),
}

fn builtin(name: &str) -> Option<Builtin> {
    use MathFn as M;
    use Scalar::*;
    let math = |f, arg, ret| Builtin::Math { f, arg, ret };
    let round = |round, from, to| Builtin::Round { round, from, to };
    let mode_of = |suffix: &str| match suffix {
        "rn" => Some(Some(M::Rint)),
        "rz" => Some(None),
        "ru" => Some(Some(M::Ceil)),
        "rd" => Some(Some(M::Floor)),
        _ => None,
    };
    // `__float2int_rn` and its family: source, target and rounding in the name.
    if let Some(rest) = name.strip_prefix("__float2").or_else(|| name.strip_prefix("__double2")) {
        let from = if name.starts_with("__float") { F32 } else { F64 };
        let (to, suffix) = rest.split_once('_')?;
        let to = match to {
            "int" => I32,
            "uint" => U32,
            "ll" => I64,
            "ull" => U64,
            "float" => F32,
            _ => return None,
        };
        return Some(round(mode_of(suffix)?, from, to));
    }
    Some(match name {
        "__popc" => math(M::Popc, U32, I32),
        "__popcll" => math(M::Popc64, U64, I32),
        "__clz" => math(M::Clz, I32, I32),
        "__clzll" => math(M::Clz64, I64, I32),
        "__ffs" => math(M::Ffs, I32, I32),
        "__ffsll" => math(M::Ffs64, I64, I32),
        "__brev" => math(M::Brev, U32, U32),
        "__brevll" => math(M::Brev64, U64, U64),
        "__mul24" => math(M::Mul24, I32, I32),
        "__umul24" => math(M::Mul24, U32, U32),
        "__mulhi" => math(M::MulHi, I32, I32),
        "__umulhi" => math(M::MulHi, U32, U32),
        "__mul64hi" => math(M::MulHi, I64, I64),
        "__umul64hi" => math(M::MulHi, U64, U64),
        "__saturatef" => math(M::Saturate, F32, F32),
        "rintf" | "nearbyintf" => math(M::Rint, F32, F32),
        "rint" | "nearbyint" => math(M::Rint, F64, F64),
        "exp10f" => math(M::Exp10, F32, F32),
        "__exp10f" => math(M::FastExp10, F32, F32),
        "exp10" => math(M::Exp10, F64, F64),
        "__log10f" => math(M::FastLog10, F32, F32),
        "__log2f" => math(M::FastLog2, F32, F32),
        "__tanf" => math(M::FastTan, F32, F32),
        "__int_as_float" => math(M::Bits, I32, F32),
        "__uint_as_float" => math(M::Bits, U32, F32),
        "__float_as_int" => math(M::Bits, F32, I32),
        "__float_as_uint" => math(M::Bits, F32, U32),
        "__double_as_longlong" => math(M::Bits, F64, I64),
        "__longlong_as_double" => math(M::Bits, I64, F64),
        "__int2float_rn" => round(None, I32, F32),
        "__uint2float_rn" => round(None, U32, F32),
        "__ll2float_rn" => round(None, I64, F32),
        "__int2double_rn" => round(None, I32, F64),
        n if is_load(n) => Builtin::Load,
        "__nanosleep" | "__prof_trigger" => Builtin::NoEffect,
        "__shfl" => Builtin::Legacy(Intrinsic::Shfl(ShflKind::Idx)),
        "__shfl_up" => Builtin::Legacy(Intrinsic::Shfl(ShflKind::Up)),
        "__shfl_down" => Builtin::Legacy(Intrinsic::Shfl(ShflKind::Down)),
        "__shfl_xor" => Builtin::Legacy(Intrinsic::Shfl(ShflKind::Xor)),
        "__ballot" => Builtin::Legacy(Intrinsic::Vote(VoteKind::Ballot)),
        "__any" => Builtin::Legacy(Intrinsic::Vote(VoteKind::Any)),
        "__all" => Builtin::Legacy(Intrinsic::Vote(VoteKind::All)),
        _ => return None,
    })
}

/// The names [`builtin`] knows, for "did you mean" hints.
pub(super) const BUILTIN_NAMES: &[&str] = &[
    "__popc",
    "__popcll",
    "__clz",
    "__clzll",
    "__ffs",
    "__ffsll",
    "__brev",
    "__brevll",
    "__mul24",
    "__umul24",
    "__mulhi",
    "__umulhi",
    "__mul64hi",
    "__umul64hi",
    "__saturatef",
    "__float2int_rn",
    "__float2uint_rn",
    "__int_as_float",
    "__float_as_int",
    "__float_as_uint",
    "__uint_as_float",
    "__ldg",
    "__shfl",
    "__shfl_up",
    "__shfl_down",
    "__shfl_xor",
    "__ballot",
    "__any",
    "__all",
];

impl Checker {
    /// Checks a call of a built-in function of this module; None if `name` is not one.
    pub(super) fn builtin_call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Expr> {
        if let Some(e) = self.curand_call(name, args, span) {
            return Some(e);
        }
        if let Some(e) = self.texture_call(name, args, span) {
            return Some(e);
        }
        let b = builtin(&name.name)?;
        Some(match b {
            Builtin::Math { f, arg, ret } => {
                let n = f.arity();
                if !self.expect_args(&name.name, args, n..=n, span) {
                    return Some(Expr::error(span));
                }
                let mut vals = vec![];
                for a in args {
                    let v = self.expr(a);
                    if v.ty.is_error() {
                        return Some(Expr::error(span));
                    }
                    if v.ty.scalar().is_none() {
                        return Some(
                            self.type_error(
                                a.span,
                                format!("`{}` takes a {}, found `{}`", name.name, arg.name(), v.ty),
                            ),
                        );
                    }
                    // A reinterpretation needs an operand of exactly its width; the others convert.
                    vals.push(if f == MathFn::Bits {
                        Self::to_scalar(v, arg)
                    } else {
                        self.convert(v, &Type::Scalar(arg), "argument")
                    });
                }
                // Integer functions compute in their operand type; the result is `ret`'s bits.
                let op_ty = if f == MathFn::Bits { ret } else { arg };
                let e = Expr::new(ExprKind::Intrinsic(Intrinsic::Math(f), vals), Type::Scalar(op_ty), span);
                if op_ty == ret { e } else { Self::to_scalar(e, ret) }
            }
            Builtin::Round { round, from, to } => {
                if !self.expect_args(&name.name, args, 1..=1, span) {
                    return Some(Expr::error(span));
                }
                let v = self.expr(&args[0]);
                let mut v = self.convert(v, &Type::Scalar(from), "argument");
                if let Some(f) = round {
                    v = Expr::new(ExprKind::Intrinsic(Intrinsic::Math(f), vec![v]), Type::Scalar(from), span);
                }
                Self::to_scalar(v, to)
            }
            Builtin::Load => {
                if !self.expect_args(&name.name, args, 1..=1, span) {
                    return Some(Expr::error(span));
                }
                let p = self.expr(&args[0]);
                match p.ty.pointee().cloned() {
                    Some(elem) if elem.scalar().is_some() => Expr::new(ExprKind::Load(Box::new(p)), elem, span),
                    _ if p.ty.is_error() => Expr::error(span),
                    _ => self.type_error(
                        args[0].span,
                        format!("`{}` needs a pointer to a number, found `{}`", name.name, p.ty),
                    ),
                }
            }
            Builtin::NoEffect => {
                for a in args {
                    self.expr(a);
                }
                Expr::new(ExprKind::Const(0), Type::Void, span)
            }
            Builtin::Legacy(intr) => self.legacy_warp(intr, name, args, span),
        })
    }

    /// `__shfl_down(v, d)` and friends: under pre-Volta scheduling, the `_sync` form over the active lanes
    /// (what a Pascal GPU exchanged between); under ITS, the lesson of why CUDA 9 removed them.
    fn legacy_warp(&mut self, intr: Intrinsic, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        if self.mode == Mode::Its {
            let sync = format!("{}_sync", name.name);
            let example = match intr {
                Intrinsic::Shfl(_) => format!("`{sync}(0xffffffff, v, ...)`"),
                _ => format!("`{sync}(0xffffffff, predicate)`"),
            };
            let d = Diagnostic::new(
                ErrorCode::Unsupported,
                name.span,
                format!("`{}` does not exist for Volta and later GPUs (independent thread scheduling)", name.name),
            )
            .label("removed in CUDA 9 for sm_70 and later");
            // The lesson once; later uses only say what to write.
            let taught = std::mem::replace(&mut self.legacy_taught, true);
            self.err(if taught {
                d.hint(format!("write {example}"))
            } else {
                d.hint(format!(
                    "with independent thread scheduling the threads of a warp are no longer guaranteed to reach this \
                     call together, so \"the whole warp\" it implicitly exchanges between is not well defined; write \
                     {example} naming the threads that take part (and make sure they all reach it), or run this file \
                     with `--mode pre-volta` (`// @mode pre-volta`) to see how a Pascal GPU ran it"
                ))
            });
            for a in args {
                self.expr(a);
            }
            return Expr::error(span);
        }
        if self.legacy_warp.is_none() {
            self.legacy_warp = Some(name.name.clone());
        }
        // The mask argument the `_sync` form takes first: the lanes active here, as Pascal exchanged between.
        let active =
            ast::Expr { kind: ast::ExprKind::Call(ast::Ident { name: "__activemask".into(), span }, vec![]), span };
        let mut with_mask = vec![active];
        with_mask.extend(args.iter().cloned());
        let sync_name = match intr {
            Intrinsic::Shfl(ShflKind::Idx) => "__shfl_sync",
            Intrinsic::Shfl(ShflKind::Up) => "__shfl_up_sync",
            Intrinsic::Shfl(ShflKind::Down) => "__shfl_down_sync",
            Intrinsic::Shfl(ShflKind::Xor) => "__shfl_xor_sync",
            Intrinsic::Vote(VoteKind::Ballot) => "__ballot_sync",
            Intrinsic::Vote(VoteKind::Any) => "__any_sync",
            _ => "__all_sync",
        };
        self.intrinsic(intr, sync_name, &with_mask, span)
    }
}

/// The cache-hinted loads (`__ldg(p)` is `*p`).
pub(super) fn is_load(name: &str) -> bool {
    matches!(name, "__ldg" | "__ldca" | "__ldcg" | "__ldcs" | "__ldlu" | "__ldcv")
}
