//! Repeated launches of `warpdbg run`: a course times a kernel by launching it ten or a hundred times in a
//! loop (`for (int i = 0; i < 100; i++) add<<<n / 256, 256>>>(a, b, c, n);`), and at 10^7 elements each
//! launch takes seconds here.
//!
//! A launch is a deterministic function of its kernel, configuration, argument bits and the device memory it
//! starts from (the program's memory: [`GlobalMemory::digests`] covers every byte, which bytes were written,
//! and the allocations' names and places); `Machine::run` reads nothing else. So when a launch with the same
//! kernel, configuration and arguments as an earlier one starts from memory equal to what that earlier one
//! started from, it does exactly what that one did. The memo keeps, per such key, the digest of the memory the
//! last run started from and what that run changed in it ([`MemDelta`]: the allocations it wrote, as it left
//! them), when that run completed cleanly (no hazard, fault, finding or child grid) and allocated nothing: a
//! later launch whose memory has that digest is then answered from the memo (the same record, steps, virtual
//! time and printed lines) without running, and the same changes are made to memory. That covers a kernel
//! run again on what it reads (`c = a + b`: nothing changes after the first run) and a timing loop that
//! resets its output before each launch (`cudaMemset(d_sum, 0, ...)` then an `atomicAdd` reduction).
//! Launches under the debugger or with `--json` always run, and all do with `WARPDBG_NO_LAUNCH_MEMO`.

use std::collections::HashMap;

use crate::sim::{GlobalMemory, MemDelta};

/// Failed tries (memory changed, or the launch did) before a key is given up.
const TRIES: u32 = 3;
/// The most bytes of changed allocations kept for one key (what copying them back costs is then still far
/// below what running a launch that writes them costs), and for all keys together (a loop of launches that
/// differ in an argument keeps one entry per launch).
const DELTA_BYTES: u64 = 256 << 20;
const ALL_DELTA_BYTES: u64 = 1 << 30;

/// What identifies a launch besides memory: kernel, grid, block, dynamic shared bytes and argument bits.
pub(super) type Key = (String, [u32; 3], [u32; 3], u32, Vec<u64>);

/// A launch's result to give again.
#[derive(Clone, Debug)]
pub(super) struct Answer {
    pub steps: u64,
    pub ns: u64,
    pub printed: String,
}

#[derive(Debug)]
enum Entry {
    /// Ran; no digest taken yet. The steps it took (whether a digest is worth its cost).
    Seen {
        steps: u64,
        misses: u32,
    },
    /// Its last run started from memory with this digest and made these changes.
    Known {
        before: u128,
        answer: Answer,
        change: MemDelta,
        misses: u32,
    },
    GivenUp,
}

/// The memo of one program run (see the module).
#[derive(Debug, Default)]
pub(super) struct LaunchMemo {
    entries: HashMap<Key, Entry>,
    /// Launches answered so far.
    pub answered: usize,
    /// Bytes of changes the entries keep.
    kept: u64,
}

impl LaunchMemo {
    /// Whether the launch `key` is worth digests of `mem` before and after it runs: reading memory (about a
    /// nanosecond a word, twice) costs less than running it (tens of nanoseconds a step). The steps of its
    /// last run tell; a first launch is judged by its warps, which issue a few instructions each at least.
    pub(super) fn wants_digest(&self, key: &Key, mem: &GlobalMemory) -> bool {
        let words: u64 = mem.allocs.iter().map(|a| a.bytes() / 8).sum();
        match self.entries.get(key) {
            Some(Entry::Seen { steps, .. }) => steps.saturating_mul(16) >= words,
            Some(Entry::Known { answer, .. }) => answer.steps.saturating_mul(16) >= words,
            Some(Entry::GivenUp) => false,
            None => {
                let count = |d: &[u32; 3]| d.iter().fold(1u64, |n, &x| n.saturating_mul(x as u64));
                count(&key.1).saturating_mul(count(&key.2).div_ceil(32)).saturating_mul(32) >= words
            }
        }
    }

    /// The answer for launch `key` starting from memory with digest `before`, and the changes it makes, when
    /// the memo has them.
    pub(super) fn answer(&self, key: &Key, before: u128) -> Option<(Answer, &MemDelta)> {
        match self.entries.get(key) {
            Some(Entry::Known { before: b, answer, change, .. }) if *b == before => Some((answer.clone(), change)),
            _ => None,
        }
    }

    /// Launch `key` ran: `clean` when it completed with nothing to report but its printed lines, and, when
    /// digests were taken, the digest of the memory it started from and what it changed (None when it
    /// allocated).
    pub(super) fn ran(&mut self, key: Key, answer: Answer, clean: bool, measured: Option<(u128, Option<MemDelta>)>) {
        let misses = match self.entries.get(&key) {
            Some(Entry::GivenUp) => return,
            Some(Entry::Seen { misses, .. } | Entry::Known { misses, .. }) => *misses + measured.is_some() as u32,
            None => 0,
        };
        let entry = match measured {
            _ if !clean || misses > TRIES => Entry::GivenUp,
            Some((before, Some(change)))
                if change.bytes() <= DELTA_BYTES && self.kept + change.bytes() <= ALL_DELTA_BYTES =>
            {
                self.kept += change.bytes();
                Entry::Known { before, answer, change, misses }
            }
            _ => Entry::Seen { steps: answer.steps, misses },
        };
        if let Some(Entry::Known { change, .. }) = self.entries.insert(key, entry) {
            self.kept -= change.bytes();
        }
    }
}
