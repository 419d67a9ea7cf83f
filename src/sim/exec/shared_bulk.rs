//! Whole runs: a warp's load or store of shared memory in one go, with everything the lane-by-lane path
//! (`Ctx::load`, `Ctx::store`) does for each lane: the race shadow (in lane order, its notes), the accesses
//! bank statistics read (`Ctx::shared_accesses`), the touched bytes and `Ctx::wrote`. Only when every active
//! lane's access is in bounds and aligned: otherwise nothing is done and the general path reports the fault.

use super::context::{Ctx, Note, SHARED_TOUCH};
use super::lanes::Src;
use crate::ir::{Operand, Reg};
use crate::sim::lane_mask::ActiveLanes;
use crate::sim::memory::{self, SHARED_BASE};
use crate::sim::race::Access;

/// Does the lowest active lane address shared memory (the others are checked by [`shared_load`] and
/// [`shared_store`])?
#[inline(always)]
pub(super) fn addresses_shared(ctx: &Ctx, act: &ActiveLanes, addr: Operand) -> bool {
    match (addr, act.mask.lowest()) {
        (Operand::Reg(r), Some(l)) => memory::is_shared(ctx.regs[r.0 as usize * ctx.stride + ctx.base + l as usize]),
        _ => false,
    }
}

/// The active lanes' shared byte offsets (inactive lanes' are meaningless), and whether lane `l` addresses
/// the first active lane's offset plus `(l - first) * size` (`sdata[tid]`, `sdata[tid + s]`); None unless
/// every active lane's `size` bytes lie in the block's shared memory, aligned.
#[inline(always)]
fn offsets(ctx: &Ctx, act: &ActiveLanes, size: u32, addr: Operand) -> Option<([u64; 32], bool)> {
    let Operand::Reg(r) = addr else { return None };
    let first = act.mask.lowest()?;
    let at = r.0 as usize * ctx.stride + ctx.base;
    let av: &[u64; 32] = ctx.regs[at..at + 32].try_into().expect("a warp's row holds 32 lanes");
    // Inactive lanes count as neither the lowest nor the highest address, and as aligned.
    let (mut lo, mut hi, mut bits) = (u64::MAX, 0u64, 0u64);
    for (a, s) in av.iter().zip(&act.select) {
        lo = lo.min(a | !s);
        hi = hi.max(a & s);
        bits |= a & s;
    }
    // (The window is one stretch: both ends in it put every address in it, as `memory::shared_offset` wants.)
    if !memory::is_shared(lo)
        || !memory::is_shared(hi)
        || bits & (size as u64 - 1) != 0
        || hi - SHARED_BASE + size as u64 > ctx.layout.bytes as u64
    {
        return None;
    }
    let mut offs = [0u64; 32];
    let k = size.trailing_zeros();
    let base = av[first as usize].wrapping_sub((first as u64) << k);
    let mut apart = 0u64;
    for (l, (o, a)) in offs.iter_mut().zip(av).enumerate() {
        *o = a.wrapping_sub(SHARED_BASE);
        apart |= (a.wrapping_sub((l as u64) << k) ^ base) & act.select[l];
    }
    Some((offs, apart == 0))
}

