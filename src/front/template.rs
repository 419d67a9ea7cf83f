//! Function templates (kernels and device functions): a definition keeps its tokens, and each instantiation
//! (`// @kernel reduce<512>`, `warpReduce<float, 32>(x)`, or a call whose type arguments follow from its
//! argument types) substitutes the arguments' tokens for the parameters and parses the result as an ordinary
//! function named `reduce<512>` (the parser does that: `parser::instance`). A non-type argument becomes a parenthesised constant, so
//! `if (iBlockSize >= 1024 && tid < 512)` folds like a literal.

use std::collections::HashMap;

use super::ast::TypeSpec;
use super::source::Span;
use super::token::{Punct, TokKind, Token};
use super::types::Type;

/// One template parameter.
#[derive(Clone, Debug)]
pub struct TemplateParam {
    pub name: String,
    /// `typename T` / `class T`; else a constant (`unsigned int N`).
    pub is_type: bool,
    pub default: Option<Vec<Token>>,
    /// A constant parameter's type (`unsigned int`): arguments are converted to it, as C++ does.
    pub ty: Vec<Token>,
    /// As written, for messages: `unsigned int iBlockSize`.
    pub text: String,
}

/// A function template: its parameters and the function's tokens after `template <...>`.
#[derive(Clone, Debug)]
pub struct TemplateDef {
    pub name: String,
    pub params: Vec<TemplateParam>,
    pub tokens: Vec<Token>,
    pub is_kernel: bool,
    pub span: Span,
}

impl TemplateDef {
    /// `template <unsigned int iBlockSize>`, for messages.
    pub fn header(&self) -> String {
        let ps: Vec<&str> = self.params.iter().map(|p| p.text.as_str()).collect();
        format!("template <{}>", ps.join(", "))
    }

    /// For each function parameter whose type is a template type parameter (`T x`, `const T *p`): the
    /// template parameter's index and the pointer levels written after it.
    pub fn deducible(&self) -> Vec<Option<(usize, usize)>> {
        self.function_params().iter().map(|p| self.deduce_from(p)).collect()
    }

    /// The template arguments of a call whose arguments have types `arg_types`: those named `explicit`ly
    /// first (`f<int>(x)`), then each type parameter from the type of the argument passed where the function
    /// takes it, less the pointer levels written after it (as C++ deduces these simple forms); defaults fill
    /// the rest. Err: a parameter none of them gives (its name).
    pub fn deduce_args(&self, explicit: &[Vec<Token>], arg_types: &[Type]) -> Result<Vec<Vec<Token>>, String> {
        if explicit.len() > self.params.len() {
            return Ok(explicit.to_vec()); // the instance reports the count
        }
        let mut deduced: Vec<Option<Type>> = vec![None; self.params.len()];
        for (ty, how) in arg_types.iter().zip(self.deducible()) {
            let Some((param, stars)) = how else { continue };
            let mut t = ty.clone();
            for _ in 0..stars {
                t = match t.pointee() {
                    Some(e) => e.clone(),
                    None => break,
                };
            }
            deduced[param].get_or_insert(t);
        }
        let from_deduced = self.params.iter().zip(&deduced).skip(explicit.len());
        let rest: Result<Vec<Vec<Token>>, String> = from_deduced
            .map(|(p, d)| match (d, &p.default) {
                (Some(t), _) => Ok(deduced_tokens(t)),
                (None, Some(default)) => Ok(default.clone()),
                (None, None) => Err(p.name.clone()),
            })
            .collect();
        Ok(explicit.iter().cloned().chain(rest?).collect())
    }

    /// For each function parameter, whether it is a reference (`T &ptr`).
    pub fn reference_params(&self) -> Vec<bool> {
        self.function_params().iter().map(|p| p.iter().any(|t| t.kind == TokKind::Punct(Punct::Amp))).collect()
    }

