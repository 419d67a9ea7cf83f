//! `throw` in host code, as course code throws: an error check's `throw std::runtime_error(msg)` that nothing
//! catches. libstdc++'s `std::terminate` then prints the exception's type and its `what()` to standard error,
//! and `abort` ends the program (a shell's status 134), which is what the program does on a real machine.
//! `try`/`catch` are not read yet (a program that catches is refused at its `try`).

use super::interp::{Interp, Unwind};
use super::resolve::Resolver;
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
                // The value is computed (its side effects happen) before the handler runs.
                let name = Expr::new(ExprKind::Str(id), text.clone(), span);
                let named = Expr::new(ExprKind::Comma(Box::new(value), Box::new(name)), text, span);
                (named, none)
            }
        };
        Ok(Expr::new(ExprKind::Lib(Lib::Terminate, vec![name, what]), Type::Void, span))
    }
}

impl Interp<'_> {
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
