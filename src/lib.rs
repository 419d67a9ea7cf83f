//! warpdbg: a debugger that makes SIMT execution visible.
//!
//! The core is UI-free and flows one way: [`front`] (kernel text -> typed tree) -> [`ir`] (control-flow graph
//! with reconvergence points) -> the simulated SM -> views. Nothing here imports a terminal library.

#![deny(clippy::unwrap_used)]

pub mod breakpoint;
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
pub mod recording;
pub mod session;
pub mod sim;
pub mod tui;
