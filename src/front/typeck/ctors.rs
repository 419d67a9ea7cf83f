//! Constructors in device code: what runs before a constructor's body (its member initialisers, default member
//! initialisers, members of class type default-constructed, in the order the fields are declared, as C++
//! does), the implicit default constructor a class gets from those, building a temporary (`Vec3(1, 2, 3)`,
//! `Vec3 p(1, 2, 3);`, `Vec3 q{p};`, the implicit copy), and the default construction of each element of a
//! per-thread array (`Vec3 pts[4];`). `__shared__` objects are not constructed: CUDA does not run a
//! constructor on them (nvcc warns and leaves them uninitialised).

use super::checker::Checker;
use super::struct_ref::StructRef;
use crate::front::ast::{self, ExprKind as A};
use crate::front::builtin_types::vector_type;
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::types::Type;

/// Whether class `s` declares a device constructor taking no arguments (or only defaulted ones).
fn default_ctor_of(s: &ast::StructDecl) -> bool {
    s.methods.iter().any(|m| m.ctor.is_some() && m.device && m.func.params.iter().all(|p| p.default.is_some()))
}

/// The class a field of type `t` is, when it is one with a default constructor.
fn class_field<'a>(
    t: &ast::TypeSpec,
    d: &ast::Declarator,
    structs: &'a [ast::StructDecl],
) -> Option<&'a ast::StructDecl> {
    if t.pointers + d.pointers > 0 || !d.dims.is_empty() {
        return None;
    }
    let name = t.named.as_deref()?;
    structs.iter().rev().find(|s| s.name.name == name)
}

/// The statements a constructor of `s` runs before its body, field by field in declaration order: its member
/// initialiser (`: x(a), pos(p)`), else the field's default member initialiser (`float mass = 1.0f;`), else,
/// for a member of a class with a default constructor, that constructor.
pub(super) fn ctor_prologue(
    s: &ast::StructDecl,
    inits: &[(ast::Ident, Vec<ast::Expr>)],
    structs: &[ast::StructDecl],
    this: impl Fn(Span) -> ast::Expr,
) -> Vec<ast::Stmt> {
    let mut out = vec![];
    for (t, d) in &s.fields {
        let given = inits.iter().find(|(f, _)| f.name == d.name.name);
        let span = given.map_or(d.name.span, |(f, _)| f.span);
        let class = class_field(t, d, structs);
        let named_struct = class.is_some() || t.named.as_deref().is_some_and(|n| vector_type(n).is_some());
        let rhs = match (given, &d.init) {
            // A member of class type is built by its constructor (or copied: `pos(p)`).
            (Some((_, args)), _) if named_struct && t.pointers + d.pointers == 0 => {
                let ty = ast::Ident { name: t.named.clone().unwrap_or_default(), span };
                ast::Expr { kind: A::Call(ty, args.clone()), span }
            }
            (Some((_, args)), _) => match args.as_slice() {
                [one] => one.clone(),
                [] => ast::Expr { kind: A::Int { value: 0, unsigned: false, long: false, decimal: true }, span },
                many => ast::Expr { kind: A::InitList(many.to_vec()), span },
            },
            (None, Some(init)) if d.dims.is_empty() => init.clone(),
            (None, _) if class.is_some_and(default_ctor_of) => {
                let ty = ast::Ident { name: t.named.clone().unwrap_or_default(), span };
                ast::Expr { kind: A::Call(ty, vec![]), span }
            }
            _ => continue,
        };
        let lhs = ast::Expr { kind: A::Member(Box::new(this(span)), d.name.clone()), span };
        let assign = ast::Expr { kind: A::Assign { op: None, target: Box::new(lhs), value: Box::new(rhs) }, span };
        out.push(ast::Stmt { kind: ast::StmtKind::Expr(assign), span });
    }
    out
}

/// The implicit default constructor of a class that declares none but has default member initialisers or
/// members of a class with a default constructor (C++ then gives it one that runs them); None otherwise.
pub(super) fn implicit_ctor(s: &ast::StructDecl, structs: &[ast::StructDecl]) -> Option<ast::Method> {
    if s.methods.iter().any(|m| m.ctor.is_some()) {
        return None;
    }
    let needed = s.fields.iter().any(|(t, d)| {
        (d.init.is_some() && d.dims.is_empty()) || class_field(t, d, structs).is_some_and(default_ctor_of)
    });
    if !needed {
        return None;
    }
    let span = s.name.span;
    let ret = ast::TypeSpec {
        base: ast::BaseType::Void,
        named: None,
        is_const: false,
        is_volatile: false,
        pointers: 0,
        span,
        func: None,
    };
    let func = ast::Function {
        kind: ast::FnKind::Device,
        ret,
        name: s.name.clone(),
        params: vec![],
        body: vec![],
        span,
        body_end: span,
    };
    Some(ast::Method {
        func,
        is_static: false,
        is_const: false,
        ctor: Some(vec![]),
        friend: false,
        device: true,
        prototype: false,
        ret_ref: false,
    })
}

impl Checker {
    /// Whether `ty` is a class with constructors (its own or the implicit one).
    pub(super) fn has_ctors(&self, ty: &Type) -> bool {
        ty.as_struct().is_some_and(|s| self.members.by_name.contains_key(&format!("{0}::{0}", s.name)))
    }

