//! The whole run's checks on what warps and blocks accessed (`parallel.rs`'s rule): the byte ranges one warp
//! instruction touched, and whether two warps of a block within a barrier interval, or two blocks at all,
//! touched the same bytes in a way whose order could show.

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::sim::commute::{AccessKind, READ, WRITE};

/// A global byte range `[lo, hi)` a warp instruction accessed, and how (`sim::commute`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Access {
    pub(super) warp: u32,
    pub(super) kind: AccessKind,
    pub(super) lo: u64,
    pub(super) hi: u64,
}

impl Access {
    pub(super) fn writes(&self) -> bool {
        self.kind != READ
    }

    /// Two warps' accesses of the same bytes make the order matter: unless both only read, or both are
    /// atomics of one commuting kind.
    pub(super) fn conflicts(&self, other: &Access) -> bool {
        (self.writes() || other.writes()) && !(self.kind == other.kind && self.kind > WRITE)
    }
}

/// Merges each warp's overlapping or adjacent reads, and its writes (a warp never conflicts with itself):
/// the same bytes per warp and kind in fewer accesses, sorted by warp.
pub(super) fn merge_per_warp(v: &mut Vec<Access>) {
    v.sort_unstable();
    let mut n = 0usize;
    for i in 0..v.len() {
        let a = v[i];
        match n.checked_sub(1).map(|m| &mut v[m]) {
            Some(m) if m.warp == a.warp && m.kind == a.kind && a.lo <= m.hi => m.hi = m.hi.max(a.hi),
            _ => {
                v[n] = a;
                n += 1;
            }
        }
    }
    v.truncate(n);
}

/// Scratch space for the hull checks: the smallest range holding each warp's accesses of a kind (its hull).
#[derive(Clone, Default)]
pub(super) struct Hulls {
    /// Indexed by warp; `(u64::MAX, 0)` for a warp with none.
    by_warp: Vec<(u64, u64)>,
    /// The hulls (lo, hi, warp), sorted.
    sorted: Vec<(u64, u64, u32)>,
}

impl Hulls {
    /// The hull of each warp's accesses among `v`, sorted; whether no two warps' hulls overlap.
    pub(super) fn disjoint<'a>(&mut self, v: impl Iterator<Item = &'a Access>) -> bool {
        const NONE: (u64, u64) = (u64::MAX, 0);
        self.by_warp.clear();
        for a in v {
            let w = a.warp as usize;
            if w >= self.by_warp.len() {
                self.by_warp.resize(w + 1, NONE);
            }
            let h = &mut self.by_warp[w];
            *h = (h.0.min(a.lo), h.1.max(a.hi));
        }
        self.sorted.clear();
        self.sorted
            .extend(self.by_warp.iter().enumerate().filter(|(_, h)| **h != NONE).map(|(w, h)| (h.0, h.1, w as u32)));
        self.sorted.sort_unstable();
        self.sorted.windows(2).all(|w| w[0].1 <= w[1].0)
    }
}

/// The common case, checked by sorting one hull per warp rather than every access: each warp works on its own
/// stretch of memory, so those hulls do not overlap (a warp's own accesses may: a warp never conflicts with
/// itself).
pub(super) fn warps_apart(v: &[Access], hulls: &mut Hulls) -> bool {
    hulls.disjoint(v.iter())
}

/// The other common case: the warps' writes keep apart (one hull per warp that writes, not overlapping another
/// warp's) and no access of a warp meets another warp's write hull; any reads may overlap (every warp of a
/// matrix product's block reads the same columns). Checked without sorting the accesses, only the hulls.
pub(super) fn writes_apart(v: &[Access], hulls: &mut Hulls) -> bool {
    if !hulls.disjoint(v.iter().filter(|a| a.writes())) {
        return false;
    }
    // The hulls are disjoint and sorted: the ones an access meets are a contiguous run from the first whose
    // end is past its start.
    let hulls = &hulls.sorted;
    v.iter().all(|a| {
        let first = hulls.partition_point(|h| h.1 <= a.lo);
        hulls[first..].iter().take_while(|h| h.0 < a.hi).all(|h| h.2 == a.warp)
    })
}

