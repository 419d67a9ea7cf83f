//! Host memory, checked like AddressSanitizer: every allocation (heap, stack, string literal) has an id, a
//! kind and the line that made it; addresses are never inside two allocations, a guard gap follows each, and
//! a freed block keeps its record so that a later access is reported as a use after free.

use crate::sim::Zeroed;

/// Host allocations start here (far from device memory at `sim::memory::GLOBAL_BASE`).
pub const HOST_BASE: u64 = 0x5555_0000_0000;
/// Unused bytes after each allocation.
const GUARD: u64 = 64;
/// How many bytes the program may hold at once when nothing else says (`Interp::new` makes it four times
/// `--memory-cap`): a request past it fails as glibc's does when the machine has no more, and warpdbg itself
/// never asks its allocator for memory the program cannot get.
pub const DEFAULT_HOST_CAP: u64 = 16 << 30;

/// What made an allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocKind {
    /// `malloc`/`calloc`.
    Heap,
    /// A local array, or a local whose address is taken.
    Stack,
    /// A string literal.
    Literal,
    /// Pinned host memory from `cudaMallocHost`/`cudaHostAlloc` (the device reaches it too).
    Pinned,
    /// Managed memory from `cudaMallocManaged` (host and device share it).
    Managed,
}

/// One host allocation.
#[derive(Clone, Debug)]
pub struct HostAlloc {
    pub base: u64,
    pub size: u64,
    /// Its bytes, pages backed as they are written (large allocations: [`Zeroed`]).
    pub data: Zeroed,
    pub kind: AllocKind,
    /// The variable it was made for (`h_a`), for messages.
    pub name: String,
    /// 1-based line that made it.
    pub line: u32,
    /// The line that freed it.
    pub freed: Option<u32>,
}

/// Why a host access failed.
#[derive(Clone, Debug, PartialEq)]
pub enum MemFault {
    Null,
    /// Outside allocation `alloc`, `offset` bytes from its start.
    OutOfBounds {
        alloc: usize,
        offset: i64,
    },
    UseAfterFree {
        alloc: usize,
    },
    /// In no host allocation at all (perhaps a device address).
    Wild,
}

impl std::fmt::Display for MemFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemFault::Null => f.write_str("an access through a null pointer"),
            MemFault::OutOfBounds { alloc, offset } => {
                write!(f, "an access {offset} bytes from the start of host allocation {alloc}, outside it")
            }
            MemFault::UseAfterFree { alloc } => write!(f, "an access to host allocation {alloc} after it was freed"),
            MemFault::Wild => f.write_str("an access to no host allocation"),
        }
    }
}

impl std::error::Error for MemFault {}

/// The program's host memory.
#[derive(Clone, Debug)]
pub struct HostMemory {
    pub allocs: Vec<HostAlloc>,
    next: u64,
    /// The allocations accessed most recently, newest first (a loop over `a[i] * b[i]` into `c[i]` finds
    /// each of its three here).
    recent: [usize; 4],
    /// How many allocations have been freed (compiled loops drop the addresses they keep when it changes).
    pub frees: u64,
    /// Bytes of the allocations not yet freed, and the most they may reach ([`HostMemory::fits`]).
    pub live: u64,
    pub cap: u64,
}

impl Default for HostMemory {
    fn default() -> Self {
        HostMemory {
            allocs: vec![],
            next: HOST_BASE,
            recent: [usize::MAX; 4],
            frees: 0,
            live: 0,
            cap: DEFAULT_HOST_CAP,
        }
    }
}

impl HostMemory {
    /// Whether `size` more bytes stay within the cap (`malloc` returns NULL otherwise).
    pub fn fits(&self, size: u64) -> bool {
        size <= self.cap.saturating_sub(self.live)
    }

    /// A new zeroed allocation of `size` bytes; its address.
    pub fn alloc(&mut self, size: u64, kind: AllocKind, name: &str, line: u32) -> u64 {
        let base = self.next;
        self.next = (base + size.max(1) + GUARD).next_multiple_of(16);
        let data = Zeroed::new(size as usize);
        self.live = self.live.saturating_add(size);
        self.allocs.push(HostAlloc { base, size, data, kind, name: name.to_string(), line, freed: None });
        base
    }

    /// The allocation that starts exactly at `addr`.
    pub fn at_base(&self, addr: u64) -> Option<usize> {
        self.allocs.binary_search_by_key(&addr, |a| a.base).ok()
    }

