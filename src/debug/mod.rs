//! The debugging layer over the simulated SM: a [`session`] steps one launch with breakpoints and
//! [`history`] (time travel); [`compare`] runs both execution models side by side; [`quiz`] asks questions
//! at divergence points; [`recording`] saves and replays what a user did. UI-free: the TUI, the headless
//! commands, replay and the web page all drive these.

pub mod breakpoint;
pub mod compare;
pub mod history;
pub mod quiz;
pub mod recording;
pub mod session;
