//! Which 32-byte sectors a warp's request touches: the distinct sectors of its lanes' addresses, ascending.

use super::{SECTOR_BYTES, WarpAccess};

/// The distinct sectors request `a` touches, ascending, into `out`; returns how many.
pub(super) fn distinct_sectors(a: &WarpAccess, out: &mut [u64; 64]) -> usize {
    let mut n = 0;
    let mut sorted = true;
    for l in crate::sim::lane_mask::LaneMask(a.mask).iter() {
        let x = a.addr(l);
        for s in x / SECTOR_BYTES..=(x + a.size.max(1) as u64 - 1) / SECTOR_BYTES {
            if n > 0 && out[n - 1] == s {
                continue;
            }
            sorted &= n == 0 || out[n - 1] < s;
            if n < out.len() {
                out[n] = s;
                n += 1;
            }
        }
    }
    if !sorted {
        out[..n].sort_unstable();
    }
    let mut m = 0;
    for i in 0..n {
        if m == 0 || out[i] != out[m - 1] {
            out[m] = out[i];
            m += 1;
        }
    }
    m
}

/// The distinct sectors that `size`-byte accesses at `addrs` touch, ascending.
pub fn sectors_of(addrs: impl Iterator<Item = u64>, size: u32) -> Vec<u64> {
    let mut s: Vec<u64> = vec![];
    for a in addrs {
        let (lo, hi) = (a / SECTOR_BYTES, (a + size.max(1) as u64 - 1) / SECTOR_BYTES);
        s.extend(lo..=hi);
    }
    s.sort_unstable();
    s.dedup();
    s
}

/// The fewest sectors `lanes` lanes' `size`-byte elements could occupy (consecutive, the first sector-aligned).
pub fn best_sectors(lanes: u32, size: u32) -> u64 {
    (lanes as u64 * size as u64).div_ceil(SECTOR_BYTES)
}
