//! What the data path works on: the context of one warp's instruction ([`Ctx`]), with its register and
//! memory accesses (race detection, whole runs' touched ranges), and what an instruction reports ([`Effect`],
//! [`ExecError`], [`Note`]).

use crate::front::launch::Dim3;
use crate::front::tast::Special;
use crate::ir::{BranchSite, Kernel, Operand, Pc, Reg, Ty};
use crate::sim::lane_bits::DataPath;
use crate::sim::lane_mask::LaneMask;
use crate::sim::memory::{self, AccessKind, GlobalMemory, MemError, SharedLayout};
use crate::sim::race::{Access, Race, RaceShadow};
use crate::sim::traffic::{GlobalOp, WarpAccess};

/// What the instruction does to control flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Next,
    Jump(Pc),
    Branch {
        taken: LaneMask,
        then_pc: Pc,
        else_pc: Pc,
        reconv: Pc,
        site: BranchSite,
    },
    Exit,
    SyncThreads,
    /// `__syncwarp(mask)`: the lanes named (the executing lanes' mask operand).
    SyncWarp(LaneMask),
}

/// Why execution stopped in a lane.
#[derive(Clone, Debug, PartialEq)]
pub enum ExecError {
    Memory {
        lane: u32,
        access: AccessKind,
        size: u32,
        addr: u64,
        err: MemError,
    },
    DivideByZero {
        lane: u32,
    },
    /// `assert` found its condition false; `text` indexes the kernel's strings.
    Assert {
        lane: u32,
        text: u32,
    },
}

impl std::fmt::Display for ExecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExecError::Memory { lane, access, size, addr, err } => {
                write!(f, "lane {lane}: {}-byte {} at {addr:#x}: {err}", size, access.word())
            }
            ExecError::DivideByZero { lane } => write!(f, "lane {lane}: integer division by zero"),
            ExecError::Assert { lane, .. } => write!(f, "lane {lane}: assertion failed"),
        }
    }
}

impl std::error::Error for ExecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExecError::Memory { err, .. } => Some(err),
            _ => None,
        }
    }
}

/// Things worth telling the student that do not stop the machine.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// A shuffle read from a lane that was not executing it (undefined).
    ShuffleInactive {
        lane: u32,
        src: u32,
    },
    /// A `_sync` intrinsic named lanes that were not executing it.
    SyncMaskInactive {
        named: LaneMask,
        active: LaneMask,
    },
    Printf {
        lane: u32,
        text: String,
    },
    /// An atomic that changed memory (who last wrote a lock, for explanations).
    AtomicWrite {
        lane: u32,
        addr: u64,
    },
    SharedRace(Race),
    /// A global read of bytes nothing wrote (the initcheck of whole programs).
    UninitRead {
        lane: u32,
        addr: u64,
    },
    /// A whole run's warp read bytes nothing wrote in each lane of `lanes` (one note for the instruction: an
    /// `UninitRead` for each of those lanes); `addr` is the lowest such lane's.
    UninitReads {
        lanes: u32,
        addr: u64,
    },
    /// A whole run's atomic read bytes nothing wrote: which thread reads them first depends on the order, so
    /// the whole run refuses and the sequential run reports the uninitialised read.
    UnwrittenAtomic {
        lane: u32,
        addr: u64,
    },
    /// Whole programs: an out-of-bounds access a GPU does not trap (near an allocation, or in the padding
    /// of a block's shared memory) went on instead of faulting; `err` is the fault it would have been.
    /// Whole runs refuse on it, and the sequential run reports it.
    OutOfBounds {
        lane: u32,
        access: AccessKind,
        size: u32,
        addr: u64,
        err: MemError,
    },
    /// A launch from device code: kernel name (a [`Kernel::strings`] index), configuration, argument bits.
    Launch {
        lane: u32,
        kernel: u32,
        config: [u32; 7],
        args: Vec<u64>,
    },
}

/// Everything the data path touches.
pub struct Ctx<'a> {
    pub kernel: &'a Kernel,
    /// The block's registers: register `r` of thread `t` at `r * stride + t`.
    pub regs: &'a mut [u64],
    pub stride: usize,
    /// Thread index of lane 0 of this warp within the block.
    pub base: usize,
    pub shared: &'a mut [u8],
    pub layout: &'a SharedLayout,
    pub global: &'a mut GlobalMemory,
    pub block_idx: Dim3,
    pub block_dim: Dim3,
    pub grid_dim: Dim3,
    /// Set when a store or atomic changed a value (progress, for livelock detection).
    pub wrote: bool,
    pub notes: Vec<Note>,
    /// Shared-memory race detection: the block's shadow, its epochs, and whether warps run in lockstep.
    pub race: Option<RaceCtx<'a>>,
    /// The instruction executing (set by [`execute`]).
    pub pc: Pc,
    /// Shared-memory accesses of this instruction: (lane, byte offset), for bank-conflict counting.
    pub shared_accesses: Vec<(u32, u32)>,
    /// Global accesses of this instruction, for traffic counting (`sim::traffic`).
    pub global_access: WarpAccess,
    /// Whole runs on several cores: global memory is this view, shared with the other blocks' runs, instead
    /// of `global`; the global bytes this instruction touched are tracked in `touched`.
    pub par: Option<&'a crate::sim::shared_global::SharedGlobal>,
    /// `[lo, hi)` of the global bytes this instruction accessed (`lo > hi`: none), tracked with `par`.
    pub touched: Option<&'a mut Touched>,
    /// What `clock()` and the reducing barriers' results read ([`Instr::ReadCounter`]).
    pub counters: Counters,
    /// Which build of the data path runs.
    pub path: DataPath,
}