impl Ctx<'_> {
    /// The lanes of `mask` read the words at `offs` with no race possible ([`RaceShadow::quiet_reads`]):
    /// recorded in the race shadow as lane-by-lane reads would be. False, with nothing recorded, otherwise.
    ///
    /// [`RaceShadow::quiet_reads`]: crate::sim::race::RaceShadow::quiet_reads
    #[inline(always)]
    fn quiet_reads(&mut self, offs: &[u64; 32], mask: u32) -> bool {
        let Some(a) = self.warp_access(false) else { return false };
        self.race.as_mut().is_some_and(|rc| rc.shadow.quiet_reads(offs, mask, a))
    }

    /// The race shadow's access of the warp's lowest thread (lane `l`'s thread is `tid + l`) at this
    /// instruction, in the current barrier and `__syncwarp()` epochs; None without race detection.
    #[inline(always)]
    fn warp_access(&self, write: bool) -> Option<Access> {
        let rc = self.race.as_ref()?;
        let (block_epoch, warp_epoch) = (rc.block_epoch, rc.warp_epochs[self.base / 32]);
        Some(Access { tid: self.base as u32, pc: self.pc, write, block_epoch, warp_epoch })
    }

    /// The race shadow, bank statistics' accesses and touched bytes of the active lanes' shared accesses at
    /// `offs`, as lane-by-lane [`Ctx::check_race`], `shared_accesses` and [`Ctx::touch`] make them.
    #[inline(always)]
    fn shared_books(&mut self, act: &ActiveLanes, size: u32, (offs, consecutive): ([u64; 32], bool), write: bool) {
        let mask = act.mask;
        let first = mask.0.trailing_zeros();
        if self.race.is_some() {
            if consecutive && size == 4 {
                let a = self.warp_access(write).expect("checked above");
                let Ctx { race: Some(rc), notes, .. } = self else { unreachable!("checked above") };
                rc.shadow.access_words(offs[first as usize] as u32, mask.0, a, rc.lockstep_warps, |r| {
                    notes.push(Note::SharedRace(r))
                });
            } else if !write
                && size == 4
                && mask.0 != 0
                && offs[first as usize] % 4 == 0
                && mask.iter().all(|l| offs[l as usize] == offs[first as usize])
            {
                let a = self.warp_access(write).expect("checked above");
                let Ctx { race: Some(rc), notes, .. } = self else { unreachable!("checked above") };
                rc.shadow.read_word(offs[first as usize] as u32, mask.0, a, rc.lockstep_warps, |r| {
                    notes.push(Note::SharedRace(r))
                });
            } else if write || size != 4 || !self.quiet_reads(&offs, mask.0) {
                for l in mask.iter() {
                    self.check_race(offs[l as usize] as usize, size, l, write);
                }
            }
        }
        // (A whole run's context starts with no room: one warp's worth at once rather than growing to it.)
        self.shared_accesses.reserve(32);
        self.shared_accesses.extend(mask.iter().map(|l| (l, offs[l as usize] as u32)));
        if consecutive {
            self.touch_elems(SHARED_TOUCH + offs[first as usize], size, mask);
        } else {
            for l in mask.iter() {
                self.touch(SHARED_TOUCH + offs[l as usize], size);
            }
        }
    }
}

/// Whole runs: a warp's load from shared memory in one go (false: some lane's access is not in bounds and
/// aligned, or the address is not shared; nothing done).
#[inline(always)]
pub(super) fn shared_load(ctx: &mut Ctx, act: &ActiveLanes, size: u32, dst: Reg, addr: Operand) -> bool {
    let Some(at) = offsets(ctx, act, size, addr) else { return false };
    ctx.shared_books(act, size, at, false);
    let d = dst.0 as usize * ctx.stride + ctx.base;
    let (offs, shared) = (&at.0, &*ctx.shared);
    let row = &mut ctx.regs[d..d + 32];
    if size == 4 {
        for l in act.mask.iter() {
            let o = offs[l as usize] as usize;
            row[l as usize] = u32::from_le_bytes(shared[o..o + 4].try_into().expect("four bytes")) as u64;
        }
    } else {
        for l in act.mask.iter() {
            row[l as usize] = memory::shared_load(shared, offs[l as usize] as usize, size);
        }
    }
    true
}

/// Whole runs: a warp's store to shared memory in one go, lane by lane in ascending order (a later lane's
/// value stays where two write one word), as [`shared_load`].
#[inline(always)]
pub(super) fn shared_store(ctx: &mut Ctx, act: &ActiveLanes, size: u32, addr: Operand, src: Operand) -> bool {
    let Some(at) = offsets(ctx, act, size, addr) else { return false };
    ctx.shared_books(act, size, at, true);
    let vals = Src::of(src, ctx.stride, ctx.base).lanes(ctx.regs);
    let keep = if size < 8 { (1u64 << (size * 8)) - 1 } else { u64::MAX };
    let mut wrote = false;
    if size == 4 {
        // (The commonest size as fixed-size copies: the general form's variable-length copy is a call per lane.)
        for l in act.mask.iter() {
            let (o, v) = (at.0[l as usize] as usize, (vals[l as usize] as u32).to_le_bytes());
            let word: &mut [u8; 4] = (&mut ctx.shared[o..o + 4]).try_into().expect("four bytes");
            wrote |= *word != v;
            *word = v;
        }
    } else {
        for l in act.mask.iter() {
            let (o, v) = (at.0[l as usize] as usize, vals[l as usize] & keep);
            if memory::shared_load(ctx.shared, o, size) != v {
                wrote = true;
                memory::shared_store(ctx.shared, o, size, v);
            }
        }
    }
    ctx.wrote |= wrote;
    true
}
