//! Texture objects as the texture unit samples them: the descriptor `cudaCreateTextureObject` writes to device
//! memory (the handle is its address), and `tex1Dfetch`, `tex1D` and `tex2D` on it: addressing (clamp, border,
//! wrap, mirror), point and linear filtering, and the read modes.
//!
//! Linear filtering is the hardware's fixed-point arithmetic, measured on an H200: each coordinate's fraction
//! becomes an integer weight `a = round(frac * 256)` (ties up; 256 is 1.0), and in 2D the four texel weights
//! are integers summing to 256, with the corner's `w11 = round(a * b / 256)` and the others what is left
//! (`w10 = a - w11`, `w01 = b - w11`, `w00 = 256 - a - b + w11`). The weighted sum is exact here, rounded once
//! to float; the hardware's own sum may differ from it in the last bit (docs/programs.md).

use crate::front::half;

/// Bytes of a descriptor in device memory.
pub const DESC_BYTES: u64 = 64;

/// A descriptor's first word, so that a handle that is not one is told apart.
const MAGIC: u32 = 0x5445_5831;

/// What a texel's channels hold (`cudaChannelFormatKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    Signed,
    Unsigned,
    Float,
}

impl ChannelKind {
    /// `cudaChannelFormatKindSigned` (0), `Unsigned` (1), `Float` (2).
    pub fn from_code(code: u32) -> Option<ChannelKind> {
        Some(match code {
            0 => ChannelKind::Signed,
            1 => ChannelKind::Unsigned,
            2 => ChannelKind::Float,
            _ => return None,
        })
    }
}

/// `cudaTextureAddressMode`: what a coordinate outside the texture reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressMode {
    Wrap,
    Clamp,
    Mirror,
    Border,
}

impl AddressMode {
    pub fn from_code(code: u32) -> AddressMode {
        match code {
            0 => AddressMode::Wrap,
            2 => AddressMode::Mirror,
            3 => AddressMode::Border,
            _ => AddressMode::Clamp,
        }
    }
}

/// Which fetch a kernel calls (a builtin of the kernel language: the front end names it).
pub use crate::front::texture_fetch::TexDim;

/// A texture object: where its texels are and how they are read.
#[derive(Clone, Debug, PartialEq)]
pub struct TexDesc {
    /// Device address of texel (0, 0).
    pub base: u64,
    /// Texels per row, rows.
    pub width: u32,
    pub height: u32,
    /// Bytes from one row to the next.
    pub pitch: u64,
    /// Channels per texel (1, 2 or 4) and bits of each (8, 16 or 32).
    pub channels: u8,
    pub bits: u8,
    pub kind: ChannelKind,
    /// Per dimension (x, y).
    pub address: [AddressMode; 2],
    pub linear_filter: bool,
    /// `cudaReadModeNormalizedFloat`: 8- and 16-bit integers read as floats in [0, 1] ([-1, 1] signed).
    pub normalized_read: bool,
    pub normalized_coords: bool,
    pub border: [f32; 4],
}

impl TexDesc {
    /// Bytes of one texel.
    pub fn texel_bytes(&self) -> u64 {
        self.channels as u64 * self.bits as u64 / 8
    }

    /// Whether fetches give floats (filtering allowed) rather than the elements' own integers.
    pub fn reads_float(&self) -> bool {
        self.kind == ChannelKind::Float || (self.normalized_read && self.bits < 32)
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(DESC_BYTES as usize);
        b.extend(MAGIC.to_le_bytes());
        b.extend(self.width.to_le_bytes());
        b.extend(self.base.to_le_bytes());
        b.extend(self.pitch.to_le_bytes());
        b.extend(self.height.to_le_bytes());
        let kind = match self.kind {
            ChannelKind::Signed => 0,
            ChannelKind::Unsigned => 1,
            ChannelKind::Float => 2,
        };
        let mode = |m: AddressMode| m as u8;
        b.extend([self.channels, self.bits, kind, mode(self.address[0]), mode(self.address[1])]);
        b.extend([self.linear_filter as u8, self.normalized_read as u8, self.normalized_coords as u8]);
        for c in self.border {
            b.extend(c.to_bits().to_le_bytes());
        }
        b.resize(DESC_BYTES as usize, 0);
        b
    }

