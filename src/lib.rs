//! warpdbg: a debugger that makes SIMT execution visible.
//!
//! The core is UI-free and flows one way: [`front`] (source text -> typed tree) -> [`ir`] (control-flow graph
//! with reconvergence points) -> the simulated SM ([`sim`]) -> [`debug`] (sessions, breakpoints, time
//! travel, compare, quiz, recordings). Whole programs add [`host`] (the host-code interpreter) and
//! [`program`] (a run of many launches on one simulated device). Nothing here imports a terminal library.
//!
//! The front ends sit on top: [`cli`] and the terminal half of [`tui`] need the `native` feature (the default:
//! a terminal, files, threads); [`tui`]'s state, update and view code and [`web`] (the page's API) build
//! without it, for `wasm32-unknown-unknown` (docs/wasm.md).

#![deny(clippy::unwrap_used)]

#[cfg(feature = "native")]
pub mod cli;
pub mod compile;
pub mod debug;
pub mod front;
pub mod host;
pub mod ir;
pub mod program;
pub mod sim;
pub mod tui;
pub mod web;