/// The machine's values an instruction may read (see [`crate::ir::Counter`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// `clock64()`: the machine's steps (issued instructions) before this one.
    pub clock: u64,
    /// The block's last reducing barrier: (threads whose predicate was non-zero, threads that arrived).
    pub barrier: (u32, u32),
}

/// The global byte ranges `[lo, hi)` one warp instruction accessed: at most one per lane, kept inline so the
/// step loop allocates nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Touched {
    ranges: [(u64, u64); 32],
    len: usize,
}

impl Touched {
    /// One lane accessed `[lo, hi)`: it extends the last range when it continues it (lanes run in ascending
    /// order, so a warp walking an array records one range).
    #[inline(always)]
    pub(super) fn add(&mut self, lo: u64, hi: u64) {
        if let Some(r) = self.ranges[..self.len].last_mut()
            && lo >= r.0
            && lo <= r.1 + TOUCH_GAP
        {
            r.1 = r.1.max(hi);
        } else if self.len < self.ranges.len() {
            self.ranges[self.len] = (lo, hi);
            self.len += 1;
        } else {
            // More accesses than lanes (not from one warp instruction): widen the last range, conservatively.
            let r = &mut self.ranges[self.len - 1];
            (r.0, r.1) = (r.0.min(lo), r.1.max(hi));
        }
    }

    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.ranges[..self.len]
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// Bytes between two lanes' accesses that still count as one range of `Ctx::touched` (a warp reading every
/// third byte, or every other int, records one range): the bytes between count as touched, which can only
/// refuse a parallel run, never change a result. Small, because a false refusal costs the whole run its
/// cores: a 2-D block's warp covers two image rows, and on an image 128 bytes wide the gap between them is
/// 112 bytes of other blocks' pixels.
pub(super) const TOUCH_GAP: u64 = 16;

/// The longest string printf's `%s` prints (a missing terminator stops here, not at the end of memory).
const MAX_PRINTF_STRING: u64 = 4096;

/// What race detection needs from the machine.
pub struct RaceCtx<'a> {
    pub shadow: &'a mut RaceShadow,
    pub block_epoch: u32,
    /// Each warp's `__syncwarp()` count.
    pub warp_epochs: &'a [u32],
    pub lockstep_warps: bool,
}

/// Whole runs record the shared bytes an instruction touched beside its global ones, at their offset plus
/// this (no global address comes near it), to check that a block's warps don't share them within a barrier
/// interval; they are not compared between blocks, each of which has its own.
pub const SHARED_TOUCH: u64 = 1 << 63;

