//! Shared-memory race detection, racecheck-style: two threads of a block touch the same shared word, at least
//! one writes, and no `__syncthreads()` (nor, within a warp, `__syncwarp()`) orders them.
//!
//! In the pre-Volta model the threads of a warp run in lockstep, so only races between warps are reported; in
//! ITS, threads of one warp are not in lockstep either, which is what breaks old warp-synchronous code.

use crate::ir::Pc;

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
    fn ordered_before(&self, later: &Access, lockstep_warps: bool) -> bool {
        if self.tid == later.tid || self.block_epoch < later.block_epoch {
            return true;
        }
        let same_warp = self.tid / 32 == later.tid / 32;
        same_warp && (lockstep_warps || self.warp_epoch < later.warp_epoch)
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Word {
    write: Option<Access>,
    /// The two most recent readers since the last write (enough to report a race).
    reads: [Option<Access>; 2],
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
            let conflict = |prev: &Access| !prev.ordered_before(&a, lockstep_warps);
            if let Some(prev) = word.write.filter(conflict) {
                found.get_or_insert(Race { first: prev, second: a, offset: w * 4 });
            }
            if a.write {
                if let Some(prev) = word.reads.iter().flatten().copied().find(conflict) {
                    found.get_or_insert(Race { first: prev, second: a, offset: w * 4 });
                }
                word.write = Some(a);
                word.reads = [None, None];
            } else if word.reads[0].is_none_or(|r| r.tid != a.tid) {
                word.reads = [Some(a), word.reads[0]];
            }
        }
        found
    }
}
