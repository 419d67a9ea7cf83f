//! The debugger's screen: a thin layer over the session. Input maps to an [`action::Action`], `update` changes
//! the [`app::App`], `view` draws it. Nothing here reaches into the simulator's internals except to read them.
//! All of it but the terminal itself (`terminal`, `export`: the `native` feature) builds for the web page too,
//! which draws the same `view` into the same ratatui `Buffer`.

pub mod action;
pub mod app;
pub mod ask;
pub mod compare;
#[cfg(feature = "native")]
pub mod export;
pub mod input;
pub mod keymap;
pub mod navigate;
pub mod program;
pub mod recording;
pub mod replay;
mod running;
pub mod scroll;
pub mod teach;
#[cfg(feature = "native")]
mod terminal;
pub mod theme;
pub mod update;
pub mod view;

#[cfg(feature = "native")]
pub use terminal::{read_event, replay, run, run_with_events};
