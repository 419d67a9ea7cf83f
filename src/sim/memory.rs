//! Global memory (the `@arg` arrays) and per-block shared memory, in one 64-bit generic address space.
//!
//! Global allocations start at [`GLOBAL_BASE`], 256-byte aligned with a guard gap after each, so that an
//! off-by-one access lands outside every allocation and is reported, as compute-sanitizer would. Shared
//! memory appears at [`SHARED_BASE`] + offset, always the executing block's own (like the generic shared
//! window of real GPUs).

use crate::front::launch::{ArgValue, Launch};
use crate::ir::Ty;
use crate::sim::Zeroed;

mod digest;
pub use digest::{MemDelta, MemDigest};

pub const GLOBAL_BASE: u64 = 0x7f40_0000_0000;
pub const SHARED_BASE: u64 = 0x7e00_0000_0000;
const SHARED_WINDOW: u64 = 1 << 20;
/// Unused bytes after each allocation. In whole programs an access this close after (or before) an
/// allocation does not fault but goes to [`Padding`], as a GPU does not trap it (docs/programs.md).
pub const GUARD: u64 = 4096;
/// Whole programs: a block's shared memory is this granular, and an access past its arrays but within it
/// does not fault (measured on an H200: docs/programs.md).
pub const SHARED_GRANULE: u32 = 128;

/// Which memory an access went to (sanitizer wording: `__global__` / `__shared__`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    /// A thread's own local arrays.
    Local,
}

impl Space {
    pub fn cuda_name(self) -> &'static str {
        match self {
            Space::Global => "__global__",
            Space::Shared => "__shared__",
            Space::Local => "__local__",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
    Atomic,
}

impl AccessKind {
    pub fn word(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
        }
    }
}

/// Why an access failed.
#[derive(Clone, Debug, PartialEq)]
pub enum MemError {
    /// Outside every allocation; `nearest` describes the closest one.
    OutOfBounds {
        space: Space,
        nearest: Option<Nearest>,
    },
    Misaligned {
        space: Space,
    },
    Null,
}

impl std::fmt::Display for MemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemError::OutOfBounds { space, nearest: Some(n) } => write!(
                f,
                "out-of-bounds {} access, {} bytes {} `{}`",
                space.cuda_name(),
                n.distance.unsigned_abs(),
                if n.distance >= 0 { "after the end of" } else { "before the start of" },
                n.name
            ),
            MemError::OutOfBounds { space, nearest: None } => {
                write!(f, "out-of-bounds {} access, outside every allocation", space.cuda_name())
            }
            MemError::Misaligned { space } => write!(f, "misaligned {} access", space.cuda_name()),
            MemError::Null => f.write_str("access through a null pointer"),
        }
    }
}

impl std::error::Error for MemError {}

/// The allocation closest to a bad address, and how far the address is from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Nearest {
    pub name: String,
    pub base: u64,
    pub size: u64,
    pub elem_size: u32,
    /// Bytes after the end (positive) or before the start (negative).
    pub distance: i64,
}

/// One `@arg` array.
#[derive(Clone, Debug)]
pub struct Allocation {
    pub name: String,
    pub base: u64,
    pub elem: Ty,
    pub len: u64,
    /// Its bytes, pages backed as they are written (large allocations: [`Zeroed`]).
    pub data: Zeroed,
}

impl Allocation {
    pub fn bytes(&self) -> u64 {
        self.data.len() as u64
    }

    /// Element `i` as raw register bits.
    pub fn element(&self, i: u64) -> u64 {
        let size = self.elem.size() as usize;
        read_le(&self.data[i as usize * size..i as usize * size + size])
    }

    /// Elements `first..first + out.len()` as raw register bits (the size chosen once, not per element).
    pub fn elements(&self, first: u64, out: &mut [u64]) {
        fn each<const N: usize>(data: &[u8], out: &mut [u64]) {
            for (o, c) in out.iter_mut().zip(data.chunks_exact(N)) {
                let mut v = [0u8; 8];
                v[..N].copy_from_slice(c);
                *o = u64::from_le_bytes(v);
            }
        }
        let size = self.elem.size() as usize;
        let data = &self.data[first as usize * size..(first as usize + out.len()) * size];
        match size {
            1 => each::<1>(data, out),
            2 => each::<2>(data, out),
            4 => each::<4>(data, out),
            8 => each::<8>(data, out),
            _ => out.iter_mut().zip(data.chunks_exact(size)).for_each(|(o, c)| *o = read_le(c)),
        }
    }
}

