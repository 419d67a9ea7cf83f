//! Executes one instruction for a set of lanes of one warp: the data path, independent of how the execution
//! model picked those lanes. Control flow comes back as an [`Effect`] for the model to apply.

mod wide;

pub use wide::{Uniform, WideLanes, execute_wide};

use super::alu;
use super::decoded::{Alu, Op, Row};
use super::lane_mask::{ActiveLanes, LaneMask};
use super::memory::{self, AccessKind, GlobalMemory, MemError, SharedLayout};
use super::race::{Access, Race, RaceShadow};
use crate::front::launch::Dim3;
use crate::front::tast::BarrierReduce;
use crate::front::tast::{AtomicOp, ShflKind, Special, VoteKind};
use crate::ir::{BranchSite, Counter, Instr, Kernel, Operand, Pc, Reg, Ty};

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
    /// Whole runs on several cores: global memory is this view, shared with the other blocks' runs, instead
    /// of `global`; the global bytes this instruction touched are tracked in `touched`.
    pub par: Option<&'a super::shared_global::SharedGlobal>,
    /// `[lo, hi)` of the global bytes this instruction accessed (`lo > hi`: none), tracked with `par`.
    pub touched: Option<&'a mut Touched>,
    /// What `clock()` and the reducing barriers' results read ([`Instr::ReadCounter`]).
    pub counters: Counters,
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
    fn add(&mut self, lo: u64, hi: u64) {
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
const TOUCH_GAP: u64 = 16;

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
    fn get(&self, o: Operand, lane: u32) -> u64 {
        match o {
            Operand::Imm(v) => v,
            Operand::Reg(r) => self.regs[r.0 as usize * self.stride + self.base + lane as usize],
        }
    }

    #[inline]
    fn set(&mut self, r: Reg, lane: u32, v: u64) {
        self.regs[r.0 as usize * self.stride + self.base + lane as usize] = v;
    }

    fn special(&self, s: Special, lane: u32) -> u64 {
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

    fn check_race(&mut self, off: usize, size: u32, lane: u32, write: bool) {
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
    fn touch(&mut self, addr: u64, size: u32) {
        if let Some(t) = self.touched.as_deref_mut() {
            t.add(addr, addr + size as u64);
        }
    }

    fn load(&mut self, addr: u64, ty: Ty, lane: u32, access: AccessKind) -> Result<u64, ExecError> {
        let size = ty.size();
        let fail = |err| ExecError::Memory { lane, access, size, addr, err };
        if memory::is_shared(addr) {
            let off = memory::shared_offset(self.layout, addr, size).map_err(fail)?;
            if access == AccessKind::Read {
                self.check_race(off, size, lane, false);
            }
            self.shared_accesses.push((lane, off as u32));
            self.touch(SHARED_TOUCH + off as u64, size);
            Ok(memory::shared_load(self.shared, off, size))
        } else if let Some(g) = self.par {
            self.touch(addr, size);
            let (v, written) = g.load(addr, size).map_err(fail)?;
            if !written {
                self.notes.push(Note::UninitRead { lane, addr });
            }
            Ok(v)
        } else {
            let v = self.global.load(addr, size).map_err(fail)?;
            if let Some(init) = &self.global.init
                && !init.written(addr, size as u64)
            {
                self.notes.push(Note::UninitRead { lane, addr });
            }
            Ok(v)
        }
    }

    fn store(&mut self, addr: u64, ty: Ty, bits: u64, lane: u32, access: AccessKind) -> Result<(), ExecError> {
        let size = ty.size();
        let fail = |err| ExecError::Memory { lane, access, size, addr, err };
        let bits = if size < 8 { bits & ((1u64 << (size * 8)) - 1) } else { bits };
        if memory::is_shared(addr) {
            let off = memory::shared_offset(self.layout, addr, size).map_err(fail)?;
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
            self.touch(addr, size);
            self.wrote |= g.store(addr, size, bits).map_err(fail)?;
            Ok(())
        } else {
            let old = self.global.load(addr, size).map_err(fail)?;
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

/// Executes the instruction at `pc` for the lanes in `mask` (ascending lane order where order matters:
/// atomics and printf).
#[inline]
pub fn execute(ctx: &mut Ctx, pc: Pc, mask: LaneMask) -> Result<Effect, ExecError> {
    #[cfg(target_arch = "x86_64")]
    if crate::sim::lane_bits::use_avx2() {
        // SAFETY: the CPU has AVX2 (`use_avx2` checked).
        return unsafe { execute_avx2(ctx, pc, mask) };
    }
    execute_here(ctx, pc, mask)
}

/// [`execute`] compiled for AVX2: the lane loops are 32 lanes of 64 bits, and x86-64's baseline (SSE2) has no
/// 64-bit lane compares, selects or variable shifts, so its loops run a lane or two at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn execute_avx2(ctx: &mut Ctx, pc: Pc, mask: LaneMask) -> Result<Effect, ExecError> {
    execute_here(ctx, pc, mask)
}

#[inline(always)]
fn execute_here(ctx: &mut Ctx, pc: Pc, mask: LaneMask) -> Result<Effect, ExecError> {
    // The selects, built only for the instructions that read them (a single step issues every kind).
    macro_rules! act {
        () => {
            &ActiveLanes::new(mask)
        };
    }
    let kernel = ctx.kernel;
    ctx.pc = pc;
    let instr = &kernel.instrs[pc.0 as usize];
    match instr {
        Instr::Mov { dst, src } => map1(ctx, act!(), *dst, *src, |x| x),
        Instr::Unary { op, ty, dst, src } => {
            let (op, ty) = (*op, *ty);
            map1(ctx, act!(), *dst, *src, |x| alu::unary(op, ty, x))
        }
        Instr::Binary { op, ty, dst, a, b } => {
            use crate::ir::ArithOp as O;
            let (d, a, b) = (*dst, *a, *b);
            // The common integer and float operations get their own loops; the rest (and everything that can
            // divide by zero) goes through the general ALU.
            match (op, ty) {
                (O::Add, Ty::I32 | Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).wrapping_add(y as u32) as u64)
                }
                (O::Sub, Ty::I32 | Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).wrapping_sub(y as u32) as u64)
                }
                (O::Mul, Ty::I32 | Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).wrapping_mul(y as u32) as u64)
                }
                (O::And, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 & y as u32) as u64),
                (O::Or, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 | y as u32) as u64),
                (O::Xor, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 ^ y as u32) as u64),
                (O::Shl, Ty::I32 | Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).checked_shl(y as u32).unwrap_or(0) as u64)
                }
                (O::Shr, Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).checked_shr(y as u32).unwrap_or(0) as u64)
                }
                (O::Shr, Ty::I32) => {
                    map2(ctx, act!(), d, a, b, |x, y| ((x as u32 as i32) >> (y as u32).min(31)) as u32 as u64)
                }
                (O::Div | O::Rem, Ty::U32) => divide_u32(ctx, act!(), d, a, b, *op == O::Rem)?,
                (O::Add, Ty::F32) => map2(ctx, act!(), d, a, b, |x, y| f32op(x, y, |p, q| p + q)),
                (O::Sub, Ty::F32) => map2(ctx, act!(), d, a, b, |x, y| f32op(x, y, |p, q| p - q)),
                (O::Mul, Ty::F32) => map2(ctx, act!(), d, a, b, |x, y| f32op(x, y, |p, q| p * q)),
                (O::Div, Ty::F32) => map2(ctx, act!(), d, a, b, |x, y| f32op(x, y, |p, q| p / q)),
                _ => {
                    for l in mask.iter() {
                        let v = alu::binary(*op, *ty, ctx.get(a, l), ctx.get(b, l))
                            .map_err(|_| ExecError::DivideByZero { lane: l })?;
                        ctx.set(d, l, v);
                    }
                }
            }
        }
        Instr::Cmp { op, ty, dst, a, b } => {
            use crate::ir::CmpOp as C;
            let (d, a, b) = (*dst, *a, *b);
            match (op, ty) {
                (C::Lt, Ty::I32) => map2(ctx, act!(), d, a, b, |x, y| ((x as u32 as i32) < (y as u32 as i32)) as u64),
                (C::Lt, Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| ((x as u32) < (y as u32)) as u64),
                (C::Ge, Ty::I32) => map2(ctx, act!(), d, a, b, |x, y| ((x as u32 as i32) >= (y as u32 as i32)) as u64),
                (C::Ge, Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| ((x as u32) >= (y as u32)) as u64),
                (C::Eq, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 == y as u32) as u64),
                (C::Ne, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 != y as u32) as u64),
                _ => {
                    let (op, ty) = (*op, *ty);
                    map2(ctx, act!(), d, a, b, |x, y| alu::compare(op, ty, x, y) as u64)
                }
            }
        }
        Instr::Convert { from, to, dst, src } => {
            let (from, to) = (*from, *to);
            map1(ctx, act!(), *dst, *src, |x| alu::convert(from, to, x))
        }
        Instr::PtrAdd { dst, base, index, index_signed, scale } => {
            let scale = *scale;
            if *index_signed {
                map2(ctx, act!(), *dst, *base, *index, |p, i| {
                    p.wrapping_add((i as u32 as i32 as i64).wrapping_mul(scale) as u64)
                })
            } else {
                map2(ctx, act!(), *dst, *base, *index, |p, i| {
                    p.wrapping_add((i as u32 as i64).wrapping_mul(scale) as u64)
                })
            }
        }
        Instr::PtrDiff { dst, a, b, elem_size } => {
            let es = *elem_size as i64;
            map2(ctx, act!(), *dst, *a, *b, |x, y| (x.wrapping_sub(y) as i64 / es) as i32 as u32 as u64)
        }
        Instr::Special { dst, which } => special(ctx, act!(), *dst, *which),
        Instr::SharedAddr { dst, array } => {
            let addr = ctx.layout.address(*array);
            for l in mask.iter() {
                ctx.set(*dst, l, addr);
            }
        }
        Instr::Load { ty, dst, addr }
            if ctx.par.is_some()
                && (load_elems(ctx, act!(), ty.size(), *dst, *addr)
                    || load_gather(ctx, act!(), ty.size(), *dst, *addr)) => {}
        Instr::Store { ty, addr, src } if ctx.par.is_some() && store_elems(ctx, act!(), ty.size(), *addr, *src) => {}
        Instr::Load { ty, dst, addr } => {
            for l in mask.iter() {
                let a = ctx.get(*addr, l);
                let v = ctx.load(a, *ty, l, AccessKind::Read)?;
                ctx.set(*dst, l, v);
            }
        }
        Instr::Store { ty, addr, src } => {
            for l in mask.iter() {
                let (a, v) = (ctx.get(*addr, l), ctx.get(*src, l));
                ctx.store(a, *ty, v, l, AccessKind::Write)?;
            }
        }
        Instr::Atomic { op, ty, dst, addr, a, b } => {
            for l in mask.iter() {
                let at = ctx.get(*addr, l);
                let old = ctx.load(at, *ty, l, AccessKind::Atomic)?;
                let (x, y) = (ctx.get(*a, l), ctx.get(*b, l));
                let new = atomic(*op, *ty, old, x, y);
                if new != old {
                    ctx.notes.push(Note::AtomicWrite { lane: l, addr: at });
                }
                ctx.store(at, *ty, new, l, AccessKind::Atomic)?;
                ctx.set(*dst, l, old);
            }
        }
        Instr::SyncThreads { .. } => return Ok(Effect::SyncThreads),
        Instr::ReadCounter { dst, which } => {
            let (count, arrived) = ctx.counters.barrier;
            let v = match which {
                Counter::Clock => ctx.counters.clock as u32 as i32 as i64 as u64,
                Counter::Clock64 => ctx.counters.clock,
                Counter::Barrier(BarrierReduce::Count) => count as u64,
                Counter::Barrier(BarrierReduce::And) => (count == arrived) as u64,
                Counter::Barrier(BarrierReduce::Or) => (count > 0) as u64,
            };
            for l in mask.iter() {
                ctx.set(*dst, l, v);
            }
        }
        Instr::SyncWarp { mask: m } => return Ok(Effect::SyncWarp(named_lanes(ctx, *m, mask))),
        Instr::Fence => {}
        Instr::CheckBounds { dst, index, base, len, elem_size, name } => {
            for l in mask.iter() {
                let i = ctx.get(*index, l);
                // An index is checked as unsigned: a negative one is a huge one.
                let i32_index = i as u32 as i32 as i64;
                if i as u32 >= *len {
                    let b = ctx.get(*base, l);
                    let bytes = *len as u64 * *elem_size as u64;
                    let addr = b.wrapping_add((i32_index * *elem_size as i64) as u64);
                    let distance = addr.wrapping_sub(b) as i64 - if i32_index >= 0 { bytes as i64 } else { 0 };
                    let var = ctx.kernel.strings.get(*name as usize).cloned().unwrap_or_default();
                    let nearest =
                        Some(memory::Nearest { name: var, base: b, size: bytes, elem_size: *elem_size, distance });
                    let err = memory::MemError::OutOfBounds { space: memory::Space::Local, nearest };
                    return Err(ExecError::Memory { lane: l, access: AccessKind::Read, size: *elem_size, addr, err });
                }
                ctx.set(*dst, l, i);
            }
        }
        Instr::CheckAlign { addr, align, bytes, write } => {
            for l in mask.iter() {
                let at = ctx.get(*addr, l);
                if !at.is_multiple_of(*align as u64) {
                    let space = if memory::is_shared(at) { memory::Space::Shared } else { memory::Space::Global };
                    let access = if *write { AccessKind::Write } else { AccessKind::Read };
                    let err = memory::MemError::Misaligned { space };
                    return Err(ExecError::Memory { lane: l, access, size: *bytes, addr: at, err });
                }
            }
        }
        Instr::Shfl { kind, ty: _, dst, mask: m, value, lane, width } => {
            let mut out = [0u64; 32];
            for l in mask.iter() {
                let w = (ctx.get(*width, l) as u32).clamp(1, 32).next_power_of_two().min(32);
                let seg = l & !(w - 1);
                let arg = ctx.get(*lane, l) as u32;
                let src = match kind {
                    ShflKind::Idx => seg + (arg % w),
                    ShflKind::Up => {
                        if l >= seg + arg && arg < 32 {
                            l - arg
                        } else {
                            l
                        }
                    }
                    ShflKind::Down => {
                        let s = l as u64 + arg as u64;
                        if s < (seg + w) as u64 { s as u32 } else { l }
                    }
                    ShflKind::Xor => {
                        let s = l ^ (arg & 31);
                        if s >= seg + w { l } else { s }
                    }
                };
                if !mask.contains(src) {
                    ctx.notes.push(Note::ShuffleInactive { lane: l, src });
                }
                out[l as usize] = ctx.get(*value, src);
            }
            check_sync_mask(ctx, *m, mask);
            for l in mask.iter() {
                ctx.set(*dst, l, out[l as usize]);
            }
        }
        Instr::Vote { kind, dst, mask: m, pred } => {
            check_sync_mask(ctx, *m, mask);
            let mut all = 0u32;
            for l in mask.iter() {
                if ctx.get(*pred, l) != 0 {
                    all |= 1 << l;
                }
            }
            // Each lane votes with the lanes its own mask names (a tile's lanes differ from the next tile's).
            for l in mask.iter() {
                let voters = LaneMask(ctx.get(*m, l) as u32).and(mask);
                let ballot = all & voters.0;
                let v = match kind {
                    VoteKind::Ballot => ballot as u64,
                    VoteKind::Any => (ballot != 0) as u64,
                    VoteKind::All => (ballot == voters.0) as u64,
                };
                ctx.set(*dst, l, v);
            }
        }
        Instr::ActiveMask { dst } => {
            for l in mask.iter() {
                ctx.set(*dst, l, mask.0 as u64);
            }
        }
        Instr::Math { func, ty, dst, a, b } => {
            for l in mask.iter() {
                let v = alu::math(*func, *ty, ctx.get(*a, l), ctx.get(*b, l));
                ctx.set(*dst, l, v);
            }
        }
        Instr::Fma { ty, dst, a, b, c } => {
            for l in mask.iter() {
                let v = alu::fma(*ty, ctx.get(*a, l), ctx.get(*b, l), ctx.get(*c, l));
                ctx.set(*dst, l, v);
            }
        }
        Instr::Curand { f, out, dst, args, .. } => {
            for l in mask.iter() {
                let vals: Vec<u64> = args.iter().map(|o| ctx.get(*o, l)).collect();
                let v = crate::sim::curand::eval_one(*f, &vals, *out as usize);
                ctx.set(*dst, l, v);
            }
        }
        Instr::Assert { cond, text } => {
            if let Some(l) = mask.iter().find(|&l| ctx.get(*cond, l) == 0) {
                return Err(ExecError::Assert { lane: l, text: *text });
            }
        }
        Instr::Printf { fmt, args } => {
            let fmt = &kernel.strings[*fmt as usize];
            for l in mask.iter() {
                let vals: Vec<(u64, Ty)> = args.iter().map(|(o, t)| (ctx.get(*o, l), *t)).collect();
                let text = super::printf::format(fmt, &vals);
                ctx.notes.push(Note::Printf { lane: l, text });
            }
        }
        Instr::Launch { kernel, config, args } => {
            for l in mask.iter() {
                let config = (**config).map(|o| ctx.get(o, l) as u32);
                let args = args.iter().map(|o| ctx.get(*o, l)).collect();
                ctx.notes.push(Note::Launch { lane: l, kernel: *kernel, config, args });
            }
        }
        Instr::Jump { target } => return Ok(Effect::Jump(*target)),
        Instr::Branch { cond, then_pc, else_pc, reconv, site } => {
            let c = Src::of(*cond, ctx.stride, ctx.base).lanes(ctx.regs);
            let taken = super::lane_bits::nonzero_mask(&c);
            return Ok(Effect::Branch {
                taken: LaneMask(taken & mask.0),
                then_pc: *then_pc,
                else_pc: *else_pc,
                reconv: *reconv,
                site: *site,
            });
        }
        Instr::Exit => return Ok(Effect::Exit),
    }
    Ok(Effect::Next)
}

