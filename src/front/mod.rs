//! The language front end: kernel text -> tokens -> parse tree -> typed tree, plus the launch directives.
//! [`check_file`] runs every phase of a kernel file; `crate::compile`, the driver above this layer and the IR,
//! lowers the launched kernel.
//!
//! The phases are the child modules; this module only names them and re-exports the entry points the layers
//! above call ([`check_file`], [`Checked`], [`CompileError`], [`with_stack`]), so no child depends on it.

pub mod ast;
pub mod builtin_types;
mod check;
pub mod cmath;
pub mod companions;
pub mod curand;
pub mod diagnostic;
pub mod directives;
pub mod half;
mod kernel_file;
pub mod launch;
pub mod lexer;
pub mod parser;
pub mod preprocess;
pub mod program;
pub mod runtime_structs;
pub mod source;
mod stack;
pub mod std_array;
pub mod std_types;
pub mod tast;
pub mod template;
pub mod texture_fetch;
pub mod token;
pub mod typeck;
pub mod types;

pub use diagnostic::CompileError;
pub use kernel_file::{Checked, check_file};
pub use stack::with_stack;
