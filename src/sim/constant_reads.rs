//! Reads of `__constant__` memory, counted apart from global loads. On the GPU they go through the constant
//! cache (an `LDC`, or a `c[bank][offset]` operand of an arithmetic instruction), not through L1TEX, so Nsight
//! Compute's global-load requests and sectors do not include them. The constant cache serves one address per
//! cycle: a warp whose lanes read `n` different addresses is replayed `n` times (the serialisation a divergent
//! constant read costs; CUDA C++ Best Practices Guide, "Constant Memory"), and a uniform read is a broadcast.
//!
//! warpdbg's `__constant__` variables live in the global address space; a launch knows their address ranges
//! (the kernel's hidden parameters that hold them, `ir::Param::constant_bytes`), and `traffic.rs` hands a load
//! whose lowest active lane reads inside one of them to [`ConstantReads::record`] instead of its own counts.

use serde::Serialize;

/// One source line's constant-memory reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConstantLine {
    pub line: u32,
    /// Warp instructions that read constant memory with at least one active lane.
    pub requests: u64,
    /// Distinct addresses per request, summed: the constant cache's replays (a uniform read adds 1).
    pub addresses: u64,
}

/// A launch's constant-memory reads, per line, and where its `__constant__` variables are.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConstantReads {
    /// The `__constant__` variables' address ranges, `start..end`.
    ranges: Vec<(u64, u64)>,
    /// Indexed by source line (dense; a line without reads has 0 requests).
    lines: Vec<ConstantLine>,
}

impl ConstantReads {
    /// Counts reads inside `ranges` (`start..end`), none so far.
    pub fn new(ranges: Vec<(u64, u64)>) -> ConstantReads {
        ConstantReads { ranges, lines: vec![] }
    }

    /// The `__constant__` variables' address ranges.
    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.ranges
    }

    /// Whether the launch has `__constant__` variables (most have none: the check stops here).
    #[inline(always)]
    pub fn any(&self) -> bool {
        !self.ranges.is_empty()
    }

    /// Whether `addr` is in a `__constant__` variable.
    #[inline]
    pub fn holds(&self, addr: u64) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= addr && addr < b)
    }

    /// Counts one warp instruction's read on `line` by lanes reading `addrs` (one per active lane, in any
    /// order; reordered here).
    pub fn record(&mut self, line: u32, addrs: &mut [u64]) {
        if addrs.is_empty() {
            return;
        }
        addrs.sort_unstable();
        let distinct = 1 + addrs.windows(2).filter(|w| w[0] != w[1]).count() as u64;
        let i = line as usize;
        if i >= self.lines.len() {
            self.lines.resize_with(i + 1, Default::default);
        }
        let e = &mut self.lines[i];
        e.line = line;
        e.requests += 1;
        e.addresses += distinct;
    }

    /// Every line with reads, ascending.
    pub fn lines(&self) -> impl Iterator<Item = &ConstantLine> {
        self.lines.iter().filter(|l| l.requests > 0)
    }

    /// The launch's totals: (requests, distinct addresses summed over requests).
    pub fn totals(&self) -> (u64, u64) {
        self.lines().fold((0, 0), |(r, a), l| (r + l.requests, a + l.addresses))
    }

    /// Adds another run's reads (other blocks of the same launch): what one run of all of them records.
    pub fn merge(&mut self, from: &ConstantReads) {
        if self.ranges.is_empty() {
            self.ranges.clone_from(&from.ranges);
        }
        if self.lines.len() < from.lines.len() {
            self.lines.resize_with(from.lines.len(), Default::default);
        }
        for (e, f) in self.lines.iter_mut().zip(&from.lines) {
            e.line = e.line.max(f.line);
            e.requests += f.requests;
            e.addresses += f.addresses;
        }
    }

    /// Memory the counts hold.
    pub fn heap_bytes(&self) -> usize {
        self.ranges.capacity() * 16 + self.lines.capacity() * size_of::<ConstantLine>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_are_distinct_addresses() {
        let mut c = ConstantReads::new(vec![(0x100, 0x110)]);
        assert!(c.holds(0x100) && c.holds(0x10c) && !c.holds(0x110) && !c.holds(0xfc));
        assert!(c.any() && !ConstantReads::default().any());
        // A broadcast is one address; four different words are four replays, however many lanes read each.
        c.record(7, &mut [0x104; 32]);
        let mut four: Vec<u64> = (0..32).map(|l| 0x100 + 4 * (l % 4)).collect();
        c.record(7, &mut four);
        c.record(9, &mut []);
        let mut other = ConstantReads::default();
        other.record(3, &mut [0x108, 0x100]);
        c.merge(&other);
        let lines: Vec<_> = c.lines().map(|l| (l.line, l.requests, l.addresses)).collect();
        assert_eq!(lines, vec![(3, 1, 2), (7, 2, 5)]);
        assert_eq!(c.totals(), (3, 7));
        other.merge(&c);
        assert_eq!(other.ranges(), &[(0x100, 0x110)]);
    }
}
