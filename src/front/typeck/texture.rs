//! Texture fetches in device code (`tex1Dfetch<T>`, `tex1D<T>`, `tex2D<T>` on a `cudaTextureObject_t`): the
//! call is named with its result type by the parser (`tex2D<float4>`), checked here and turned into one
//! `Texture` intrinsic per channel of the result (see `sim::texture`); a vector result fills a temporary
//! struct. Also the channel description `cudaCreateChannelDesc<T>()` stands for in host code.

use super::super::ast;
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{Scalar, Type};
use super::checker::Checker;
use crate::front::builtin_types::vector_type;
use crate::front::texture_fetch::TexDim;

/// The fetch functions' names.
const FETCHES: [(&str, TexDim); 3] = [("tex1Dfetch", TexDim::Fetch1D), ("tex1D", TexDim::D1), ("tex2D", TexDim::D2)];

/// Whether `name` is a texture fetch function (before its template argument).
pub fn is_texture_fetch(name: &str) -> bool {
    FETCHES.iter().any(|(n, _)| *n == name)
}

/// A scalar type's name as a template argument spells it.
fn scalar_named(name: &str) -> Option<Scalar> {
    Some(match name {
        "float" => Scalar::F32,
        "int" | "signed int" => Scalar::I32,
        "unsigned int" | "unsigned" | "uint" => Scalar::U32,
        "char" | "signed char" => Scalar::I8,
        "unsigned char" | "uchar" => Scalar::U8,
        "short" | "signed short" => Scalar::I16,
        "unsigned short" | "ushort" => Scalar::U16,
        _ => return None,
    })
}

/// The type a template argument names: a scalar or a built-in vector type.
fn type_named(name: &str) -> Option<Type> {
    scalar_named(name).map(Type::Scalar).or_else(|| vector_type(name).map(Type::Struct))
}

/// `tex2D<float4>`: the fetch and its result type; None when `name` is not a fetch or names no type warpdbg
/// knows.
pub(super) fn fetch_of(name: &str) -> Option<(TexDim, Type)> {
    let (base, rest) = name.split_once('<')?;
    let dim = FETCHES.iter().find(|(n, _)| *n == base)?.1;
    type_named(rest.strip_suffix('>')?.trim()).map(|t| (dim, t))
}

/// `cudaCreateChannelDesc<T>()`'s fields (x, y, z, w bits and `cudaChannelFormatKind`) for type `name`.
pub fn channel_desc_of(name: &str) -> Option<[i64; 5]> {
    let (scalar, n) = match scalar_named(name) {
        Some(s) => (s, 1),
        None => {
            let def = vector_type(name)?;
            match def.fields.first().map(|f| &f.ty) {
                Some(Type::Scalar(s)) if def.fields.len() <= 4 => (*s, def.fields.len()),
                _ => return None,
            }
        }
    };
    let kind = match scalar {
        Scalar::F32 => 2,
        Scalar::U8 | Scalar::U16 | Scalar::U32 => 1,
        Scalar::I8 | Scalar::I16 | Scalar::I32 => 0,
        _ => return None,
    };
    let bits = scalar.size() as i64 * 8;
    let mut out = [0, 0, 0, 0, kind];
    for b in out.iter_mut().take(n) {
        *b = bits;
    }
    Some(out)
}

impl Checker {
    /// Whether a call of `name` is a fetch whose result is a vector type (a struct temporary).
    pub(super) fn fetch_returns_struct(name: &str) -> bool {
        matches!(fetch_of(name), Some((_, Type::Struct(_))))
    }

