//! A warp's addresses as a few runs of neighbouring lanes: along a run each lane accesses the element after
//! its neighbour's or the same one. A warp of a 16 x 16 block reads two rows of a matrix (`B[i * n + col]`:
//! two runs of 16 elements) or two broadcasts (`A[row * n + i]`: two runs of one element); a warp of an 8 x
//! 8 block, four of each. Found in one pass over neighbouring lanes, the runs' byte spans answer which
//! sectors a request touched and which bytes it read without sorting and merging 32 addresses lane by lane,
//! which global memory's bookkeeping did on every such request.

/// The most runs described; a warp with more is left to the lane-by-lane path.
const MAX_RUNS: usize = 8;

/// The bytes a warp's lanes accessed, as spans `[lo, hi)` sorted by `lo` (they may overlap or touch: two
/// half-warps reading one row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneRuns {
    spans: [(u64, u64); MAX_RUNS],
    len: usize,
}

impl LaneRuns {
    /// The runs of the lanes of `mask`, each accessing `size` bytes at `addrs[lane]`, when the active lanes
    /// are one stretch (every lane from the lowest to the highest) that falls into at most [`MAX_RUNS`]
    /// runs; None otherwise.
    #[inline(always)]
    pub fn of(addrs: &[u64; 32], mask: u32, size: u64) -> Option<LaneRuns> {
        if mask == 0 {
            return None;
        }
        let first = mask.trailing_zeros();
        let stretch = mask >> first;
        if stretch & stretch.wrapping_add(1) != 0 {
            return None;
        }
        // Bit `l`: lane `l` neither repeats lane `l - 1`'s element nor takes the next one.
        let breaks = crate::sim::lane_bits::step_breaks(addrs, size);
        let starts = (breaks & mask & !(1 << first)) | (1 << first);
        if starts.count_ones() as usize > MAX_RUNS {
            return None;
        }
        let end = 32 - mask.leading_zeros();
        let mut runs = LaneRuns { spans: [(0, 0); MAX_RUNS], len: 0 };
        let mut rest = starts;
        while rest != 0 {
            let s = rest.trailing_zeros();
            rest &= rest - 1;
            let e = if rest == 0 { end } else { rest.trailing_zeros() };
            let span = (addrs[s as usize], addrs[e as usize - 1] + size);
            // Insertion by `lo`: a handful of runs, mostly ascending already.
            let mut i = runs.len;
            while i > 0 && runs.spans[i - 1].0 > span.0 {
                runs.spans[i] = runs.spans[i - 1];
                i -= 1;
            }
            runs.spans[i] = span;
            runs.len += 1;
        }
        Some(runs)
    }

    /// The spans, sorted by their start.
    pub fn spans(&self) -> &[(u64, u64)] {
        &self.spans[..self.len]
    }

    /// The distinct `unit`-byte blocks (sectors) the spans touch, as ascending runs `(first, last)` of block
    /// numbers that neither overlap nor touch; `each` gets every run. Returns how many blocks.
    #[inline(always)]
    pub fn units(&self, unit: u64, mut each: impl FnMut(u64, u64)) -> u64 {
        let mut count = 0;
        let mut cur: Option<(u64, u64)> = None;
        for &(lo, hi) in self.spans() {
            let (a, b) = (lo / unit, (hi - 1) / unit);
            cur = match cur {
                Some((x, y)) if a <= y + 1 => Some((x, y.max(b))),
                Some((x, y)) => {
                    count += y - x + 1;
                    each(x, y);
                    Some((a, b))
                }
                None => Some((a, b)),
            };
        }
        if let Some((x, y)) = cur {
            count += y - x + 1;
            each(x, y);
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the lanes touch, byte by byte and sector by sector, computed the slow way.
    fn bytes_and_sectors(addrs: &[u64; 32], mask: u32, size: u64) -> (Vec<u64>, Vec<u64>) {
        let mut bytes: Vec<u64> =
            (0..32).filter(|l| mask >> l & 1 != 0).flat_map(|l| addrs[l]..addrs[l] + size).collect();
        bytes.sort_unstable();
        bytes.dedup();
        let mut sectors: Vec<u64> = bytes.iter().map(|b| b / 32).collect();
        sectors.dedup();
        (bytes, sectors)
    }

    #[test]
    fn runs_cover_the_lanes_bytes_and_sectors_exactly() {
        const N: u64 = 1024;
        type Shape = (&'static str, u64, Box<dyn Fn(u64) -> u64>);
        let shapes: Vec<Shape> = vec![
            ("two rows of 16", 4, Box::new(|l| 0x4000 + (l / 16) * 4 * N + (l % 16) * 4)),
            ("two broadcasts", 4, Box::new(|l| 0x9000 + (l / 16) * 4 * N)),
            ("rows in descending order", 4, Box::new(|l| 0x40000 - (l / 8) * 4 * N + (l % 8) * 4)),
            ("one broadcast", 8, Box::new(|_| 0x7ff8)),
            ("a row", 8, Box::new(|l| 0x1000 + 8 * l)),
            ("misaligned floats", 4, Box::new(|l| 0x1002 + 4 * l)),
            ("halves on one row", 4, Box::new(|l| 0x3000 + (l % 16) * 4)),
            ("halves overlapping", 4, Box::new(|l| 0x3000 + (l % 16) * 4 + (l / 16) * 40)),
            ("sectors touching", 4, Box::new(|l| 0x3000 + if l < 16 { 4 * l } else { 0x1000 + 4 * l })),
            ("eight rows", 4, Box::new(|l| 0x8000 + (l / 4) * 4 * N + (l % 4) * 4)),
            ("stride 2", 4, Box::new(|l| 0x1000 + 8 * l)),
        ];
        for (name, size, f) in &shapes {
            let addrs: [u64; 32] = std::array::from_fn(|l| f(l as u64));
            for mask in [u32::MAX, 0xffff, 0xffff_0000, 0x0fff_fff0, 1 << 17, 0x8000_0001, 0x0f0f_f0f0] {
                let (bytes, sectors) = bytes_and_sectors(&addrs, mask, *size);
                let Some(runs) = LaneRuns::of(&addrs, mask, *size) else {
                    // Only lanes with a gap between them, or too many runs, may answer None.
                    let first = mask.trailing_zeros();
                    let stretch = mask >> first;
                    assert!(stretch & stretch.wrapping_add(1) != 0 || *name == "stride 2", "{name} {mask:#x}");
                    continue;
                };
                let mut got: Vec<u64> = runs.spans().iter().flat_map(|&(lo, hi)| lo..hi).collect();
                got.sort_unstable();
                got.dedup();
                assert_eq!(got, bytes, "{name} {mask:#x}");
                assert!(runs.spans().windows(2).all(|w| w[0].0 <= w[1].0), "{name}");
                let mut units = vec![];
                let mut last = None;
                let count = runs.units(32, |a, b| {
                    assert!(last.is_none_or(|l| a > l + 1), "{name}: runs apart and ascending");
                    last = Some(b);
                    units.extend(a..=b);
                });
                assert_eq!(units, sectors, "{name} {mask:#x}");
                assert_eq!(count, sectors.len() as u64);
            }
        }
    }
}