/// The lanes a `_sync` intrinsic's mask operand names, over every executing lane (the lanes of a warp's
/// tiles name their own tile each).
pub(crate) fn named_lanes(ctx: &Ctx, m: Operand, active: LaneMask) -> LaneMask {
    match m {
        Operand::Imm(v) => LaneMask(v as u32),
        Operand::Reg(_) => active.iter().fold(LaneMask::EMPTY, |n, l| n.or(LaneMask(ctx.get(m, l) as u32))),
    }
}

fn check_sync_mask(ctx: &mut Ctx, m: Operand, active: LaneMask) {
    if active.is_empty() {
        return;
    }
    let named = named_lanes(ctx, m, active);
    if !named.is_subset_of(active) {
        ctx.notes.push(Note::SyncMaskInactive { named, active });
    }
}

fn atomic(op: AtomicOp, ty: Ty, old: u64, x: u64, y: u64) -> u64 {
    use crate::ir::ArithOp;
    let arith = |o| alu::binary(o, ty, old, x).unwrap_or(old);
    match op {
        AtomicOp::Add => arith(ArithOp::Add),
        AtomicOp::Sub => arith(ArithOp::Sub),
        AtomicOp::And => arith(ArithOp::And),
        AtomicOp::Or => arith(ArithOp::Or),
        AtomicOp::Xor => arith(ArithOp::Xor),
        AtomicOp::Exch => x,
        AtomicOp::Cas => {
            if old == x {
                y
            } else {
                old
            }
        }
        AtomicOp::Min => alu::math(crate::front::tast::MathFn::Min, ty, old, x),
        AtomicOp::Max => alu::math(crate::front::tast::MathFn::Max, ty, old, x),
        AtomicOp::Inc => {
            if old as u32 >= x as u32 {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old as u32 == 0 || old as u32 > x as u32 {
                x
            } else {
                old - 1
            }
        }
    }
}

#[inline(always)]
fn f32op(x: u64, y: u64, f: impl Fn(f32, f32) -> f32) -> u64 {
    alu::f32_bits(f(f32::from_bits(x as u32), f32::from_bits(y as u32)))
}

/// Where an operand's value comes from, resolved once per instruction.
#[derive(Clone, Copy)]
enum Src {
    Row(usize),
    Imm(u64),
}

impl Src {
    #[inline(always)]
    fn of(o: Operand, stride: usize, base: usize) -> Src {
        match o {
            Operand::Reg(r) => Src::Row(r.0 as usize * stride + base),
            Operand::Imm(v) => Src::Imm(v),
        }
    }

    /// The operand's value in each of the warp's 32 lanes.
    #[inline(always)]
    fn lanes(self, regs: &[u64]) -> [u64; 32] {
        match self {
            Src::Row(o) => regs[o..o + 32].try_into().expect("a warp's row holds 32 lanes"),
            Src::Imm(v) => [v; 32],
        }
    }
}

/// `dst = threadIdx.x` and the other specials for the lanes in `mask`.
#[inline(always)]
fn special(ctx: &mut Ctx, act: &ActiveLanes, dst: Reg, which: Special) {
    let (b, base) = (ctx.block_dim, ctx.base as u64);
    match which {
        // A one-dimensional block (the common case): threadIdx.x is the thread's index.
        Special::ThreadIdx(0) if b.y == 1 && b.z == 1 => {
            let out = warp_row(ctx.regs, dst.0 as usize * ctx.stride + ctx.base);
            for (l, o) in out.iter_mut().enumerate() {
                *o = act.pick(l, base + l as u64, *o);
            }
        }
        Special::BlockIdx(_) | Special::BlockDim(_) | Special::GridDim(_) => {
            let v = ctx.special(which, 0);
            map1(ctx, act, dst, Operand::Imm(v), |x| x);
        }
        _ => {
            for l in act.mask.iter() {
                let v = ctx.special(which, l);
                ctx.set(dst, l, v);
            }
        }
    }
}

/// What a pre-decoded instruction did (small, unlike [`Effect`] and [`ExecError`]: it is returned at every
/// issue of a whole run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Next,
    Jump(Pc),
    /// A conditional branch; these lanes take it.
    Branch(LaneMask),
    /// A lane faulted: the whole run is refused (single-stepping reports it).
    Fault,
    /// Nothing done: [`execute`] runs this instruction.
    General,
}

