//! The CUDA runtime API at run time: device memory through [`super::Device`], error codes and strings as
//! CUDA 12 gives them, launches. Work runs synchronously, in program order.

use super::interp::{Interp, Stop};
use super::memory::AllocKind;
use super::tree::*;
use super::{LaunchRequest, LaunchStatus};
use crate::front::types::Scalar;

pub const SUCCESS: u32 = 0;
pub const INVALID_VALUE: u32 = 1;
pub const MEMORY_ALLOCATION: u32 = 2;
pub const INVALID_CONFIGURATION: u32 = 9;
pub const INVALID_DEVICE: u32 = 101;
pub const INVALID_DEVICE_POINTER: u32 = 17;
pub const INVALID_MEMCPY_DIRECTION: u32 = 21;
pub const ILLEGAL_ADDRESS: u32 = 700;

/// `cudaGetErrorName` and `cudaGetErrorString` of a code (CUDA 12).
pub fn error_text(code: u32) -> (&'static str, &'static str) {
    match code {
        0 => ("cudaSuccess", "no error"),
        1 => ("cudaErrorInvalidValue", "invalid argument"),
        2 => ("cudaErrorMemoryAllocation", "out of memory"),
        9 => ("cudaErrorInvalidConfiguration", "invalid configuration argument"),
        17 => ("cudaErrorInvalidDevicePointer", "invalid device pointer"),
        21 => ("cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"),
        101 => ("cudaErrorInvalidDevice", "invalid device ordinal"),
        700 => ("cudaErrorIllegalAddress", "an illegal memory access was encountered"),
        719 => ("cudaErrorLaunchFailure", "unspecified launch failure"),
        _ => ("cudaErrorUnknown", "unknown error"),
    }
}

/// The scalars in declaration order (`Scalar as u64` indexes this).
const SCALARS: [Scalar; 11] = [
    Scalar::Bool,
    Scalar::I8,
    Scalar::U8,
    Scalar::I16,
    Scalar::U16,
    Scalar::I32,
    Scalar::U32,
    Scalar::I64,
    Scalar::U64,
    Scalar::F32,
    Scalar::F64,
];

