//! Global-memory traffic, counted as Nsight Compute counts it at L1 (`l1tex__t_requests_pipe_lsu_mem_global_op_*`
//! and `l1tex__t_sectors_pipe_lsu_mem_global_op_*`): a warp's load, store or atomic instruction is one request,
//! and the request costs the distinct 32-byte sectors its active lanes touch. These are facts of the execution
//! (which lanes asked for which addresses), not of a model: the timing model (`crate::perf`) prices them.
//!
//! Besides the per-line counts, a launch keeps how it used every 128-byte line it touched (which blocks, how
//! many sectors, how often: its footprint, what it must move from DRAM at least once, and its reuse, which
//! caches may serve) and, for atomics, how many requests hit each address (same-address atomics serialise at
//! L2).

use std::collections::HashMap;

use serde::Serialize;

use crate::ir::{Kernel, VecPart};
use crate::sim::constant_reads::ConstantReads;

mod line_map;
mod sectors;

use crate::sim::lane_runs::LaneRuns;
pub use line_map::{LineMap, LineUse};
use sectors::distinct_sectors;
pub use sectors::{best_sectors, sectors_of};

/// Bytes in a sector, the unit global memory moves in.
pub const SECTOR_BYTES: u64 = 32;

/// What a global access does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlobalOp {
    Load,
    Store,
    Atomic,
}

/// Requests, the sectors they touched and the bytes their lanes asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Requests {
    pub requests: u64,
    pub sectors: u64,
    pub bytes: u64,
    /// Distinct 128-byte lines per request, summed: L1 looks up one tag per line, and a line missing in L1 is
    /// one request to L2.
    pub lines: u64,
}

impl Requests {
    fn add(&mut self, o: &Requests) {
        self.requests += o.requests;
        self.sectors += o.sectors;
        self.bytes += o.bytes;
        self.lines += o.lines;
    }

    /// Sectors per request (nvprof's `gld_transactions_per_request`); 0 without requests.
    pub fn sectors_per_request(&self) -> f64 {
        if self.requests == 0 { 0.0 } else { self.sectors as f64 / self.requests as f64 }
    }

    /// Bytes asked for over bytes moved, in percent (nvprof's `gld_efficiency`); 100 without requests.
    pub fn efficiency(&self) -> f64 {
        if self.sectors == 0 { 100.0 } else { 100.0 * self.bytes as f64 / (self.sectors * SECTOR_BYTES) as f64 }
    }
}

/// One source line's global traffic.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TrafficLine {
    pub line: u32,
    pub load: Requests,
    pub store: Requests,
    pub atomic: Requests,
    /// The first request on the line of the lowest-numbered warp that made one: its kind, element size and
    /// (lane, address) pairs. Defined by warp numbers, as `BankLine::sample`, so any block order keeps it.
    #[serde(skip)]
    pub sample: Option<Sample>,
}

impl TrafficLine {
    /// All three kinds together.
    pub fn total(&self) -> Requests {
        let mut t = self.load;
        t.add(&self.store);
        t.add(&self.atomic);
        t
    }

    fn of(&mut self, op: GlobalOp) -> &mut Requests {
        match op {
            GlobalOp::Load => &mut self.load,
            GlobalOp::Store => &mut self.store,
            GlobalOp::Atomic => &mut self.atomic,
        }
    }
}

/// A request kept for display (the coalescing view).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub warp: u64,
    pub op: GlobalOp,
    pub size: u32,
    pub lanes: Vec<(u32, u64)>,
}

/// One warp instruction's global accesses, as the data path made them (`exec::Ctx::global_access`): lane by
/// lane into `addrs`, or, for a whole run's consecutive elements, only their start.
#[derive(Clone, Copy, Debug, Default)]
pub struct WarpAccess {
    pub op: Option<GlobalOp>,
    pub size: u32,
    pub mask: u32,
    /// Lane `l` (of `mask`) accessed `start + (l - lowest lane) * size`: `addrs` is not filled.
    pub elems: Option<u64>,
    pub addrs: [u64; 32],
}