/// Executes a pre-decoded instruction (`pc` is its index) for the lanes in `mask`, as [`execute`] executes
/// the IR's; [`Flow::General`], with nothing done, when the instruction has no fast form or this issue is not
/// its fast case.
#[inline(always)]
pub fn execute_decoded(ctx: &mut Ctx, pc: Pc, op: Op, act: &ActiveLanes) -> Flow {
    let row = |r: Row| Operand::Reg(Reg(r));
    ctx.pc = pc;
    match op {
        Op::Alu { f, d, a, b } => {
            let (d, a, b) = (Reg(d), row(a), row(b));
            macro_rules! each {
                ($($v:ident),*) => {
                    match f {
                        $(Alu::$v => map2(ctx, act, d, a, b, |x, y| Alu::$v.apply(x, y)),)*
                    }
                };
            }
            each!(
                AddI, SubI, MulI, And, Or, Xor, Shl, ShrU, ShrS, LtS, LtU, LeS, LeU, GtS, GtU, GeS, GeU, Eq, Ne, AddF,
                SubF, MulF, DivF
            );
        }
        Op::Mov { d, a } => map1(ctx, act, Reg(d), row(a), |x| x),
        Op::PtrAdd { d, base, index, scale, signed } => {
            let scale = scale as i64;
            // An element size that is a power of two (every scalar) scales by a shift: AVX2 has no 64-bit
            // lane multiply, so the multiply runs lane by lane.
            if scale > 0 && (scale as u64).is_power_of_two() {
                let k = scale.trailing_zeros();
                if signed {
                    map2(ctx, act, Reg(d), row(base), row(index), |p, i| {
                        p.wrapping_add(((i as u32 as i32 as i64) << k) as u64)
                    })
                } else {
                    map2(ctx, act, Reg(d), row(base), row(index), |p, i| p.wrapping_add((i as u32 as u64) << k))
                }
            } else if signed {
                map2(ctx, act, Reg(d), row(base), row(index), |p, i| {
                    p.wrapping_add((i as u32 as i32 as i64).wrapping_mul(scale) as u64)
                })
            } else {
                map2(ctx, act, Reg(d), row(base), row(index), |p, i| {
                    p.wrapping_add((i as u32 as i64).wrapping_mul(scale) as u64)
                })
            }
        }
        Op::DivU { d, a, b, rem } => {
            if divide_u32(ctx, act, Reg(d), row(a), row(b), rem).is_err() {
                return Flow::Fault;
            }
        }
        Op::Special { d, which } => special(ctx, act, Reg(d), which),
        Op::Load { size, d, addr } => {
            if !load_elems(ctx, act, size as u32, Reg(d), row(addr)) {
                return Flow::General;
            }
        }
        Op::Store { size, addr, src } => {
            if !store_elems(ctx, act, size as u32, row(addr), row(src)) {
                return Flow::General;
            }
        }
        Op::Jump(target) => return Flow::Jump(target),
        Op::Branch { cond } => {
            let at = cond as usize * ctx.stride + ctx.base;
            let c: &[u64; 32] = ctx.regs[at..at + 32].try_into().expect("a warp's row holds 32 lanes");
            return Flow::Branch(LaneMask(super::lane_bits::nonzero_mask(c) & act.mask.0));
        }
        Op::General => return Flow::General,
    }
    Flow::Next
}