impl Interp<'_> {
    /// A runtime call's result: the sticky error of a broken context wins; other errors are also
    /// remembered for `cudaGetLastError`.
    fn status(&mut self, code: u32) -> u64 {
        let code = if self.sticky != 0 { self.sticky } else { code };
        if code != 0 {
            self.last_error = code;
        }
        code as u64
    }

    pub(super) fn cuda(&mut self, lib: Lib, v: &[u64; 6], e: &HExpr) -> Result<u64, Stop> {
        let line = self.line(e.span);
        Ok(match lib {
            Lib::CudaMalloc => {
                if self.sticky != 0 {
                    return Ok(self.status(0));
                }
                let name = self.literal(v[2] as u32);
                let elem = SCALARS.get(v[3] as usize).copied().unwrap_or(Scalar::U8);
                let Some(at) = self.dev.malloc(v[1], elem, &name, line) else {
                    return Ok(self.status(MEMORY_ALLOCATION));
                };
                self.mem.store(v[0], 8, at).map_err(|f| self.fault(f, v[0], true, None, e.span))?;
                self.status(SUCCESS)
            }
            Lib::CudaFree => {
                if v[0] == 0 || self.sticky != 0 {
                    return Ok(self.status(SUCCESS));
                }
                let code = if self.dev.free(v[0]) { SUCCESS } else { INVALID_VALUE };
                self.status(code)
            }
            Lib::CudaMemcpy => {
                if self.sticky != 0 {
                    return Ok(self.status(0));
                }
                let code = self.memcpy(v[0], v[1], v[2], v[3] as u32, e)?;
                self.status(code)
            }
            Lib::CudaMemset => {
                if self.sticky != 0 {
                    return Ok(self.status(0));
                }
                let ok = self.dev.owner(v[0]).is_some() && self.dev.write(v[0], &vec![v[1] as u8; v[2] as usize]);
                self.status(if ok { SUCCESS } else { INVALID_VALUE })
            }
            Lib::CudaDeviceSynchronize => self.status(SUCCESS),
            Lib::CudaDeviceReset => {
                self.dev.reset();
                self.sticky = 0;
                self.last_error = 0;
                SUCCESS as u64
            }
            Lib::CudaGetLastError => {
                let code = self.last_error;
                self.last_error = self.sticky;
                code as u64
            }
            Lib::CudaPeekAtLastError => self.last_error as u64,
            Lib::CudaGetErrorString | Lib::CudaGetErrorName => {
                let name = lib == Lib::CudaGetErrorName;
                self.error_string(v[0] as u32, name)
            }
            Lib::CudaSetDevice => self.status(if v[0] == 0 { SUCCESS } else { INVALID_DEVICE }),
            _ => 0,
        })
    }

    fn error_string(&mut self, code: u32, name: bool) -> u64 {
        if let Some(&(_, _, at)) = self.error_strings.iter().find(|(c, n, _)| *c == code && *n == name) {
            return at;
        }
        let (n, s) = error_text(code);
        let text = if name { n } else { s };
        let at = self.mem.alloc(text.len() as u64 + 1, AllocKind::Literal, "an error string", 0);
        if let Ok(b) = self.mem.bytes(at, text.len() as u64) {
            b.copy_from_slice(text.as_bytes());
        }
        self.error_strings.push((code, name, at));
        at
    }

    /// `cudaMemcpy(dst, src, n, kind)`: the CUDA error code, or a stop for a bad host access.
    fn memcpy(&mut self, dst: u64, src: u64, n: u64, kind: u32, e: &HExpr) -> Result<u32, Stop> {
        let on_device = |i: &Self, a: u64| i.dev.owner(a).is_some();
        let kind = if kind == 4 {
            match (on_device(self, dst), on_device(self, src)) {
                (false, false) => 0,
                (true, false) => 1,
                (false, true) => 2,
                (true, true) => 3,
            }
        } else {
            kind
        };
        match kind {
            0 => {
                let data = self.read_bytes(src, n, e.span)?;
                self.write_bytes(dst, Some(&data), n, 0, e.span)?;
            }
            1 => {
                if !on_device(self, dst) {
                    return Ok(INVALID_VALUE);
                }
                let data = self.read_bytes(src, n, e.span)?;
                if !self.dev.write(dst, &data) {
                    return Ok(INVALID_VALUE);
                }
            }
            2 => {
                let Some(data) = self.dev.read(src, n) else { return Ok(INVALID_VALUE) };
                self.write_bytes(dst, Some(&data), n, 0, e.span)?;
            }
            3 => {
                let Some(data) = self.dev.read(src, n) else { return Ok(INVALID_VALUE) };
                if !self.dev.write(dst, &data) {
                    return Ok(INVALID_VALUE);
                }
            }
            _ => return Ok(INVALID_MEMCPY_DIRECTION),
        }
        Ok(SUCCESS)
    }

    fn dim3(&mut self, d: &Dim3Src, slots: &mut [u64], e: crate::front::source::Span) -> Result<[u32; 3], Stop> {
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
                    *o = self.load(a + 4 * k as u64, Scalar::U32, None, e)? as u32;
                }
                out
            }
        })
    }

    pub(super) fn launch(&mut self, l: &LaunchExpr, slots: &mut [u64], span: crate::front::source::Span) -> Result<(), Stop> {
        let grid = self.dim3(&l.grid, slots, span)?;
        let block = self.dim3(&l.block, slots, span)?;
        let shared = match &l.shared {
            Some(s) => self.eval(s, slots)?,
            None => 0,
        };
        let mut args = vec![];
        for (a, _) in &l.args {
            args.push(self.eval(a, slots)?);
        }
        if self.sticky != 0 {
            self.last_error = self.sticky;
            return Ok(());
        }
        let threads = block.iter().map(|&b| b as u64).product::<u64>();
        // Measured on an H100 (CUDA 13): more than 1024 threads per block is cudaErrorInvalidValue. A zero
        // dimension, a block dimension past (1024, 1024, 64) or a grid past (2^31-1, 65535, 65535) is
        // cudaErrorInvalidConfiguration, as the programming guide's limits say (not yet measured).
        let code = if threads > 1024 || shared > 48 * 1024 {
            INVALID_VALUE
        } else if grid.contains(&0)
            || block.contains(&0)
            || block[2] > 64
            || grid[0] > i32::MAX as u32
            || grid[1] > 65535
            || grid[2] > 65535
        {
            INVALID_CONFIGURATION
        } else {
            SUCCESS
        };
        if code != SUCCESS {
            self.last_error = code;
            return Ok(());
        }
        let req = LaunchRequest { kernel: l.kernel.clone(), grid, block, shared: shared as u32, args, line: self.line(span) };
        let _ = self.out.flush();
        if self.dev.wants_host_vars() {
            let vars = self.host_vars(&l.scope, slots);
            self.dev.host_vars(vars);
        }
        match self.dev.launch(&req) {
            LaunchStatus::Ran(text) => self.write(false, text.as_bytes()),
            LaunchStatus::Refused(code) => self.last_error = code,
            LaunchStatus::Faulted(text) => {
                self.write(false, text.as_bytes());
                self.sticky = ILLEGAL_ADDRESS;
                self.last_error = ILLEGAL_ADDRESS;
            }
            LaunchStatus::Stop(code) => return Err(Stop::Stopped(code)),
        }
        Ok(())
    }
}