impl WarpAccess {
    /// Lane `lane` accessed `size` bytes at `addr`.
    #[inline(always)]
    pub fn lane(&mut self, op: GlobalOp, lane: u32, addr: u64, size: u32) {
        self.op = Some(op);
        self.size = size;
        self.mask |= 1 << lane;
        self.addrs[lane as usize] = addr;
    }

    /// The lanes of `mask` accessed consecutive `size`-byte elements from `start`.
    #[inline(always)]
    pub fn elems(&mut self, op: GlobalOp, start: u64, size: u32, mask: u32) {
        (self.op, self.size, self.mask, self.elems) = (Some(op), size, mask, Some(start));
    }

    /// The lanes of `mask` accessed `addrs[lane]`.
    #[inline(always)]
    pub fn gather(&mut self, op: GlobalOp, addrs: &[u64; 32], size: u32, mask: u32) {
        (self.op, self.size, self.mask, self.elems) = (Some(op), size, mask, None);
        self.addrs = *addrs;
    }

    /// Makes this field access of a vector type (`part`) the request the GPU makes: the first field's lanes
    /// ask for the whole vector (one 64- or 128-bit access); a later field's bytes were in that request, and
    /// it makes none (false).
    #[inline(always)]
    pub fn as_vector(&mut self, part: VecPart) -> bool {
        match part {
            VecPart::Alone => true,
            VecPart::Rest => false,
            VecPart::First { bytes } => {
                self.widen(bytes as u32);
                true
            }
        }
    }

    /// Each lane asks for `size` bytes from its address (a vector's first field's: from the vector's).
    #[inline(never)]
    fn widen(&mut self, size: u32) {
        if self.elems.is_some() {
            // Lane addresses before the size changes (consecutive elements are counted in the size).
            for l in crate::sim::lane_mask::LaneMask(self.mask).iter() {
                self.addrs[l as usize] = self.addr(l);
            }
            self.elems = None;
        }
        self.size = size;
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.op.is_none()
    }

    pub fn clear(&mut self) {
        (self.op, self.mask, self.elems) = (None, 0, None);
    }

    /// The address of lane `l` (one of `mask`).
    #[inline(always)]
    pub fn addr(&self, l: u32) -> u64 {
        match self.elems {
            Some(start) => start + ((l - self.mask.trailing_zeros()) * self.size) as u64,
            None => self.addrs[l as usize],
        }
    }

    /// The (lane, address) pairs, lanes ascending.
    pub fn lanes(&self) -> Vec<(u32, u64)> {
        crate::sim::lane_mask::LaneMask(self.mask).iter().map(|l| (l, self.addr(l))).collect()
    }
}

/// A launch's global traffic.
#[derive(Clone, Default, PartialEq)]
pub struct Traffic {
    /// Indexed by source line (dense: a line without requests has none counted).
    lines: Vec<TrafficLine>,
    /// Every 128-byte line touched: the footprint and the reuse the timing model prices.
    pub lines_used: LineMap,
    /// Atomic requests per address (a request's lanes on one address count once: nvcc and the L2 combine
    /// them).
    pub atomics_per_address: HashMap<u64, u64>,
    /// Loads from `__constant__` variables: the constant cache's, counted apart (none of the above).
    pub constant: ConstantReads,
    /// Where the launch's local variables' per-thread copies are (start, end): their accesses are local
    /// memory, which nvcc often keeps in registers, never global traffic (ncu counts them apart too).
    local: Vec<(u64, u64)>,
}

impl std::fmt::Debug for Traffic {
    /// The atomics' addresses in order: a map's own order depends on how it was filled (a whole run merges
    /// block ranges' maps).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let atomics: std::collections::BTreeMap<_, _> = self.atomics_per_address.iter().collect();
        f.debug_struct("Traffic")
            .field("lines", &self.lines)
            .field("lines_used", &self.lines_used)
            .field("atomics_per_address", &atomics)
            .field("constant", &self.constant)
            .finish()
    }
}