/// `dst = f(a)` for the lanes in `mask`. Every lane is computed and only the active ones are written: the
/// functions given here are total (no fault, no panic), so this is the same and vectorises.
#[inline(always)]
fn map1(ctx: &mut Ctx, act: &ActiveLanes, dst: Reg, a: Operand, f: impl Fn(u64) -> u64) {
    let av = Src::of(a, ctx.stride, ctx.base).lanes(ctx.regs);
    let d = dst.0 as usize * ctx.stride + ctx.base;
    let out = warp_row(ctx.regs, d);
    if act.mask == LaneMask::FULL {
        for l in 0..32 {
            out[l] = f(av[l]);
        }
    } else {
        for l in 0..32 {
            out[l] = act.pick(l, f(av[l]), out[l]);
        }
    }
}

/// `dst = f(a, b)` for the lanes in `mask` (as [`map1`]). Source rows other than the destination are read in
/// place, beside it (a copy of a warp's row is a call to `memcpy`); a source that is the destination row is
/// copied first.
#[inline(always)]
fn map2(ctx: &mut Ctx, act: &ActiveLanes, dst: Reg, a: Operand, b: Operand, f: impl Fn(u64, u64) -> u64) {
    let (stride, base) = (ctx.stride, ctx.base);
    let d = dst.0 as usize * stride + base;
    let (sa, sb) = (Src::of(a, stride, base), Src::of(b, stride, base));
    let (splat_a, splat_b, copy_a, copy_b);
    let (lo, rest) = ctx.regs.split_at_mut(d);
    let (out, hi) = rest.split_at_mut(32);
    let out: &mut [u64; 32] = out.try_into().expect("a warp's row holds 32 lanes");
    let row = |o: usize| -> &[u64; 32] {
        let r = if o < d { &lo[o..o + 32] } else { &hi[o - d - 32..o - d] };
        r.try_into().expect("a warp's row holds 32 lanes")
    };
    let av: &[u64; 32] = match sa {
        Src::Imm(v) => {
            splat_a = [v; 32];
            &splat_a
        }
        Src::Row(o) if o == d => {
            copy_a = *out;
            &copy_a
        }
        Src::Row(o) => row(o),
    };
    let bv: &[u64; 32] = match sb {
        Src::Imm(v) => {
            splat_b = [v; 32];
            &splat_b
        }
        Src::Row(o) if o == d => {
            copy_b = *out;
            &copy_b
        }
        Src::Row(o) => row(o),
    };
    if act.mask == LaneMask::FULL {
        for l in 0..32 {
            out[l] = f(av[l], bv[l]);
        }
    } else {
        for l in 0..32 {
            out[l] = act.pick(l, f(av[l], bv[l]), out[l]);
        }
    }
}

