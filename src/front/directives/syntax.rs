//! The directives as read from their lines, before they are matched with the kernel.

use crate::front::ast;
use crate::front::launch::Mode;
use crate::front::source::Span;
use crate::front::types::Scalar;

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
