//! `throw` in host code, as course code throws: an error check's `throw std::runtime_error(msg)` that nothing
//! catches. libstdc++'s `std::terminate` then prints the exception's type and its `what()` to standard error,
//! and `abort` ends the program (a shell's status 134), which is what the program does on a real machine.
//! `try`/`catch` catch by a standard class (and the classes derived from it), by a scalar type, or all
//! (`catch (...)`); a caught standard exception's variable answers `what()`. Classes of the program's own
//! are not thrown yet, and `throw;` does not rethrow.

use std::collections::HashMap;

use super::interp::{Flow, Interp, Thrown, Unwind};
use super::resolve::Resolver;
use super::resolve::Var;
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};

/// The standard exception classes of `<stdexcept>`, `<exception>` and `<new>`.
const STD_EXCEPTIONS: &[&str] = &[
    "exception",
    "runtime_error",
    "logic_error",
    "invalid_argument",
    "out_of_range",
    "length_error",
    "domain_error",
    "range_error",
    "overflow_error",
    "underflow_error",
    "bad_alloc",
];

/// A thrown value's type as libstdc++'s terminate handler names it (the demangled name: `char const*`).
fn demangled(ty: &Type) -> Option<String> {
    Some(match ty {
        Type::Scalar(s) => match s {
            Scalar::Bool => "bool",
            Scalar::I8 => "char",
            Scalar::U8 => "unsigned char",
            Scalar::I16 => "short",
            Scalar::U16 => "unsigned short",
            Scalar::I32 => "int",
            Scalar::U32 => "unsigned int",
            Scalar::I64 => "long",
            Scalar::U64 => "unsigned long",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
            _ => return None,
        }
        .to_string(),
        Type::Ptr { elem, is_const } => {
            let inner = demangled(elem)?;
            if *is_const { format!("{inner} const*") } else { format!("{inner}*") }
        }
        Type::Struct(d) => d.name.clone(),
        _ => return None,
    })
}

impl Resolver<'_> {
    /// `throw value;` (`throw;` when `value` is None).
    pub(super) fn throw(&mut self, value: Option<&ast::Expr>, span: Span) -> Result<Expr, Reported> {
        let text = Type::ptr(Type::Scalar(Scalar::I8), true);
        let none = Expr::new(ExprKind::Const(0), text.clone(), span);
        let (name, what) = match value {
            None => (none.clone(), none),
            Some(ast::Expr { kind: A::Call(class, args), .. })
                if STD_EXCEPTIONS.contains(&class.name.as_str()) && !self.fns.contains_key(&class.name) =>
            {
                let what = match args.as_slice() {
                    // What a default-constructed one's `what()` says.
                    [] => {
                        let id = self.string(&format!("std::{}", class.name));
                        Expr::new(ExprKind::Str(id), text.clone(), span)
                    }
                    [message] if class.name != "exception" && class.name != "bad_alloc" => {
                        let message = self.text(message);
                        let v = self.rvalue(&message)?;
                        match v.ty.pointee().and_then(Type::scalar) {
                            Some(Scalar::I8 | Scalar::U8) => self.convert(v, &text)?,
                            _ => {
                                return Err(self.error(
                                    message.span,
                                    format!("`std::{}` takes a message (a string), not a `{}`", class.name, v.ty),
                                ));
                            }
                        }
                    }
                    _ => return Err(self.error(span, format!("these arguments to `std::{}`", class.name))),
                };
                let id = self.string(&format!("std::{}", class.name));
                (Expr::new(ExprKind::Str(id), text, span), what)
            }
            Some(v) => {
                let value = self.rvalue(v)?;
                let Some(ty) = demangled(&value.ty) else {
                    return Err(self.unsupported(v.span, format_args!("throwing a `{}` yet", value.ty)));
                };
                let id = self.string(&ty);
                let name = Expr::new(ExprKind::Str(id), text, span);
                return Ok(Expr::new(ExprKind::Lib(Lib::Throw, vec![name, none, value]), Type::Void, span));
            }
        };
        if value.is_none() {
            return Ok(Expr::new(ExprKind::Lib(Lib::Terminate, vec![name, what]), Type::Void, span));
        }
        let zero = Expr::new(ExprKind::Const(0), Type::Scalar(Scalar::U64), span);
        Ok(Expr::new(ExprKind::Lib(Lib::Throw, vec![name, what, zero]), Type::Void, span))
    }

    /// `try { body } catch (...) { ... }`.
    pub(super) fn try_catch(&mut self, body: &ast::Stmt, handlers: &[ast::Catch]) -> Result<Stmt, Reported> {
        let body = self.scoped(body)?;
        let mut out = vec![];
        for h in handlers {
            let (catches, ty) = match &h.class {
                None => (Catches::All, None),
                Some(c) if STD_EXCEPTIONS.contains(&c.name.as_str()) => {
                    (Catches::Std(c.name.clone()), Some(Type::ptr(Type::Scalar(Scalar::I8), true)))
                }
                Some(c) => match caught_scalar(&c.name) {
                    Some(s) => {
                        let ty = Type::Scalar(s);
                        (Catches::Value(demangled(&ty).unwrap_or_default()), Some(ty))
                    }
                    // An object of a class of the program's own, matched by its name (its value is not kept).
                    None if h.var.is_none() => (Catches::Value(c.name.clone()), None),
                    None => return Err(self.unsupported(c.span, format_args!("catching a `{}` by name", c.name))),
                },
            };
            let mut scope = HashMap::new();
            let slot = match (&h.var, ty) {
                (Some(v), Some(ty)) => {
                    let slot = self.new_slot();
                    if matches!(catches, Catches::Std(_)) {
                        self.what_slots.insert(slot);
                    }
                    scope.insert(v.name.clone(), Var::Reg(slot, ty));
                    Some(slot)
                }
                _ => None,
            };
            self.scopes.push(scope);
            let body = self.scoped(&h.body);
            self.scopes.pop();
            out.push(Handler { catches, slot, body: body? });
        }
        Ok(Stmt::Try(Box::new(body), out))
    }

    /// `e.what()` on a caught standard exception's variable: its text.
    pub(super) fn caught_what(&self, obj: &ast::Expr, m: &ast::Ident, args: &[ast::Expr]) -> Option<Expr> {
        let A::Name(n) = &obj.kind else { return None };
        if m.name != "what" || !args.is_empty() {
            return None;
        }
        match self.lookup(n)? {
            Var::Reg(slot, ty) if self.what_slots.contains(&slot) => {
                Some(Expr::new(ExprKind::Slot(slot), ty, obj.span.to(m.span)))
            }
            _ => None,
        }
    }
}

