//! The cuRAND device API's calls (`curand_init`, `curand`, `curand_uniform`, `curand_normal`, ...), checked
//! here and turned into one `Curand` instruction per output word (see `sim::curand`): the new state is written
//! back to the struct's fields, where it lives (registers for a local copy, memory for `&states[id]`). The
//! state structs themselves are built-in types (`front::builtin_types`).

use super::super::ast::{self, ExprKind as A};
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{Scalar, Type};
use super::checker::Checker;
use super::layout::LeafPlaces;
use crate::front::builtin_types::{curand_generator, is_curand_state, vector_type};
use crate::front::curand::{CurandFn, Draw, Gen};

/// What a cuRAND function name does; None if it is not one warpdbg knows.
fn function(name: &str) -> Option<Option<Draw>> {
    Some(Some(match name {
        "curand_init" => return Some(None),
        "curand" => Draw::U32,
        "curand_uniform" => Draw::Uniform,
        "curand_uniform_double" => Draw::UniformDouble,
        "curand_normal" => Draw::Normal,
        "curand_normal_double" => Draw::NormalDouble,
        "curand_log_normal" => Draw::LogNormal,
        "curand_normal2" => Draw::Normal2,
        "curand4" => Draw::U32x4,
        "curand_uniform4" => Draw::Uniform4,
        "curand_normal4" => Draw::Normal4,
        _ => return None,
    }))
}

/// cuRAND device functions warpdbg does not model, for a clear diagnostic rather than "cannot find".
const UNSUPPORTED: &[&str] = &[
    "curand_poisson",
    "curand_poisson4",
    "curand_log_normal_double",
    "curand_log_normal2",
    "curand_log_normal4",
    "curand_normal2_double",
    "curand_uniform2_double",
    "curand_discrete",
    "skipahead",
    "skipahead_sequence",
];

/// Whether `name` returns a vector type (so it is used as a struct initialiser or right-hand side).
pub fn returns_struct(name: &str) -> bool {
    matches!(function(name), Some(Some(d)) if d.results() > 1)
}

fn result_type(d: Draw) -> Type {
    match d {
        Draw::U32 => Type::UINT,
        Draw::Uniform | Draw::Normal | Draw::LogNormal => Type::FLOAT,
        Draw::UniformDouble | Draw::NormalDouble => Type::Scalar(Scalar::F64),
        Draw::Normal2 => vector_type("float2").map(Type::Struct).unwrap_or(Type::Error),
        Draw::U32x4 => vector_type("uint4").map(Type::Struct).unwrap_or(Type::Error),
        Draw::Uniform4 | Draw::Normal4 => vector_type("float4").map(Type::Struct).unwrap_or(Type::Error),
    }
}

impl Checker {
    /// A call of a cuRAND device function as a value; None if `name` is not one.
    pub(super) fn curand_call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Expr> {
        if UNSUPPORTED.contains(&name.name.as_str()) {
            self.err(Diagnostic::unsupported(name.span, format!("the cuRAND device function `{}`", name.name)));
            return Some(Expr::error(span));
        }
        let draw = function(&name.name)?;
        if draw.is_some_and(|d| d.results() > 1) {
            let ty = draw.map(result_type).unwrap_or_default();
            return Some(self.type_error(
                span,
                format!("`{}` returns a `{ty}`: assign it to one (`{ty} r = {}(...);`)", name.name, name.name),
            ));
        }
        let Some((stmts, mut results)) = self.curand_parts(name, args, span) else { return Some(Expr::error(span)) };
        let value = results.pop().unwrap_or_else(|| Expr::new(ExprKind::Const(0), Type::Void, span));
        let ty = value.ty.clone();
        Some(Expr::new(ExprKind::Seq(stmts, Box::new(value)), ty, span))
    }

    /// The field values of a cuRAND call that returns a vector (`float2 r = curand_normal2(&s)`): the first
    /// runs the call. None on a diagnostic.
    pub(super) fn curand_struct_values(&mut self, e: &ast::Expr, ty: &Type) -> Option<Vec<Expr>> {
        let A::Call(name, args) = &e.kind else { return None };
        let want = function(&name.name).flatten().map(result_type)?;
        if &want != ty {
            self.err(Diagnostic::new(
                ErrorCode::Type,
                e.span,
                format!("`{}` returns a `{want}`, not a `{ty}`", name.name),
            ));
            return None;
        }
        let (stmts, mut results) = self.curand_parts(name, args, e.span)?;
        let first = results.first().cloned()?;
        results[0] = Expr::new(ExprKind::Seq(stmts, Box::new(first.clone())), first.ty, e.span);
        Some(results)
    }

