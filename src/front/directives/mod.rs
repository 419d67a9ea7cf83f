//! Launch directives (`// @grid`, `@block`, `@arg`, `@kernel`, `@seed`, `@mode`) and their command-line
//! overrides, parsed with the kernel language's own expression parser and resolved against the kernel's
//! parameters into a [`Launch`].
//!
//! Extensions beyond interface.md: grid, block and array lengths may name scalar `@arg`s (`@grid (n + 63) / 64`,
//! `int[n]`), so `--arg n=...` resizes the whole launch; values may be separated by spaces or commas.
//!
//! `syntax` is what a line says, `parse` reads the lines, `resolve` matches them with the kernel (its
//! parameters in `args`, its file's variables in `symbols`), `init` lowers initialisers and evaluates
//! constant sizes, `elements` works out struct and typedef element types.

mod args;
mod elements;
mod init;
mod parse;
mod resolve;
mod symbols;
mod syntax;

pub use elements::resolve_typedef_elements;
pub use parse::{mode_of, parse_body, parse_line};
pub use resolve::resolve;
pub use syntax::{ArgSpec, Directive, DirectiveKind};