    /// The tokens of each function parameter (between the parentheses after the name, split at top-level
    /// commas).
    fn function_params(&self) -> Vec<Vec<&Token>> {
        let Some(open) = self.tokens.iter().position(|t| t.kind == TokKind::Punct(Punct::LParen)) else {
            return vec![];
        };
        let mut out = vec![];
        let mut depth = 0;
        let mut current: Vec<&Token> = vec![];
        for t in &self.tokens[open + 1..] {
            match t.kind {
                TokKind::Punct(Punct::LParen) => depth += 1,
                TokKind::Punct(Punct::RParen) if depth == 0 => {
                    if !current.is_empty() {
                        out.push(std::mem::take(&mut current));
                    }
                    break;
                }
                TokKind::Punct(Punct::RParen) => depth -= 1,
                TokKind::Punct(Punct::Comma) if depth == 0 => {
                    out.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
            current.push(t);
        }
        out
    }

    fn deduce_from(&self, toks: &[&Token]) -> Option<(usize, usize)> {
        let at = toks.iter().position(|t| matches!(&t.kind, TokKind::Ident(n) if self.type_param(n).is_some()))?;
        let TokKind::Ident(n) = &toks[at].kind else { return None };
        let stars = toks[at + 1..].iter().filter(|t| t.kind == TokKind::Punct(Punct::Star)).count();
        Some((self.type_param(n)?, stars))
    }

    fn type_param(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.is_type && p.name == name)
    }
}

/// Which side an instance is parsed for ([`Templates::instantiate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Device,
    Host,
}

/// The templates of a file, and the instantiations its text asks for by name.
#[derive(Clone, Debug, Default)]
pub struct Templates {
    pub defs: HashMap<String, TemplateDef>,
    /// The file's typedefs, which an instantiation's body may use.
    pub typedefs: HashMap<String, TypeSpec>,
    /// Instances named with explicit arguments (`f<float, 32>`): the instance name -> template and arguments.
    pub requested: Vec<super::tast::TemplateRequest>,
    /// The file's structs, whose names an instantiation's body may use as types.
    pub structs: Vec<super::ast::StructDecl>,
    /// Class templates skipped (in a kernel file): a use (`Buffer<float> b;`) says so at its line.
    pub classes: Vec<String>,
    /// A whole program's class templates, by name: each use with new arguments (`Buffer<float>`) makes the
    /// class `Buffer<float>` (`parser::template_defs`).
    pub class_defs: HashMap<String, ClassTemplate>,
}

/// A class template: its parameters, its definition's tokens (`struct Buffer { ... };`), and the member
/// functions defined out of the class (`template <class T> T Buffer<T>::at(int i) { ... }`), each with its
/// own parameters (their names may differ from the class's).
#[derive(Clone, Debug)]
pub struct ClassTemplate {
    pub params: Vec<TemplateParam>,
    pub tokens: Vec<Token>,
    pub members: Vec<(Vec<TemplateParam>, Vec<Token>)>,
}

/// `name<a, b>`: the name an instantiation has everywhere (IR, screen, `@kernel`).
pub fn instance_name(base: &str, args: &[Vec<Token>]) -> String {
    let args: Vec<String> =
        args.iter().map(|a| a.iter().map(|t| spell(&t.kind)).collect::<Vec<_>>().join(" ")).collect();
    format!("{base}<{}>", args.join(", "))
}

/// A token's text, rebuilt from its kind.
pub fn spell(k: &TokKind) -> String {
    match k {
        TokKind::Ident(n) => n.clone(),
        TokKind::Kw(k) => k.as_str().to_string(),
        TokKind::Punct(p) => p.as_str().to_string(),
        TokKind::Int { value, suffix, .. } => {
            format!("{value}{}{}", if suffix.unsigned { "u" } else { "" }, if suffix.long { "ll" } else { "" })
        }
        TokKind::Float { value, single } => format!("{value:?}{}", if *single { "f" } else { "" }),
        TokKind::Str(s) => format!("{s:?}"),
        TokKind::Char(c) => c.to_string(),
        TokKind::Eof => String::new(),
    }
}

/// Standard library templates whose arguments may hold another's (`split_args` matches their brackets).
const NESTED_TEMPLATES: &[&str] = &["array", "vector", "pair", "tuple", "map", "unordered_map", "set", "complex"];