impl Traffic {
    /// No traffic yet in a launch of `kernel` with parameter values `params`: the hidden parameters that hold
    /// `__constant__` variables' addresses say where reads are constant-cache reads.
    /// `__constant__` variables' addresses say where reads are constant-cache reads, and those of the local
    /// variables' copies (one per each of `threads`) where accesses are local memory.
    pub fn for_launch(kernel: &Kernel, params: &[u64], threads: u64) -> Traffic {
        let vars = || kernel.params.iter().zip(params);
        let ranges = vars().filter_map(|(p, &at)| p.constant_bytes.map(|n| (at, at + n))).collect();
        let local = vars().filter_map(|(p, &at)| p.local_bytes.map(|n| (at, at + n.saturating_mul(threads)))).collect();
        Traffic { constant: ConstantReads::new(ranges), local, ..Default::default() }
    }

    /// Counts warp `warp`'s request `a` on `line` (warps numbered as [`Sample::warp`]). A load whose lowest
    /// active lane reads a `__constant__` variable is a constant-cache read ([`ConstantReads`]) instead.
    pub fn record(&mut self, line: u32, block: u64, warp: u64, a: &WarpAccess) {
        let block = block.min(u32::MAX as u64) as u32;
        let Some(op) = a.op else { return };
        if a.mask == 0 {
            return;
        }
        if !self.local.is_empty() {
            let at = a.addr(a.mask.trailing_zeros());
            if self.local.iter().any(|&(start, end)| (start..end).contains(&at)) {
                return;
            }
        }
        if op == GlobalOp::Load && self.constant.any() && self.constant.holds(a.addr(a.mask.trailing_zeros())) {
            let mut addrs = [0u64; 32];
            let n = a.mask.count_ones() as usize;
            for (k, l) in crate::sim::lane_mask::LaneMask(a.mask).iter().enumerate() {
                addrs[k] = a.addr(l);
            }
            self.constant.record(line, &mut addrs[..n]);
            return;
        }
        let lanes = a.mask.count_ones() as u64;
        let mut lines = 0u64;
        let sectors = match a.elems {
            Some(start) => {
                let (n, l) = self.elems_sectors(op, block, start, a.size.max(1) as u64, a.mask);
                lines = l;
                n
            }
            None => match LaneRuns::of(&a.addrs, a.mask, a.size.max(1) as u64) {
                // A few runs of neighbouring lanes (a warp over rows of a matrix): their sectors from their spans.
                Some(runs) => {
                    let mut prev = None;
                    runs.units(SECTOR_BYTES, |first, last| {
                        lines += self.footprint(op, block, first, last, prev);
                        prev = Some(last / 4);
                    })
                }
                None => self.scattered_sectors(op, block, a, &mut lines),
            },
        };
        let i = line as usize;
        if i >= self.lines.len() {
            self.lines.resize_with(i + 1, Default::default);
        }
        let e = &mut self.lines[i];
        e.line = line;
        if e.sample.as_ref().is_none_or(|s| warp < s.warp) {
            e.sample = Some(Sample { warp, op, size: a.size, lanes: a.lanes() });
        }
        let r = e.of(op);
        r.requests += 1;
        r.sectors += sectors;
        r.bytes += lanes * a.size as u64;
        r.lines += lines;
        if op == GlobalOp::Atomic {
            let mut seen: Vec<u64> = crate::sim::lane_mask::LaneMask(a.mask).iter().map(|l| a.addr(l)).collect();
            seen.sort_unstable();
            seen.dedup();
            for x in seen {
                *self.atomics_per_address.entry(x).or_default() += 1;
            }
        }
    }

    /// Request `a`'s sectors lane by lane, sorted and merged (any addresses, any sizes): how many, with the
    /// lines they lie in added to `lines`.
    fn scattered_sectors(&mut self, op: GlobalOp, block: u32, a: &WarpAccess, lines: &mut u64) -> u64 {
        let mut scratch = [0u64; 64];
        let n = distinct_sectors(a, &mut scratch);
        let (mut i, mut prev_line) = (0, None);
        // Runs of consecutive sectors go into the line map together.
        while i < n {
            let mut j = i;
            while j + 1 < n && scratch[j + 1] == scratch[j] + 1 {
                j += 1;
            }
            *lines += self.footprint(op, block, scratch[i], scratch[j], prev_line);
            prev_line = Some(scratch[j] / 4);
            i = j + 1;
        }
        n as u64
    }

