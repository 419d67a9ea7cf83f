//! A texture fetch in one lane: the object's descriptor read from device memory (the handle is its address),
//! then `sim::texture` samples it, its texels read as the lane's global loads.

use super::context::{Ctx, ExecError};
use crate::ir::Ty;
use crate::sim::memory::AccessKind;
use crate::sim::texture::{self, DESC_BYTES, TexDesc, TexDim};

impl Ctx<'_> {
    /// Reads `len` bytes of global memory at `addr` without counting traffic (a descriptor the texture unit
    /// holds); None outside every allocation.
    fn peek_global(&self, addr: u64, len: u64) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(len as usize);
        for a in (addr..addr + len).step_by(8) {
            let word = match self.par {
                Some(g) => g.load(a, 8).ok()?.0,
                None => self.global.load(a, 8).ok()?,
            };
            out.extend(word.to_le_bytes());
        }
        Some(out)
    }

    /// Channel `out` of fetch `dim` on `args` (object, then x and y, or the index), as a `ty` register's bits.
    /// A null or freed object faults as the read of its descriptor would; a handle that is no texture object
    /// reads zero.
    pub(super) fn texture(&mut self, dim: TexDim, out: u8, ty: Ty, args: &[u64], lane: u32) -> Result<u64, ExecError> {
        let obj = args.first().copied().unwrap_or(0);
        // The descriptor's first word as a load: a handle that points nowhere faults here.
        self.load(obj, Ty::U32, lane, AccessKind::Read)?;
        let Some(desc) = self.peek_global(obj, DESC_BYTES).and_then(|b| TexDesc::decode(&b)) else {
            return Ok(0);
        };
        let arg = |k: usize| args.get(k).copied().unwrap_or(0);
        let coords = [f32::from_bits(arg(1) as u32), f32::from_bits(arg(2) as u32)];
        let index = arg(1) as u32 as i32 as i64;
        let texel = texture::sample(&desc, dim, coords, index, |at, bytes| {
            let t = match bytes {
                1 => Ty::U8,
                2 => Ty::U16,
                4 => Ty::U32,
                _ => Ty::U64,
            };
            self.load(at, t, lane, AccessKind::Read)
        })?;
        let bits = texel.bits(out as usize) as u64;
        Ok(match ty {
            Ty::I8 | Ty::U8 => bits & 0xff,
            Ty::I16 | Ty::U16 => bits & 0xffff,
            Ty::F64 => (f32::from_bits(bits as u32) as f64).to_bits(),
            _ => bits,
        })
    }
}
