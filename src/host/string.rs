//! `std::string` in host code, kept as what course code does with it: a variable is a struct holding a pointer
//! to its characters (`struct string { char *p; }`), and every operation is C string code over that pointer.
//! A value that changes (`s = t`, `s += t`, `a + b`) gets fresh characters of its own (`__warpdbg_strjoin`),
//! so two strings never share characters a later change could reach (except a parameter passed by value,
//! which shares its argument's until either is assigned). Comparisons are `strcmp`, `size()` is `strlen`,
//! `c_str()` the pointer, and `cout << s` prints the characters. Temporaries made from a C string
//! (`string(argv[2]) == "--verify"`) are that C string.

use super::cuda::names::is_string;
use super::resolve::{Resolver, names_object};
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};

/// The C string a `std::string(s)` (or `string(s)`) temporary is made from.
fn temporary(e: &ast::Expr) -> Option<&ast::Expr> {
    match &e.kind {
        A::Call(f, args) if matches!(f.name.as_str(), "string" | "std::string") => match args.as_slice() {
            [s] => Some(s),
            _ => None,
        },
        _ => None,
    }
}

fn expr(kind: A, span: Span) -> ast::Expr {
    ast::Expr { kind, span }
}

fn call(f: &str, args: Vec<ast::Expr>, span: Span) -> ast::Expr {
    expr(A::Call(ast::Ident { name: f.into(), span }, args), span)
}

/// `obj.p`: a string variable's characters.
fn chars(obj: &ast::Expr) -> ast::Expr {
    expr(A::Member(Box::new(obj.clone()), ast::Ident { name: "p".into(), span: obj.span }), obj.span)
}

/// `obj.p`, or `""` where it is null: the characters to read. A string member nothing initialised is zeroed
/// bytes (a class's `std::string name;`, an element of `std::vector<std::string> v(n)`), which C++'s default
/// constructor makes the empty string.
pub(super) fn read_chars(obj: &ast::Expr) -> ast::Expr {
    let p = chars(obj);
    let span = obj.span;
    expr(
        A::Ternary { cond: Box::new(p.clone()), then: Box::new(p), els: Box::new(expr(A::Str(String::new()), span)) },
        span,
    )
}

/// `p + strlen(p)`: the end of C string `p`, as a range's end.
fn end_of(p: ast::Expr) -> ast::Expr {
    let span = p.span;
    let len = call("strlen", vec![p.clone()], span);
    expr(A::Binary { op: BinaryOp::Add, left: Box::new(p), right: Box::new(len) }, span)
}

fn int(value: u64, span: Span) -> ast::Expr {
    expr(A::Int { value, unsigned: false, long: false, decimal: true }, span)
}

fn is_to_string(name: &str) -> bool {
    matches!(name, "to_string" | "std::to_string")
}

/// A copy of C string `e` in fresh characters (`a + b` with `b` empty).
fn copied(e: ast::Expr) -> ast::Expr {
    let span = e.span;
    call("__warpdbg_strjoin", vec![e, expr(A::Str(String::new()), span)], span)
}

/// The text of `std::to_string`'s value `bits` of scalar type `s`: `%d`-like for integers, `%f` for floating
/// types, as libstdc++ formats them.
pub(super) fn to_string_text(s: Scalar, bits: u64) -> String {
    match s {
        Scalar::F64 => {
            let x = f64::from_bits(bits);
            if x.is_nan() {
                if x.is_sign_negative() { "-nan" } else { "nan" }.to_string()
            } else if x.is_infinite() {
                if x < 0.0 { "-inf" } else { "inf" }.to_string()
            } else {
                format!("{x:.6}")
            }
        }
        Scalar::U64 => bits.to_string(),
        _ => (bits as i64).to_string(),
    }
}

