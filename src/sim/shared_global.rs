//! Global memory during a whole run (`machine/parallel.rs`): the view the blocks on several threads share
//! ([`SharedGlobal`]), which the data path (`exec`) reads and writes through, and what puts it back when the
//! run's rule fails ([`Undo`]).

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use crate::front::launch::Launch;
use crate::sim::commute::ExactSums;
use crate::sim::lane_mask::LaneMask;
use crate::sim::memory::{GlobalMemory, MemError, Space};

/// The machine's global memory, shared by the blocks running on several threads. Every access is a relaxed
/// atomic of the access's size, so blocks that do touch the same bytes (a conflict, found afterwards) race
/// without undefined behaviour; their result is then thrown away.
pub struct SharedGlobal {
    allocs: Vec<RawAlloc>,
    /// Where the pages a store changes are saved first (a program's launch; None for a kernel file's, whose
    /// memory is made again from the launch).
    journal: Option<Arc<Journal>>,
    /// The run's floating-point atomic sums, which it keeps only when they are exact (`sim::commute`).
    sums: Mutex<ExactSums>,
}

struct RawAlloc {
    base: u64,
    bytes: u64,
    ptr: *mut u8,
    /// The machine's initcheck bits of the allocation (see [`crate::sim::memory::InitShadow::bits_mut`]); null when every
    /// byte was written before the launch or the allocation is not checked for uninitialised reads. Stores
    /// mark them; a read of a byte not marked is an uninitialised read (a hazard, as in the sequential run).
    /// A marked byte another block wrote is a conflict between blocks (found after the run); one its own block
    /// wrote was written before the read in the sequential run too, since a block's warps don't share bytes
    /// with a write within a barrier interval.
    init: *mut u64,
    /// The allocation's index in the machine's (and the journal's) list.
    index: usize,
}

impl RawAlloc {
    /// The initcheck words covering bytes `[off, off + len)`, each with the mask of those bytes in it.
    #[inline(always)]
    fn init_words(&self, off: u64, len: u64) -> impl Iterator<Item = (&AtomicU64, u64)> {
        let end = off + len;
        (off / 64..end.div_ceil(64)).map(move |w| {
            let lo = off.max(w * 64) - w * 64;
            let hi = end.min(w * 64 + 64) - w * 64;
            let mask = (u64::MAX >> (64 - (hi - lo))) << lo;
            // SAFETY: `init` has a bit for every byte of the allocation and `[off, end)` lies in it; the words
            // are only accessed atomically while the view exists.
            (unsafe { AtomicU64::from_ptr(self.init.add(w as usize)) }, mask)
        })
    }

    /// Whether bytes `[off, off + len)` were written, before the launch or by a store of this run.
    #[inline(always)]
    fn written(&self, off: u64, len: u64) -> bool {
        self.init.is_null() || self.init_words(off, len).all(|(w, m)| w.load(Ordering::Relaxed) & m == m)
    }

    /// Marks bytes `[off, off + len)` written.
    #[inline(always)]
    fn mark(&self, off: u64, len: u64) {
        if !self.init.is_null() {
            for (w, m) in self.init_words(off, len) {
                if w.load(Ordering::Relaxed) & m != m {
                    w.fetch_or(m, Ordering::Relaxed);
                }
            }
        }
    }
}

// SAFETY: the pointers address the machine's allocations, which stay in place and are only accessed through
// this view (atomically) while it exists (`Machine::run_parallel` holds the machine mutably borrowed).
unsafe impl Send for SharedGlobal {}
// SAFETY: as above; all accesses through a shared reference are atomic.
unsafe impl Sync for SharedGlobal {}

impl SharedGlobal {
    /// None when an allocation is not 8-byte aligned on the host (atomics need natural alignment). `undo`
    /// names the allocations not all written yet, whose initcheck bits the run marks and checks.
    pub fn new(mem: &mut GlobalMemory, undo: &Undo) -> Option<SharedGlobal> {
        let mut allocs = vec![];
        for (index, a) in mem.allocs.iter_mut().enumerate() {
            let ptr = a.data.as_mut_ptr();
            if !(ptr as usize).is_multiple_of(8) {
                return None;
            }
            let bytes = a.data.len() as u64;
            let unwritten = matches!(undo, Undo::Journal(_, init) if init.iter().any(|(base, _)| *base == a.base));
            let init = match mem.init.as_mut().filter(|_| unwritten).and_then(|s| s.bits_mut(a.base)) {
                Some(bits) => bits.as_mut_ptr(),
                None => std::ptr::null_mut(),
            };
            allocs.push(RawAlloc { base: a.base, bytes, ptr, init, index });
        }
        let journal = match undo {
            Undo::Launch => None,
            Undo::Journal(j, _) => Some(j.clone()),
        };
        Some(SharedGlobal { allocs, journal, sums: Mutex::default() })
    }

