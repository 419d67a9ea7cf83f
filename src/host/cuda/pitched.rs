//! Pitched linear memory: `cudaMallocPitch` and `cudaMalloc3D` (rows padded to a pitch), `cudaMemcpy2D`,
//! `cudaMemset2D` and `cudaMemcpy3D` between pitched pointers, copied row by row with `cudaMemcpy`'s checks
//! on each row. CUDA arrays (`srcArray`, `dstArray`) are not supported: such a copy fails with
//! `cudaErrorInvalidValue`.

use super::structs::{memcpy3d_parms, offset, pitched_ptr};
use super::*;
use crate::host::interp::{Interp, Unwind};

/// Rows of a `cudaMalloc3D` allocation start this many bytes apart at least (`texturePitchAlignment`
/// rounds up to it as the H100's allocator does).
pub const PITCH_ALIGN: u64 = 512;

/// A pitched pointer's fields, read from host memory.
struct Pitched {
    ptr: u64,
    pitch: u64,
    ysize: u64,
}

impl Interp<'_> {
    fn field(&mut self, at: u64, e: &Expr) -> Result<u64, Unwind> {
        self.load(at, Scalar::U64, None, e.span)
    }

    fn three(&mut self, at: u64, e: &Expr) -> Result<[u64; 3], Unwind> {
        Ok([self.field(at, e)?, self.field(at + 8, e)?, self.field(at + 16, e)?])
    }

    fn pitched_at(&mut self, at: u64, e: &Expr) -> Result<Pitched, Unwind> {
        let def = pitched_ptr();
        Ok(Pitched {
            ptr: self.field(at + offset(&def, "ptr"), e)?,
            pitch: self.field(at + offset(&def, "pitch"), e)?,
            ysize: self.field(at + offset(&def, "ysize"), e)?,
        })
    }

    /// `cudaMalloc3D(&pitched, extent)` and `cudaMemcpy3D(&parms)`.
    pub(super) fn pitched(&mut self, api: Api, v: &LibArgs, line: u32, e: &Expr) -> Result<u64, Unwind> {
        if api == Api::Malloc3D {
            let [width, height, depth] = self.three(v[1], e)?;
            let pitch = width.next_multiple_of(PITCH_ALIGN);
            let bytes = pitch.saturating_mul(height).saturating_mul(depth);
            let name = self.literal(v[2] as u32);
            let Some(at) = self.dev.malloc(bytes, Scalar::U8, &name, line) else {
                return Ok(self.status(MEMORY_ALLOCATION));
            };
            let def = pitched_ptr();
            for (f, value) in [("ptr", at), ("pitch", pitch), ("xsize", width), ("ysize", height)] {
                self.out_param(v[0] + offset(&def, f), 8, value, e)?;
            }
            return Ok(self.status(SUCCESS));
        }
        let def = memcpy3d_parms();
        let p = v[0];
        let arrays = [self.field(p + offset(&def, "srcArray"), e)?, self.field(p + offset(&def, "dstArray"), e)?];
        let [sx, sy, sz] = self.three(p + offset(&def, "srcPos"), e)?;
        let [dx, dy, dz] = self.three(p + offset(&def, "dstPos"), e)?;
        let src = self.pitched_at(p + offset(&def, "srcPtr"), e)?;
        let dst = self.pitched_at(p + offset(&def, "dstPtr"), e)?;
        let [width, height, depth] = self.three(p + offset(&def, "extent"), e)?;
        let kind = self.load(p + offset(&def, "kind"), Scalar::U32, None, e.span)? as u32;
        if arrays != [0, 0] || width > src.pitch || width > dst.pitch {
            return Ok(self.status(INVALID_VALUE));
        }
        for z in 0..depth {
            for y in 0..height {
                let from = src.ptr + ((sz + z) * src.ysize + sy + y) * src.pitch + sx;
                let to = dst.ptr + ((dz + z) * dst.ysize + dy + y) * dst.pitch + dx;
                let code = self.memcpy(to, from, width, kind, true, "cudaMemcpy3D", e)?;
                if code != SUCCESS {
                    return Ok(self.status(code));
                }
            }
        }
        Ok(self.status(SUCCESS))
    }

    /// `cudaMallocPitch(&ptr, &pitch, width, height)`, `cudaMemcpy2D(dst, dpitch, src, spitch, width, height,
    /// kind)` and `cudaMemset2D(ptr, pitch, value, width, height)` (their `Async` forms too: work runs in
    /// program order). A width over a pitch fails before any row moves.
    pub(super) fn pitched_2d(&mut self, api: Api, v: &LibArgs, line: u32, e: &Expr) -> Result<u64, Unwind> {
        match api {
            Api::MallocPitch => {
                let pitch = v[2].next_multiple_of(PITCH_ALIGN);
                let name = self.literal(v[4] as u32);
                let Some(at) = self.dev.malloc(pitch.saturating_mul(v[3]), scalar_at(v[5]), &name, line) else {
                    return Ok(self.status(MEMORY_ALLOCATION));
                };
                self.out_param(v[0], 8, at, e)?;
                self.out_param(v[1], 8, pitch, e)?;
                Ok(self.status(SUCCESS))
            }
            Api::Memcpy2D | Api::Memcpy2DAsync => {
                let [dst, dpitch, src, spitch, width, height, kind] = [v[0], v[1], v[2], v[3], v[4], v[5], v[6]];
                if width > dpitch || width > spitch {
                    return Ok(self.status(INVALID_PITCH));
                }
                let blocking = api == Api::Memcpy2D;
                for y in 0..height {
                    let (to, from) = (dst + y * dpitch, src + y * spitch);
                    let code = self.memcpy(to, from, width, kind as u32, blocking, "cudaMemcpy2D", e)?;
                    if code != SUCCESS {
                        return Ok(self.status(code));
                    }
                }
                Ok(self.status(SUCCESS))
            }
            _ => {
                let [at, pitch, value, width, height] = [v[0], v[1], v[2], v[3], v[4]];
                // cudaErrorInvalidValue here, not the copy's pitch error (measured on an H200).
                if width > pitch {
                    return Ok(self.status(INVALID_VALUE));
                }
                for y in 0..height {
                    let code = self.memset(at + y * pitch, value as u8, width, line);
                    if code != SUCCESS {
                        return Ok(self.status(code));
                    }
                }
                Ok(self.status(SUCCESS))
            }
        }
    }
}