impl Resolver<'_> {
    /// Whether `e` is a `std::string` value: an object of that type (a variable, a reference, an element, a
    /// field: [`Self::is_string_place`]), a temporary made from a C string, or `std::to_string(x)`.
    fn is_string_expr(&mut self, e: &ast::Expr) -> bool {
        match &e.kind {
            _ if names_object(e) => self.is_string_place(e),
            A::Call(f, _)
                if temporary(e).is_some()
                    || is_to_string(&f.name)
                    || matches!(f.name.as_str(), "string" | "std::string") =>
            {
                true
            }
            A::MethodCall { object, method, .. } if method.name == "substr" => self.is_string_expr(object),
            // A function or member function returning a `std::string` (`describe(n)`, `k.name()`).
            A::Call(..) | A::MethodCall { .. } => self.probe_type(e).is_ok_and(|t| is_string(&t)),
            // `a + b + c`: a sum whose left side is one is one.
            A::Binary { op: BinaryOp::Add, left, right } => self.is_string_expr(left) || self.is_string_expr(right),
            _ => false,
        }
    }

    /// Whether `e` names a `std::string` object: a variable or reference (`s`), an element (`names[i]` of an
    /// array or a `std::vector<std::string>`), a field (`run.label`, `this->name`), `*p`.
    pub(super) fn is_string_place(&mut self, e: &ast::Expr) -> bool {
        match &e.kind {
            A::Name(n) if self.lookup(n).is_none() && self.this_field(n, e.span).is_none() => false,
            _ if names_object(e) => self.probe_type(e).is_ok_and(|t| is_string(&t)),
            _ => false,
        }
    }

    /// The C string of `e`: a string variable's characters, a temporary's C string, or `e` itself.
    pub(super) fn text(&mut self, e: &ast::Expr) -> ast::Expr {
        if let Some(s) = temporary(e) {
            return self.text(s);
        }
        // `std::string(3, '-')`: fresh characters.
        if let A::Call(f, args) = &e.kind
            && matches!(f.name.as_str(), "string" | "std::string")
            && let [n, c] = args.as_slice()
        {
            return call("__warpdbg_str_fill", vec![n.clone(), c.clone()], e.span);
        }
        self.read_text(e)
    }

    /// The characters of string `e` to read (`""` where they are null: [`read_chars`]), `e` evaluated once;
    /// `e` itself when it is not a string.
    fn read_text(&mut self, e: &ast::Expr) -> ast::Expr {
        if self.is_string_place(e) {
            return read_chars(e);
        }
        if matches!(e.kind, A::Call(..) | A::MethodCall { .. }) && self.probe_type(e).is_ok_and(|t| is_string(&t)) {
            return call("__warpdbg_str_text", vec![chars(e)], e.span);
        }
        e.clone()
    }

    /// `a == b` (and `!=`, `<`, ...) with either side a string: `strcmp(a, b) == 0`; `a + b` with either side a
    /// string: the characters of both in fresh storage. None when neither side is a string.
    pub(super) fn string_compare(
        &mut self,
        op: BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let compare =
            matches!(op, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge);
        if !compare && op != BinaryOp::Add {
            return None;
        }
        if !self.is_string_expr(a) && !self.is_string_expr(b) {
            return None;
        }
        let (x, y) = (self.text(a), self.text(b));
        if op == BinaryOp::Add {
            return Some(self.rvalue(&call("__warpdbg_strjoin", vec![x, y], span)));
        }
        let cmp = call("strcmp", vec![x, y], span);
        let zero = expr(A::Int { value: 0, unsigned: false, long: false, decimal: true }, span);
        Some(self.rvalue(&expr(A::Binary { op, left: Box::new(cmp), right: Box::new(zero) }, span)))
    }

    /// `s = t` and `s += t` on a string variable `s`: its characters become a fresh copy of `t`'s, or of
    /// `s`'s and `t`'s. None when `s` is not a string.
    pub(super) fn string_assign(
        &mut self,
        op: Option<BinaryOp>,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if !self.is_string_place(a) {
            return None;
        }
        let value = match op {
            None => copied(self.text(b)),
            Some(BinaryOp::Add) => call("__warpdbg_strjoin", vec![read_chars(a), self.text(b)], span),
            Some(_) => return Some(Err(self.error(span, "this operator on a `std::string`"))),
        };
        let set = expr(A::Assign { op: None, target: Box::new(chars(a)), value: Box::new(value) }, span);
        Some(self.rvalue(&set))
    }

    /// `std::string s = init;` (or `s(init)`, or none: empty): sets the new variable's characters.
    pub(super) fn string_construct(
        &mut self,
        name: &ast::Ident,
        ty: &Type,
        init: Option<&ast::Expr>,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<(), Reported>> {
        if !is_string(ty) {
            return None;
        }
        let span = init.map_or(name.span, |e| e.span);
        let from = match init.map(|e| &e.kind) {
            None => expr(A::Str(String::new()), span),
            Some(A::InitList(items)) => match items.as_slice() {
                [] => expr(A::Str(String::new()), span),
                [x] => copied(self.text(x)),
                [n, c] => call("__warpdbg_str_fill", vec![n.clone(), c.clone()], span),
                _ => return Some(Err(self.unsupported(span, "this `std::string` constructor yet"))),
            },
            Some(_) => copied(self.text(init?)),
        };
        let var = expr(A::Name(name.name.clone()), name.span);
        let set = expr(A::Assign { op: None, target: Box::new(chars(&var)), value: Box::new(from) }, span);
        Some(self.rvalue(&set).map(|e| out.push(Stmt::Expr(e))))
    }

    /// `init` stored as the `std::string` object at `addr` (an element of `std::string labels[3] = {"a",
    /// "bb", "ccc"}`): fresh characters copied from its text, as a declared string's. None when `ty` is not
    /// `std::string`.
    pub(super) fn string_in_memory(
        &mut self,
        addr: Expr,
        ty: &Type,
        init: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<(), Reported>> {
        if !is_string(ty) {
            return None;
        }
        let span = init.span;
        let from = match &init.kind {
            A::InitList(items) => match items.as_slice() {
                [] => expr(A::Str(String::new()), span),
                [x] => copied(self.text(x)),
                [n, c] => call("__warpdbg_str_fill", vec![n.clone(), c.clone()], span),
                _ => return Some(Err(self.unsupported(span, "this `std::string` constructor yet"))),
            },
            _ => copied(self.text(init)),
        };
        let set = self.rvalue(&from).and_then(|v| {
            let s = storage(&v.ty).ok_or(Reported)?;
            let at = Expr { ty: Type::ptr(v.ty.clone(), false), ..addr };
            Ok(Expr::new(ExprKind::assign(Place::mem(at, None), s, v), Type::Void, span))
        });
        Some(set.map(|set| out.push(Stmt::Expr(set))))
    }

    /// `e` as a `std::string` value (an element pushed onto a `std::vector<std::string>`): a string as it is,
    /// anything else (a literal, a `char *`) a temporary string with fresh characters copied from it.
    pub(super) fn string_value(&mut self, e: &ast::Expr, ty: &Type) -> Result<Expr, Reported> {
        if self.is_string_place(e) {
            return self.rvalue(e);
        }
        let span = e.span;
        let slot = self.new_slot();
        self.frame.push((slot, ty.size(), "std::string temporary".into()));
        let addr = Expr::new(ExprKind::Slot(slot), Type::ptr(ty.clone(), false), span);
        let mut sets = vec![];
        self.string_in_memory(addr, ty, e, &mut sets).ok_or(Reported)??;
        let object = Expr::new(ExprKind::Slot(slot), ty.clone(), span);
        sequence(sets, object).ok_or(Reported)
    }

    /// `s.size()`, `length()`, `empty()`, `c_str()`, `data()` on a string `obj` of type `ty` (None: not one).
    pub(super) fn string_method(
        &mut self,
        obj: &ast::Expr,
        ty: &Type,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if !is_string(ty) {
            return None;
        }
        let p = self.read_text(obj);
        let e = match (m.name.as_str(), args) {
            ("c_str" | "data", []) => p,
            ("size" | "length", []) => call("strlen", vec![p], span),
            ("empty", []) => {
                let len = call("strlen", vec![p], span);
                expr(A::Binary { op: BinaryOp::Eq, left: Box::new(len), right: Box::new(int(0, span)) }, span)
            }
            // The characters as a range: `std::reverse(s.begin(), s.end())`, `std::sort`, `std::transform`.
            ("begin", []) => p,
            ("end", []) => end_of(p),
            ("at" | "operator[]", [i]) => expr(A::Index(Box::new(p), Box::new(i.clone())), span),
            ("front", []) => expr(A::Index(Box::new(p), Box::new(int(0, span))), span),
            ("back", []) => {
                let len = call("strlen", vec![p.clone()], span);
                let last =
                    expr(A::Binary { op: BinaryOp::Sub, left: Box::new(len), right: Box::new(int(1, span)) }, span);
                expr(A::Index(Box::new(p), Box::new(last)), span)
            }
            ("find" | "rfind", [t, pos @ ..]) if pos.len() <= 1 => {
                let t = self.text_or_char(t);
                let from = pos.first().cloned().unwrap_or_else(|| {
                    if m.name == "find" { int(0, span) } else { expr(A::Name("npos".into()), span) }
                });
                call(&format!("__warpdbg_str_{}", m.name), vec![p, t, from], span)
            }
            ("substr", rest) if rest.len() <= 2 => {
                let pos = rest.first().cloned().unwrap_or_else(|| int(0, span));
                let len = rest.get(1).cloned().unwrap_or_else(|| expr(A::Name("npos".into()), span));
                call("__warpdbg_str_sub", vec![p, pos, len, expr(A::Str("substr".into()), span)], span)
            }
            ("compare", [t]) => {
                let t = self.text(t);
                call("__warpdbg_str_compare", vec![p, t], span)
            }
            // Changes: the string gets fresh characters, as `s += t` gives it.
            ("push_back" | "append" | "clear" | "insert" | "erase" | "replace", _) => {
                let npos = || expr(A::Name("npos".into()), span);
                let splice = |pos: &ast::Expr, len: ast::Expr, t: ast::Expr, what: &str| {
                    let what = expr(A::Str(what.into()), span);
                    call("__warpdbg_str_splice", vec![p.clone(), pos.clone(), len, t, what], span)
                };
                let value = match (m.name.as_str(), args) {
                    ("push_back", [c]) => call("__warpdbg_str_push", vec![p.clone(), c.clone()], span),
                    ("append", [t]) => call("__warpdbg_strjoin", vec![p.clone(), self.text(t)], span),
                    ("clear", []) => copied(expr(A::Str(String::new()), span)),
                    // libstdc++'s `out_of_range` past the end, as `substr`'s (its `insert` of text is a
                    // `replace` of nothing, and says so).
                    ("insert", [pos, t]) => {
                        let t = self.text(t);
                        splice(pos, int(0, span), t, "replace")
                    }
                    ("erase", []) => copied(expr(A::Str(String::new()), span)),
                    ("erase", [pos]) => splice(pos, npos(), expr(A::Str(String::new()), span), "erase"),
                    ("erase", [pos, len]) => splice(pos, len.clone(), expr(A::Str(String::new()), span), "erase"),
                    ("replace", [pos, len, t]) => {
                        let t = self.text(t);
                        splice(pos, len.clone(), t, "replace")
                    }
                    _ => {
                        return Some(Err(self
                            .unsupported(m.span, format_args!("`std::string::{}` with these arguments yet", m.name))));
                    }
                };
                expr(A::Assign { op: None, target: Box::new(chars(obj)), value: Box::new(value) }, span)
            }
            _ => return Some(Err(self.unsupported(m.span, format_args!("`std::string::{}` yet", m.name)))),
        };
        Some(self.rvalue(&e))
    }

    /// `for (char c : s)` over a string `range`: its characters' first and end pointers (None: not a string).
    pub(super) fn string_range(&mut self, range: &ast::Expr) -> Option<Result<(Expr, Expr), Reported>> {
        if !self.is_string_expr(range) {
            return None;
        }
        let p = self.text(range);
        let end = end_of(p.clone());
        Some(self.rvalue(&p).and_then(|b| Ok((b, self.rvalue(&end)?))))
    }

    /// The C string of `e`, or of the one character `e` is (`s.find(',')`).
    fn text_or_char(&mut self, e: &ast::Expr) -> ast::Expr {
        let is_char = matches!(e.kind, A::Char(_))
            || self.rvalue(e).is_ok_and(|v| matches!(v.ty, Type::Scalar(Scalar::I8 | Scalar::U8)));
        if is_char {
            return call("__warpdbg_str_push", vec![expr(A::Str(String::new()), e.span), e.clone()], e.span);
        }
        self.text(e)
    }

    /// `s[i]` on a string `s` (None: `a` is not one): the character of `s.p[i]`.
    pub(super) fn string_index(&mut self, a: &ast::Expr, i: &ast::Expr, span: Span) -> Option<ast::Expr> {
        self.is_string_place(a).then(|| expr(A::Index(Box::new(read_chars(a)), Box::new(i.clone())), span))
    }

    /// `std::to_string(x)` (fresh characters), and `std::stoi`, `stol`, `stoll`, `stof`, `stod` of a string
    /// or C string (`atoi` and its family). None for any other call.
    pub(super) fn string_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let short = name.name.strip_prefix("std::").unwrap_or(&name.name);
        if self.fns.contains_key(&name.name) {
            return None;
        }
        // A temporary `std::string(3, '-')` or `std::string(text)`: its C string (fresh characters).
        if short == "string" && matches!(args.len(), 1 | 2) {
            let e = ast::Expr { kind: A::Call(name.clone(), args.to_vec()), span };
            let text = self.text(&e);
            return Some(self.rvalue(&text));
        }
        let [x] = args else {
            return None;
        };
        let conv = match short {
            "stoi" => "atoi",
            "stol" | "stoll" => "atol",
            "stof" | "stod" => "atof",
            "to_string" => return Some(self.std_to_string_call(x, span)),
            _ => return None,
        };
        let text = self.text(x);
        let v = self.rvalue(&call(conv, vec![text], span));
        // `stof` gives a float: `atof`'s double, rounded.
        Some(if short == "stof" { v.and_then(|v| self.convert(v, &Type::FLOAT)) } else { v })
    }

    fn std_to_string_call(&mut self, x: &ast::Expr, span: Span) -> Result<Expr, Reported> {
        let v = self.rvalue(x)?;
        let s = match &v.ty {
            Type::Scalar(s) if s.is_float() => Scalar::F64,
            Type::Scalar(Scalar::U32 | Scalar::U64 | Scalar::U16 | Scalar::U8) => Scalar::U64,
            Type::Scalar(_) => Scalar::I64,
            t => return Err(self.error(x.span, format!("`std::to_string` of a `{t}`"))),
        };
        let v = self.convert(v, &Type::Scalar(s))?;
        let chars = Type::ptr(Type::Scalar(Scalar::I8), false);
        Ok(Expr::new(ExprKind::Lib(Lib::ToString(s), vec![v]), chars, span))
    }
}
