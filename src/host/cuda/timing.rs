//! Virtual time, and what reads it: events, streams, `clock`, `time`, `gettimeofday`. Time is a count of
//! nanoseconds that host work and the device's work advance by a documented cost model (docs/programs.md):
//! the same program prints the same timings on every run.
//!
//! The device has one queue of work. A launch or an asynchronous copy starts when both the host has asked
//! for it and the work before it has finished, and the host goes on at once; a synchronising call (or a
//! blocking copy) waits for the queue to drain. Streams are the one queue (every stream's work runs in
//! program order, one of the orders the hardware may choose).

use super::*;
use crate::host::interp::{Interp, Unwind};

/// Host time per host step (a loop iteration or a function call of the host program).
pub const HOST_STEP_NS: u64 = 2;
/// Host time each runtime call costs.
pub const CALL_NS: u64 = 500;
/// Host time of `cudaMalloc`, `cudaFree` and the like.
pub const ALLOC_NS: u64 = 5_000;
/// Host time of a kernel launch (the call itself; the kernel's time is the device's).
pub const LAUNCH_NS: u64 = 3_000;
/// What `cudaDriverGetVersion` and `cudaRuntimeGetVersion` report (12.0).
pub const CUDA_VERSION: u64 = 12000;
/// `time()` at the start of every run (2023-11-14 22:13:20 UTC).
pub const EPOCH_S: u64 = 1_700_000_000;

/// The duration of a copy of `bytes` between host and device (`pinned`: from page-locked memory) or
/// within the device.
pub fn copy_ns(bytes: u64, host_side: bool, pinned: bool) -> u64 {
    match (host_side, pinned) {
        // 12 GB/s from pageable memory, 24 GB/s from pinned memory, after 8 us of setup.
        (true, false) => 8_000 + bytes / 12,
        (true, true) => 8_000 + bytes / 24,
        // Read and written at 1 TB/s.
        (false, _) => 2_000 + bytes / 500,
    }
}

/// The virtual clock.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// Host time beyond the host steps: runtime calls, and waiting for the device.
    pub host_ns: u64,
    /// When the device's queue of work drains.
    pub gpu_free: u64,
}

/// An event.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Event {
    /// When the work before its `cudaEventRecord` finished; None until recorded.
    at: Option<u64>,
    timing: bool,
}

const EVENT_BASE: u64 = 0x0e00_0000;
const STREAM_BASE: u64 = 0x05e0_0000;

