//! Shared-memory bank conflicts: 32 banks of 4-byte words. A warp's access takes as many wavefronts as the
//! most distinct words any one bank must serve (lanes reading the same word share it: a broadcast). Nsight
//! Compute reports the extra wavefronts (`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum` and
//! `..._op_st.sum`); warpdbg counts the same per source line.

use std::collections::BTreeMap;

use serde::Serialize;

/// Per source line.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BankLine {
    pub line: u32,
    /// Warp-level shared loads and stores on this line.
    pub accesses: u64,
    pub wavefronts: u64,
    /// Extra wavefronts: `wavefronts - accesses` (Nsight's bank conflicts).
    pub conflicts: u64,
    /// Of `accesses` and `wavefronts`, those of stores (Nsight's `..._op_st`; the rest are `..._op_ld`).
    pub store_accesses: u64,
    pub store_wavefronts: u64,
    /// The worst N-way conflict seen.
    pub max_ways: u32,
    /// The first access on the line of the lowest-numbered warp that made one (block, then warp within it):
    /// (lane, bank, word offset in shared memory). Defined by warp numbers rather than time so that a run
    /// whose blocks go in any order (`machine/parallel.rs`) keeps the same sample.
    pub sample: Vec<(u32, u32, u32)>,
    /// The last access on the line of the highest-numbered warp that made one: (lane, byte offset in shared
    /// memory). Kept for displays, not reported.
    #[serde(skip)]
    pub last: Vec<(u32, u32)>,
    /// The warps whose accesses `sample` and `last` are (`block * warps per block + warp`).
    #[serde(skip)]
    pub sample_warp: u64,
    #[serde(skip)]
    pub last_warp: u64,
}

impl BankLine {
    /// Offers a sample made by warp `first.0` and a last access made by warp `last.0` (written, into the
    /// vectors kept, only if kept: a whole run offers one at every access): the lowest-numbered warp's sample
    /// and the highest-numbered warp's last access stay, whatever order the accesses come in. Called before
    /// the access is counted.
    fn keep_samples(
        &mut self,
        first: (u64, impl FnOnce(&mut Vec<(u32, u32, u32)>)),
        last: (u64, impl FnOnce(&mut Vec<(u32, u32)>)),
    ) {
        if self.accesses == 0 || first.0 < self.sample_warp {
            self.sample.clear();
            first.1(&mut self.sample);
            self.sample_warp = first.0;
        }
        if self.accesses == 0 || last.0 >= self.last_warp {
            self.last.clear();
            last.1(&mut self.last);
            self.last_warp = last.0;
        }
    }
}

/// One bank's share of a warp access: the lanes that hit it and the distinct words they asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BankHits {
    pub bank: u32,
    pub lanes: Vec<u32>,
    pub words: Vec<u32>,
}

