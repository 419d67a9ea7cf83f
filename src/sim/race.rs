//! Shared-memory race detection, racecheck-style: two threads of a block touch the same shared word, at least
//! one writes, and no `__syncthreads()` (nor, within a warp, `__syncwarp()`) orders them.
//!
//! In the pre-Volta model the threads of a warp run in lockstep, so only races between warps are reported; in
//! ITS, threads of one warp are not in lockstep either, which is what breaks old warp-synchronous code.

use crate::ir::Pc;
use crate::sim::lane_mask::LaneMask;

/// One access, with the synchronisation epochs it happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub tid: u32,
    pub pc: Pc,
    pub write: bool,
    /// The block's `__syncthreads()` count at the time.
    pub block_epoch: u32,
    /// The thread's warp's `__syncwarp()` count at the time.
    pub warp_epoch: u32,
}

impl Access {
    /// Is `self` (earlier) ordered before `later`?
    #[inline(always)]
    fn ordered_before(&self, later: &Access, lockstep_warps: bool) -> bool {
        if self.tid == later.tid || self.block_epoch < later.block_epoch {
            return true;
        }
        let same_warp = self.tid / 32 == later.tid / 32;
        same_warp && (lockstep_warps || self.warp_epoch < later.warp_epoch)
    }
}

/// An access as a word's shadow keeps it: whether it wrote is where it is kept. Its `tid` is [`NONE`] where
/// there is none (16 bytes, against an `Option<Access>`'s 20, and no tag to test).
#[derive(Clone, Copy, Debug)]
struct Stamp {
    tid: u32,
    pc: Pc,
    block_epoch: u32,
    warp_epoch: u32,
}

/// No access (no thread has this index).
const NONE: u32 = u32::MAX;

impl Stamp {
    const NONE: Stamp = Stamp { tid: NONE, pc: Pc(0), block_epoch: 0, warp_epoch: 0 };

    #[inline(always)]
    fn of(a: &Access) -> Stamp {
        Stamp { tid: a.tid, pc: a.pc, block_epoch: a.block_epoch, warp_epoch: a.warp_epoch }
    }

    #[inline(always)]
    fn access(&self, write: bool) -> Access {
        Access { tid: self.tid, pc: self.pc, write, block_epoch: self.block_epoch, warp_epoch: self.warp_epoch }
    }

    /// Is there an access here that `later` races with ([`Access::ordered_before`])?
    #[inline(always)]
    fn conflicts(&self, later: &Access, lockstep_warps: bool) -> bool {
        self.tid != NONE && !self.access(false).ordered_before(later, lockstep_warps)
    }
}

#[derive(Clone, Copy, Debug)]
struct Word {
    write: Stamp,
    /// The two most recent readers since the last write (enough to report a race).
    reads: [Stamp; 2],
}

impl Default for Word {
    fn default() -> Self {
        Word { write: Stamp::NONE, reads: [Stamp::NONE; 2] }
    }
}

/// A race found: the earlier access, the later one, and the word's byte offset in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    pub first: Access,
    pub second: Access,
    pub offset: u32,
}

/// Shadow state of one block's shared memory, one entry per 4-byte word.
#[derive(Clone, Debug, Default)]
pub struct RaceShadow {
    words: Vec<Word>,
}

impl RaceShadow {
    pub fn new(bytes: u32) -> Self {
        RaceShadow { words: vec![Word::default(); bytes.div_ceil(4) as usize] }
    }

    /// Heap bytes this shadow holds.
    pub fn bytes(&self) -> u64 {
        (self.words.capacity() * std::mem::size_of::<Word>()) as u64
    }

    /// Records an access to `offset..offset+size`; returns a race if it has one with an earlier access.
    pub fn access(&mut self, offset: u32, size: u32, a: Access, lockstep_warps: bool) -> Option<Race> {
        let mut found = None;
        for w in offset / 4..(offset + size).div_ceil(4) {
            let Some(word) = self.words.get_mut(w as usize) else { continue };
            let race = word.access(w, a, lockstep_warps);
            found = found.or(race);
        }
        found
    }

    /// Records the accesses of a warp's lanes `lanes` to consecutive words, one each, as [`access`]
    /// lane by lane (in ascending order) would: lane `l` (thread `a.tid + l`) accesses the word at
    /// `offset + 4 * (l - first)`, `first` being the lowest lane; `race` hears of each race in that order.
    /// Whole runs' loads and stores of `sdata[tid]`.
    ///
    /// [`access`]: RaceShadow::access
    #[inline]
    pub fn access_words(
        &mut self,
        offset: u32,
        lanes: u32,
        a: Access,
        lockstep_warps: bool,
        mut race: impl FnMut(Race),
    ) {
        if lanes == 0 {
            return;
        }
        let first = lanes.trailing_zeros();
        let (w0, span) = (offset / 4, 32 - (lanes >> first).leading_zeros());
        let Some(words) = self.words.get_mut(w0 as usize..(w0 + span) as usize) else {
            // (Past the shadow's end: lane by lane, which skips the words it does not have.)
            for l in LaneMask(lanes).iter() {
                let at = Access { tid: a.tid + l, ..a };
                if let Some(r) = self.access(offset + 4 * (l - first), 4, at, lockstep_warps) {
                    race(r);
                }
            }
            return;
        };
        for l in LaneMask(lanes).iter() {
            let i = l - first;
            let at = Access { tid: a.tid + l, ..a };
            let word = &mut words[i as usize];
            // Each lane has a word of its own, so a lane whose word holds nothing it could race with (the
            // common case: nothing since the last barrier) only stamps it.
            if word.quiet_for(&at) {
                word.stamp(&at);
            } else if let Some(r) = word.access(w0 + i, at, lockstep_warps) {
                race(r);
            }
        }
    }

