//! warpdbg: a debugger that makes SIMT execution visible.
//!
//! The core is UI-free and flows one way, each layer naming only itself and those before it:
//! [`front`] (source text -> typed tree, and the launch description) -> [`ir`] (control-flow graph with
//! reconvergence points) -> [`compile`] (the driver over both) -> the simulated SM ([`sim`]) -> [`host`] (the
//! host-code interpreter of whole programs) -> [`program`] (a run of many launches on one simulated device) ->
//! [`debug`] (sessions, breakpoints, time travel, compare, quiz). Nothing here imports a terminal library.
//!
//! The front ends sit on top: [`tui`] (the screen: its state, update and view code), [`web`] (the page's API)
//! and [`cli`]. `cli` and the terminal half of `tui` need the `native` feature (the default: a terminal,
//! files, threads); the rest builds without it, for `wasm32-unknown-unknown` (docs/wasm.md).
//!
//! `tests/architecture.rs` keeps this true (no import runs back up a layer, no import circles between files,
//! no file over 900 lines); docs/architecture.md is the map.

#![deny(clippy::unwrap_used)]

#[cfg(feature = "native")]
pub mod cli;
pub mod compile;
pub mod debug;
pub mod front;
pub mod host;
pub mod ir;
pub mod perf;
pub mod program;
pub mod sim;
pub mod tui;
pub mod web;
