//! `@arg` directives matched with the kernel's parameters: a value for each scalar, an array (its element
//! type, length and initialiser) for each pointer.

use std::collections::HashMap;
use std::sync::Arc;

use super::elements::{leaf_scalars, struct_scalar_fields};
use super::init::{const_eval, init_expr, show};
use super::syntax::{ArgSpec, Directive, DirectiveKind};
use crate::front::ast;
use crate::front::builtin_types::{is_curand_state, vector_type};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::launch::{ArgValue, InitExpr, LaunchArg, Value};
use crate::front::source::Span;
use crate::front::tast::Local;
use crate::front::types::{Scalar, StructDef, Type};

/// The `@arg` directives by parameter name; one given twice, or naming no parameter of kernel `kernel`, is
/// reported.
pub(super) fn args_by_name<'a>(
    all: &'a [Directive],
    params: &[&Local],
    kernel: &str,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<&'a str, &'a Directive> {
    let mut by_name: HashMap<&str, &Directive> = HashMap::new();
    for d in all {
        let DirectiveKind::Arg { name, .. } = &d.kind else { continue };
        if let Some(prev) = by_name.insert(&name.name, d) {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, name.span, format!("`@arg {}` is given twice", name.name))
                    .label("second one")
                    .with_secondary(prev.span, "first one"),
            );
        }
        if !params.iter().any(|p| p.name == name.name) {
            let list: Vec<_> = params.iter().map(|p| p.name.as_str()).collect();
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is not a parameter of `{kernel}`", name.name),
                )
                .label("unknown parameter")
                .hint(if list.is_empty() {
                    "this kernel takes no parameters".to_string()
                } else {
                    format!("its parameters: {}", list.join(", "))
                }),
            );
        }
    }
    by_name
}

/// The scalar parameters' values, into `args` and (by name, for sizes) `env`; a parameter with no `@arg` at
/// all is reported here. A scalar parameter whose value is missing or wrong (and so already reported) is in
/// `env` with no value: sizes that use it are not reported again.
pub(super) fn scalar_args(
    params: &[&Local],
    by_name: &HashMap<&str, &Directive>,
    env: &mut HashMap<String, Option<Value>>,
    args: &mut [Option<LaunchArg>],
    diags: &mut Vec<Diagnostic>,
) {
    for (pi, p) in params.iter().enumerate() {
        if !p.ty.is_ptr() {
            env.insert(p.name.clone(), None);
        }
        let Some(d) = by_name.get(p.name.as_str()) else {
            let example = if p.ty.is_ptr() {
                format!("// @arg {} {}[1024] = 0", p.name, p.ty.pointee().map_or("int".to_string(), |t| t.to_string()))
            } else {
                format!("// @arg {} = 0", p.name)
            };
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    p.span,
                    format!("parameter `{}` has no `@arg` directive", p.name),
                )
                .label("needs a value for the launch")
                .hint(format!("add a line like `{example}`")),
            );
            continue;
        };
        let DirectiveKind::Arg { spec: ArgSpec::Scalar(e), name } = &d.kind else { continue };
        let Type::Scalar(s) = p.ty else {
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is a pointer: it needs an array", p.name),
                )
                .hint(format!(
                    "write `@arg {} {}[length] = initialiser`",
                    p.name,
                    p.ty.pointee().map_or("int".into(), |t| t.to_string())
                )),
            );
            continue;
        };
        let Some(v) = const_eval(e, &HashMap::new(), diags) else { continue };
        if s.is_integer() && matches!(v, Value::Float(_)) {
            diags.push(Diagnostic::new(
                ErrorCode::Directive,
                e.span,
                format!("`{}` is an integer parameter; this value is not an integer", p.name),
            ));
            continue;
        }
        env.insert(p.name.clone(), Some(v));
        args[pi] = Some(LaunchArg {
            name: p.name.clone(),
            value: ArgValue::Scalar { ty: s, bits: v.to_bits(s) },
            global: false,
        });
    }
}