    /// Before bytes `[off, off + len)` of `a` change: saves the pages holding them that no store of this run
    /// changed yet.
    #[inline(always)]
    fn save(&self, a: &RawAlloc, off: u64, len: u64) {
        if let Some(j) = &self.journal {
            j.save(a, off, len);
        }
    }

    /// The host address of `size` bytes at `addr`. Errors say only that there is one (the launch is then run
    /// sequentially, which reports it properly).
    #[inline]
    fn locate(&self, addr: u64, size: u32) -> Result<(&RawAlloc, u64), MemError> {
        if !matches!(size, 1 | 2 | 4 | 8) {
            return Err(MemError::Null);
        }
        for a in &self.allocs {
            if addr >= a.base && addr + size as u64 <= a.base + a.bytes {
                if !addr.is_multiple_of(size as u64) {
                    return Err(MemError::Misaligned { space: Space::Global });
                }
                return Ok((a, addr - a.base));
            }
        }
        Err(MemError::Null)
    }

    /// The allocation holding the `count` consecutive `size`-byte elements at `addr`, and their offset in it;
    /// None unless all lie in one allocation, naturally aligned (then the caller goes lane by lane, which
    /// reports what is wrong).
    #[inline]
    fn locate_elems(&self, addr: u64, size: u32, count: u32) -> Option<(&RawAlloc, u64)> {
        let bytes = size as u64 * count as u64;
        let (a, off) = self.locate(addr, size).ok()?;
        (off + bytes <= a.bytes).then_some((a, off))
    }

    /// A warp's load of consecutive elements: `out[i] = element i` of the `size`-byte elements at `addr`, for
    /// each bit `i` of `elems`. None (nothing loaded) unless [`Self::locate_elems`] holds; else the elements
    /// with a byte nothing wrote (loaded all the same: an uninitialised read is a finding, not a fault).
    #[inline(always)]
    pub fn load_elems(&self, addr: u64, size: u32, elems: u32, out: &mut [u64]) -> Option<u32> {
        let count = u32::BITS - elems.leading_zeros();
        let (a, off) = self.locate_elems(addr, size, count)?;
        let unwritten = if a.written(off, size as u64 * count as u64) {
            0
        } else {
            LaneMask(elems)
                .iter()
                .filter(|&i| !a.written(off + (i * size) as u64, size as u64))
                .fold(0, |m, i| m | 1 << i)
        };
        // SAFETY: every element `i < count` is in bounds of the allocation (`locate_elems`) and aligned as in
        // `load`.
        let p = unsafe { a.ptr.add(off as usize) };
        // SAFETY: as above, for each element `i`.
        unsafe { load_lanes(elems, size, out, |i| p.add((i * size) as usize)) };
        Some(unwritten)
    }

    /// A warp's load of lane `l`'s `size` bytes at `addrs[l]` into `out[l]`, for each bit `l` of `lanes`, all
    /// between `span.0` and `span.1` (the lowest and highest address, each naturally aligned). None (nothing
    /// loaded) unless the span lies in one allocation; else the lanes that read a byte nothing wrote.
    #[inline(always)]
    pub fn load_gather(
        &self,
        addrs: &[u64; 32],
        lanes: u32,
        size: u32,
        span: (u64, u64),
        out: &mut [u64],
    ) -> Option<u32> {
        let (a, _) = self.locate(span.0, size).ok()?;
        if span.1 + size as u64 > a.base + a.bytes {
            return None;
        }
        let unwritten = if a.init.is_null() {
            0
        } else {
            LaneMask(lanes)
                .iter()
                .filter(|&l| !a.written(addrs[l as usize] - a.base, size as u64))
                .fold(0, |m, l| m | 1 << l)
        };
        // SAFETY: each lane's bytes lie in the allocation (between the span's ends) and are aligned.
        unsafe { load_lanes(lanes, size, out, |l| a.ptr.add((addrs[l as usize] - a.base) as usize)) };
        Some(unwritten)
    }