/// Unsigned 32-bit division or remainder for the lanes in `mask`, in ascending lane order: the first lane
/// dividing by zero stops the instruction (the lanes before it have their results, as in the general path).
/// A divisor that is the same power of two in every active lane (`tid % (2 * stride)`) is a mask or a shift.
#[inline(always)]
fn divide_u32(ctx: &mut Ctx, act: &ActiveLanes, dst: Reg, a: Operand, b: Operand, rem: bool) -> Result<(), ExecError> {
    let mask = act.mask;
    if mask.is_empty() {
        return Ok(());
    }
    let bs = Src::of(b, ctx.stride, ctx.base);
    let divisor = match bs {
        Src::Imm(v) => Some(v as u32).filter(|d| d.is_power_of_two()),
        Src::Row(o) => uniform_power_of_two(&ctx.regs[o..o + 32], &act.select),
    };
    if let Some(d) = divisor {
        let shift = d.trailing_zeros();
        if rem {
            map2(ctx, act, dst, a, b, |x, _| (x as u32 & (d - 1)) as u64);
        } else {
            map2(ctx, act, dst, a, b, |x, _| (x as u32 >> shift) as u64);
        }
        return Ok(());
    }
    let av = Src::of(a, ctx.stride, ctx.base).lanes(ctx.regs);
    let bv = bs.lanes(ctx.regs);
    let out = warp_row(ctx.regs, dst.0 as usize * ctx.stride + ctx.base);
    for l in mask.iter() {
        let (x, y) = (av[l as usize] as u32, bv[l as usize] as u32);
        if y == 0 {
            return Err(ExecError::DivideByZero { lane: l });
        }
        out[l as usize] = if rem { x % y } else { x / y } as u64;
    }
    Ok(())
}

