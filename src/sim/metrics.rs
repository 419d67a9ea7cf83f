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
    pub per_line: BTreeMap<u32, LineMetrics>,
}

impl Metrics {
    pub fn line(&mut self, line: u32) -> &mut LineMetrics {
        self.per_line.entry(line).or_insert_with(|| LineMetrics { line, ..Default::default() })
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
