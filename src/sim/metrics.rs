//! Divergence metrics with Nsight Compute's definitions, counted per source branch statement
//! (interface.md): branches, divergent branches, branch efficiency, threads per instruction.

use std::collections::BTreeMap;

use serde::Serialize;

/// Counts for one source line.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LineMetrics {
    pub line: u32,
    pub branches: u64,
    pub divergent_branches: u64,
    pub divergent_warps: u64,
    /// Warp-instructions issued for this line (extension).
    pub warp_instructions: u64,
    /// Active threads summed over those issues (extension).
    pub thread_instructions: u64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    pub warps: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub branches: u64,
    pub divergent_branches: u64,
    pub divergent_warps: u64,
    pub max_stack_depth: u32,
    /// Grid-wide barriers (`this_grid().sync()`) the grid passed.
    pub grid_syncs: u64,
    /// Branch counts per line (lines with branches only).
    pub per_line: BTreeMap<u32, LineMetrics>,
    /// Warp- and thread-instructions per line, indexed by line (dense: counted every step).
    pub line_instructions: Vec<[u64; 2]>,
    /// Shared-memory bank conflicts per line.
    pub banks: super::banks::BankStats,
    /// Global-memory requests and sectors per line, the footprint and atomics per address.
    pub traffic: super::traffic::Traffic,
}

impl Metrics {
    pub fn line(&mut self, line: u32) -> &mut LineMetrics {
        self.per_line.entry(line).or_insert_with(|| LineMetrics { line, ..Default::default() })
    }

    /// Counts `n` executions of the branch statement on `line`, `divergent` of them by warps whose threads
    /// disagreed.
    pub fn count_branches(&mut self, line: u32, n: u64, divergent: u64) {
        self.branches += n;
        self.divergent_branches += divergent;
        let l = self.line(line);
        l.branches += n;
        l.divergent_branches += divergent;
    }

    /// Counts one execution of the branch statement on `line` (and whether the warp's threads disagreed).
    pub fn count_branch(&mut self, line: u32, divergent: bool) {
        self.count_branches(line, 1, divergent as u64);
    }

    /// A SIMT stack reached `depth` entries (`None`: a model without one).
    #[inline]
    pub fn note_stack_depth(&mut self, depth: Option<u32>) {
        if let Some(d) = depth {
            self.max_stack_depth = self.max_stack_depth.max(d);
        }
    }

    /// Counts one issued instruction of `threads` active threads on `line`.
    #[inline]
    pub fn count_instruction(&mut self, line: u32, threads: u32) {
        self.warp_instructions += 1;
        self.thread_instructions += threads as u64;
        self.count_line(line, threads);
    }

    /// The per-line part of [`Metrics::count_instruction`] (a caller that issues many instructions in a row
    /// adds the totals once).
    #[inline]
    pub fn count_line(&mut self, line: u32, threads: u32) {
        self.add_line(line, 1, threads as u64);
    }

    /// Counts `issues` issued instructions with `threads` active threads in all on `line`.
    #[inline]
    pub fn add_line(&mut self, line: u32, issues: u64, threads: u64) {
        let i = line as usize;
        if i >= self.line_instructions.len() {
            self.line_instructions.resize(i + 1, [0, 0]);
        }
        let c = &mut self.line_instructions[i];
        c[0] += issues;
        c[1] += threads;
    }

    /// Every line that issued instructions or has branches, with all its counts.
    pub fn lines(&self) -> Vec<LineMetrics> {
        let mut out: BTreeMap<u32, LineMetrics> = self.per_line.clone();
        for (i, c) in self.line_instructions.iter().enumerate() {
            if c[0] > 0 {
                let l = out.entry(i as u32).or_insert_with(|| LineMetrics { line: i as u32, ..Default::default() });
                l.warp_instructions = c[0];
                l.thread_instructions = c[1];
            }
        }
        out.into_values().collect()
    }

    pub fn threads_per_instruction(&self) -> f64 {
        if self.warp_instructions == 0 { 0.0 } else { self.thread_instructions as f64 / self.warp_instructions as f64 }
    }

    /// Percent of branch executions on which all active threads agreed.
    pub fn branch_efficiency(&self) -> f64 {
        if self.branches == 0 {
            100.0
        } else {
            100.0 * (self.branches - self.divergent_branches) as f64 / self.branches as f64
        }
    }
}

/// Per-warp divergence bookkeeping, so `divergent_warps` counts each warp once (overall and per line).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct WarpDivergence {
    pub divergent_branches: u64,
    pub lines: Vec<u32>,
}

impl WarpDivergence {
    /// Records one divergent branch of this warp at `line`.
    pub fn record(&mut self, line: u32, m: &mut Metrics) {
        if self.divergent_branches == 0 {
            m.divergent_warps += 1;
        }
        self.divergent_branches += 1;
        if !self.lines.contains(&line) {
            self.lines.push(line);
            m.line(line).divergent_warps += 1;
        }
    }
}