/// The array parameters' arrays, into `args`; their lengths may name the scalars of `env`.
pub(super) fn array_args(
    params: &[&Local],
    by_name: &HashMap<&str, &Directive>,
    env: &HashMap<String, Option<Value>>,
    args: &mut [Option<LaunchArg>],
    diags: &mut Vec<Diagnostic>,
) {
    for (pi, p) in params.iter().enumerate() {
        let Some(d) = by_name.get(p.name.as_str()) else { continue };
        let DirectiveKind::Arg { spec: ArgSpec::Array { elem, elem_span, len, init, strukt }, name } = &d.kind else {
            continue;
        };
        let array =
            ArraySpec { elem: *elem, elem_span: *elem_span, len, init: init.as_ref(), strukt: strukt.as_deref() };
        if let Some(arg) = array_arg(p, name, &array, env, diags) {
            args[pi] = Some(arg);
        }
    }
}

/// What an array `@arg` says (`@arg name elem[len] = init`, `strukt` naming a struct or vector element type).
struct ArraySpec<'a> {
    elem: Scalar,
    elem_span: Span,
    len: &'a ast::Expr,
    init: Option<&'a ast::Expr>,
    strukt: Option<&'a str>,
}

/// How an array's elements are laid out in scalars: the scalar, and how many make one element (a struct's
/// fields); for a struct whose fields differ in type, the array is bytes, with (offset, type) of each scalar
/// field for a per-field initialiser.
struct Layout {
    elem: Scalar,
    per_elem: u64,
    byte_fields: Option<Vec<(u32, Scalar)>>,
}

/// Pointer parameter `p`'s array, checked against its type; None (reported) if it does not fit.
fn array_arg(
    p: &Local,
    name: &ast::Ident,
    array: &ArraySpec,
    env: &HashMap<String, Option<Value>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<LaunchArg> {
    // A struct element: its fields are the array's elements, so they must share one scalar type.
    let layout = match (array.strukt, p.ty.pointee()) {
        (Some(sname), Some(Type::Struct(def))) => struct_layout(sname, def, array, diags)?,
        _ => Layout { elem: array.elem, per_elem: 1, byte_fields: None },
    };
    let Layout { elem, per_elem, .. } = layout;
    // `int **rows`: the launch would need an array of device pointers, each to its own array.
    if let Type::Ptr { elem: pe, .. } = &p.ty
        && matches!(**pe, Type::Ptr { .. })
    {
        diags.push(
            Diagnostic::unsupported(
                p.span,
                format!("`@arg` for a pointer to pointers (`{} {}`): an array of device pointers", p.ty, p.name),
            )
            .label("a pointer to pointers")
            .hint("give the kernel one flat array and index it as rows (`a[row * width + col]`)"),
        );
        return None;
    }
    let pointee = match &p.ty {
        Type::Ptr { elem: pe, .. } if per_elem > 1 || matches!(**pe, Type::Struct(_)) => (per_elem > 1).then_some(elem),
        Type::Ptr { elem, .. } => elem.scalar(),
        _ => {
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is a scalar `{}`: it takes a value, not an array", p.name, p.ty),
                )
                .hint(format!("write `@arg {} = value`", p.name)),
            );
            return None;
        }
    };
    if pointee != Some(elem) {
        let written = array.strukt.map_or_else(|| elem.name().to_string(), str::to_string);
        diags.push(
            Diagnostic::new(
                ErrorCode::Directive,
                array.elem_span,
                format!("element type `{written}` does not match the parameter `{} {}`", p.ty, p.name),
            )
            .label("differs from the kernel's parameter")
            .with_secondary(p.span, "parameter declared here"),
        );
        return None;
    }
    let n = match const_eval(array.len, env, diags)? {
        Value::Int(n) if n >= 1 => n as u64,
        n => {
            diags.push(Diagnostic::new(
                ErrorCode::Directive,
                array.len.span,
                format!("array length must be a positive integer, found {}", show(n)),
            ));
            return None;
        }
    };
    let init = array_init(array, &layout, diags)?;
    Some(LaunchArg { name: p.name.clone(), value: ArgValue::Array { elem, len: n * per_elem, init }, global: false })
}