    /// The descriptor in `b` (at least [`DESC_BYTES`]); None when it is not one.
    pub fn decode(b: &[u8]) -> Option<TexDesc> {
        let u32_at = |i: usize| b.get(i..i + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
        let u64_at = |i: usize| Some(u32_at(i)? as u64 | (u32_at(i + 4)? as u64) << 32);
        if u32_at(0)? != MAGIC {
            return None;
        }
        let mode = |v: u8| AddressMode::from_code(v as u32);
        let border = [u32_at(36)?, u32_at(40)?, u32_at(44)?, u32_at(48)?].map(f32::from_bits);
        Some(TexDesc {
            width: u32_at(4)?,
            base: u64_at(8)?,
            pitch: u64_at(16)?,
            height: u32_at(24)?,
            channels: b[28],
            bits: b[29],
            kind: ChannelKind::from_code(b[30] as u32)?,
            address: [mode(b[31]), mode(b[32])],
            linear_filter: b[33] != 0,
            normalized_read: b[34] != 0,
            normalized_coords: b[35] != 0,
            border,
        })
    }

    /// The texel index `i` of `n` in one dimension reads, or None for the border.
    fn address(&self, i: i64, n: u32, dim: usize) -> Option<u64> {
        let n = n.max(1) as i64;
        // Wrap and mirror need normalized coordinates; the hardware clamps unnormalized ones.
        let mode = match self.address[dim] {
            AddressMode::Wrap | AddressMode::Mirror if !self.normalized_coords => AddressMode::Clamp,
            m => m,
        };
        Some(match mode {
            AddressMode::Clamp => i.clamp(0, n - 1) as u64,
            AddressMode::Border if i < 0 || i >= n => return None,
            AddressMode::Border => i as u64,
            AddressMode::Wrap => i.rem_euclid(n) as u64,
            AddressMode::Mirror => {
                let m = i.rem_euclid(2 * n);
                (if m < n { m } else { 2 * n - 1 - m }) as u64
            }
        })
    }

    /// Channel `c` of the texel whose bits are `raw`, as the read mode gives it: a float's value, or an
    /// integer's (sign-extended) as f64, exactly.
    fn channel(&self, raw: u64, c: usize) -> f64 {
        let bits = self.bits as u32;
        let v = (raw >> (c as u32 * bits)) & mask(bits);
        match self.kind {
            ChannelKind::Float if bits == 16 => half::to_f64(v as u16),
            ChannelKind::Float => f32::from_bits(v as u32) as f64,
            ChannelKind::Unsigned if self.normalized_read && bits < 32 => v as f64 / mask(bits) as f64,
            ChannelKind::Unsigned => v as f64,
            ChannelKind::Signed => {
                let s = ((v << (64 - bits)) as i64 >> (64 - bits)) as f64;
                if self.normalized_read && bits < 32 { (s / (mask(bits - 1) as f64)).max(-1.0) } else { s }
            }
        }
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

/// A fetch's result: each channel a float (filtered, normalized, or a float texel's) or an integer texel's
/// bits; channels the format lacks read 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Texel {
    pub values: [f64; 4],
    pub float: bool,
}

impl Texel {
    /// Channel `c` as the 32 bits of a register: a float's bits, or the integer's.
    pub fn bits(&self, c: usize) -> u32 {
        let v = self.values.get(c).copied().unwrap_or(0.0);
        if self.float { (v as f32).to_bits() } else { v as i64 as u32 }
    }
}

/// The fixed-point weight of a coordinate's fraction (0..=256, 256 being 1.0), and the texel left of it: the
/// coordinate less half a texel, split into its floor and fraction, the fraction rounded to 1/256 (ties up).
pub fn weight(x: f32) -> (i64, u32) {
    let xb = x - 0.5;
    let i = xb.floor();
    let frac = (xb - i) as f64;
    (i as i64, ((frac * 256.0 + 0.5).floor() as u32).min(256))
}

/// The four bilinear weights (w00, w10, w01, w11) of fraction weights `a` (x) and `b` (y): integers summing
/// to 256, as the texture unit forms them.
pub fn bilinear(a: u32, b: u32) -> [u32; 4] {
    let w11 = (a * b + 128) / 256;
    // (256 - a)(256 - b) >= 0 makes 256 + w11 >= a + b; `256 - a - b` alone may go below zero.
    [256 + w11 - a - b, a - w11, b - w11, w11]
}

/// Samples `desc` at `coords` (x, y: floats, or the index for [`TexDim::Fetch1D`]), reading texels' raw bits
/// through `read(address, bytes)`.
pub fn sample<E>(
    desc: &TexDesc,
    dim: TexDim,
    coords: [f32; 2],
    index: i64,
    mut read: impl FnMut(u64, u32) -> Result<u64, E>,
) -> Result<Texel, E> {
    let float = desc.reads_float();
    let n = desc.channels.clamp(1, 4) as usize;
    let tb = desc.texel_bytes() as u32;
    let mut fetch = |ix: Option<u64>, iy: Option<u64>| -> Result<[f64; 4], E> {
        let mut out = [0.0; 4];
        match (ix, iy) {
            (Some(x), Some(y)) => {
                let at = desc.base + y * desc.pitch + x * tb as u64;
                let raw = if tb <= 8 {
                    read(at, tb)?
                } else {
                    // A 16-byte texel (float4, int4): two 8-byte halves, two channels each.
                    let (lo, hi) = (read(at, 8)?, read(at + 8, 8)?);
                    for (c, o) in out.iter_mut().enumerate().take(n) {
                        *o = desc.channel(if c < 2 { lo } else { hi }, c % 2);
                    }
                    return Ok(out);
                };
                for (c, o) in out.iter_mut().enumerate().take(n) {
                    *o = desc.channel(raw, c);
                }
            }
            _ => {
                for (c, o) in out.iter_mut().enumerate().take(n) {
                    *o = if float { desc.border[c] as f64 } else { desc.border[c] as i64 as f64 };
                }
            }
        }
        Ok(out)
    };
    let (w, h) = (desc.width, if dim == TexDim::D2 { desc.height } else { 1 });
    if dim == TexDim::Fetch1D {
        // Linear memory by index: an index outside it reads zero.
        let values = if index < 0 || index >= w as i64 { [0.0; 4] } else { fetch(Some(index as u64), Some(0))? };
        return Ok(Texel { values, float });
    }
    let scale = |c: f32, n: u32| if desc.normalized_coords { c * n as f32 } else { c };
    let (x, y) = (scale(coords[0], w), if dim == TexDim::D2 { scale(coords[1], h) } else { 0.5 });
    if !desc.linear_filter || !float {
        let (i, j) = (x.floor() as i64, y.floor() as i64);
        let values = fetch(desc.address(i, w, 0), desc.address(j, h, 1))?;
        return Ok(Texel { values, float });
    }
    let ((i, a), (j, b)) = (weight(x), weight(y));
    let ws = bilinear(a, b);
    let mut sum = [0.0f64; 4];
    for (k, (di, dj)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
        if ws[k] == 0 {
            continue;
        }
        let t = fetch(desc.address(i + di, w, 0), desc.address(j + dj, h, 1))?;
        for c in 0..4 {
            sum[c] += ws[k] as f64 * t[c];
        }
    }
    Ok(Texel { values: sum.map(|s| (s / 256.0) as f32 as f64), float })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn desc(w: u32, h: u32, linear: bool) -> TexDesc {
        TexDesc {
            base: 0,
            width: w,
            height: h,
            pitch: w as u64 * 4,
            channels: 1,
            bits: 32,
            kind: ChannelKind::Float,
            address: [AddressMode::Clamp; 2],
            linear_filter: linear,
            normalized_read: false,
            normalized_coords: false,
            border: [0.0; 4],
        }
    }

    fn floats(v: &[f32]) -> impl FnMut(u64, u32) -> Result<u64, ()> + '_ {
        move |at, _| Ok(v[(at / 4) as usize].to_bits() as u64)
    }

    #[test]
    fn a_descriptor_round_trips_through_its_bytes() {
        let mut d = desc(7, 3, true);
        d.border = [0.25, 1.0, -2.0, 0.5];
        d.address = [AddressMode::Mirror, AddressMode::Border];
        d.normalized_coords = true;
        let b = d.encode();
        assert_eq!(b.len() as u64, DESC_BYTES);
        assert_eq!(TexDesc::decode(&b), Some(d));
        assert_eq!(TexDesc::decode(&[0; 64]), None);
    }

    #[test]
    fn the_fraction_weight_is_rounded_to_1_256_with_ties_up() {
        // Measured on an H200: x = 0.5 + k/1024 reads k/1024 rounded to 1/256, half up.
        for k in 0..1024u32 {
            let (i, a) = weight(0.5 + k as f32 / 1024.0);
            assert_eq!(i, 0);
            assert_eq!(a, (k + 2) / 4, "k {k}");
        }
        assert_eq!(weight(0.25), (-1, 192));
    }

    #[test]
    fn bilinear_weights_sum_to_256_with_the_corner_rounded_and_the_rest_left_over() {
        // H200: a = 4, b = 32 (a tie in every product) gives 221, 3, 31, 1.
        assert_eq!(bilinear(4, 32), [221, 3, 31, 1]);
        assert_eq!(bilinear(16, 120), [128, 8, 112, 8]);
        assert_eq!(bilinear(4, 4), [248, 4, 4, 0]);
        for a in 0..=256 {
            for b in 0..=256 {
                assert_eq!(bilinear(a, b).iter().sum::<u32>(), 256);
            }
        }
    }

    #[test]
    fn linear_filtering_reads_the_h200s_values() {
        // 1D between 0 and 1000: the weight's steps of 1/256 (3.90625), as the GPU printed.
        let v = [0.0f32, 1.0, 0.0, 1000.0];
        let d = desc(4, 1, true);
        let at = |x: f32| sample(&d, TexDim::D1, [x, 0.0], 0, floats(&v)).unwrap().values[0];
        assert_eq!(at(2.5 + 2.0 / 1024.0), 3.90625);
        assert_eq!(at(2.5 + 1.0 / 1024.0), 0.0);
        assert_eq!(at(0.5 + 510.0 / 1024.0), 0.5);
        assert_eq!(at(9.0), 1000.0);
        assert_eq!(at(-3.0), 0.0);
        // 2D: one texel set to 1 shows its weight (the H200's 221/256 at a = 4, b = 32).
        let d2 = desc(2, 2, true);
        let one = [1.0f32, 0.0, 0.0, 0.0];
        let x = 0.5 + 1.0 / 64.0 + 1.0 / 2048.0;
        let y = 0.5 + 8.0 / 64.0 + 1.0 / 2048.0;
        assert_eq!(sample(&d2, TexDim::D2, [x, y], 0, floats(&one)).unwrap().values[0], 221.0 / 256.0);
    }

    #[test]
    fn addressing_clamps_wraps_mirrors_and_borders() {
        let mut d = desc(4, 1, false);
        assert_eq!(d.address(-1, 4, 0), Some(0));
        assert_eq!(d.address(9, 4, 0), Some(3));
        // Wrap and mirror clamp unnormalized coordinates.
        d.address = [AddressMode::Wrap; 2];
        assert_eq!(d.address(5, 4, 0), Some(3));
        d.normalized_coords = true;
        assert_eq!(d.address(5, 4, 0), Some(1));
        assert_eq!(d.address(-1, 4, 0), Some(3));
        d.address = [AddressMode::Mirror; 2];
        assert_eq!((d.address(4, 4, 0), d.address(-1, 4, 0), d.address(9, 4, 0)), (Some(3), Some(0), Some(1)));
        d.address = [AddressMode::Border; 2];
        assert_eq!((d.address(4, 4, 0), d.address(-1, 4, 0), d.address(2, 4, 0)), (None, None, Some(2)));
        // Point sampling at a border reads the border colour.
        d.border = [0.25, 0.0, 0.0, 0.0];
        let v = [5.0f32, 6.0, 7.0, 8.0];
        assert_eq!(sample(&d, TexDim::D1, [1.1, 0.0], 0, floats(&v)).unwrap().values[0], 0.25);
        assert_eq!(sample(&d, TexDim::D1, [0.6, 0.0], 0, floats(&v)).unwrap().values[0], 7.0);
    }

    #[test]
    fn normalized_reads_scale_8_bit_integers_and_fetch_reads_zero_past_the_end() {
        let mut d = desc(4, 1, false);
        d.bits = 8;
        d.kind = ChannelKind::Unsigned;
        d.normalized_read = true;
        d.pitch = 4;
        let bytes = [0u8, 51, 255, 128];
        let read = |at: u64, _| -> Result<u64, ()> { Ok(bytes[at as usize] as u64) };
        let t = sample(&d, TexDim::D1, [1.5, 0.0], 0, read).unwrap();
        assert_eq!((t.values[0], t.float), (0.2, true));
        assert_eq!(t.bits(0), 0.2f32.to_bits());
        d.normalized_read = false;
        let t = sample(&d, TexDim::Fetch1D, [0.0; 2], 2, read).unwrap();
        assert_eq!((t.bits(0), t.float), (255, false));
        assert_eq!(sample(&d, TexDim::Fetch1D, [0.0; 2], 4, read).unwrap().bits(0), 0);
        d.kind = ChannelKind::Signed;
        assert_eq!(sample(&d, TexDim::Fetch1D, [0.0; 2], 2, read).unwrap().bits(0), u32::MAX);
    }
}
