//! CUDA arrays and texture objects on the host side: `cudaMallocArray` (device memory, rows packed), the
//! copies into and out of an array, and `cudaCreateTextureObject`, which writes the object's descriptor
//! (`sim::texture::TexDesc`) to device memory; the handle is the descriptor's address, which the kernel's
//! fetches read. Neither an array nor an object is reported as a leak (compute-sanitizer reports neither).

use super::structs::{
    channel_format_desc, offset, resource_array, resource_desc, resource_linear, resource_pitch2d, resource_union,
    texture_desc,
};
use super::*;
use crate::host::interp::{Interp, Unwind};
use crate::sim::texture::{AddressMode, ChannelKind, DESC_BYTES, TexDesc};

/// A CUDA array: where its texels are and their format.
#[derive(Clone, Debug)]
struct CudaArray {
    base: u64,
    width: u64,
    height: u64,
    format: Format,
}

/// A channel format (`cudaChannelFormatDesc`) warpdbg reads: 1, 2 or 4 channels of one width.
#[derive(Clone, Copy, Debug)]
struct Format {
    channels: u8,
    bits: u8,
    kind: ChannelKind,
}

impl Format {
    fn bytes(self) -> u64 {
        self.channels as u64 * self.bits as u64 / 8
    }
}

/// The arrays and texture objects that exist.
#[derive(Debug, Default)]
pub(super) struct Textures {
    arrays: Vec<CudaArray>,
    /// Descriptors' addresses.
    objects: Vec<u64>,
}

impl Textures {
    /// Whether the device allocation at `base` is an array or a descriptor (not a `cudaMalloc` leak).
    pub(super) fn owns(&self, base: u64) -> bool {
        self.objects.contains(&base) || self.arrays.iter().any(|a| a.base == base)
    }

    fn array(&self, handle: u64) -> Option<CudaArray> {
        self.arrays.iter().find(|a| a.base == handle).cloned()
    }
}