/// The divisor in `row` (a register's lanes) when it is the same power of two in every lane `select` keeps;
/// None otherwise, or when it keeps none. Checked over all lanes with a select: it vectorises.
#[inline(always)]
fn uniform_power_of_two(row: &[u64], select: &[u64]) -> Option<u32> {
    let first = select.iter().position(|&s| s != 0)?;
    let d = row[first] as u32;
    let mut other = 0u64;
    for (v, s) in row.iter().zip(select) {
        other |= (*v as u32 ^ d) as u64 & s;
    }
    (other == 0 && d.is_power_of_two()).then_some(d)
}

/// The address of the lowest active lane when every active lane `l` addresses element `l` of one array of
/// `size`-byte elements (`a[tid]`, `a[tid + 1]`): the warp's access is then one stretch of memory.
#[inline(always)]
fn consecutive(ctx: &Ctx, act: &ActiveLanes, size: u32, addr: Operand) -> Option<u64> {
    let first = act.mask.lowest()?;
    let Operand::Reg(r) = addr else { return None };
    let at = r.0 as usize * ctx.stride + ctx.base;
    let av: &[u64; 32] = ctx.regs[at..at + 32].try_into().expect("a warp's row holds 32 lanes");
    let start = av[first as usize];
    // Lane `l` must address `base + l * size`: each lane's test stands alone (no running sum), so it
    // vectorises; element sizes are powers of two.
    if !size.is_power_of_two() {
        return None;
    }
    let k = size.trailing_zeros();
    let base = start.wrapping_sub((first as u64) << k);
    let mut off = 0u64;
    for (l, a) in av.iter().enumerate() {
        off |= (a.wrapping_sub((l as u64) << k) ^ base) & act.select[l];
    }
    (off == 0 && !memory::is_shared(start)).then_some(start)
}