/// The lane-to-bank matrix of one warp access ((lane, byte offset) pairs): the 32 banks in order, each with
/// the lanes that hit it and its distinct words (their count is the bank's N-way; the worst is [`ways`]).
pub fn bank_matrix(accesses: &[(u32, u32)]) -> Vec<BankHits> {
    let mut out: Vec<BankHits> = (0..32).map(|bank| BankHits { bank, ..Default::default() }).collect();
    for &(lane, off) in accesses {
        let word = off / 4;
        let b = &mut out[(word % 32) as usize];
        if !b.lanes.contains(&lane) {
            b.lanes.push(lane);
        }
        if !b.words.contains(&word) {
            b.words.push(word);
        }
    }
    for b in &mut out {
        b.lanes.sort_unstable();
    }
    out
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BankStats {
    pub per_line: BTreeMap<u32, BankLine>,
}

/// The number of wavefronts for one warp access: (lane, byte offset) pairs.
pub fn ways(accesses: &[(u32, u32)]) -> u32 {
    // The commonest case first: every access in a bank of its own (`sdata[tid]`).
    let banks = accesses.iter().fold(0u32, |b, &(_, off)| b | 1 << ((off / 4) % 32));
    if banks.count_ones() as usize == accesses.len() {
        return 1;
    }
    // Then: each bank asked for one word at most (no conflict, broadcasts allowed).
    let mut word_of_bank = [u32::MAX; 32];
    let mut conflict = false;
    for &(_, off) in accesses {
        let word = off / 4;
        let w = &mut word_of_bank[(word % 32) as usize];
        conflict |= *w != u32::MAX && *w != word;
        *w = word;
    }
    if !conflict {
        return 1;
    }
    let mut words_per_bank: [[u32; 32]; 32] = [[u32::MAX; 32]; 32];
    let mut counts = [0u32; 32];
    for &(_, off) in accesses {
        let word = off / 4;
        let bank = (word % 32) as usize;
        let n = counts[bank] as usize;
        if !words_per_bank[bank][..n].contains(&word) {
            words_per_bank[bank][n] = word;
            counts[bank] += 1;
        }
    }
    counts.iter().copied().max().unwrap_or(0).max(1)
}

impl BankStats {
    /// One warp access (a store when `store`) on `line` by warp `warp` (numbered as [`BankLine::sample_warp`]).
    pub fn record(&mut self, line: u32, warp: u64, accesses: &[(u32, u32)], store: bool) {
        if accesses.is_empty() {
            return;
        }
        let w = ways(accesses);
        let e = self.per_line.entry(line).or_insert_with(|| BankLine { line, ..Default::default() });
        e.keep_samples(
            (warp, |s| s.extend(accesses.iter().map(|&(l, off)| (l, (off / 4) % 32, off / 4)))),
            (warp, |s| s.extend_from_slice(accesses)),
        );
        e.accesses += 1;
        e.wavefronts += w as u64;
        e.conflicts += w as u64 - 1;
        if store {
            e.store_accesses += 1;
            e.store_wavefronts += w as u64;
        }
        e.max_ways = e.max_ways.max(w);
    }

    /// Adds another run's statistics (other blocks of the same launch): what one run of all of them records.
    pub fn merge(&mut self, from: &BankStats) {
        for (line, f) in &from.per_line {
            let e = self.per_line.entry(*line).or_insert_with(|| BankLine { line: *line, ..Default::default() });
            e.keep_samples(
                (f.sample_warp, |s| s.extend_from_slice(&f.sample)),
                (f.last_warp, |s| s.extend_from_slice(&f.last)),
            );
            e.accesses += f.accesses;
            e.wavefronts += f.wavefronts;
            e.store_accesses += f.store_accesses;
            e.store_wavefronts += f.store_wavefronts;
            e.conflicts += f.conflicts;
            e.max_ways = e.max_ways.max(f.max_ways);
        }
    }

    pub fn total_conflicts(&self) -> u64 {
        self.per_line.values().map(|l| l.conflicts).sum()
    }

    /// The launch's shared requests and wavefronts: ((load requests, load wavefronts), (store requests,
    /// store wavefronts)).
    pub fn totals(&self) -> ((u64, u64), (u64, u64)) {
        let (mut ld, mut st) = ((0, 0), (0, 0));
        for l in self.per_line.values() {
            ld.0 += l.accesses - l.store_accesses;
            ld.1 += l.wavefronts - l.store_wavefronts;
            st.0 += l.store_accesses;
            st.1 += l.store_wavefronts;
        }
        (ld, st)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stride_two_is_two_way_and_padding_removes_it() {
        let stride2: Vec<(u32, u32)> = (0..32).map(|l| (l, 4 * 2 * l)).collect();
        assert_eq!(ways(&stride2), 2);
        let row33: Vec<(u32, u32)> = (0..32).map(|l| (l, 4 * 33 * l)).collect();
        assert_eq!(ways(&row33), 1);
        let row32: Vec<(u32, u32)> = (0..32).map(|l| (l, 4 * 32 * l)).collect();
        assert_eq!(ways(&row32), 32);
        let broadcast: Vec<(u32, u32)> = (0..32).map(|l| (l, 0)).collect();
        assert_eq!(ways(&broadcast), 1);
        let m = bank_matrix(&row32);
        assert_eq!((m[0].lanes.len(), m[0].words.len()), (32, 32));
        assert!(m[1..].iter().all(|b| b.lanes.is_empty()));
        let m = bank_matrix(&stride2);
        assert_eq!((m[2].lanes.clone(), m[2].words.len()), (vec![1, 17], 2));
    }
}