    /// The statements that run a cuRAND call (outputs into fresh locals, then the state written back) and its
    /// result values.
    fn curand_parts(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<(Vec<Stmt>, Vec<Expr>)> {
        let draw = function(&name.name)?;
        let n = match draw {
            None => 4,
            Some(Draw::LogNormal) => 3,
            Some(_) => 1,
        };
        if !self.expect_args(&name.name, args, n..=n, span) {
            return None;
        }
        let state_arg = if draw.is_none() { &args[3] } else { &args[0] };
        let (sty, mut stmts, places) = self.curand_state(state_arg)?;
        let generator = curand_generator(&sty)?;
        if matches!(draw, Some(Draw::U32x4 | Draw::Uniform4 | Draw::Normal4)) && generator != Gen::Philox {
            self.err(Diagnostic::new(
                ErrorCode::Type,
                state_arg.span,
                format!("`{}` needs a `curandStatePhilox4_32_10_t *`, found `{sty} *`", name.name),
            ));
            return None;
        }
        let (f, inputs, result_tys) = match draw {
            None => {
                let u64t = Type::Scalar(Scalar::U64);
                let mut ins = vec![];
                for a in &args[..3] {
                    let v = self.expr(a);
                    ins.push(self.convert(v, &u64t, "argument"));
                }
                (CurandFn::Init(generator), ins, vec![])
            }
            Some(d) => {
                // A state in memory is read once, into registers, as the GPU does: each output word's
                // instruction then reads the registers, not the memory again.
                let mut ins = vec![];
                for (k, (p, t)) in places.iter().enumerate() {
                    ins.push(match p {
                        Place::Local(_) => read(p, t, span),
                        Place::Mem(_) => {
                            let id =
                                self.new_local(&ast::Ident { name: format!("{}.in{k}", name.name), span }, t.clone());
                            stmts.push(Stmt { kind: StmtKind::Init(id, Some(read(p, t, span))), span });
                            Expr::new(ExprKind::Local(id), t.clone(), span)
                        }
                    });
                }
                for a in &args[1..] {
                    let v = self.expr(a);
                    ins.push(self.convert(v, &Type::FLOAT, "argument"));
                }
                let rty = result_type(d);
                let tys = match &rty {
                    Type::Struct(s) => s.fields.iter().map(|f| f.ty.clone()).collect(),
                    t => vec![t.clone()],
                };
                (CurandFn::Draw(generator, d), ins, tys)
            }
        };
        if inputs.iter().any(|e| e.ty.is_error()) {
            return None;
        }
        let out_tys: Vec<Type> = places.iter().map(|(_, t)| t.clone()).chain(result_tys).collect();
        let mut temps = vec![];
        for (k, t) in out_tys.iter().enumerate() {
            let id = self.new_local(&ast::Ident { name: format!("{}.{k}", name.name), span }, t.clone());
            let intr = Intrinsic::Curand { f, out: k as u8 };
            let value = Expr::new(ExprKind::Intrinsic(intr, inputs.clone()), t.clone(), span);
            stmts.push(Stmt { kind: StmtKind::Init(id, Some(value)), span });
            temps.push((id, t.clone()));
        }
        for ((place, t), (id, _)) in places.iter().zip(&temps) {
            let v = Expr::new(ExprKind::Local(*id), t.clone(), span);
            let assign = Expr::new(ExprKind::Assign(place.clone(), Box::new(v)), t.clone(), span);
            stmts.push(Stmt { kind: StmtKind::Expr(assign), span });
        }
        let results =
            temps[places.len()..].iter().map(|(id, t)| Expr::new(ExprKind::Local(*id), t.clone(), span)).collect();
        Some((stmts, results))
    }

    /// The state a `curandState *` argument points to: its type, statements that compute its address once,
    /// and each scalar field's place, in layout order.
    fn curand_state(&mut self, arg: &ast::Expr) -> Option<LeafPlaces> {
        let found = match &arg.kind {
            A::Unary(ast::UnaryOp::AddrOf, inner) => self.struct_leaf_places(inner, arg.span),
            _ => None,
        };
        let found = match found {
            Some(f) => Some(f),
            None => {
                let p = self.expr(arg);
                if p.ty.is_error() {
                    return None;
                }
                match p.ty.pointee() {
                    Some(t) if is_curand_state(t) => {
                        let t = t.clone();
                        Some(self.struct_leaves_at(p, t, arg.span))
                    }
                    _ => {
                        self.err(Diagnostic::new(
                            ErrorCode::Type,
                            arg.span,
                            format!("expected a pointer to a cuRAND state (`&state`), found `{}`", p.ty),
                        ));
                        return None;
                    }
                }
            }
        }?;
        if !is_curand_state(&found.0) {
            self.err(Diagnostic::new(
                ErrorCode::Type,
                arg.span,
                format!("expected a pointer to a cuRAND state (`&state`), found `{} *`", found.0),
            ));
            return None;
        }
        Some(found)
    }
}

fn read(p: &Place, t: &Type, span: Span) -> Expr {
    match p {
        Place::Local(id) => Expr::new(ExprKind::Local(*id), t.clone(), span),
        Place::Mem(addr) => Expr::new(ExprKind::Load(addr.clone()), t.clone(), span),
    }
}
