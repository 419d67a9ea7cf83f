//! Host function templates (`template <typename T> void alloc_bytes(T &ptr, size_t n)`): a call without
//! explicit arguments deduces each type parameter from the host type of the argument passed where the
//! function takes it (`T x`, `T &x`, `const T *p`), as C++ does for these simple forms; the instance
//! (`alloc_bytes<int *>`) is parsed from the template's tokens as a host function, declared, and resolved
//! after the functions written out. A kernel template launched without explicit arguments is deduced the
//! same way; its instance is the device front end's to compile (`front::template`), which
//! `program::compile` asks for when the host side names it.

use super::resolve::Resolver;
use crate::front::ast;
use crate::front::diagnostic::{Diagnostic, ErrorCode, Reported};
use crate::front::source::Span;
use crate::front::tast::CmpOp;
use crate::front::template::{Side, TemplateDef, instance_name, parse_instance_name};
use crate::front::token::Token;
use crate::front::types::{Scalar, Type};

use super::tree::{Expr, ExprKind, Place};

impl Resolver<'_> {
    /// For a call of host function template `name`: the name of the instance its arguments give (declared
    /// now if new); None when `name` is no host function template.
    pub(super) fn host_template_instance(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
    ) -> Option<Result<String, Reported>> {
        if let Some(def) = self.templates.defs.get(&name.name).filter(|d| !d.is_kernel).cloned() {
            return Some(self.instance(&def, name, &[], args));
        }
        // `Scale<float>(2.5f)`: a class template's instance, constructed (not a function's instance).
        if self.kernels.structs.contains_key(&name.name) {
            return None;
        }
        // `square<int>(3)`: explicit arguments, the rest deduced.
        let (base, explicit) = parse_instance_name(&name.name)?;
        let Some(def) = self.templates.defs.get(&base).cloned() else {
            // `std::max<int>(a, b)`: a library function's arguments are converted where it takes them.
            return Some(Ok(base));
        };
        if def.is_kernel {
            return None;
        }
        let base = ast::Ident { name: base, span: name.span };
        Some(self.instance(&def, &base, &explicit, args))
    }

    /// `std::max(a, b)`, `std::min(a, b)` and `std::max<int>(a, b)` (namespaces are dropped): libstdc++'s
    /// `(a < b) ? b : a` and `(b < a) ? b : a`, in the type named or else the arguments' common type (CUDA's
    /// host overloads of `max` take mixed types), each argument read once (the second first, as g++ does). None: not such a call (a function
    /// or template of the program's own named `max` comes first).
    pub(super) fn min_max(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let (base, named) = match parse_instance_name(&name.name) {
            Some((base, explicit)) => (base, Some(explicit)),
            None => (name.name.clone(), None),
        };
        let is_max = match base.as_str() {
            "max" => true,
            "min" => false,
            _ => return None,
        };
        if self.fns.contains_key(&base) || self.templates.defs.contains_key(&base) {
            return None;
        }
        let [a, b] = args else { return None };
        let named = match named.as_deref() {
            None => None,
            Some([t]) => Some(scalar_named(t).map(Type::Scalar).ok_or(())),
            Some(_) => Some(Err(())),
        };
        Some((|| {
            let (a, b) = (self.rvalue(a)?, self.rvalue(b)?);
            let ty = match (named, &a.ty, &b.ty) {
                (Some(Ok(t)), _, _) => t,
                (None, Type::Scalar(x), Type::Scalar(y)) => Type::Scalar(Scalar::common(*x, *y)),
                // Two pointers of one type (`*max(first, last)`): the later address.
                (None, Type::Ptr { elem: x, .. }, Type::Ptr { elem: y, .. }) if x == y => a.ty.clone(),
                _ => {
                    return Err(self.unsupported(span, format_args!("`{}` of these types in host code yet", name.name)));
                }
            };
            let op_ty = match ty {
                Type::Scalar(s) => s,
                Type::Ptr { .. } => Scalar::U64,
                _ => return Err(Reported),
            };
            let (a, b) = (self.convert(a, &ty)?, self.convert(b, &ty)?);
            let (sa, sb) = (self.new_slot(), self.new_slot());
            let keep = |slot, v| {
                Box::new(Expr::new(ExprKind::assign(Place::Slot(slot), Place::REGISTER, v), ty.clone(), span))
            };
            let (keep_a, keep_b) = (keep(sa, a), keep(sb, b));
            let (va, vb) =
                (Expr::new(ExprKind::Slot(sa), ty.clone(), span), Expr::new(ExprKind::Slot(sb), ty.clone(), span));
            let (left, right) = if is_max { (va.clone(), vb.clone()) } else { (vb.clone(), va.clone()) };
            let cmp = ExprKind::Cmp { op: CmpOp::Lt, op_ty, left: Box::new(left), right: Box::new(right) };
            let cond = ExprKind::Cond {
                cond: Box::new(Expr::new(cmp, Type::BOOL, span)),
                then: Box::new(vb),
                otherwise: Box::new(va),
            };
            let cond = Box::new(Expr::new(cond, ty.clone(), span));
            // `b` before `a`: a call's arguments, the last first, as g++ evaluates them.
            let both = Expr::new(ExprKind::Comma(keep_a, cond), ty.clone(), span);
            Ok(Expr::new(ExprKind::Comma(keep_b, Box::new(both)), ty, span))
        })())
    }

    /// For a launch of kernel template `name` without explicit arguments (`estimate<<<g, b>>>(n, sum)`): the
    /// instance its arguments give (`estimate<double>`). When the device side has not compiled it, it is
    /// asked for in [`Resolver::kernel_requests`] and the launch fails; `program::compile` then compiles the
    /// device side again with it. None when `name` is no kernel template.
    pub(super) fn kernel_template_instance(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
    ) -> Option<Result<String, Reported>> {
        // `scale<T><<<...>>>` in a host template's instance is `scale<float>`: explicit arguments.
        let (base, explicit) = match self.templates.defs.get(&name.name) {
            Some(_) => (name.name.clone(), vec![]),
            None => parse_instance_name(&name.name)?,
        };
        let def = self.templates.defs.get(&base).filter(|d| d.is_kernel)?.clone();
        let base = ast::Ident { name: base, span: name.span };
        Some(self.deduce(&def, &base, &explicit, args).and_then(|targs| {
            let instance = instance_name(&base.name, &targs);
            if self.kernels.find(&instance).is_none() {
                self.kernel_requests.push((instance.clone(), base.name.clone(), targs));
                return Err(self.error(name.span, format!("`{instance}` is not compiled yet")));
            }
            Ok(instance)
        }))
    }

    /// The template arguments a call of `def` with `args` gives: each type parameter from the host type of
    /// the argument passed where the function takes it, stripped of the pointer levels written after it;
    /// defaults fill the rest.
    fn deduce(
        &mut self,
        def: &TemplateDef,
        name: &ast::Ident,
        explicit: &[Vec<Token>],
        args: &[ast::Expr],
    ) -> Result<Vec<Vec<Token>>, Reported> {
        let mut types = vec![];
        // All named: nothing to deduce (and the arguments are converted where the instance takes them).
        if explicit.len() < def.params.len() {
            for a in args.iter().take(def.deducible().len()) {
                types.push(self.rvalue(a)?.ty);
            }
        }
        def.deduce_args(explicit, &types).map_err(|p| {
            self.error(
                name.span,
                format!(
                    "cannot tell `{p}` of template `{}` from the arguments: name them, `{}<...>`",
                    name.name, name.name
                ),
            )
        })
    }

    /// Whether `e` is a struct without fields (a functor, `AddOp()`), which a kernel's parameters leave out.
    pub(super) fn fieldless_struct(&mut self, e: &ast::Expr) -> bool {
        // `AddOp()`: a class without constructors made in place.
        if let ast::ExprKind::Call(name, args) = &e.kind
            && args.is_empty()
            && let Some(def) = self.kernels.structs.get(&name.name)
        {
            return def.fields.is_empty();
        }
        let before = self.diags.len();
        let empty = self.rvalue(e).is_ok_and(|v| matches!(&v.ty, Type::Struct(s) if s.fields.is_empty()));
        self.diags.truncate(before);
        empty
    }

    fn instance(
        &mut self,
        def: &TemplateDef,
        name: &ast::Ident,
        explicit: &[Vec<Token>],
        args: &[ast::Expr],
    ) -> Result<String, Reported> {
        let targs = self.deduce(def, name, explicit, args)?;
        let instance = instance_name(&name.name, &targs);
        if self.fns.contains_key(&instance) {
            return Ok(instance);
        }
        if name.name.starts_with(super::prelude::PRELUDE) {
            // The library's templates have no place in the file: their tokens take the call's.
            let d = super::prelude::at_call(def, name.span);
            self.templates.defs.insert(name.name.clone(), d);
        }
        let text = std::mem::take(&mut self.text);
        let made = self.templates.instantiate((&name.name, &targs), &instance, &text, name.span, Side::Host);
        self.text = text;
        match made {
            Ok(f) => {
                self.declare(&f);
                self.instances.push(f);
                Ok(instance)
            }
            Err(mut diags) => {
                if diags.is_empty() {
                    diags.push(Diagnostic::new(
                        ErrorCode::Type,
                        name.span,
                        format!("`{instance}` (template `{}`) does not parse as a host function", name.name),
                    ));
                }
                self.diags.extend(diags);
                Err(Reported)
            }
        }
    }
}

/// The scalar type an explicit template argument names (`int`, `unsigned long`, `size_t`), if it is one.
fn scalar_named(toks: &[Token]) -> Option<Scalar> {
    let words: Vec<String> = toks.iter().map(|t| crate::front::template::spell(&t.kind)).collect();
    Some(match words.join(" ").as_str() {
        "bool" => Scalar::Bool,
        "char" | "signed char" => Scalar::I8,
        "unsigned char" => Scalar::U8,
        "short" => Scalar::I16,
        "unsigned short" => Scalar::U16,
        "int" => Scalar::I32,
        "unsigned" | "unsigned int" => Scalar::U32,
        "long" | "long long" | "long int" | "ptrdiff_t" | "int64_t" => Scalar::I64,
        "unsigned long" | "unsigned long long" | "size_t" | "uint64_t" => Scalar::U64,
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        _ => return None,
    })
}
