//! `@arg` element types: typedefs of the file, and the scalar layout of struct elements.

use std::collections::HashMap;

use super::syntax::{ArgSpec, Directive, DirectiveKind};
use crate::front::ast;
use crate::front::types::{Scalar, StructDef, Type};

/// Replaces an `@arg` element type that names one of the file's typedefs of a number (`typedef float real;`)
/// by that number type.
pub fn resolve_typedef_elements(directives: &mut [Directive], typedefs: &HashMap<String, ast::TypeSpec>) {
    for d in directives {
        let DirectiveKind::Arg { spec: ArgSpec::Array { elem, strukt, .. }, .. } = &mut d.kind else { continue };
        let Some(t) = strukt.as_ref().and_then(|n| typedefs.get(n)) else { continue };
        if t.pointers != 0 {
            continue;
        }
        if let Some(named) = &t.named {
            *strukt = Some(named.clone());
            continue;
        }
        // (`void` is no element type.)
        let Some(s) = Type::from_base(t.base).scalar() else { continue };
        *elem = s;
        *strukt = None;
    }
}

/// Offset and type of each scalar field of `def` in layout order (array fields element by element, pointers as
/// 64-bit integers); None when a field is a struct.
pub(super) fn struct_scalar_fields(def: &StructDef) -> Option<Vec<(u32, Scalar)>> {
    let mut out = vec![];
    for f in &def.fields {
        let (ty, n) = match &f.ty {
            Type::Array(e, n) => (&**e, *n),
            t => (t, 1),
        };
        let s = match ty {
            Type::Ptr { .. } => Scalar::U64,
            t => t.scalar()?,
        };
        out.extend((0..n).map(|k| (f.offset + k * s.size(), s)));
    }
    Some(out)
}

/// A field's scalar type and how many of it the field holds (an array's elements, recursively); None for a
/// struct or pointer field.
pub(super) fn leaf_scalars(ty: &Type) -> Option<(Scalar, u32)> {
    match ty {
        Type::Array(inner, n) => leaf_scalars(inner).map(|(s, k)| (s, k.saturating_mul(*n))),
        _ => ty.scalar().map(|s| (s, 1)),
    }
}

/// Whether a type is, or points to, one already reported as unknown.
pub(super) fn mentions_error(ty: &Type) -> bool {
    match ty {
        Type::Error => true,
        Type::Ptr { elem, .. } | Type::Array(elem, _) => mentions_error(elem),
        _ => false,
    }
}
