//! The C++ library's class types as host memory holds them (`std::string`, `std::vector<T>`,
//! `std::pair<A, B>`): one definition for the host interpreter, which gives them their operations, and for
//! the front end's struct layout, which places them as fields of the classes host code uses
//! (`class Matrix { std::vector<float> data; std::string name; };`).
//!
//! All three are plain bytes: a zeroed object is an empty string (its pointer null, read as `""`: see
//! `host::string`), an empty vector (three null pointers), a pair of zeros, which is what C++'s default
//! constructors make of a member nothing initialises.

use std::sync::{Arc, OnceLock};

use super::std_array::{base_and_pointers, compact, scalar_named};
use super::types::{Field, Scalar, StructDef, Type};

/// `struct string { char *p; }`: what a declared `std::string` is in host memory.
pub fn string_type() -> Arc<StructDef> {
    static DEF: OnceLock<Arc<StructDef>> = OnceLock::new();
    DEF.get_or_init(|| {
        let chars = Type::ptr(Type::Scalar(Scalar::I8), false);
        Arc::new(StructDef::new("string", vec![("p".into(), chars)], 8))
    })
    .clone()
}

/// Whether `ty` is `std::string`.
pub fn is_string(ty: &Type) -> bool {
    matches!(ty, Type::Struct(d) if Arc::ptr_eq(d, &string_type()))
}

/// The host type of `vector<elem>` (`name` as written): three pointers, as libstdc++'s, to its first element,
/// one past its last, one past its storage.
pub fn vector_type(name: &str, elem: Type) -> Type {
    let p = Type::ptr(elem, false);
    let field = |n: &str, k: u32| Field { name: n.into(), ty: p.clone(), offset: 8 * k };
    let fields = vec![field("_M_start", 0), field("_M_finish", 1), field("_M_end_of_storage", 2)];
    Type::Struct(Arc::new(StructDef { name: name.into(), fields, size: 24, align: 8 }))
}

/// The pair of `first` and `second`, laid out as C lays out two fields (as libstdc++'s is) and named for its
/// field types (`pair<int, float>`), so every spelling of one pair type is one type.
pub fn pair_type(first: Type, second: Type) -> Type {
    let align = |t: &Type| t.align().max(1);
    let second_at = first.size().div_ceil(align(&second)) * align(&second);
    let a = align(&first).max(align(&second));
    let size = (second_at + second.size()).div_ceil(a) * a;
    let name = format!("pair<{first}, {second}>");
    let fields = vec![
        Field { name: "first".into(), ty: first, offset: 0 },
        Field { name: "second".into(), ty: second, offset: second_at },
    ];
    Type::Struct(Arc::new(StructDef { name, fields, size, align: a }))
}

/// `first` and `second` of a pair type.
pub fn pair_fields(ty: &Type) -> Option<(&Type, &Type)> {
    match ty {
        Type::Struct(d) if d.name.starts_with("pair<") && d.fields.len() == 2 => {
            Some((&d.fields[0].ty, &d.fields[1].ty))
        }
        _ => None,
    }
}

/// The arguments of `name<A, B, ...>` (`pair<int, float>`), split at the commas outside any inner `<...>`.
pub fn template_args<'a>(name: &'a str, template: &str) -> Option<Vec<&'a str>> {
    let inner = name.strip_prefix(template)?.strip_prefix('<')?.strip_suffix('>')?;
    let (mut depth, mut from, mut out) = (0i32, 0, vec![]);
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(inner[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(inner[from..].trim());
    Some(out)
}

/// The library type a field's written type names (`string`, `vector<float>`, `pair<int, double>`), its
/// element types found by `named` (a struct's name); None when `name` is none of them.
pub fn field_type(name: &str, named: &mut dyn FnMut(&str) -> Type) -> Option<Type> {
    if matches!(name, "string" | "std::string") {
        return Some(Type::Struct(string_type()));
    }
    if let Some([e]) = template_args(name, "vector").as_deref() {
        return Some(vector_type(name, text_type(e, named)));
    }
    if let Some([a, b]) = template_args(name, "pair").as_deref() {
        return Some(pair_type(text_type(a, named), text_type(b, named)));
    }
    None
}

/// A template argument's type (`float`, `int *`, `std::string`, `vector<int>`, a struct's name).
fn text_type(text: &str, named: &mut dyn FnMut(&str) -> Type) -> Type {
    let text = compact(text);
    let (base, stars) = base_and_pointers(&text);
    let t = match scalar_named(base) {
        Some(s) => Type::Scalar(s),
        None if base == "void" => Type::Void,
        None => field_type(base, named).unwrap_or_else(|| named(base)),
    };
    (0..stars).fold(t, |t, _| Type::ptr(t, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_fields_have_libstdcpp_sizes() {
        let mut none = |_: &str| Type::Error;
        assert_eq!(field_type("string", &mut none).map(|t| t.size()), Some(8));
        assert_eq!(field_type("vector<float>", &mut none).map(|t| t.size()), Some(24));
        let p = field_type("pair<int, double>", &mut none).expect("a pair");
        assert_eq!((p.size(), p.to_string()), (16, "pair<int, double>".to_string()));
        assert_eq!(template_args("pair<vector<int>, float *>", "pair"), Some(vec!["vector<int>", "float *"]));
        assert_eq!(field_type("map<int, int>", &mut none), None);
    }
}