    /// The sectors of consecutive `size`-byte elements from `start`, one per lane of `mask` from its lowest:
    /// each sector of the span counts when a lane of `mask` falls in it (without a loop over the lanes).
    fn elems_sectors(&mut self, op: GlobalOp, block: u32, start: u64, size: u64, mask: u32) -> (u64, u64) {
        let first = mask.trailing_zeros();
        let top = 32 - mask.leading_zeros();
        let lanes = mask >> first;
        let end = start + (top - first) as u64 * size;
        if lanes.count_ones() == top - first {
            // No gap between the lanes: every sector of the span.
            let (a, b) = (start / SECTOR_BYTES, (end - 1) / SECTOR_BYTES);
            let lines = self.footprint(op, block, a, b, None);
            return (b - a + 1, lines);
        }
        if size.is_power_of_two() && size <= SECTOR_BYTES && start.is_multiple_of(size) {
            return self.aligned_elems_sectors(op, block, start, size, lanes);
        }
        self.gapped_elems_sectors(op, block, start, size, lanes)
    }

    /// [`Traffic::elems_sectors`] of `lanes` (the mask from its lowest lane, which is bit 0), any alignment:
    /// each sector of the span tested against the lanes.
    fn gapped_elems_sectors(&mut self, op: GlobalOp, block: u32, start: u64, size: u64, lanes: u32) -> (u64, u64) {
        let end = start + (32 - lanes.leading_zeros()) as u64 * size;
        // Element sizes here are powers of two (`exec::bulk`), so divisions are shifts.
        let k = size.trailing_zeros();
        let (mut n, mut run, mut lines, mut prev) = (0, None::<(u64, u64)>, 0, None);
        for s in start / SECTOR_BYTES..=(end - 1) / SECTOR_BYTES {
            // The elements overlapping sector `s`: [e_lo, e_hi), counted from the lowest lane.
            let e_lo = (s * SECTOR_BYTES).saturating_sub(start) >> k;
            let e_hi = (((s + 1) * SECTOR_BYTES - start + size - 1) >> k).min(32);
            let range = if e_hi >= 32 { u32::MAX } else { (1u32 << e_hi) - 1 } & !((1u32 << e_lo.min(31)) - 1);
            if lanes & range == 0 {
                continue;
            }
            n += 1;
            run = match run {
                Some((a, b)) if b + 1 == s => Some((a, s)),
                Some((a, b)) => {
                    lines += self.footprint(op, block, a, b, prev);
                    prev = Some(b / 4);
                    Some((s, s))
                }
                None => Some((s, s)),
            };
        }
        if let Some((a, b)) = run {
            lines += self.footprint(op, block, a, b, prev);
        }
        (n, lines)
    }

    /// [`Traffic::elems_sectors`] of `lanes` (the mask from its lowest lane, which is bit 0) when no element
    /// straddles two sectors (`size` a power of two up to a sector, `start` a multiple of it): element `j`
    /// lies in sector `(start's slot + j) / per` counted from start's sector, so the sectors touched are the
    /// groups of `per` bits of the slots that hold a lane, found a word of bits at a time instead of by
    /// testing every sector of the span against the lanes.
    #[inline]
    fn aligned_elems_sectors(&mut self, op: GlobalOp, block: u32, start: u64, size: u64, lanes: u32) -> (u64, u64) {
        let per = (SECTOR_BYTES / size) as u32;
        let slot = ((start % SECTOR_BYTES) / size) as u32;
        // At most 31 + 32 bits: a u64 holds the slots of every sector of the span.
        let slots = (lanes as u64) << slot;
        let group = if per >= 64 { u64::MAX } else { (1u64 << per) - 1 };
        let mut touched = 0u64;
        let mut i = 0;
        while i * per < 64 && slots >> (i * per) != 0 {
            touched |= ((slots >> (i * per) & group != 0) as u64) << i;
            i += 1;
        }
        let base = start / SECTOR_BYTES;
        let (mut lines, mut prev) = (0, None);
        let mut rest = touched;
        while rest != 0 {
            // The lowest run of touched sectors.
            let a = rest.trailing_zeros() as u64;
            let b = a + (rest >> a).trailing_ones() as u64 - 1;
            lines += self.footprint(op, block, base + a, base + b, prev);
            prev = Some((base + b) / 4);
            rest &= if b >= 63 { 0 } else { u64::MAX << (b + 1) };
        }
        (touched.count_ones() as u64, lines)
    }