    /// Frees allocation `i`; the last stack allocation is reclaimed (its addresses are used again).
    pub fn release(&mut self, i: usize, line: u32) {
        self.frees += 1;
        self.live = self.live.saturating_sub(self.allocs[i].size);
        if i + 1 == self.allocs.len() && self.allocs[i].kind == AllocKind::Stack {
            self.next = self.allocs[i].base;
            self.allocs.pop();
            self.recent = [usize::MAX; 4];
            return;
        }
        let a = &mut self.allocs[i];
        a.freed = Some(line);
        a.data = Zeroed::default();
    }

    /// The allocation index and offset of `size` bytes at `addr`.
    #[inline]
    pub fn locate(&mut self, addr: u64, size: u64) -> Result<(usize, usize), MemFault> {
        // Saturating: an access whose end passes 2^64 (`memcpy(d, s, -1)`, a wild pointer near the top) must
        // not wrap around into looking like one that fits.
        let end = addr.saturating_add(size);
        for k in 0..self.recent.len() {
            let i = self.recent[k];
            if let Some(a) = self.allocs.get(i)
                && a.freed.is_none()
                && addr >= a.base
                && end <= a.base + a.size
            {
                if k > 0 {
                    self.recent.copy_within(0..k, 1);
                    self.recent[0] = i;
                }
                return Ok((i, (addr - a.base) as usize));
            }
        }
        if addr < 4096 {
            return Err(MemFault::Null);
        }
        // The allocation starting at or before `addr`.
        let i = match self.allocs.binary_search_by_key(&addr, |a| a.base) {
            Ok(i) => i,
            Err(0) => return Err(MemFault::Wild),
            Err(i) => i - 1,
        };
        let a = &self.allocs[i];
        if a.freed.is_some() && addr < a.base + a.size.max(1) {
            return Err(MemFault::UseAfterFree { alloc: i });
        }
        if end <= a.base + a.size {
            self.recent.copy_within(0..3, 1);
            self.recent[0] = i;
            return Ok((i, (addr - a.base) as usize));
        }
        if addr < a.base + a.size + GUARD {
            return Err(MemFault::OutOfBounds { alloc: i, offset: (addr - a.base) as i64 });
        }
        // Just before the next allocation?
        if let Some(b) = self.allocs.get(i + 1)
            && b.base - addr <= GUARD
        {
            return Err(MemFault::OutOfBounds { alloc: i + 1, offset: addr as i64 - b.base as i64 });
        }
        if addr >= HOST_BASE && addr < self.next {
            return Err(MemFault::OutOfBounds { alloc: i, offset: (addr - a.base) as i64 });
        }
        Err(MemFault::Wild)
    }

    #[inline]
    pub fn load(&mut self, addr: u64, size: u32) -> Result<u64, MemFault> {
        let (i, off) = self.locate(addr, size as u64)?;
        let d = &self.allocs[i].data[off..];
        // One fixed-size read per size: host loops load an element per iteration.
        Ok(match size {
            1 => d[0] as u64,
            2 => u16::from_le_bytes([d[0], d[1]]) as u64,
            4 => u32::from_le_bytes(d[..4].try_into().expect("4 bytes")) as u64,
            8 => u64::from_le_bytes(d[..8].try_into().expect("8 bytes")),
            n => {
                let mut v = [0u8; 8];
                v[..n as usize].copy_from_slice(&d[..n as usize]);
                u64::from_le_bytes(v)
            }
        })
    }

    #[inline]
    pub fn store(&mut self, addr: u64, size: u32, bits: u64) -> Result<(), MemFault> {
        let (i, off) = self.locate(addr, size as u64)?;
        let d = &mut self.allocs[i].data[off..];
        match size {
            4 => d[..4].copy_from_slice(&(bits as u32).to_le_bytes()),
            8 => d[..8].copy_from_slice(&bits.to_le_bytes()),
            n => d[..n as usize].copy_from_slice(&bits.to_le_bytes()[..n as usize]),
        }
        Ok(())
    }

    /// `len` bytes at `addr` (checked as one access).
    pub fn bytes(&mut self, addr: u64, len: u64) -> Result<&mut [u8], MemFault> {
        if len == 0 {
            return Ok(&mut []);
        }
        let (i, off) = self.locate(addr, len)?;
        Ok(&mut self.allocs[i].data[off..off + len as usize])
    }

    /// The NUL-terminated string at `addr` (at most 1 MiB).
    pub fn c_string(&mut self, addr: u64) -> Result<Vec<u8>, MemFault> {
        let (i, off) = self.locate(addr, 1)?;
        let data = &self.allocs[i].data[off..];
        match data.iter().take(1 << 20).position(|&b| b == 0) {
            Some(n) => Ok(data[..n].to_vec()),
            None => Err(MemFault::OutOfBounds { alloc: i, offset: self.allocs[i].size as i64 }),
        }
    }
}