impl Ctx<'_> {
    #[inline]
    pub(super) fn get(&self, o: Operand, lane: u32) -> u64 {
        match o {
            Operand::Imm(v) => v,
            Operand::Reg(r) => self.regs[r.0 as usize * self.stride + self.base + lane as usize],
        }
    }

    #[inline]
    pub(super) fn set(&mut self, r: Reg, lane: u32, v: u64) {
        self.regs[r.0 as usize * self.stride + self.base + lane as usize] = v;
    }

    pub(super) fn special(&self, s: Special, lane: u32) -> u64 {
        let tid = (self.base + lane as usize) as u32;
        let b = self.block_dim;
        let v = match s {
            Special::ThreadIdx(0) => tid % b.x,
            Special::ThreadIdx(1) => (tid / b.x) % b.y,
            Special::ThreadIdx(_) => tid / (b.x * b.y),
            Special::BlockIdx(a) => self.block_idx.as_array()[a as usize],
            Special::BlockDim(a) => b.as_array()[a as usize],
            Special::GridDim(a) => self.grid_dim.as_array()[a as usize],
        };
        v as u64
    }

    pub(super) fn check_race(&mut self, off: usize, size: u32, lane: u32, write: bool) {
        let pc = self.pc;
        let tid = (self.base + lane as usize) as u32;
        if let Some(rc) = &mut self.race {
            let warp_epoch = rc.warp_epochs[self.base / 32];
            let a = Access { tid, pc, write, block_epoch: rc.block_epoch, warp_epoch };
            if let Some(r) = rc.shadow.access(off as u32, size, a, rc.lockstep_warps) {
                self.notes.push(Note::SharedRace(r));
            }
        }
    }

    #[inline]
    pub(super) fn touch(&mut self, addr: u64, size: u32) {
        if let Some(t) = self.touched.as_deref_mut() {
            t.add(addr, addr + size as u64);
        }
    }

    /// Records the byte spans `[lo, hi)` an access touched, sorted by `lo` (a warp's runs of lanes).
    #[inline]
    pub(super) fn touch_spans(&mut self, spans: &[(u64, u64)]) {
        if let Some(t) = self.touched.as_deref_mut() {
            for &(lo, hi) in spans {
                t.add(lo, hi);
            }
        }
    }

    /// Records the bytes of a consecutive access (global, or shared at `SHARED_TOUCH`) as [`Ctx::touch`] lane
    /// by lane would: one range when no two neighbouring active lanes leave more than `TOUCH_GAP` bytes
    /// between them.
    #[inline(always)]
    pub(super) fn touch_elems(&mut self, start: u64, size: u32, mask: LaneMask) {
        let Some(t) = self.touched.as_deref_mut() else { return };
        let first = mask.0.trailing_zeros();
        let elems = mask.0 >> first;
        let top = u32::BITS - elems.leading_zeros();
        let mut cover = elems;
        for k in 1..=(TOUCH_GAP as u32 / size).min(31) {
            cover |= elems << k;
        }
        let upto = if top == 32 { u32::MAX } else { (1u32 << top) - 1 };
        if cover & upto == upto {
            t.add(start, start + (top * size) as u64);
        } else {
            for l in mask.iter() {
                let lo = start + ((l - first) * size) as u64;
                t.add(lo, lo + size as u64);
            }
        }
    }

    /// The NUL-terminated string at `addr` for printf's `%s` (at most `MAX_PRINTF_STRING` bytes), read
    /// without counting traffic or races: `None` where a byte is outside every allocation.
    pub(super) fn peek_string(&self, addr: u64) -> Option<Vec<u8>> {
        let mut out = vec![];
        for a in addr..addr.saturating_add(MAX_PRINTF_STRING) {
            let b = if memory::is_shared(a) {
                let off = memory::shared_offset(self.layout, a, 1).ok()?;
                memory::shared_load(self.shared, off, 1)
            } else if let Some(g) = self.par {
                g.load(a, 1).ok()?.0
            } else {
                self.global.load(a, 1).ok()?
            };
            if b == 0 {
                break;
            }
            out.push(b as u8);
        }
        Some(out)
    }

    pub(super) fn load(&mut self, addr: u64, ty: Ty, lane: u32, access: AccessKind) -> Result<u64, ExecError> {
        let size = ty.size();
        let fail = |err| ExecError::Memory { lane, access, size, addr, err };
        if memory::is_shared(addr) {
            let off = match memory::shared_offset(self.layout, addr, size) {
                Ok(off) => off,
                Err(err) => {
                    let off = self.shared_padding(addr, size, lane, access, err)?;
                    return Ok(memory::shared_load(self.shared, off, size));
                }
            };
            if access == AccessKind::Read {
                self.check_race(off, size, lane, false);
            }
            self.shared_accesses.push((lane, off as u32));
            self.touch(SHARED_TOUCH + off as u64, size);
            Ok(memory::shared_load(self.shared, off, size))
        } else if let Some(g) = self.par {
            self.global_access.lane(global_op(access, false), lane, addr, size);
            self.touch(addr, size);
            let (v, written) = g.load(addr, size).map_err(fail)?;
            if !written {
                self.notes.push(Note::UninitRead { lane, addr });
            }
            Ok(v)
        } else {
            self.global_access.lane(global_op(access, false), lane, addr, size);
            let v = match self.global.load(addr, size) {
                Ok(v) => v,
                Err(err) if self.global.in_padding(addr, size, &err) => {
                    self.notes.push(Note::OutOfBounds { lane, access, size, addr, err });
                    return Ok(self.global.padding.as_ref().map_or(0, |p| p.load(addr, size)));
                }
                Err(err) => return Err(fail(err)),
            };
            if let Some(init) = &self.global.init
                && !init.written(addr, size as u64)
            {
                self.notes.push(Note::UninitRead { lane, addr });
            }
            Ok(v)
        }
    }

    /// A whole run's atomic on global memory through `g`: one read-modify-write (`f` of the old value), since
    /// another core may update the same bytes; only atomics that commute get here (`sim::commute`). Counts
    /// what the sequential path's load and store count. Returns the old value.
    pub(super) fn atomic_global(
        &mut self,
        g: &crate::sim::shared_global::SharedGlobal,
        addr: u64,
        ty: Ty,
        lane: u32,
        x: u64,
        f: impl Fn(u64) -> u64,
    ) -> Result<u64, ExecError> {
        let size = ty.size();
        let fail = |err| ExecError::Memory { lane, access: AccessKind::Atomic, size, addr, err };
        self.global_access.lane(GlobalOp::Atomic, lane, addr, size);
        self.global_access.lane(GlobalOp::Atomic, lane, addr, size);
        self.touch(addr, size);
        let (old, written, changed) = g.update(addr, size, f).map_err(fail)?;
        if !written {
            self.notes.push(Note::UnwrittenAtomic { lane, addr });
        }
        self.wrote |= changed;
        g.note_atomic_sum(ty, old, x);
        Ok(old)
    }

    pub(super) fn store(
        &mut self,
        addr: u64,
        ty: Ty,
        bits: u64,
        lane: u32,
        access: AccessKind,
    ) -> Result<(), ExecError> {
        let size = ty.size();
        let fail = |err| ExecError::Memory { lane, access, size, addr, err };
        let bits = if size < 8 { bits & ((1u64 << (size * 8)) - 1) } else { bits };
        if memory::is_shared(addr) {
            let off = match memory::shared_offset(self.layout, addr, size) {
                Ok(off) => off,
                Err(err) => {
                    // (An atomic's load reported it.)
                    let off = if access == AccessKind::Atomic {
                        off_in_padding(self.layout, addr, size, err).map_err(fail)?
                    } else {
                        self.shared_padding(addr, size, lane, access, err)?
                    };
                    self.wrote |= memory::shared_load(self.shared, off, size) != bits;
                    memory::shared_store(self.shared, off, size, bits);
                    return Ok(());
                }
            };
            // Atomics are ordered among themselves: only plain writes race.
            if access == AccessKind::Write {
                self.check_race(off, size, lane, true);
                self.shared_accesses.push((lane, off as u32));
            }
            self.touch(SHARED_TOUCH + off as u64, size);
            if memory::shared_load(self.shared, off, size) != bits {
                self.wrote = true;
                memory::shared_store(self.shared, off, size, bits);
            }
            Ok(())
        } else if let Some(g) = self.par {
            self.global_access.lane(global_op(access, true), lane, addr, size);
            self.touch(addr, size);
            self.wrote |= g.store(addr, size, bits).map_err(fail)?;
            Ok(())
        } else {
            self.global_access.lane(global_op(access, true), lane, addr, size);
            let old = match self.global.load(addr, size) {
                Ok(v) => v,
                Err(err) if self.global.in_padding(addr, size, &err) => {
                    if access != AccessKind::Atomic {
                        self.notes.push(Note::OutOfBounds { lane, access, size, addr, err });
                    }
                    if let Some(p) = self.global.padding.as_deref_mut() {
                        self.wrote |= p.load(addr, size) != bits;
                        p.store(addr, size, bits);
                    }
                    return Ok(());
                }
                Err(err) => return Err(fail(err)),
            };
            if let Some(init) = &mut self.global.init {
                init.mark(addr, size as u64);
            }
            if old != bits {
                self.wrote = true;
                self.global.store(addr, size, bits).map_err(fail)?;
            }
            Ok(())
        }
    }
}