    /// Records a read of the one word at `offset` by each of a warp's lanes `lanes` (a broadcast: `s[ty][k]`
    /// of a tile, the same element for the whole warp), as [`access`] lane by lane (in ascending order) would;
    /// `race` hears of each race in that order. The word stays in registers across the lanes: written back
    /// between lanes, each lane's load waited for the previous lane's narrower stores (a third of a tiled
    /// matrix product's time under ITS).
    ///
    /// [`access`]: RaceShadow::access
    #[inline]
    pub fn read_word(&mut self, offset: u32, lanes: u32, a: Access, lockstep_warps: bool, mut race: impl FnMut(Race)) {
        let w = offset / 4;
        // (Past the shadow's end: `access` skips the words it does not have.)
        let Some(word) = self.words.get_mut(w as usize) else { return };
        let mut copy = *word;
        for l in LaneMask(lanes).iter() {
            let at = Access { tid: a.tid + l, write: false, ..a };
            if let Some(r) = copy.access(w, at, lockstep_warps) {
                race(r);
            }
        }
        *word = copy;
    }

    /// Records a read of a 4-byte word by each of a warp's lanes `lanes` (lane `l`, thread `a.tid + l`, reads
    /// the word at byte offset `offs[l]`, aligned) as [`access`] lane by lane (in ascending order) would, when
    /// none of them can race: no word read holds a write since the block's last barrier (a tile read after
    /// the `__syncthreads()` that follows its loading: `s_a[ty][k]`, `s_b[k][tx]`). False, with nothing
    /// recorded, otherwise (or for a word past the shadow's end). A word read by neighbouring lanes stays in
    /// registers across them, as in [`RaceShadow::read_word`].
    ///
    /// [`access`]: RaceShadow::access
    #[inline]
    pub fn quiet_reads(&mut self, offs: &[u64; 32], lanes: u32, a: Access) -> bool {
        let n = self.words.len() as u64;
        let quiet = LaneMask(lanes).iter().all(|l| {
            let w = offs[l as usize] / 4;
            w < n && {
                let s = &self.words[w as usize].write;
                s.tid == NONE || s.block_epoch < a.block_epoch
            }
        });
        if !quiet {
            return false;
        }
        let mut held: Option<(usize, Word)> = None;
        for l in LaneMask(lanes).iter() {
            let w = (offs[l as usize] / 4) as usize;
            let word = match &mut held {
                Some((at, word)) if *at == w => word,
                _ => {
                    if let Some((at, word)) = held {
                        self.words[at] = word;
                    }
                    &mut held.insert((w, self.words[w])).1
                }
            };
            let at = Access { tid: a.tid + l, write: false, ..a };
            if word.reads[0].tid != at.tid {
                word.reads = [Stamp::of(&at), word.reads[0]];
            }
        }
        if let Some((at, word)) = held {
            self.words[at] = word;
        }
        true
    }
}

impl Word {
    /// Can access `a` race with nothing this word holds: each of its accesses is none, `a`'s thread's own,
    /// or from before the block's current barrier interval? (A shortcut of [`Word::access`]'s test, which
    /// finds no race wherever this holds; a read only meets the write.)
    #[inline(always)]
    fn quiet_for(&self, a: &Access) -> bool {
        let quiet = |s: &Stamp| s.tid == NONE || s.tid == a.tid || s.block_epoch < a.block_epoch;
        quiet(&self.write) && (!a.write || (quiet(&self.reads[0]) && quiet(&self.reads[1])))
    }

    /// Records access `a` as [`Word::access`] does where [`Word::quiet_for`] holds.
    #[inline(always)]
    fn stamp(&mut self, a: &Access) {
        if a.write {
            self.write = Stamp::of(a);
            self.reads = [Stamp::NONE; 2];
        } else if self.reads[0].tid != a.tid {
            self.reads = [Stamp::of(a), self.reads[0]];
        }
    }