    /// A warp's store of consecutive elements (as [`Self::load_elems`]): element `i` becomes the low `size`
    /// bytes of `vals[i]`. None when not that case; else whether any byte changed.
    #[inline(always)]
    pub fn store_elems(&self, addr: u64, size: u32, elems: u32, vals: &[u64]) -> Option<bool> {
        let count = u32::BITS - elems.leading_zeros();
        let (a, off) = self.locate_elems(addr, size, count)?;
        for i in LaneMask(elems).iter() {
            a.mark(off + i as u64 * size as u64, size as u64);
        }
        // SAFETY: as in `load_elems`.
        let p = unsafe { a.ptr.add(off as usize) };
        // The elements that change.
        let mut changed = 0u32;
        macro_rules! each {
            ($atomic:ty, $prim:ty) => {{
                for i in LaneMask(elems).iter() {
                    // SAFETY: as in `load_elems`.
                    let e = unsafe { <$atomic>::from_ptr(p.cast::<$prim>().add(i as usize)) };
                    changed |= ((<$prim>::from_le(e.load(Ordering::Relaxed)) != vals[i as usize] as $prim) as u32) << i;
                }
                if changed != 0 {
                    let (lo, hi) = (changed.trailing_zeros() as u64, (u32::BITS - changed.leading_zeros()) as u64);
                    self.save(a, off + lo * size as u64, (hi - lo) * size as u64);
                }
                for i in LaneMask(changed).iter() {
                    // SAFETY: as in `load_elems`.
                    let e = unsafe { <$atomic>::from_ptr(p.cast::<$prim>().add(i as usize)) };
                    e.store((vals[i as usize] as $prim).to_le(), Ordering::Relaxed);
                }
            }};
        }
        match size {
            1 => each!(AtomicU8, u8),
            2 => each!(AtomicU16, u16),
            4 => each!(AtomicU32, u32),
            _ => each!(AtomicU64, u64),
        }
        Some(changed != 0)
    }

    /// A thread's read, and whether the bytes were written (before the launch or by this run; see
    /// [`RawAlloc::init`]).
    #[inline]
    pub fn load(&self, addr: u64, size: u32) -> Result<(u64, bool), MemError> {
        let (a, off) = self.locate(addr, size)?;
        // SAFETY: in bounds of the allocation (`locate`).
        let v = unsafe { atomic_load(a.ptr.add(off as usize), size) };
        Ok((v, a.written(off, size as u64)))
    }

    /// A thread's store: marks the bytes written and changes them; returns whether they changed.
    #[inline]
    pub fn store(&self, addr: u64, size: u32, bits: u64) -> Result<bool, MemError> {
        let (a, off) = self.locate(addr, size)?;
        a.mark(off, size as u64);
        // SAFETY: in bounds of the allocation (`locate`), aligned as in `load`.
        let p = unsafe { a.ptr.add(off as usize) };
        // SAFETY: as above.
        if unsafe { atomic_load(p, size) } == bits {
            return Ok(false);
        }
        self.save(a, off, size as u64);
        // SAFETY: as above.
        unsafe { atomic_store(p, size, bits) };
        Ok(true)
    }
}

impl SharedGlobal {
    /// A thread's atomic read-modify-write of `size` bytes at `addr`: they become `f(old)`, as one step
    /// whatever other cores do. Returns `old`, whether the bytes were written before, and whether they changed.
    #[inline]
    pub fn update(&self, addr: u64, size: u32, f: impl Fn(u64) -> u64) -> Result<(u64, bool, bool), MemError> {
        let (a, off) = self.locate(addr, size)?;
        let written = a.written(off, size as u64);
        a.mark(off, size as u64);
        // SAFETY: in bounds of the allocation (`locate`), aligned as in `load`.
        let p = unsafe { a.ptr.add(off as usize) };
        // SAFETY: as above.
        let mut old = unsafe { atomic_load(p, size) };
        loop {
            let new = f(old) & if size < 8 { (1u64 << (size * 8)) - 1 } else { u64::MAX };
            if new == old {
                return Ok((old, written, false));
            }
            self.save(a, off, size as u64);
            // SAFETY: as above.
            match unsafe { atomic_cas(p, size, old, new) } {
                Ok(()) => return Ok((old, written, true)),
                Err(now) => old = now,
            }
        }
    }

    /// A whole run's atomic of type `ty` (only commuting ones run here: sums, for floats) found `old` and
    /// added `x` (their bits); floating-point sums join the run's exactness check, shared memory's too.
    pub fn note_atomic_sum(&self, ty: crate::ir::Ty, old: u64, x: u64) {
        let (double, old, x) = match ty {
            crate::ir::Ty::F32 => (false, f32::from_bits(old as u32) as f64, f32::from_bits(x as u32) as f64),
            crate::ir::Ty::F64 => (true, f64::from_bits(old), f64::from_bits(x)),
            _ => return,
        };
        self.sums.lock().unwrap_or_else(|e| e.into_inner()).add(double, old, x);
    }

