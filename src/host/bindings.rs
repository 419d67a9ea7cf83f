//! Structured bindings in host code (`auto [a, b] = p;`, `auto &[k, v] = pr;`, `for (auto &[x, y] : pts)`;
//! the parser's form is `front::parser::bindings`): the object is a copy in the frame (or, by reference,
//! the object itself), and each name stands for its field in declaration order, as a reference does (a
//! register holding the field's address), so `a = 5` through a reference binding changes the object.

use super::resolve::{Resolver, Var, ptr_add};
use super::tree::*;
use crate::front::ast;
use crate::front::diagnostic::Reported;
use crate::front::parser::bindings::BY_REFERENCE;
use crate::front::types::Type;

impl Resolver<'_> {
    /// The binding declaration `d` (its first declarator the hidden object and the initialiser, the others
    /// the names).
    pub(super) fn bind_fields(&mut self, d: &ast::Decl, out: &mut Vec<Stmt>) -> Result<(), Reported> {
        let [object, names @ ..] = d.declarators.as_slice() else { return Err(Reported) };
        let init = object.init.as_ref().ok_or(Reported)?;
        let span = init.span;
        let by_reference = d.ty.named.as_deref() == Some(BY_REFERENCE);
        let (base, ty) = if by_reference {
            match self.lvalue(init)? {
                (Place::Mem { addr, .. }, ty) => (*addr, ty),
                (Place::Slot(_), ty) => {
                    return Err(self.unsupported(span, format_args!("binding the names to a `{ty}` yet")));
                }
            }
        } else {
            let v = self.rvalue(init)?;
            let ty = v.ty.clone();
            if !matches!(ty, Type::Struct(_)) {
                return Err(self.unsupported(span, format_args!("binding the names to a `{ty}` yet")));
            }
            let slot = self.new_slot();
            self.frame.push((slot, ty.size().max(1), object.name.name.clone()));
            let addr = Expr::new(ExprKind::Slot(slot), Type::ptr(ty.clone(), false), span);
            out.push(Stmt::Expr(self.copy_struct(addr.clone(), v, &ty, span)?));
            (addr, ty)
        };
        let Type::Struct(def) = &ty else {
            return Err(self.unsupported(span, format_args!("binding the names to a `{ty}` yet")));
        };
        let fields: Vec<_> = def.fields.iter().filter(|f| !f.name.ends_with('#')).cloned().collect();
        if fields.len() != names.len() {
            return Err(self.error(
                d.span,
                format!("`{}` has {} fields; the binding names {}", def.name, fields.len(), names.len()),
            ));
        }
        // The object's address, once: each name's register holds its field's.
        let at = self.new_slot();
        let ptr = base.ty.clone();
        out.push(Stmt::Expr(Expr::new(ExprKind::assign(Place::Slot(at), Place::REGISTER, base), ptr.clone(), span)));
        let base = Expr::new(ExprKind::Slot(at), ptr, span);
        for (f, name) in fields.iter().zip(names) {
            let slot = self.new_slot();
            let addr = ptr_add(base.clone(), f.offset as i64, &f.ty);
            let set = ExprKind::assign(Place::Slot(slot), Place::REGISTER, addr);
            out.push(Stmt::Expr(Expr::new(set, Type::ptr(f.ty.clone(), false), span)));
            self.scopes.last_mut().ok_or(Reported)?.insert(name.name.name.clone(), Var::Mem(slot, f.ty.clone()));
        }
        Ok(())
    }
}