impl Interp<'_> {
    /// Now, in virtual nanoseconds since the program started.
    pub fn now_ns(&self) -> u64 {
        self.steps.saturating_mul(HOST_STEP_NS) + self.rt.clock.host_ns
    }

    /// Queues `ns` of device work; when it finishes.
    pub(super) fn enqueue(&mut self, ns: u64) -> u64 {
        let start = self.now_ns().max(self.rt.clock.gpu_free);
        self.rt.clock.gpu_free = start + ns;
        self.rt.clock.gpu_free
    }

    /// The host waits until virtual time `t`.
    fn wait_until(&mut self, t: u64) {
        let now = self.now_ns();
        if t > now {
            self.rt.clock.host_ns += t - now;
        }
    }

    /// The host waits for the device's queue to drain.
    pub(super) fn wait_gpu(&mut self) {
        self.wait_until(self.rt.clock.gpu_free);
    }

    fn event(&self, handle: u64) -> Option<usize> {
        let i = handle.checked_sub(EVENT_BASE)? as usize;
        matches!(self.rt.events.get(i), Some(Some(_))).then_some(i)
    }

    pub(super) fn stream_ok(&self, handle: u64) -> bool {
        handle <= 2
            || handle
                .checked_sub(STREAM_BASE)
                .is_some_and(|i| self.rt.streams.get(i as usize).copied().unwrap_or(false))
    }

    pub(super) fn timing(&mut self, api: Api, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        Ok(match api {
            Api::EventCreate => {
                self.rt.events.push(Some(Event { at: None, timing: v[1] & 2 == 0 }));
                let handle = EVENT_BASE + self.rt.events.len() as u64 - 1;
                self.out_param(v[0], 8, handle, e)?;
                self.status(SUCCESS)
            }
            Api::EventRecord => {
                let Some(i) = self.event(v[0]).filter(|_| self.stream_ok(v[1])) else {
                    return Ok(self.status(INVALID_RESOURCE_HANDLE));
                };
                let at = self.now_ns().max(self.rt.clock.gpu_free);
                if let Some(Some(ev)) = self.rt.events.get_mut(i) {
                    ev.at = Some(at);
                }
                self.status(SUCCESS)
            }
            Api::EventSynchronize | Api::EventQuery => {
                let Some(i) = self.event(v[0]) else { return Ok(self.status(INVALID_RESOURCE_HANDLE)) };
                let at = self.rt.events[i].and_then(|ev| ev.at).unwrap_or(0);
                if api == Api::EventQuery {
                    return Ok(self.status(if at > self.now_ns() { NOT_READY } else { SUCCESS }));
                }
                self.wait_until(at);
                self.flush_printf();
                self.status(SUCCESS)
            }
            Api::EventElapsedTime => {
                let (Some(a), Some(b)) = (self.event(v[1]), self.event(v[2])) else {
                    return Ok(self.status(INVALID_RESOURCE_HANDLE));
                };
                let (Some(ea), Some(eb)) = (self.rt.events[a], self.rt.events[b]) else { return Ok(0) };
                let (Some(ta), Some(tb)) = (ea.at, eb.at) else { return Ok(self.status(INVALID_RESOURCE_HANDLE)) };
                if !ea.timing || !eb.timing {
                    return Ok(self.status(INVALID_RESOURCE_HANDLE));
                }
                if ta.max(tb) > self.now_ns() {
                    return Ok(self.status(NOT_READY));
                }
                let ms = (tb as f64 - ta as f64) / 1e6;
                self.out_param(v[0], 4, (ms as f32).to_bits() as u64, e)?;
                self.status(SUCCESS)
            }
            Api::EventDestroy => {
                let Some(i) = self.event(v[0]) else { return Ok(self.status(INVALID_RESOURCE_HANDLE)) };
                self.rt.events[i] = None;
                self.status(SUCCESS)
            }
            Api::StreamCreate => {
                self.rt.streams.push(true);
                let handle = STREAM_BASE + self.rt.streams.len() as u64 - 1;
                self.out_param(v[0], 8, handle, e)?;
                self.status(SUCCESS)
            }
            Api::StreamSynchronize | Api::StreamQuery => {
                if !self.stream_ok(v[0]) {
                    return Ok(self.status(INVALID_RESOURCE_HANDLE));
                }
                if api == Api::StreamQuery {
                    return Ok(self.status(if self.rt.clock.gpu_free > self.now_ns() { NOT_READY } else { SUCCESS }));
                }
                self.wait_gpu();
                self.flush_printf();
                self.status(SUCCESS)
            }
            Api::StreamDestroy => {
                let i = v[0].wrapping_sub(STREAM_BASE) as usize;
                match self.rt.streams.get_mut(i) {
                    Some(alive) if *alive => {
                        *alive = false;
                        self.status(SUCCESS)
                    }
                    _ => self.status(INVALID_RESOURCE_HANDLE),
                }
            }
            Api::Clock => self.now_ns() / 1000,
            Api::Time => {
                let t = EPOCH_S + self.now_ns() / 1_000_000_000;
                if v[0] != 0 {
                    self.out_param(v[0], 8, t, e)?;
                }
                t
            }
            Api::ChronoNow => self.now_ns(),
            Api::ClockGetTime => {
                let now = self.now_ns();
                self.out_param(v[1], 8, EPOCH_S + now / 1_000_000_000, e)?;
                self.out_param(v[1].wrapping_add(8), 8, now % 1_000_000_000, e)?;
                0
            }
            Api::GetTimeOfDay => {
                let now = self.now_ns();
                self.out_param(v[0], 8, EPOCH_S + now / 1_000_000_000, e)?;
                self.out_param(v[0].wrapping_add(8), 8, (now / 1000) % 1_000_000, e)?;
                0
            }
            _ => self.status(SUCCESS),
        })
    }
}
