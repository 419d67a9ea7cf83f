//! Launch directives (`// @grid`, `@block`, `@arg`, `@kernel`, `@seed`, `@mode`) and their command-line
//! overrides, parsed with the kernel language's own expression parser and resolved against the kernel's
//! parameters into a [`Launch`].
//!
//! Extensions beyond interface.md: grid, block and array lengths may name scalar `@arg`s (`@grid (n + 63) / 64`,
//! `int[n]`), so `--arg n=...` resizes the whole launch; values may be separated by spaces or commas.
//!
//! `parse` reads the lines, `resolve` matches them with the kernel's parameters, `init` lowers element
//! initialisers, `elements` works out struct and typedef element types.

mod elements;
mod init;
mod parse;
mod resolve;

pub use elements::resolve_typedef_elements;
pub use parse::{parse_body, parse_line};
pub use resolve::resolve;
// What the parts share with one another.
use elements::*;
use init::*;

use std::collections::HashMap;

use super::ast::{self, BinaryOp, ExprKind as A, UnaryOp};
use super::diagnostic::{Diagnostic, ErrorCode};
use super::lexer::{self, DirectiveLine};
use super::parser::Parser;
use super::source::{FileId, SourceMap, Span};
use super::tast::Program;
use super::token::{Kw, Punct, TokKind, Token};
use super::types::{Scalar, Type};
use crate::front::launch::{ArgValue, Dim3, InitExpr, InitOp, Launch, LaunchArg, Mode, Overrides, Value};

#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    Scalar(ast::Expr),
    /// `strukt` names a struct or vector element type (`naiveStruct[n]`, `float4[n]`); `elem` is then its fields'.
    Array {
        elem: Scalar,
        elem_span: Span,
        len: ast::Expr,
        init: Option<ast::Expr>,
        strukt: Option<String>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum DirectiveKind {
    Kernel(ast::Ident),
    Grid(Vec<ast::Expr>),
    Block(Vec<ast::Expr>),
    Arg {
        name: ast::Ident,
        spec: ArgSpec,
    },
    Seed(ast::Expr),
    Mode(Mode),
    /// `@shared BYTES`: dynamic shared memory per block.
    Shared(ast::Expr),
    /// `@symbol NAME = INIT`: the contents of a `__constant__` or `__device__` variable for the launch (what
    /// `cudaMemcpyToSymbol` sets in a whole program), replacing its initialiser.
    Symbol {
        name: ast::Ident,
        init: ast::Expr,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// The whole directive (for "first given here" notes).
    pub span: Span,
}

const KNOWN: &str = "@kernel, @grid, @block, @arg, @seed, @mode, @shared, @symbol";

/// The most dynamic shared memory a block may ask for: an H100's 227 KiB.
const MAX_DYNAMIC_SHARED: i64 = 227 * 1024;

/// The execution model a file's `// @mode` line asks for, read before the file is preprocessed (its
/// `__CUDA_ARCH__` depends on it); the full check of the line happens with the other directives.
pub fn mode_of(lines: &[DirectiveLine]) -> Option<Mode> {
    lines.iter().rev().find_map(|l| l.text.strip_prefix("@mode").and_then(Mode::parse))
}