    /// Every floating-point atomic sum of the run is the same in any order.
    pub fn sums_exact(&self) -> bool {
        self.sums.lock().unwrap_or_else(|e| e.into_inner()).exact()
    }
}

/// Replaces the `size` bytes at `p` with `new` if they hold `old`; else returns what they hold.
///
/// # Safety
/// As [`atomic_load`].
#[inline]
unsafe fn atomic_cas(p: *mut u8, size: u32, old: u64, new: u64) -> Result<(), u64> {
    let (s, f) = (Ordering::Relaxed, Ordering::Relaxed);
    // SAFETY: the caller's promise.
    unsafe {
        match size {
            1 => AtomicU8::from_ptr(p).compare_exchange(old as u8, new as u8, s, f).map(drop).map_err(|v| v as u64),
            2 => AtomicU16::from_ptr(p.cast())
                .compare_exchange((old as u16).to_le(), (new as u16).to_le(), s, f)
                .map(drop)
                .map_err(|v| u16::from_le(v) as u64),
            4 => AtomicU32::from_ptr(p.cast())
                .compare_exchange((old as u32).to_le(), (new as u32).to_le(), s, f)
                .map(drop)
                .map_err(|v| u32::from_le(v) as u64),
            _ => AtomicU64::from_ptr(p.cast())
                .compare_exchange(old.to_le(), new.to_le(), s, f)
                .map(drop)
                .map_err(u64::from_le),
        }
    }
}

/// Loads the `size` bytes (little-endian) at `at(l)` into `out[l]` for each bit `l` of `lanes`: a warp's load
/// with the size chosen once, not per lane.
///
/// # Safety
/// Each `at(l)` points into a live allocation with `size` bytes there, aligned to `size`.
#[inline(always)]
unsafe fn load_lanes(lanes: u32, size: u32, out: &mut [u64], at: impl Fn(u32) -> *mut u8) {
    macro_rules! each {
        ($atomic:ty, $prim:ty) => {
            for l in LaneMask(lanes).iter() {
                // SAFETY: the caller's promise.
                let e = unsafe { <$atomic>::from_ptr(at(l).cast::<$prim>()) };
                out[l as usize] = <$prim>::from_le(e.load(Ordering::Relaxed)) as u64;
            }
        };
    }
    match size {
        1 => each!(AtomicU8, u8),
        2 => each!(AtomicU16, u16),
        4 => each!(AtomicU32, u32),
        _ => each!(AtomicU64, u64),
    }
}

/// Reads `size` (1, 2, 4 or 8) bytes at `p`, little-endian.
///
/// # Safety
/// `p` is valid for `size` bytes, aligned to `size`, and those bytes are only accessed atomically meanwhile.
#[inline]
unsafe fn atomic_load(p: *mut u8, size: u32) -> u64 {
    // SAFETY: the caller's promise.
    unsafe {
        match size {
            1 => AtomicU8::from_ptr(p).load(Ordering::Relaxed) as u64,
            2 => u16::from_le(AtomicU16::from_ptr(p.cast()).load(Ordering::Relaxed)) as u64,
            4 => u32::from_le(AtomicU32::from_ptr(p.cast()).load(Ordering::Relaxed)) as u64,
            _ => u64::from_le(AtomicU64::from_ptr(p.cast()).load(Ordering::Relaxed)),
        }
    }
}

/// Writes the low `size` bytes of `bits` at `p`, little-endian.
///
/// # Safety
/// As [`atomic_load`].
#[inline]
unsafe fn atomic_store(p: *mut u8, size: u32, bits: u64) {
    // SAFETY: the caller's promise.
    unsafe {
        match size {
            1 => AtomicU8::from_ptr(p).store(bits as u8, Ordering::Relaxed),
            2 => AtomicU16::from_ptr(p.cast()).store((bits as u16).to_le(), Ordering::Relaxed),
            4 => AtomicU32::from_ptr(p.cast()).store((bits as u32).to_le(), Ordering::Relaxed),
            _ => AtomicU64::from_ptr(p.cast()).store(bits.to_le(), Ordering::Relaxed),
        }
    }
}

/// Bytes of a page the journal saves whole.
const PAGE: u64 = 4096;

