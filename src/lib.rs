//! warpdbg: a debugger that makes SIMT execution visible.
//!
//! The core is UI-free and flows one way: [`front`] (kernel text -> typed tree) -> [`ir`] (control-flow graph
//! with reconvergence points) -> the simulated SM -> views. Nothing here imports a terminal library.
//!
//! The front ends sit on top: [`cli`] and [`tui`] (with [`recording`]) need the `native` feature (the
//! default: a terminal, files, threads); [`web`] serves a page from a source string. Without `native` the
//! library builds for `wasm32-unknown-unknown` (docs/wasm.md).

#![deny(clippy::unwrap_used)]

pub mod breakpoint;
#[cfg(feature = "native")]
pub mod cli;
pub mod compare;
pub mod front;
pub mod history;
pub mod host;
pub mod host_program;
pub mod ir;
pub mod launch;
pub mod program;
pub mod quiz;
#[cfg(feature = "native")]
pub mod recording;
pub mod session;
pub mod sim;
#[cfg(feature = "native")]
pub mod tui;
pub mod web;