impl Ctx<'_> {
    /// A shared access that failed with `err`: its offset when it lies in the padding of the block's buffer
    /// (whole programs), noted as an out-of-bounds access a GPU does not trap; else the fault.
    fn shared_padding(
        &mut self,
        addr: u64,
        size: u32,
        lane: u32,
        access: AccessKind,
        err: MemError,
    ) -> Result<usize, ExecError> {
        let off = off_in_padding(self.layout, addr, size, err.clone()).map_err(|err| ExecError::Memory {
            lane,
            access,
            size,
            addr,
            err,
        })?;
        self.notes.push(Note::OutOfBounds { lane, access, size, addr, err });
        self.shared_accesses.push((lane, off as u32));
        self.touch(SHARED_TOUCH + off as u64, size);
        Ok(off)
    }
}

/// The offset of a shared access that failed with `err` when it lies in the block buffer's padding, else
/// `err`. (No race check there: the shadow covers the arrays only.)
fn off_in_padding(layout: &SharedLayout, addr: u64, size: u32, err: MemError) -> Result<usize, MemError> {
    let off = (addr - memory::SHARED_BASE) as usize;
    if layout.in_padding(off, size, &err) { Ok(off) } else { Err(err) }
}

/// The traffic kind of a global access.
#[inline(always)]
fn global_op(access: AccessKind, store: bool) -> GlobalOp {
    match access {
        AccessKind::Atomic => GlobalOp::Atomic,
        _ if store => GlobalOp::Store,
        _ => GlobalOp::Load,
    }
}
