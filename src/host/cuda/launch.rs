//! Kernel launches from host code: the configuration, the arguments (a host pointer passed to a kernel is
//! a finding), managed and pinned memory brought level around the launch, and the launch's result: its
//! device `printf` output held until the program synchronises, its duration queued on the device, a fault
//! pending until the program's next runtime call.

use super::*;
use crate::front::source::Span;
use crate::host::interp::{Interp, Unwind};
use crate::host::{LaunchRequest, LaunchStatus};

impl Interp<'_> {
    fn dim3(&mut self, d: &Dim3Src, slots: &mut [u64], span: Span) -> Result<[u32; 3], Unwind> {
        Ok(match d {
            Dim3Src::Int(x) => [self.eval(x, slots)? as u32, 1, 1],
            Dim3Src::Parts(p) => {
                let mut out = [1u32; 3];
                for (k, x) in p.iter().enumerate().take(3) {
                    out[k] = self.eval(x, slots)? as u32;
                }
                out
            }
            Dim3Src::Mem(a) => {
                let a = self.eval(a, slots)?;
                let mut out = [1u32; 3];
                for (k, o) in out.iter_mut().enumerate() {
                    *o = self.load(a + 4 * k as u64, Scalar::U32, None, span)? as u32;
                }
                out
            }
        })
    }

    /// `kernel<<<grid, block, shared, stream>>>(args)`.
    pub(in crate::host) fn launch(&mut self, l: &LaunchExpr, slots: &mut [u64], span: Span) -> Result<(), Unwind> {
        let grid = self.dim3(&l.grid, slots, span)?;
        let block = self.dim3(&l.block, slots, span)?;
        let shared = match &l.shared {
            Some(s) => self.eval(s, slots)?,
            None => 0,
        };
        let stream = match &l.stream {
            Some(s) => self.eval(s, slots)?,
            None => 0,
        };
        // The configuration first, then the arguments last first: nvcc makes the launch a call of the
        // kernel's host stub after pushing the configuration, and g++ evaluates the call's arguments so
        // (measured: `k<<<1, 1>>>(f(9), f(10))` calls f(10) first).
        let mut args = vec![0; l.args.len()];
        for (v, (a, _)) in args.iter_mut().zip(&l.args).rev() {
            *v = self.eval(a, slots)?;
        }
        let line = self.line(span);
        self.settle();
        self.flush_printf();
        self.rt.clock.host_ns += timing::LAUNCH_NS;
        if self.rt.sticky != 0 {
            self.rt.launches += 1;
            self.rt.last_error = self.rt.sticky;
            return Ok(());
        }
        let req = LaunchRequest {
            index: self.rt.launches + 1,
            kernel: l.kernel.clone(),
            grid,
            block,
            shared: shared.min(u32::MAX as u64) as u32,
            args,
            line,
            parent: None,
            cooperative: l.cooperative,
        };
        if !self.stream_ok(stream) {
            self.rt.launches += 1;
            self.refuse(&req, INVALID_RESOURCE_HANDLE, "its stream was destroyed or never created".into());
            return Ok(());
        }
        self.check_pointer_args(l, &req);
        if self.capture_launch(&req) {
            return Ok(());
        }
        if self.dev.wants_host_vars() {
            let vars = self.host_vars(&l.scope, slots);
            self.dev.host_vars(vars);
        }
        self.submit(req)
    }

    /// Runs a launch that may run (a program's, or a graph's node): managed and pinned memory brought level
    /// around it, its output and duration queued, its fault pending.
    pub(super) fn submit(&mut self, req: LaunchRequest) -> Result<(), Unwind> {
        self.rt.launches += 1;
        let mirrors = self.reachable_mirrors(&req.kernel, &req.args);
        self.mirrors_to_device(&mirrors);
        let _ = self.out.flush();
        let status = self.dev.launch(&req);
        // Grids the kernel launched from device code took the numbers after it.
        self.rt.launches += self.dev.child_launches();
        self.mirrors_to_host(&mirrors);
        match status {
            LaunchStatus::Ran { printed, ns } => {
                self.rt.pending_printf.extend_from_slice(printed.as_bytes());
                self.enqueue(ns);
            }
            LaunchStatus::Refused { code, reason } => self.refuse(&req, code, reason),
            LaunchStatus::Faulted { printed, code, ns, line } => {
                self.rt.pending_printf.extend_from_slice(printed.as_bytes());
                self.enqueue(ns);
                self.rt.pending = Some(code);
                self.rt.fault.get_or_insert(FaultAt { kernel: req.kernel.clone(), line, launch: req.index });
            }
            LaunchStatus::Stop(code) => return Err(Unwind::Stopped(code)),
        }
        Ok(())
    }

    fn refuse(&mut self, req: &LaunchRequest, code: u32, reason: String) {
        self.rt.refused.push(Refused { line: req.line, launch: req.config(), reason, code, checked: false });
        self.rt.last_error = code;
        self.rt.origin = Some(self.rt.refused.len() - 1);
    }

    /// A kernel argument that points to host memory (not pinned or managed) is a finding: the kernel cannot
    /// reach it.
    fn check_pointer_args(&mut self, l: &LaunchExpr, req: &LaunchRequest) {
        for (k, ((a, _), &bits)) in l.args.iter().zip(&req.args).enumerate() {
            if a.ty.pointee().is_none() || bits == 0 {
                continue;
            }
            if self.rt.mirrors.iter().any(|m| bits >= m.addr && bits < m.addr + m.size.max(1)) {
                continue;
            }
            let Ok((i, _)) = self.mem.locate(bits, 1) else { continue };
            let h = &self.mem.allocs[i];
            let param = l.params.get(k).map_or(String::new(), |p| format!(" `{}`", p.0));
            let name = l.params.get(k).and_then(|p| p.1.clone()).unwrap_or_else(|| h.name.clone());
            let from = if h.kind == AllocKind::Heap { "from malloc" } else { "a host variable" };
            let message = format!(
                "the launch {} at line {} passes `{name}`, host memory ({from} at line {}), as parameter {}{param}: \
                 a kernel cannot reach host memory, so its accesses through it fail (cudaErrorIllegalAddress). \
                 Allocate device memory with cudaMalloc, copy the data there with cudaMemcpy(..., \
                 cudaMemcpyHostToDevice) and pass that pointer",
                req.config(),
                req.line,
                h.line,
                k + 1
            );
            self.finding(FindingKind::HostPointerToKernel, req.line, message);
        }
    }
}