impl Interp<'_> {
    fn int_at(&mut self, at: u64, e: &Expr) -> Result<u64, Unwind> {
        Ok(self.load(at, Scalar::I32, None, e.span)? as u32 as u64)
    }

    fn word_at(&mut self, at: u64, e: &Expr) -> Result<u64, Unwind> {
        self.load(at, Scalar::U64, None, e.span)
    }

    /// The `cudaChannelFormatDesc` at `at`, or None for a format warpdbg does not read.
    fn format_at(&mut self, at: u64, e: &Expr) -> Result<Option<Format>, Unwind> {
        let def = channel_format_desc();
        let mut bits = vec![];
        for f in ["x", "y", "z", "w"] {
            bits.push(self.int_at(at + offset(&def, f), e)? as i32);
        }
        let kind = ChannelKind::from_code(self.int_at(at + offset(&def, "f"), e)? as u32);
        let channels = bits.iter().take_while(|&&b| b > 0).count();
        let first = bits[0];
        let same = bits[..channels].iter().all(|&b| b == first) && bits[channels..].iter().all(|&b| b == 0);
        Ok(match kind {
            Some(kind) if same && matches!(channels, 1 | 2 | 4) && matches!(first, 8 | 16 | 32) => {
                if kind == ChannelKind::Float && first == 8 {
                    return Ok(None);
                }
                Some(Format { channels: channels as u8, bits: first as u8, kind })
            }
            _ => None,
        })
    }

    /// The array calls and texture objects' creation and destruction.
    pub(super) fn texture_call(&mut self, api: Api, v: &LibArgs, line: u32, e: &Expr) -> Result<u64, Unwind> {
        let code = match api {
            Api::MallocArray => {
                let Some(format) = self.format_at(v[1], e)? else { return Ok(self.status(INVALID_VALUE)) };
                let (width, height) = (v[2], v[3].max(1));
                let name = self.literal(v[5] as u32);
                let bytes = width.saturating_mul(height).saturating_mul(format.bytes());
                let Some(base) = self.dev.malloc(bytes.max(1), Scalar::U8, &name, line) else {
                    return Ok(self.status(MEMORY_ALLOCATION));
                };
                self.rt.textures.arrays.push(CudaArray { base, width, height, format });
                self.out_param(v[0], 8, base, e)?;
                SUCCESS
            }
            Api::FreeArray => match self.rt.textures.arrays.iter().position(|a| a.base == v[0]) {
                Some(k) => {
                    self.rt.textures.arrays.remove(k);
                    self.dev.free(v[0]);
                    SUCCESS
                }
                None if v[0] == 0 => SUCCESS,
                None => INVALID_VALUE,
            },
            Api::Memcpy2DToArray | Api::MemcpyToArray | Api::Memcpy2DFromArray => self.array_copy(api, v, e)?,
            Api::CreateTextureObject => self.create_texture(v, line, e)?,
            _ => match self.rt.textures.objects.iter().position(|&o| o == v[0]) {
                Some(k) => {
                    self.rt.textures.objects.remove(k);
                    self.dev.free(v[0]);
                    SUCCESS
                }
                None => INVALID_VALUE,
            },
        };
        Ok(self.status(code))
    }

    /// `cudaMemcpy2DToArray`, `cudaMemcpyToArray` and `cudaMemcpy2DFromArray`: row by row with `cudaMemcpy`'s
    /// checks; a region outside the array fails with `cudaErrorInvalidValue` before any row moves.
    fn array_copy(&mut self, api: Api, v: &LibArgs, e: &Expr) -> Result<u32, Unwind> {
        let (handle, w_off, h_off) =
            if api == Api::Memcpy2DFromArray { (v[2], v[3], v[4]) } else { (v[0], v[1], v[2]) };
        let Some(a) = self.rt.textures.array(handle) else { return Ok(INVALID_VALUE) };
        let row = a.width * a.format.bytes();
        let start = a.base + h_off.saturating_mul(row).saturating_add(w_off);
        let end = a.base + a.height * row;
        if api == Api::MemcpyToArray {
            let (src, count, kind) = (v[3], v[4], v[5]);
            if w_off > row || h_off >= a.height || start.saturating_add(count) > end {
                return Ok(INVALID_VALUE);
            }
            return self.memcpy(start, src, count, kind as u32, true, "cudaMemcpyToArray", e);
        }
        let (width, height) = (v[5], v[6]);
        if w_off.saturating_add(width) > row || h_off.saturating_add(height) > a.height {
            return Ok(INVALID_VALUE);
        }
        for y in 0..height {
            let in_array = start + y * row;
            let code = if api == Api::Memcpy2DToArray {
                let (src, spitch, kind) = (v[3], v[4], v[7]);
                if width > spitch {
                    return Ok(INVALID_PITCH);
                }
                self.memcpy(in_array, src + y * spitch, width, kind as u32, true, "cudaMemcpy2DToArray", e)?
            } else {
                let (dst, dpitch, kind) = (v[0], v[1], v[7]);
                if width > dpitch {
                    return Ok(INVALID_PITCH);
                }
                self.memcpy(dst + y * dpitch, in_array, width, kind as u32, true, "cudaMemcpy2DFromArray", e)?
            };
            if code != SUCCESS {
                return Ok(code);
            }
        }
        Ok(SUCCESS)
    }

    /// `cudaCreateTextureObject(&obj, &resDesc, &texDesc, viewDesc)`: a resource view is not supported.
    fn create_texture(&mut self, v: &LibArgs, line: u32, e: &Expr) -> Result<u32, Unwind> {
        if v[1] == 0 || v[2] == 0 || v[3] != 0 {
            return Ok(INVALID_VALUE);
        }
        let (rd, res) = (resource_desc(), v[1] + offset(&resource_desc(), "res"));
        let union = resource_union();
        let res_type = self.int_at(v[1] + offset(&rd, "resType"), e)?;
        let (base, width, height, pitch, format) = match res_type {
            0 => {
                let at = res + offset(&union, "array") + offset(&resource_array(), "array");
                let handle = self.word_at(at, e)?;
                let Some(a) = self.rt.textures.array(handle) else { return Ok(INVALID_VALUE) };
                (a.base, a.width, a.height, a.width * a.format.bytes(), a.format)
            }
            2 => {
                let (def, at) = (resource_linear(), res + offset(&union, "linear"));
                let Some(format) = self.format_at(at + offset(&def, "desc"), e)? else { return Ok(INVALID_VALUE) };
                let ptr = self.word_at(at + offset(&def, "devPtr"), e)?;
                let bytes = self.word_at(at + offset(&def, "sizeInBytes"), e)?;
                (ptr, bytes / format.bytes(), 1, bytes, format)
            }
            3 => {
                let (def, at) = (resource_pitch2d(), res + offset(&union, "pitch2D"));
                let Some(format) = self.format_at(at + offset(&def, "desc"), e)? else { return Ok(INVALID_VALUE) };
                let ptr = self.word_at(at + offset(&def, "devPtr"), e)?;
                let [w, h, p] = [
                    self.word_at(at + offset(&def, "width"), e)?,
                    self.word_at(at + offset(&def, "height"), e)?,
                    self.word_at(at + offset(&def, "pitchInBytes"), e)?,
                ];
                if w * format.bytes() > p {
                    return Ok(INVALID_VALUE);
                }
                (ptr, w, h, p, format)
            }
            _ => return Ok(INVALID_VALUE),
        };
        if base == 0 || width == 0 || width > u32::MAX as u64 || height > u32::MAX as u64 {
            return Ok(INVALID_VALUE);
        }
        let td = texture_desc();
        let t = v[2];
        let mut address = [AddressMode::Clamp; 2];
        for (k, m) in address.iter_mut().enumerate() {
            *m = AddressMode::from_code(self.int_at(t + offset(&td, "addressMode") + 4 * k as u64, e)? as u32);
        }
        let mut border = [0.0f32; 4];
        for (k, b) in border.iter_mut().enumerate() {
            *b = f32::from_bits(
                self.load(t + offset(&td, "borderColor") + 4 * k as u64, Scalar::F32, None, e.span)? as u32
            );
        }
        let desc = TexDesc {
            base,
            width: width as u32,
            height: height as u32,
            pitch,
            channels: format.channels,
            bits: format.bits,
            kind: format.kind,
            address,
            linear_filter: self.int_at(t + offset(&td, "filterMode"), e)? == 1,
            normalized_read: self.int_at(t + offset(&td, "readMode"), e)? == 1,
            normalized_coords: self.int_at(t + offset(&td, "normalizedCoords"), e)? != 0,
            border,
        };
        let Some(at) = self.dev.malloc(DESC_BYTES, Scalar::U8, "a texture object", line) else {
            return Ok(MEMORY_ALLOCATION);
        };
        self.dev.write(at, &desc.encode());
        self.rt.textures.objects.push(at);
        self.out_param(v[0], 8, at, e)?;
        Ok(SUCCESS)
    }
}