    /// Records access `a` to this word (number `w`); returns the race it has with an earlier access, if any.
    #[inline(always)]
    fn access(&mut self, w: u32, a: Access, lockstep_warps: bool) -> Option<Race> {
        let race = |prev: &Stamp, write| Race { first: prev.access(write), second: a, offset: w * 4 };
        let mut found = self.write.conflicts(&a, lockstep_warps).then(|| race(&self.write, true));
        if a.write {
            if found.is_none()
                && let Some(prev) = self.reads.iter().find(|r| r.conflicts(&a, lockstep_warps))
            {
                found = Some(race(prev, false));
            }
            self.write = Stamp::of(&a);
            self.reads = [Stamp::NONE; 2];
        } else if self.reads[0].tid != a.tid {
            self.reads = [Stamp::of(&a), self.reads[0]];
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A broadcast read (`read_word`) leaves the shadow and reports the races that lane-by-lane `access`
    /// does: after a write by a lane of the reading warp, of another warp, of one of the readers itself, and
    /// with a reader already recorded, in ITS and in lockstep.
    #[test]
    fn a_broadcast_read_is_lane_by_lane_access() {
        let at = |tid, write, warp_epoch| Access { tid, pc: Pc(3), write, block_epoch: 1, warp_epoch };
        for lockstep in [false, true] {
            for (writer, reader) in [(Some(37), None), (Some(70), None), (Some(32), Some(33)), (None, Some(40))] {
                for lanes in [0xffff_ffffu32, 0x0000_0f0f, 0x8000_0000, 0x0000_0002] {
                    let mut lane_by_lane = RaceShadow::new(64);
                    if let Some(w) = writer {
                        lane_by_lane.access(8, 4, at(w, true, 0), lockstep);
                    }
                    if let Some(r) = reader {
                        lane_by_lane.access(8, 4, at(r, false, 0), lockstep);
                    }
                    let mut broadcast = lane_by_lane.clone();
                    let mut expected = vec![];
                    for l in LaneMask(lanes).iter() {
                        expected.extend(lane_by_lane.access(8, 4, at(32 + l, false, 1), lockstep));
                    }
                    let mut got = vec![];
                    broadcast.read_word(8, lanes, at(32, false, 1), lockstep, |r| got.push(r));
                    let what = format!("{lockstep} {writer:?} {reader:?} {lanes:#x}");
                    assert_eq!(got, expected, "{what}");
                    assert_eq!(format!("{:?}", broadcast.words[2]), format!("{:?}", lane_by_lane.words[2]), "{what}");
                }
            }
        }
    }

    /// Quiet reads of a tile (`quiet_reads`) leave the shadow as lane-by-lane `access` does: two broadcasts
    /// per warp, two half-warp rows, a column, words read by earlier threads; and refuse, recording nothing,
    /// where a word holds a write since the last barrier (a race may be reported).
    #[test]
    fn quiet_reads_are_lane_by_lane_reads() {
        let at = |tid, write, block_epoch| Access { tid, pc: Pc(5), write, block_epoch, warp_epoch: 0 };
        type Shape = (&'static str, fn(u64) -> u64);
        let shapes: [Shape; 4] = [
            ("s_a[ty][k]", |l| (l / 16) * 64 + 12),
            ("s_b[k][tx]", |l| 3 * 64 + (l % 16) * 4),
            ("a column", |l| (l % 16) * 64 + 8),
            ("one word", |_| 40),
        ];
        for (name, f) in shapes {
            let offs: [u64; 32] = std::array::from_fn(|l| f(l as u64));
            for lanes in [u32::MAX, 0x00ff_ff00, 0x8000_0001] {
                for (writer_epoch, reader) in
                    [(None, None), (Some(0), Some(7)), (Some(1), None), (Some(0), Some(64 + 3))]
                {
                    let mut lane_by_lane = RaceShadow::new(1024);
                    for w in 0..256u32 {
                        if let Some(e) = writer_epoch {
                            lane_by_lane.access(w * 4, 4, at(w % 64, true, e), false);
                        }
                        if let Some(r) = reader {
                            lane_by_lane.access(w * 4, 4, at(r, false, 1), false);
                        }
                    }
                    let mut quiet = lane_by_lane.clone();
                    let before = format!("{:?}", quiet.words);
                    let ok = quiet.quiet_reads(&offs, lanes, at(64, false, 1));
                    let mut races = 0;
                    for l in LaneMask(lanes).iter() {
                        races += lane_by_lane.access(offs[l as usize] as u32, 4, at(64 + l, false, 1), false).is_some()
                            as u32;
                    }
                    let what = format!("{name} {lanes:#x} {writer_epoch:?} {reader:?}");
                    // Refused exactly where a write of this interval is read (it may race); nothing recorded then.
                    assert_eq!(ok, writer_epoch != Some(1), "{what}");
                    if ok {
                        assert_eq!(races, 0, "{what}");
                        assert_eq!(format!("{:?}", quiet.words), format!("{:?}", lane_by_lane.words), "{what}");
                    } else {
                        assert_eq!(format!("{:?}", quiet.words), before, "{what}");
                    }
                }
            }
        }
    }
}