    /// Block `block`'s request asked for sectors `first..=last` (ascending runs; `prev`: the line the run
    /// before ended in). Returns the lines the run adds to the request.
    #[inline]
    fn footprint(&mut self, op: GlobalOp, block: u32, first: u64, last: u64, prev: Option<u64>) -> u64 {
        self.lines_used.touch(block, first, last, op != GlobalOp::Load, op != GlobalOp::Store);
        last / 4 - first / 4 + 1 - (prev == Some(first / 4)) as u64
    }

    /// Every line with requests, ascending.
    pub fn lines(&self) -> impl Iterator<Item = &TrafficLine> {
        self.lines.iter().filter(|l| l.sample.is_some())
    }

    /// Line `line`'s counts, if it made requests.
    pub fn line(&self, line: u32) -> Option<&TrafficLine> {
        self.lines.get(line as usize).filter(|l| l.sample.is_some())
    }

    /// Adds another run's traffic (other blocks of the same launch): what one run of all of them records.
    pub fn merge(&mut self, from: &Traffic) {
        if self.local.is_empty() {
            self.local.clone_from(&from.local);
        }
        if self.lines.len() < from.lines.len() {
            self.lines.resize_with(from.lines.len(), Default::default);
        }
        for (e, f) in self.lines.iter_mut().zip(&from.lines) {
            e.line = e.line.max(f.line);
            e.load.add(&f.load);
            e.store.add(&f.store);
            e.atomic.add(&f.atomic);
            if let Some(s) = &f.sample
                && e.sample.as_ref().is_none_or(|m| s.warp < m.warp)
            {
                e.sample = Some(s.clone());
            }
        }
        self.lines_used.merge(&from.lines_used);
        for (a, n) in &from.atomics_per_address {
            *self.atomics_per_address.entry(*a).or_default() += n;
        }
        self.constant.merge(&from.constant);
    }

    /// The launch's totals per kind: (load, store, atomic).
    pub fn totals(&self) -> (Requests, Requests, Requests) {
        let (mut l, mut s, mut a) = (Requests::default(), Requests::default(), Requests::default());
        for t in self.lines() {
            l.add(&t.load);
            s.add(&t.store);
            a.add(&t.atomic);
        }
        (l, s, a)
    }

    /// The most atomic operations any one address received.
    pub fn max_atomics_per_address(&self) -> u64 {
        self.atomics_per_address.values().copied().max().unwrap_or(0)
    }