/// Splits `< a, b >` template arguments starting at `toks[0]` (the `<`): the arguments' tokens and the index
/// after the closing `>`. Commas and `>` inside parentheses belong to an argument.
pub fn split_args(toks: &[Token]) -> Option<(Vec<Vec<Token>>, usize)> {
    if toks.first()?.kind != TokKind::Punct(Punct::Lt) {
        return None;
    }
    let mut args = vec![vec![]];
    let mut depth = 0i32;
    // `<` `>` of a standard library template inside the arguments (`array<array<int, 3>, 2>`,
    // `vector<vector<int>>`); any other `<` is a comparison (`reduce<(N < 4)>`).
    let mut angles = 0i32;
    for (i, t) in toks.iter().enumerate().skip(1) {
        match t.kind {
            TokKind::Punct(Punct::LParen | Punct::LBracket) => depth += 1,
            TokKind::Punct(Punct::RParen | Punct::RBracket) => depth -= 1,
            TokKind::Punct(Punct::Lt) if matches!(&toks[i - 1].kind, TokKind::Ident(n) if NESTED_TEMPLATES.contains(&n.as_str())) => {
                angles += 1
            }
            TokKind::Punct(Punct::Gt) if angles > 0 => angles -= 1,
            // `>>` closing two: the inner's and (with one open) the list's own.
            TokKind::Punct(Punct::Shr) if angles > 0 && depth == 0 => {
                angles -= 1;
                if angles == 0 {
                    args.last_mut()?.push(Token { kind: TokKind::Punct(Punct::Gt), span: t.span });
                    return Some((args, i + 1));
                }
                angles -= 1;
            }
            TokKind::Punct(Punct::Gt) if depth == 0 => {
                if args.len() == 1 && args[0].is_empty() {
                    args.clear();
                }
                return Some((args, i + 1));
            }
            TokKind::Punct(Punct::Comma) if depth == 0 => {
                args.push(vec![]);
                continue;
            }
            TokKind::Punct(Punct::Semi | Punct::LBrace | Punct::RBrace) | TokKind::Eof => return None,
            _ => {}
        }
        args.last_mut()?.push(t.clone());
    }
    None
}

/// The template and arguments of an instance name (`reduce<512>` -> `reduce`, `[512]`), as a directive or
/// `--kernel` wrote it.
pub fn parse_instance_name(name: &str) -> Option<(String, Vec<Vec<Token>>)> {
    let lt = name.find('<')?;
    let lexed = super::lexer::lex(super::source::FileId(0), &name[lt..], 0);
    let (args, _) = split_args(&lexed.tokens)?;
    Some((name[..lt].to_string(), fold_args(args, &HashMap::new())))
}

/// A deduced type as a program writes it: `<thread>`'s and `<mutex>`'s classes with their namespace, which
/// the parser reads them by.
fn type_text(t: &Type) -> String {
    let text = t.to_string();
    match text.split_whitespace().next() {
        Some("thread" | "mutex" | "condition_variable") => format!("std::{text}"),
        _ => text,
    }
}

/// A deduced type argument's tokens: a class template's instance (`Add<float>`) is one name, as the parser
/// made it (so the instance is not looked up again from its pieces); any other type as its text.
fn deduced_tokens(t: &Type) -> Vec<Token> {
    match t {
        // (The standard library's `array<float, 3>` and `pair<int, float>` are read from their text, as written.)
        Type::Struct(s) if s.name.contains('<') && !matches!(s.name.split('<').next(), Some("array" | "pair")) => {
            vec![Token { kind: TokKind::Ident(s.name.clone()), span: Span::default() }]
        }
        _ => type_tokens(&type_text(t)),
    }
}

/// The tokens of a type written as text (`unsigned int`), for a deduced template argument.
pub fn type_tokens(text: &str) -> Vec<Token> {
    let mut toks = super::lexer::lex(super::source::FileId(0), text, 0).tokens;
    toks.pop(); // Eof
    toks
}

/// The value of a constant expression (`2 * THREADS`, with `constants` declared so far), if it is one.
pub fn fold_constant(toks: &[Token], constants: &HashMap<String, i128>) -> Option<i128> {
    let mut folder = Fold { toks, pos: 0, constants };
    folder.expr(0).filter(|_| folder.pos == toks.len())
}

/// Template arguments with each constant expression folded to its value (`((unsigned int)(512)) / 2` ->
/// `256`), so that `warpReduce<blockSize>` inside the instance `reduce<512>` names the same instance as
/// `warpReduce<512>` written out. Arguments that are no constant (types, names) stay as written.
pub fn fold_args(args: Vec<Vec<Token>>, constants: &HashMap<String, i128>) -> Vec<Vec<Token>> {
    args.into_iter()
        .map(|a| {
            let named = matches!(a.as_slice(), [Token { kind: TokKind::Ident(n), .. }] if constants.contains_key(n));
            if a.len() < 2 && !named {
                return a;
            }
            let mut folder = Fold { toks: &a, pos: 0, constants };
            match folder.expr(0) {
                Some(v) if folder.pos == a.len() => constant_tokens(v, a[0].span),
                _ => a,
            }
        })
        .collect()
}

fn constant_tokens(v: i128, span: Span) -> Vec<Token> {
    let int = TokKind::Int { value: v.unsigned_abs() as u64, suffix: Default::default(), decimal: true };
    let mut out = vec![];
    if v < 0 {
        out.push(Token { kind: TokKind::Punct(Punct::Minus), span });
    }
    out.push(Token { kind: int, span });
    out
}

