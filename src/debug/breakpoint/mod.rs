//! Breakpoints on SIMT events, beyond plain line breakpoints: divergence, reconvergence, a barrier arrival
//! mismatch, a mask condition (`active < 16`), a watched array element being written, and line breakpoints
//! with a condition on the thread's values (`line 28 if tid == 5 && sum > 3`).
//!
//! Specs are parsed against the compiled kernel (its lines, variables and `@arg` arrays) and get diagnostics
//! like kernels: `breakpoint:1:COL`, the spec, a caret and a clear message. UI-free: [`crate::debug::session::Session`]
//! checks them in `cont`, one instruction at a time, before it issues ([`before_issue`]) and after
//! ([`after_issue`]); the checks read the machine, not the session, so the session builds on this module and
//! not the other way round.
//!
//! The language (`spec`: kinds and conditions; `lexer`; `parser`, against the compiled kernel) and the
//! runtime check (`check`) are separate modules; this one re-exports what callers use.
//!
//! Grammar (one spec):
//!
//! ```text
//! spec   := "line" INT ["if" expr] | "divergence" | "reconvergence" | "barrier-mismatch"
//!         | "write" NAME "[" INT "]" | expr                 (a mask condition: active, warp, block)
//! expr   := or;  or := and ("||" and)*;  and := eq ("&&" eq)*;  eq := rel (("==" | "!=") rel)*
//! rel    := add (("<" | "<=" | ">" | ">=") add)*;  add := mul (("+" | "-") mul)*
//! mul    := unary (("*" | "/" | "%") unary)*;  unary := ("!" | "-") unary | INT | NAME | "(" expr ")"
//! ```

mod check;
mod lexer;
mod parser;
mod spec;

pub use check::{
    Hit, Pending, after_issue, arrival_holds, before_issue, branch_diverges, conditional_line, last_issued, line_hit,
};
pub use parser::variable;
pub use spec::{BinOp, Breakpoint, Env, Expr, Kind, SPEC_FILE, SpecError, Var};