    /// Whether `ty` is a class whose objects a default constructor builds (`Vec3 v;` runs it).
    pub(super) fn has_default_ctor(&self, ty: &Type) -> bool {
        let Some(s) = ty.as_struct() else { return false };
        self.members
            .by_name
            .get(&format!("{0}::{0}", s.name))
            .is_some_and(|ids| ids.iter().any(|id| self.sigs[id.0 as usize].defaults.iter().all(|d| d.is_some())))
    }

    /// Whether braced `items` set the fields of `ty` in order: a class whose only constructor is the implicit
    /// default one is still an aggregate (`Counter c = {1, 1.5f};`).
    pub(super) fn aggregate_list(&self, ty: &Type, items: &[ast::Expr]) -> bool {
        !items.is_empty() && ty.as_struct().is_some_and(|s| self.members.implicit.contains(&s.name))
    }

    /// A temporary of type `ty` built from `args`: by the constructor they fit, as a copy (one argument of the
    /// type itself, the implicit copy constructor), or field by field (a class without constructors, or only
    /// the implicit default one).
    pub(super) fn construct(&mut self, ty: &Type, args: &[ast::Expr], span: Span) -> (Vec<Stmt>, u32) {
        let name = ty.to_string();
        let (mut pre, idx) = self.temp_struct(ty, &name, span);
        let mut ctors = self.members.by_name.get(&format!("{name}::{name}")).cloned().unwrap_or_default();
        if self.aggregate_list(ty, args) {
            ctors.clear();
        }
        let arg_refs: Vec<&ast::Expr> = args.iter().collect();
        let fit = if ctors.is_empty() { None } else { self.best_fit(&ctors, &arg_refs, 0) };
        if fit.is_none() && args.len() == 1 && self.probe_type(&args[0]) == *ty {
            let this = StructRef::Local { idx, prefix: String::new(), ty: ty.clone(), pre: vec![] };
            pre.extend(self.assign_ref(this, &args[0], span));
            return (pre, idx);
        }
        if ctors.is_empty() {
            let list = ast::Expr { kind: A::InitList(args.to_vec()), span };
            let Some(values) = self.struct_values(&list, ty) else { return (pre, idx) };
            let (checks, vals): (Vec<_>, Vec<_>) = values.into_iter().partition(|v| v.ty == Type::Void);
            pre.extend(checks.into_iter().map(|c| Stmt { kind: StmtKind::Expr(c), span }));
            let targets = self.struct_locals[idx as usize].leaves.clone();
            for ((_, id, t), v) in targets.iter().zip(vals) {
                let set = Expr::new(ExprKind::Assign(Place::Local(*id), Box::new(v)), t.clone(), span);
                pre.push(Stmt { kind: StmtKind::Expr(set), span });
            }
            return (pre, idx);
        }
        let Some(id) = fit else {
            let d = Diagnostic::new(
                ErrorCode::Type,
                span,
                format!("no constructor of `{name}` takes {} argument(s) of these types", args.len()),
            );
            let d = ctors.iter().fold(d, |d, c| d.with_secondary(self.sigs[c.0 as usize].span, "a constructor"));
            self.err(d);
            return (pre, idx);
        };
        let this = StructRef::Local { idx, prefix: String::new(), ty: ty.clone(), pre: vec![] };
        if let Some(out) = self.emit_call(id, Some(this), args, span) {
            pre.extend(out.pre);
            pre.push(Stmt { kind: StmtKind::Expr(out.call), span });
        }
        (pre, idx)
    }

    /// `Vec3 pts[4];` of a class with a default constructor: each element constructed in order, as the loop
    /// `for (int k = 0; k < 4; k++) pts[k] = Vec3();` does.
    pub(super) fn construct_elements(&mut self, array: &ast::Ident, class: &str, len: u32, span: Span) -> Vec<Stmt> {
        let e = |kind| ast::Expr { kind, span };
        let int = |value| e(A::Int { value, unsigned: false, long: false, decimal: true });
        let k = ast::Ident { name: "constructed element".into(), span };
        let ty = ast::TypeSpec {
            base: ast::BaseType::Int,
            named: None,
            is_const: false,
            is_volatile: false,
            pointers: 0,
            span,
            func: None,
        };
        let declarator = ast::Declarator::plain(k.clone(), Some(int(0)));
        let init = ast::Stmt {
            kind: ast::StmtKind::Decl(ast::Decl {
                shared: false,
                is_extern: false,
                ty,
                declarators: vec![declarator],
                span,
            }),
            span,
        };
        let kv = || e(A::Name(k.name.clone()));
        let cond = e(A::Binary { op: ast::BinaryOp::Lt, left: Box::new(kv()), right: Box::new(int(u64::from(len))) });
        let step = e(A::IncDec { increment: true, prefix: true, operand: Box::new(kv()) });
        let element = e(A::Index(Box::new(e(A::Name(array.name.clone()))), Box::new(kv())));
        let made = e(A::Call(ast::Ident { name: class.to_string(), span }, vec![]));
        let assign = e(A::Assign { op: None, target: Box::new(element), value: Box::new(made) });
        let body = ast::Stmt { kind: ast::StmtKind::Expr(assign), span };
        let for_ =
            ast::StmtKind::For { init: Some(Box::new(init)), cond: Some(cond), step: Some(step), body: Box::new(body) };
        self.stmt(&ast::Stmt { kind: for_, span })
    }
}