/// The layout of an array of struct `def`, written `sname`; None (reported) for a struct of structs.
fn struct_layout(sname: &str, def: &Arc<StructDef>, array: &ArraySpec, diags: &mut Vec<Diagnostic>) -> Option<Layout> {
    let plain = Layout { elem: array.elem, per_elem: 1, byte_fields: None };
    // Array fields count element by element (`float a[4]` is four floats).
    let scalars: Vec<Option<(Scalar, u32)>> = def.fields.iter().map(|f| leaf_scalars(&f.ty)).collect();
    let count: u32 = scalars.iter().map(|s| s.map_or(0, |(_, n)| n)).sum();
    Some(match scalars.first().copied().flatten() {
        // A cuRAND state array starts as bytes (zero, or a value per byte): `curand_init` fills it.
        // (Any of its names: `curandState_t[n]` for a `curandState *`.)
        _ if is_curand_state(&Type::Struct(def.clone())) && vector_type(sname).is_some_and(|d| d.name == def.name) => {
            Layout { elem: Scalar::U8, per_elem: def.size as u64, byte_fields: None }
        }
        Some((s0, _))
            if def.name == sname
                && scalars.iter().all(|s| s.is_some_and(|(s, _)| s == s0))
                && def.size == s0.size() * count =>
        {
            Layout { elem: s0, per_elem: count as u64, byte_fields: None }
        }
        _ if def.name != sname => plain,
        // Fields of different types (or pointers): the array is bytes, each given by the initialiser
        // (`= 0`), or each field by its own (`= {i, 0.5f, 0}`).
        _ => match struct_scalar_fields(def) {
            Some(fields) => Layout { elem: Scalar::U8, per_elem: def.size as u64, byte_fields: Some(fields) },
            None => {
                diags.push(
                    Diagnostic::unsupported(array.elem_span, format!("`@arg` arrays of `{sname}`"))
                        .hint("give the kernel a pointer to one field type"),
                );
                return None;
            }
        },
    })
}

/// The array's initialiser: one for every scalar, or a brace list of one per field of a struct or vector
/// element; zero where none is given. None (reported) if it is wrong.
fn array_init(array: &ArraySpec, layout: &Layout, diags: &mut Vec<Diagnostic>) -> Option<InitExpr> {
    Some(match array.init {
        // One initialiser per field of a struct or vector element.
        Some(e @ ast::Expr { kind: ast::ExprKind::InitList(items), .. }) => {
            let fields = layout.byte_fields.as_ref().map_or(layout.per_elem, |f| f.len() as u64);
            if array.strukt.is_none() || items.len() as u64 != fields {
                let what = match array.strukt {
                    Some(s) => format!("`{s}` has {fields} scalar fields; the list gives {}", items.len()),
                    None => "a brace list initialises the fields of a struct or vector element".to_string(),
                };
                diags.push(
                    Diagnostic::new(ErrorCode::Directive, e.span, what)
                        .hint("give one initialiser per field, in order (`float4[n] = {i, 0, 1, rand(0, 9)}`), or one for all (`= i` counts fields)"),
                );
                return None;
            }
            let inits: Vec<InitExpr> = items.iter().map(|f| init_expr(f, diags)).collect::<Option<_>>()?;
            match &layout.byte_fields {
                Some(fields) => InitExpr::Bytes {
                    size: layout.per_elem as u32,
                    fields: fields.iter().zip(inits).map(|(&(off, ty), e)| (off, ty, e)).collect(),
                },
                None => InitExpr::Fields(inits),
            }
        }
        Some(e) => init_expr(e, diags)?,
        None => InitExpr::Const(Value::Int(0)),
    })
}
