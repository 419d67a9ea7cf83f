//! Where a type's scalars lie in memory: its leaves (fields of structs, elements of arrays), the element a
//! memory view shows for it, and a field's address.

use crate::front::source::Span;
use crate::front::tast::{Expr, ExprKind, Place, Stmt};
use crate::front::types::{Scalar, Type};

/// A struct's type, the statements that compute its address once, and each scalar field's place and type.
pub(super) type LeafPlaces = (Type, Vec<Stmt>, Vec<(Place, Type)>);

/// The element a memory view shows for an array of `ty` in memory (shared, global, per-thread local): the
/// scalar itself, a struct's scalar when all its fields share one (a `float3` is shown as floats), else its
/// bytes. None for pointers.
pub(super) fn memory_elem(ty: &Type) -> Option<Scalar> {
    if let Some(s) = ty.scalar() {
        return Some(s);
    }
    let Type::Struct(_) = ty else { return None };
    let mut flat = vec![];
    leaves(ty, "", 0, &mut flat);
    let scalars: Vec<Option<Scalar>> = flat.iter().map(|(_, _, t)| t.scalar()).collect();
    let first = scalars.first().copied().flatten();
    Some(match first {
        Some(f) if scalars.iter().all(|&s| s == Some(f)) && f.size() * scalars.len() as u32 == ty.size() => f,
        // Mixed fields, or pointers among them: bytes.
        _ => Scalar::U8,
    })
}

/// The scalar leaves of `ty` (fields of structs, elements of arrays, recursively): path, byte offset, type.
pub fn leaves(ty: &Type, path: &str, offset: u32, out: &mut Vec<(String, u32, Type)>) {
    match ty {
        Type::Struct(s) => {
            for f in &s.fields {
                let p = if path.is_empty() { f.name.clone() } else { format!("{path}.{}", f.name) };
                leaves(&f.ty, &p, offset + f.offset, out);
            }
        }
        Type::Array(e, n) => {
            for i in 0..*n {
                leaves(e, &format!("{path}[{i}]"), offset + i * e.size(), out);
            }
        }
        t => out.push((path.to_string(), offset, t.clone())),
    }
}

/// The address of the field at byte `offset` of the struct at `addr`, typed as a pointer to `ty`.
pub(super) fn field_addr(addr: &Expr, offset: u32, ty: &Type, span: Span) -> Expr {
    let index = Expr::new(ExprKind::Const(offset as u64), Type::INT, span);
    Expr::new(
        ExprKind::PtrOffset { ptr: Box::new(addr.clone()), index: Box::new(index), elem_size: 1, negate: false },
        Type::ptr(ty.clone(), false),
        span,
    )
}
