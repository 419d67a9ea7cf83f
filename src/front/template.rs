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

    /// The template arguments of a call whose arguments have types `arg_types`: each type parameter from the
    /// type of the argument passed where the function takes it, less the pointer levels written after it
    /// (as C++ deduces these simple forms); defaults fill the rest. Err: a parameter neither gives (its name).
    pub fn deduce_args(&self, arg_types: &[Type]) -> Result<Vec<Vec<Token>>, String> {
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
        self.params
            .iter()
            .zip(&deduced)
            .map(|(p, d)| match (d, &p.default) {
                (Some(t), _) => Ok(type_tokens(&t.to_string())),
                (None, Some(default)) => Ok(default.clone()),
                (None, None) => Err(p.name.clone()),
            })
            .collect()
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

/// Splits `< a, b >` template arguments starting at `toks[0]` (the `<`): the arguments' tokens and the index
/// after the closing `>`. Commas and `>` inside parentheses belong to an argument.
pub fn split_args(toks: &[Token]) -> Option<(Vec<Vec<Token>>, usize)> {
    if toks.first()?.kind != TokKind::Punct(Punct::Lt) {
        return None;
    }
    let mut args = vec![vec![]];
    let mut depth = 0i32;
    for (i, t) in toks.iter().enumerate().skip(1) {
        match t.kind {
            TokKind::Punct(Punct::LParen | Punct::LBracket) => depth += 1,
            TokKind::Punct(Punct::RParen | Punct::RBracket) => depth -= 1,
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
    Some((name[..lt].to_string(), args))
}

/// The tokens of a type written as text (`unsigned int`), for a deduced template argument.
pub fn type_tokens(text: &str) -> Vec<Token> {
    let mut toks = super::lexer::lex(super::source::FileId(0), text, 0).tokens;
    toks.pop(); // Eof
    toks
}
