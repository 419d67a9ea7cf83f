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
use crate::front::template::{Side, TemplateDef, instance_name};
use crate::front::token::Token;
use crate::front::types::Type;

impl Resolver<'_> {
    /// For a call of host function template `name`: the name of the instance its arguments give (declared
    /// now if new); None when `name` is no host function template.
    pub(super) fn host_template_instance(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
    ) -> Option<Result<String, Reported>> {
        let def = self.templates.defs.get(&name.name).filter(|d| !d.is_kernel)?.clone();
        Some(self.instance(&def, name, args))
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
        let def = self.templates.defs.get(&name.name).filter(|d| d.is_kernel)?.clone();
        Some(self.deduce(&def, name, args).and_then(|targs| {
            let instance = instance_name(&name.name, &targs);
            if self.kernels.find(&instance).is_none() {
                self.kernel_requests.push((instance.clone(), name.name.clone(), targs));
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
        args: &[ast::Expr],
    ) -> Result<Vec<Vec<Token>>, Reported> {
        let mut types = vec![];
        for a in args.iter().take(def.deducible().len()) {
            types.push(self.rvalue(a)?.ty);
        }
        def.deduce_args(&types).map_err(|p| {
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

    fn instance(&mut self, def: &TemplateDef, name: &ast::Ident, args: &[ast::Expr]) -> Result<String, Reported> {
        let targs = self.deduce(def, name, args)?;
        let instance = instance_name(&name.name, &targs);
        if self.fns.contains_key(&instance) {
            return Ok(instance);
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
