//! The runtime's calls at run time: each [`Api`] call dispatched (copies to [`super::memory`], events,
//! streams and clocks to [`super::timing`]), and what every call shares: the sticky error of a broken
//! context, device `printf` output reaching stdout, findings, leaks at the end.

use super::*;
use crate::host::interp::{Interp, Unwind};

impl Interp<'_> {
    /// A runtime call's result: the sticky error of a broken context wins; other errors are remembered
    /// for `cudaGetLastError`.
    pub(super) fn status(&mut self, code: u32) -> u64 {
        let code = if self.rt.sticky != 0 { self.rt.sticky } else { code };
        if code != 0 && code != NOT_READY {
            self.rt.last_error = code;
            self.rt.origin = None;
        }
        code as u64
    }

    /// A kernel fault the program has not met yet becomes the context's sticky error.
    pub(super) fn settle(&mut self) {
        if let Some(code) = self.rt.pending.take() {
            self.rt.sticky = code;
            self.rt.last_error = code;
            self.rt.origin = None;
        }
    }

    /// Device `printf` output reaches stdout (at a synchronisation, a blocking copy or a launch).
    pub(super) fn flush_printf(&mut self) {
        if !self.rt.pending_printf.is_empty() {
            let text = std::mem::take(&mut self.rt.pending_printf);
            self.write(false, &text);
        }
    }

    pub(super) fn finding(&mut self, kind: FindingKind, line: u32, message: String) {
        let after_launches = self.rt.launches;
        self.rt.findings.push(Finding { kind, line, message, after_launches });
    }

    /// Stores `bits` of `size` bytes where a runtime call's output pointer points.
    pub(super) fn out_param(&mut self, addr: u64, size: u32, bits: u64, e: &Expr) -> Result<(), Unwind> {
        self.mem.store(addr, size, bits).map_err(|f| self.fault(f, addr, true, None, e.span))
    }

    /// Runs a runtime call with its evaluated arguments.
    pub(in crate::host) fn runtime(&mut self, api: Api, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        let line = self.line(e.span);
        if matches!(api, Api::Clock | Api::Time | Api::GetTimeOfDay | Api::ClockGetTime | Api::ChronoNow) {
            return self.timing(api, v, e);
        }
        if !matches!(api, Api::GetLastError | Api::PeekAtLastError | Api::GetErrorString | Api::GetErrorName) {
            self.settle();
        }
        self.rt.clock.host_ns += timing::CALL_NS;
        if let Some(code) = self.captured(api, v) {
            return Ok(code);
        }
        let broken = self.rt.sticky != 0;
        Ok(match api {
            Api::GetLastError => {
                if let Some(o) = self.rt.origin.take() {
                    self.rt.refused[o].checked = true;
                }
                // Reading the error resets it, a sticky one too (measured on an H100, CUDA 13: the next
                // cudaGetLastError is cudaSuccess, while other calls still fail with the sticky error).
                let code = self.rt.last_error;
                self.rt.last_error = 0;
                code as u64
            }
            Api::PeekAtLastError => {
                if let Some(o) = self.rt.origin {
                    self.rt.refused[o].checked = true;
                }
                self.rt.last_error as u64
            }
            Api::GetErrorString | Api::GetErrorName => self.error_string(v[0] as u32, api == Api::GetErrorName),
            Api::DeviceReset => {
                // Destroys the context, a broken one too: the program starts again with a fresh device.
                self.wait_gpu();
                self.flush_printf();
                self.collect_leaks();
                self.dev.reset();
                self.rt.mirrors.clear();
                self.rt.textures = Default::default();
                self.rt.failed_frees.clear();
                self.rt.fault = None;
                self.rt.sticky = 0;
                self.rt.last_error = 0;
                self.rt.origin = None;
                SUCCESS as u64
            }
            _ if broken => {
                if api == Api::Free {
                    self.rt.failed_frees.push((v[0], line, self.rt.sticky));
                }
                self.status(0)
            }
            Api::Malloc
            | Api::MallocAsync
            | Api::MallocManaged
            | Api::MallocHost
            | Api::FreeHost
            | Api::HostGetDevicePointer
            | Api::Free => self.allocation(api, v, line, e)?,
            Api::Memcpy | Api::MemcpyAsync => {
                let code = self.memcpy(v[0], v[1], v[2], v[3] as u32, api == Api::Memcpy, "cudaMemcpy", e)?;
                self.status(code)
            }
            Api::Memset | Api::MemsetAsync => {
                let code = self.memset(v[0], v[1] as u8, v[2], line);
                self.status(code)
            }
            Api::MemcpyToSymbol | Api::MemcpyFromSymbol | Api::GetSymbolAddress => {
                let code = self.symbol_copy(api, v, e)?;
                self.status(code)
            }
            Api::MemGetInfo => {
                let gpu = self.dev.gpu();
                let used: u64 = self.dev.live().iter().map(|a| a.size).sum();
                self.out_param(v[0], 8, gpu.total_mem.saturating_sub(used), e)?;
                self.out_param(v[1], 8, gpu.total_mem, e)?;
                self.status(SUCCESS)
            }
            Api::DeviceSynchronize => {
                self.wait_gpu();
                self.flush_printf();
                self.status(SUCCESS)
            }
            Api::SetDevice => self.status(if v[0] == 0 { SUCCESS } else { INVALID_DEVICE }),
            Api::GetDevice | Api::GetCacheConfig => {
                self.out_param(v[0], 4, 0, e)?;
                self.status(SUCCESS)
            }
            Api::GetStreamPriorityRange => {
                for (at, value) in [(v[0], 0u64), (v[1], -5i32 as u32 as u64)] {
                    if at != 0 {
                        self.out_param(at, 4, value, e)?;
                    }
                }
                self.status(SUCCESS)
            }
            Api::GetSharedMemConfig => {
                self.out_param(v[0], 4, 1, e)?;
                self.status(SUCCESS)
            }
            Api::GetDeviceCount => {
                self.out_param(v[0], 4, 1, e)?;
                self.status(SUCCESS)
            }
            Api::GetDeviceProperties => {
                if v[1] != 0 {
                    return Ok(self.status(INVALID_DEVICE));
                }
                let bytes = self.dev.gpu().prop_bytes();
                self.write_bytes(v[0], Some(&bytes), bytes.len() as u64, 0, e.span)?;
                self.status(SUCCESS)
            }
            Api::DeviceGetAttribute => {
                if v[2] != 0 {
                    return Ok(self.status(INVALID_DEVICE));
                }
                match self.dev.gpu().attribute(v[1] as u32) {
                    Some(x) => {
                        self.out_param(v[0], 4, x as u64 & 0xffff_ffff, e)?;
                        self.status(SUCCESS)
                    }
                    None => self.status(INVALID_VALUE),
                }
            }
            Api::DriverGetVersion | Api::RuntimeGetVersion => {
                self.out_param(v[0], 4, timing::CUDA_VERSION, e)?;
                self.status(SUCCESS)
            }
            Api::Accepted => self.status(SUCCESS),
            Api::OccupancyBlockSize | Api::OccupancyActiveBlocks | Api::FuncGetAttributes => {
                self.occupancy_call(api, v, e)?
            }
            Api::PointerGetAttributes => self.pointer_attributes(v, e)?,
            Api::Malloc3D | Api::Memcpy3D => self.pitched(api, v, line, e)?,
            Api::MallocPitch | Api::Memcpy2D | Api::Memcpy2DAsync | Api::Memset2D => {
                self.pitched_2d(api, v, line, e)?
            }
            Api::MallocArray
            | Api::FreeArray
            | Api::Memcpy2DToArray
            | Api::MemcpyToArray
            | Api::Memcpy2DFromArray
            | Api::CreateTextureObject
            | Api::DestroyTextureObject => self.texture_call(api, v, line, e)?,
            Api::StreamBeginCapture
            | Api::StreamEndCapture
            | Api::StreamIsCapturing
            | Api::GraphCreate
            | Api::GraphInstantiate
            | Api::GraphLaunch
            | Api::GraphExecDestroy
            | Api::GraphDestroy
            | Api::GraphGetNodes => self.graph_call(api, v, e)?,
            _ => self.timing(api, v, e)?,
        })
    }

    fn error_string(&mut self, code: u32, name: bool) -> u64 {
        if let Some(&(_, _, at)) = self.rt.error_strings.iter().find(|(c, n, _)| *c == code && *n == name) {
            return at;
        }
        let (n, s) = error_text(code);
        let text = if name { n } else { s };
        let at = self.mem.alloc(text.len() as u64 + 1, AllocKind::Literal, "an error string", 0);
        if let Ok(b) = self.mem.bytes(at, text.len() as u64) {
            b.copy_from_slice(text.as_bytes());
        }
        self.rt.error_strings.push((code, name, at));
        at
    }

    /// Device memory still allocated becomes leaks (at `cudaDeviceReset` and at the end), except memory the
    /// program did call `cudaFree` on, which failed because a kernel fault had broken the context: one note
    /// says so instead.
    fn collect_leaks(&mut self) {
        let mut failed = vec![];
        for a in self.dev.live() {
            if self.rt.textures.owns(a.base) {
                continue;
            }
            let mirror = self.rt.mirrors.iter().find(|m| m.addr == a.base);
            if mirror.is_some_and(|m| !m.managed) {
                continue;
            }
            if let Some(&(_, line, code)) = self.rt.failed_frees.iter().find(|f| f.0 == a.base) {
                failed.push(FailedFree { name: a.name, line, code });
                continue;
            }
            let api = if mirror.is_some() { "cudaMallocManaged" } else { "cudaMalloc" };
            self.rt.leaks.push(Leak { name: a.name, bytes: a.size, line: a.line, address: a.base, api });
        }
        if let Some(f) = self.rt.fault.as_ref().filter(|_| !failed.is_empty()) {
            let message = FailedFree::message(&failed, &f.kernel, f.line, f.launch);
            let (line, after_launches) = (failed[0].line, self.rt.launches);
            self.rt.findings.push(Finding { kind: FindingKind::FreeAfterFault, line, message, after_launches });
        }
    }

    /// The end of the program (main returned or `exit`): launches whose error nobody read, device
    /// `printf` output never flushed, device memory never freed.
    pub fn finish(&mut self) {
        for r in std::mem::take(&mut self.rt.refused) {
            if r.checked {
                continue;
            }
            let (name, text) = error_text(r.code);
            let message = format!(
                "the launch {} at line {} never ran: {}, so it failed with {name} (\"{text}\"), and the program \
                 never called cudaGetLastError() to find out. Fix the configuration, and check every launch: \
                 call cudaGetLastError() right after it",
                r.launch, r.line, r.reason
            );
            let after_launches = self.rt.launches;
            self.rt.findings.push(Finding {
                kind: FindingKind::UncheckedLaunch,
                line: r.line,
                message,
                after_launches,
            });
        }
        if !self.rt.pending_printf.is_empty() {
            let n = self.rt.pending_printf.iter().filter(|&&b| b == b'\n').count();
            let message = format!(
                "{n} line{} of device printf output never appeared: the program ended without \
                 cudaDeviceSynchronize() (or another synchronising call) after its last launch, and a GPU does \
                 not flush device printf at exit. Call cudaDeviceSynchronize() after the launch",
                if n == 1 { "" } else { "s" }
            );
            self.rt.pending_printf.clear();
            let after_launches = self.rt.launches;
            self.rt.findings.push(Finding { kind: FindingKind::UnflushedPrintf, line: 0, message, after_launches });
        }
        self.collect_leaks();
    }
}