/// A constant expression of integer literals, casts to integer types, parentheses and C's operators.
struct Fold<'a> {
    toks: &'a [Token],
    pos: usize,
    /// Integer constants in scope (`const int THREADS = 256;`).
    constants: &'a HashMap<String, i128>,
}

impl Fold<'_> {
    fn kind(&self) -> Option<&TokKind> {
        self.toks.get(self.pos).map(|t| &t.kind)
    }

    /// Precedence climbing: `min` is the weakest binding power accepted.
    fn expr(&mut self, min: u8) -> Option<i128> {
        let mut left = self.unary()?;
        loop {
            let Some(TokKind::Punct(p)) = self.kind() else { return Some(left) };
            let p = *p;
            let power = match p {
                Punct::Star | Punct::Slash | Punct::Percent => 10,
                Punct::Plus | Punct::Minus => 9,
                Punct::Shl | Punct::Shr => 8,
                Punct::Lt | Punct::Gt | Punct::Le | Punct::Ge => 7,
                Punct::EqEq | Punct::Ne => 6,
                Punct::Amp => 5,
                Punct::Caret => 4,
                Punct::Pipe => 3,
                Punct::AndAnd => 2,
                Punct::OrOr => 1,
                _ => return Some(left),
            };
            if power < min {
                return Some(left);
            }
            self.pos += 1;
            let right = self.expr(power + 1)?;
            left = match p {
                Punct::Star => left.checked_mul(right)?,
                Punct::Slash => left.checked_div(right)?,
                Punct::Percent => left.checked_rem(right)?,
                Punct::Plus => left + right,
                Punct::Minus => left - right,
                Punct::Shl => left.checked_shl(u32::try_from(right).ok()?)?,
                Punct::Shr => left.checked_shr(u32::try_from(right).ok()?)?,
                Punct::Lt => (left < right) as i128,
                Punct::Gt => (left > right) as i128,
                Punct::Le => (left <= right) as i128,
                Punct::Ge => (left >= right) as i128,
                Punct::EqEq => (left == right) as i128,
                Punct::Ne => (left != right) as i128,
                Punct::Amp => left & right,
                Punct::Caret => left ^ right,
                Punct::Pipe => left | right,
                Punct::AndAnd => (left != 0 && right != 0) as i128,
                _ => (left != 0 || right != 0) as i128,
            };
        }
    }

    fn unary(&mut self) -> Option<i128> {
        let k = self.kind()?.clone();
        self.pos += 1;
        match k {
            TokKind::Int { value, .. } => Some(value as i128),
            TokKind::Ident(n) => self.constants.get(&n).copied(),
            TokKind::Kw(super::token::Kw::True) => Some(1),
            TokKind::Kw(super::token::Kw::False) => Some(0),
            TokKind::Punct(Punct::Minus) => Some(-self.unary()?),
            TokKind::Punct(Punct::Plus) => self.unary(),
            TokKind::Punct(Punct::Bang) => Some((self.unary()? == 0) as i128),
            TokKind::Punct(Punct::Tilde) => Some(!self.unary()?),
            // `(unsigned int)(512)`: a cast to an integer type keeps the value (arguments are small).
            TokKind::Punct(Punct::LParen) if self.kind().is_some_and(integer_type_word) => {
                let bool_cast = self.kind() == Some(&TokKind::Kw(super::token::Kw::Bool));
                while self.kind().is_some_and(integer_type_word) {
                    self.pos += 1;
                }
                (self.kind()? == &TokKind::Punct(Punct::RParen)).then_some(())?;
                self.pos += 1;
                let v = self.unary()?;
                Some(if bool_cast { (v != 0) as i128 } else { v })
            }
            TokKind::Punct(Punct::LParen) => {
                let v = self.expr(0)?;
                (self.kind()? == &TokKind::Punct(Punct::RParen)).then_some(())?;
                self.pos += 1;
                Some(v)
            }
            _ => None,
        }
    }
}

/// A word of an integer type's name (`unsigned`, `int`, `size_t`): what a non-type parameter's cast is made of.
fn integer_type_word(k: &TokKind) -> bool {
    use super::token::Kw;
    match k {
        TokKind::Kw(k) => k.starts_type() && !matches!(k, Kw::Float | Kw::Double),
        TokKind::Ident(n) => matches!(n.as_str(), "size_t" | "uint32_t" | "int32_t" | "uint64_t" | "int64_t" | "uint"),
        _ => false,
    }
}