/// Does any block write bytes another block reads or writes? `writes` and `reads` are (lo, hi, block), each
/// block's own ranges disjoint.
pub(super) fn blocks_conflict(writes: &mut [(u64, u64, u64)], reads: &[(u64, u64, u64)]) -> bool {
    // (Half a million ranges at the textbook size: the sort is the one step after the blocks' runs, so it
    // runs on every core too.)
    #[cfg(feature = "parallel")]
    writes.par_sort_unstable();
    #[cfg(not(feature = "parallel"))]
    writes.sort_unstable();
    // Writes of different blocks overlapping: the interval with the largest end so far is of another block.
    let mut reach: Option<(u64, u64)> = None; // (hi, block)
    for &(lo, hi, b) in writes.iter() {
        if let Some((rh, rb)) = reach {
            if lo < rh && rb != b {
                return true;
            }
            if hi > rh {
                reach = Some((hi, b));
            }
        } else {
            reach = Some((hi, b));
        }
    }
    // Now all writes are disjoint and sorted: each read looks up the writes it overlaps.
    for &(lo, hi, b) in reads {
        let first = writes.partition_point(|w| w.1 <= lo);
        for w in &writes[first..] {
            if w.0 >= hi {
                break;
            }
            if w.2 != b {
                return true;
            }
        }
    }
    false
}

/// Sorts `commutes` and merges the overlapping and adjacent ranges of one kind; ranges of different kinds that
/// overlap stay apart (for [`commutes_conflict`] to find).
pub(super) fn merge_commutes(commutes: &mut Vec<(u64, u64, AccessKind)>) {
    commutes.sort_unstable();
    let mut n = 0usize;
    for i in 0..commutes.len() {
        let c = commutes[i];
        match n.checked_sub(1).map(|m| &mut commutes[m]) {
            Some(m) if m.2 == c.2 && c.0 <= m.1 => m.1 = m.1.max(c.1),
            _ => {
                commutes[n] = c;
                n += 1;
            }
        }
    }
    commutes.truncate(n);
}

/// Do commuting atomics of different kinds update the same global bytes, or does any block read or write
/// bytes that commuting atomics update (whose value there depends on the order)? `writes` and `reads` as in
/// [`blocks_conflict`].
pub(super) fn commutes_conflict(
    commutes: &mut Vec<(u64, u64, AccessKind)>,
    writes: &[(u64, u64, u64)],
    reads: &[(u64, u64, u64)],
) -> bool {
    if commutes.is_empty() {
        return false;
    }
    merge_commutes(commutes);
    // Merged, ranges of one kind do not overlap: an overlap left is of two kinds.
    if commutes.windows(2).any(|w| w[1].0 < w[0].1) {
        return true;
    }
    writes.iter().chain(reads).any(|&(lo, hi, _)| {
        let first = commutes.partition_point(|c| c.1 <= lo);
        commutes.get(first).is_some_and(|c| c.0 < hi)
    })
}

#[cfg(test)]
mod tests {
    use super::{Access, Hulls, blocks_conflict, commutes_conflict, warps_apart, writes_apart};

    fn acc(warp: u32, write: bool, lo: u64, hi: u64) -> Access {
        Access { warp, kind: write as u8, lo, hi }
    }