fn read_le(b: &[u8]) -> u64 {
    let mut v = [0u8; 8];
    v[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(v)
}

fn write_le(b: &mut [u8], bits: u64) {
    let n = b.len();
    b.copy_from_slice(&bits.to_le_bytes()[..n]);
}

/// `bits[k]`'s low `size` bytes into element `k` of `data` (the size chosen once, not per element).
fn write_all_le(data: &mut [u8], size: usize, bits: &[u64]) {
    fn each<const N: usize>(data: &mut [u8], bits: &[u64]) {
        for (c, b) in data.chunks_exact_mut(N).zip(bits) {
            c.copy_from_slice(&b.to_le_bytes()[..N]);
        }
    }
    match size {
        1 => each::<1>(data, bits),
        2 => each::<2>(data, bits),
        4 => each::<4>(data, bits),
        8 => each::<8>(data, bits),
        _ => data.chunks_exact_mut(size).zip(bits).for_each(|(c, b)| write_le(c, *b)),
    }
}

/// Which bytes of global memory something wrote (compute-sanitizer's initcheck): one bit per byte of each
/// tracked allocation. Allocations it does not track count as written.
#[derive(Clone, Debug, Default)]
pub struct InitShadow {
    /// (base, bytes, bits), by base address.
    allocs: Vec<(u64, u64, Vec<u64>)>,
    /// The allocation the last lookup hit (warps walk arrays).
    last: std::cell::Cell<usize>,
}

impl InitShadow {
    /// Tracks a new allocation of `bytes` at `base`, nothing written yet.
    pub fn track(&mut self, base: u64, bytes: u64) {
        let i = self.allocs.partition_point(|a| a.0 < base);
        self.allocs.insert(i, (base, bytes, vec![0; bytes.div_ceil(64) as usize]));
    }

    /// Stops tracking the allocation at `base` (freed).
    pub fn forget(&mut self, base: u64) {
        self.allocs.retain(|a| a.0 != base);
    }

    /// Forgets every allocation.
    pub fn clear(&mut self) {
        self.allocs.clear();
    }

    /// The index of the tracked allocation holding `addr`.
    #[inline]
    fn find(&self, addr: u64) -> Option<usize> {
        let hit = |i: usize| self.allocs.get(i).is_some_and(|a| addr >= a.0 && addr < a.0 + a.1);
        if hit(self.last.get()) {
            return Some(self.last.get());
        }
        let i = self.allocs.partition_point(|a| a.0 <= addr).checked_sub(1)?;
        hit(i).then(|| {
            self.last.set(i);
            i
        })
    }

    /// Marks `len` bytes at `addr` written.
    pub fn mark(&mut self, addr: u64, len: u64) {
        let Some(i) = self.find(addr) else { return };
        let (base, size, bits) = &mut self.allocs[i];
        let (mut b, end) = (addr - *base, (addr + len).min(*base + *size) - *base);
        while b < end {
            if b % 64 == 0 && end - b >= 64 {
                bits[(b / 64) as usize] = u64::MAX;
                b += 64;
            } else {
                bits[(b / 64) as usize] |= 1 << (b % 64);
                b += 1;
            }
        }
    }

    /// Whether all `len` bytes at `addr` were written (untracked bytes were).
    #[inline]
    pub fn written(&self, addr: u64, len: u64) -> bool {
        let Some(i) = self.find(addr) else { return true };
        let (base, size, bits) = &self.allocs[i];
        (addr - base..(addr + len).min(base + size) - base).all(|b| bits[(b / 64) as usize] & (1 << (b % 64)) != 0)
    }

    /// The bits of the allocation at `base` (bit `b % 64` of word `b / 64` for byte `b`), when it is tracked;
    /// whole runs mark and check those of allocations not all written ([`InitShadow::unwritten_copies`])
    /// through atomics.
    pub fn bits_mut(&mut self, base: u64) -> Option<&mut [u64]> {
        self.allocs.iter_mut().find(|a| a.0 == base).map(|a| a.2.as_mut_slice())
    }

    /// Copies of the bits of every allocation some byte of which is not written yet, by base address: what
    /// [`InitShadow::restore`] puts back (the others cannot change).
    pub fn unwritten_copies(&self) -> Vec<(u64, Vec<u64>)> {
        self.allocs.iter().filter(|(_, size, bits)| !all_written(*size, bits)).map(|a| (a.0, a.2.clone())).collect()
    }

    /// Puts back bits [`InitShadow::unwritten_copies`] copied.
    pub fn restore(&mut self, copies: Vec<(u64, Vec<u64>)>) {
        for (base, bits) in copies {
            if let Some(a) = self.allocs.iter_mut().find(|a| a.0 == base) {
                a.2 = bits;
            }
        }
    }

    /// How many bytes from the start of the allocation at `base` were written before the first unwritten
    /// one (None when it is not tracked).
    pub fn written_prefix(&self, base: u64) -> Option<u64> {
        let (_, size, bits) = self.allocs.iter().find(|a| a.0 == base)?;
        Some((0..*size).find(|&i| bits[(i / 64) as usize] & (1 << (i % 64)) == 0).unwrap_or(*size))
    }
}

/// Whether every byte of an allocation of `size` bytes with these initcheck bits was written.
fn all_written(size: u64, bits: &[u64]) -> bool {
    bits.iter().enumerate().all(|(i, &w)| w == u64::MAX >> (64 - (size - 64 * i as u64).min(64)))
}

#[cfg(test)]
mod init_tests {
    use super::InitShadow;

    #[test]
    fn marks_and_reads_back() {
        let mut s = InitShadow::default();
        s.track(1000, 300);
        s.track(5000, 8);
        assert!(!s.written(1000, 4));
        s.mark(1000, 130);
        assert!(s.written(1000, 4) && s.written(1126, 4) && !s.written(1127, 4));
        assert_eq!(s.written_prefix(1000), Some(130));
        assert!(s.written(900, 4) && s.written(4000, 8), "untracked bytes count as written");
        s.mark(5000, 8);
        assert!(s.written(5000, 8));
        // Only allocations with an unwritten byte are copied, and the copy puts their bits back.
        let copies = s.unwritten_copies();
        assert_eq!(copies.iter().map(|c| c.0).collect::<Vec<_>>(), vec![1000]);
        s.mark(1000, 300);
        assert!(s.unwritten_copies().is_empty() && s.written(1200, 4));
        s.restore(copies);
        assert_eq!(s.written_prefix(1000), Some(130));
        s.forget(5000);
        assert_eq!(s.written_prefix(5000), None);
    }
}

/// Whole programs: the bytes written just outside allocations, where a GPU does not trap an access
/// ([`GlobalMemory::in_padding`]); kept apart from every allocation (a GPU's small allocations are adjacent
/// 512-byte slots, warpdbg's are not), and read as 0 where nothing wrote them. Sparse: such writes are rare.
#[derive(Clone, Debug, Default)]
pub struct Padding {
    bytes: std::collections::HashMap<u64, u8>,
}

impl Padding {
    /// `size` bytes at `addr`, little-endian; bytes nothing wrote read 0.
    pub fn load(&self, addr: u64, size: u32) -> u64 {
        (0..size as u64).fold(0, |v, k| v | (self.bytes.get(&(addr + k)).copied().unwrap_or(0) as u64) << (8 * k))
    }

    /// Writes the low `size` bytes of `bits` at `addr`.
    pub fn store(&mut self, addr: u64, size: u32, bits: u64) {
        for k in 0..size as u64 {
            self.bytes.insert(addr + k, (bits >> (8 * k)) as u8);
        }
    }

    /// Forgets every byte (`cudaDeviceReset`).
    pub fn clear(&mut self) {
        self.bytes.clear();
    }
}

/// The launch's global memory.
#[derive(Clone, Debug, Default)]
pub struct GlobalMemory {
    pub allocs: Vec<Allocation>,
    /// Which bytes were written, when uninitialised reads are checked (whole programs).
    pub init: Option<Box<InitShadow>>,
    /// Whole programs: accesses near an allocation go on, to these bytes, instead of faulting.
    pub padding: Option<Box<Padding>>,
    /// The allocation the last access hit: warps walk arrays, so it is usually the next one too.
    last: std::cell::Cell<usize>,
}

impl GlobalMemory {
    /// Allocates and initialises every array argument; returns the memory and each argument's register
    /// value (array base address or scalar bits), in parameter order.
    pub fn from_launch(launch: &Launch) -> (GlobalMemory, Vec<u64>) {
        let mut mem = GlobalMemory::default();
        let mut values = vec![];
        let mut next = GLOBAL_BASE;
        for (stream, arg) in launch.args.iter().enumerate() {
            match &arg.value {
                ArgValue::Scalar { bits, .. } => values.push(*bits),
                ArgValue::Array { elem, len, init } => {
                    let ty = Ty::from(*elem);
                    let size = ty.size() as usize;
                    let mut data = vec![0u8; *len as usize * size];
                    if init.is_uniform() {
                        let bits = init.eval(0, launch.seed, stream as u64).to_bits(*elem);
                        if bits != 0 {
                            data.chunks_exact_mut(size).for_each(|c| write_le(c, bits));
                        }
                    } else {
                        // Each element's value depends only on its index (and the seed): large arrays are
                        // filled on every core, with the same bytes as one after another, a column of values
                        // at a time (`InitExpr::fill_bits`). (One core without the `parallel` feature.)
                        const CHUNK: usize = 1 << 14;
                        // (The values go through a small buffer on the stack, which stays in cache.)
                        const RUN: usize = 2048;
                        let fill = |(k, chunk): (usize, &mut [u8])| {
                            let mut bits = [0u64; RUN];
                            for (j, part) in chunk.chunks_mut(RUN * size).enumerate() {
                                let (bits, first) = (&mut bits[..part.len() / size], k * CHUNK + j * RUN);
                                init.fill_bits(first as u64, launch.seed, stream as u64, *elem, bits);
                                write_all_le(part, size, bits);
                            }
                        };
                        #[cfg(feature = "parallel")]
                        {
                            use rayon::prelude::*;
                            data.par_chunks_mut(CHUNK * size).enumerate().for_each(fill);
                        }
                        #[cfg(not(feature = "parallel"))]
                        data.chunks_mut(CHUNK * size).enumerate().for_each(fill);
                    }
                    let bytes = data.len() as u64;
                    mem.allocs.push(Allocation {
                        name: arg.name.clone(),
                        base: next,
                        elem: ty,
                        len: *len,
                        data: data.into(),
                    });
                    values.push(next);
                    next = (next + bytes + GUARD).next_multiple_of(256);
                }
            }
        }
        (mem, values)
    }

    pub fn find(&self, name: &str) -> Option<&Allocation> {
        self.allocs.iter().find(|a| a.name == name)
    }

    /// Locates `size` bytes at `addr`: (allocation index, byte offset).
    #[inline]
    fn locate(&self, addr: u64, size: u32) -> Result<(usize, usize), MemError> {
        if let Some(a) = self.allocs.get(self.last.get())
            && addr >= a.base
            && addr.saturating_add(size as u64) <= a.base + a.bytes()
            && addr.is_multiple_of(size as u64)
        {
            return Ok((self.last.get(), (addr - a.base) as usize));
        }
        for (i, a) in self.allocs.iter().enumerate() {
            if addr >= a.base && addr.saturating_add(size as u64) <= a.base + a.bytes() {
                if !addr.is_multiple_of(size as u64) {
                    return Err(MemError::Misaligned { space: Space::Global });
                }
                self.last.set(i);
                return Ok((i, (addr - a.base) as usize));
            }
        }
        if addr < 4096 {
            return Err(MemError::Null);
        }
        Err(MemError::OutOfBounds { space: Space::Global, nearest: self.nearest(addr) })
    }

    fn nearest(&self, addr: u64) -> Option<Nearest> {
        self.allocs
            .iter()
            .map(|a| {
                let end = a.base + a.bytes();
                let distance = if addr >= end { (addr - end) as i64 } else { addr as i64 - a.base as i64 };
                (distance.unsigned_abs(), a, distance)
            })
            .min_by_key(|(d, _, _)| *d)
            .map(|(_, a, distance)| Nearest {
                name: a.name.clone(),
                base: a.base,
                size: a.bytes(),
                elem_size: a.elem.size(),
                distance,
            })
    }

    #[inline]
    pub fn load(&self, addr: u64, size: u32) -> Result<u64, MemError> {
        let (i, off) = self.locate(addr, size)?;
        Ok(read_le(&self.allocs[i].data[off..off + size as usize]))
    }

    #[inline]
    pub fn store(&mut self, addr: u64, size: u32, bits: u64) -> Result<(), MemError> {
        let (i, off) = self.locate(addr, size)?;
        write_le(&mut self.allocs[i].data[off..off + size as usize], bits);
        Ok(())
    }

    /// Whether an access that failed with `err` is one a GPU does not trap, which whole programs let go on
    /// ([`Padding`]): aligned, within [`GUARD`] bytes after the end or before the start of an allocation.
    /// (Only called once `locate` has failed: in-bounds accesses pay nothing.)
    pub fn in_padding(&self, addr: u64, size: u32, err: &MemError) -> bool {
        let MemError::OutOfBounds { space: Space::Global, nearest: Some(n) } = err else { return false };
        let near = if n.distance >= 0 {
            addr >= n.base + n.size && n.distance as u64 + size as u64 <= GUARD
        } else {
            n.distance.unsigned_abs() <= GUARD
        };
        self.padding.is_some() && near && addr.is_multiple_of(size as u64)
    }

    /// The allocation and element index an address falls in, for explanations.
    pub fn describe(&self, addr: u64) -> Option<(&str, u64)> {
        self.allocs
            .iter()
            .find(|a| addr >= a.base && addr < a.base + a.bytes())
            .map(|a| (a.name.as_str(), (addr - a.base) / a.elem.size() as u64))
    }
}

/// Layout of a kernel's `__shared__` arrays in a block's shared memory.
#[derive(Clone, Debug, Default)]
pub struct SharedLayout {
    /// (name, offset, bytes, element type) per array.
    pub arrays: Vec<(String, u32, u32, Ty)>,
    pub bytes: u32,
    /// The block's shared buffer's length: `bytes`, or in whole programs `bytes` rounded up to
    /// [`SHARED_GRANULE`], the bytes past the arrays being ones a GPU lets a kernel reach without a fault.
    pub padded: u32,
}

impl SharedLayout {
    /// The static arrays one after another, 16-byte aligned; then every dynamic (`extern __shared__`) array
    /// at the same offset, `dynamic` bytes long, as CUDA places them.
    pub fn new(kernel: &crate::ir::Kernel, dynamic: u32) -> Self {
        let mut arrays = vec![];
        let mut off = 0u32;
        for s in kernel.shared.iter().filter(|s| !s.dynamic) {
            off = off.next_multiple_of(16);
            arrays.push((s.name.clone(), off, s.bytes, s.elem));
            off += s.bytes;
        }
        let dynamic_at = off.next_multiple_of(16);
        let mut all = vec![];
        let mut statics = arrays.into_iter();
        for s in &kernel.shared {
            if s.dynamic {
                all.push((s.name.clone(), dynamic_at, dynamic, s.elem));
            } else if let Some(a) = statics.next() {
                all.push(a);
            }
        }
        let bytes = if kernel.uses_dynamic_shared() { dynamic_at + dynamic } else { off.next_multiple_of(16) };
        SharedLayout { arrays: all, bytes, padded: bytes }
    }

    /// The layout with the block's buffer rounded up to [`SHARED_GRANULE`] (whole programs).
    pub fn padded(self) -> Self {
        SharedLayout { padded: self.bytes.next_multiple_of(SHARED_GRANULE), ..self }
    }

    /// Whether a shared access at byte `off` that failed with `err` lies in the buffer's padding, which
    /// whole programs let go on: past the arrays, within [`SharedLayout::padded`], aligned.
    pub fn in_padding(&self, off: usize, size: u32, err: &MemError) -> bool {
        matches!(err, MemError::OutOfBounds { space: Space::Shared, .. })
            && off + size as usize <= self.padded as usize
            && off.is_multiple_of(size as usize)
    }

    pub fn address(&self, array: u32) -> u64 {
        SHARED_BASE + self.arrays[array as usize].1 as u64
    }
}

/// Is `addr` in the shared window?
#[inline]
pub fn is_shared(addr: u64) -> bool {
    (SHARED_BASE..SHARED_BASE + SHARED_WINDOW).contains(&addr)
}

/// Checks a shared access and returns the byte offset.
#[inline]
pub fn shared_offset(layout: &SharedLayout, addr: u64, size: u32) -> Result<usize, MemError> {
    let off = addr - SHARED_BASE;
    if off + size as u64 > layout.bytes as u64 {
        let nearest = layout.arrays.last().map(|(name, o, b, ty)| Nearest {
            name: name.clone(),
            base: SHARED_BASE + *o as u64,
            size: *b as u64,
            elem_size: ty.size(),
            distance: off as i64 - (*o as i64 + *b as i64),
        });
        return Err(MemError::OutOfBounds { space: Space::Shared, nearest });
    }
    if !off.is_multiple_of(size as u64) {
        return Err(MemError::Misaligned { space: Space::Shared });
    }
    Ok(off as usize)
}

#[inline]
pub fn shared_load(data: &[u8], off: usize, size: u32) -> u64 {
    read_le(&data[off..off + size as usize])
}

#[inline]
pub fn shared_store(data: &mut [u8], off: usize, size: u32, bits: u64) {
    write_le(&mut data[off..off + size as usize], bits)
}
