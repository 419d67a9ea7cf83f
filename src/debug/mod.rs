//! The debugging layer over the simulated SM: a [`session`] steps one launch with [`breakpoint`]s and
//! [`history`] (time travel); [`program`] debugs a whole program, one launch's session at a time; [`compare`]
//! runs both execution models side by side; [`quiz`] asks questions at divergence points; [`checksum`]
//! fingerprints a machine's state (recordings store it); [`focus`] names the thread a stop is about (the TUI
//! selects it; expressions are evaluated there: `crate::sim::expr`). UI-free: the TUI, the headless commands, replay and
//! the web page all drive these.

pub mod breakpoint;
pub mod checksum;
pub mod compare;
pub mod focus;
pub mod history;
pub mod program;
pub mod quiz;
pub mod session;