    #[test]
    fn commuting_atomics_conflict_only_with_other_kinds_and_plain_accesses() {
        let (add, or) = (Access { warp: 0, kind: 2, lo: 0, hi: 4 }, Access { warp: 1, kind: 8, lo: 0, hi: 4 });
        assert!(!add.conflicts(&Access { warp: 1, ..add }));
        assert!(add.conflicts(&or));
        assert!(add.conflicts(&acc(1, false, 0, 4)));
        assert!(!acc(0, false, 0, 4).conflicts(&acc(1, false, 0, 4)));
        // Blocks' atomics of one kind on one counter, and reads elsewhere.
        let mut c = vec![(64, 68, 2), (64, 68, 2), (0, 4, 2)];
        assert!(!commutes_conflict(&mut c, &[(8, 64, 0)], &[(68, 100, 1)]));
        assert!(commutes_conflict(&mut c, &[], &[(60, 65, 1)]));
        assert!(commutes_conflict(&mut vec![(0, 8, 2), (4, 8, 3)], &[], &[]));
    }

    #[test]
    fn warps_apart_allows_a_warps_own_overlaps_only() {
        let mut scratch = Hulls::default();
        // reduceNeighbored at stride 1, the last warp to leave the barrier first: each warp reads its ints
        // twice and writes them.
        let v = [
            acc(1, false, 128, 256),
            acc(0, false, 0, 124),
            acc(0, false, 4, 128),
            acc(0, true, 0, 124),
            acc(2, false, 256, 260),
        ];
        assert!(warps_apart(&v, &mut scratch));
        // Warp 1 reads what warp 0 wrote (or only reads it: the sorting check decides).
        assert!(!warps_apart(&[acc(0, true, 0, 128), acc(1, false, 124, 130)], &mut scratch));
        assert!(!warps_apart(&[acc(1, false, 124, 130), acc(0, false, 0, 128)], &mut scratch));
        // A warp coming back after another is checked against it.
        assert!(!warps_apart(&[acc(0, false, 0, 8), acc(1, false, 8, 16), acc(0, true, 4, 20)], &mut scratch));
    }

    #[test]
    fn writes_apart_allows_shared_reads_and_own_writes_only() {
        let mut scratch = Hulls::default();
        // A 16 x 16 matrix product's block: every warp reads the same column of B (bytes 1000..1064), each
        // its own rows of A, then each writes and reads back its own two rows of C.
        let v = [
            acc(0, false, 1000, 1064),
            acc(1, false, 1000, 1064),
            acc(0, false, 0, 4),
            acc(1, false, 8, 12),
            acc(0, true, 5000, 5064),
            acc(0, true, 5128, 5192),
            acc(0, false, 5000, 5064),
            acc(1, true, 5256, 5320),
        ];
        assert!(!warps_apart(&v, &mut scratch), "the warps' hulls overlap on B");
        assert!(writes_apart(&v, &mut scratch));
        // Warp 1 reads between warp 0's two rows of C: inside warp 0's write hull, so refused (conservatively).
        assert!(!writes_apart(&[acc(0, true, 0, 64), acc(0, true, 128, 192), acc(1, false, 64, 128)], &mut scratch));
        // Two warps' writes overlap.
        assert!(!writes_apart(&[acc(0, true, 0, 64), acc(1, true, 60, 70)], &mut scratch));
        // A read ending where a write begins does not meet it.
        assert!(writes_apart(&[acc(0, true, 64, 128), acc(1, false, 0, 64), acc(2, false, 128, 130)], &mut scratch));
    }

    #[test]
    fn blocks_conflict_only_on_shared_bytes_with_a_write() {
        // Disjoint writes, reads of one's own writes and shared reads: fine.
        let writes = vec![(0, 8, 0), (8, 16, 1), (100, 104, 2)];
        assert!(!blocks_conflict(&mut writes.clone(), &[(0, 8, 0), (8, 12, 1), (200, 300, 0), (200, 300, 1)]));
        // One block reads another's write.
        assert!(blocks_conflict(&mut writes.clone(), &[(4, 12, 0)]));
        // Two blocks write overlapping bytes, even behind a longer interval of a third.
        assert!(blocks_conflict(&mut [(0, 100, 0), (10, 20, 1)], &[]));
        assert!(blocks_conflict(&mut [(0, 100, 0), (200, 210, 0), (205, 206, 1)], &[]));
    }
}