    /// A fetch's arguments evaluated once into locals (the object as a 64-bit handle, coordinates as floats,
    /// an index as an int): the statements and the values each channel's intrinsic reads.
    fn fetch_inputs(
        &mut self,
        name: &str,
        dim: TexDim,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Vec<Stmt>, Vec<Expr>)> {
        let n = if dim == TexDim::D2 { 3 } else { 2 };
        if !self.expect_args(name, args, n..=n, span) {
            return None;
        }
        let coord = if dim == TexDim::Fetch1D { Type::INT } else { Type::FLOAT };
        let mut stmts = vec![];
        let mut ins = vec![];
        for (k, a) in args.iter().enumerate() {
            let want = if k == 0 { Type::Scalar(Scalar::U64) } else { coord.clone() };
            let v = self.expr(a);
            if v.ty.is_error() {
                return None;
            }
            if k == 0 && v.ty.scalar().is_none_or(|s| !s.is_integer()) {
                self.type_error(a.span, format!("`{name}` takes a `cudaTextureObject_t`, found `{}`", v.ty));
                return None;
            }
            let v = self.convert(v, &want, "argument");
            let id = self.new_local(&ast::Ident { name: format!("{name}.arg{k}"), span }, want.clone());
            stmts.push(Stmt { kind: StmtKind::Init(id, Some(v)), span });
            ins.push(Expr::new(ExprKind::Local(id), want, span));
        }
        Some((stmts, ins))
    }

    /// A fetch with a scalar result, as a value; None when `name` is not a fetch.
    pub(super) fn texture_call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let (dim, ty) = fetch_of(&name.name)?;
        if let Type::Struct(_) = ty {
            return Some(self.type_error(
                span,
                format!("`{}` returns a `{ty}`: assign it to one (`{ty} v = {}(...);`)", name.name, name.name),
            ));
        }
        let Some((stmts, ins)) = self.fetch_inputs(&name.name, dim, args, span) else {
            return Some(Expr::error(span));
        };
        let value = Expr::new(ExprKind::Intrinsic(Intrinsic::Texture { dim, out: 0 }, ins), ty.clone(), span);
        Some(Expr::new(ExprKind::Seq(stmts, Box::new(value)), ty, span))
    }

    /// A fetch with a vector result into a temporary struct: its statements and the struct's index; None when
    /// `name` is not such a fetch.
    pub(super) fn texture_temp(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Vec<Stmt>, u32, Type)> {
        let (dim, ty) = fetch_of(name)?;
        if !matches!(ty, Type::Struct(_)) {
            return None;
        }
        let (mut pre, idx) = self.temp_struct(&ty, name, span);
        let (stmts, ins) = self.fetch_inputs(name, dim, args, span)?;
        pre.extend(stmts);
        let targets = self.struct_locals[idx as usize].leaves.clone();
        for (k, (_, id, t)) in targets.iter().enumerate() {
            let intr = Intrinsic::Texture { dim, out: k as u8 };
            let v = Expr::new(ExprKind::Intrinsic(intr, ins.clone()), t.clone(), span);
            let set = Expr::new(ExprKind::Assign(Place::Local(*id), Box::new(v)), t.clone(), span);
            pre.push(Stmt { kind: StmtKind::Expr(set), span });
        }
        Some((pre, idx, ty))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_descriptions_are_the_runtimes() {
        assert_eq!(channel_desc_of("float"), Some([32, 0, 0, 0, 2]));
        assert_eq!(channel_desc_of("float4"), Some([32, 32, 32, 32, 2]));
        assert_eq!(channel_desc_of("unsigned char"), Some([8, 0, 0, 0, 1]));
        assert_eq!(channel_desc_of("uchar4"), Some([8, 8, 8, 8, 1]));
        assert_eq!(channel_desc_of("int2"), Some([32, 32, 0, 0, 0]));
        assert_eq!(channel_desc_of("double"), None);
    }

    #[test]
    fn a_fetch_is_named_with_its_result_type() {
        assert_eq!(fetch_of("tex2D<float>"), Some((TexDim::D2, Type::FLOAT)));
        assert!(matches!(fetch_of("tex1Dfetch<uchar4>"), Some((TexDim::Fetch1D, Type::Struct(_)))));
        assert_eq!(fetch_of("tex2D<double>"), None);
        assert_eq!(fetch_of("tex3D<float>"), None);
    }
}