/// The scalar type a `catch` names (the words as written: `int`, `double`).
fn caught_scalar(name: &str) -> Option<Scalar> {
    Some(match name {
        "bool" => Scalar::Bool,
        "char" => Scalar::I8,
        "short" => Scalar::I16,
        "int" => Scalar::I32,
        "unsigned" => Scalar::U32,
        "long" => Scalar::I64,
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        _ => return None,
    })
}

/// Whether standard class `thrown` is `class` or derives from it (`<stdexcept>`'s hierarchy).
fn derives(thrown: &str, class: &str) -> bool {
    const LOGIC: &[&str] = &["invalid_argument", "out_of_range", "length_error", "domain_error"];
    const RUNTIME: &[&str] = &["range_error", "overflow_error", "underflow_error"];
    thrown == class
        || class == "exception"
        || (class == "logic_error" && LOGIC.contains(&thrown))
        || (class == "runtime_error" && RUNTIME.contains(&thrown))
}

/// Whether a handler takes a thrown exception of this type name.
fn takes(c: &Catches, name: &str) -> bool {
    match c {
        Catches::All => true,
        Catches::Value(v) => v == name,
        Catches::Std(class) => name.strip_prefix("std::").is_some_and(|t| derives(t, class)),
    }
}

impl Interp<'_> {
    /// `throw`: the exception, on its way to a handler.
    pub(super) fn thrown(&mut self, v: &[u64], e: &Expr) -> Unwind {
        match self.c_str(v[0], e) {
            Ok(name) => Unwind::Thrown(Box::new(Thrown {
                name: String::from_utf8_lossy(&name).into_owned(),
                what: v[1],
                value: v[2],
            })),
            Err(u) => u,
        }
    }

    /// A `try` statement: the body, then the first handler that takes what it threw, if it threw.
    pub(super) fn try_catch(&mut self, body: &Stmt, handlers: &[Handler], slots: &mut [u64]) -> Result<Flow, Unwind> {
        match self.stmt(body, slots) {
            Err(Unwind::Thrown(t)) => {
                let Some(h) = handlers.iter().find(|h| takes(&h.catches, &t.name)) else {
                    return Err(Unwind::Thrown(t));
                };
                if let Some(s) = h.slot {
                    slots[s as usize] = if matches!(h.catches, Catches::Std(_)) { t.what } else { t.value };
                }
                self.stmt(&h.body, slots)
            }
            r => r,
        }
    }

    /// An exception no handler took: libstdc++'s terminate handler's lines, then `abort`.
    pub(super) fn uncaught(&mut self, t: &Thrown) -> Unwind {
        let mut message = format!("terminate called after throwing an instance of '{}'\n", t.name);
        if t.what != 0 {
            let what = self.mem.c_string(t.what).unwrap_or_default();
            message += &format!("  what():  {}\n", String::from_utf8_lossy(&what));
        }
        self.write(true, message.as_bytes());
        Unwind::Exit(134)
    }

    /// libstdc++'s verbose terminate handler's lines, then `abort`.
    pub(super) fn terminate(&mut self, v: &[u64], e: &Expr) -> Unwind {
        let text = |me: &mut Self, at: u64| me.c_str(at, e).map(|b| String::from_utf8_lossy(&b).into_owned());
        let mut message = match v[0] {
            0 => "terminate called without an active exception\n".to_string(),
            at => match text(self, at) {
                Ok(name) => format!("terminate called after throwing an instance of '{name}'\n"),
                Err(u) => return u,
            },
        };
        if v[1] != 0 {
            match text(self, v[1]) {
                Ok(what) => message += &format!("  what():  {what}\n"),
                Err(u) => return u,
            }
        }
        self.write(true, message.as_bytes());
        // SIGABRT: a shell reports 128 + 6.
        Unwind::Exit(134)
    }
}