/// The pages of a program's device memory that a whole run changed, as they were before: a store saves a page
/// before it first changes it (and one finding it being saved waits), so putting them back gives the memory
/// before the run, whatever the run did.
pub struct Journal {
    /// Per allocation, per page: `FREE`, `SAVING` or `SAVED`.
    state: Vec<Box<[AtomicU8]>>,
    saved: Mutex<Vec<SavedPage>>,
}

/// (allocation, page, its bytes before the run: none for a page that was all zero).
type SavedPage = (usize, u64, Box<[u8]>);

const FREE: u8 = 0;
const SAVING: u8 = 1;
const SAVED: u8 = 2;

impl Journal {
    fn new(sizes: impl Iterator<Item = u64>) -> Journal {
        let state = sizes.map(|b| (0..b.div_ceil(PAGE)).map(|_| AtomicU8::new(FREE)).collect()).collect();
        Journal { state, saved: Mutex::new(vec![]) }
    }

    /// Saves the pages of bytes `[off, off + len)` of `a` not saved yet, before a store changes them.
    #[inline(always)]
    fn save(&self, a: &RawAlloc, off: u64, len: u64) {
        let states = &self.state[a.index];
        for page in off / PAGE..(off + len).div_ceil(PAGE) {
            let st = &states[page as usize];
            if st.load(Ordering::Acquire) == SAVED {
                continue;
            }
            self.save_page(a, page, st);
        }
    }

    #[cold]
    fn save_page(&self, a: &RawAlloc, page: u64, st: &AtomicU8) {
        if st.compare_exchange(FREE, SAVING, Ordering::Acquire, Ordering::Acquire).is_ok() {
            let start = page * PAGE;
            let len = PAGE.min(a.bytes - start) as usize;
            // SAFETY: the page lies in the allocation; no store changes it until it is SAVED (every store saves
            // first, and waits below while another thread does), so the reads race with reads only.
            let before = unsafe { std::slice::from_raw_parts(a.ptr.add(start as usize), len) };
            // A page still zero (an output array as `cudaMalloc` made it) is saved as nothing: a 1 GiB result
            // no longer costs a second GiB.
            let bytes: Box<[u8]> = if before.iter().all(|&b| b == 0) { Box::default() } else { before.into() };
            self.saved.lock().unwrap_or_else(|e| e.into_inner()).push((a.index, page, bytes));
            st.store(SAVED, Ordering::Release);
        } else {
            while st.load(Ordering::Acquire) != SAVED {
                std::hint::spin_loop();
            }
        }
    }
}

/// How global memory is put back when a whole run's rule fails ([`Undo::point`]).
pub enum Undo {
    /// Made again from the launch (a kernel file's arrays).
    Launch,
    /// The pages of a program's device memory the run changed, as they were before it (saved by the stores
    /// that changed them), and the initcheck bits of the allocations the run may mark (not all written yet),
    /// by base address: the ones `SharedGlobal` marks.
    Journal(Arc<Journal>, Vec<(u64, Vec<u64>)>),
}

impl Undo {
    /// What puts `global` back as it was before a whole run, should a rule fail: a kernel file's launch
    /// (`from_launch`: the memory is the launch's own) makes it again (cheaper than saving pages, which the
    /// accepted runs, nearly all of them, would pay for); a program's launch, whose memory the host made,
    /// saves each page before a store first changes it (a copy of all of it cost a launch over 3 GiB of arrays
    /// a second, most of it for arrays it only read).
    pub fn point(global: &GlobalMemory, from_launch: bool) -> Undo {
        if from_launch {
            Undo::Launch
        } else {
            let journal = Journal::new(global.allocs.iter().map(|a| a.data.len() as u64));
            let init = global.init.as_ref().map_or(vec![], |s| s.unwritten_copies());
            Undo::Journal(Arc::new(journal), init)
        }
    }

    /// Puts `global`, the memory of `launch`, back (no view of it may be left).
    pub fn restore(self, global: &mut GlobalMemory, launch: &Launch) {
        match self {
            Undo::Launch => *global = GlobalMemory::from_launch(launch).0,
            Undo::Journal(journal, init) => {
                let saved = std::mem::take(&mut *journal.saved.lock().unwrap_or_else(|e| e.into_inner()));
                for (alloc, page, bytes) in saved {
                    let data = &mut global.allocs[alloc].data;
                    let at = page as usize * PAGE as usize;
                    let len = (data.len() - at).min(PAGE as usize);
                    if bytes.is_empty() {
                        data[at..at + len].fill(0);
                    } else {
                        data[at..at + len].copy_from_slice(&bytes);
                    }
                }
                if let Some(shadow) = global.init.as_mut() {
                    shadow.restore(init);
                }
            }
        }
    }
}
