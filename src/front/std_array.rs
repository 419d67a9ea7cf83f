//! `std::array<T, N>` as a type (host code, and fields of the structs host code uses): a struct named
//! `array<T,N>` of one field, `T _M_elems[N]`, as in libstdc++, so that it is `N * sizeof(T)` bytes in place
//! and copies as a struct. The parser keeps the written arguments as text (`array<float, N>`); the front
//! end's struct layout and the host interpreter both build the type here from that text.

use std::sync::Arc;

use super::ast;
use super::types::{Scalar, StructDef, Type};

/// The element type and length when `ty` is a `std::array`.
pub fn array_of(ty: &Type) -> Option<(&Type, u32)> {
    match ty {
        Type::Struct(d) if d.name.starts_with("array<") => match d.fields.first().map(|f| &f.ty) {
            Some(Type::Array(elem, n)) => Some((elem, *n)),
            _ => None,
        },
        _ => None,
    }
}

/// The type `std::array<elem, n>`.
pub fn array_type(elem: Type, n: u32) -> Type {
    let name = format!("array<{elem},{n}>");
    let align = elem.align();
    Type::Struct(Arc::new(StructDef::new(name, vec![("_M_elems".into(), Type::Array(Box::new(elem), n))], align)))
}

/// A template argument's text as the parser spelled it (tokens joined by spaces: `std :: array < int , 3 >`),
/// written compactly (`std::array<int,3>`): a space is kept only between two words (`unsigned int`).
pub fn compact(text: &str) -> String {
    let mut out = String::new();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    for tok in text.split_whitespace() {
        if out.ends_with(word) && tok.starts_with(word) {
            out.push(' ');
        }
        out.push_str(tok);
    }
    out
}

/// `array<T, N>` split at its last top-level comma: the element's text and the length's, compacted.
pub fn split_array_name(name: &str) -> Option<(String, String)> {
    let inner = name.strip_prefix("array<")?.strip_suffix('>')?;
    let mut depth = 0i32;
    let mut comma = None;
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => comma = Some(i),
            _ => {}
        }
    }
    let at = comma?;
    Some((compact(&inner[..at]), compact(&inner[at + 1..])))
}

/// A C scalar type written as text (`int`, `unsigned char`, `size_t`, `float`).
pub fn scalar_named(text: &str) -> Option<Scalar> {
    Some(match text {
        "int" | "signed int" | "int32_t" | "signed" => Scalar::I32,
        "unsigned int" | "unsigned" | "uint32_t" | "uint" => Scalar::U32,
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        "char" | "signed char" | "int8_t" => Scalar::I8,
        "unsigned char" | "uint8_t" => Scalar::U8,
        "short" | "int16_t" | "short int" => Scalar::I16,
        "unsigned short" | "uint16_t" => Scalar::U16,
        "long" | "long long" | "int64_t" | "ptrdiff_t" | "long int" | "long long int" => Scalar::I64,
        "unsigned long" | "unsigned long long" | "size_t" | "uint64_t" => Scalar::U64,
        "bool" => Scalar::Bool,
        _ => return None,
    })
}

/// An element type's text split into its base name (`const` and `std::` taken off) and its pointer levels.
pub fn base_and_pointers(text: &str) -> (&str, usize) {
    let base = text.trim_end_matches(['*', ' ']);
    let stars = text[base.len()..].matches('*').count();
    let base = base.strip_prefix("const ").unwrap_or(base).trim();
    (base.strip_prefix("std::").unwrap_or(base), stars)
}

/// The length's text as an expression (`8`, `N`, `1 << 3`, `TILE * 2`), for the caller's constant folding.
pub fn length_expr(text: &str) -> Option<ast::Expr> {
    super::parser::expr_from_text(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_the_outer_comma_and_read_back_compactly() {
        assert_eq!(split_array_name("array<float, 8>"), Some(("float".into(), "8".into())));
        assert_eq!(
            split_array_name("array<std :: array < unsigned int , 3 >, N * 2>"),
            Some(("std::array<unsigned int,3>".into(), "N*2".into()))
        );
        assert_eq!(split_array_name("array<int>"), None);
        assert_eq!(base_and_pointers("const std::string **"), ("string", 2));
        assert_eq!(base_and_pointers("unsigned char"), ("unsigned char", 0));
    }

    #[test]
    fn an_array_is_its_elements_in_place() {
        let t = array_type(Type::Scalar(Scalar::F64), 3);
        assert_eq!((t.size(), t.align()), (24, 8));
        let nested = array_type(t.clone(), 2);
        assert_eq!(nested.size(), 48);
        assert_eq!(array_of(&nested).map(|(e, n)| (e.clone(), n)), Some((t, 2)));
        assert!(length_expr("1 << 3").is_some() && length_expr("int x").is_none());
    }
}