impl Ctx<'_> {
    /// Records the global bytes of a consecutive access, as [`Ctx::touch`] lane by lane would: one range
    /// when no two neighbouring active lanes leave more than `TOUCH_GAP` bytes between them.
    #[inline(always)]
    fn touch_elems(&mut self, start: u64, size: u32, mask: LaneMask) {
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
}

/// Whole runs: a warp's load of consecutive elements in one go (false: not that case, nothing done).
#[inline(always)]
fn load_elems(ctx: &mut Ctx, act: &ActiveLanes, size: u32, dst: Reg, addr: Operand) -> bool {
    let mask = act.mask;
    let (Some(g), Some(start)) = (ctx.par, consecutive(ctx, act, size, addr)) else { return false };
    let first = mask.0.trailing_zeros() as usize;
    let d = dst.0 as usize * ctx.stride + ctx.base;
    if !g.load_elems(start, size, mask.0 >> first, &mut ctx.regs[d + first..d + 32]) {
        return false;
    }
    ctx.touch_elems(start, size, mask);
    true
}

/// Whole runs: a warp's load from any addresses in one global allocation (a row's element for the whole
/// warp, two half-warps on two rows of a 16 x 16 tile), with the allocation found once rather than per lane.
/// False, with nothing done, unless every active lane's read lies in that allocation, aligned, on bytes
/// already written: the lane-by-lane path then reports what is wrong.
#[inline(always)]
fn load_gather(ctx: &mut Ctx, act: &ActiveLanes, size: u32, dst: Reg, addr: Operand) -> bool {
    let (Some(g), Operand::Reg(r)) = (ctx.par, addr) else { return false };
    if act.mask.is_empty() {
        return false;
    }
    let at = r.0 as usize * ctx.stride + ctx.base;
    let av: [u64; 32] = ctx.regs[at..at + 32].try_into().expect("a warp's row holds 32 lanes");
    let (mut lo, mut hi, mut bits) = (u64::MAX, 0u64, 0u64);
    for (a, s) in av.iter().zip(&act.select) {
        lo = lo.min(a | !s);
        hi = hi.max(a & s);
        bits |= a & s;
    }
    if memory::is_shared(lo) || memory::is_shared(hi) || bits & (size as u64 - 1) != 0 {
        return false;
    }
    let d = dst.0 as usize * ctx.stride + ctx.base;
    if !g.load_gather(&av, act.mask.0, size, (lo, hi), &mut ctx.regs[d..d + 32]) {
        return false;
    }
    for l in act.mask.iter() {
        ctx.touch(av[l as usize], size);
    }
    true
}

/// Whole runs: a warp's store of consecutive elements in one go (as [`load_elems`]).
#[inline(always)]
fn store_elems(ctx: &mut Ctx, act: &ActiveLanes, size: u32, addr: Operand, src: Operand) -> bool {
    let mask = act.mask;
    let (Some(g), Some(start)) = (ctx.par, consecutive(ctx, act, size, addr)) else { return false };
    let first = mask.0.trailing_zeros() as usize;
    let Some(wrote) = (match Src::of(src, ctx.stride, ctx.base) {
        Src::Row(o) => g.store_elems(start, size, mask.0 >> first, &ctx.regs[o + first..o + 32]),
        Src::Imm(v) => g.store_elems(start, size, mask.0 >> first, &[v; 32][first..]),
    }) else {
        return false;
    };
    ctx.wrote |= wrote;
    ctx.touch_elems(start, size, mask);
    true
}

/// The 32 lanes of one warp's register starting at `at`.
#[inline(always)]
fn warp_row(regs: &mut [u64], at: usize) -> &mut [u64; 32] {
    (&mut regs[at..at + 32]).try_into().expect("a warp's row holds 32 lanes")
}
