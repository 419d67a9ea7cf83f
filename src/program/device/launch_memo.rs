//! Repeated launches of `warpdbg run`: a course times a kernel by launching it ten or a hundred times in a
//! loop (`for (int i = 0; i < 100; i++) add<<<n / 256, 256>>>(a, b, c, n);`), and at 10^7 elements each
//! launch takes seconds here.
//!
//! A launch is a deterministic function of its kernel, configuration, argument bits and the device memory it
//! starts from (the program's memory: [`GlobalMemory::digest`] covers every byte, which bytes were written,
//! and the allocations' names and places); `Machine::run` reads nothing else. So when a launch with the same
//! kernel, configuration and arguments as an earlier one starts from memory equal to what that earlier one
//! started from, it does exactly what that one did. The memo keeps, per such key, the digest of the memory the
//! last run started from, when that run completed cleanly (no hazard, fault, finding or child grid) and left
//! memory as it found it (the kernel writes what it reads from elsewhere: `c = a + b` run again): a later
//! launch whose memory has that digest is then answered from the memo (the same record, steps, virtual time
//! and printed lines) without running, and memory stays as it is, which is what running it would leave.
//! Launches under the debugger or with `--json` always run, and all do with `WARPDBG_NO_LAUNCH_MEMO`.

use std::collections::HashMap;

use crate::sim::GlobalMemory;

/// Failed tries (memory changed, or the launch did) before a key is given up.
const TRIES: u32 = 3;

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
    /// Its last run started from memory with this digest and left it unchanged.
    Known {
        before: u128,
        answer: Answer,
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
}

impl LaunchMemo {
    /// Whether the launch `key` is worth a digest of `mem` before it runs: it ran before, long enough that
    /// reading memory (about a nanosecond a word) costs less than running it (tens of nanoseconds a step).
    pub(super) fn wants_digest(&self, key: &Key, mem: &GlobalMemory) -> bool {
        let words: u64 = mem.allocs.iter().map(|a| a.bytes() / 8).sum();
        match self.entries.get(key) {
            Some(Entry::Seen { steps, .. }) => steps.saturating_mul(16) >= words,
            Some(Entry::Known { answer, .. }) => answer.steps.saturating_mul(16) >= words,
            _ => false,
        }
    }

    /// The answer for launch `key` starting from memory with digest `before`, when the memo has one.
    pub(super) fn answer(&self, key: &Key, before: u128) -> Option<Answer> {
        match self.entries.get(key) {
            Some(Entry::Known { before: b, answer, .. }) if *b == before => Some(answer.clone()),
            _ => None,
        }
    }

    /// Launch `key` ran: `clean` when it completed with nothing to report but its printed lines, and, when
    /// digests were taken, the memory's before and after.
    pub(super) fn ran(&mut self, key: Key, answer: Answer, clean: bool, digests: Option<(u128, u128)>) {
        let misses = match self.entries.get(&key) {
            Some(Entry::GivenUp) => return,
            Some(Entry::Seen { misses, .. } | Entry::Known { misses, .. }) => *misses + digests.is_some() as u32,
            None => 0,
        };
        let entry = match digests {
            _ if !clean || misses > TRIES => Entry::GivenUp,
            Some((before, after)) if before == after => Entry::Known { before, answer, misses },
            _ => Entry::Seen { steps: answer.steps, misses },
        };
        self.entries.insert(key, entry);
    }
}