    /// Memory the counts hold.
    pub fn heap_bytes(&self) -> usize {
        self.lines.capacity() * size_of::<TrafficLine>()
            + self.lines().count() * (32 * 12 + 32)
            + self.lines_used.heap_bytes()
            + self.atomics_per_address.capacity() * 17
            + self.constant.heap_bytes()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn lanes(op: GlobalOp, size: u32, addr: impl Fn(u32) -> u64) -> WarpAccess {
        let mut a = WarpAccess::default();
        for l in 0..32 {
            a.lane(op, l, addr(l), size);
        }
        a
    }

    #[test]
    fn strides_cost_their_sectors() {
        let base = 0x1000_0000u64;
        for (stride, sectors) in [(1u64, 4u64), (2, 8), (4, 16), (8, 32), (32, 32)] {
            let mut t = Traffic::default();
            t.record(3, 0, 0, &lanes(GlobalOp::Load, 4, |l| base + 4 * stride * l as u64));
            let r = t.line(3).unwrap().load;
            assert_eq!((r.requests, r.sectors, r.bytes), (1, sectors, 128), "stride {stride}");
        }
        // A misaligned warp of floats straddles five sectors; doubles need eight.
        let mut t = Traffic::default();
        t.record(1, 0, 0, &lanes(GlobalOp::Load, 4, |l| base + 4 + 4 * l as u64));
        t.record(2, 0, 0, &lanes(GlobalOp::Store, 8, |l| base + 8 * l as u64));
        assert_eq!(t.line(1).unwrap().load.sectors, 5);
        assert_eq!(t.line(2).unwrap().store.sectors, 8);
        assert_eq!(t.line(2).unwrap().store.efficiency(), 100.0);
        // Everyone on one word: one sector, a broadcast.
        t.record(4, 0, 0, &lanes(GlobalOp::Load, 4, |_| base));
        assert_eq!(t.line(4).unwrap().load.sectors, 1);
        assert_eq!(t.line(4).unwrap().load.efficiency(), 400.0);
    }

    #[test]
    fn consecutive_elements_equal_lane_by_lane() {
        let base = 0x2000_0010u64;
        for mask in [u32::MAX, 0xffff_0000, 0x0000_ff0f, 0x8000_0001, 0x0f0f_0f0f] {
            let mut by_lane = WarpAccess::default();
            let first = mask.trailing_zeros();
            for l in crate::sim::lane_mask::LaneMask(mask).iter() {
                by_lane.lane(GlobalOp::Load, l, base + 4 * (l - first) as u64, 4);
            }
            let mut elems = WarpAccess::default();
            elems.elems(GlobalOp::Load, base, 4, mask);
            let (mut a, mut b) = (Traffic::default(), Traffic::default());
            a.record(1, 0, 0, &by_lane);
            b.record(1, 0, 0, &elems);
            assert_eq!(a, b, "mask {mask:#x}");
        }
    }

    #[test]
    fn footprint_and_atomics_merge_as_one_run() {
        let base = 0x3000_0000u64;
        let (mut one, mut a, mut b) = (Traffic::default(), Traffic::default(), Traffic::default());
        let w0 = lanes(GlobalOp::Load, 4, |l| base + 4 * l as u64);
        let w1 = lanes(GlobalOp::Atomic, 4, |l| base + 64 * (l % 2) as u64);
        one.record(5, 0, 0, &w0);
        one.record(5, 1, 1, &w1);
        b.record(5, 1, 1, &w1);
        a.record(5, 0, 0, &w0);
        b.merge(&a);
        assert_eq!(one, b);
        assert_eq!(one.lines_used.footprints(), (4, 2));
        // Line 0 was read by block 0 (four sectors) and hit by block 1's atomics (two): its reuse spans both.
        let first = one.lines_used.lines().next().copied();
        assert_eq!(first.map(|u| (u.first, u.last, u.touches)), Some((0, 1, 6)));
        // One request, two addresses: each counted once however many lanes hit it.
        assert_eq!(one.max_atomics_per_address(), 1);
        assert_eq!(one.line(5).unwrap().sample.as_ref().map(|s| s.warp), Some(0));
        assert_eq!(best_sectors(32, 4), 4);
        assert_eq!(sectors_of([base, base + 4, base + 40].into_iter(), 4), vec![base / 32, base / 32 + 1]);
    }

    /// The aligned fast path counts the sectors and lines, and marks the lines used, as the sector-by-sector
    /// loop does: every element size up to a sector, aligned starts across a sector, gapped and whole masks.
    #[test]
    fn aligned_sectors_are_the_loops_sectors() {
        let masks = [1u32, 0b101, 0x5555_5555, 0xffff_0001, 0x8000_0001, 0xf0f0_f0f1, 0x0001_0001, u32::MAX];
        for size in [1u64, 2, 4, 8, 16, 32] {
            for start in (4096..4096 + 2 * SECTOR_BYTES).step_by(size as usize) {
                for &lanes in &masks {
                    for op in [GlobalOp::Load, GlobalOp::Store] {
                        let (mut fast, mut slow) = (Traffic::default(), Traffic::default());
                        let got = fast.aligned_elems_sectors(op, 3, start, size, lanes);
                        let want = slow.gapped_elems_sectors(op, 3, start, size, lanes);
                        assert_eq!(got, want, "size {size} start {start} lanes {lanes:#x}");
                        assert!(fast == slow, "size {size} start {start} lanes {lanes:#x}");
                    }
                }
            }
        }
    }
}
